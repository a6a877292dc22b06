"""Helpers for driving the Clash of Corgis ruleset directly, the way the table session does."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from companion.games.actions import Action
from companion.games.base import GameSetup, RuleViolation
from companion.games.clash_of_corgis import ClashOfCorgis, cards
from companion.games.clash_of_corgis.actions import Deal

RULES = ClashOfCorgis()


def setup(variant: str, players: int | tuple[str, ...] = 4, full_information: bool = True, **options: object):
    names = players if isinstance(players, tuple) else tuple(f"P{i + 1}" for i in range(players))
    return RULES.setup(GameSetup("clash-of-corgis", names, variant, dict(options), full_information))


def filler_order(used: set[str]) -> list[str]:
    """The cards nobody asked for: numbered cards first, Wilds next and Aces last, so that the Aces (which open
    a parry window) stay in the deck unless a test deals them."""
    def order(card: str) -> tuple[int, str]:
        return (2 if cards.is_ace(card) else 1 if cards.is_wild(card) else 0, card)

    return sorted((c for c in cards.all_cards() if c not in used), key=order)


def explicit_deal(hands: list[list[str]], hand_size: int, deck_top: Iterable[str] = (), first: int = 0) -> Deal:
    """A deal where each player holds at least ``hands[i]`` (filled up to ``hand_size``) and the deck starts with
    ``deck_top``."""
    top = list(deck_top)
    pool = filler_order({c for h in hands for c in h} | set(top))
    full = []
    for hand in hands:
        extra = hand_size - len(hand)
        full.append(tuple(hand) + tuple(pool[:extra]))
        pool = pool[extra:]
    return Deal(first=first, hands=tuple(full), deck=tuple(top + pool))


def apply_all(state, actions: Iterable[Action]):
    for action in actions:
        state = RULES.apply(state, action)
    return state


def refused(state, action: Action) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        RULES.apply(state, action)
    return info.value


def with_hands(state, hands: list[list[str]]):
    """An Original or Treasure Island state (full information) whose players hold exactly ``hands``: the rest of
    the cards not on the table form the deck."""
    s = state.clone()
    held = {c for h in hands for c in h}
    s.deck = [c for c in s.deck + [c for h in s.hands for c in h] if c not in held]
    s.hands = [list(h) for h in hands]
    s.hand_counts = [len(h) for h in hands]
    s.deck_count = len(s.deck)
    return s
