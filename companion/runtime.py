"""A PigzUp! table at work, wired from the config: the Pico pads, the seat buttons and LEDs, the camera, the
match judge and the session. The real table and the simulated one run this same wiring; the simulator only
puts emulators at the ends (the Pico on a pty, mock GPIO pins, a rendered camera) and bots in the seats."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from gpiozero import Factory

from companion.config import Config
from companion.devices.announcer import LedAnnouncer
from companion.devices.buttons import Press
from companion.devices.calibration import CalibrationProfile
from companion.devices.hub import DeviceHub
from companion.devices.pads import TareRefused
from companion.sim.pico import serial_port
from companion.table.observations import ButtonPress
from companion.table.pigzup_table import PigzUpTable
from companion.table.session import TableSession
from companion.vision.catalog import Catalog
from companion.vision.live import card_watcher
from companion.table.observations import CardSeen
from companion.vision.seats import seat_of_zone
from companion.vision.sources import FrameSource
from companion.vision.watcher import CardWatcher

log = logging.getLogger(__name__)


LINK_POLL_S = 0.5  # how often a silent Pico link is checked, so a pulled cable faults the pads promptly


@dataclass
class LiveTable:
    session: TableSession
    table: PigzUpTable
    devices: DeviceHub
    camera: CardWatcher | None


def devices_health(devices: DeviceHub) -> dict[str, Any]:
    """The Pico link and the pads as the status page's device panel shows them: what a person can act on."""
    status = devices.status()
    link = status.link
    age = link.last_frame_age_s
    return {
        "connected": link.connected,
        "message": None if link.connected else f"Pico not found on {link.port} — is the cable in?",
        "port": link.port,
        "pads": ", ".join(f"{p.pad + 1}: {p.label}" for p in status.pads),
        "frames_per_s": round(link.frames_per_s),
        "last_frame": None if age is None else f"{age * 1000:.0f} ms ago",
        "bad_frames": link.bad_frames,
        "sequence_gaps": link.seq_gaps,
        "reconnects": link.reconnects,
        "last_error": link.last_error,
    }


@contextmanager
def live_pigzup_table(
    config: Config,
    session: TableSession,
    camera: tuple[FrameSource, Catalog] | None,
    *,
    pin_factory: Factory | None = None,
) -> Iterator[LiveTable]:
    """Run the devices, the camera (a frame source and its catalogue; ``None``: flips are entered by hand) and
    the judge around ``session`` for as long as the block lasts."""
    profile = CalibrationProfile.load(config.resolve(config.serial.calibration))
    table = PigzUpTable(session, config.judge, seat_of_zone, traces=config.resolve(config.table.traces))

    def pressed(press: Press) -> None:
        table.press(ButtonPress(press.seat, press.t_ns / 1e9))

    def seen(card: CardSeen, t: float) -> None:
        table.card_flipped(card.zone, card.face, t)

    # Built before the hardware starts, so that a bad zones file stops nothing half-started.
    watcher = card_watcher(*camera, config.camera, seen, config.resolve) if camera else None
    with serial_port(config.serial.port) as path, DeviceHub(
        path, config.serial, config.buttons, profile, on_reading=table.pad, on_press=pressed, pin_factory=pin_factory
    ) as devices:
        table.announcer = LedAnnouncer(devices.feedback)
        table.on_call = lambda racers: _tare(devices, racers, config.serial.tare_samples)
        session.add_device("pico", lambda: devices_health(devices))
        if watcher is not None:
            session.add_device("camera", watcher.health)
        stop = threading.Event()
        threading.Thread(target=_watch_link, args=(devices, stop), name="link-watch", daemon=True).start()
        table.start()
        if watcher is not None:
            watcher.start()
        try:
            yield LiveTable(session, table, devices, watcher)
        finally:
            stop.set()
            if watcher is not None:
                watcher.stop()
            table.stop()


def _watch_link(devices: DeviceHub, stop: threading.Event) -> None:
    """A Pico that went silent (cable pulled) puts its pads in ``fault``: the judge then calls the referee."""
    while not stop.wait(LINK_POLL_S):
        devices.pads.poll()


def _tare(devices: DeviceHub, pads: tuple[int, ...], samples: int) -> None:
    """Zero the racers' pads as the match is called (in the background: the link answers in ~0.2 s)."""

    def run() -> None:
        try:
            devices.pads.tare(list(pads), samples)
        except TareRefused as exc:
            log.warning("no tare at the match call: %s", exc)

    threading.Thread(target=run, name="tare", daemon=True).start()
