"""Crazy Corgi through the rules core (issue 11). Prints medians; not a test.

1. Random full games per second: every move a uniformly random legal action (2-6 players), no I/O.
2. Bot-vs-bot games per second: the ``CrazyCorgiBot`` policy in every seat.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from companion.games.actions import Action
from companion.games.base import GameSetup
from companion.games.crazy_corgi import CrazyCorgi
from companion.games.crazy_corgi.state import CrazyState
from companion.sim.bots import next_bot_move
from companion.sim.crazy_corgi_bots import CrazyCorgiBot

RULESET = CrazyCorgi()
REPEATS = 7
SECONDS = 1.5  # per repeat

Chooser = Callable[[CrazyState, random.Random], Action]


def random_move(state: CrazyState, rng: random.Random) -> Action:
    return rng.choice(RULESET.legal_actions(state))


def play_game(rng: random.Random, chooser_for: Callable[[int, random.Random], Chooser]) -> int:
    """One whole game; returns the number of actions it took."""
    n = rng.randint(2, 6)
    state = RULESET.setup(GameSetup("crazy-corgi", tuple(f"P{i}" for i in range(n)), full_information=True))
    choose = chooser_for(n, rng)
    actions = 0
    while RULESET.outcome(state) is None:
        state = RULESET.apply(state, RULESET.chance(state, rng) or choose(state, rng))
        actions += 1
    return actions


def bots_for(n: int, rng: random.Random) -> Chooser:
    bots = [CrazyCorgiBot(seat, random.Random(rng.getrandbits(32))) for seat in range(n)]

    def choose(state: CrazyState, _: random.Random) -> Action:
        action = next_bot_move(RULESET, state, bots)
        assert action is not None
        return action

    return choose


def bench(label: str, chooser_for: Callable[[int, random.Random], Chooser]) -> None:
    rng = random.Random(11)
    rates, per_action, total_games = [], [], 0
    for _ in range(REPEATS):
        games = actions = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < SECONDS:
            actions += play_game(rng, chooser_for)
            games += 1
        elapsed = time.perf_counter() - t0
        rates.append(games / elapsed)
        per_action.append(elapsed / actions * 1e6)
        total_games += games
    print(f"{label}: median {statistics.median(rates):.1f} games/s per core over {REPEATS} repeats "
          f"({total_games} games; median {statistics.median(per_action):.0f} µs an action)")


if __name__ == "__main__":
    bench("random full games through the rules core", lambda n, rng: random_move)
    bench("bot-vs-bot games through the rules core", bots_for)
