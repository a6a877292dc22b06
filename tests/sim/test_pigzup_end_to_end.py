"""One seeded PigzUp! game on the simulated table, through the real code paths: rendered frames -> the
recognition pipeline -> the table; the emulated Pico on a pty -> pyserial -> the pile estimator -> the judge;
mock GPIO buttons -> debounce -> the judge; verdicts -> the session -> SQLite."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest

from companion.config import load_config
from companion.sim.pigzup_bots import Skill
from companion.sim.pigzup_demo import play_simulated
from companion.sim.table_bots import CameraRun
from companion.table.log import EventLog
from companion.table.pigzup_judge import read_trace, replay_trace
from companion.table.replay import fold
from companion.table.session import TableSession

ROOT = Path(__file__).parents[2]
# Quick, steady hands: the game is the thing under test, not the bots' nerves.
FAST = Skill(reaction_s=0.3, per_piggy_s=0.4, topple=0.25, early=0.1)


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_a_seeded_game_reaches_a_winner_and_replays_from_its_log(tmp_path):
    config_file = tmp_path / "companion.toml"
    config_file.write_text(
        f'[table]\ndatabase = "t.sqlite3"\n[serial]\ncalibration = "{ROOT / "calibration" / "pads.toml"}"\n'
        "[web]\nenabled = false\n[judge]\nhold_seconds = 0.6\n",
        encoding="utf-8",
    )
    config = load_config(config_file)
    log = EventLog(tmp_path / "t.sqlite3")
    session = TableSession(log, seed=11)
    played = play_simulated(CameraRun(config, session, ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay"), random.Random(2),
                                      threading.Event(), pace=0.2), skills=[FAST] * 6)

    assert session.status() == "finished"
    state = session.state
    outcome = session.game.ruleset.outcome(state)
    assert outcome is not None and outcome.winners
    events = log.events(played.game_id)
    # The referee's log alone rebuilds the final state exactly.
    assert fold(events).state == state
    sources = {e.source for e in events}
    assert {"camera", "judge"} <= sources
    flips = [e for e in events if e.kind == "action" and e.payload["type"] == "flip"]
    assert sum(e.source == "camera" for e in flips) >= 0.9 * len(flips)  # the camera saw (almost) every flip
    # Every verdict the judge gave has a trace that replays to the same verdict.
    verdicts = [e.payload for e in events if e.kind == "action" and e.payload["type"] == "verdict"]
    assert verdicts and len(verdicts) == len(state.results)
    traces = sorted((tmp_path / "var" / "traces").glob(f"game-{played.game_id}-match-*.jsonl"))
    assert len(traces) == len(verdicts)
    for trace, verdict in zip(sorted(traces, key=lambda p: int(p.stem.rsplit("-", 1)[1])), verdicts, strict=True):
        (replayed,) = replay_trace(read_trace(trace.read_text().splitlines()))
        assert (replayed.winner, replayed.reason) == (verdict["winner"], verdict["reason"])
    log.close()
