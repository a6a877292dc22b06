"""Helpers for Squirrels tests: explicit deals and arranged tables, always with all 162 cards accounted for."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import pytest

from companion.games.actions import Action
from companion.games.base import GameSetup, RuleViolation
from companion.games.squirrels import Squirrels
from companion.games.squirrels.actions import Deal
from companion.games.squirrels.cards import FULL_DECK
from companion.games.squirrels.state import Phase, SquirrelsState, Stack

RULES = Squirrels()
GYBR = ("Green", "Yellow", "Blue", "Red")
FILLER = ("1", "2", "3", "4", "5", "6")  # low cards fill hands and stacks first


def setup(players: Sequence[str] = GYBR, full_information: bool = True, **options: object) -> GameSetup:
    return GameSetup("squirrels", tuple(players), options={"first_player": 0, **options},
                     full_information=full_information)


def explicit_deal(
    hands: Sequence[Sequence[str]], stacks: Sequence[Sequence[Sequence[str]] | None] | None = None
) -> Deal:
    """A deal with the given hand cards (filled up to 8) and stacks (bottom first; ``None``: filler stacks)."""
    given = Counter(c for h in hands for c in h) + Counter(
        c for player in stacks or () if player for three in player for c in three
    )
    spare = Counter(FULL_DECK) - given
    pool = sorted(spare.elements(), key=lambda c: (c in FILLER, c))  # low cards first (popped from the end)
    full_hands = tuple(tuple(h) + tuple(pool.pop() for _ in range(8 - len(h))) for h in hands)
    full_stacks = tuple(
        tuple(tuple(three) for three in player) if player else tuple(tuple(pool.pop() for _ in range(3))
                                                                    for _ in range(4))
        for player in (stacks or [None] * len(hands))
    )
    return Deal(hands=full_hands, stacks=full_stacks)


def dealt(hands: Sequence[Sequence[str]], stacks=None, players: Sequence[str] = GYBR, **options) -> SquirrelsState:
    return RULES.apply(RULES.setup(setup(players, **options)), explicit_deal(hands, stacks))


def arrange(
    state: SquirrelsState,
    hands: dict[int, Sequence[str]] | None = None,
    stacks: dict[int, Sequence[Sequence[str]]] | None = None,
    pile: Sequence[tuple[str, int]] | None = None,
    to_move: int | None = None,
) -> SquirrelsState:
    """A full-information state with some players' hands and stacks (``[blind, middle, top]``, ``[blind]`` or
    ``[]`` each), the pile and the player to move replaced; cards that leave the table join the unused ones."""
    s = state.clone()
    assert s.hands is not None
    for p, hand in (hands or {}).items():
        s.hands[p] = sorted(hand)
        s.hand_counts[p] = len(hand)
    for p, four in (stacks or {}).items():
        s.stacks[p] = [Stack(cards[2], (cards[0], cards[1])) if len(cards) == 3 else Stack(None, tuple(cards))
                       for cards in four]
    if pile is not None:
        s.pile = list(pile)
    _give_back_surplus(s, keep=set(hands or {}) | set(stacks or {}))
    s.unused = sorted((Counter(FULL_DECK) - (Counter(s.all_cards()) - Counter(s.unused))).elements())
    s.phase = Phase.PLAY if s.phase is Phase.BLIND_FOLLOW else s.phase
    s.current = s.current if to_move is None else to_move
    return s


def _give_back_surplus(s: SquirrelsState, keep: set[int]) -> None:
    """Where the arranged cards exceed the deck, swap the surplus copies the other players hold for spare cards."""
    assert s.hands is not None
    deck = Counter(FULL_DECK)
    on_table = Counter(s.all_cards()) - Counter(s.unused)
    surplus = on_table - deck

    def swap(card: str) -> str:
        if surplus[card] <= 0:
            return card
        spare = next(c for c in sorted(deck) if on_table[c] < deck[c])
        surplus[card] -= 1
        on_table[card] -= 1
        on_table[spare] += 1
        return spare

    for p in set(range(len(s.players))) - keep:
        s.hands[p] = sorted(swap(c) for c in s.hands[p])
        s.stacks[p] = [Stack(st.top and swap(st.top), tuple(swap(c) for c in st.down if c)) for st in s.stacks[p]]
    assert not +surplus, "the arranged cards alone are more than the deck holds"


def apply_all(state: SquirrelsState, actions: Iterable[Action]) -> SquirrelsState:
    for action in actions:
        state = RULES.apply(state, action)
    return state


def refused(state: SquirrelsState, action: Action) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        RULES.apply(state, action)
    return info.value
