"""Clash of Corgis through the rules core alone (no I/O), per variant: random full games per second (legal moves
picked uniformly) and bot-against-bot games per second. Prints medians; not a test."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from companion.games.actions import Action
from companion.games.base import GameSetup
from companion.games.clash_of_corgis import ClashOfCorgis
from companion.sim.bots import next_bot_move
from companion.sim.clash_bots import ClashBot

RULES = ClashOfCorgis()
REPEATS = 5
SECONDS = 2.0
MAX_ACTIONS = 5_000


def play(variant: str, players: int, rng: random.Random, chooser: Callable[[object], Action | None]) -> int:
    state = RULES.setup(GameSetup("clash-of-corgis", tuple(f"P{i}" for i in range(players)), variant,
                                  full_information=True))
    actions = 0
    while RULES.outcome(state) is None:
        if actions > MAX_ACTIONS:
            raise RuntimeError(f"a {variant} game did not end within {MAX_ACTIONS} actions")
        action = RULES.chance(state, rng) or chooser(state)
        assert action is not None
        state = RULES.apply(state, action)
        actions += 1
    return actions


def rate(variant: str, bots: bool) -> tuple[float, float]:
    """Median games/s over ``REPEATS`` runs of ``SECONDS`` each, and the median actions per game."""
    game = RULES.game_rules(variant)
    rates, lengths = [], []
    rng = random.Random(7)
    for _ in range(REPEATS):
        games = 0
        deadline = time.perf_counter() + SECONDS
        start = time.perf_counter()
        while time.perf_counter() < deadline:
            n = rng.randint(game.min_players, game.max_players)
            if bots:
                seats = [ClashBot(i, random.Random(rng.random())) for i in range(n)]
                lengths.append(play(variant, n, rng, lambda s, seats=seats: next_bot_move(RULES, s, seats)))
            else:
                lengths.append(play(variant, n, rng, lambda s: rng.choice(RULES.legal_actions(s))))
            games += 1
        rates.append(games / (time.perf_counter() - start))
    return statistics.median(rates), statistics.median(lengths)


if __name__ == "__main__":
    for variant in RULES.variants:
        random_rate, random_length = rate(variant, bots=False)
        bot_rate, bot_length = rate(variant, bots=True)
        print(f"{variant}: random full games {random_rate:.0f}/s (median {random_length:.0f} actions); "
              f"bot-vs-bot {bot_rate:.0f}/s (median {bot_length:.0f} actions)")
