"""``companion doctor``: every device and file the config names, checked, each problem with its fix.

Each check returns findings (ok, warn or FAIL, what was seen, what to do). They run against whatever the config
names, opened through the probes' ends: the real camera, Pico and GPIO on a Pi; the emulated Pico and the
rendered camera with ``sim`` (the command line's ends). Run it with the table stopped: the table holds the Pico's
port and the status page's; while it runs, its device panel shows the same checks (``doctor_live``).
"""

from __future__ import annotations

import enum
import shutil
import socket
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from gpiozero import Factory

from companion.config import Config
from companion.devices import protocol as p
from companion.devices.buttons import Feedback, GpioUnavailable, SeatButtons, make_pin_factory
from companion.devices.calibration import CalibrationProfile, PadCalibration, ProfileError
from companion.devices.flash import FlashError, check_versions, firmware_version
from companion.devices.link import LinkDown, SerialLink
from companion.ends import REAL, Ends, NoEmulator
from companion.table.backup import DAILY_GLOB, BackupError, check
from companion.vision.camera_check import NO_CARD, CameraChecker, deck_card_mm
from companion.vision.catalog import CatalogError, load_catalog
from companion.vision.light import Issue
from companion.vision.live import table_zones
from companion.vision.mat import mat_layout
from companion.vision.registration import MatLocator
from companion.vision.settings import CameraSettings
from companion.vision.sources import FrameSource
from companion.vision.zones import ZonesError
from companion.web.server import WILDCARD_HOSTS, lan_address

CAMERA_FRAMES = 5
CAMERA_MIN_FPS = 5.0
PICO_TIMEOUT_S = 3.0
READING_WINDOW_S = 1.0
DISK_FAIL_BYTES = 200 * 1024**2  # below this a night's log and its backups may not fit: the table stops logging
DISK_WARN_BYTES = 1024**3
BACKUP_STALE_S = 2 * 86400
MB = 1024**2
CAMERA_FIX = ("plug the USB camera in (ls /dev/video*), check [camera] source, and that the table's user is in the "
              "video group")
PICO_FIX = ("plug the Pico in; `companion service install` names it /dev/tableside-pico; the table's user must "
            "be in the dialout group; stop the table if it runs (it holds the port)")
CHECKS = ("camera", "pico", "gpio", "seats", "disk", "log", "backups", "web")
INTERACTIVE = ("seats",)  # needs a person at the table: only with --interactive (or --only seats)
SEAT_TIMEOUT_S = 20.0


class Level(enum.Enum):
    OK = "ok"
    WARN = "warn"
    FAIL = "FAIL"


@dataclass(frozen=True)
class Finding:
    check: str
    level: Level
    detail: str
    fix: str = ""


def ok(check: str, detail: str) -> Finding:
    return Finding(check, Level.OK, detail)


def warn(check: str, detail: str, fix: str) -> Finding:
    return Finding(check, Level.WARN, detail, fix)


def fail(check: str, detail: str, fix: str) -> Finding:
    return Finding(check, Level.FAIL, detail, fix)


@dataclass(frozen=True)
class Probes:
    """What the checks read from the machine, replaceable to show how each failure is reported."""

    disk_usage: Callable[[Path], tuple[int, int, int]] = shutil.disk_usage
    now: Callable[[], float] = time.time
    pin_factory: Callable[[str], Factory] = make_pin_factory
    ask: Callable[[str], None] = lambda text: print(text, flush=True)  # asks the person at the table
    seat_timeout_s: float = SEAT_TIMEOUT_S
    ends: Ends = REAL  # how the config's names open the Pico and the camera


class Readings:
    """A few raw readings of every pad, as the Pico streams them (a listener of the serial link)."""

    def __init__(self, wanted: int = 5) -> None:
        self.wanted = wanted
        self.raw: dict[int, list[int]] = {}
        self._pads = 0
        self._enough = threading.Event()

    def __call__(self, message: p.Message, _device_us: int | None, _host_s: float) -> None:
        if isinstance(message, p.Sample):
            self.raw.setdefault(message.pad, []).append(message.raw)
            if self._pads and all(len(self.raw.get(i, ())) >= self.wanted for i in range(self._pads)):
                self._enough.set()

    def wait(self, pads: int, timeout: float) -> None:
        """Until every pad has given its readings, or ``timeout`` (a silent pad gives none)."""
        self._pads = pads
        self._enough.wait(timeout)


@dataclass
class Doctor:
    config: Config
    probes: Probes = field(default_factory=Probes)

    def run(self, only: tuple[str, ...] = tuple(c for c in CHECKS if c not in INTERACTIVE)) -> list[Finding]:
        """The findings of the checks named in ``only`` (all but the interactive ones by default), in the order
        of ``CHECKS``."""
        return [finding for name in CHECKS if name in only for finding in getattr(self, name)()]

    # --- the camera
    def camera(self) -> Iterator[Finding]:
        settings = self.config.camera
        try:
            source = self.probes.ends.camera(settings)
        except NoEmulator as exc:
            yield fail("camera", str(exc), "set [camera] source")
            return
        try:
            source.read()  # opening takes its own time: not a frame's
            frames, seconds = timed_frames(source, CAMERA_FRAMES)
        finally:
            source.close()
        if not frames:
            yield fail("camera", source.status.message, CAMERA_FIX)
            return
        height, width = frames[0].shape[:2]
        yield camera_finding(settings, source, (width, height), len(frames) / max(sum(seconds), 1e-6))
        yield from self._where_cards_go(frames[-1])
        check = CameraChecker(settings, deck_card_mm(settings, self.config.resolve)).check(frames[-1])
        yield from view_findings(check.problems, check.summary())
        if settings.source != "sim":
            yield from self._catalogues()

    def _where_cards_go(self, frame) -> Iterator[Finding]:
        settings = self.config.camera
        if settings.mat == "none":
            try:
                zones, _ = table_zones(settings, self.config.resolve)
            except ZonesError as exc:
                yield fail("zones", str(exc), "draw them again: companion calibrate zones")
                return
            if not zones:
                yield fail("zones", "no mat and no zones drawn", "companion calibrate zones (or print the mat)")
            else:
                yield ok("zones", f"{len(zones)} drawn: {', '.join(sorted(zones))}")
            return
        locator = MatLocator(mat_layout(settings.mat))
        found = len(locator.markers(frame))
        detail = f"{found} of 4 {settings.mat} mat markers in view"
        if found < locator.min_markers:
            yield fail("mat", detail, "put the printed mat under the camera with its corner markers in view "
                       "(companion calibrate camera shows the picture), or draw zones: companion calibrate zones")
        else:
            yield ok("mat", detail)

    def _catalogues(self) -> Iterator[Finding]:
        folder = self.config.resolve(self.config.camera.catalog)
        decks = sorted(d for d in folder.iterdir() if d.is_dir()) if folder.is_dir() else []
        if not decks:
            yield fail("cards", f"no card catalogue in {folder}", "companion calibrate cards")
        for deck in decks:
            try:
                yield ok("cards", f"{deck.name}: {len(load_catalog(deck).crops)} faces")
            except CatalogError as exc:
                yield fail("cards", str(exc), "companion calibrate cards")

    # --- the Pico and its pads
    def pico(self) -> Iterator[Finding]:
        try:
            yield from self._pico()
        except NoEmulator as exc:
            yield fail("pico", str(exc), PICO_FIX)

    def _pico(self) -> Iterator[Finding]:
        serial = self.config.serial
        if serial.port != "sim" and not Path(serial.port).exists():
            yield fail("pico", f"no Pico on {serial.port}", PICO_FIX)
            return
        with self.probes.ends.serial_port(serial.port) as path, SerialLink(path, serial.baudrate) as link:
            if not link.wait_connected(PICO_TIMEOUT_S):
                yield fail("pico", f"cannot open {serial.port}: {link.health().last_error}", PICO_FIX)
                return
            readings = Readings()
            link.add_listener(readings)
            try:
                info = link.info(timeout=PICO_TIMEOUT_S)
            except LinkDown as exc:
                yield fail("pico", f"{serial.port} is open but nothing answers the protocol ({exc})",
                           "flash the firmware: companion firmware flash")
                return
            firmware = firmware_finding(info, serial.port)
            yield firmware
            if firmware.level is Level.FAIL:
                return
            readings.wait(info.pads, READING_WINDOW_S)
            faults = link.health().pad_faults
        samples = readings.raw

        def silent(pad: int) -> str | None:
            quiet = faults >> pad & 1 or not samples.get(pad)
            return "no readings (the Pico reports the HX711 silent)" if quiet else None

        def weigh(pad: int, cal: PadCalibration) -> float:
            return cal.grams(statistics.median_high(samples[pad]))

        yield from self.pad_findings(info.pads, silent, weigh)

    def pad_findings(self, count: int, problem: Callable[[int], str | None],
             weigh: Callable[[int, PadCalibration], float]) -> Iterator[Finding]:
        """Each pad: ``problem`` (why it gives no weight, or None), else calibrated, and what ``weigh`` says it
        holds now."""
        path = self.config.resolve(self.config.serial.calibration)
        try:
            profile = CalibrationProfile.load(path)
            age_days = (self.probes.now() - path.stat().st_mtime) / 86400
        except ProfileError as exc:
            yield fail("pads", str(exc), "companion calibrate pads")
            return
        untouched = CalibrationProfile.default(1).pads[0]
        for pad in range(count):
            name = f"pad {pad + 1}"
            cal: PadCalibration | None = profile.pads[pad] if pad < len(profile.pads) else None
            why = problem(pad)
            if why:
                yield fail(name, why, "check its HX711's wires and power (hardware/wiring.md)")
            elif cal is None or cal == untouched:
                yield fail(name, "never calibrated", f"companion calibrate pads --pad {pad + 1}")
            else:
                yield ok(name, f"{weigh(pad, cal):.1f} g now; calibrated {age_days:.0f} days ago")

    # --- GPIO
    def gpio(self) -> Iterator[Finding]:
        name = self.config.buttons.pin_factory
        try:
            factory = self.probes.pin_factory(name)
        except GpioUnavailable as exc:
            yield fail("gpio", str(exc), "on a Pi: .venv/bin/pip install -e '.[pi]'; the user in the gpio group")
            return
        factory.close()
        yield gpio_finding(self.config)

    def seats(self) -> Iterator[Finding]:
        """Each seat in turn: its LED lights, and the person at the table presses that seat's button."""
        settings = self.config.buttons
        try:
            factory = self.probes.pin_factory(settings.pin_factory)
        except GpioUnavailable as exc:
            yield fail("seats", str(exc), "fix the gpio check first")
            return
        pressed = [threading.Event() for _ in settings.seat_buttons]
        buttons = SeatButtons(settings, lambda press: pressed[press.seat].set(), factory=factory)
        lights = Feedback(settings, factory=factory)
        try:
            for seat, pin in enumerate(settings.seat_buttons):
                led = f"the LED on GPIO {settings.seat_leds[seat]} is lit; " if seat < len(settings.seat_leds) else ""
                lights.light(seat)
                self.probes.ask(f"seat {seat + 1}: {led}press this seat's button (GPIO {pin})")
                if pressed[seat].wait(self.probes.seat_timeout_s):
                    yield ok(f"seat {seat + 1}", f"button on GPIO {pin} pressed")
                else:
                    yield fail(f"seat {seat + 1}", f"no press on GPIO {pin} within {self.probes.seat_timeout_s:g} s",
                               "check the button's wires to its GPIO pin and GND (hardware/README.md, Wiring)")
                lights.light(seat, on=False)
        finally:
            buttons.close()
            lights.close()
            factory.close()

    # --- storage
    def disk(self) -> Iterator[Finding]:
        folder = self.config.resolve(self.config.table.database).parent
        while not folder.exists():
            folder = folder.parent
        try:
            _total, _used, free = self.probes.disk_usage(folder)
        except OSError as exc:
            yield fail("disk", f"cannot read the free space of {folder}: {exc}", "check the SD card (dmesg)")
            return
        detail = f"{free / MB:,.0f} MB free on {folder}"
        if free < DISK_FAIL_BYTES:
            yield fail("disk", detail, "free space: sudo apt clean; move old backups off the card")
        elif free < DISK_WARN_BYTES:
            yield warn("disk", detail, "soon full: move old backups off the card, lower [backup] keep")
        else:
            yield ok("disk", detail)

    def log(self, *, quick: bool = False) -> Iterator[Finding]:
        """The log opens and is whole: the full ``integrity_check``, or ``quick_check`` (see ``backup.check``)."""
        database = self.config.resolve(self.config.table.database)
        if not database.exists():
            yield ok("log", f"no games yet ({database} is created at the first start)")
            return
        try:
            report = check(database, quick=quick)
        except BackupError as exc:
            yield fail("log", str(exc), "stop the table and restore the newest backup: companion restore FILE")
            return
        yield ok("log", f"{report.games} games, {report.events} events, {'quick check' if quick else 'integrity'} ok")

    def backups(self) -> Iterator[Finding]:
        folder = self.config.resolve(self.config.backup.folder)
        copies = sorted(folder.glob(DAILY_GLOB)) if folder.is_dir() else []
        if not copies:
            yield warn("backups", f"no daily copy in {folder}",
                       "companion service install sets up the daily copy; or companion backup --daily")
            return
        age = self.probes.now() - copies[-1].stat().st_mtime
        if age > BACKUP_STALE_S:
            yield warn("backups", f"the newest copy is {age / 86400:.0f} days old", "companion service status")
        else:
            yield ok("backups", f"{len(copies)} daily copies, the newest {copies[-1].name}")

    # --- the status page
    def web(self) -> Iterator[Finding]:
        web = self.config.web
        if not web.enabled:
            yield ok("web", "the status page is off ([web] enabled = false)")
            return
        try:
            with socket.create_server((web.host, web.port)):
                pass
        except OSError as exc:
            yield fail("web", f"cannot listen on {web.host}:{web.port} ({exc.strerror})",
                       "is the table already running? sudo systemctl stop tableside; or change [web] port")
            return
        yield web_finding(self.config, f"port {web.port} free")


def timed_frames(source: FrameSource, count: int) -> tuple[list, list[float]]:
    """Up to ``count`` frames (fewer if the source fails) and the seconds each took to read."""
    frames, seconds = [], []
    for _ in range(count):
        start = time.perf_counter()
        frame = source.read()
        if frame is None:
            break
        seconds.append(time.perf_counter() - start)
        frames.append(frame)
    return frames, seconds


def camera_finding(settings: CameraSettings, source: FrameSource, size: tuple[int, int], fps: float | None,
                   also: str = "") -> Finding:
    """The picture size (width, height) and rate the camera gives, against what ``[camera]`` asked of it."""
    width, height = size
    mode = source.mode
    rate = "" if fps is None else f", {fps:.1f} frames/s"
    asked = f" (asked {mode})" if mode else ""
    detail = f"{source.name}: {width}x{height}{rate}{asked}{also}"
    if mode and (width, height) != (mode.width, mode.height):
        return warn("camera", detail, "the camera has no such mode: set [camera] width and height to one it has "
                    "(v4l2-ctl --list-formats-ext)")
    slow = fps is not None and fps < CAMERA_MIN_FPS
    if slow and settings.source != "sim":  # the rendered camera's pace is not a camera's
        return warn("camera", detail, f"under {CAMERA_MIN_FPS:g} frames/s flips are seen late: a smaller "
                    "[camera] width and height, more light, or a USB 3 port")
    return ok("camera", detail)


def view_findings(problems: list[tuple[str, Issue]], seen: str) -> list[Finding]:
    """What the camera's picture allows (``camera_check``: the light, the focus, the cards' size; the mat has its
    own check): a FAIL for each problem, a warning when no card was in view to measure, else ``seen`` is ok."""
    out = [(warn if topic == NO_CARD else fail)("view", issue.seen, issue.fix) for topic, issue in problems
           if topic != "mat"]
    return out or [ok("view", seen)]


def firmware_finding(info: p.Info, port: str) -> Finding:
    try:
        check_versions(info, firmware_version())
    except FlashError as exc:
        return fail("firmware", str(exc), "companion firmware flash")
    return ok("firmware", f"{info.version} (protocol {info.proto}) on {port}")


def gpio_finding(config: Config) -> Finding:
    buttons = config.buttons
    return ok("gpio", f"pin factory {buttons.pin_factory}; {len(buttons.seat_buttons)} seat buttons on GPIO "
              f"{', '.join(map(str, buttons.seat_buttons))}")


def web_finding(config: Config, state: str) -> Finding:
    """Where the phones open the status page (``state``: what is known of the port)."""
    web = config.web
    if web.host not in WILDCARD_HOSTS:
        return warn("web", f"{state}, but only {web.host} can open the page", "phones need [web] host = \"0.0.0.0\"")
    lan = lan_address()
    where = f"phones open http://{lan}:{web.port}/" if lan else "no network: phones cannot reach it"
    return ok("web", f"{state}; {where}")


def table(findings: list[Finding]) -> str:
    """The findings as a plain-text table; each problem's fix on the line under it."""
    width = max(len(f.check) for f in findings)
    lines = []
    for f in findings:
        lines.append(f"{f.check:<{width}}  {f.level.value:<4}  {f.detail}")
        if f.fix:
            lines.append(f"{'':<{width}}        fix: {f.fix}")
    return "\n".join(lines)
