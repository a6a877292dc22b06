"""The live table wired from the config, for whatever game is played: the Pico pads, the seat buttons and LEDs,
the camera, and the game's table adapter around the session. The real table and the simulated one run this same
wiring; the simulator only puts emulators at the ends (the Pico on a pty, mock GPIO pins, a rendered camera) and
bots in the seats."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from typing import Any

from gpiozero import Factory

from companion import host_version
from companion.config import Config
from companion.devices.announcer import LedAnnouncer
from companion.devices.buttons import Edge, Press
from companion.devices.calibration import CalibrationProfile
from companion.devices.doctor_live import DevicePanel, LiveChecks
from companion.devices.hub import DeviceHub
from companion.devices.pads import TareRefused
from companion.devices.settings import SIM_PORT
from companion.devices.speech import Voice
from companion.ends import NoEmulator
from companion.games.registry import get_game
from companion.service import notify
from companion.table.live import LiveTable
from companion.table.observations import ButtonEdge, ButtonPress, PadsTared
from companion.table.race_files import prune_traces, set_aside_foreign_traces
from companion.table.session import TableSession
from companion.vision.catalog import Catalog, CatalogError, load_catalog
from companion.vision.live import recognizer_for, tracker_for
from companion.vision.mat import mat_advice
from companion.vision.seats import seat_of_zone
from companion.vision.sources import FrameSource, open_camera
from companion.vision.watcher import CardWatcher

log = logging.getLogger(__name__)


LINK_POLL_S = 0.5  # how often a silent Pico link is checked, so a pulled cable faults the pads promptly


@dataclass
class Running:
    """The live table and the hardware around it, while ``live_table`` runs."""

    session: TableSession
    table: LiveTable
    devices: DeviceHub
    camera: CardWatcher | None
    checks: DevicePanel  # the doctor's checks on the running devices, for the status page's device panel


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
def live_table(
    config: Config,
    session: TableSession,
    camera: tuple[FrameSource, Callable[[str], Catalog]] | None,
    *,
    pin_factory: Factory | None = None,
    serial_path: str | None = None,
) -> Iterator[Running]:
    """Run the devices, the camera and the live table around ``session`` for as long as the block lasts,
    whatever game the session plays. ``camera`` is a frame source and the catalogue for a deck's name (raising
    ``CatalogError`` for a deck never calibrated); ``None``: cards are entered by hand. The camera reads the
    deck of the game in play (``[camera] deck`` until a game starts). ``serial_path`` is the emulated Pico's
    port when the config names ``sim`` (only the simulator has one)."""
    port = serial_path or config.serial.port
    if port == SIM_PORT:
        raise NoEmulator('[serial] port = "sim" names the firmware emulator, which only `companion demo` on the '
                         "simulated table starts: give the Pico's device path")
    profile = CalibrationProfile.load(config.resolve(config.serial.calibration))
    traces = config.resolve(config.table.traces)
    table = LiveTable(session, seat_of_zone, settings={"pigzup": config.judge, "camera": config.camera}, traces=traces,
                      keep_traces=config.table.keep_traces())
    set_aside_foreign_traces(traces, {game.id: game.started_at for game in session.log.list_games()})
    prune_traces(traces, table.keep_traces, playing=session.game_id)  # a smaller retention counts from the start

    def pressed(press: Press) -> None:
        table.observe(ButtonPress(press.seat, press.t_ns / 1e9))

    def edge(edge: Edge) -> None:
        table.observe(ButtonEdge(edge.seat, edge.down, edge.t_ns / 1e9, edge.taken))

    # Built before the hardware starts, so that a bad zones file or catalogue stops nothing half-started.
    watcher = None
    if camera is not None:
        source, catalogs = camera
        watcher = CardWatcher(source, None, tracker_for(config.camera), table.observe_frame,
                              max_fps=config.camera.frame_rate)
        _read_deck(watcher, catalogs, config, None)
        table.on_game = lambda game, variant: _read_deck(
            watcher, catalogs, config, game, variant, len(session.game.setup.players) if session.game else None)
    voice = Voice(config.table.voice)
    session.add_device("voice", voice.health)
    with DeviceHub(
        port, config.serial, config.buttons, profile, on_reading=table.observe, on_press=pressed,
        on_edge=edge, pin_factory=pin_factory,
    ) as devices:
        table.announcer = LedAnnouncer(devices.feedback)
        table.speaker = voice
        table.on_call = lambda racers: _tare(devices, racers, config.serial.tare_samples, table.observe)
        table.trace_context = lambda: race_context(devices, profile)
        session.add_device("pico", lambda: devices_health(devices))
        if watcher is not None:
            session.add_device("camera", watcher.health)
        checks = LiveChecks(config, devices, watcher)
        panel = DevicePanel(checks.run, checks.state)
        session.add_device("checks", panel.health)
        stop = threading.Event()
        threading.Thread(target=_watch_link, args=(devices, stop), name="link-watch", daemon=True).start()
        table.start()
        if watcher is not None:
            watcher.start()
        panel.start()
        try:
            yield Running(session, table, devices, watcher, panel)
        finally:
            stop.set()
            panel.stop()
            if watcher is not None:
                watcher.stop()
            table.stop()
            voice.close()


def _read_deck(watcher: CardWatcher, catalogs: Callable[[str], Catalog], config: Config, game: str | None,
               variant: str | None = None, players: int | None = None) -> None:
    """The camera reads the deck of the game in play (each game has its own deck, named as the game), on the mat
    layout of that game and variant; a mat with no room for the game (or its ``players``) is logged."""
    deck = game or config.camera.deck
    advice = mat_advice(game, config.camera.mat, get_game(game).title if game else "", players)
    if advice:
        log.warning("%s", advice)
    try:
        watcher.use(recognizer_for(catalogs(deck), config.camera, config.resolve, variant))
    except CatalogError as exc:
        watcher.use(None, f"cannot read {deck} cards: {exc}")


def _watch_link(devices: DeviceHub, stop: threading.Event) -> None:
    """A Pico that went silent (cable pulled) puts its pads in ``fault``: the judge then calls the referee."""
    while not stop.wait(LINK_POLL_S):
        devices.pads.poll()


def _tare(devices: DeviceHub, pads: tuple[int, ...], samples: int, observe: Callable[[Any], None]) -> None:
    """Zero the racers' pads as the match is called (in the background: the link answers in ~0.2 s); the zeros,
    or why there are none, go to the table for the race's trace."""

    def run() -> None:
        try:
            observe(PadsTared(devices.pads.tare(list(pads), samples), time.monotonic()))
        except TareRefused as exc:
            log.warning("no tare at the match call: %s", exc)
            observe(PadsTared({}, time.monotonic(), refused=str(exc)))

    threading.Thread(target=run, name="tare", daemon=True).start()


def race_context(devices: DeviceHub, profile: CalibrationProfile) -> dict[str, Any]:
    """What a race's trace keeps about the judge's instruments: the versions, each pad's calibration and zero,
    and the thresholds the pile estimator decided with."""
    device = devices.link.health().device
    return {
        "host": host_version(),
        "firmware": device.version if device is not None else None,
        "piggy_g": profile.piggy_g,
        "max_piggies": profile.max_piggies,
        "pads": [{**asdict(e.cal), "zero_counts": round(e.zero_counts, 1)} for e in devices.pads.estimators],
        "thresholds": asdict(profile.thresholds),
    }


def run_real_table(config: Config, session: TableSession, stop: threading.Event) -> None:
    """The hardware table: devices and camera run; the referee starts games on the status page."""
    source = open_camera(config.camera)
    shelf = config.resolve(config.camera.catalog)
    with live_table(config, session, (source, lambda deck: load_catalog(shelf / deck))) as running:
        print("Ready: start a game from the status page's referee controls. Ctrl-C stops.", flush=True)
        notify.ready()
        try:
            # systemd's watchdog is fed while the table loop runs and the session answers (a lock that never
            # comes back stops the pings, and systemd restarts the table, which resumes the game).
            with notify.Watchdog(healthy=lambda: running.table.alive() and session.status() is not None):
                stop.wait()
        except KeyboardInterrupt:
            print()
        finally:
            notify.stopping()
