"""Squirrels through the rules core alone (no I/O). Prints medians; not a test.

1. Random full games per second: 2-6 players, three rounds, every move drawn uniformly from ``legal_actions``
   (full-information play), chance events from a seeded generator: the fuzzing budget.
2. Bot-vs-bot full games per second (``companion/sim/squirrels_bots.py``), and how often one bot beats two
   random players.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from companion.games.actions import Action
from companion.games.base import GameSetup
from companion.games.squirrels import Squirrels
from companion.games.squirrels.state import SquirrelsState
from companion.sim.bots import RandomBot, next_bot_move
from companion.sim.squirrels_bots import SquirrelsBot, bots_for

RULES = Squirrels()
Chooser = Callable[[SquirrelsState], Action | None]


def full_game(players: int, rng: random.Random, choose: Chooser) -> tuple[SquirrelsState, int]:
    names = tuple(f"P{i}" for i in range(players))
    state = RULES.setup(GameSetup("squirrels", names, full_information=True))
    actions = 0
    while RULES.outcome(state) is None:
        action = RULES.chance(state, rng) or choose(state)
        assert action is not None
        state = RULES.apply(state, action)
        actions += 1
    return state, actions


def bench(label: str, make: Callable[[random.Random, int], Chooser], seconds: float) -> None:
    rng = random.Random(7)
    rates, actions = [], 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        players = rng.randint(2, 6)
        t0 = time.perf_counter()
        _, n = full_game(players, rng, make(rng, players))
        rates.append(1 / (time.perf_counter() - t0))
        actions += n
    print(f"{label}: {len(rates)} three-round games, {actions} actions in {seconds:.0f} s")
    print(f"  median {statistics.median(rates):.2f} games/s per core ({actions / seconds:.0f} actions/s)")


def random_players(rng: random.Random, players: int) -> Chooser:
    return lambda state: rng.choice(RULES.legal_actions(state))


def bot_players(rng: random.Random, players: int) -> Chooser:
    bots = bots_for(players, rng.getrandbits(32))
    return lambda state: next_bot_move(RULES, state, bots)


def bench_bot_vs_random(games: int = 20) -> None:
    wins = 0
    for seed in range(games):
        bots: list = [SquirrelsBot(0, random.Random(seed))]
        bots += [RandomBot(seat, random.Random(seed * 10 + seat)) for seat in (1, 2)]
        state, _ = full_game(3, random.Random(seed), lambda s, bots=bots: next_bot_move(RULES, s, bots))
        wins += 0 in RULES.outcome(state).winners
    print(f"one bot against two random players: the bot won {wins} of {games} three-round games")


if __name__ == "__main__":
    bench("random full games through the rules core", random_players, seconds=10)
    bench("bot-vs-bot full games", bot_players, seconds=10)
    bench_bot_vs_random()
