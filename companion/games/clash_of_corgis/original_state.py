"""Clash of Corgis Original's state: what the referee sees (the middle of the table, exposed hands, counts) and,
in full-information play, every hand and the deck's order."""

from __future__ import annotations

import copy
import enum
from dataclasses import dataclass, field

from companion.games.base import GameState, Outcome
from companion.games.clash_of_corgis.effects import ActiveEffect, Role


class Phase(enum.Enum):
    DEAL = "deal"
    PLAY = "play"  # the turn's player beats or passes (or leads)
    DECLARE = "declare"  # the Monk's player says high or low
    TARGET = "target"  # the Archer's player names a target
    PARRY = "parry"  # the target of an effect may parry with a Samurai
    PICK = "pick"  # the Archer's random pick from the target's hand
    EXPOSE = "expose"  # a player exposes a card of their choosing (Fighter, Berserker)
    ORACLE = "oracle"  # the Oracle's private look at the top of the deck
    HEAL = "heal"  # the Healer's return of a card under the deck
    DISCARD = "discard"  # the Mage's Burn
    OVER = "over"


@dataclass(frozen=True)
class Lead:
    """The leading combo: whose, which cards, its rank (Ace 10; a Wild's copied rank, 0 when it leads) and the
    effect it carries (a Wild's copied one; ``None``: no effect)."""

    owner: int
    cards: tuple[str, ...]
    rank: int
    role: Role | None
    effect_card: str


@dataclass(frozen=True)
class Pending(ActiveEffect):
    low: bool = False  # the Monk's declaration, in force once no Samurai parries it


@dataclass
class OriginalState(GameState):
    phase: Phase = Phase.DEAL
    first: int = 0
    turn: int = 0
    round: int = 0
    hands: list[list[str]] | None = None  # the hidden part of each hand, full-information play only
    hand_counts: list[int] = field(default_factory=list)  # the hidden part of each hand
    exposed: list[list[str]] = field(default_factory=list)  # "The exposed hand is part of a player's hand."
    locked: list[str] = field(default_factory=list)  # exposed by a Fighter: not playable this round
    deck: list[str] | None = None  # full-information play only; index 0 is the top card
    deck_count: int = 0
    pile: list[str] = field(default_factory=list)  # this round's combos, oldest first
    discard: list[str] = field(default_factory=list)
    lead: Lead | None = None
    low: bool = False  # the Monk's 'low' is in force for the next play
    bard_suit: str | None = None  # the Bard's extra turn is on: the play must include this suit
    skip: int | None = None  # the Assassin's target, whose next turn is skipped
    pending: Pending | None = None
    passed: list[int] = field(default_factory=list)  # who passed since the leading combo was played
    rounds_won: list[int] = field(default_factory=list)
    looks: int = 0  # private looks at the deck (the Oracle): recorded as having happened, not what was seen
    result: Outcome | None = None

    @property
    def full_information(self) -> bool:
        return self.hands is not None

    def hand_size(self, seat: int) -> int:
        return self.hand_counts[seat] + len(self.exposed[seat])

    def clone(self) -> OriginalState:
        new = copy.copy(self)
        new.hands = [list(h) for h in self.hands] if self.hands is not None else None
        new.hand_counts = list(self.hand_counts)
        new.exposed = [list(e) for e in self.exposed]
        new.locked = list(self.locked)
        new.deck = list(self.deck) if self.deck is not None else None
        new.pile = list(self.pile)
        new.discard = list(self.discard)
        new.passed = list(self.passed)
        new.rounds_won = list(self.rounds_won)
        return new

    def public_cards(self) -> set[str]:
        """Cards whose place everyone knows: the middle, the discard pile and the exposed hands."""
        return set(self.pile) | set(self.discard) | {c for e in self.exposed for c in e}

    def all_cards(self) -> list[str]:
        """Every card the state accounts for (full-information play): always the 55."""
        assert self.hands is not None and self.deck is not None
        held = [c for h in self.hands for c in h] + [c for e in self.exposed for c in e]
        return sorted(held + self.deck + self.pile + self.discard)
