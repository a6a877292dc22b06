"""Clash of Corgis Capture the Illusionist's state: each player's table of three rows of four (front, back and
the exposed hand row), every card's position — hidden, revealed or rested (turned sideways) — and the hands.
At a real table a hidden card's face is unknown (``None``); every look is recorded, never what was seen."""

from __future__ import annotations

import copy
import enum
from dataclasses import dataclass, field

from companion.games.base import GameState, Outcome
from companion.games.clash_of_corgis import cards
from companion.games.clash_of_corgis.effects import Role

COLUMNS = (1, 2, 3, 4)  # table columns, numbered from the first player's left (Ruling CI-1)
GRID_ROWS = ("front", "back")
EXPOSED = "exposed"
HAND = "hand"
GRID_SLOTS = tuple(f"{row}-{c}" for row in GRID_ROWS for c in COLUMNS)


def row_of(slot: str) -> str:
    return slot.rsplit("-", 1)[0]


def column_of(slot: str) -> int:
    return int(slot.rsplit("-", 1)[1])


class Position(enum.Enum):
    """"Please note the 3 unique card positions: Hidden, Revealed, and Rested." """

    HIDDEN = "hidden"  # face down
    REVEALED = "revealed"  # "face-up and vertical"
    RESTED = "rested"  # "face-up and horizontal": the camera sees it sideways


@dataclass(frozen=True)
class Cell:
    card: str | None  # None: face down and unknown to the referee (a real table)
    position: Position


class Phase(enum.Enum):
    DEAL = "deal"
    ACTIVATE = "activate"  # Insight (once, optional) then Activate a Card; or "activate another card"
    LOOK = "look"  # the Oracle's private look
    REST = "rest"  # the Bard
    GATHER = "gather"  # the Healer's or the Wild's cards to re-arrange
    REVEAL = "reveal"  # someone reveals a hidden card
    SELECT = "select"  # the Assassin's target selects a card
    GUESS = "guess"  # the Assassin declares a rank
    PICK = "pick"  # a random card from a hand
    SAVE = "save"  # the Illusionist revealed: save it, or not
    SHUFFLE = "shuffle"  # cards shuffled face down into their places
    OVER = "over"


@dataclass(frozen=True)
class Pending:
    """An effect being resolved: whose, which card, who chooses next and among which slots, and where it is."""

    role: Role
    player: int
    card: str
    chooser: int = 0
    owner: int = 0  # whose cards the choice is among
    slots: tuple[str, ...] = ()
    stage: str = ""
    column: int | None = None  # a hand reveal's column in the exposed row
    guess: str | None = None  # the Assassin's declared rank
    resolved: bool = False


@dataclass(frozen=True)
class Shuffling:
    """Cards about to be shuffled face down into ``places`` (a table slot, or ``hand``), then ``then`` goes on."""

    seat: int
    places: tuple[str, ...]
    cards: tuple[str | None, ...]
    then: str


@dataclass(frozen=True)
class Threat:
    """An Illusionist revealed by the opponent's effect: where it was hidden before, for a save to return it."""

    seat: int
    slot: str  # where it lies face up now
    home: str  # "its original hidden position": a table slot or the hand


@dataclass
class CaptureState(GameState):
    suits: tuple[str, ...] = ()
    phase: Phase = Phase.DEAL
    first: int = 0
    turn: int = 0
    turns: int = 0
    tables: list[dict[str, Cell]] = field(default_factory=list)  # per seat: slot -> cell; a missing slot is empty
    hands: list[list[str]] | None = None  # full-information play only
    hand_counts: list[int] = field(default_factory=list)
    out: list[list[str]] = field(default_factory=list)  # per seat: discarded "outside the main playing area"
    captures: list[int] = field(default_factory=list)
    activated: list[str] = field(default_factory=list)  # cards activated this turn
    insight_used: bool = False
    chain: bool = False  # "Then, activate another card."
    pending: Pending | None = None
    shuffling: Shuffling | None = None
    threat: Threat | None = None
    looks: list[int] = field(default_factory=list)  # private looks per seat (Insight, the Oracle)
    result: Outcome | None = None

    @property
    def full_information(self) -> bool:
        return self.hands is not None

    def clone(self) -> CaptureState:
        new = copy.copy(self)
        new.tables = [dict(t) for t in self.tables]
        new.hands = [list(h) for h in self.hands] if self.hands is not None else None
        new.hand_counts = list(self.hand_counts)
        new.out = [list(o) for o in self.out]
        new.captures = list(self.captures)
        new.activated = list(self.activated)
        new.looks = list(self.looks)
        return new

    def slots_where(self, seat: int, position: Position, rows: tuple[str, ...] = (*GRID_ROWS, EXPOSED)) -> list[str]:
        return [slot for slot, cell in self.tables[seat].items() if cell.position is position and row_of(slot) in rows]

    def known(self, seat: int) -> set[str]:
        """The cards of ``seat`` whose place the referee knows: face up on the table, or out of play."""
        return {c.card for c in self.tables[seat].values() if c.card and c.position is not Position.HIDDEN} | set(
            self.out[seat])

    def all_cards(self) -> list[str]:
        """Every card the state accounts for (full-information play): both players' 22, and the 33 set aside."""
        assert self.hands is not None
        mine = [c.card for t in self.tables for c in t.values() if c.card] + [c for h in self.hands for c in h]
        mine += [c for o in self.out for c in o]
        aside = [c for c in cards.all_cards() if cards.suit(c) not in self.suits]
        return sorted(mine + aside)
