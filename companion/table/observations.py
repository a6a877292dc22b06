"""What the camera and the devices tell the table: cards coming and going, pile states, button presses.

These types live in the table layer because the games' table adapters consume them; the camera and the devices
produce them. Times are the host's ``time.monotonic()`` seconds, so camera, pads and buttons share one clock.
The camera's observations and their timing are described in ``docs/architecture.md`` ("What the camera
reports").
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class PileState(StrEnum):
    """A pad's pile, as the estimator reads it from the load cell and the tilt sensor."""

    EMPTY = "empty"
    BUILDING = "building"
    STABLE = "stable"
    TOUCHED = "touched"
    TOPPLED = "toppled"
    FAULT = "fault"


def pile_label(state: PileState, count: int) -> str:
    """``stable(3)``, ``touched``...: how pile states are written in logs, tests and the terminal."""
    return f"stable({count})" if state is PileState.STABLE else state.value


@dataclass(frozen=True, slots=True)
class PadReading:
    """A pad's state at time ``t``: sent for every sample, so the judge sees time pass on each pad."""

    seat: int
    state: PileState
    count: int
    t: float
    detail: str = ""
    grams: float | None = None  # the weight the state was read from (kept in the race's trace)


@dataclass(frozen=True, slots=True)
class PadVibration:
    """A pad's tilt/vibration input changed at ``t`` (``level`` 1: active). Evidence for a race's trace: the
    pile estimator has already taken it into the pad's state."""

    seat: int
    level: int
    t: float


@dataclass(frozen=True, slots=True)
class PadsTared:
    """The pads' zeros were set (``zeros``: raw counts by seat) at ``t``, or the tare was ``refused`` (why)."""

    zeros: dict[int, float]
    t: float
    refused: str = ""


@dataclass(frozen=True, slots=True)
class ButtonPress:
    """A seat's "PIGZUP!" button went down at time ``t`` (already debounced)."""

    seat: int
    t: float


@dataclass(frozen=True, slots=True)
class ButtonEdge:
    """An edge of a seat's button as the GPIO reported it, before the debounce: ``down`` or up, and whether the
    debounce ``taken`` it (a press) or ignored it (contact chatter). Evidence for a race's trace."""

    seat: int
    down: bool
    t: float
    taken: bool


class Orientation(StrEnum):
    """How a card lies against its zone's player: long side towards them, or turned a quarter (Capture's rested)."""

    UPRIGHT = "upright"
    SIDEWAYS = "sideways"


@dataclass(frozen=True)
class CardSeen:
    """A card has come to rest face up in ``zone`` (a mat zone such as ``seat-3``/``centre``, or ``table``).

    Emitted once per card arriving or turning face up, after it has been steady for a few frames; a hand
    passing over it, or the card being covered and uncovered, emits nothing new. ``face`` is a face id of the
    deck in play, never a guess: a card the recogniser is unsure of is a ``CardUnreadable`` instead.
    ``orientation`` is how it lies against the zone's player (``CardTurned`` reports a later turn).
    """

    zone: str
    face: str
    confidence: float
    frame: int = 0
    orientation: Orientation = Orientation.UPRIGHT


@dataclass(frozen=True)
class CardTurned:
    """A reported card lying in ``zone`` has been turned in place to ``orientation`` (upright <-> sideways):
    after ``steady_frames`` frames lying the new way. A card turned face down or taken away is not a turn."""

    zone: str
    face: str
    orientation: Orientation
    frame: int = 0


@dataclass(frozen=True)
class CardUnreadable:
    """A card has lain still in ``zone`` for a while and the camera cannot name it: the table must ask."""

    zone: str
    best: str  # the closest face, for the referee's prompt only: never recorded as what the card is
    frame: int = 0


@dataclass(frozen=True)
class CardGone:
    """A card reported in ``zone`` is no longer there (taken back, collected, discarded), and no card covers
    where it lay. Reported after the camera has missed it for ``forget_frames`` frames.

    ``face_down``: the card was turned face down where it lay (Capture's hidden), not taken away: for
    ``forget_frames`` frames its face has not shown while a card back lay in its place."""

    zone: str
    face: str
    frame: int = 0
    face_down: bool = False


@dataclass(frozen=True)
class ZoneCleared:
    """The last card the camera knew of in ``zone`` is gone: a trick collected, a kennel discarded."""

    zone: str
    frame: int = 0


@dataclass(frozen=True)
class QuietFrame:
    """The camera read frame ``frame`` and it completed no other observation. Sent for every frame the tracker
    counts, so that a table waiting a number of frames (until a card would have been reported gone) counts them
    while nothing changes: on a busy machine, or a slow camera, frames come slower than the host's clock."""

    frame: int


CameraObservation = CardSeen | CardTurned | CardUnreadable | CardGone | ZoneCleared | QuietFrame
