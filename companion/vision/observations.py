"""What the camera tells the table: observation types the table layer consumes."""

from __future__ import annotations

from dataclasses import dataclass

UNKNOWN = "unknown"


@dataclass(frozen=True)
class CardSeen:
    """A card has come to rest face up in ``zone`` (a mat zone such as ``seat-3``/``centre``, or ``table``).

    Emitted once per card arriving or turning face up, after it has been steady for a few frames; a hand
    passing over it, or the card being covered and uncovered, emits nothing new. ``face`` is a face id of the
    deck in play, never a guess: a card the recogniser is unsure of is not reported.
    """

    zone: str
    face: str
    confidence: float
    frame: int = 0


@dataclass(frozen=True)
class CameraStatus:
    """The camera's health, for the status page: ``ok`` False while it is unplugged or unreadable."""

    ok: bool
    message: str
