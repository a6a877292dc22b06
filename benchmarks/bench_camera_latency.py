"""Where a card's way to the status page goes, stage by stage: wall time and CPU time of each. Prints medians.

Plays seeded Corgi Pileup games on the simulated table (as `bench_table_camera.py` does) with a stopwatch on each
stage of every card the camera read, from the moment a bot put it down in the world:

- wait: until the camera thread starts reading the first frame it recognises since (it may be sleeping out the fps
  cap, still busy with an earlier frame, e.g. the hand that brought the card, or passing over a frame in which the
  table was still changing);
- draw: the simulator drawing that frame (it stands in for a real camera's exposure and delivery, which cost the
  camera thread nothing but take a frame or two: 66-133 ms at 15 frames/s);
- recognise: reading the cards in it (``CardWatcher._read``);
- steady: from there to the tracker's report (the frames that make it steady: ``steady_frames`` in all);
- table: from the report to the session telling its subscribers (the live table's queue, the rules, the log).

The CPU figures (the camera thread's own ``thread_time``; OpenCV's worker threads are not in it) hardly depend on
how loaded the machine is; the wall figures do, so the load average is printed beside them. ``card -> page,
less drawing`` is the latency with the simulator's drawing of the recognised frame taken out.

``--idle TRICKS`` plays scripted tricks instead (a hand reaches in, the card lands 0.2 x pace later, the next
player starts when it is reported, the trick is collected) and steps the watcher on the camera's own clock: CPU
seconds plus the waits it asks for, as if it had a core to itself (the simulated camera films the table as each
frame is read). That figure hardly moves with the load, so a change can be measured on this shared machine; it is
printed for the watcher as built, for one that reads every frame whole (never only the window around what
changed), for one that keeps nothing else between frames (the mat registered, the light measured and the edges
searched in every frame recognised), for one that does not hand the recogniser the last
frame's cards (each trick's lower cards searched for again when the next lands) and for one that recognises every
changed frame (none passed over while the table is still changing), with the CPU each recognition took by the cards
it found. It stops at the report: add the live table's few milliseconds.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

from simulated_table import config_file

from companion.config import load_config
from companion.sim.camera_bots import CAMERA_BOTS
from companion.sim.corgi_world import CorgiWorld
from companion.sim.scene_camera import WorldCamera
from companion.sim.table import simulated_catalog
from companion.sim.table_bots import CameraRun
from companion.table.log import EventLog
from companion.table.observations import CardSeen, ZoneCleared
from companion.table.session import TableSession
from companion.vision import pipeline
from companion.vision.live import recognizer_for, tracker_for
from companion.vision.mat import CENTRE
from companion.vision.pipeline import FrameResult, Recognizer
from companion.vision.sources import FrameSource
from companion.vision.stillness import Change, StillnessGate
from companion.vision.watcher import CardWatcher

PLAYERS = ("Ana", "Ben", "Cai")
OPTIONS = {"starting_scores": [12, 12, 12]}  # as bench_table_camera.py: a short game per seed


@dataclass(frozen=True)
class Span:
    """One timed call: wall start and end (monotonic), and the calling thread's CPU seconds."""

    start: float
    end: float
    cpu: float
    what: Any = None


@dataclass
class Stopwatch:
    """Timed calls of the stages, in the order they happened (each list is appended by one thread); ``cpu`` is the
    CPU clock they are timed on (the calling thread's own by default)."""

    cpu: Callable[[], float] = time.thread_time
    landed: list[tuple[float, str]] = field(default_factory=list)
    drawn: list[Span] = field(default_factory=list)
    read: list[Span] = field(default_factory=list)  # what: whether the frame was recognised (not still)
    reported: list[tuple[float, str]] = field(default_factory=list)
    told: list[tuple[float, Any]] = field(default_factory=list)  # what: the last move's card, if a play

    def timed(self, spans: list[Span], call: Callable[..., Any], what: Callable[[Any], Any] = lambda _r: None
              ) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            start, cpu = time.monotonic(), self.cpu()
            result = call(*args, **kwargs)
            spans.append(Span(start, time.monotonic(), self.cpu() - cpu, what(result)))
            return result

        return wrapper

    @contextmanager
    def on(self) -> Iterator[Stopwatch]:
        """The stopwatch on every stage of the simulated table while the block lasts."""
        play, notify, observed = CorgiWorld.play, TableSession._notify, CardWatcher.__init__

        def landed(world: CorgiWorld, face: str) -> None:
            self.landed.append((time.monotonic(), face))
            play(world, face)

        def told(session: TableSession) -> None:
            notify(session)
            moves = session.game.moves if session.game else []
            self.told.append((time.monotonic(), moves[-1].event.payload.get("card") if moves else None))

        def watcher(w: CardWatcher, *args: Any, **kwargs: Any) -> None:
            observed(w, *args, **kwargs)
            report = w.on_frame

            def on_frame(observations: list[Any], t: float) -> None:
                now = time.monotonic()
                self.reported.extend((now, o.face) for o in observations if isinstance(o, CardSeen))
                report(observations, t)

            w.on_frame = on_frame

        still = CardWatcher._read
        with ExitStack() as stack:
            stack.enter_context(mock.patch.object(CorgiWorld, "play", landed))
            stack.enter_context(mock.patch.object(TableSession, "_notify", told))
            stack.enter_context(mock.patch.object(CardWatcher, "__init__", watcher))
            stack.enter_context(mock.patch.object(WorldCamera, "read", self.timed(self.drawn, WorldCamera.read)))
            stack.enter_context(mock.patch.object(
                CardWatcher, "_read", self._read_timer(still)))
            yield self

    def _read_timer(self, read: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(w: CardWatcher, *args: Any) -> Any:
            skipped = w.still_frames
            return self.timed(self.read, read, lambda r: r is not None and w.still_frames == skipped)(w, *args)

        return wrapper


@dataclass(frozen=True)
class CardTimes:
    """One card's way, in seconds (cpu: the camera thread's CPU seconds of that stage)."""

    wait: float
    draw: float
    draw_cpu: float
    recognise: float
    recognise_cpu: float
    steady: float
    steady_cpu: float
    table: float
    total: float
    busy: bool  # the camera thread was drawing or recognising an earlier frame when the card landed
    cpu: float  # the camera thread's CPU seconds from the card landing to its report (the load does not change it)


def first(items: list[Any], after: float, key: Callable[[Any], float], ok: Callable[[Any], bool] = lambda _i: True
          ) -> Any | None:
    return next((item for item in items if key(item) >= after and ok(item)), None)


def cpu_between(spans: list[Span], start: float, end: float) -> float:
    """CPU seconds ``spans`` spent between ``start`` and ``end`` (a span cut by them counts pro rata)."""
    return sum(s.cpu * (min(s.end, end) - max(s.start, start)) / (s.end - s.start)
               for s in spans if s.end > start and s.start < end and s.end > s.start)


def card_times(watch: Stopwatch) -> list[CardTimes]:
    """Each card put down whose report and record were seen, stage by stage."""
    out = []
    next_landed = [t for t, _face in watch.landed[1:]] + [float("inf")]
    for (landed, face), before in zip(watch.landed, next_landed, strict=True):
        read = first(watch.read, landed, lambda s: s.start, lambda s: s.what)  # the first frame recognised since
        drawn = read and next((s for s in reversed(watch.drawn) if s.end <= read.start), None)  # its drawing
        report = first(watch.reported, landed, lambda r: r[0], lambda r, face=face: r[1] == face)
        told = report and first(watch.told, report[0], lambda t: t[0], lambda t, face=face: str(t[1]) == face)
        if drawn is None or report is None or told is None or told[0] > before or drawn.start < landed:
            continue  # a card refused (played out of turn), or typed by the referee: not recorded before the next
        camera = watch.drawn + watch.read
        busy = any(s.start <= landed < s.end for s in camera)
        out.append(CardTimes(drawn.start - landed, drawn.end - drawn.start, drawn.cpu, read.end - read.start,
                             read.cpu, report[0] - read.end, cpu_between(camera, read.end, report[0]),
                             told[0] - report[0], told[0] - landed, busy, cpu_between(camera, landed, report[0])))
    return out


def bench(games: int, folder: Path) -> None:
    config = load_config(config_file(folder, "[web]\nenabled = false\n"))
    play = CAMERA_BOTS["corgi-pileup"].play
    times: list[CardTimes] = []
    recognised: list[Span] = []
    load, cpu, started = os.getloadavg()[0], time.process_time(), time.monotonic()
    for seed in range(games):
        log = EventLog(folder / f"game-{seed}.sqlite3")
        with Stopwatch().on() as watch:
            play(CameraRun(config, TableSession(log, seed=seed), PLAYERS, random.Random(seed), threading.Event(),
                           options=OPTIONS, pace=0.3), mischief=0.2)
        log.close()
        times += card_times(watch)
        recognised += [s for s in watch.read if s.what]
    wall = time.monotonic() - started
    print(f"{games} Corgi Pileup games, {len(times)} cards; load average {load:.1f} -> {os.getloadavg()[0]:.1f}; "
          f"the benchmark used {100 * (time.process_time() - cpu) / wall:.0f}% of one core")

    def ms(values: list[float]) -> str:
        return f"{1000 * statistics.median(values):4.0f}"

    def row(name: str, wall_of: Callable[[CardTimes], float], cpu_of: Callable[[CardTimes], float] | None) -> None:
        cpu_part = f"   CPU {ms([cpu_of(t) for t in times])} ms" if cpu_of else ""
        print(f"  {name:<36} wall {ms([wall_of(t) for t in times])} ms{cpu_part}")

    print("median per card:")
    row("wait for the camera thread", lambda t: t.wait, None)
    row("draw the frame (simulator only)", lambda t: t.draw, lambda t: t.draw_cpu)
    row("recognise it", lambda t: t.recognise, lambda t: t.recognise_cpu)
    row("steady frames to the report", lambda t: t.steady, lambda t: t.steady_cpu)
    row("report -> session tells the page", lambda t: t.table, None)
    row("card -> page", lambda t: t.total, None)
    row("card -> page, less drawing", lambda t: t.total - t.draw, None)
    row("camera thread's CPU, card -> report", lambda t: t.cpu, None)
    print(f"  cards that landed while the camera thread was busy with an earlier frame: "
          f"{100 * sum(t.busy for t in times) / len(times):.0f}%")
    totals = sorted(t.total for t in times)
    print(f"  card -> page p95 {1000 * statistics.quantiles(totals, n=20)[-1]:.0f} ms; every recognition of a "
          f"changed frame: median {ms([s.end - s.start for s in recognised])} ms wall, "
          f"{ms([s.cpu for s in recognised])} ms CPU over {len(recognised)}")


class CameraClock:
    """The camera's own time: the CPU seconds of the process (which runs nothing else: the watcher is stepped on
    the main thread; OpenCV's own threads count too), plus the waits the watcher asks for (added, not slept)."""

    def __init__(self) -> None:
        self.waited = 0.0
        self._start = time.process_time()

    def __call__(self) -> float:
        return time.process_time() - self._start + self.waited

    def wait(self, seconds: float) -> None:
        self.waited += max(0.0, seconds)


class EveryChange(StillnessGate):
    """The gate as it was: a frame that changed is recognised even while the table is still changing."""

    def look(self, frame: Any) -> Change:
        change = super().look(frame)
        return Change.CHANGED if change is Change.MOVING else change


@dataclass(frozen=True)
class Variant:
    """A way of running the watcher: ``reuse`` False: the last frame's cards are not handed on (every frame
    searched as if it were the first); ``follow`` False: nothing else kept from frame to frame either (the mat
    registered, the light measured and the edges searched in every frame, as before they were kept); ``windows``
    False: every frame read whole, never only around what changed (``Recognizer._window``)."""

    name: str
    gate: type[StillnessGate] = StillnessGate
    reuse: bool = True
    follow: bool = True
    windows: bool = True


VARIANTS = (
    Variant("the watcher as built"),
    Variant("every frame read whole", windows=False),
    Variant("nothing else kept between frames", follow=False),
    Variant("last frame's cards not reused", reuse=False),
    Variant("every changed frame recognised", gate=EveryChange),
)


@dataclass
class Timed:
    """A recogniser run as ``variant`` says, with a CPU stopwatch (process time) on each frame, by the number of
    cards it found."""

    recognizer: Recognizer
    variant: Variant
    cpu: dict[int, list[float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.recognizer.follow = self.variant.follow

    def process(self, frame: Any, known: Any = (), *, light: bool = True) -> FrameResult:
        started = time.process_time()
        result = self.recognizer.process(frame, known if self.variant.reuse else (),
                                         light=light or not self.variant.follow)
        self.cpu.setdefault(len(result.cards), []).append(time.process_time() - started)
        return result


def idle_core(folder: Path, tricks: int, pace: float, variant: Variant
              ) -> tuple[list[float], list[float], dict[int, list[float]]]:
    """Card down -> report on the camera thread's own clock, over ``tricks`` scripted tricks of three cards: each
    latency, each less the simulator's drawing in it, and the CPU seconds of each recognition by the cards found."""
    config = load_config(config_file(folder, "[web]\nenabled = false\n"))
    catalog = simulated_catalog(config, "corgi-pileup")
    recognizer = Timed(recognizer_for(catalog, config.camera), variant)
    world = CorgiWorld(3, seed=7)
    drawn: list[Span] = []
    clock = CameraClock()
    camera = WorldCamera(world)
    camera.read = Stopwatch(time.process_time).timed(drawn, camera.read)  # type: ignore[method-assign]
    reports: list[tuple[float, Any]] = []
    watcher = CardWatcher(FrameSource("world", lambda: camera, live=True), recognizer,  # type: ignore[arg-type]
                          tracker_for(config.camera), lambda frame, t: reports.extend((t, o) for o in frame),
                          clock=clock)
    watcher.stillness = variant.gate()
    rng = random.Random(7)
    faces = [face.id for face in catalog.deck.faces]
    latencies: list[float] = []
    drawing: list[float] = []

    def run_until(at: float, done: Callable[[], bool] = lambda: False) -> None:
        while clock() < at and not done():
            clock.wait(watcher.step())

    def reported(kind: type, face: str | None = None) -> bool:
        return any(isinstance(o, kind) and (face is None or o.face == face) for _t, o in reports)

    run_until(clock() + 1.0)  # the table seen still
    for _ in range(tricks):
        for seat, face in enumerate(rng.sample(faces, 3)):
            reach = clock() + 0.05 + rng.uniform(0.4, 0.9) * pace
            run_until(reach)
            world.reach(seat)
            landed = reach + 0.2 * pace
            run_until(landed)
            world.play(face)
            start = len(drawn)
            reports.clear()
            run_until(landed + 10.0, lambda face=face: reported(CardSeen, face))
            report = next(t for t, o in reports if isinstance(o, CardSeen) and o.face == face)
            latencies.append(report - landed)
            # less the drawing in that time: in the camera's time, the drawing took its CPU seconds
            drawing.append(report - landed - sum(span.cpu for span in drawn[start:]))
        run_until(clock() + 0.6 * pace)
        world.collect()
        reports.clear()
        run_until(clock() + 10.0, lambda: reported(ZoneCleared) and any(
            isinstance(o, ZoneCleared) and o.zone == CENTRE for _t, o in reports))
    return latencies, drawing, recognizer.cpu


def bench_idle(tricks: int, folder: Path, pace: float = 0.3) -> None:
    print(f"{tricks} scripted tricks of three cards (pace {pace}), the camera thread on its own clock "
          f"(load average {os.getloadavg()[0]:.1f}: it does not change these figures)")
    for variant in VARIANTS:
        with mock.patch.object(pipeline, "MAX_WINDOW", pipeline.MAX_WINDOW if variant.windows else 0.0):
            latencies, drawing, cpu = idle_core(folder, tricks, pace, variant)
        print(f"  {variant.name:<32} card down -> reported: median {1000 * statistics.median(latencies):.0f} ms, p95 "
              f"{1000 * statistics.quantiles(latencies, n=20)[-1]:.0f} ms; less the simulator's drawing: median "
              f"{1000 * statistics.median(drawing):.0f} ms")
        print(f"  {'':<32} recognition CPU (median) by cards found: " + ", ".join(
            f"{cards}: {1000 * statistics.median(cpu[cards]):.0f} ms ({len(cpu[cards])})" for cards in sorted(cpu)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--idle", type=int, metavar="TRICKS", help="scripted tricks on the camera's own clock")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.idle:
            bench_idle(args.idle, Path(tmp))
        else:
            bench(args.games, Path(tmp))
