"""Corgi Pileup's deal and reshuffle: a real shuffle at the table records nothing; full-information play gives a
seed, or the cards themselves (a game carried on from paper, a referee who knows the cards, tests), checked here
against the deck: "50 cards", numbers 1 to 10, five of each."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from companion.games.base import MalformedAction
from companion.games.corgi_pileup.state import COPIES, NUMBERS

FULL_DECK = tuple(n for n in NUMBERS for _ in range(COPIES))
WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
         10: "ten"}


def check_card(card: int) -> None:
    if card not in NUMBERS:
        raise MalformedAction("no-such-card", f"Corgi Pileup cards are numbered 1 to 10, not {card}.")


def shuffled(cards: Sequence[int], seed: int) -> list[int]:
    """``cards`` in the order ``seed`` shuffles them (the last card is the top of the deck)."""
    deck = sorted(cards)
    random.Random(seed).shuffle(deck)
    return deck


def explicit_deal(hands: Sequence[Sequence[int]] | None, deck: Sequence[int] | None, players: Sequence[str],
                  hand_size: int) -> tuple[list[list[int]], list[int]]:
    """Every hand and the deck (top card first) of an explicit deal, checked to be the whole deck once; the
    hands sorted and the deck as the state keeps it (top card last)."""
    n = len(players)
    rest = len(FULL_DECK) - n * hand_size
    shape = f"An explicit deal lists {n} hands of {hand_size} cards and the deck of the other {rest} (top card first)"
    if hands is None or deck is None:
        raise MalformedAction("bad-deal", f"{shape}: give both 'hands' and 'deck'.")
    if len(hands) != n:
        raise MalformedAction("bad-deal", f"{shape}: this one has {len(hands)} hands.")
    for name, hand in zip(players, hands, strict=True):
        if len(hand) != hand_size:
            raise MalformedAction("bad-deal", f"{shape}: {name}'s hand has {len(hand)}.")
    if len(deck) != rest:
        raise MalformedAction("bad-deal", f"{shape}: its deck has {len(deck)}.")
    check_cards([c for hand in hands for c in hand] + list(deck), "That deal")
    return [sorted(hand) for hand in hands], list(reversed(deck))


def explicit_reshuffle(deck: Sequence[int], pile: Sequence[int]) -> list[int]:
    """The new deck of a reshuffle (top card first) checked to be the set-aside pile; as the state keeps it."""
    if sorted(deck) != sorted(pile):
        check_cards(deck, "That deck", Counter(pile), "set aside this round")
        raise MalformedAction("bad-deal", f"A reshuffle's deck is the {len(pile)} cards set aside this round "
                                          f"({', '.join(map(str, sorted(pile)))}), in any order.")
    return list(reversed(deck))


def check_cards(cards: Sequence[int], what: str, supply: Counter[int] | None = None, where: str = "to deal") -> None:
    """Refuse a card that does not exist, or more copies of a number than ``supply`` (the deck) holds."""
    for card in cards:
        check_card(card)
    supply = supply if supply is not None else Counter(FULL_DECK)
    for card, count in sorted(Counter(cards).items()):
        if count > supply[card]:
            has = f"{what} has {_count(count, card)}"
            if not supply[card]:
                raise MalformedAction("bad-deal", f"{has}, but there is no {card} {where}.")
            raise MalformedAction("bad-deal", f"{has}, but there are only {_count(supply[card], card)} {where}.")


def _count(count: int, card: int) -> str:
    """``six 7s``, ``one 7``."""
    return f"{WORDS.get(count, count)} {card}{'s' if count != 1 else ''}"
