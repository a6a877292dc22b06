"""Helpers for driving Corgi Pileup's ruleset directly, the way the table session does."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from companion.games.actions import Action
from companion.games.base import GameSetup, RuleViolation
from companion.games.corgi_pileup import CorgiPileup
from companion.games.corgi_pileup.actions import Deal, Play
from companion.games.corgi_pileup.state import CorgiState

EPTA = ("Emily", "Peter", "Taylor", "Amy")


def start(
    ruleset: CorgiPileup,
    players: tuple[str, ...] = EPTA,
    variant: str = "standard",
    seed: int | None = None,
    **options: object,
) -> CorgiState:
    """A dealt game: observed (hidden hands) unless a seed is given (full information)."""
    setup = GameSetup("corgi-pileup", players, variant, dict(options), full_information=seed is not None)
    return ruleset.apply(ruleset.setup(setup), Deal(seed))


def apply_all(ruleset: CorgiPileup, state: CorgiState, actions: Iterable[Action]) -> CorgiState:
    for action in actions:
        state = ruleset.apply(state, action)
    return state


def trick(ruleset: CorgiPileup, state: CorgiState, *cards: int) -> CorgiState:
    """Play one card per player, starting with whoever is to lead."""
    for card in cards:
        (seat,) = ruleset.to_move(state)
        state = ruleset.apply(state, Play(seat, card))
    return state


def refused(ruleset: CorgiPileup, state: CorgiState, action: Action) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        ruleset.apply(state, action)
    return info.value


def with_hands(state: CorgiState, hands: list[list[int]]) -> CorgiState:
    """A full-information state whose players hold exactly ``hands`` (the rest of the 50 cards form the deck)."""
    assert state.hands is not None and state.deck is not None
    s = state.clone()
    pool = sorted(s.deck + [c for h in s.hands for c in h])
    for hand in hands:
        for card in hand:
            pool.remove(card)
    s.hands = [sorted(h) for h in hands]
    s.deck = pool
    s.hand_counts = [len(h) for h in hands]
    s.deck_count = len(pool)
    return s
