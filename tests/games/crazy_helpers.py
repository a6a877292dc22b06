"""Helpers for driving Crazy Corgi's ruleset directly, with a stacked deck and Kennels laid out by hand."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pytest

from companion.games.actions import Action, Deal
from companion.games.base import GameSetup, RuleViolation
from companion.games.crazy_corgi import CrazyCorgi
from companion.games.crazy_corgi.actions import DeckOrder, Place, Reveal
from companion.games.crazy_corgi.sets import deck
from companion.games.crazy_corgi.state import CrazyState

CC = CrazyCorgi()
GM = ("Giulio", "Martina")
GIULIO, MARTINA = 0, 1


def start(
    players: tuple[str, ...] = GM,
    top: Sequence[str] = (),
    kennels: dict[int, list[list[str]]] | None = None,
    discard: Sequence[str] = (),
    points: Sequence[int] | None = None,
    **options: object,
) -> CrazyState:
    """A full-information game whose deck starts with ``top``; the given Kennels, discard pile and points are laid
    out as the players left them (those cards come out of the rest of the deck)."""
    setup = GameSetup("crazy-corgi", players, options=dict(options), full_information=True)
    rest = sorted(deck().cards())
    for card in top:
        rest.remove(card)
    state = CC.apply(CC.setup(setup), DeckOrder((*top, *rest)))
    s = state.clone()
    for seat, laid in (kennels or {}).items():
        for k, cards in enumerate(laid):
            for card in cards:
                s.deck.pop(s.deck.index(card, len(top)))
            s.kennels[seat][k] = list(cards)
    for card in discard:
        s.deck.pop(s.deck.index(card, len(top)))
    s.discard = list(discard)
    if points is not None:
        s.points = list(points)
    return s


def observed(players: tuple[str, ...] = GM, **options: object) -> CrazyState:
    """A game at the real table: shuffled unseen, every card known only once the camera reads it."""
    return CC.apply(CC.setup(GameSetup("crazy-corgi", players, options=dict(options))), Deal(None))


def play(state: CrazyState, *actions: Action) -> CrazyState:
    for action in actions:
        state = CC.apply(state, action)
    return state


def reveal(state: CrazyState, cards: Iterable[str]) -> CrazyState:
    """The player the game waits for reveals each card in turn."""
    for card in cards:
        (seat,) = CC.to_move(state)
        state = CC.apply(state, Reveal(seat, card))
    return state


def place(state: CrazyState, *moves: tuple[str, int]) -> CrazyState:
    """The placer puts each card into the Kennel given (0-2)."""
    for card, kennel in moves:
        assert state.placer is not None
        state = CC.apply(state, Place(state.placer, card, kennel))
    return state


def refused(state: CrazyState, action: Action) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        CC.apply(state, action)
    return info.value
