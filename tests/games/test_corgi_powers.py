"""The powers of 1, 3, 6 and 10, the variants and the violation messages players see."""

from __future__ import annotations

import pytest

from companion.games.base import DecisionRequired, IllegalMove, MalformedAction, ViolationKind
from companion.games.corgi_pileup.actions import ChooseLeader, ChooseSixTarget, Play, Reshuffle, ScoreOne, SixDiscard
from companion.games.corgi_pileup.state import Claim, Phase
from tests.games.corgi_helpers import refused, start, trick, with_hands

A, B, C, D = range(4)


# ---------------------------------------------------------------------------------------------- climb / lowest
def test_full_information_refuses_a_card_that_neither_climbs_nor_is_lowest(corgi):
    state = with_hands(start(corgi, seed=1), [[8, 9, 9, 9, 9], [2, 5, 7, 7, 7], [4, 4, 4, 4, 5], [2, 2, 2, 5, 5]])
    state = trick(corgi, state, 8)
    violation = refused(corgi, state, Play(B, 5))
    assert isinstance(violation, IllegalMove)
    assert violation.code == "not-lowest"
    assert violation.message == "Climb to 8 or more, or play your lowest card (2)."
    assert corgi.apply(state, Play(B, 2)).trick == [(A, 8), (B, 2)]


def test_observed_play_below_the_highest_is_recorded_as_a_claim(corgi):
    state = trick(corgi, start(corgi), 8, 5)
    assert state.history[B][0].claim is Claim.LOWEST


# ---------------------------------------------------------------------------------------------- the 3
def test_three_forces_climb_or_highest_card(corgi):
    # "Once a 3 has been played into a trick, players may no longer play their lowest card. They must instead
    # climb -or- play their highest card."
    state = with_hands(start(corgi, seed=1), [[8, 9, 9, 9, 9], [3, 4, 4, 4, 4], [2, 5, 7, 7, 7], [2, 2, 2, 5, 5]])
    state = trick(corgi, state, 8, 3)
    for card in (2, 5):
        violation = refused(corgi, state, Play(C, card))
        assert violation.code == "not-highest"
        assert violation.message == "A 3 is in this trick: climb to 8 or more, or play your highest card (7)."
    assert corgi.apply(state, Play(C, 7)).trick[-1] == (C, 7)


def test_three_allows_a_lowest_card_that_climbs(corgi):
    # Ruling CP-8: the 3 removes option B only; a card that climbs is always allowed.
    state = with_hands(start(corgi, seed=2), [[3, 9, 9, 9, 9], [4, 6, 8, 8, 8], [5, 5, 5, 5, 7], [2, 2, 2, 2, 7]])
    state = trick(corgi, state, 3, 4)
    assert state.trick == [(A, 3), (B, 4)]


def test_three_turns_observed_plays_into_highest_claims(corgi):
    state = trick(corgi, start(corgi), 3, 8, 5)
    assert state.history[C][0].claim is Claim.HIGHEST
    assert "play their highest card" in corgi.scoreboard(state).prompt


# ---------------------------------------------------------------------------------------------- the 1

def test_one_on_the_final_trick_waits_for_a_choice(corgi):
    state = start(corgi, starting_scores=[0, 0, 14, 0])
    for cards in ((2, 4, 5, 7), (2, 4, 5, 7), (2, 4, 5, 7), (2, 4, 5, 7)):
        state = trick(corgi, state, *cards)
    # A leads the final trick (the 7s rotate the lead back to A).
    assert corgi.to_move(state) == (A,)
    state = trick(corgi, state, 9, 1, 1, 9)
    assert state.phase is Phase.SCORE_ONES
    assert corgi.to_move(state) == (B, C)
    blocked = refused(corgi, state, Play(A, 5))
    assert isinstance(blocked, DecisionRequired) and blocked.kind is ViolationKind.NEEDS_DECISION
    assert blocked.message == "Peter and Taylor played a 1 on the final trick: choose a score (0, 1, 9)."
    wrong = refused(corgi, state, ScoreOne(B, 5))
    assert wrong.message == "A 1 on the final trick scores one of: 0, 1, 9."
    assert refused(corgi, state, ScoreOne(A, 9)).code == "no-one-to-score"
    # "you may score 0 points -or- the value of any played card": Peter takes a 9; Taylor, on 14, takes 0 so as
    # not to pass 15 (Ruling CP-1).
    state = corgi.apply(state, ScoreOne(B, 9))
    assert state.phase is Phase.SCORE_ONES
    state = corgi.apply(state, ScoreOne(C, 0))
    assert state.scores == [9, 9, 14, 9]
    assert state.phase is Phase.DEAL


# ---------------------------------------------------------------------------------------------- the 6
def test_six_winner_chooses_who_discards_and_draws(corgi):
    state = with_hands(start(corgi, seed=3), [[6, 7, 7, 8, 8], [2, 2, 4, 4, 9], [2, 2, 4, 4, 9], [5, 5, 5, 5, 9]])
    deck_top = state.deck[-1]
    state = trick(corgi, state, 6, 2, 2, 5)
    assert state.phase is Phase.SIX_TARGET
    assert refused(corgi, state, ChooseSixTarget(B, B)).message == "Emily makes this choice, not Peter."
    assert refused(corgi, state, Play(A, 7)).kind is ViolationKind.NEEDS_DECISION
    state = corgi.apply(state, ChooseSixTarget(A, D))
    assert refused(corgi, state, SixDiscard(B, 4)).message == "Amy was chosen to discard, not Peter."
    assert refused(corgi, state, SixDiscard(D, 8)).message == "Amy has no 8 in hand."
    state = corgi.apply(state, SixDiscard(D, 9))
    assert sorted(state.hands[D]) == sorted([5, 5, 5, deck_top])
    assert state.hand_counts[D] == 4
    assert 9 in state.set_aside
    assert corgi.to_move(state) == (A,)  # the trick's winner leads


def test_six_on_an_empty_deck_reshuffles_previous_tricks_including_the_one_just_won(corgi):
    # Seven players, Strategic: 49 cards dealt, one left in the deck.
    players = tuple("ABCDEFG")
    state = start(corgi, players=players, variant="strategic")
    assert state.deck_count == 1
    state = trick(corgi, state, 6, 2, 2, 2, 2, 4, 4)
    state = corgi.apply(corgi.apply(state, ChooseSixTarget(0, 1)), SixDiscard(1, 9))
    assert state.deck_count == 0
    state = trick(corgi, state, 6, 4, 4, 5, 5, 5, 5)
    state = corgi.apply(corgi.apply(state, ChooseSixTarget(0, 2)), SixDiscard(2, 8))
    # Ruling CP-3: both finished tricks and both discards (16 cards) make the new deck.
    assert state.phase is Phase.RESHUFFLE
    assert len(state.set_aside) == 16
    state = corgi.apply(state, Reshuffle(None))
    assert state.deck_count == 15 and state.set_aside == []
    assert state.hand_counts[2] == 5  # two cards played, one discarded, one drawn
    assert state.phase is Phase.PLAY


def test_six_winning_the_final_trick_has_no_effect(corgi):
    state = start(corgi, players=("A", "B"))
    for card in (7, 8, 9, 2):
        state = trick(corgi, state, card, card)
    state = trick(corgi, state, 5, 6)
    # "If a 6 wins the final trick of a round, this card has no effect."
    assert state.phase is Phase.DEAL
    assert state.scores == [5, 6]


# ---------------------------------------------------------------------------------------------- the 10
def test_ten_winner_must_name_another_leader(corgi):
    state = trick(corgi, start(corgi), 10, 2, 4, 5)
    assert state.phase is Phase.CHOOSE_LEADER
    violation = refused(corgi, state, ChooseLeader(A, A))
    assert violation.message == "A trick with a 10 in it: choose another player to lead."
    state = corgi.apply(state, ChooseLeader(A, C))
    assert corgi.to_move(state) == (C,)


def test_ten_in_the_trick_applies_even_when_it_does_not_win(corgi):
    # "Whenever a 10 is played into a trick": D's later 10 wins the tie, and must still pass the lead.
    state = trick(corgi, start(corgi), 10, 2, 4, 10)
    assert state.phase is Phase.CHOOSE_LEADER and corgi.to_move(state) == (D,)


def test_ten_on_the_final_trick_passes_the_lead_of_the_next_round(corgi):
    # Ruling CP-5: the final trick's 10 still takes the lead of the next round's first trick from its winner.
    state = start(corgi, players=("A", "B"))
    for card in (7, 8, 9, 2):
        state = trick(corgi, state, card, card)
    state = trick(corgi, state, 10, 5)
    assert state.phase is Phase.CHOOSE_LEADER and corgi.to_move(state) == (A,)
    state = corgi.apply(state, ChooseLeader(A, B))
    assert state.phase is Phase.DEAL
    state = corgi.apply(state, corgi.chance(state, __import__("random").Random(0)))
    assert corgi.to_move(state) == (B,)


# ---------------------------------------------------------------------------------------------- scoring & end
def test_exactly_fifteen_does_not_end_the_game(corgi):
    state = start(corgi, players=("A", "B"), starting_scores=[8, 0])
    for card in (7, 8, 9, 2):
        state = trick(corgi, state, card, card)
    state = trick(corgi, state, 7, 4)
    assert state.scores == [15, 4] and state.phase is Phase.DEAL


def test_tie_on_the_same_final_card_goes_to_the_one_played_earliest(corgi):
    state = start(corgi, players=("A", "B", "C"), starting_scores=[10, 10, 15])
    for cards in ((7, 7, 7), (8, 8, 8), (9, 9, 9), (2, 2, 2)):
        state = trick(corgi, state, *cards)
    assert corgi.to_move(state) == (C,)  # the latest 2 won the last trick
    state = trick(corgi, state, 5, 4, 4)  # C leads and passes 15; A and B tie on 14 with a 4 each, A's first
    outcome = corgi.outcome(state)
    assert state.scores == [14, 14, 0]
    assert outcome.winners == (A,)
    assert "earliest" in outcome.tie_break


def test_underdog_lowest_score_still_on_the_board_wins(corgi):
    state = start(corgi, players=("A", "B", "C"), variant="underdog", starting_scores=[0, 5, 15])
    for cards in ((7, 7, 7), (8, 8, 8), (9, 9, 9), (2, 2, 2)):
        state = trick(corgi, state, *cards)
    state = trick(corgi, state, 5, 4, 2)  # C leads 5 and passes 15 (back to 0, off the board)
    assert state.scores == [4, 7, 0]
    outcome = corgi.outcome(state)
    assert outcome.winners == (A,)
    assert outcome.reason == "Lowest score still on the board (4)"


def test_underdog_when_everyone_passes_fifteen_the_tie_break_decides(corgi):
    # Ruling CP-9: nobody is left on the board, so everybody ties on 0.
    state = start(corgi, players=("A", "B"), variant="underdog", starting_scores=[14, 14])
    for card in (7, 8, 9, 2):
        state = trick(corgi, state, card, card)
    state = trick(corgi, state, 5, 7)
    assert state.scores == [0, 0]
    assert corgi.outcome(state).winners == (A,)


def test_strategic_deals_seven_and_plays_seven_tricks(corgi):
    state = start(corgi, players=("A", "B"), variant="strategic")
    assert state.hand_counts == [7, 7]
    for card in (7, 8, 9, 2, 4, 5):
        state = trick(corgi, state, card, card)
    assert state.phase is Phase.PLAY and state.trick_no == 7
    state = trick(corgi, state, 4, 5)
    assert state.scores == [4, 5] and state.phase is Phase.DEAL


# ---------------------------------------------------------------------------------------------- bad input
def test_refusals_have_clear_messages(corgi):
    state = start(corgi)
    assert refused(corgi, state, Play(B, 5)).message == "It is Emily's turn, not Peter's."
    assert refused(corgi, state, Play(A, 11)).message == "Corgi Pileup cards are numbered 1 to 10, not 11."
    assert isinstance(refused(corgi, state, Play(9, 5)), MalformedAction)
    assert refused(corgi, state, Reshuffle(None)).message == "Emily to lead any card."
    assert refused(corgi, state, {"type": "fold", "player": 0}).message.startswith("Unknown action type 'fold'")
    assert refused(corgi, state, '{"type": "play", "player": 0').code == "malformed"
    assert refused(corgi, state, {"type": "play", "player": 0, "card": "7"}).message == (
        "'play.card' must be a whole number, not '7'."
    )


def test_a_sixth_copy_of_a_number_is_refused_as_a_misread(corgi):
    state = trick(corgi, start(corgi, players=tuple("ABCDE")), 7, 7, 7, 7, 7)
    assert refused(corgi, state, Play(4, 7)).message == (
        "All 5 7s are already on the table this round: check that card."
    )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"first_leader": 4}, "first_leader must be a seat from 0 to 3."),
        ({"starting_scores": [0, 16, 0, 0]}, "starting_scores must list 4 scores from 0 to 15."),
        ({"speed": 2}, "Corgi Pileup has no option 'speed'."),
    ],
)
def test_bad_setup_options_are_refused(corgi, options, message):
    with pytest.raises(MalformedAction) as info:
        start(corgi, **options)
    assert info.value.message == message


def test_tie_break_reads_a_one_as_one_whatever_it_scored(corgi):
    # Ruling CP-11: "lowest numbered card" is the printed number; B's 1 scored 9 but still counts as a 1.
    state = start(corgi, players=("A", "B", "C"), starting_scores=[4, 4, 15])
    for cards in ((7, 7, 7), (8, 8, 8), (9, 9, 9), (2, 2, 2)):
        state = trick(corgi, state, *cards)
    state = trick(corgi, state, 9, 9, 1)  # C leads 9, A plays 9, B plays 1
    state = corgi.apply(state, ScoreOne(B, 9))
    assert state.scores == [13, 13, 0]
    assert corgi.outcome(state).winners == (B,)


def test_everyone_back_on_zero_ties_and_the_final_trick_decides(corgi):
    # Ruling CP-12: all markers passed 15 together, so all are on 0; the lowest final card wins.
    state = start(corgi, players=("A", "B"), starting_scores=[12, 12])
    for card in (7, 8, 9, 2):
        state = trick(corgi, state, card, card)
    state = trick(corgi, state, 4, 5)
    assert state.scores == [0, 0]
    outcome = corgi.outcome(state)
    assert outcome.winners == (A,) and outcome.reason == "Highest score (0)"
