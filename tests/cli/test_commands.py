"""The `companion` command end to end: demo stores a game, export + replay reproduce it, bad input is named."""

from __future__ import annotations

import io
import json
import socket
import subprocess
import sys

import pytest

from companion.cli import main
from companion.games.base import GameSetup
from companion.table.log import EventLog
from companion.table.observations import ButtonPress, PadReading, PileState
from companion.table.pigzup_judge import JudgeSettings, MatchJudge
from companion.table.replay import fold
from companion.table.session import TableSession


@pytest.fixture
def config_file(tmp_path):
    path = tmp_path / "companion.toml"
    path.write_text('[table]\ndatabase = "t.sqlite3"\n[web]\nenabled = false\n', encoding="utf-8")
    return path


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_every_game_and_variant(capsys):
    code, out, _ = run(capsys, "games")
    assert code == 0
    assert "corgi-pileup: Corgi Pileup, 2-7 players" in out
    for variant in ("standard", "underdog", "strategic", "underdog+strategic"):
        assert f"--variant {variant}" in out


def test_demo_plays_to_a_winner_and_replay_reproduces_it(capsys, config_file, tmp_path):
    code, out, _ = run(capsys, "-c", str(config_file), "demo", "--game", "corgi-pileup", "--seed", "5",
                       "--players", "3", "--entry", "direct")
    assert code == 0
    assert "Winner: " in out and "Stored as game 1" in out
    code, out, _ = run(capsys, "-c", str(config_file), "log")
    assert code == 0 and "finished" in out
    code, exported, _ = run(capsys, "-c", str(config_file), "log", "export", "1")
    replay_file = tmp_path / "game.jsonl"
    replay_file.write_text(exported, encoding="utf-8")
    code, out, _ = run(capsys, "replay", "corgi-pileup", str(replay_file))
    assert code == 0
    report = json.loads(out)
    log = EventLog(tmp_path / "t.sqlite3")
    stored = fold(log.events(1))
    assert report["state"] == stored.ruleset.view(stored.state)
    assert report["outcome"]["winners"] == list(log.game(1).winners)
    assert report["violations"] == [] and report["status"] == "finished"
    code, out, _ = run(capsys, "-c", str(config_file), "log", "show", "1")
    assert json.loads(out)["events"][0]["kind"] == "start"


def test_replay_reports_every_refusal_and_carries_on(capsys, tmp_path):
    lines = [
        {"type": "setup", "game": "corgi-pileup", "players": ["Emily", "Peter"]},
        {"type": "deal", "seed": None},
        {"type": "play", "player": 0, "card": 8},
        {"type": "play", "player": 0, "card": 5},
        "this is not json",
        {"type": "play", "player": 1, "card": 5},
        {"type": "undo"},
        {"type": "play", "player": 1, "card": 2},
    ]
    path = tmp_path / "moves.jsonl"
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines), encoding="utf-8")
    code, out, _ = run(capsys, "replay", "corgi-pileup", str(path))
    report = json.loads(out)
    assert code == 1
    refusals = [(v["line"], v["violation"]["code"]) for v in report["violations"]]
    assert refusals == [(4, "not-your-turn"), (5, "malformed")]
    assert report["state"]["trick"] == []
    assert report["state"]["set_aside"] == 2 and report["state"]["leader"] == 0


def test_replay_without_a_setup_line_is_refused(capsys, tmp_path):
    path = tmp_path / "moves.jsonl"
    path.write_text('{"type": "deal"}\n', encoding="utf-8")
    code, _, err = run(capsys, "replay", "corgi-pileup", str(path))
    assert code == 2 and "no setup line" in err


def test_unknown_game_and_missing_file_are_reported(capsys, tmp_path):
    code, _, err = run(capsys, "replay", "chess", str(tmp_path / "x.jsonl"))
    assert code == 2 and "cannot read" in err
    path = tmp_path / "x.jsonl"
    path.write_text("", encoding="utf-8")
    code, _, err = run(capsys, "replay", "chess", str(path))
    assert code == 2 and "Unknown game 'chess'" in err


def test_log_show_of_a_missing_game(capsys, config_file):
    code, _, err = run(capsys, "-c", str(config_file), "log", "show", "9")
    assert code == 2 and "There is no game 9" in err


def test_bad_config_is_reported_with_exit_code_2(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[web]\nprot = 1\n", encoding="utf-8")
    code, _, err = run(capsys, "-c", str(bad), "games")
    assert code == 2 and "web.prot: unknown key" in err


def test_python_dash_m_companion_runs():
    done = subprocess.run([sys.executable, "-m", "companion", "games"], capture_output=True, text=True, check=True)
    assert "corgi-pileup" in done.stdout


def test_judge_replays_a_recorded_trace(capsys, tmp_path):
    judge = MatchJudge(JudgeSettings(), ("Ann", "Ben"))
    judge.call((0, 1), 2, 0.0)
    judge.reading(PadReading(1, PileState.STABLE, 2, 1.0))
    judge.press(ButtonPress(1, 1.0))
    judge.reading(PadReading(1, PileState.TOPPLED, 2, 1.2))
    path = tmp_path / "match.jsonl"
    path.write_text("\n".join(json.dumps(e) for e in judge.trace), encoding="utf-8")
    code, out, _ = run(capsys, "judge", "--trace", str(path))
    report = json.loads(out)
    assert code == 0 and report["same"]
    assert report["verdicts"][0]["winner"] == 0
    assert report["verdicts"][0]["reason"] == "Ben's pile toppled 0.20 s after the shout."
    path.write_text('{"kind": "press", "t": 1}\n', encoding="utf-8")
    code, _, err = run(capsys, "judge", "--trace", str(path))
    assert code == 2 and "not a match trace" in err


def test_log_show_includes_pigzup_reaction_stats(capsys, config_file, tmp_path):
    log = EventLog(tmp_path / "t.sqlite3")
    session = TableSession(log)
    session.start_game(GameSetup("pigzup", ("Ann", "Ben")), "test")
    session.submit({"type": "flip", "player": 0, "card": "2-pink-blue"}, "camera")
    session.submit({"type": "flip", "player": 1, "card": "2-blue-green"}, "camera")
    session.submit({"type": "verdict", "winner": 1, "reason": "stood", "reaction_ms": 1500, "stacking_ms": 900},
                   "judge")
    log.close()
    code, out, _ = run(capsys, "-c", str(config_file), "log", "show", "1")
    assert code == 0
    stats = json.loads(out)["stats"]
    assert stats[1] == {"seat": 1, "name": "Ben", "races": 1, "wins": 1, "losses": 0,
                             "median_reaction_ms": 1500, "median_stacking_ms": 900}
    assert stats[0]["losses"] == 1


def test_demo_serves_the_status_page_while_it_plays(capsys, tmp_path):
    config = tmp_path / "companion.toml"
    config.write_text('[table]\ndatabase = "t.sqlite3"\n[web]\nport = 0\nsecret_key_file = "key"\n', encoding="utf-8")
    code, out, _ = run(capsys, "-c", str(config), "demo", "--game", "corgi-pileup", "--seed", "2", "--delay", "0",
                       "--entry", "direct", "--then", "exit")
    assert code == 0
    (url,) = [line.split()[-1] for line in out.splitlines() if line.startswith("Status page:")]
    assert url.startswith("http://127.0.0.1:")
    assert "Winner:" in out
    assert (tmp_path / "key").exists()


def test_hash_pin_reads_a_pin_from_a_pipe(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("2468\n"))
    code, out, _ = run(capsys, "hash-pin")
    assert code == 0 and out.startswith('pin_hash = "scrypt$')


def test_demo_explains_a_status_page_port_in_use(capsys, tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        config = tmp_path / "companion.toml"
        config.write_text(f'[table]\ndatabase = "t.sqlite3"\n[web]\nport = {port}\n', encoding="utf-8")
        code, _, err = run(capsys, "-c", str(config), "demo", "--game", "corgi-pileup", "--entry", "direct",
                              "--then", "exit")
    assert code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in err and "another companion" in err


def test_demo_refuses_a_table_the_game_cannot_be_played_at(capsys, config_file):
    code, _, err = run(capsys, "-c", str(config_file), "demo", "--players", "7", "--then", "exit")
    assert code == 2 and "PigzUp! is for 2 to 6 players, not 7." in err
    code, _, err = run(capsys, "-c", str(config_file), "demo", "--game", "corgi-pileup", "--variant", "turbo")
    assert code == 2 and "Corgi Pileup has no variant 'turbo'" in err
    code, _, err = run(capsys, "-c", str(config_file), "demo", "--game", "squirrels", "--players", "5")
    assert code == 2 and "seats 4 players by camera, not 5: use --players 4, or --entry direct" in err
    code, _, err = run(capsys, "-c", str(config_file), "demo", "--game", "squirrels", "--hand", "9")
    assert code == 2 and "hand must be a whole number of cards from 0 to 8." in err
    code, _, err = run(capsys, "-c", str(config_file), "demo", "--game", "squirrels", "--rounds", "0")
    assert code == 2 and "rounds must be a whole number of rounds, at least 1." in err
    code, _, err = run(capsys, "-c", str(config_file), "demo", "--game", "pigzup", "--rounds", "2")
    assert code == 2 and "PigzUp! has no option 'rounds'." in err


def test_demo_plays_squirrels_entered_directly_over_the_rounds_asked(capsys, config_file):
    code, out, _ = run(capsys, "-c", str(config_file), "demo", "--game", "squirrels", "--entry", "direct",
                       "--players", "3", "--rounds", "2", "--seed", "4", "--then", "exit")
    assert code == 0 and "Game over after 2 rounds." in out and "Winner:" in out
