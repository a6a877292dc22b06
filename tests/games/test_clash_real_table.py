"""Every random full-information game, watched from a real table: the referee records only what shows (face-up
cards, who goes first, looks that happened, the card a pick turned up), answers the extra questions hidden hands
raise (a parry nobody can rule out, a Mage with nothing to burn), and must see the same table at every step."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import GameSetup
from companion.games.clash_of_corgis import ClashOfCorgis
from companion.sim.clash_real_table import hidden_answer, public, seen

RULES = ClashOfCorgis()
MAX_ACTIONS = 3_000


def answer_hidden_questions(table: Any, full_before: Any, full_after: Any) -> Any:
    """The real table once it has recorded what it must before it is where the full game is."""
    for _ in range(5):
        answer = hidden_answer(table, full_before, full_after)
        if answer is None:
            return table
        table = RULES.apply(table, answer)
    return table


@pytest.mark.parametrize("variant", sorted(RULES.variants))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_a_real_table_sees_the_same_game(variant, data, seed):
    game = RULES.game_rules(variant)
    n = data.draw(st.integers(game.min_players, game.max_players), label="players")
    names = tuple(f"P{i}" for i in range(n))
    full = RULES.setup(GameSetup("clash-of-corgis", names, variant, full_information=True))
    table = RULES.setup(GameSetup("clash-of-corgis", names, variant, full_information=False))
    rng = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        if RULES.outcome(full) is not None:
            break
        action = RULES.chance(full, rng) or rng.choice(RULES.legal_actions(full))
        after = RULES.apply(full, action)
        table = answer_hidden_questions(table, full, full)
        table = RULES.apply(table, seen(full, action, after))
        table = answer_hidden_questions(table, full, after)
        assert public(RULES.view(table)) == public(RULES.view(after)), action
        full = after
    assert RULES.outcome(table) == RULES.outcome(full) is not None
