"""The Clash of Corgis deck, shared by all three games: five suits of eleven cards (1-9, Ace, Wild), one each.

The cards are the face ids of ``companion/games/decks/clash-of-corgis.toml`` (``fire-7``, ``void-ace``,
``earth-wild``): the recogniser and the rules read the same spec.
"""

from __future__ import annotations

from functools import cache

from companion.games.base import MalformedAction
from companion.games.decks import Deck, Face, load_deck

# "There are 5 different suits. From left-to-right they are: Earth, Water, Fire, Wind, and Void."
SUITS = ("earth", "water", "fire", "wind", "void")
ACE = "ace"
WILD = "wild"


@cache
def deck() -> Deck:
    return load_deck("clash-of-corgis")


@cache
def all_cards() -> tuple[str, ...]:
    """Every card of the 55, in spec order."""
    return tuple(deck().cards())


@cache
def _face(card: str) -> Face:
    return deck().face(card)


def check_card(card: str) -> str:
    """``card`` itself, or a refusal naming the deck when it is not one of the 55."""
    if card not in _known():
        raise MalformedAction("no-such-card", f"{card!r} is not a Clash of Corgis card (e.g. 'fire-7', 'void-ace').")
    return card


@cache
def _known() -> frozenset[str]:
    return frozenset(all_cards())


@cache
def suit(card: str) -> str:
    return str(_face(card)["suit"])


@cache
def kind(card: str) -> str:
    """``"rank"`` for the numbered cards 1-9, else ``"ace"`` or ``"wild"``."""
    return _face(card).kind


@cache
def number(card: str) -> int | None:
    """The printed number of a 1-9 card; ``None`` for the Ace and the Wild."""
    value = _face(card).get("rank")
    return int(value) if value is not None else None


@cache
def is_wild(card: str) -> bool:
    return kind(card) == WILD


@cache
def is_ace(card: str) -> bool:
    return kind(card) == ACE


def label(card: str) -> str:
    """The printed rank: "7", "A" or "Wild"."""
    n = number(card)
    return str(n) if n is not None else ("A" if is_ace(card) else "Wild")


def suit_cards(colour: str) -> tuple[str, ...]:
    """The eleven cards of one suit, 1 to Wild."""
    return tuple(c for c in all_cards() if suit(c) == colour)
