"""The bad-input corpus for the command line (issue 16): whatever a file, a picture or a config holds, the
answer is one clear line on stderr naming the problem (exit 1 or 2), never a traceback, and nothing changes."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.config import SHIPPED_DEFAULTS, Config, load_config
from companion.devices.calibration import CalibrationProfile
from companion.games.base import GameSetup, MalformedAction
from companion.sim.demo import StatusPageUnavailable, status_page
from companion.table.commands import MAX_LISTED
from companion.table.json_lines import MAX_LINE_BYTES
from companion.table.log import EventLog
from companion.table.session import TableSession
from companion.web.settings import WebSettings

SETUP = {"type": "setup", "game": "corgi-pileup", "players": ["Ann", "Ben"]}


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    """The error output must be exactly one line, and no traceback."""
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def write(tmp_path: Path, name: str, data: bytes | str) -> Path:
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


# ---------------------------------------------------------------------------------------------- companion replay
@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (bytes(range(255, -1, -1)) * 8, "line 1: Not text: byte 1 is not UTF-8"),
        ("[" * 100_000 + "]" * 100_000, f"line 1: The line is longer than {MAX_LINE_BYTES // 1024} KiB"),
        ("[" * 20_000 + "]" * 20_000, "line 1: Nested more than 32 levels deep"),
        ('{"a":' * 100 + "1" + "}" * 100, "line 1: Nested more than 32 levels deep"),
    ],
    ids=["binary", "huge-nested-line", "deeply-nested", "nested-objects"],
)
def test_replay_of_a_file_that_is_not_a_game_is_one_line(capsys, tmp_path, data, reason):
    code, out, err = run(capsys, "replay", "corgi-pileup", str(write(tmp_path, "bad.jsonl", data)))
    assert code == 2 and out == ""
    line = one_line(err)
    assert "no setup line" in line and reason in line


def test_replay_refuses_bad_lines_after_the_setup_and_carries_on(capsys, tmp_path):
    lines = [json.dumps(SETUP).encode(), b"\xff\xfe binary", b"[" * 5000 + b"]" * 5000, b"x" * (MAX_LINE_BYTES + 10),
             b"null", json.dumps({"type": "deal", "seed": None}).encode()]
    code, out, err = run(capsys, "replay", "corgi-pileup", str(write(tmp_path, "g.jsonl", b"\n".join(lines))))
    report = json.loads(out)
    assert code == 1 and err == ""
    refused = [(v["line"], v["violation"]["code"], v["violation"]["message"][:12]) for v in report["violations"]]
    assert refused == [(2, "malformed", "Not text: by"), (3, "malformed", "Nested more "),
                       (4, "malformed", "The line is "), (5, "malformed", "An action mu")]
    assert [len(v["entry"] or "") <= 200 for v in report["violations"]] == [True] * 4  # quoted, not echoed whole
    assert report["state"]["phase"] != "deal"  # the good line after them was applied


def test_replay_reports_why_the_setup_was_refused(capsys, tmp_path):
    setup = {**SETUP, "players": ["Ann"]}
    code, _, err = run(capsys, "replay", "corgi-pileup", str(write(tmp_path, "g.jsonl", json.dumps(setup))))
    assert code == 2
    assert one_line(err) == (
        "companion replay: The setup on line 1 was refused: Corgi Pileup is for 2 to 7 players, not 1."
    )


@pytest.mark.parametrize("value", ["no", "false", 0, 1, None, []])
def test_full_information_must_be_true_or_false(value):
    with pytest.raises(MalformedAction, match="full_information must be true or false"):
        GameSetup.from_json({**SETUP, "full_information": value})
    assert GameSetup.from_json({**SETUP, "full_information": False}).full_information is False
    assert GameSetup.from_json({**SETUP, "full_information": True}).full_information is True


def test_replay_lists_the_first_refusals_and_counts_the_rest(capsys, tmp_path):
    refused = json.dumps({"type": "play", "player": 1, "card": 5})
    text = "\n".join([json.dumps(SETUP), *[refused] * (MAX_LISTED + 50)])
    code, out, _ = run(capsys, "replay", "corgi-pileup", str(write(tmp_path, "g.jsonl", text)))
    report = json.loads(out)
    assert code == 1
    assert len(report["violations"]) == MAX_LISTED and report["violations_total"] == MAX_LISTED + 50
    assert report["violations"][-1]["line"] == MAX_LISTED + 1


def test_replay_reads_standard_input_as_bytes(tmp_path):
    done = subprocess.run([sys.executable, "-m", "companion", "replay", "corgi-pileup", "-"],
                          input=b"\x00\xff\xfe\n", capture_output=True, check=False)
    assert done.returncode == 2
    assert "no setup line (line 1: Not text" in one_line(done.stderr.decode())


# ---------------------------------------------------------------------------------------------- companion judge
def match_trace() -> list[dict]:
    call = {"kind": "call", "t": 0.0, "racers": [0, 1], "piggies": 2, "players": ["Ann", "Ben"],
            "settings": {"hold_seconds": 1.5, "false_shout": "loses", "race_timeout_seconds": 60.0}}
    return [call, {"kind": "press", "t": 1.0, "seat": 1}]


def edited(change) -> list[dict]:
    trace = match_trace()
    change(trace)
    return trace


@pytest.mark.parametrize(
    ("trace", "reason"),
    [
        ([], "it has no match call: nothing to judge"),
        ([{"kind": "tick", "t": 1.0}], "it has no match call"),
        (edited(lambda t: t[0].update(racers=[0, 7])), "line 1: seat 7 is not one of the 2 seats"),
        (edited(lambda t: t[0].update(racers=[1, 1])), "line 1: a match call names two different racers"),
        (edited(lambda t: t[1].update(seat=-1)), "line 2: seat -1 is not one of the 2 seats"),
        (edited(lambda t: t[1].update(seat="1")), "line 2: seat '1' is not one of the 2 seats"),
        ([3], "line 1: an entry is an object with a 'kind'"),
    ],
    ids=["empty", "no-call", "racer-out-of-range", "same-racer-twice", "seat-out-of-range", "seat-as-text",
         "not-an-object"],
)
def test_judge_refuses_a_trace_it_cannot_judge(capsys, tmp_path, trace, reason):
    path = write(tmp_path, "match.jsonl", "\n".join(json.dumps(e) for e in trace))
    code, out, err = run(capsys, "judge", "--trace", str(path))
    assert code == 2 and out == ""
    assert one_line(err).startswith(f"companion judge: {path} is not a match trace: {reason}")


def test_judge_refuses_binary_and_nested_files(capsys, tmp_path):
    for data, reason in ((b"\xff\x00", "line 1: Not text"), ("[" * 5000 + "]" * 5000, "line 1: Nested more than")):
        code, _, err = run(capsys, "judge", "--trace", str(write(tmp_path, "t.jsonl", data)))
        assert code == 2 and reason in one_line(err)


# ---------------------------------------------------------------------------------------------- configs
def config_error(capsys, path: Path) -> str:
    """`companion -c path games` must refuse the config in one line, exit 2."""
    code, out, err = run(capsys, "-c", str(path), "games")
    assert code == 2 and out == ""
    line = one_line(err)
    assert line.startswith("companion: config: ")
    return line.removeprefix("companion: config: ")


def test_a_binary_config_file_is_one_line(capsys, tmp_path):
    path = write(tmp_path, "companion.toml", b"\x89PNG\r\n\x1a\n\x00\xff")
    assert config_error(capsys, path) == f"{path}: not a text file (byte 1 is not UTF-8)"


def test_a_folder_given_as_the_config_is_one_line(capsys, tmp_path):
    assert config_error(capsys, tmp_path) == f"{tmp_path}: is a folder, not a TOML file"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[table]\ndatabase = "blocker/t.sqlite3"\n', "table.database: cannot write {tmp}/blocker/t.sqlite3: "
         "{tmp}/blocker is a file, not a folder"),
        ('[table]\ndatabase = "blocker/var/deep/t.sqlite3"\n', "table.database: cannot write "
         "{tmp}/blocker/var/deep/t.sqlite3: {tmp}/blocker is a file, not a folder"),
        ('[table]\ndatabase = "folder"\n', "table.database: cannot write {tmp}/folder: it is a folder, not a file"),
        ('[table]\ntraces = "blocker"\n', "table.traces: cannot write {tmp}/blocker: it is a file, not a folder"),
        ('[web]\nsecret_key_file = "blocker/web.key"\n', "web.secret_key_file: cannot write {tmp}/blocker/web.key: "
         "{tmp}/blocker is a file, not a folder"),
    ],
    ids=["database-under-a-file", "database-deep-under-a-file", "database-is-a-folder", "traces-is-a-file",
         "secret-key-under-a-file"],
)
def test_paths_the_table_writes_are_checked_when_the_config_loads(capsys, tmp_path, text, message):
    (tmp_path / "blocker").write_text("in the way", encoding="utf-8")
    (tmp_path / "folder").mkdir()
    assert config_error(capsys, write(tmp_path, "companion.toml", text)) == message.format(tmp=tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocker", "companion.toml", "folder"]  # nothing made


def test_the_secret_key_file_is_not_checked_without_the_status_page(capsys, tmp_path):
    (tmp_path / "blocker").write_text("in the way", encoding="utf-8")
    path = write(tmp_path, "companion.toml", '[web]\nenabled = false\nsecret_key_file = "blocker/k"\n')
    assert run(capsys, "-c", str(path), "games")[0] == 0


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_var_folder_is_one_line(capsys, tmp_path):
    (tmp_path / "var").mkdir(mode=0o555)
    try:
        message = config_error(capsys, write(tmp_path, "companion.toml", '[table]\ndatabase = "var/t.sqlite3"\n'))
    finally:
        (tmp_path / "var").chmod(0o755)
    assert message == f"table.database: cannot write {tmp_path}/var/t.sqlite3: the folder {tmp_path}/var is read-only"


@pytest.mark.parametrize(
    ("host", "reason"),
    [("not a host!", "cannot listen on 'not a host!' ("), ("192.0.2.1", "cannot listen on '192.0.2.1' (")],
    ids=["not-a-name", "not-this-machine"],
)
def test_a_bad_host_is_one_line(capsys, tmp_path, host, reason):
    message = config_error(capsys, write(tmp_path, "companion.toml", f'[web]\nhost = "{host}"\n'))
    assert message.startswith(f"web.host: {reason}") and "use 127.0.0.1 for this machine only" in message


def test_good_hosts_load(tmp_path):
    for host in ("127.0.0.1", "0.0.0.0", "localhost"):
        assert load_config(write(tmp_path, "companion.toml", f'[web]\nhost = "{host}"\n')).web.host == host


def test_a_secret_key_that_cannot_be_written_is_not_called_a_busy_port(tmp_path):
    """The load-time check cannot see everything (a full disk, a folder root may write but the kernel refuses):
    the status page's start then names the key file, not "is another companion running?"."""
    (tmp_path / "blocker").write_text("in the way", encoding="utf-8")
    config = Config(web=WebSettings(port=0, secret_key_file=str(tmp_path / "blocker" / "web.key")))
    session = TableSession(EventLog(":memory:"))
    with pytest.raises(StatusPageUnavailable) as refused, status_page(session, config):
        pass
    assert str(refused.value) == f"[web] secret_key_file {tmp_path}/blocker/web.key: Not a directory"


# ---------------------------------------------------------------------------------------------- run from anywhere
def test_the_simulated_table_runs_from_any_folder_and_writes_nothing_there(tmp_path):
    """Without a config, the simulator's own files come from the package and its data goes to the user's data
    folder: run from an empty folder, the pads read with the shipped calibration and the log is kept."""
    elsewhere, data = tmp_path / "elsewhere", tmp_path / "data"
    elsewhere.mkdir()
    env = {**os.environ, "XDG_DATA_HOME": str(data)}
    for argv in (["pads", "--once"], ["log"]):
        done = subprocess.run([sys.executable, "-m", "companion", *argv], cwd=elsewhere, env=env,
                              capture_output=True, text=True, check=False, timeout=120)
        assert done.returncode == 0, done.stderr
    assert "no calibration profile" not in done.stderr
    assert list(elsewhere.iterdir()) == []
    assert (data / "tableside" / "var" / "tableside.sqlite3").is_file()


def test_without_a_config_the_shipped_files_are_read_and_the_rest_written_to_the_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    config = Config()
    assert config.resolve(config.serial.calibration) == SHIPPED_DEFAULTS / "calibration" / "pads.toml"
    assert CalibrationProfile.load(config.resolve(config.serial.calibration)).pads
    assert config.resolve(config.table.database) == tmp_path / "tableside" / "var" / "tableside.sqlite3"


def test_a_device_given_as_the_config_is_refused_unread(capsys):
    assert config_error(capsys, Path("/dev/zero")) == "/dev/zero: not a regular file"  # read, it never ends


def test_a_game_log_that_is_not_a_database_is_one_line(capsys, tmp_path):
    write(tmp_path, "t.sqlite3", b"\x00\xffnot a database at all" * 100)
    path = write(tmp_path, "companion.toml", '[table]\ndatabase = "t.sqlite3"\n[web]\nenabled = false\n')
    code, out, err = run(capsys, "-c", str(path), "log")
    assert code == 2 and out == ""
    assert one_line(err) == f"companion: the game log {tmp_path}/t.sqlite3: file is not a database"


class CtrlCKeyboard(io.RawIOBase):
    """Standard input at which the person presses Ctrl-C instead of typing."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        raise KeyboardInterrupt


def test_ctrl_c_while_a_command_reads_is_one_line(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(CtrlCKeyboard())))
    code, out, err = run(capsys, "replay", "corgi-pileup", "-")
    assert code == 130 and out == ""
    assert one_line(err) == "companion: stopped"


@pytest.mark.parametrize("number", ["99999999999999999999999", "9223372036854775808", "-5", "0", "seven"])
def test_a_game_number_the_log_cannot_hold_is_one_line(capsys, tmp_path, number):
    config = write(tmp_path, "companion.toml", '[table]\ndatabase = "t.sqlite3"\n[web]\nenabled = false\n')
    with pytest.raises(SystemExit) as exited:
        main(["-c", str(config), "log", "show", number])
    assert exited.value.code == 2
    assert f"a game number is a whole number from 1 (see `companion log`), not '{number}'" in capsys.readouterr().err
