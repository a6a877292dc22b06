"""Hypothesis plays random legal Squirrels games (2-6 players) to the end and checks the invariants at every step."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import GameSetup
from companion.games.squirrels import Squirrels
from companion.games.squirrels.cards import FULL_DECK, points
from companion.games.squirrels.state import SquirrelsState
from tests.games.session_checks import check_log_replay_and_undo, random_steps

RULES = Squirrels()
MAX_ACTIONS = 20_000  # far more than any real game needs: reaching it means the game cannot end

games = st.builds(
    lambda n, rounds, hand, seed: (
        GameSetup("squirrels", tuple(f"P{i}" for i in range(n)), options={"rounds": rounds, "hand": hand},
                  full_information=True),
        seed,
    ),
    st.integers(2, 6),
    st.integers(1, 3),
    st.integers(0, 8),  # the rulebook's 8 cards in hand, or fewer by house rule (ruling SQ-19)
    st.integers(0, 2**32 - 1),
)


def round_score(s: SquirrelsState, seat: int) -> int:
    """What the rules say ``seat`` scores for the round just ended: 0 for the first out, else their cards."""
    if seat == s.round_safe[-1]:
        return 0
    assert s.hands is not None
    return sum(points(c) for c in s.hands[seat]) + sum(
        points(c) for stack in s.stacks[seat] for c in (stack.top, *stack.down) if c is not None
    )


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_random_legal_games_end_with_all_162_cards_accounted_for(game):
    setup, seed = game
    state = RULES.setup(setup)
    for step, (before, _, state) in enumerate(random_steps(RULES, setup, seed, MAX_ACTIONS)):
        if step % 10 == 0:  # the menu is built legal: check every entry now and then (the chosen one always is)
            menu = RULES.legal_actions(before)
            assert len(set(menu)) == len(menu) and all(RULES.legal(before, a) is None for a in menu)
        if state.unused is not None:
            assert state.all_cards() == sorted(FULL_DECK)  # no card created or lost
            assert all(len(h) == c for h, c in zip(state.hands, state.hand_counts, strict=True))
            assert state.pile == sorted(state.pile, key=lambda entry: -entry[1])  # only equal or lower on top
            assert all(sum(1 for _, v in state.pile if v == value) < 4 for _, value in state.pile)
        if len(state.round_scores) > len(before.round_scores):  # a round was scored, by its remaining cards
            assert state.round_scores[-1] == [round_score(state, p) for p in range(len(setup.players))]
        else:
            assert state.round_scores == before.round_scores
    outcome = RULES.outcome(state)
    assert len(state.round_scores) == setup.options["rounds"]
    assert all(state.totals[w] == min(state.totals) for w in outcome.winners)
    assert all(0 in scores for scores in state.round_scores)  # someone went out every round
    assert RULES.findings(state) == ()


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_the_log_replays_to_the_same_state_and_undo_then_redo_is_a_no_op(game):
    setup, seed = game
    check_log_replay_and_undo(RULES, setup, seed, MAX_ACTIONS)
