"""Every random full-information game, watched from a real table: the referee records only what shows (face-up
cards, who goes first, looks that happened, the card a pick turned up), answers the extra questions hidden hands
raise (a parry nobody can rule out, a Mage with nothing to burn), and must see the same table at every step.

The table shuffles as the session does: the moment its rules call for it, so it may flip foes taken across a
reshuffle while the full game still waits for its own shuffle (as the camera bots see it)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.actions import Action, Reshuffle
from companion.games.base import GameSetup
from companion.games.clash_of_corgis import ClashOfCorgis
from companion.games.clash_of_corgis.actions import Build, Fight, Shuffle
from companion.games.clash_of_corgis.treasure_state import Phase
from companion.sim.clash_real_table import hidden_answer, public, seen
from tests.games.test_clash_treasure_island import table as treasure_table

RULES = ClashOfCorgis()
MAX_ACTIONS = 3_000
SHUFFLES = (Reshuffle, Shuffle)  # chance events the session makes itself, with no card to show


def answer_hidden_questions(table: Any, full_before: Any, full_after: Any) -> Any:
    """The real table once it has recorded what it must before it is where the full game is."""
    for _ in range(5):
        answer = hidden_answer(table, full_before, full_after)
        if answer is None:
            return table
        table = recorded(table, answer)
    return table


def recorded(table: Any, action: Action) -> Any:
    """The table after ``action`` and the shuffles its rules then call for: the session records them at once."""
    table = RULES.apply(table, action)
    while isinstance(chance := RULES.chance(table, random.Random(0)), SHUFFLES):
        table = RULES.apply(table, chance)
    return table


def watched(table: Any, full: Any, action: Action) -> tuple[Any, Any]:
    """``action`` of the full game and the real table that watched it, in the order the camera bots bring it: the
    table's questions first, the move as it shows (a shuffle is the table's own), the questions it then raises."""
    after = RULES.apply(full, action)
    table = answer_hidden_questions(table, full, full)
    if not isinstance(action, SHUFFLES):
        table = recorded(table, seen(full, action, after))
    return answer_hidden_questions(table, full, after), after


def waits_for_chance(state: Any) -> bool:
    return RULES.chance(state, random.Random(0)) is not None


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
        table, full = watched(table, full, action)
        if not waits_for_chance(full):  # a shuffle, a deal or a pick of the full game: compared once it is made
            assert public(RULES.view(table)) == public(RULES.view(full)), action
    assert RULES.outcome(table) == RULES.outcome(full) is not None


def test_foes_taken_across_a_reshuffle_are_shown_once_the_full_game_has_taken_them_too():
    # P1 fights a foe (the last fight, on record); P2 then fights 3 with 2 cards left in the deck: the table
    # reshuffles and waits for all three foes while the full game waits for its own shuffle.
    full = treasure_table(parties={0: ["fire-9"], 1: ["void-9"]}, deck_size=3)
    table = replace(full.clone(), hands=None, deck=None, setup=replace(full.setup, full_information=False))
    for action in (Build(0, None), Fight(0, 1), Build(1, None), Fight(1, 3)):
        table, full = watched(table, full, action)
    assert full.phase is Phase.RESHUFFLE and table.phase is Phase.REVEAL and table.foes_hidden == 3
    assert hidden_answer(table, full, full) is None  # never the last fight's foe again: nothing to flip yet
    table, full = watched(table, full, RULES.chance(full, random.Random(1)))
    assert full.last_fight.seat == 1 and len(full.last_fight.foes) == 3
    assert public(RULES.view(table)) == public(RULES.view(full))
