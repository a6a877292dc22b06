"""What a PigzUp! race's trace keeps: every reading of the racers' pads with its weight, the instruments'
context, the tare, vibration inputs and raw button edges; and a trace for every race, verdict or not."""

from __future__ import annotations

import json

import pytest

from companion.games.base import GameSetup
from companion.games.pigzup.actions import MatchVerdict
from companion.table.live import LiveTable
from companion.table.observations import (
    ButtonEdge,
    ButtonPress,
    CardSeen,
    PadReading,
    PadsTared,
    PadVibration,
    PileState,
)
from companion.table.pigzup_judge import MAX_TRACE_ENTRIES, JudgeSettings, VerdictCode, replay_trace

CONTEXT = {"host": "0.1.0", "firmware": "fw-1.2", "piggy_g": 9.0, "max_piggies": 8,
           "pads": [{"offset_counts": 0.0, "counts_per_gram": 4300.0, "noise_g": 0.4, "zero_counts": 812.0}] * 3,
           "thresholds": {"topple_drop_g": 6.75, "topple_window_ms": 150.0}}


def seat_of_zone(zone: str, players: int) -> int | None:
    return {"seat-1": 0, "seat-3": 1, "seat-5": 2}.get(zone) if players == 3 else None


@pytest.fixture
def table(session, tmp_path):
    session.start_game(GameSetup("pigzup", ("Ann", "Ben", "Cat")), source="web")
    now = [0.0]
    live = LiveTable(session, seat_of_zone, settings={"pigzup": JudgeSettings(hold_seconds=1.0,
                                                                               race_timeout_seconds=5.0)},
                     traces=tmp_path / "traces", clock=lambda: now[0])
    live.trace_context = lambda: CONTEXT
    live.now = now  # type: ignore[attr-defined]
    return live


def call_a_race(table) -> None:
    """Ann flips, then Ben: a race between Ben (seat 1) and Ann (seat 0) for 3 piggies."""
    table.observe(CardSeen("seat-1", "3-pink-blue", 0.9), t=1.0)
    table.observe(CardSeen("seat-3", "3-green-pink", 0.9), t=2.0)
    table.now[0] = 2.0
    table.drain()
    assert table.adapter.judge.race is not None


def readings(table, seat, state, count, grams, start, end):
    t = start
    while t < end - 1e-9:
        table.observe(PadReading(seat, state, count, round(t, 4), grams=grams))
        t += 1 / 80


def the_trace(tmp_path) -> list[dict]:
    (path,) = (tmp_path / "traces").iterdir()
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_timed_out_race_keeps_every_reading_with_its_weight_and_the_evidence(table, tmp_path):
    call_a_race(table)
    table.observe(PadsTared({0: 812.5, 1: 799.0}, 2.2))
    readings(table, 1, PileState.STABLE, 2, 18.1, 2.5, 3.5)  # the same state for 80 readings: all kept
    table.observe(PadVibration(1, 1, 3.0))
    table.observe(ButtonEdge(0, True, 3.1, taken=True))
    table.observe(ButtonEdge(0, False, 3.102, taken=False))
    table.now[0] = 7.5
    table.drain()
    trace = the_trace(tmp_path)
    kinds = [e["kind"] for e in trace]
    assert kinds[:2] == ["call", "context"] and kinds[-2:] == ["tick", "verdict"]
    assert trace[1]["firmware"] == "fw-1.2" and trace[1]["thresholds"]["topple_drop_g"] == 6.75
    pads = [e for e in trace if e["kind"] == "pad"]
    assert len(pads) == 80 and {e["g"] for e in pads} == {18.1}
    assert {"kind": "tare", "t": 2.2, "zeros": {"0": 812.5, "1": 799.0}, "refused": ""} in trace
    assert {"kind": "vibration", "t": 3.0, "seat": 1, "level": 1} in trace
    assert [e for e in trace if e["kind"] == "edge"] == [
        {"kind": "edge", "t": 3.1, "seat": 0, "down": True, "taken": True},
        {"kind": "edge", "t": 3.102, "seat": 0, "down": False, "taken": False},
    ]
    assert trace[-1]["code"] == VerdictCode.TIMEOUT and trace[-1]["winner"] is None
    (again,) = replay_trace(trace)
    assert again.code is VerdictCode.TIMEOUT and again.reason == trace[-1]["reason"]


def test_a_race_the_referee_takes_over_still_leaves_its_trace(table, session, tmp_path):
    call_a_race(table)
    readings(table, 0, PileState.STABLE, 3, 27.2, 2.5, 3.0)
    table.observe(ButtonPress(0, 3.0))
    table.drain()
    session.submit(MatchVerdict(1, "referee: Ann knocked Ben's pile"), source="web")
    table.now[0] = 3.2
    table.drain()
    trace = the_trace(tmp_path)
    assert [e["kind"] for e in trace][-2:] == ["press", "referee"]
    assert not any(e["kind"] == "verdict" for e in trace)
    assert replay_trace(trace) == []  # no verdict from the judge: the referee gave it


def test_a_race_left_open_when_a_new_game_starts_leaves_its_trace(table, session, tmp_path):
    call_a_race(table)
    session.start_game(GameSetup("pigzup", ("Ann", "Ben", "Cat")), source="web")
    table.drain()
    assert [e["kind"] for e in the_trace(tmp_path)][-1] == "referee"


def test_a_long_race_keeps_a_bounded_trace_that_still_replays_to_the_same_verdict(table, tmp_path):
    call_a_race(table)
    readings(table, 1, PileState.BUILDING, 1, 9.0, 2.5, 2.5 + (MAX_TRACE_ENTRIES + 400) / 80)
    start = 2.5 + (MAX_TRACE_ENTRIES + 400) / 80
    readings(table, 1, PileState.STABLE, 3, 27.0, start, start + 0.1)
    table.observe(ButtonPress(1, start + 0.1))
    readings(table, 1, PileState.STABLE, 3, 27.0, start + 0.1, start + 1.3)
    table.drain()
    trace = the_trace(tmp_path)
    assert len(trace) < MAX_TRACE_ENTRIES + 200
    assert "full" in [e["kind"] for e in trace]
    (again,) = replay_trace(trace)
    assert (again.winner, again.code) == (1, VerdictCode.STOOD) == (trace[-1]["winner"], trace[-1]["code"])


def test_a_race_open_when_the_referee_ends_the_game_leaves_its_trace(table, session, tmp_path):
    call_a_race(table)
    readings(table, 0, PileState.BUILDING, 1, 9.3, 2.5, 2.6)
    table.drain()
    session.end_game("web", "Ended by the referee.")
    table.drain()
    trace = the_trace(tmp_path)
    assert [e["kind"] for e in trace][-1] == "referee" and trace[-2]["g"] == 9.3

