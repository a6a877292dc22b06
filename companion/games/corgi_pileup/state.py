"""Corgi Pileup's state: what the referee knows, and (in full-information play) what everyone holds."""

from __future__ import annotations

import copy
import enum
from dataclasses import dataclass, field

from companion.games.base import Finding, GameState, Outcome

NUMBERS = range(1, 11)
COPIES = 5
TARGET = 15  # "Continue playing rounds until someone's score exceeds 15"


class Phase(enum.Enum):
    DEAL = "deal"
    PLAY = "play"
    SIX_TARGET = "six-target"
    SIX_DISCARD = "six-discard"
    RESHUFFLE = "reshuffle"
    CHOOSE_LEADER = "choose-leader"
    SCORE_ONES = "score-ones"
    OVER = "over"


class Claim(enum.Enum):
    """What a card below the trick's highest says about the hand it came from."""

    LOWEST = "lowest"
    HIGHEST = "highest"


@dataclass(frozen=True)
class HandEvent:
    """One thing that happened to a player's hand this round, kept for the end-of-round audit."""

    trick: int
    kind: str  # "play", "discard" or "draw"
    card: int | None = None
    claim: Claim | None = None


@dataclass(frozen=True)
class RoundScore:
    """How a round was scored: each seat's points (0 for a seat that played no card in the final trick), the
    seats whose score passed 15 and went back to 0, and the scores after."""

    round: int
    points: tuple[int, ...]
    reset: tuple[int, ...]
    scores: tuple[int, ...]

    def to_json(self) -> dict[str, object]:
        return {"round": self.round, "points": list(self.points), "reset": list(self.reset),
                "scores": list(self.scores)}


@dataclass
class CorgiState(GameState):
    hand_size: int
    underdog: bool
    scores: list[int]
    leader: int
    phase: Phase = Phase.DEAL
    round: int = 0
    trick_no: int = 0
    trick: list[tuple[int, int]] = field(default_factory=list)  # (seat, card) in the order played
    hand_counts: list[int] = field(default_factory=list)
    hands: list[list[int]] | None = None  # known only in full-information play
    deck: list[int] | None = None  # known only in full-information play; the top card is the last
    deck_count: int = 0
    set_aside: list[int] = field(default_factory=list)  # this round's finished tricks and 6-discards
    decider: int | None = None  # who must choose (6 target, next leader)
    six_target: int | None = None
    ones_pending: list[int] = field(default_factory=list)
    one_values: dict[int, int] = field(default_factory=dict)
    final_trick: list[tuple[int, int]] = field(default_factory=list)
    ten_in_final: bool = False
    last_trick: list[tuple[int, int]] = field(default_factory=list)  # the last finished trick, in play order
    last_winner: int | None = None  # who won it
    rounds: list[RoundScore] = field(default_factory=list)
    history: list[list[HandEvent]] = field(default_factory=list)  # per seat, this round
    audit: list[Finding] = field(default_factory=list)
    result: Outcome | None = None

    @property
    def full_information(self) -> bool:
        return self.hands is not None

    def clone(self) -> CorgiState:
        """A copy that shares nothing mutable: ``apply`` works on it so a refusal leaves the original intact."""
        new = copy.copy(self)
        new.scores = list(self.scores)
        new.trick = list(self.trick)
        new.hand_counts = list(self.hand_counts)
        new.hands = [list(h) for h in self.hands] if self.hands is not None else None
        new.deck = list(self.deck) if self.deck is not None else None
        new.set_aside = list(self.set_aside)
        new.ones_pending = list(self.ones_pending)
        new.one_values = dict(self.one_values)
        new.final_trick = list(self.final_trick)
        new.last_trick = list(self.last_trick)
        new.rounds = list(self.rounds)
        new.history = [list(h) for h in self.history]
        new.audit = list(self.audit)
        return new

    def all_cards(self) -> list[int]:
        """Every card the state accounts for (full-information play): always the whole deck of 50."""
        assert self.hands is not None and self.deck is not None
        cards = list(self.deck) + list(self.set_aside) + [c for _, c in self.trick]
        for hand in self.hands:
            cards.extend(hand)
        return sorted(cards)
