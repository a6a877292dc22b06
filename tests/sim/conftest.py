"""Fixtures for the simulated table: a config whose Pico is emulated and whose camera films the simulated world."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.config import Config, load_config
from companion.sim.table_bots import CameraGame
from companion.table.log import EventLog
from companion.table.session import TableSession

ROOT = Path(__file__).parents[2]


@pytest.fixture
def camera_config(tmp_path: Path) -> Config:
    """The simulated table's config, its log in ``tmp_path`` (a card is gone after 8 unseen frames)."""
    config_file = tmp_path / "companion.toml"
    config_file.write_text(
        f'[table]\ndatabase = "t.sqlite3"\n[serial]\ncalibration = "{ROOT / "calibration" / "pads.toml"}"\n'
        "[web]\nenabled = false\n[camera]\nforget_frames = 8\n",
        encoding="utf-8",
    )
    return load_config(config_file)


@pytest.fixture
def camera_log(tmp_path: Path) -> Iterator[EventLog]:
    log = EventLog(tmp_path / "t.sqlite3")
    yield log
    log.close()


@pytest.fixture
def camera_session(camera_log: EventLog) -> TableSession:
    return TableSession(camera_log, seed=5)


def timed_both_ways(game: CameraGame) -> bool:
    """Whether each card the camera read was timed both ways (``benchmarks/bench_table_camera.py``): as the
    simulator ran, and less its drawing of the frame that first filmed the card, as a real camera hands it over."""
    return len(game.handed_to_shown_s) == len(game.landed_to_shown_s) == game.camera_plays and all(
        0 < handed < shown for handed, shown in zip(game.handed_to_shown_s, game.landed_to_shown_s, strict=True))
