"""Hypothesis plays random legal Corgi Pileup games to the end and checks the invariants at every step."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import GameSetup
from companion.games.corgi_pileup import CorgiPileup
from companion.games.corgi_pileup.rules import FULL_DECK
from companion.games.corgi_pileup.state import TARGET, Phase
from tests.games.session_checks import check_log_replay_and_undo, random_steps

RULESET = CorgiPileup()
MAX_ACTIONS = 5_000  # far more than any real game needs: reaching it means the game cannot end

games = st.builds(
    lambda n, variant, seed: (GameSetup("corgi-pileup", tuple(f"P{i}" for i in range(n)), variant,
                                        full_information=True), seed),
    st.integers(2, 7),
    st.sampled_from(sorted(RULESET.variants)),
    st.integers(0, 2**32 - 1),
)


def round_scored(before, after) -> bool:
    """Whether this step scored a round: the game moved on from the final trick (or the 1s' choices)."""
    moved_on = after.phase in (Phase.DEAL, Phase.OVER) or (after.phase is Phase.CHOOSE_LEADER and after.trick_no == 0)
    return before.phase in (Phase.PLAY, Phase.SCORE_ONES) and moved_on


def expected_scores(before, after) -> list[int]:
    """Scores change only when a round is scored: by the final trick's cards (or a 1's choice), with a reset."""
    if not round_scored(before, after):
        return before.scores
    final = dict(after.final_trick)
    totals = [before.scores[seat] + after.one_values.get(seat, final[seat]) for seat in range(len(before.scores))]
    return [0 if total > TARGET else total for total in totals]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_random_legal_games_reach_an_outcome_without_losing_a_card(game):
    state = None
    for before, _, state in random_steps(RULESET, *game, MAX_ACTIONS):
        assert state.all_cards() == sorted(FULL_DECK)  # no card created or lost
        assert all(len(h) == c for h, c in zip(state.hands, state.hand_counts, strict=True))
        assert all(0 <= s <= TARGET for s in state.scores)
        assert state.scores == expected_scores(before, state)
    outcome = RULESET.outcome(state)
    assert outcome is not None, "the game never ended"
    assert len(outcome.winners) == 1
    assert any(s == 0 for s in state.scores)  # someone passed 15 and went back to 0
    assert RULESET.findings(state) == ()  # full information: every claim was checked as it was made


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_the_log_replays_to_the_same_state_and_undo_then_redo_is_a_no_op(game):
    setup, seed = game
    check_log_replay_and_undo(RULESET, setup, seed, MAX_ACTIONS)
