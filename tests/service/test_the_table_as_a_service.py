"""The table as the service runs it (``companion demo`` on a config naming real devices): it resumes the game in
play, its device panel carries the doctor's checks, Ctrl-C (the unit's KillSignal) stops it cleanly with the
log closed, and the next start — an upgrade's restart — carries the same game on.

The Pico is the emulator on a pty, named by its device path as a real one is; the camera a folder of pictures;
the GPIO pins gpiozero's mock ones."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import pytest

from companion.games.base import GameSetup
from companion.sim.pico import SimulatedPico
from companion.sim.scene import Scene, render_scene
from companion.table.log import EventLog
from companion.table.session import TableSession
from tests.devices.test_doctor import free_port
from tests.waiting import PATIENCE, child_process, wait_until

ROOT = Path(__file__).parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


@pytest.fixture
def pico() -> Iterator[SimulatedPico]:
    with SimulatedPico(pads=6, realtime=True, seed=1) as emulator:
        yield emulator


@pytest.fixture
def table(tmp_path: Path, pico: SimulatedPico) -> tuple[Path, int]:
    """A Pi's config and a log with a game in play; returns the config file and that game's id."""
    (tmp_path / "calibration").mkdir()
    shutil.copy(ROOT / "calibration" / "pads.toml", tmp_path / "calibration" / "pads.toml")
    (tmp_path / "camera").mkdir()
    cv2.imwrite(str(tmp_path / "camera" / "0.png"), render_scene(Scene()).image)
    config = tmp_path / "table.toml"
    config.write_text(f'[table]\ndatabase = "var/tableside.sqlite3"\n[serial]\nport = "{pico.port}"\n'
                      f'[buttons]\npin_factory = "mock"\n[camera]\nsource = "{tmp_path / "camera"}"\n'
                      f'[web]\nhost = "127.0.0.1"\nport = {free_port()}\n', encoding="utf-8")
    log = EventLog(tmp_path / "var" / "tableside.sqlite3")
    session = TableSession(log, seed=2)
    game_id = session.start_game(GameSetup("corgi-pileup", ("Ann", "Ben", "Cat")), source="web")
    log.close()
    return config, game_id


def state(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url + "api/state", timeout=PATIENCE) as answer:
        return json.load(answer)


@contextmanager
def running(config: Path) -> Iterator[tuple[subprocess.Popen, str]]:
    """The table as the unit starts it, once it says it is ready; its status page's address."""
    argv = [sys.executable, "-m", "companion", "-c", str(config), "demo"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("NOTIFY_SOCKET", None)
    with child_process(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT,
                       env=env) as process:
        assert process.stdout is not None
        printed: list[str] = []
        reader = threading.Thread(target=lambda: printed.extend(process.stdout), daemon=True)  # drains it all
        reader.start()
        ready = wait_until(lambda: any(line.startswith("Ready:") for line in printed) or process.poll() is not None)
        assert ready and process.poll() is None, f"not ready (exit {process.poll()}): {''.join(printed)[-3000:]}"
        url = next(line.split()[-1] for line in printed if line.startswith("Status page:"))
        yield process, url
def test_it_resumes_the_game_shows_its_checks_and_stops_cleanly(table):
    config, game_id = table
    database = config.parent / "var" / "tableside.sqlite3"
    for _start in range(2):  # the second start is the restart after an upgrade
        with running(config) as (process, url):
            resumed = state(url)
            assert (resumed["game_id"], resumed["status"]) == (game_id, "playing")
            assert wait_until(lambda: any(c["name"] == "firmware" and c["ok"]
                                          for c in state(url)["devices"]["checks"]["checks"]))
            names = [c["name"] for c in state(url)["devices"]["checks"]["checks"]]
            assert names[:2] == ["camera", "firmware"] and names[-4:] == ["disk", "log", "backups", "web"]
            process.send_signal(signal.SIGINT)
            assert process.wait(PATIENCE) == 0
        assert not database.with_name(database.name + "-wal").exists()  # the log was closed: its WAL folded in
