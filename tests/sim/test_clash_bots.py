"""Clash of Corgis bots finish every variant's games with a winner, and play better than chance."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.games.base import GameSetup
from companion.games.clash_of_corgis import ClashOfCorgis
from companion.sim.bots import RandomBot, next_bot_move
from companion.sim.clash_bots import ClashBot

RULES = ClashOfCorgis()


def winner(variant: str, bots: list, seed: int) -> int:
    rng = random.Random(seed)
    state = RULES.setup(GameSetup("clash-of-corgis", tuple(f"P{i}" for i in range(len(bots))), variant,
                                  full_information=True))
    for _ in range(3_000):
        if RULES.outcome(state) is not None:
            break
        state = RULES.apply(state, RULES.chance(state, rng) or next_bot_move(RULES, state, bots))
    outcome = RULES.outcome(state)
    assert outcome is not None and len(outcome.winners) == 1
    return outcome.winners[0]


@pytest.mark.parametrize("variant", sorted(RULES.variants))
def test_bot_games_finish_with_a_winner(variant):
    game = RULES.game_rules(variant)
    for seed in range(6):
        n = game.min_players + seed % (game.max_players - game.min_players + 1)
        assert 0 <= winner(variant, [ClashBot(i, random.Random(seed + i)) for i in range(n)], seed) < n


@pytest.mark.parametrize("variant", sorted(RULES.variants))
def test_a_bot_beats_a_random_player_most_of_the_time(variant):
    wins = Counter(winner(variant, [ClashBot(0, random.Random(s)), RandomBot(1, random.Random(s))], s)
                   for s in range(30))
    assert wins[0] >= 20, wins
