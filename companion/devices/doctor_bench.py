"""``companion doctor --bench``: will this machine keep up? Times the camera and card recognition on what the
camera sees now, and the Pico link's frame rate, then says how long a flip takes to be reported.

Recognition costs most with hands over the cards: run it once on a clear table and once with a hand in view.
The knobs are ``[camera] steady_frames`` (frames a face must be seen) and ``width``, ``height`` and ``fps``.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator

from companion.config import Config
from companion.devices.doctor import PICO_TIMEOUT_S, Finding, fail, ok, timed_frames, warn
from companion.devices.link import LinkDown, SerialLink
from companion.ends import Ends, NoEmulator
from companion.vision.catalog import CatalogError, load_catalog
from companion.vision.live import recognizer_for

BENCH_FRAMES = 10
FLIP_BUDGET_S = 3.0  # a flip reported later than this feels broken to the players
LINK_WINDOW_S = 1.0


def bench(config: Config, ends: Ends, frames: int = BENCH_FRAMES) -> list[Finding]:
    try:
        return [*_camera(config, ends, frames), *_link(config, ends)]
    except NoEmulator as exc:
        return [fail("bench", str(exc), "fix the config first")]


def _camera(config: Config, ends: Ends, count: int) -> Iterator[Finding]:
    settings = config.camera
    source = ends.camera(settings)
    try:
        source.read()  # opening takes its own time: not a frame's
        frames, reads = timed_frames(source, count)
    finally:
        source.close()
    if not frames:
        yield fail("bench camera", source.status.message, "fix the camera check first")
        return
    read_ms = statistics.median(reads) * 1000
    height, width = frames[0].shape[:2]
    yield ok("bench camera", f"{width}x{height}: {read_ms:.0f} ms per frame (median of {len(frames)})")
    shelf = config.resolve(settings.catalog)
    catalogs = sorted(d for d in shelf.iterdir() if (d / "catalog.json").is_file()) if shelf.is_dir() else []
    catalogs.sort(key=lambda d: d.name != settings.deck)  # the configured deck's first, if it was calibrated
    if not catalogs:
        yield warn("bench cards", f"no card catalogue in {shelf}: recognition not timed", "companion calibrate cards")
        return
    try:
        recognizer = recognizer_for(load_catalog(catalogs[0]), settings, config.resolve)
    except (CatalogError, ValueError) as exc:
        yield fail("bench cards", str(exc), "companion calibrate cards")
        return
    timings, cpu = [], []
    for frame in frames:
        start, start_cpu = time.perf_counter(), time.process_time()
        recognizer.process(frame)
        timings.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    recognise_ms, slowest_ms = statistics.median(timings) * 1000, max(timings) * 1000
    # The processor's own time: what the work costs, however busy the machine (wall time above it: it is).
    cpu_ms = statistics.median(cpu) * 1000
    frame_s = max(read_ms, recognise_ms) / 1000
    flip_s = settings.steady_frames * frame_s
    detail = (f"{recognise_ms:.0f} ms per frame (CPU {cpu_ms:.0f} ms), the slowest {slowest_ms:.0f} ms "
              f"({catalogs[0].name}, median of "
              f"{len(timings)}); a flip is reported ~{flip_s:.1f} s after it lands ({settings.steady_frames} steady "
              "frames)")
    if flip_s > FLIP_BUDGET_S:
        yield warn("bench cards", detail, "fewer [camera] steady_frames, a smaller picture, or a faster Pi")
    else:
        yield ok("bench cards", detail)


def _link(config: Config, ends: Ends) -> Iterator[Finding]:
    serial = config.serial
    with ends.serial_port(serial.port) as path, SerialLink(path, serial.baudrate) as link:
        if not link.wait_connected(PICO_TIMEOUT_S):
            yield fail("bench pads", f"no Pico on {serial.port}", "fix the pico check first")
            return
        try:
            info = link.info(timeout=PICO_TIMEOUT_S)
        except LinkDown as exc:
            yield fail("bench pads", str(exc), "fix the pico check first")
            return
        start = link.health().frames
        time.sleep(LINK_WINDOW_S)  # a rate is counted over time
        rate = (link.health().frames - start) / LINK_WINDOW_S
    expected = info.pads * info.rate
    detail = f"{rate:.0f} frames/s from {info.pads} pads at {info.rate} samples/s (expected ~{expected})"
    if rate < 0.9 * expected:
        yield warn("bench pads", detail, "a busy CPU or a poor USB cable: check `companion pads` for gaps")
    else:
        yield ok("bench pads", detail)
