"""PigzUp! end-to-end figures (PigzUp! issue). Prints medians; not a test.

1. Match call latency: from the frame in which the second matching card completes its smoothing window (the
   tracker reports it) to the match call, through the recogniser, the table loop, the session and the judge.
   Target: the call in that same frame, <= 1 frame of processing.
2. Verdict latency: from the host receiving the deciding sample (the end of the hold, or a topple) over the real
   serial link from the emulated Pico, to the verdict announced. Target <= 5 ms.
3. The whole simulated table (`companion demo`, status page on) playing a seeded game: CPU % and peak RSS.
   Target <= 250 MB.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from gpiozero.pins.mock import MockFactory
from simulated_table import bench_demo, config_file

from companion.config import Config, load_config
from companion.games.base import GameSetup
from companion.games.decks import load_deck, matches
from companion.runtime import live_table
from companion.sim.pico import SimulatedPico
from companion.sim.pigzup_world import DECK, PigzWorld
from companion.sim.scene_camera import WorldCamera
from companion.sim.table import simulated_catalog
from companion.table.live import LiveTable
from companion.table.log import EventLog
from companion.table.session import TableSession
from companion.vision.live import recognizer_for, tracker_for
from companion.vision.seats import seat_of_zone


def config_in(folder: Path, extra: str = "") -> Config:
    return load_config(config_file(folder, extra))


def matching_world(seed: int) -> PigzWorld:
    """A two-player world whose second flip matches the first."""
    rng = random.Random(seed)
    deck = load_deck(DECK)
    while True:
        world = PigzWorld(2, rng.getrandbits(32))
        if matches(deck.face(world.piles[0].stack[0]), deck.face(world.piles[1].stack[0])):
            return world


class Announcements:
    def __init__(self) -> None:
        self.at: list[tuple[str, float]] = []

    def announce(self, kind: str, seats: tuple[int, ...]) -> None:
        self.at.append((kind, time.monotonic()))


def bench_match_call(folder: Path, runs: int = 15) -> None:
    config = config_in(folder)
    catalog = simulated_catalog(config, DECK)
    after_window, frames_late = [], []
    for seed in range(runs):
        world = matching_world(seed)
        session = TableSession(EventLog(":memory:"))
        session.start_game(GameSetup("pigzup", ("Ann", "Ben")), "bench")
        lights = Announcements()
        table = LiveTable(session, seat_of_zone, settings={"pigzup": config.judge}, announcer=lights)
        recognizer, tracker = recognizer_for(catalog, config.camera), tracker_for(config.camera)
        camera = WorldCamera(world)
        world.flip(0)
        for _ in range(config.camera.steady_frames + 1):
            for seen in tracker.update(recognizer.process(camera.read()[1]).cards):
                table.observe(seen)
        table.drain()
        world.flip(1)
        frame = 0
        while not lights.at:
            frame += 1
            image = camera.read()[1]
            for seen in tracker.update(recognizer.process(image).cards):
                reported = time.monotonic()
                table.observe(seen, reported)
                table.drain()
                if lights.at:
                    after_window.append((lights.at[0][1] - reported) * 1000)
                    frames_late.append(frame - config.camera.steady_frames)
        table.stop()
    print(f"match call: {len(after_window)} calls, median {statistics.median(after_window):.2f} ms after the "
          f"frame that completes the {config.camera.steady_frames}-frame smoothing window "
          f"(max {max(after_window):.2f} ms); frames after the window: {sorted(set(frames_late))}")


def bench_verdicts(folder: Path, races: int = 12) -> None:
    config = config_in(folder, "[judge]\nhold_seconds = 0.5\n")
    latencies: dict[str, list[float]] = {"hold": [], "topple": []}
    factory = MockFactory()
    with SimulatedPico(pads=6, realtime=True, seed=3) as pico:
        session = TableSession(EventLog(":memory:"))
        with live_table(config, session, None, pin_factory=factory, serial_path=pico.port) as live:
            live.devices.link.wait_connected(5)
            time.sleep(0.5)  # the pads report `fault` until their first readings settle
            live.devices.pads.tare()
            lights = Announcements()
            live.table.announcer = lights
            for race in range(races):
                session.start_game(GameSetup("pigzup", ("Ann", "Ben")), "bench")
                session.submit({"type": "flip", "player": 0, "card": "2-pink-blue"}, "bench")
                session.submit({"type": "flip", "player": 1, "card": "2-blue-green"}, "bench")
                time.sleep(0.3)
                kind = "topple" if race % 2 else "hold"
                with pico.lock:
                    pico.pads[1].place(2, at_s=0.1)
                time.sleep(1.2)
                lights.at.clear()
                factory.pin(config.buttons.seat_buttons[1]).drive_low()
                factory.pin(config.buttons.seat_buttons[1]).drive_high()
                if kind == "topple":
                    with pico.lock:
                        pico.pads[1].topple(at_s=0.2)
                deadline = time.monotonic() + 3
                while not any(k in ("winner", "void") for k, _ in lights.at) and time.monotonic() < deadline:
                    time.sleep(0.005)
                verdict_at = next(t for k, t in lights.at if k in ("winner", "void"))
                deciding = live.table.adapter.last_verdict  # its time is the host's receipt of the deciding sample
                assert deciding is not None
                latencies[kind].append((verdict_at - deciding.t) * 1000)
                with pico.lock:
                    pico.pads[1].clear()
                time.sleep(0.6)
    factory.reset()
    for kind, values in latencies.items():
        print(f"verdict after the deciding sample ({kind}): median {statistics.median(values):.2f} ms, "
              f"max {max(values):.2f} ms over {len(values)} races (target <= 5 ms)")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        bench_match_call(Path(tmp))
        bench_verdicts(Path(tmp))
        bench_demo(Path(tmp), "pigzup")
