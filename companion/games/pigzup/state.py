"""PigzUp!'s state: stacks (face down), personal face-up piles, the common discard pile, and the race."""

from __future__ import annotations

import copy
import enum
from dataclasses import dataclass, field

from companion.games.base import GameState, Outcome


class Phase(enum.Enum):
    DEAL = "deal"
    ROLL = "roll"
    FLIP = "flip"
    RACE = "race"
    OVER = "over"


class Style(enum.Enum):
    """The die's stacking styles (Ruling PZ-15: faces 1-2, 3-4 and 5-6)."""

    ONE_HAND = "one hand"
    FINGERS = "fingers"
    EARS = "by the ears"


@dataclass(frozen=True)
class Race:
    """A called match: who races, for how many piggies, and which flip called it."""

    flipper: int
    opponent: int
    piggies: int
    cards: tuple[str, str]

    @property
    def racers(self) -> tuple[int, int]:
        return (self.flipper, self.opponent)


@dataclass(frozen=True)
class MatchResult:
    race: Race
    winner: int | None
    reason: str
    reaction_ms: int | None = None
    stacking_ms: int | None = None


@dataclass
class PigzState(GameState):
    deck_size: int
    die: bool
    phase: Phase = Phase.DEAL
    turn: int = 0
    stack_counts: list[int] = field(default_factory=list)
    stacks: list[list[str]] | None = None  # full-information play only; index 0 is the top card
    faceup: list[list[str]] = field(default_factory=list)  # per seat, bottom first; the last is the visible top
    discard: list[str] = field(default_factory=list)
    out_of_play: list[str] = field(default_factory=list)  # the deal's remainder (Ruling PZ-14), if known
    out_of_play_count: int = 0
    race: Race | None = None
    style: Style | None = None
    die_face: int | None = None
    results: list[MatchResult] = field(default_factory=list)
    result: Outcome | None = None

    @property
    def full_information(self) -> bool:
        return self.stacks is not None

    def cards_held(self, seat: int) -> int:
        """Cards a player still has: their stack and their face-up pile."""
        return self.stack_counts[seat] + len(self.faceup[seat])

    def clone(self) -> PigzState:
        new = copy.copy(self)
        new.stack_counts = list(self.stack_counts)
        new.stacks = [list(s) for s in self.stacks] if self.stacks is not None else None
        new.faceup = [list(f) for f in self.faceup]
        new.discard = list(self.discard)
        new.out_of_play = list(self.out_of_play)
        new.results = list(self.results)
        return new

    def all_cards(self) -> list[str]:
        """Every card the state accounts for (full-information play): always the whole deck."""
        assert self.stacks is not None
        cards = self.discard + self.out_of_play + [c for s in self.stacks for c in s]
        cards += [c for f in self.faceup for c in f]
        return sorted(cards)
