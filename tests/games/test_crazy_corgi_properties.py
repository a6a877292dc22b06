"""Hypothesis plays random legal Crazy Corgi games (2-6 players) to the end and checks the invariants each step."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import GameSetup
from companion.games.crazy_corgi import CrazyCorgi
from companion.games.crazy_corgi.sets import best_score, deck, is_wild
from companion.games.crazy_corgi.state import WIN_POINTS, CrazyState
from tests.games.session_checks import check_log_replay_and_undo, random_steps

RULESET = CrazyCorgi()
FULL_DECK = sorted(deck().cards())
MAX_ACTIONS = 5_000  # random games take a few hundred actions: reaching this means the game cannot end

games = st.builds(
    lambda n, wilds, first, seed: (
        GameSetup("crazy-corgi", tuple(f"P{i}" for i in range(n)), options={"wilds": wilds, "first_player": first % n},
                  full_information=True),
        seed,
    ),
    st.integers(2, 6),
    st.sampled_from(["best", "declare"]),
    st.integers(0, 5),
    st.integers(0, 2**32 - 1),
)


def points_from_sets(state: CrazyState) -> list[int]:
    """Every point is a scored set, scored as the rulebook's table says for its cards (or its declared Wilds)."""
    totals = [0] * len(state.players)
    for scored in state.scored:
        cards = [c for c in scored.cards if not is_wild(c)] + list(scored.declared) if scored.declared else scored.cards
        assert best_score(list(cards)) == scored.score
        totals[scored.seat] += scored.score.points
    return totals


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_random_legal_games_reach_a_winner_without_losing_a_card(game):
    state = None
    for before, _, state in random_steps(RULESET, *game, MAX_ACTIONS):
        assert state.all_cards() == FULL_DECK  # no card created or lost
        assert state.points == points_from_sets(state)
        assert all(a >= b for a, b in zip(state.points, before.points, strict=True))
        # A complete Kennel is scored at once (once its Wilds are declared, if they must be).
        complete = [(p, k) for p, seat in enumerate(state.kennels) for k, cards in enumerate(seat) if len(cards) == 5]
        assert complete in ([], [(state.placer, state.declaring)])
    outcome = RULESET.outcome(state)
    assert outcome is not None, "the game never ended"
    best = max(state.points)
    assert outcome.winners == tuple(p for p, pts in enumerate(state.points) if pts == best)
    assert best >= WIN_POINTS or outcome.reason.startswith("No card is left to draw")
    if len(outcome.winners) > 1:
        assert "shared victory" in outcome.reason


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_the_log_replays_to_the_same_state_and_undo_then_redo_is_a_no_op(game):
    setup, seed = game
    check_log_replay_and_undo(RULESET, setup, seed, MAX_ACTIONS)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_the_table_sees_the_same_game_without_knowing_the_deck(game):
    # Issue 11, part 2: the same moves recorded at a table (unseen shuffles, each card as the camera read it) make
    # the same public game at every step: every Kennel, the draw zone, the discard pile, the points, the outcome.
    setup, seed = game
    table = RULESET.setup(GameSetup(setup.game, setup.players, options=dict(setup.options)))
    for _, action, state in random_steps(RULESET, setup, seed, MAX_ACTIONS):
        table = RULESET.apply(table, replace(action, seed=None) if action.chance else action)
        public = RULESET.view(state)
        del public["deck_order"]
        assert RULESET.view(table) == public
    assert RULESET.outcome(table) == RULESET.outcome(state)
