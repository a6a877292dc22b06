"""What the devices tell the table: pile states of the PigzUp! pads and button presses.

These types live in the table layer because the table's adapters (the match judge) consume them; the
devices produce them. Times are the host's ``time.monotonic()`` seconds, so pads and buttons share one clock.
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


@dataclass(frozen=True, slots=True)
class ButtonPress:
    """A seat's "PIGZUP!" button went down at time ``t`` (already debounced)."""

    seat: int
    t: float
