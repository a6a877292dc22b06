"""The deal Original and Treasure Island share: shuffle the 55, deal each player a hand, the rest is the deck
(top card first), and pick the first player at random. A seed or an explicit deal fixes it all in
full-information play; a real shuffle at the table records only who goes first."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.base import MalformedAction
from companion.games.clash_of_corgis import cards
from companion.games.clash_of_corgis.actions import Deal


@dataclass(frozen=True)
class Dealt:
    first: int
    hands: list[list[str]] | None  # full-information play only
    deck: list[str] | None  # full-information play only; index 0 is the top card


def first_player_option(options: Mapping[str, Any], n: int) -> int | None:
    """The ``first_player`` option: "For consecutive games, the winner of the previous game goes first"."""
    first = options.get("first_player")
    if first is not None and (not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < n):
        raise MalformedAction("bad-option", f"first_player must be a seat from 0 to {n - 1}.")
    return first


def chance_deal(options: Mapping[str, Any], n: int, full_information: bool, rng: random.Random) -> Deal:
    """The deal the table records: a seed in full-information play; the first player unless the setup names one."""
    first = first_player_option(options, n)
    return Deal(seed=rng.getrandbits(32) if full_information else None,
                first=rng.randrange(n) if first is None else first)


def deal_hands(action: Deal, options: Mapping[str, Any], n: int, hand_size: int, full_information: bool) -> Dealt:
    """Check a deal against the mode and the setup, and carry it out."""
    explicit = action.hands is not None or action.deck is not None
    if not full_information:
        if action.seed is not None or explicit:
            raise MalformedAction("bad-deal", "The cards are hidden in this game: a deal records only who goes first.")
    elif (action.seed is None) == (not explicit):
        raise MalformedAction("bad-deal", "In this game a deal needs either a seed or every hand and the deck.")
    named = first_player_option(options, n)
    first = action.first if action.first is not None else named
    if first is not None and not 0 <= first < n:
        raise MalformedAction("no-such-seat", f"There is no seat {first}; seats are 0-{n - 1}.")
    if named is not None and first != named:
        raise MalformedAction("bad-deal", f"The setup names seat {named} to go first (the previous winner).")
    if not full_information:
        if first is None:
            raise MalformedAction("bad-deal", "Say who goes first: the deal needs 'first'.")
        return Dealt(first, None, None)
    if action.seed is not None:
        rng = random.Random(action.seed)
        order = sorted(cards.all_cards())
        rng.shuffle(order)
        hands = [order[i * hand_size : (i + 1) * hand_size] for i in range(n)]
        deck = order[n * hand_size :]
        return Dealt(rng.randrange(n) if first is None else first, hands, deck)
    hands = [list(h) for h in action.hands or ()]
    deck = list(action.deck or ())
    if len(hands) != n or any(len(h) != hand_size for h in hands):
        raise MalformedAction("bad-deal", f"An explicit deal gives {n} hands of {hand_size} cards and the deck.")
    check_every_card_once([c for h in hands for c in h] + deck)
    if first is None:
        raise MalformedAction("bad-deal", "Say who goes first: the deal needs 'first'.")
    return Dealt(first, hands, deck)


def deal_to(s: Any, action: Deal, hand_size: int) -> int:
    """Deal ``hand_size`` cards to each player of ``s`` (hands, counts and the deck); return the first player."""
    n = len(s.players)
    dealt = deal_hands(action, s.setup.options, n, hand_size, s.full_information)
    s.hands, s.deck = dealt.hands, dealt.deck
    s.hand_counts = [hand_size] * n
    s.deck_count = len(cards.all_cards()) - hand_size * n
    return dealt.first


def check_every_card_once(dealt: list[str]) -> None:
    for card in dealt:
        cards.check_card(card)
    twice = sorted(c for c, k in Counter(dealt).items() if k > 1)
    missing = sorted(set(cards.all_cards()) - set(dealt))
    if twice or missing:
        problem = f"{twice[0]!r} is dealt twice" if twice else f"{missing[0]!r} is missing"
        raise MalformedAction("bad-deal", f"A deal uses each of the 55 cards once: {problem}.")
