"""Every example in the Corgi Pileup rulebook, played through the rules core."""

from __future__ import annotations

from companion.games.corgi_pileup.actions import Play
from companion.games.corgi_pileup.state import Claim, Phase
from tests.games.corgi_helpers import start, trick

EMILY, PETER, TAYLOR, AMY = range(4)


def test_emily_peter_taylor_amy_trick(corgi):
    # "Emily begins the trick by playing a 4. Peter plays an 8. Taylor plays their lowest card, a 2. Finally, Amy
    # plays another 8. ... since Amy's 8 was played later, she wins the trick. Amy ... leads the next trick."
    state = start(corgi)
    state = trick(corgi, state, 4, 8, 2, 8)
    assert corgi.to_move(state) == (AMY,)
    assert state.trick_no == 2
    assert sorted(state.set_aside) == [2, 4, 8, 8]
    taylor_play = state.history[TAYLOR][0]
    assert (taylor_play.card, taylor_play.claim) == (2, Claim.LOWEST)
    assert corgi.describe(state, Play(AMY, 5)) == "Amy led a 5."


def test_game_end_example_taylor_resets_and_emily_wins_on_the_lower_final_card(corgi):
    # "Taylor's score exceeded 15 this round, so they move their score marker to 0. Peter is at 11 points, and Amy
    # and Emily are tied at 13 points. Since Amy played a 4 on the final trick and Emily played a 3, Emily wins!"
    state = start(corgi, starting_scores=[10, 3, 15, 9])
    for cards in ((2, 4, 5, 7), (2, 4, 5, 7), (2, 4, 5, 7), (2, 4, 5, 7)):
        state = trick(corgi, state, *cards)
    assert corgi.to_move(state) == (EMILY,)
    state = trick(corgi, state, 3, 8, 9, 4)  # Emily leads a 3; Amy's 4 is then her "highest card"
    assert state.phase is Phase.OVER
    assert state.scores == [13, 11, 0, 13]
    outcome = corgi.outcome(state)
    assert outcome.winners == (EMILY,)
    assert outcome.reason == "Highest score (13)"
    assert outcome.tie_break == "Tie on 13: lowest card on the final trick wins (Emily a 3, Amy a 4)."
    assert corgi.findings(state) == ()


def test_players_and_markers_match_the_components(corgi):
    # "7 score markers": two to seven players.
    assert (corgi.min_players, corgi.max_players) == (2, 7)
    state = start(corgi, players=tuple("ABCDEFG"))
    # "Shuffle the deck and deal 5 cards to each player."
    assert state.hand_counts == [5] * 7
    assert state.deck_count == 50 - 35


def test_quick_rules_round_ends_when_players_are_out_of_cards(corgi):
    state = start(corgi, players=("A", "B"))
    for card in (7, 8, 9, 2, 4):
        state = trick(corgi, state, card, card)
    assert state.hand_counts == [0, 0]
    assert state.scores == [4, 4]  # "all players score points equal to the value of their card in the final trick"
    assert state.phase is Phase.DEAL
