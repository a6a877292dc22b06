"""The log's integrity check on a big log: ``PRAGMA integrity_check`` (``companion doctor``) against
``PRAGMA quick_check`` (the device panel's check every few minutes). Prints medians; not a test.

The log is a season of game nights: games of about 150 events each, payloads shaped like real moves.

    .venv/bin/python benchmarks/bench_log_check.py [EVENTS]     (default: 50000)
"""

from __future__ import annotations

import json
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from companion.games.base import GameSetup
from companion.table.backup import check
from companion.table.log import EventLog

EVENTS_PER_GAME = 150
RUNS = 7


def build_log(path: Path, events: int) -> None:
    log = EventLog(path)
    try:
        for game in range(events // EVENTS_PER_GAME):
            setup = GameSetup("corgi-pileup", ("Emily", "Peter", "Taylor"))
            game_id = log.create_game(setup, 1_764_500_000.0 + game * 3600, "web").game_id
            rows = [(game_id, seq, 1_764_500_000.0 + game * 3600 + seq, "camera", "action",
                     json.dumps({"type": "play", "player": seq % 3, "card": seq % 10 + 1}))
                    for seq in range(1, EVENTS_PER_GAME)]
            with log._db:  # one transaction per game: building the log is not what is measured
                log._db.executemany("INSERT INTO events (game_id, seq, ts, source, kind, payload) "
                                    "VALUES (?, ?, ?, ?, ?, ?)", rows)
    finally:
        log.close()


def cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def measure(path: Path, quick: bool) -> tuple[float, float]:
    """Median wall and CPU seconds of one check."""
    walls, cpus = [], []
    for _ in range(RUNS):
        wall, cpu = time.perf_counter(), cpu_s()
        check(path, quick=quick)
        walls.append(time.perf_counter() - wall)
        cpus.append(cpu_s() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    events = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tableside.sqlite3"
        build_log(path, events)
        report = check(path)
        print(f"log: {report.games} games, {report.events} events, {report.size_bytes / 1e6:.1f} MB")
        for name, quick in (("integrity_check (companion doctor)", False), ("quick_check (device panel)", True)):
            wall, cpu = measure(path, quick)
            print(f"{name:36s} median {wall * 1000:7.1f} ms wall, {cpu * 1000:7.1f} ms CPU ({RUNS} runs)")


if __name__ == "__main__":
    main()
