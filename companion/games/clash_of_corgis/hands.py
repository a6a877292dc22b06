"""Hidden hands, as Original and Treasure Island both keep them: every card in full-information play, only a
count at a real table, where a card can still be refused if it is already face up somewhere. Also the random
pick from a hand that all three games make (the Archer's, the Fighter's and Mage's, a blind reveal)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from companion.games.base import IllegalMove, MalformedAction
from companion.games.clash_of_corgis import cards
from companion.games.clash_of_corgis.actions import Pick
from companion.games.clash_of_corgis.effects import card_name


class HandsState(Protocol):
    players: tuple[str, ...]
    hands: list[list[str]] | None
    hand_counts: list[int]

    def public_cards(self) -> set[str]: ...


def take_hidden(s: HandsState, seat: int, card: str) -> None:
    """Take ``card`` from the hidden hand of ``seat``; refuse it if it cannot be there."""
    cards.check_card(card)
    name = s.players[seat]
    if s.hands is not None:
        if card not in s.hands[seat]:
            raise IllegalMove("not-in-hand", f"{name} has no {card_name(card)} in hand.")
        s.hands[seat].remove(card)
    else:
        if card in s.public_cards():
            raise IllegalMove("card-seen", f"{card_name(card)} is already face up on the table: check that card.")
        if s.hand_counts[seat] == 0:
            raise IllegalMove("not-in-hand", f"{name} has no hidden cards.")
    s.hand_counts[seat] -= 1


def may_hold(s: HandsState, seat: int, wanted: Callable[[str], bool]) -> bool:
    """Whether the hidden hand of ``seat`` holds (or, unseen, could hold) a card satisfying ``wanted``."""
    if s.hands is not None:
        return any(wanted(c) for c in s.hands[seat])
    public = s.public_cards()
    return s.hand_counts[seat] > 0 and any(wanted(c) and c not in public for c in cards.all_cards())


def picked_card(hands: list[list[str]] | None, seat: int, action: Pick, name: str) -> str | None:
    """The card a ``pick`` takes at random from the hand of ``seat`` (called ``name``): by seed or named in
    full-information play; at a real table the card the table saw (``None``: only the picker saw it)."""
    if hands is None:
        if action.seed is not None:
            raise MalformedAction("bad-pick", "At a real table a pick records the card seen, not a seed.")
        return action.card
    if (action.seed is None) == (action.card is None):
        raise MalformedAction("bad-pick", "In this game a pick needs either a seed or the card.")
    if action.seed is not None:
        hand = sorted(hands[seat])
        return hand[random.Random(action.seed).randrange(len(hand))]
    if action.card not in hands[seat]:
        raise IllegalMove("not-in-hand", f"{name} has no {card_name(cards.check_card(action.card))} in hand.")
    return action.card
