"""The doctor's checks on the running table feed the status page's device panel: the emulated Pico on a pty, mock
GPIO pins and the rendered camera, wired by the same runtime as a real table."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion.config import Config, load_config
from companion.devices.doctor import Finding, Probes, ok
from companion.devices.doctor_live import DevicePanel, LiveChecks
from companion.games.base import GameSetup
from companion.runtime import Running, live_table
from companion.sim.ends import rendered_camera
from companion.sim.pico import SimulatedPico
from companion.table.log import EventLog
from companion.table.session import TableSession
from companion.vision.catalog import Catalog, CatalogError
from tests.waiting import PATIENCE, wait_until

ROOT = Path(__file__).parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]


@pytest.fixture
def config(tmp_path: Path) -> Config:
    (tmp_path / "calibration").mkdir()
    shutil.copy(ROOT / "calibration" / "pads.toml", tmp_path / "calibration" / "pads.toml")
    path = tmp_path / "companion.toml"
    path.write_text('[table]\ndatabase = "var/t.sqlite3"\n[web]\nhost = "0.0.0.0"\n'
                    "[camera]\nwidth = 640\nheight = 360\nfps = 10\n", encoding="utf-8")
    return load_config(path)


def no_catalogue(deck: str) -> Catalog:
    raise CatalogError(f"no {deck} catalogue (the panel's checks need none)")


@pytest.fixture
def running(config: Config) -> Iterator[tuple[Running, SimulatedPico]]:
    factory = MockFactory()
    log = EventLog(config.resolve(config.table.database))
    session = TableSession(log, seed=3)
    session.start_game(GameSetup("corgi-pileup", ("Ann", "Ben")), source="test")
    try:
        with SimulatedPico(pads=6, realtime=True, seed=2) as pico, live_table(
            config, session, (rendered_camera(config.camera), no_catalogue), pin_factory=factory,
            serial_path=pico.port,
        ) as live:
            yield live, pico
    finally:
        factory.reset()
        log.close()


def checks(live: Running) -> dict[str, dict[str, Any]]:
    return {check["name"]: check for check in live.session.snapshot()["devices"]["checks"]["checks"]}


def shows(live: Running, name: str, text: str) -> bool:
    found = next((c for c in live.checks.health()["checks"] if c["name"] == name), None)
    return found is not None and text in found["detail"]


def test_the_panel_shows_each_check_of_the_running_table(running):
    live, _pico = running
    assert wait_until(lambda: shows(live, "camera", "640x360") and shows(live, "pad 6", "g now"))
    shown = checks(live)
    assert list(shown) == ["camera", "firmware", *(f"pad {n}" for n in range(1, 7)), "gpio", "disk", "log",
                           "backups", "web"]
    assert shown["camera"] == {"name": "camera", "ok": True, "level": "ok", "fix": "",
                               "detail": shown["camera"]["detail"]}
    assert shown["camera"]["detail"].startswith("sim: 640x360 (asked 640x360 at 10 frames/s)")
    assert shown["firmware"]["detail"].startswith(f"{live.devices.link.health().device.version} (protocol ")
    assert shown["log"]["detail"] == "1 games, 2 events, quick check ok"  # the full check is the doctor's
    assert shown["backups"]["level"] == "warn" and "companion service install" in shown["backups"]["fix"]
    assert shown["web"]["detail"].startswith("served on port ")
    panel = live.session.snapshot()["devices"]["checks"]
    assert panel["ok"] is True and panel["status"] == "all ok" and panel["message"] is None


def test_a_pulled_cable_shows_at_once_with_its_fix_and_clears_when_it_is_back(running):
    live, pico = running
    assert wait_until(lambda: shows(live, "firmware", "protocol"))
    pico.unplug()
    try:
        assert wait_until(lambda: shows(live, "pico", "no Pico on"))
        panel = live.session.snapshot()["devices"]["checks"]
        assert panel["ok"] is False and panel["status"] == "1 to fix"
        assert panel["message"].startswith("pico: no Pico on ") and "dialout" in checks(live)["pico"]["fix"]
    finally:
        pico.replug()
    assert wait_until(lambda: shows(live, "firmware", "protocol") and shows(live, "pad 1", "g now"))


def test_the_checks_write_nothing(running, config):
    """Run over and over on the running table (no move made meanwhile): not a byte changes on the card."""
    live, _pico = running
    folder = config.resolve(config.table.database).parent
    assert wait_until(lambda: live.checks.runs >= 1)

    def files() -> dict[str, tuple[int, int]]:
        return {p.name: (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.iterdir()}

    before = files()
    checks_ = LiveChecks(config, live.devices, live.camera)
    eager = DevicePanel(checks_.run, checks_.state, recheck_s=0.0, watch_s=0.01).start()
    try:
        assert eager.wait_for_run(5, PATIENCE)
    finally:
        eager.stop()
    assert files() == before


def test_a_slow_check_never_holds_up_the_snapshot():
    """The snapshot copies the last findings: a check still running (a slow SD card) shows as 'checking'."""
    release = threading.Event()
    first: list[Finding] = [ok("disk", "plenty")]

    def slow_checks() -> list[Finding]:
        release.wait(PATIENCE)
        return first

    panel = DevicePanel(slow_checks, lambda: 0, watch_s=0.01).start()
    try:
        assert panel.health() == {"ok": None, "status": "checking…", "checks": []}
        release.set()
        assert panel.wait_for_run(1, PATIENCE)
        assert panel.health()["checks"] == [{"name": "disk", "ok": True, "level": "ok", "detail": "plenty",
                                             "fix": ""}]
    finally:
        panel.stop()


def test_a_check_that_breaks_is_shown_and_the_panel_carries_on():
    calls = []
    device = [0]  # what the panel watches for a change

    def flaky() -> list[Finding]:
        calls.append(1)
        if len(calls) == 1:
            raise OSError("the SD card went away")
        return [ok("disk", "back")]

    panel = DevicePanel(flaky, lambda: device[0], watch_s=0.01).start()
    try:
        assert panel.wait_for_run(1, PATIENCE)
        broken = panel.health()
        assert broken["ok"] is False and broken["checks"][0]["detail"] == "the device checks failed: see the journal"
        device[0] = 1  # a device changed: the checks run again
        assert panel.wait_for_run(2, PATIENCE)
        assert panel.health()["checks"][0]["detail"] == "back"
    finally:
        panel.stop()


def test_a_flapping_device_does_not_make_the_files_be_read_again(running, config):
    """A device that changes every few seconds reruns the device checks; the card's are read once a while."""
    live, _pico = running
    reads = []

    def disk_usage(folder: Path) -> tuple[int, int, int]:
        reads.append(folder)
        return shutil.disk_usage(folder)

    checks_ = LiveChecks(config, live.devices, live.camera, Probes(disk_usage=disk_usage))
    for _ in range(3):
        assert [f.check for f in checks_.run()][-4:] == ["disk", "log", "backups", "web"]
    assert len(reads) == 1
