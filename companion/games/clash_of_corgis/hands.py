"""Hidden hands, as Original and Treasure Island both keep them: every card in full-information play, only a
count at a real table, where a card can still be refused if it is already face up somewhere."""

from __future__ import annotations

from collections.abc import Callable, Collection

from companion.games.base import IllegalMove
from companion.games.clash_of_corgis import cards
from companion.games.clash_of_corgis.effects import card_name


def take_hidden(hands: list[list[str]] | None, counts: list[int], seat: int, card: str, public: Collection[str],
                name: str) -> None:
    """Take ``card`` from the hidden hand of ``seat`` (called ``name``); refuse it if it cannot be there."""
    if hands is not None:
        if card not in hands[seat]:
            raise IllegalMove("not-in-hand", f"{name} has no {card_name(card)} in hand.")
        hands[seat].remove(card)
    else:
        if card in public:
            raise IllegalMove("card-seen", f"{card_name(card)} is already face up on the table: check that card.")
        if counts[seat] == 0:
            raise IllegalMove("not-in-hand", f"{name} has no hidden cards.")
    counts[seat] -= 1


def may_hold(hands: list[list[str]] | None, counts: list[int], seat: int, wanted: Callable[[str], bool],
             public: Collection[str]) -> bool:
    """Whether the hidden hand of ``seat`` holds (or, unseen, could hold) a card satisfying ``wanted``."""
    if hands is not None:
        return any(wanted(c) for c in hands[seat])
    return counts[seat] > 0 and any(wanted(c) and c not in public for c in cards.all_cards())
