"""Rules-core and event-log speed (foundation issue). Prints medians; not a test.

1. Replay of a stored 1,000-event game: read the events from SQLite and fold them into the state
   (target <= 50 ms median). A Corgi Pileup game is ~100-200 events, so the stored game is a 7-player
   Strategic game in which the referee also corrects moves (undo, then the move again) until the log holds
   1,000 events: the fold then does real undo bookkeeping too.
2. Random full games per second through the rules core alone (no I/O): the fuzzing budget.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from companion.games.base import GameSetup
from companion.games.corgi_pileup import CorgiPileup
from companion.table.log import EventLog
from companion.table.replay import fold
from companion.table.session import TableSession

EVENTS = 1_000
CORRECTIONS_PER_MOVE = 5
RUNS = 30


def store_long_game(path: Path) -> int:
    rng = random.Random(1000)
    log = EventLog(path)
    session = TableSession(log, seed=1000)
    game_id = session.start_game(
        GameSetup("corgi-pileup", tuple(f"P{i}" for i in range(7)), "strategic", full_information=True), "bench"
    )
    ruleset = session.game.ruleset
    while len(log.events(game_id)) < EVENTS:
        action = rng.choice(ruleset.legal_actions(session.state))
        session.submit(action, "bench")
        for _ in range(CORRECTIONS_PER_MOVE):
            if len(log.events(game_id)) >= EVENTS - 1:
                break
            session.undo("referee")
            session.submit(action, "referee")
    log.close()
    return game_id


def bench_replay() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite3"
        game_id = store_long_game(path)
        log = EventLog(path)
        times, fold_only = [], []
        for _ in range(RUNS):
            t0 = time.perf_counter()
            events = log.events(game_id)
            t1 = time.perf_counter()
            folded = fold(events)
            t2 = time.perf_counter()
            times.append(t2 - t0)
            fold_only.append(t2 - t1)
        kinds = {k: sum(e.kind == k for e in events) for k in ("action", "undo")}
        print(f"replay of a stored {len(events)}-event game ({kinds['action']} actions, {kinds['undo']} undos, "
              f"{len(folded.moves)} live moves)")
        print(f"  read + fold: median {statistics.median(times) * 1e3:.1f} ms  (target <= 50 ms)")
        print(f"  fold only:   median {statistics.median(fold_only) * 1e3:.1f} ms")
        log.close()
        bench_live_moves(Path(tmp) / "whole-games.sqlite3")


def bench_live_moves(path: Path) -> None:
    """The same work with every event live: whole uncorrected games, stored, until they hold 1,000 events."""
    log = EventLog(path)
    session = TableSession(log, seed=1)
    rng = random.Random(1)
    game_ids: list[int] = []
    while sum(len(log.events(g)) for g in game_ids) < EVENTS:
        players = tuple(f"P{i}" for i in range(7))
        game_ids.append(session.start_game(GameSetup("corgi-pileup", players, "strategic", full_information=True), "b"))
        while session.status() == "playing":
            session.submit(rng.choice(session.game.ruleset.legal_actions(session.state)), "bench")
    times = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        for game_id in game_ids:
            fold(log.events(game_id))
        times.append(time.perf_counter() - t0)
    total = sum(len(log.events(g)) for g in game_ids)
    print(f"replay of {len(game_ids)} whole stored games, {total} events, all live")
    median = statistics.median(times)
    print(f"  read + fold: median {median * 1e3:.1f} ms  (= {median / total * 1e6:.0f} µs an event)")
    log.close()


def bench_random_games(seconds: float = 3.0) -> None:
    ruleset = CorgiPileup()
    rng = random.Random(7)
    games = actions = 0
    rates = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        t0 = time.perf_counter()
        n = rng.randint(2, 7)
        setup = GameSetup("corgi-pileup", tuple(f"P{i}" for i in range(n)), rng.choice(list(ruleset.variants)),
                          full_information=True)
        state = ruleset.setup(setup)
        while ruleset.outcome(state) is None:
            action = ruleset.chance(state, rng) or rng.choice(ruleset.legal_actions(state))
            state = ruleset.apply(state, action)
            actions += 1
        games += 1
        rates.append(1 / (time.perf_counter() - t0))
    print(f"random full games through the rules core: {games} games, {actions} actions in {seconds:.0f} s")
    print(f"  median {statistics.median(rates):.0f} games/s per core ({actions / seconds:.0f} actions/s)")


if __name__ == "__main__":
    bench_replay()
    bench_random_games()
