"""Crazy Corgi's state: the deck, the draw zone, the discard pile and every player's three Kennels."""

from __future__ import annotations

import copy
import enum
from dataclasses import dataclass, field

from companion.games.base import GameState, Outcome
from companion.games.crazy_corgi.sets import Score, is_event

WIN_POINTS = 5  # "The game ends immediately when one of the players reaches 5 or more points."
MIN_DRAW = 2  # "you must reveal at least 2 cards from the deck"
MAX_DRAW = 4  # "to a maximum of 4 cards (unless instructed otherwise by an Event card)"
COLLAR_DRAWS = 2  # "You are forced to draw two more cards from the deck."


class Phase(enum.Enum):
    SHUFFLE = "shuffle"  # before the first shuffle
    RESHUFFLE = "reshuffle"  # a card is needed and the deck is empty (derived: see ``CrazyState.current``)
    DRAW = "draw"  # the drawer reveals or stops
    GIVE = "give"  # the drawer busted and names who gets the cards
    BONES = "bones"  # the drawer picks a Corgi from the discard pile
    FLEAS = "fleas"  # the drawer picks a card to steal
    BASEBALL = "baseball"  # the next player in turn order draws their Baseball card
    PLACE = "place"  # a player places cards in their Kennels
    DECLARE = "declare"  # option wilds = "declare": the Wilds of a just-completed set are declared
    OVER = "over"


class After(enum.Enum):
    """Where play goes once a placement is done."""

    END_TURN = "end-turn"  # the Placement phase: the next player draws
    DRAW = "draw"  # a Bones or Fleas card: the drawer goes on drawing
    BASEBALL = "baseball"  # a Baseball card: the next player draws theirs


@dataclass(frozen=True)
class ScoredSet:
    """A set scored and discarded: every point a player holds is one of these."""

    seat: int
    cards: tuple[str, ...]
    declared: tuple[str, ...]  # what its Wilds were declared as (option wilds = "declare"), in order
    score: Score


@dataclass
class CrazyState(GameState):
    declare_wilds: bool
    full_information: bool
    phase: Phase = Phase.SHUFFLE
    turn: int = 0  # the drawer
    turn_no: int = 0
    deck: list[str] = field(default_factory=list)  # full information: top card first; else the unseen cards, sorted
    discard: list[str] = field(default_factory=list)  # face up, so always known; the last is on top
    kennels: list[list[list[str]]] = field(default_factory=list)  # per seat, 3 Kennels, each bottom card first
    points: list[int] = field(default_factory=list)
    drawn: list[str] = field(default_factory=list)  # the draw zone: this turn's revealed Corgi and Wild cards
    event: str | None = None  # the Event card being resolved
    collar_left: int = 0  # forced draws a Collar still demands
    bowl_offer: bool = False  # a Bowl was just revealed: the drawer may stop now, whatever they hold
    placer: int | None = None
    to_place: list[str] = field(default_factory=list)
    after: After = After.END_TURN
    fresh_kennel: int | None = None  # a Kennel just cleared because of a misfit: the misfit starts it
    misfits: list[str] = field(default_factory=list)
    baseball: list[int] = field(default_factory=list)  # seats still to draw their Baseball card
    declaring: int | None = None  # the Kennel whose Wilds are being declared
    declared: list[str] = field(default_factory=list)
    scored: list[ScoredSet] = field(default_factory=list)
    result: Outcome | None = None

    @property
    def current(self) -> Phase:
        """The phase the table is in: a draw waiting on an empty deck waits for the reshuffle (Ruling CC-12)."""
        if self.phase in (Phase.DRAW, Phase.BASEBALL) and not self.deck and self.discard:
            return Phase.RESHUFFLE
        return self.phase

    def corgis_left(self) -> bool:
        """Whether the deck or the discard pile still holds a card that can be drawn for keeps (not an Event)."""
        return any(not is_event(c) for c in (*self.deck, *self.discard))

    def clone(self) -> CrazyState:
        """A copy that shares nothing mutable: ``apply`` works on it so a refusal leaves the original intact."""
        new = copy.copy(self)
        new.deck, new.discard, new.points = list(self.deck), list(self.discard), list(self.points)
        new.drawn, new.to_place, new.misfits = list(self.drawn), list(self.to_place), list(self.misfits)
        new.baseball, new.declared, new.scored = list(self.baseball), list(self.declared), list(self.scored)
        new.kennels = [[list(k) for k in seat] for seat in self.kennels]
        return new

    def all_cards(self) -> list[str]:
        """Every card the state accounts for: always the whole deck of 57."""
        cards = [*self.deck, *self.discard, *self.drawn, *self.to_place]
        cards += [c for seat in self.kennels for kennel in seat for c in kennel]
        if self.event is not None:
            cards.append(self.event)
        return sorted(cards)
