"""`companion firmware flash` against a fake `mpremote` on PATH (its command lines asserted) and the firmware
emulator on a real pty for the reset before the copy and the version handshake after it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from companion.cli import main
from companion.devices import flash as flash_module
from companion.devices.flash import FIRMWARE_DIR, firmware_files, firmware_version
from companion.sim import pico as pico_module
from companion.sim.pico import SimulatedPico

FAKE = Path(__file__).with_name("fake_mpremote.py")


@pytest.fixture
def mpremote(tmp_path, monkeypatch):
    """The fake on PATH, first; returns the board's folder and a function reading the recorded runs."""
    bin_dir, board = tmp_path / "bin", tmp_path / "board"
    bin_dir.mkdir()
    board.mkdir()
    (bin_dir / "mpremote").symlink_to(FAKE)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_MPREMOTE_LOG", str(tmp_path / "runs.jsonl"))
    monkeypatch.setenv("FAKE_MPREMOTE_BOARD", str(board))
    monkeypatch.setattr(flash_module, "BOOT_WINDOW_S", 0.0)

    def runs() -> list[dict]:
        log = tmp_path / "runs.jsonl"
        return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []

    return board, runs


@pytest.fixture
def flashed_pico():
    """The emulated Pico: it reports the version of this checkout's firmware, as a freshly flashed one does."""
    with SimulatedPico(pads=4, realtime=True) as emulator:
        yield emulator


def flash(capsys, port: str) -> tuple[int, str, str]:
    code = main(["firmware", "flash", "--port", port])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_firmware_is_copied_main_last_verified_reset_and_greets_with_its_version(capsys, mpremote,
                                                                                      flashed_pico):
    board, runs = mpremote
    code, out, err = flash(capsys, flashed_pico.port)
    assert code == 0, err
    files = firmware_files()
    assert files[-1] == "main.py" and set(files) == {f.name for f in FIRMWARE_DIR.glob("*.py")}
    (run,) = runs()
    assert run["cwd"] == str(FIRMWARE_DIR)
    assert run["argv"] == ["connect", flashed_pico.port, "fs", "cp", *files, ":", "+", "fs", "sha256sum",
                           *(f":{f}" for f in files), "+", "reset"]
    assert {f.name: f.read_bytes() for f in board.glob("*.py")} == {f: (FIRMWARE_DIR / f).read_bytes() for f in files}
    assert (board / ".resets").read_text() == "reset\n"
    assert "runs Tableside's firmware: reset it" in out  # it answered the protocol, so it was reset first
    assert f"the Pico runs firmware {firmware_version()} (protocol 1, 4 pads at 80 samples/s)" in out


def test_a_pico_with_older_firmware_is_told_to_flash_again(capsys, mpremote, monkeypatch):
    monkeypatch.setattr(pico_module, "FIRMWARE_VERSION", "0.0.9")
    with SimulatedPico(pads=2, realtime=True) as emulator:
        code, _, err = flash(capsys, emulator.port)
    assert code == 1
    assert f"runs firmware 0.0.9, this checkout's is {firmware_version()}" in err
    assert "flash the firmware: companion firmware flash" in err


def test_no_pico_is_named_and_mpremote_is_not_run(capsys, mpremote, tmp_path):
    _, runs = mpremote
    code, _, err = flash(capsys, str(tmp_path / "ttyACM9"))
    assert code == 1 and "no Pico on" in err and "plugged in" in err
    assert runs() == []


def test_a_device_without_micropython_points_at_the_install_guide(capsys, mpremote, monkeypatch, tmp_path):
    _, runs = mpremote
    monkeypatch.setenv("FAKE_MPREMOTE_MODE", "no-micropython")
    silent = tmp_path / "ttyACM0"
    silent.write_text("")  # a port where nothing answers the protocol
    code, _, err = flash(capsys, str(silent))
    assert code == 1
    assert "does not answer as MicroPython" in err and "docs/install.md" in err
    assert len(runs()) == 1


def test_a_file_damaged_on_the_way_is_caught(capsys, mpremote, monkeypatch, flashed_pico):
    monkeypatch.setenv("FAKE_MPREMOTE_MODE", "corrupt")
    code, _, err = flash(capsys, flashed_pico.port)
    assert code == 1 and f"{firmware_files()[0]} differ on the Pico" in err


def test_the_simulated_port_needs_no_flashing(capsys):
    assert main(["firmware", "flash"]) == 2
    assert "emulated Pico needs no firmware" in capsys.readouterr().err


@pytest.mark.slow
def test_the_real_mpremote_cannot_stop_running_firmware_and_that_is_explained(capsys, monkeypatch):
    """MicroPython's own tool against the emulator (which, like the firmware after its boot window, ignores
    Ctrl-C): mpremote gives up entering the raw REPL (about 10 s) and the message says to run again."""
    monkeypatch.setattr(flash_module, "BOOT_WINDOW_S", 0.0)
    flash_module.mpremote()  # installed with the project
    with SimulatedPico(pads=2, realtime=True) as emulator:
        code, _, err = flash(capsys, emulator.port)
    assert code == 1 and "missed its 1.5 s window: run it again" in err


def test_the_firmware_version_is_read_once_and_again_after_an_upgrade_rewrites_it(tmp_path, monkeypatch):
    """The live doctor asks on every run of its checks: the file is parsed once per version of it, and an upgrade
    that rewrites it is seen without a restart."""
    app = tmp_path / "app.py"
    app.write_text('VERSION = "1.2.0"\n', encoding="utf-8")
    parsed = []
    real_parse = flash_module.ast.parse
    monkeypatch.setattr(flash_module.ast, "parse", lambda source: parsed.append(source) or real_parse(source))
    assert [firmware_version(tmp_path) for _ in range(3)] == ["1.2.0"] * 3
    assert len(parsed) == 1
    app.write_text('VERSION = "1.3.0"\n', encoding="utf-8")
    os.utime(app, ns=(app.stat().st_atime_ns, app.stat().st_mtime_ns + 1_000_000_000))
    assert firmware_version(tmp_path) == "1.3.0"
    assert len(parsed) == 2
