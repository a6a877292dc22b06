"""Clash of Corgis Treasure Island's state: parties, loot piles, foes and the discard pile are face up; hands
and the deck are known only in full-information play."""

from __future__ import annotations

import copy
import enum
from dataclasses import dataclass, field

from companion.games.base import GameState, Outcome
from companion.games.clash_of_corgis.effects import ActiveEffect, Role


class Phase(enum.Enum):
    DEAL = "deal"
    BUILD = "build"  # Phase 2: play up to one card to the party
    TARGET = "target"  # an effect's player names its target
    PARRY = "parry"  # the target may parry with a Samurai
    PICK = "pick"  # Fighter, Mage, Archer: a card selected from the target's hand, looked at privately
    REVEAL = "reveal"  # a real table shows cards the referee could not know (foes, a Berserker's victim's hand)
    CHOOSE = "choose"  # an effect's player chooses a card to discard (Berserker's tie, Assassin)
    ORACLE = "oracle"  # the Oracle's private look at the top card
    FIGHT = "fight"  # Phase 3a: fight 1-3 foes, or end the turn
    WIND = "wind"  # the Wind bonus: replace a foe, or not
    RETIRE = "retire"  # Phase 3c with a choice: the Healer's card, the Earth bonus's party
    RESHUFFLE = "reshuffle"  # the deck ran out: the discard pile becomes the deck
    OVER = "over"


@dataclass(frozen=True)
class Battle:
    """A fight under way: who fights, how many foes were declared, and whether the Monk forced it."""

    seat: int
    wanted: int
    forced: bool = False
    wind_done: bool = False


@dataclass(frozen=True)
class FightResult:
    seat: int
    party: tuple[str, ...]
    foes: tuple[str, ...]
    party_total: int
    foes_total: int
    won: bool
    bonus: str | None


@dataclass
class TreasureState(GameState):
    phase: Phase = Phase.DEAL
    first: int = 0
    turn: int = 0
    turns: int = 0
    hands: list[list[str]] | None = None  # full-information play only
    hand_counts: list[int] = field(default_factory=list)
    parties: list[list[str]] = field(default_factory=list)
    loot: list[list[str]] = field(default_factory=list)
    deck: list[str] | None = None  # full-information play only; index 0 is the top card
    deck_count: int = 0
    discard: list[str] = field(default_factory=list)
    foes: list[str] = field(default_factory=list)  # known foes: all of them in full-information play
    foes_hidden: int = 0  # foes taken and still face down (the last ones of ``foes`` when they are known)
    battle: Battle | None = None
    pending: ActiveEffect | None = None
    revealed: list[str] = field(default_factory=list)  # a hand the Berserker made its player reveal
    wild_copy: Role | None = None  # the effect the turn player's Wild copies "for this turn only"
    resume: str | None = None  # what to carry on with after a reshuffle
    resume_phase: Phase | None = None
    last_fight: FightResult | None = None
    looks: int = 0  # private looks (Oracle, Fighter, Mage, Archer): recorded as having happened
    result: Outcome | None = None

    @property
    def full_information(self) -> bool:
        return self.hands is not None

    def clone(self) -> TreasureState:
        new = copy.copy(self)
        new.hands = [list(h) for h in self.hands] if self.hands is not None else None
        new.hand_counts = list(self.hand_counts)
        new.parties = [list(p) for p in self.parties]
        new.loot = [list(p) for p in self.loot]
        new.deck = list(self.deck) if self.deck is not None else None
        new.discard = list(self.discard)
        new.foes = list(self.foes)
        new.revealed = list(self.revealed)
        return new

    def foes_taken(self) -> int:
        return len(self.foes) + (0 if self.hands is not None else self.foes_hidden)

    def foes_face_up(self) -> list[str]:
        return self.foes[: len(self.foes) - self.foes_hidden] if self.hands is not None else list(self.foes)

    def public_cards(self) -> set[str]:
        """Cards whose place everyone knows: parties, loot, foes shown and the discard pile."""
        table = [c for p in self.parties for c in p] + [c for p in self.loot for c in p]
        return set(table) | set(self.discard) | set(self.foes)

    def all_cards(self) -> list[str]:
        """Every card the state accounts for (full-information play): always the 55."""
        assert self.hands is not None and self.deck is not None
        held = [c for h in self.hands for c in h] + [c for p in self.parties for c in p]
        return sorted(held + [c for p in self.loot for c in p] + self.deck + self.discard + self.foes)
