"""PIN hashing, the attempt limiter, the cookie key file, the settings checks and ``companion hash-pin``."""

from __future__ import annotations

import argparse
import io
import stat
from pathlib import Path

import pytest

from companion.web import commands
from companion.web.auth import AttemptLimiter, hash_pin, load_secret_key, verify_pin
from companion.web.settings import WebSettings
from tests.web.conftest import PIN, FakeClock


def test_hash_is_salted_and_verifies(pin_hash: str) -> None:
    assert pin_hash.startswith("scrypt$") and PIN not in pin_hash
    assert verify_pin(PIN, pin_hash)
    assert not verify_pin("2469", pin_hash)
    assert hash_pin(PIN) != pin_hash  # a fresh salt every time


@pytest.mark.parametrize("bad", ["", "scrypt$1$2", "bcrypt$16384$8$1$c2FsdA$ZGln", "scrypt$x$8$1$c2FsdA$ZGln"])
def test_a_malformed_hash_matches_nothing(bad: str) -> None:
    assert not verify_pin(PIN, bad)


def test_short_pins_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 4"):
        hash_pin("123")


def test_limiter_window_slides() -> None:
    clock = FakeClock()
    limiter = AttemptLimiter(max_attempts=2, window_seconds=10, clock=clock)
    assert limiter.begin("a") == 0 and limiter.tries_left("a") == 1
    clock.now += 4
    assert limiter.begin("a") == 0 and limiter.tries_left("a") == 0
    assert limiter.begin("a") == pytest.approx(6)  # refused, and not counted
    assert limiter.begin("b") == 0  # per client
    clock.now += 6
    assert limiter.begin("a") == 0  # the first try left the window
    assert limiter.tries_left("a") == 0  # the second one is still in it


def test_secret_key_is_created_private_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "var" / "web-secret.key"
    key = load_secret_key(path)
    assert len(key) >= 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_secret_key(path) == key


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"threads": 4}, "threads"),
        ({"port": 70000}, "port"),
        ({"pin_max_attempts": 0}, "pin_max_attempts"),
        ({"keepalive_seconds": 0}, "keepalive_seconds must be positive"),
        ({"device_poll_seconds": -1}, "device_poll_seconds must be positive"),
        ({"pin_hash": "2468"}, "companion hash-pin"),
        ({"connection_limit": 10}, "connection_limit must be at least threads"),
        ({"idle_timeout_seconds": 0}, "idle_timeout_seconds must be positive"),
        ({"stream_minutes": 0}, "stream_minutes must be positive"),
        ({"max_body_bytes": 100}, "max_body_bytes must be at least 1024"),
        ({"streams_per_client": 0}, "streams_per_client must be at least 1"),
        ({"streams_per_client": 40}, "below connections_per_client"),
    ],
)
def test_settings_refuse_unusable_values(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        WebSettings(**kwargs)  # type: ignore[arg-type]


def test_streams_leave_threads_for_requests() -> None:
    assert WebSettings(threads=40).max_streams == 32


def test_hash_pin_command_reads_a_pipe(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("8642\n"))
    assert commands.hash_pin_command(argparse.Namespace(), None) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith('pin_hash = "scrypt$') and verify_pin("8642", line.split('"')[1])


def test_hash_pin_command_asks_twice_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    answers = iter(["8642", "8643"])
    with pytest.raises(ValueError, match="differ"):
        commands.read_pin(lambda _prompt: next(answers))


def test_hash_pin_explains_a_short_pin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("12\n"))
    assert commands.hash_pin_command(argparse.Namespace(), None) == 2
    assert "at least 4" in capsys.readouterr().err


def test_hash_pin_registers_as_a_subcommand() -> None:
    parser = argparse.ArgumentParser()
    root = parser.add_subparsers()
    commands.register(argparse.Namespace(root=root))
    assert parser.parse_args(["hash-pin"]).run is commands.hash_pin_command
