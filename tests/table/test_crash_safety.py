"""Crash safety: a process appending events is SIGKILLed at random points; every acknowledged event survives,
nothing is half-written, and the table resumes where it was."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.table.log import EventLog
from companion.table.replay import fold
from companion.table.session import TableSession

CHILD = Path(__file__).with_name("crash_child.py")
ROOT = Path(__file__).parents[2]


def run_until_killed(db: Path, seed: int, kill_after: float) -> list[tuple[int, int]]:
    """Start the child, kill it with SIGKILL after ``kill_after`` seconds, return what it acknowledged."""
    child = subprocess.Popen(
        [sys.executable, str(CHILD), str(db), str(seed)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert child.stdout is not None
    acked: list[tuple[int, int]] = []
    deadline = time.monotonic() + kill_after
    first = child.stdout.readline()
    assert first.startswith("resumed"), first
    os.set_blocking(child.stdout.fileno(), False)
    while time.monotonic() < deadline:
        time.sleep(0.005)
    child.send_signal(signal.SIGKILL)
    child.wait()
    os.set_blocking(child.stdout.fileno(), True)
    for line in child.stdout.read().splitlines():  # everything printed before the kill was acknowledged
        if line.startswith("ack "):
            _, game_id, seq = line.split()
            acked.append((int(game_id), int(seq)))
    return acked


@pytest.mark.slow
def test_sigkill_at_random_points_loses_no_acknowledged_event(tmp_path):
    db = tmp_path / "crash.sqlite3"
    rng = random.Random(20261130)
    all_acked: list[tuple[int, int]] = []
    for round_no in range(25):
        acked = run_until_killed(db, seed=round_no, kill_after=rng.uniform(0.05, 0.4))
        all_acked.extend(acked)
        with sqlite3.connect(db) as raw:
            assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        log = EventLog(db)
        stored = {(g.id, e.seq) for g in log.list_games() for e in log.events(g.id)}
        missing = [a for a in all_acked if a not in stored]
        assert not missing, f"acknowledged events lost after kill {round_no}: {missing[:5]}"
        # Nothing half-written: every stored game folds cleanly, and the table resumes its latest game.
        for game in log.list_games():
            fold(log.events(game.id))
        resumed = TableSession(log)
        assert resumed.state == fold(log.events(resumed.game_id)).state
        log.close()
    assert len(all_acked) > 100, "the child barely ran: the test proved nothing"
