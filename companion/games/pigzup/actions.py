"""PigzUp!'s actions. Players are seats; cards are face ids of the deck spec (``3-pink-blue``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.games.actions import Action, Seat


@dataclass(frozen=True)
class Flip(Action):
    """A player turns their top card face up onto their personal pile (seen by the camera)."""

    type: ClassVar[str] = "flip"
    player: Seat
    card: str


@dataclass(frozen=True)
class MatchVerdict(Action):
    """How a race ended: the winner (a racer), or ``None`` for a void match. From the judge or the referee;
    the timings (ms from the match call to the valid shout, and from the first piggy lifted to the shout) feed
    the reaction stats."""

    type: ClassVar[str] = "verdict"
    winner: Seat | None
    reason: str = ""
    reaction_ms: int | None = None
    stacking_ms: int | None = None


@dataclass(frozen=True)
class WrongStyle(Action):
    """Die variation: the referee reports that a racer stacked in the wrong style; the other racer wins."""

    type: ClassVar[str] = "wrong-style"
    player: Seat


@dataclass(frozen=True)
class RollDie(Action):
    """Die variation: the companion rolls the die (seeded, so the log replays it) to set the stacking style."""

    type: ClassVar[str] = "roll"
    chance: ClassVar[bool] = True
    seed: int
