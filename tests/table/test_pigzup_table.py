"""The PigzUp! table loop: camera flips become actions, a match call starts the judge, its verdict is logged."""

from __future__ import annotations

import json

from companion.games.base import GameSetup
from companion.games.pigzup.actions import MatchVerdict
from companion.table.live import LiveTable
from companion.table.observations import ButtonPress, CardSeen, PadReading, PileState
from companion.table.pigzup_judge import JudgeSettings, replay_trace


class Lights:
    def __init__(self):
        self.calls = []

    def announce(self, kind, seats):
        self.calls.append((kind, seats))


def seat_of_zone(zone: str, players: int) -> int | None:
    """A three-seat mat: zones seat-1, seat-3 and seat-5."""
    return {"seat-1": 0, "seat-3": 1, "seat-5": 2}.get(zone) if players == 3 else None


def make_table(session, tmp_path, clock):
    session.start_game(GameSetup("pigzup", ("Ann", "Ben", "Cat")), source="web")
    lights = Lights()
    table = LiveTable(session, seat_of_zone, settings={"pigzup": JudgeSettings(hold_seconds=1.0)}, announcer=lights,
                      traces=tmp_path / "traces", clock=clock)
    return table, lights


def stack(table, seat, state, count, start, end):
    t = start
    while t < end:
        table.observe(PadReading(seat, state, count, round(t, 4)))
        t += 1 / 80


def test_flips_call_a_match_and_the_judges_verdict_is_logged(session, tmp_path):
    now = [100.0]
    table, lights = make_table(session, tmp_path, lambda: now[0])
    table.observe(CardSeen("seat-1", "3-pink-blue", 0.9), t=100.0)
    table.observe(CardSeen("centre", "4-blue-blue", 0.9), t=100.5)  # not a player's pile: ignored
    table.observe(CardSeen("seat-3", "3-green-pink", 0.9), t=101.0)
    table.drain()
    assert session.state.race.racers == (1, 0)
    assert table.adapter.judge.race is not None and ("match", (1, 0)) in lights.calls
    stack(table, 1, PileState.STABLE, 3, 102.0, 103.0)
    table.observe(ButtonPress(1, 103.0))
    stack(table, 1, PileState.STABLE, 3, 103.0, 104.1)
    table.drain()
    assert session.state.race is None
    (result,) = session.state.results
    assert result.winner == 1 and result.reaction_ms == 2000
    assert ("winner", (1,)) in lights.calls
    events = session.log.events(session.game_id)
    assert events[-1].source == "judge" and events[-1].payload["type"] == "verdict"
    (trace_file,) = (tmp_path / "traces").iterdir()
    trace = [json.loads(line) for line in trace_file.read_text().splitlines()]
    assert [v.winner for v in replay_trace(trace)] == [1]
    assert table.view()["match"]["stats"][1]["wins"] == 1


def test_a_referee_verdict_stands_down_the_judge(session, tmp_path):
    table, _ = make_table(session, tmp_path, lambda: 5.0)
    table.observe(CardSeen("seat-1", "2-pink-blue", 0.9), t=1.0)
    table.observe(CardSeen("seat-3", "2-blue-green", 0.9), t=2.0)
    table.drain()
    assert table.adapter.judge.race is not None
    session.submit(MatchVerdict(0, "referee: Ben peeked"), source="web")
    table.drain()
    assert table.adapter.judge.race is None
    assert table.view()["match"]["race"] is None


def test_a_misread_flip_is_refused_and_changes_nothing(session, tmp_path):
    table, _ = make_table(session, tmp_path, lambda: 5.0)
    table.observe(CardSeen("seat-3", "2-pink-blue", 0.9), t=1.0)  # it is Ann's turn
    table.drain()
    assert session.state.faceup == [[], [], []]
    assert session.snapshot()["warnings"][-1]["code"] == "not-your-turn"


def test_the_live_view_shows_the_race(session, tmp_path):
    now = [10.0]
    table, _ = make_table(session, tmp_path, lambda: now[0])
    table.observe(CardSeen("seat-1", "4-pink-blue", 0.9), t=1.0)
    table.observe(CardSeen("seat-3", "4-blue-green", 0.9), t=2.0)
    stack(table, 1, PileState.STABLE, 4, 3.0, 3.1)
    table.observe(ButtonPress(1, 3.1))
    table.drain()
    now[0] = 3.5
    race = table.view()["match"]["race"]
    assert race["racers"] == ["Ben", "Ann"] and race["piggies"] == 4
    pad = race["pads"][0]
    assert {k: pad[k] for k in ("seat", "name", "pile", "count", "state")} == {
        "seat": 1, "name": "Ben", "pile": "stable(4)", "count": 4, "state": "stable"}
    assert pad["trail"] and pad["trail"][-1] == {"count": 4}  # the sparkline's latest point
    assert race["holding"] == {"seat": 1, "name": "Ben", "remaining_s": 0.6, "hold_s": 1.0}
    assert table.view()["piles"] == [{"label": "Ann's pile", "cards": ["4-pink-blue"]},  # by seat
                                     {"label": "Ben's pile", "cards": ["4-blue-green"]}]


def test_a_new_game_with_the_same_players_gets_its_own_match_calls(session, tmp_path):
    table, lights = make_table(session, tmp_path, lambda: 5.0)
    for _ in range(2):
        session.start_game(GameSetup("pigzup", ("Ann", "Ben", "Cat")), source="web")
        table.observe(CardSeen("seat-1", "2-pink-blue", 0.9), t=1.0)
        table.observe(CardSeen("seat-3", "2-blue-green", 0.9), t=2.0)
        table.drain()
    assert [kind for kind, _ in lights.calls].count("match") == 2


def test_pad_samples_and_a_hold_countdown_write_nothing_to_the_card(session, tmp_path):
    """SD-card care: the log is written once per move, never per pad sample or status-page refresh."""
    now = [100.0]
    table, _ = make_table(session, tmp_path, lambda: now[0])
    table.observe(CardSeen("seat-1", "3-pink-blue", 0.9), t=100.0)
    table.observe(CardSeen("seat-3", "3-green-pink", 0.9), t=101.0)
    table.drain()
    assert table.adapter.judge.race is not None
    files = sorted(p for p in tmp_path.rglob("*") if p.is_file())
    written = {p: (p.stat().st_size, p.stat().st_mtime_ns) for p in files}
    for step in range(800):  # ten seconds of one pad at 80 samples/s, the countdown refreshed throughout
        now[0] = 102.0 + step / 80
        table.observe(PadReading(1, PileState.STABLE, 3, now[0]))
    table.drain()
    assert sorted(p for p in tmp_path.rglob("*") if p.is_file()) == files
    assert {p: (p.stat().st_size, p.stat().st_mtime_ns) for p in files} == written


def test_a_race_resumed_after_a_restart_is_judged_once_its_pads_answer_and_never_tared(db_path, tmp_path):
    from companion.table.log import EventLog
    from companion.table.session import TableSession

    log = EventLog(db_path)
    before = TableSession(log)
    before.start_game(GameSetup("pigzup", ("Ann", "Ben", "Cat")), source="web")
    before.submit({"type": "flip", "player": 0, "card": "2-pink-blue"}, "camera")
    before.submit({"type": "flip", "player": 1, "card": "2-blue-green"}, "camera")  # a race, then the power goes
    resumed = TableSession(log)
    tared, lights = [], Lights()
    table = LiveTable(resumed, seat_of_zone, settings={"pigzup": JudgeSettings(hold_seconds=1.0)}, announcer=lights,
                      traces=tmp_path / "traces", clock=lambda: 10.0)
    table.on_call = tared.append
    table.observe(PadReading(1, PileState.FAULT, 0, 10.0))  # the link is not up yet: no verdict, no call
    table.drain()
    assert table.adapter.judge.race is None and lights.calls == []
    table.observe(PadReading(0, PileState.EMPTY, 0, 10.1))
    table.observe(PadReading(1, PileState.EMPTY, 0, 10.2))
    table.drain()
    assert table.adapter.judge.race is not None and table.adapter.judge.race.racers == (1, 0)
    assert tared == [], "a resumed race's piles may stand on the pads: never tared"
    assert resumed.state.race is not None and resumed.state.results == []
    log.close()
