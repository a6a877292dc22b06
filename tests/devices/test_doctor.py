"""`companion doctor` on the simulated table (every check ok) and on each broken case (its message, its fix and
a non-zero exit)."""

from __future__ import annotations

import argparse
import random
import re
import shutil
import socket
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from companion.cli import main
from companion.config import load_config
from companion.devices.calibration import CalibrationProfile
from companion.devices.doctor import CAMERA_FRAMES, MB, Doctor, Level, Probes, camera_finding
from companion.devices.doctor_commands import run_doctor
from companion.games.base import GameSetup
from companion.games.decks import load_deck
from companion.sim import pico as pico_module
from companion.sim.ends import SIMULATOR
from companion.sim.render import write_reference_folder
from companion.sim.scene import Card, Look, Scene, mat_to_table, render_scene
from companion.table.log import EventLog
from companion.table.session import TableSession
from companion.vision.calibrate import catalog_from_folder
from companion.vision.settings import CameraSettings
from companion.vision.sources import FrameSource

ROOT = Path(__file__).parents[2]


def free_port() -> int:
    """A port free now and outside the kernel's ephemeral range (32768 and up on Linux), so that no outgoing
    connection or port-0 server of a test running beside this one can be given it before the table binds it."""
    draw = random.Random()
    while True:
        port = draw.randrange(20000, 32000)
        with socket.socket() as probe:
            try:
                probe.bind(("0.0.0.0", port))
            except OSError:
                continue
            return port


@pytest.fixture
def table(tmp_path, capsys) -> Path:
    """A simulated table's folder: the shipped pad calibration, a log with a game, today's backup."""
    (tmp_path / "calibration").mkdir()
    shutil.copy(ROOT / "calibration" / "pads.toml", tmp_path / "calibration" / "pads.toml")
    config = tmp_path / "companion.toml"
    config.write_text(f'[web]\nhost = "0.0.0.0"\nport = {free_port()}\n', encoding="utf-8")
    log = EventLog(tmp_path / "var" / "tableside.sqlite3")
    TableSession(log, seed=1).start_game(GameSetup("corgi-pileup", ("Ann", "Ben")), source="web")
    log.close()
    assert main(["-c", str(config), "backup", "--daily"]) == 0
    capsys.readouterr()
    return config


def doctor(capsys, config: Path, *only: str) -> tuple[int, list[list[str]], str]:
    """Exit status, the table's rows split into check / level / detail, and the whole output."""
    code = main(["-c", str(config), "doctor", *(["--only", *only] if only else [])])
    out = capsys.readouterr().out
    rows = [line.split(None, 2) for line in out.splitlines() if line and not line.startswith(" ")]
    return code, rows[:-1], out


def test_the_simulated_table_is_all_green(capsys, table):
    code, rows, out = doctor(capsys, table)
    assert code == 0, out
    checks = [row[0] for row in rows]
    assert checks == ["camera", "mat", "view", "firmware", *(["pad"] * 6), "gpio", "disk", "log", "backups", "web"]
    assert {row[1] if row[0] != "pad" else row[2].split()[0] for row in rows} == {"ok"}, out
    assert "4 of 4 A3 mat markers in view" in out and "log       ok    1 games, 2 events, integrity ok" in out
    assert "everything the table needs is ready" in out


def test_no_camera(capsys, table):
    table.write_text(table.read_text() + "[camera]\nsource = 7\n")
    code, rows, out = doctor(capsys, table, "camera")
    assert code == 1
    assert rows == [["camera", "FAIL", "camera 7: cannot open (unplugged or wrong source?)"]]
    assert "fix: plug the USB camera in" in out


def test_a_dark_table_fails_the_view_check_with_what_to_do(capsys, table, tmp_path):
    """The camera's picture is judged as ``companion calibrate camera`` judges it (here pictures from a folder)."""
    pictures = tmp_path / "pictures"
    pictures.mkdir()
    ox, oy = mat_to_table(Scene())
    dark = Scene(cards=(Card("corgi-pileup", "3", ox + 120, oy + 150, 10.0),), look=Look(noise=2.0, exposure=0.3))
    for k in range(CAMERA_FRAMES + 1):
        cv2.imwrite(str(pictures / f"{k}.png"), render_scene(dark).image)
    table.write_text(table.read_text() + f'[camera]\nsource = "{pictures}"\n')
    code, rows, out = doctor(capsys, table, "camera")
    view = [row for row in rows if row[0] == "view"]
    assert code == 1 and view == [["view", "FAIL", view[0][2]]]
    assert view[0][2].startswith("Too dark: white card reads") and "fix: light the table" in out


def test_no_pico(capsys, table, tmp_path):
    table.write_text(table.read_text() + f'[serial]\nport = "{tmp_path / "ttyACM0"}"\n')
    code, rows, out = doctor(capsys, table, "pico")
    assert code == 1 and rows[0][:2] == ["pico", "FAIL"] and "no Pico on" in out
    assert "dialout group" in out


def test_a_pico_with_other_firmware_is_told_to_flash(capsys, table, monkeypatch):
    monkeypatch.setattr(pico_module, "FIRMWARE_VERSION", "0.0.9")
    code, rows, out = doctor(capsys, table, "pico")
    assert code == 1 and rows[0][:2] == ["firmware", "FAIL"]
    assert "runs firmware 0.0.9" in out and "flash the firmware: companion firmware flash" in out


def test_a_pad_never_calibrated(capsys, table):
    path = table.parent / "calibration" / "pads.toml"
    profile = CalibrationProfile.load(path)
    replace(profile, pads=profile.pads[:4]).save(path)  # calibrated with 4 pads; the Pico has 6
    code, rows, out = doctor(capsys, table, "pico")
    assert code == 1
    assert [r for r in rows if r[2].startswith("FAIL")] == [["pad", "5", "FAIL  never calibrated"],
                                                             ["pad", "6", "FAIL  never calibrated"]]
    assert "fix: companion calibrate pads --pad 5" in out


def test_a_full_disk(capsys, table):
    def full(_folder):
        return 32_000 * MB, 31_990 * MB, 10 * MB

    args = argparse.Namespace(only=["disk"], interactive=False, bench=False, ends=SIMULATOR)
    code = run_doctor(args, load_config(table), Probes(disk_usage=full))
    out = capsys.readouterr().out
    assert code == 1 and "disk  FAIL  10 MB free on" in out and "fix: free space" in out


def test_a_corrupt_log(capsys, table):
    database = table.parent / "var" / "tableside.sqlite3"
    data = bytearray(database.read_bytes())
    data[4096 + 8 : 4096 + 400] = b"\xa5" * 392  # the second page, where the games are
    database.write_bytes(bytes(data))
    code, rows, out = doctor(capsys, table, "log")
    assert code == 1 and rows[0][:2] == ["log", "FAIL"]
    assert "damaged" in out and "fix: stop the table and restore the newest backup: companion restore" in out


def test_interactive_seats_light_each_led_and_wait_for_its_button(capsys, table):
    """The person at the table, played by mock pins: seat 1 presses while its LED is lit, seat 2 never does."""
    base = load_config(table)
    config = replace(base, buttons=replace(base.buttons, seat_buttons=(5, 6), seat_leds=(12, 16)))
    factory = MockFactory()
    lit_when_asked = []

    def person(text: str) -> None:
        seat = int(text.split()[1].rstrip(":")) - 1
        lit_when_asked.append([factory.pin(p).state for p in config.buttons.seat_leds])
        if seat == 0:
            button = factory.pin(config.buttons.seat_buttons[0])
            button.drive_low()
            button.drive_high()

    probes = Probes(pin_factory=lambda _name: factory, ask=person, seat_timeout_s=0.05)
    findings = Doctor(config, probes).run(("seats",))
    assert [(f.check, f.level) for f in findings] == [("seat 1", Level.OK), ("seat 2", Level.FAIL)]
    assert "no press on GPIO 6" in findings[1].detail and "GND" in findings[1].fix
    assert lit_when_asked == [[1, 0], [0, 1]]  # only the asked seat's LED is on


def test_bench_times_the_camera_recognition_and_pad_link(capsys, table):
    """On the simulated table with a catalogue of the deck its camera shows: every figure is printed."""
    deck = load_deck("corgi-pileup")
    faces = table.parent / "faces"
    write_reference_folder(deck, str(faces))
    catalog_from_folder(deck, faces).save(table.parent / "calibration" / "cards" / "corgi-pileup")
    code = main(["-c", str(table), "doctor", "--only", "log", "--bench"])
    out = capsys.readouterr().out
    assert code == 0, out
    rows = {line.split("  ")[0]: line for line in out.splitlines() if line.startswith("bench")}
    assert list(rows) == ["bench camera", "bench cards", "bench pads"]
    assert re.search(r"1280x720: \d+ ms per frame \(median of 10\)", rows["bench camera"])
    assert re.search(r"\d+ ms per frame \(CPU \d+ ms\), the slowest \d+ ms \(corgi-pileup, median of 10\); "
                     r"a flip is reported ~[\d.]+ s after it lands \(3 steady frames\)", rows["bench cards"])
    assert re.search(r"\d+ frames/s from 6 pads at 80 samples/s \(expected ~480\)", rows["bench pads"])


def test_the_camera_is_asked_for_the_configured_picture(capsys, table):
    """[camera] width, height and fps reach the camera (here the rendered one, which draws at the asked size)."""
    table.write_text(table.read_text() + "[camera]\nwidth = 640\nheight = 360\nfps = 10\n")
    code, rows, out = doctor(capsys, table, "camera")
    assert code == 0, out
    assert re.fullmatch(r"sim: 640x360, [\d.]+ frames/s \(asked 640x360 at 10 frames/s\)", rows[0][2])


def test_a_camera_without_the_asked_mode_is_told_which_knob(tmp_path):
    """A camera that gives another size than asked (320x240 pictures play it) is reported."""
    for n in range(2):
        cv2.imwrite(str(tmp_path / f"{n}.png"), np.zeros((240, 320, 3), np.uint8))
    settings = CameraSettings(source=0)
    pictures = str(tmp_path / "%d.png")  # OpenCV reads a numbered sequence as a capture
    source = FrameSource("camera 0", lambda: cv2.VideoCapture(pictures), live=True, mode=settings.mode)
    finding = camera_finding(settings, source, source.read().shape[1::-1], 15.0)
    assert finding.level is Level.WARN
    assert finding.detail == "camera 0: 320x240, 15.0 frames/s (asked 1280x720 at 15 frames/s)"
    assert "[camera] width and height" in finding.fix


def test_sim_outside_the_simulator_is_refused_with_its_reason(table):
    """Without the command line's ends, 'sim' names nothing: the product never starts the emulator itself."""
    findings = Doctor(load_config(table)).run(("camera", "pico"))
    assert [(f.check, f.level) for f in findings] == [("camera", Level.FAIL), ("pico", Level.FAIL)]
    assert "only the simulated table starts" in findings[0].detail and "/dev/tableside-pico" in findings[1].detail


@pytest.mark.parametrize("knob", ["width = 100", "height = 0", "fps = -1"])
def test_a_camera_picture_too_small_is_refused(capsys, table, knob):
    table.write_text(table.read_text() + f"[camera]\n{knob}\n")
    assert main(["-c", str(table), "doctor", "--only", "camera"]) == 2
    assert "camera.width and camera.height must be at least 160 x 120" in capsys.readouterr().err
