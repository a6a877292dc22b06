"""Hypothesis plays random legal Clash of Corgis games of every variant to the end: no card created or lost,
the log replays to the same state, and undo then redo is a no-op."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import GameSetup
from companion.games.clash_of_corgis import ClashOfCorgis, cards
from tests.games.session_checks import check_log_replay_and_undo, random_steps

RULES = ClashOfCorgis()
MAX_ACTIONS = 3_000  # far more than any real game needs: reaching it means the game cannot end
VARIANTS = sorted(RULES.variants)


def random_setup(variant: str, data: st.DataObject) -> GameSetup:
    game = RULES.game_rules(variant)
    n = data.draw(st.integers(game.min_players, game.max_players), label="players")
    options = {"captures": data.draw(st.integers(1, 2), label="captures")} if variant == "capture" else {}  # CI-20
    return GameSetup("clash-of-corgis", tuple(f"P{i}" for i in range(n)), variant, options, full_information=True)


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_random_legal_games_end_with_one_winner_and_every_card_accounted_for(variant, data, seed):
    state = None
    for before, action, after in random_steps(RULES, random_setup(variant, data), seed, MAX_ACTIONS):
        assert after.all_cards() == sorted(cards.all_cards())  # all 55, none created or lost
        assert RULES.legal(before, action) is None and RULES.view(before) == RULES.view(before.clone())
        assert RULES.describe(before, action) and len(RULES.scoreboard(after).rows) == len(after.players)
        state = after
    outcome = RULES.outcome(state)
    assert outcome is not None and len(outcome.winners) == 1
    assert RULES.to_move(state) == () and RULES.legal_actions(state) == []


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_the_log_replays_to_the_same_state_and_undo_then_redo_is_a_no_op(variant, data, seed):
    check_log_replay_and_undo(RULES, random_setup(variant, data), seed, MAX_ACTIONS)
