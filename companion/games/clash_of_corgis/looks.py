"""The Oracle's private look at the top of the deck, as Original and Treasure Island both word it: the card goes
somewhere face up when its suit matches (Original: discarded; Treasure Island: taken as loot), else back on top
unseen. The referee records that the look happened; the card is checked when it shows."""

from __future__ import annotations

from collections.abc import Collection

from companion.games.base import IllegalMove
from companion.games.clash_of_corgis import cards
from companion.games.clash_of_corgis.effects import card_name


def oracle_take(deck: list[str] | None, card: str | None, suits: Collection[str], public: Collection[str],
                where: str) -> str | None:
    """The top card the look takes (``None``: it went back), checked against the deck when it is known and
    against the table when it is not. ``where`` says what a match does, for the refusals."""
    shown = ", ".join(sorted(s.title() for s in suits))
    if deck is not None:
        top = deck[0]
        matches = cards.suit(top) in suits
        if matches and card != top:
            raise IllegalMove("oracle-match", f"The top card, {card_name(top)}, matches the Oracle's suit ({shown}): "
                              f"it is {where}.")
        if not matches and card is not None:
            raise IllegalMove("oracle-no-match", f"The top card does not match the Oracle's suit ({shown}): it goes "
                              "back on top of the deck.")
    if card is None:
        return None
    cards.check_card(card)
    if card in public:
        raise IllegalMove("card-seen", f"{card_name(card)} is already face up on the table: check that card.")
    if cards.suit(card) not in suits:
        raise IllegalMove("oracle-no-match", f"{card_name(card)} does not match the Oracle's suit ({shown}): it goes "
                          "back on top of the deck.")
    if deck is not None:
        deck.pop(0)
    return card
