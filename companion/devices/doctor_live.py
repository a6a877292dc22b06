"""The doctor's checks while the table runs, for the status page's device panel.

Only the cheap ones that disturb nothing: they read what the running devices already know (the Pico's INFO
from its last connection, the pads' states, the camera's last picture size) and the files on the card (free
space, the log's integrity, the backups), never the interactive seat test or the bench. They run on their own
thread, at start, when a device changes (a cable pulled or put back, a pad faulting, the camera coming back) and
every few minutes; the snapshot only copies their last findings, so the table's loop never waits for them, and
they write nothing.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from companion.config import Config
from companion.devices.doctor import (
    CAMERA_FIX,
    PICO_FIX,
    Doctor,
    Finding,
    Level,
    Probes,
    camera_finding,
    fail,
    firmware_finding,
    gpio_finding,
    ok,
    view_findings,
    warn,
    web_finding,
)
from companion.devices.hub import DeviceHub
from companion.table.observations import PileState
from companion.vision.watcher import CardWatcher

log = logging.getLogger(__name__)

RECHECK_S = 600.0  # every check again this often (a full disk or a damaged log shows within minutes)
FILES_S = RECHECK_S / 2  # the files' checks (the log's integrity reads all of it) at most this often
WATCH_S = 2.0  # how often the devices are looked at for a change (reading in-memory state: cheap)


class LiveChecks:
    """The doctor's findings on the running table's devices and files."""

    def __init__(self, config: Config, devices: DeviceHub, camera: CardWatcher | None,
                 probes: Probes | None = None) -> None:
        self.config = config
        self.devices = devices
        self.camera_watcher = camera
        self.doctor = Doctor(config, probes or Probes())
        self._files: list[Finding] = []
        self._files_at: float | None = None

    def run(self) -> list[Finding]:
        return [*self.camera(), *self.pico(), gpio_finding(self.config), *self.files(), self.web()]

    def files(self) -> list[Finding]:
        """Free space, the log and the backups: read again only every ``FILES_S``, however often a flapping
        device makes the others run."""
        now = time.monotonic()
        if self._files_at is None or now - self._files_at >= FILES_S:
            self._files = [*self.doctor.disk(), *self.doctor.log(quick=True), *self.doctor.backups()]
            self._files_at = now
        return self._files

    def state(self) -> object:
        """What changes when a device does: the checks run again when this differs."""
        link = self.devices.link.health()
        watcher = self.camera_watcher
        camera = None if watcher is None else (watcher.source.status.ok, watcher.frame_size, _sight(watcher))
        faulted = tuple(v.pad for v in self.devices.pads.snapshot() if v.state is PileState.FAULT)
        return link.connected, link.reconnects, link.device, faulted, camera

    def camera(self) -> Iterator[Finding]:
        watcher = self.camera_watcher
        if watcher is None:
            return
        status = watcher.source.status
        if not status.ok:
            yield fail("camera", status.message, CAMERA_FIX)
        elif watcher.frame_size is None:
            yield warn("camera", f"{watcher.source.name}: no picture yet", CAMERA_FIX)
        else:
            pace = f"; recognising a frame takes {watcher.frame_ms:.0f} ms" if watcher.frames else ""
            yield camera_finding(self.config.camera, watcher.source, watcher.frame_size, None, pace)
            light = watcher.light
            if light is not None:
                yield from view_findings([("light", issue) for issue in light.issues()], light.summary())

    def pico(self) -> Iterator[Finding]:
        link = self.devices.link.health()
        if not link.connected:
            yield fail("pico", f"no Pico on {link.port}", PICO_FIX)
            return
        if link.device is None:
            yield warn("pico", f"{link.port} is open; the Pico has not said which firmware it runs yet",
                       "wait a few seconds; if it stays, flash the firmware: companion firmware flash")
            return
        firmware = firmware_finding(link.device, link.port)
        yield firmware
        if firmware.level is Level.FAIL:
            return
        views = {view.pad: view for view in self.devices.pads.snapshot()}

        def problem(pad: int) -> str | None:
            view = views.get(pad)
            if view is None:
                return "no readings"
            return f"fault: {view.detail or view.label}" if view.state is PileState.FAULT else None

        yield from self.doctor.pad_findings(link.device.pads, problem, lambda pad, _cal: views[pad].grams)

    def web(self) -> Finding:
        web = self.config.web
        if not web.enabled:
            return ok("web", "the status page is off ([web] enabled = false)")
        return web_finding(self.config, f"served on port {web.port}")


def _sight(watcher: CardWatcher) -> tuple[str, ...] | None:
    """Why the camera cannot see well enough, by kind (too dark, ...; None before a frame was recognised): the
    checks run again when it changes."""
    light = watcher.light
    return None if light is None else tuple(issue.fix for issue in light.issues())  # one fix to each kind


class DevicePanel:
    """Runs ``checks`` on a thread of its own and keeps their last findings for the snapshot."""

    def __init__(self, checks: Callable[[], list[Finding]], state: Callable[[], object],
                 recheck_s: float = RECHECK_S, watch_s: float = WATCH_S) -> None:
        self._checks = checks
        self._state = state
        self.recheck_s = recheck_s
        self.watch_s = watch_s
        self._lock = threading.Lock()
        self._findings: list[Finding] | None = None
        self._checked_at = ""
        self.runs = 0
        self._stop = threading.Event()
        self._ran = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None

    def start(self) -> DevicePanel:
        self._thread = threading.Thread(target=self._run, name="device-checks", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def wait_for_run(self, runs: int, timeout: float) -> bool:
        """Until the checks have run ``runs`` times in all (for whoever must see a change's findings)."""
        with self._ran:
            return self._ran.wait_for(lambda: self.runs >= runs, timeout)

    def health(self) -> dict[str, Any]:
        """The device panel's entry: each check as ``{name, ok, level, detail, fix}``, and whether all are ok."""
        with self._lock:
            findings, checked_at = self._findings, self._checked_at
        if findings is None:
            return {"ok": None, "status": "checking…", "checks": []}
        problems = [f for f in findings if f.level is Level.FAIL]
        return {
            "ok": not problems,
            "status": f"{len(problems)} to fix" if problems else "all ok",
            "message": "; ".join(f"{f.check}: {f.detail}" for f in problems) or None,
            "checked_at": checked_at,
            "checks": [{"name": f.check, "ok": f.level is not Level.FAIL, "level": f.level.value,
                        "detail": f.detail, "fix": f.fix} for f in findings],
        }

    def _run(self) -> None:
        seen: object = object()
        due = 0.0
        while not self._stop.is_set():
            now = time.monotonic()
            state = self._safely(self._state, seen)
            if state != seen or now >= due:
                seen, due = state, now + self.recheck_s
                findings = self._safely(self._checks, None)
                if findings is None:
                    findings = [fail("checks", "the device checks failed: see the journal", "")]
                with self._ran:
                    self._findings = findings
                    self._checked_at = time.strftime("%H:%M:%S")
                    self.runs += 1
                    self._ran.notify_all()
            self._stop.wait(self.watch_s)

    @staticmethod
    def _safely(call: Callable[[], Any], fallback: Any) -> Any:
        """A check that breaks is reported, never a reason for the panel (or the table) to stop."""
        try:
            return call()
        except Exception:
            log.exception("a device check failed")
            return fallback
