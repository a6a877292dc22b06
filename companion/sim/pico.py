"""A firmware emulator: a simulated Pico speaking the exact wire protocol on a real pseudo-terminal.

The host opens it like ``/dev/ttyACM0``, through pyserial, at a stable path (a symlink re-pointed on every
replug, as udev's ``/dev/serial/by-id`` links are). Time is explicit: in manual mode a test calls
:meth:`SimulatedPico.advance` and the frames for that stretch go through the pty at once (fast and
deterministic); in real-time mode a thread follows the wall clock, optionally sped up.

Port name ``sim`` in the config selects it: :func:`serial_port` gives the running emulator's path, starting a
demo one when none is running.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import os
import random
import select
import tempfile
import threading
import time
import tty
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from companion.devices import protocol as p
from companion.devices.calibrate import Step
from companion.devices.flash import firmware_version
from companion.devices.settings import SIM_PORT
from companion.sim.pads import US, PadModel, PadPhysics

FIRMWARE_VERSION = firmware_version()  # the emulator stands in for the firmware of this checkout
TICK_US = 1_000
HEARTBEAT_US = 500_000
# Following the wall clock, the emulator catches up every 5 ms: its frames reach the host up to 5 ms after their
# device time (a real Pico's USB sends within 1 ms). Every simulated table pays for the emulator (any game: the pads
# stream all the time): every 2 ms, with the host's commands read at each 1 ms tick, it took 14 % of a core; now 8 %.
WAKE_S = 0.005
MISSED_READINGS = 8  # as the firmware: this many sample periods without a reading is a fault
TILT_HOLD_US = 5_000
WRITE_WAIT_S = 0.5
DEMO_ROUND_S = 12.0


@dataclass
class StreamFaults:
    """Damage to apply to the next frames sent (each counter is a number of frames)."""

    drop: int = 0
    corrupt: int = 0
    truncate: int = 0


@dataclass
class _TareJob:
    ref: int
    pad: int
    n: int
    values: list[int]


class SimulatedPico:
    """The emulated Pico: pads, firmware behaviour and a pty. Use as a context manager."""

    _running: ClassVar[list[SimulatedPico]] = []  # the emulators running, newest last: what `sim` selects

    def __init__(
        self,
        pads: int = 6,
        *,
        seed: int = 0,
        physics: PadPhysics | Sequence[PadPhysics] | None = None,
        realtime: bool = False,
        speed: float = 1.0,
        device_start_us: int = 0,
        directory: str | Path | None = None,
        script: Callable[[SimulatedPico], float] | None = None,
    ) -> None:
        """``script`` is called (under the emulator's lock) when the emulator starts and again after as many
        seconds of device time as it returns: it schedules what happens on the pads next."""
        if not 1 <= pads <= 8:
            raise ValueError(f"a Pico drives 1 to 8 pads (one PIO state machine each), not {pads}")
        physics = PadPhysics() if physics is None else physics
        each = [physics] * pads if isinstance(physics, PadPhysics) else list(physics)
        self.lock = threading.RLock()
        self.pads = [PadModel(each[i], random.Random(seed * 1000 + i), lock=self.lock) for i in range(pads)]
        self.realtime = realtime
        self.speed = speed
        self.device_start_us = device_start_us
        self.faults = StreamFaults()
        self.dropped = 0
        self._stalled = False
        self._own_dir = directory is None
        self._dir = Path(tempfile.mkdtemp(prefix="tableside-pico-")) if directory is None else Path(directory)
        self.port = str(self._dir / "ttyPICO")
        self._master: int | None = None
        self._slave: int | None = None
        self._deframer = p.Deframer()
        self._rng = random.Random(seed)
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.now_us = 0
        self._script = script
        self._next_script_us = 0
        self.unattended = False  # started by a command for its own use: nobody puts weights on its pads
        self._boot(0)

    # --- lifecycle
    def start(self) -> SimulatedPico:
        with self.lock:
            self._plug()
            self._send_info()
        SimulatedPico._running.append(self)
        if self.realtime:
            self._start_clock(self.speed)
        return self

    def close(self) -> None:
        self._stop_clock()
        with self.lock:
            self._unplug()
        if self in SimulatedPico._running:
            SimulatedPico._running.remove(self)
        if self._own_dir:
            with contextlib.suppress(OSError):
                self._dir.rmdir()

    def __enter__(self) -> SimulatedPico:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @classmethod
    def current(cls) -> SimulatedPico | None:
        """The emulator that port name ``sim`` selects (the latest started that still runs), if any."""
        return cls._running[-1] if cls._running else None

    # --- time
    def advance(self, seconds: float) -> None:
        """Run the emulated firmware for ``seconds`` of device time (manual mode)."""
        if self._thread is not None:
            raise RuntimeError("this emulator follows the wall clock; advance() is for manual mode")
        self._run_until(self.now_us + round(seconds * US), commands_each_tick=True)

    @contextlib.contextmanager
    def running(self, speed: float = 1.0) -> Iterator[SimulatedPico]:
        """Follow the wall clock (times ``speed``) for the duration of the block: lets a manual emulator
        answer a blocking host call such as a tare."""
        self._start_clock(speed)
        try:
            yield self
        finally:
            self._stop_clock()

    def _start_clock(self, speed: float) -> None:
        if self._thread is not None:
            raise RuntimeError("the emulator already follows the wall clock")
        self._stop.clear()
        self._thread = threading.Thread(target=self._follow_wall_clock, args=(speed,), name="simulated-pico",
                                        daemon=True)
        self._thread.start()

    def _stop_clock(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    @property
    def last_seq(self) -> int:
        """Sequence number of the last frame the emulated firmware numbered (sent or not)."""
        return (self._seq - 1) & 0xFFFF

    @property
    def device_us(self) -> int:
        """The device clock as the Pico would stamp it now (32 bits)."""
        return (self.now_us - self._boot_us + self.device_start_us) & 0xFFFF_FFFF

    # --- stream faults
    def garbage(self, data: bytes | None = None) -> None:
        """Bytes that are not a frame (a REPL banner, line noise) go out now."""
        with self.lock:
            self._write(data if data is not None else self._rng.randbytes(24))

    def unplug(self) -> None:
        """The USB cable is pulled: the port disappears."""
        with self.lock:
            self._unplug()

    def replug(self) -> None:
        """The cable goes back in: a new port at the same path, and the Pico boots afresh."""
        with self.lock:
            self._plug()
            self._boot(self.now_us)
            self._send_info()

    def stop_hx711(self, pad: int) -> None:
        with self.lock:
            self.pads[pad].hx711_running = False

    def start_hx711(self, pad: int) -> None:
        with self.lock:
            self.pads[pad].hx711_running = True
            self._next_sample[pad] = self.now_us + self._period_us

    def stick_hx711(self, pad: int, raw: int | None = -1) -> None:
        """The pad's HX711 keeps sending ``raw`` (its DOUT stuck high reads -1); ``None`` mends it."""
        with self.lock:
            self.pads[pad].stuck_raw = raw

    def set_noise(self, noise_g: float, pads: Sequence[int] | None = None) -> None:
        """Make ``pads`` (default all) as noisy as a cheap load cell: ``noise_g`` grams of standard deviation."""
        with self.lock:
            for i in range(len(self.pads)) if pads is None else pads:
                model = self.pads[i]
                model.physics = dataclasses.replace(model.physics, noise_g=noise_g)

    # --- the emulated firmware
    def _boot(self, at_us: int) -> None:
        self._boot_us = at_us
        self._seq = 0
        self._rate = 80
        self._next_sample = [at_us + 1_000 + 1_700 * i for i in range(len(self.pads))]
        self._last_sample = [at_us] * len(self.pads)
        self._fault = [False] * len(self.pads)
        self._tilt = [0] * len(self.pads)
        self._next_beat = at_us
        self._tares: list[_TareJob] = []
        self._deframer.reset()

    @property
    def _period_us(self) -> int:
        return US // self._rate

    def _dev(self, t: int) -> int:
        return (t - self._boot_us + self.device_start_us) & 0xFFFF_FFFF

    def _follow_wall_clock(self, speed: float) -> None:
        start_wall, start_us = time.monotonic(), self.now_us
        while not self._stop.wait(WAKE_S):
            self._run_until(start_us + int((time.monotonic() - start_wall) * speed * US))

    def _run_until(self, target: int, commands_each_tick: bool = False) -> None:
        """The firmware's ticks up to device time ``target``. What the host sent is handled at the start: following
        the wall clock, a catch-up is a few ticks long. ``commands_each_tick`` (manual mode, where one ``advance``
        may run a second of ticks at once): also before every tick, as the firmware's loop does, so a command the
        host sends while it runs (the link's INFO request as it connects) is answered within it."""
        with self.lock:
            self._commands()
        while self.now_us < target:
            with self.lock:
                if commands_each_tick:
                    self._commands()
                if self._script is not None and self.now_us >= self._next_script_us:
                    self._next_script_us = self.now_us + round(self._script(self) * US)
                t = min(self.now_us + TICK_US, target)
                events: list[tuple[int, int, p.Message]] = []
                for pad in range(len(self.pads)):
                    self._sample_pad(pad, t, events)
                    self._tilt_pad(pad, t, events)
                while self._next_beat <= t:
                    mask = sum(1 << i for i, f in enumerate(self._fault) if f)
                    events.append((self._next_beat, 2, p.Heartbeat(0, self._dev(self._next_beat), mask,
                                                                  self.dropped & 0xFFFF, 0)))
                    self._next_beat += HEARTBEAT_US
                for _, _, message in sorted(events, key=lambda e: (e[0], e[1])):
                    self._send(message)
                new_second = t // US != self.now_us // US
                self.now_us = t
                for model in self.pads:
                    model.now_us = t
                    if new_second:
                        model.forget_before(t - US)

    def _sample_pad(self, pad: int, t: int, events: list[tuple[int, int, p.Message]]) -> None:
        model = self.pads[pad]
        while model.hx711_running and self._next_sample[pad] <= t:
            ts = self._next_sample[pad]
            self._next_sample[pad] += self._period_us + self._rng.randint(-40, 40)  # the HX711's own oscillator
            self._last_sample[pad] = ts
            if self._fault[pad]:
                self._fault[pad] = False
                events.append((ts, 0, p.Fault(0, pad, self._dev(ts), p.FaultCode.CLEARED)))
            raw, spike = model.raw_at(ts)
            flags = (p.FLAG_TILT if self._tilt[pad] else 0) | (p.FLAG_SPIKE if spike else 0)
            events.append((ts, 1, p.Sample(0, pad, self._dev(ts), raw, flags)))
            self._tare_reading(pad, raw, events, ts)
        silent_since = self._last_sample[pad]
        if not self._fault[pad] and t - silent_since > MISSED_READINGS * self._period_us:
            self._fault[pad] = True
            events.append((t, 0, p.Fault(0, pad, self._dev(t), p.FaultCode.NOT_READY)))

    def _tilt_pad(self, pad: int, t: int, events: list[tuple[int, int, p.Message]]) -> None:
        """Report a vibration burst once it has held for the firmware's debounce time, stamped at its start."""
        model = self.pads[pad]
        if not model.vibrations and not self._tilt[pad]:  # still and reported still: most ticks of most pads
            return
        level = int(model.vibrating(t - TILT_HOLD_US))
        if level == self._tilt[pad]:
            return
        self._tilt[pad] = level
        edges = [start if level else end for start, end in model.vibrations if (start if level else end) <= t]
        when = max(edges) if edges else t
        events.append((when, 0, p.Tilt(0, pad, self._dev(when), level)))

    def _tare_reading(self, pad: int, raw: int, events: list[tuple[int, int, p.Message]], ts: int) -> None:
        for job in self._tares:
            if job.pad == pad:
                job.values.append(raw)
                if len(job.values) == job.n:
                    mean = (sum(job.values) + job.n // 2) // job.n
                    spread = max(job.values) - min(job.values)
                    events.append((ts, 3, p.Tare(0, job.ref, pad, job.n, mean, spread)))
                    self._tares.remove(job)
                    if not self._tares:
                        events.append((ts, 4, p.Ack(0, job.ref, p.TareRaw.TYPE, p.Status.OK)))
                return

    def _commands(self) -> None:
        if self._master is None:
            return
        try:
            data = os.read(self._master, 4096)
        except (BlockingIOError, OSError):
            return
        for command in self._deframer.feed(data):
            self._command(command)

    def _command(self, command: p.Message) -> None:
        if isinstance(command, p.Ping):
            self._send(p.Pong(0, command.seq, command.token))
        elif isinstance(command, p.InfoRequest):
            self._send_info()
        elif isinstance(command, p.SetRate):
            ok = command.sps in (10, 80)
            if ok:
                self._rate = command.sps
            self._send(p.Ack(0, command.seq, command.TYPE, p.Status.OK if ok else p.Status.BAD_ARGUMENT))
        elif isinstance(command, p.TareRaw):
            pads = [i for i in range(len(self.pads)) if command.pads >> i & 1]
            if command.n < 1 or not pads or command.pads >> len(self.pads) or self._tares:
                self._send(p.Ack(0, command.seq, command.TYPE, p.Status.BAD_ARGUMENT))
                return
            self._tares = [_TareJob(command.seq, pad, command.n, []) for pad in pads]
        elif isinstance(command, p.Reset):
            self._send(p.Ack(0, command.seq, command.TYPE, p.Status.OK))
            self._boot(self.now_us)
            self._send_info()
        else:
            self._send(p.Ack(0, command.seq, command.TYPE, p.Status.UNKNOWN_COMMAND))

    def _send_info(self) -> None:
        self._send(p.Info(0, p.PROTOCOL_VERSION, len(self.pads), self._rate, FIRMWARE_VERSION))

    def _send(self, message: p.Message) -> None:
        """Number the frame like the firmware does, then apply any scripted stream fault."""
        wire = p.encode(dataclasses.replace(message, seq=self._seq))
        self._seq = (self._seq + 1) & 0xFFFF
        faults = self.faults
        if faults.drop:
            faults.drop -= 1
            return
        if faults.corrupt:
            faults.corrupt -= 1
            i = len(wire) // 2
            wire = wire[:i] + bytes([wire[i] ^ 0x5A or 0x01]) + wire[i + 1 :]
        elif faults.truncate:
            faults.truncate -= 1
            wire = wire[: len(wire) // 2]
        self._write(wire)

    def _write(self, data: bytes) -> None:
        """Write to the host like USB CDC: wait a little for room, else drop and count (as the firmware does)."""
        if self._master is None:
            self.dropped += 1
            return
        view = memoryview(data)
        deadline = time.monotonic() + (0 if self._stalled else WRITE_WAIT_S)
        while view:
            try:
                view = view[os.write(self._master, view) :]
            except BlockingIOError:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    self._stalled = True  # nobody reads: stop waiting until a write gets through again
                    self.dropped += 1
                    return
                select.select([], [self._master], [], min(remaining, 0.05))
            except OSError as exc:
                if exc.errno != errno.EIO:
                    raise
                self.dropped += 1
                return
        self._stalled = False

    # --- the pseudo-terminal
    def _plug(self) -> None:
        if self._master is not None:
            return
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing: a binary link, as the CDC ACM driver gives
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        link = Path(self.port)
        tmp = link.with_suffix(".new")
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        tmp.symlink_to(os.ttyname(slave))
        tmp.replace(link)

    def _unplug(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            Path(self.port).unlink()
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None


def demo_round(pico: SimulatedPico) -> float:
    """A round of PigzUp! on every pad: piles of 2-4 built a piggy at a time, some toppled, some touched,
    a table bump now and then, then the piggies go back to the middle. Returns the round's length."""
    rng = pico._rng
    for i, pad in enumerate(pico.pads):
        start = 0.5 + 0.7 * i
        n = rng.choice((2, 3, 4))
        for k in range(n):
            pad.place(at_s=start + k * rng.uniform(0.8, 1.3))
        standing = start + n * 1.3 + 1.0
        fate = rng.random()
        if fate < 0.3:
            pad.topple(at_s=standing + rng.uniform(0.0, 2.0))
        elif fate < 0.5:
            pad.hand(rng.uniform(10, 30), rng.uniform(0.8, 1.5), at_s=standing)
        elif fate < 0.65:
            pad.bump(at_s=standing + 0.5)
        pad.clear(at_s=DEMO_ROUND_S - 1.0)
    return DEMO_ROUND_S


def arrange_for_calibration(pico: SimulatedPico, step: Step) -> None:
    """The emulated table's helper: puts on the pad what ``companion calibrate pads`` just asked for."""
    pad = pico.pads[step.pad]
    pad.clear()
    if step.kind == "reference":
        pad.place(grams=step.grams)
    elif step.kind == "piggy":
        pad.place()


@contextlib.contextmanager
def serial_port(port: str, *, pads: int = 6, demo: bool = False) -> Iterator[str]:
    """The device path for a configured port name: ``sim`` means the running emulator, or a fresh real-time
    one for as long as the ``with`` block lasts (playing :func:`demo_round` if ``demo``); any other name is a
    device path and is returned as is."""
    if port != SIM_PORT:
        yield port
        return
    running = SimulatedPico.current()
    if running is not None:
        yield running.port
        return
    with SimulatedPico(pads, realtime=True, script=demo_round if demo else None) as pico:
        pico.unattended = True
        yield pico.port


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m companion.sim.pico``: an emulated Pico in its own process, for trying a config's
    ``port = "<path>"`` exactly as a real device path."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m companion.sim.pico", description=main.__doc__)
    parser.add_argument("--pads", type=int, default=6)
    parser.add_argument("--speed", type=float, default=1.0, help="device seconds per wall-clock second")
    parser.add_argument("--demo", action="store_true", help="play PigzUp! piles on every pad")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--noise", type=float, default=PadPhysics().noise_g,
                        help="load-cell noise in grams (cheap cells: 1-1.5)")
    parser.add_argument("--stuck", type=int, action="append", default=[], metavar="PAD",
                        help="this pad's HX711 (numbered from 1) sends -1 forever; repeatable")
    args = parser.parse_args(argv)
    with SimulatedPico(args.pads, seed=args.seed, realtime=True, speed=args.speed,
                       physics=PadPhysics(noise_g=args.noise), script=demo_round if args.demo else None) as pico:
        for pad in args.stuck:
            pico.stick_hx711(pad - 1)
        print(pico.port, flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
