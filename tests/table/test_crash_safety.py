"""Crash safety: a process appending events is SIGKILLed at random points; every acknowledged event survives,
nothing is half-written, and the table resumes where it was."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.table.log import EventLog
from companion.table.replay import fold
from companion.table.session import TableSession

CHILD = Path(__file__).with_name("crash_child.py")
ROOT = Path(__file__).parents[2]


def run_until_killed(db: Path, seed: int, kill_after_acks: int) -> list[tuple[int, int]]:
    """Start the child and SIGKILL it once it has acknowledged ``kill_after_acks`` events (counted as they are
    printed, so a busy machine changes nothing), plus whatever it acknowledged in the moment before the kill."""
    child = subprocess.Popen(
        [sys.executable, str(CHILD), str(db), str(seed)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert child.stdout is not None
        first = child.stdout.readline()
        assert first.startswith("resumed"), first
        lines = []
        while len(lines) < kill_after_acks:
            line = child.stdout.readline()
            assert line, "the child stopped before it was killed"
            lines.append(line)
        child.send_signal(signal.SIGKILL)
        child.wait()
        lines += child.stdout.read().splitlines()  # everything printed before the kill was acknowledged
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    acked = []
    for line in lines:
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
        acked = run_until_killed(db, seed=round_no, kill_after_acks=rng.randint(1, 40))
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
