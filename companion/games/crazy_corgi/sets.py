"""Kennels and sets: which cards may share a Kennel, and what a complete set scores.

"Sets can be one of 3 valid combinations, which are worth different amounts of points:
- 5 cards with all different numbers: 1 point
- 5 cards with all the same number: 2 points
- 5 cards with all the same color: 2 points
If your set satisfies for more than 1 combination, you only score for the higher value one. You also get 1 bonus
point if all 5 cards in the set have the same type of fur (fawn or black)."
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from companion.games.decks import Deck, Face, load_deck

SET_SIZE = 5  # "A Kennel is considered complete once it has 5 cards forming a valid set."
KENNELS = 3  # "You can create up to 3 piles of cards in front of you, called 'Kennels'."
FUR_BONUS = 1


class SetKind(enum.Enum):
    NUMBERS = "all different numbers"
    NUMBER = "all the same number"
    COLOUR = "all the same colour"


POINTS = {SetKind.NUMBERS: 1, SetKind.NUMBER: 2, SetKind.COLOUR: 2}
SHORT = {SetKind.NUMBERS: "a set of different numbers", SetKind.NUMBER: "a same-number set",
         SetKind.COLOUR: "a same-colour set"}


@cache
def deck() -> Deck:
    return load_deck("crazy-corgi")


@cache
def _faces() -> dict[str, Face]:
    return {f.id: f for f in deck()}


def face(card: str) -> Face:
    """The printed face of a card id (a dict look-up: the rules ask this on every move)."""
    return _faces()[card]


def is_event(card: str) -> bool:
    return face(card).kind == "event"


def is_wild(card: str) -> bool:
    return face(card).kind == "wild"


def is_corgi(card: str) -> bool:
    return face(card).kind == "corgi"


def card_name(card: str) -> str:
    """``red 2 (fawn)``, ``Wild``, ``Baseball``: how players call a card."""
    f = face(card)
    if f.kind == "corgi":
        return f"{f['color']} {f['number']} ({f['fur']})"
    if f.kind == "event":
        return str(f["event"]).capitalize()
    return "Wild"


def joined(parts: Sequence[str]) -> str:
    """``a, b and c``."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def names(cards: Sequence[str]) -> str:
    """``red 2 (fawn), Wild and blue 3 (black)``."""
    return joined([card_name(c) for c in cards])


def is_card(card: str) -> bool:
    return card in _faces()


def possible_kinds(cards: Sequence[str]) -> tuple[SetKind, ...]:
    """The combinations these cards can still become. Wild cards "can count as a Corgi of any number, color, or
    fur type, and are therefore always legal in a set", so only the Corgis constrain a Kennel (Ruling CC-13:
    whether the missing cards are still to be had does not matter)."""
    return _kinds(tuple(sorted(cards)))


@lru_cache(maxsize=1 << 16)
def _kinds(cards: tuple[str, ...]) -> tuple[SetKind, ...]:
    corgis = [face(c) for c in cards if is_corgi(c)]
    numbers = [f["number"] for f in corgis]
    kinds = []
    if len(set(numbers)) == len(numbers):
        kinds.append(SetKind.NUMBERS)
    if len(set(numbers)) <= 1:
        kinds.append(SetKind.NUMBER)
    if len({f["color"] for f in corgis}) <= 1:
        kinds.append(SetKind.COLOUR)
    return tuple(kinds)


def fits(kennel: Sequence[str], card: str) -> bool:
    """Whether ``card`` can go into ``kennel`` without making an invalid combination."""
    return len(kennel) < SET_SIZE and bool(possible_kinds([*kennel, card]))


def why_not(kennel: Sequence[str], card: str) -> str:
    """Why ``card`` cannot join ``kennel``, in a player's words."""
    kinds = possible_kinds(kennel)
    can = " or ".join(SHORT[k] for k in kinds)
    held = joined([f"the {card_name(c)}" for c in kennel])
    verb = "makes it" if len(kennel) == 1 else "make it"
    if len(kinds) > 1:
        verb = "can only make"
    return f"A Kennel holds one set: {held} {verb} {can}, so a {card_name(card)} cannot go in."


@dataclass(frozen=True)
class Score:
    """What a complete set scored: its combination, the fur all five share (if they do), and the points."""

    kind: SetKind
    fur: str | None
    points: int

    def describe(self) -> str:
        fur = f", all {self.fur}" if self.fur else ""
        plural = "s" if self.points != 1 else ""
        return f"{self.kind.value}{fur}: {self.points} point{plural}"


def best_score(cards: Sequence[str]) -> Score | None:
    """The score of five cards, or ``None`` if they make no set. Wilds are taken at their best (they never stop
    a combination or the fur bonus); "you only score for the higher value one"."""
    kinds = possible_kinds(cards)
    if len(cards) != SET_SIZE or not kinds:
        return None
    kind = max(kinds, key=lambda k: POINTS[k])
    furs = {face(c)["fur"] for c in cards if is_corgi(c)}
    fur = str(next(iter(furs))) if len(furs) == 1 else None
    return Score(kind, fur, POINTS[kind] + (FUR_BONUS if fur else 0))
