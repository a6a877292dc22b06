"""An explicit Corgi Pileup deal: each hand and the deck's order, for a game carried on from paper, a referee who
knows the cards, and tests; refused in words when it is not the deck dealt once. And the round's leader, where a
ruling lets the table choose."""

from __future__ import annotations

import pytest

from companion.games.base import GameSetup
from companion.games.corgi_pileup import CorgiPileup
from companion.games.corgi_pileup.actions import ChooseLeader, Deal, Reshuffle
from companion.games.corgi_pileup.dealing import FULL_DECK
from companion.games.corgi_pileup.state import Phase
from tests.games.corgi_helpers import refused, trick

RULES = CorgiPileup()
PLAYERS = ("Emily", "Peter", "Taylor")
HANDS = ((1, 2, 3, 4, 5), (6, 7, 8, 9, 10), (1, 1, 2, 2, 3))


def the_rest(hands) -> list[int]:
    """The cards the hands leave, in a fixed order (top card first)."""
    rest = list(FULL_DECK)
    for card in (c for hand in hands for c in hand):
        rest.remove(card)
    return rest


def new_game(**options) -> object:
    return RULES.setup(GameSetup("corgi-pileup", PLAYERS, "standard", options, full_information=True))


def test_an_explicit_deal_gives_each_hand_and_the_deck_top_card_first():
    deck = the_rest(HANDS)
    state = RULES.apply(new_game(), Deal(hands=HANDS, deck=tuple(deck)))
    assert state.hands == [list(h) for h in HANDS]
    assert state.deck_count == 35 and state.all_cards() == sorted(FULL_DECK)
    assert RULES.view(state)["hands"] == [list(h) for h in HANDS]
    assert state.deck[-1] == deck[0]  # the state draws from the end: the first card listed is drawn first


def test_an_explicit_deal_round_trips_through_the_json_codec():
    action = Deal(hands=HANDS, deck=tuple(the_rest(HANDS)))
    assert RULES.decode(action.to_json()) == action


def with_card(cards: list[int], index: int, card: int) -> tuple[int, ...]:
    return (*cards[:index], card, *cards[index + 1:])


REST = the_rest(HANDS)
SEVEN = REST.index(7)


@pytest.mark.parametrize(
    ("hands", "deck", "message"),
    [
        (HANDS[:2], REST, "An explicit deal lists 3 hands of 5 cards and the deck of the other 35 (top card first): "
                          "this one has 2 hands."),
        ((HANDS[0], HANDS[1][:4], HANDS[2]), REST, "Peter's hand has 4."),
        (HANDS, REST[1:], "its deck has 34."),
        (HANDS, with_card(REST, SEVEN, 1), "That deal has six 1s, but there are only five 1s to deal."),
        (HANDS, with_card(REST, SEVEN, 11), "Corgi Pileup cards are numbered 1 to 10, not 11."),
        ((with_card(list(HANDS[0]), 0, 0), *HANDS[1:]), REST, "Corgi Pileup cards are numbered 1 to 10, not 0."),
    ],
    ids=["hands-missing", "short-hand", "short-deck", "duplicate-card", "unknown-face-11", "unknown-face-0"],
)
def test_a_bad_deal_is_refused_in_words_and_changes_nothing(hands, deck, message):
    state = new_game()
    violation = refused(RULES, state, Deal(hands=hands, deck=tuple(deck)))
    assert violation.code in ("bad-deal", "no-such-card") and message in violation.message
    assert state.round == 0 and state.hands == [[], [], []]


def test_a_deal_needs_both_the_hands_and_the_deck_and_not_a_seed_too():
    assert "give both 'hands' and 'deck'" in refused(RULES, new_game(), Deal(hands=HANDS)).message
    both = Deal(seed=3, hands=HANDS, deck=tuple(the_rest(HANDS)))
    assert refused(RULES, new_game(), both).message == "A deal gives a seed or the cards, not both."


def test_cards_cannot_be_given_when_the_hands_are_hidden():
    hidden = RULES.setup(GameSetup("corgi-pileup", PLAYERS))
    violation = refused(RULES, hidden, Deal(hands=HANDS, deck=tuple(the_rest(HANDS))))
    assert violation.message.startswith("The cards are hidden in this game")


def test_an_explicit_reshuffle_must_be_the_cards_set_aside():
    state = RULES.apply(new_game(), Deal(seed=5))
    state = state.clone()
    state.phase, state.set_aside, state.six_target, state.deck_count = Phase.RESHUFFLE, [3, 7, 7], 0, 0
    def why(deck: tuple[int, ...]) -> str:
        return refused(RULES, state, Reshuffle(deck=deck)).message

    assert why((3, 7)) == "A reshuffle's deck is the 3 cards set aside this round (3, 7, 7), in any order."
    assert why((3, 7, 8)) == "That deck has one 8, but there is no 8 set aside this round."
    assert why((7, 7, 7)) == "That deck has three 7s, but there are only two 7s set aside this round."
    after = RULES.apply(state, Reshuffle(deck=(7, 3, 7)))
    assert after.deck == [7, 3] and after.hands[0].count(7) >= 1  # the top card, a 7, went to the 6's target


def test_the_leader_follows_the_rules_unless_the_table_chooses():
    # Ruling CP-6 by default: a deal may only name the leader the rules give.
    violation = refused(RULES, new_game(first_leader=1), Deal(seed=2, leader=2))
    assert violation.code == "leader-by-the-rules" and violation.message.startswith("Peter leads this round")
    assert RULES.apply(new_game(first_leader=1), Deal(seed=2, leader=1)).leader == 1
    # A house ruling lets the table choose who leads each round.
    chosen = RULES.apply(new_game(round_leader="table"), Deal(seed=2, leader=2))
    assert RULES.to_move(chosen) == (2,)


def test_the_table_may_not_hand_the_lead_to_the_player_a_ten_bars():
    hands = ((1, 1, 1, 1, 10), (2, 2, 2, 2, 9))
    setup = GameSetup("corgi-pileup", ("Emily", "Peter"), options={"round_leader": "table"}, full_information=True)
    state = RULES.apply(RULES.setup(setup), Deal(hands=hands, deck=tuple(the_rest(hands))))
    for cards in ((1, 2), (2, 1), (2, 1), (2, 1), (9, 10)):  # Emily's 10 wins the final trick
        state = trick(RULES, state, *cards)
    assert RULES.view(state)["last_trick"] == {"cards": [{"player": 1, "card": 9}, {"player": 0, "card": 10}],
                                               "winner": 0}
    assert RULES.view(state)["rounds"] == [{"round": 1, "points": [10, 9], "reset": [], "scores": [10, 9]}]
    state = RULES.apply(state, ChooseLeader(0, 1))  # Ruling CP-5: she names another player before the deal
    violation = refused(RULES, state, Deal(seed=4, leader=0))
    assert violation.code == "must-choose-another"
    assert violation.message == "A 10 was played into the last trick: Emily won it and may not lead."
    assert RULES.to_move(RULES.apply(state, Deal(seed=4, leader=1))) == (1,)


def test_round_leader_must_be_winner_or_table():
    with pytest.raises(Exception, match='round_leader is "winner"'):
        RULES.setup(GameSetup("corgi-pileup", PLAYERS, options={"round_leader": "dealer"}))
