"""What each Squirrels card is, from the shared deck spec (``companion/games/decks/squirrels.toml``).

Cards are the spec's face ids: ``"1"`` to ``"10"``, ``"wild"``, ``"push"``, ``"skip"`` and ``"squirrel-<species>"``
(six species, which all play the same). The camera reports the same ids.
"""

from __future__ import annotations

from collections import Counter

from companion.games.base import MalformedAction
from companion.games.decks import load_deck

DECK = load_deck("squirrels")
FULL_DECK: tuple[str, ...] = tuple(sorted(DECK.cards()))  # "162 cards packaged in two decks"
COPIES: dict[str, int] = {face.id: face.copies for face in DECK}
KIND: dict[str, str] = {face.id: face.kind for face in DECK}
NUMBER: dict[str, int] = {face.id: int(face["number"]) for face in DECK if face.kind == "number"}
NUMBERS = range(1, 11)  # "Number Cards have values from 1-10."
SPECIAL_POINTS = 20  # "Wild, Push, Skip, and Squirrel Cards count as 20 points each."
WORDS = ("zero", "one", "two", "three", "four")


def check_card(card: str) -> str:
    """``card`` if it is a face of the deck; otherwise a refusal that lists what the cards are."""
    if card not in KIND:
        raise MalformedAction(
            "no-such-card",
            f"Squirrels has no card {card!r}: the cards are 1 to 10, wild, push, skip and squirrel-<species>.",
        )
    return card


def kind(card: str) -> str:
    return KIND[card]


def points(card: str) -> int:
    """"Number Cards are counted at face value. Wild, Push, Skip, and Squirrel Cards count as 20 points each.\""""
    return NUMBER.get(card, SPECIAL_POINTS)


def name(card: str) -> str:
    """A card in words: "7", "Wild", "Squirrel"."""
    return card if card in NUMBER else kind(card).capitalize()


def count_of(n: int, value: int) -> str:
    """How the pile's top is said aloud: "Three sevens" in the book; here "three 7s"."""
    word = WORDS[n] if n < len(WORDS) else str(n)
    return f"{word} {value}" + ("s" if n != 1 else "")


def over_supply(cards: Counter[str]) -> str | None:
    """The first card seen more often than the deck holds it (a misread), or ``None``."""
    for card, n in sorted(cards.items()):
        if n > COPIES[card]:
            return card
    return None


def article(value: int | str) -> str:
    """"a 5", "an 8", "a Wild", "a Push"."""
    text = str(value) if isinstance(value, int) else name(value)
    return f"an {text}" if text == "8" else f"a {text}"
