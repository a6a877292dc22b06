"""The serial link to the Pico: one reader thread, validated frames, counted errors, automatic reconnect.

The link never guesses: a frame that fails its checksum is counted and dropped, a gap in sequence numbers is
counted, and when the port goes away the reader closes it and retries with a growing delay (as a real
``/dev/ttyACM0`` disappears on unplug and comes back on replug). Listeners run on the reader thread, so they
must be quick; the pile estimators are.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import serial

from companion.devices import protocol as p

log = logging.getLogger(__name__)

Listener = Callable[[p.Message, int | None, float], None]
"""Called with each valid frame, its unwrapped device time in µs (None for frames without a time), and the
host's ``time.monotonic()`` when it was read."""

READ_TIMEOUT_S = 0.05
WRITE_TIMEOUT_S = 1.0  # a Pico that stops reading must not hang the caller
RATE_WINDOW_S = 1.0


class LinkDown(RuntimeError):
    """The Pico is not connected (or stopped answering) right now."""


@dataclass(frozen=True)
class LinkHealth:
    """What the status page shows about the Pico link."""

    port: str
    connected: bool
    frames: int
    frames_per_s: float
    bad_frames: int
    errors: dict[str, int]
    seq_gaps: int
    frames_lost: int
    reconnects: int
    last_frame_age_s: float | None
    last_seq: int | None
    device: p.Info | None
    pad_faults: int
    device_dropped: int
    device_rx_errors: int
    last_error: str | None


class DeviceClock:
    """Unwraps the Pico's 32-bit µs timestamps into one increasing count (frames arrive < 35 min apart)."""

    def __init__(self) -> None:
        self.last: int | None = None

    def unwrap(self, t32: int) -> int:
        if self.last is None:
            self.last = t32
            return t32
        delta = ((t32 - self.last + 0x8000_0000) & 0xFFFF_FFFF) - 0x8000_0000
        value = self.last + delta
        self.last = max(self.last, value)
        return value


@dataclass
class _Pending:
    """A command waiting for its replies (those whose ``ref`` is its sequence number)."""

    ref: int
    final: tuple[type[p.Message], ...]
    replies: list[p.Message] = field(default_factory=list)
    done: threading.Event = field(default_factory=threading.Event)


class SerialLink:
    """Reads frames from ``port`` on a background thread and hands them to listeners."""

    def __init__(
        self,
        port: str,
        baudrate: int = 115200,
        *,
        backoff_s: tuple[float, float] = (0.05, 2.0),
        opener: Callable[..., serial.Serial] = serial.Serial,
    ) -> None:
        self.port = port
        self.baudrate = baudrate
        self.backoff_s = backoff_s
        self._opener = opener
        self._listeners: list[Listener] = []
        self._serial: serial.Serial | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._connected = threading.Event()
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._host_seq = itertools.count(1)
        self._pending: dict[int, _Pending] = {}
        self._info_waiters: list[_Pending] = []
        self._deframer = p.Deframer()
        self._clock = DeviceClock()
        self._recent: deque[float] = deque()
        self._frames = 0
        self._gaps = 0
        self._lost = 0
        self._reconnects = 0
        self._last_seq: int | None = None
        self._last_frame_at: float | None = None
        self._device: p.Info | None = None
        self._heartbeat: p.Heartbeat | None = None
        self._last_error: str | None = None

    # --- lifecycle
    def start(self) -> SerialLink:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"serial-link {self.port}", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        self._close_port()

    def __enter__(self) -> SerialLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def wait_connected(self, timeout: float) -> bool:
        return self._connected.wait(timeout)

    # --- listeners
    def add_listener(self, listener: Listener) -> None:
        with self._lock:
            self._listeners = [*self._listeners, listener]

    def remove_listener(self, listener: Listener) -> None:
        with self._lock:
            self._listeners = [x for x in self._listeners if x is not listener]

    # --- commands
    def send(self, build: Callable[[int], p.Message], seq: int | None = None) -> int:
        """Send the command ``build(seq)``; returns its sequence number. Raises :class:`LinkDown`."""
        seq = self._next_seq() if seq is None else seq
        port = self._serial
        if port is None or not self._connected.is_set():
            raise LinkDown(f"the Pico on {self.port} is not connected")
        try:
            with self._write_lock:
                port.write(p.encode(build(seq)))
        except (serial.SerialException, OSError) as exc:
            raise LinkDown(f"writing to {self.port} failed: {exc}") from None
        return seq

    def request(self, build: Callable[[int], p.Message], final: tuple[type[p.Message], ...],
                timeout: float = 2.0) -> list[p.Message]:
        """Send a command and wait for its replies, up to the first of a ``final`` type."""
        seq = self._next_seq()
        pending = _Pending(ref=seq, final=final)
        with self._lock:
            self._pending[seq] = pending  # registered first: the reply may beat send() back
        try:
            self.send(build, seq)
            if not pending.done.wait(timeout):
                raise LinkDown(f"the Pico on {self.port} did not answer within {timeout:g} s")
            if not pending.replies or not isinstance(pending.replies[-1], final):
                raise LinkDown(f"the Pico on {self.port} went away before answering")
            return pending.replies
        finally:
            with self._lock:
                self._pending.pop(seq, None)

    def _next_seq(self) -> int:
        return next(self._host_seq) & 0xFFFF

    def ping(self, token: int = 0x7AB1E, timeout: float = 2.0) -> float:
        """Round trip time in seconds."""
        start = time.monotonic()
        (reply,) = self.request(lambda seq: p.Ping(seq, token), (p.Pong,), timeout)
        if not isinstance(reply, p.Pong) or reply.token != token:
            raise LinkDown(f"the Pico answered PING with {reply}")
        return time.monotonic() - start

    def info(self, timeout: float = 2.0) -> p.Info:
        pending = _Pending(ref=-1, final=(p.Info,))
        with self._lock:
            self._info_waiters.append(pending)
        try:
            self.send(p.InfoRequest)
            if not pending.done.wait(timeout) or not pending.replies:
                raise LinkDown(f"the Pico on {self.port} did not send its INFO within {timeout:g} s")
            return pending.replies[0]
        finally:
            with self._lock:
                if pending in self._info_waiters:
                    self._info_waiters.remove(pending)

    def tare_raw(self, pads: int, n: int, timeout: float = 5.0) -> dict[int, p.Tare]:
        """Mean and spread of the next ``n`` raw readings of each pad in the bit mask ``pads``."""
        replies = self.request(lambda seq: p.TareRaw(seq, pads, n), (p.Ack,), timeout)
        ack = replies[-1]
        if ack.status != p.Status.OK:
            raise ValueError(f"the Pico refused TARE_RAW pads=0b{pads:b} n={n}: {p.Status(ack.status).name}")
        return {r.pad: r for r in replies if isinstance(r, p.Tare)}

    # --- health
    def health(self) -> LinkHealth:
        now = time.monotonic()
        with self._lock:
            while self._recent and self._recent[0] < now - RATE_WINDOW_S:
                self._recent.popleft()
            errors = dict(self._deframer.errors)
            beat = self._heartbeat
            return LinkHealth(
                port=self.port,
                connected=self._connected.is_set(),
                frames=self._frames,
                frames_per_s=len(self._recent) / RATE_WINDOW_S,
                bad_frames=sum(errors.values()),
                errors=errors,
                seq_gaps=self._gaps,
                frames_lost=self._lost,
                reconnects=self._reconnects,
                last_frame_age_s=None if self._last_frame_at is None else now - self._last_frame_at,
                last_seq=self._last_seq,
                device=self._device,
                pad_faults=beat.faults if beat else 0,
                device_dropped=beat.dropped if beat else 0,
                device_rx_errors=beat.rx_errors if beat else 0,
                last_error=self._last_error,
            )

    # --- the reader thread
    def _run(self) -> None:
        delay = self.backoff_s[0]
        while not self._stop.is_set():
            if self._serial is None:
                if self._open():
                    delay = self.backoff_s[0]
                else:
                    self._stop.wait(delay)
                    delay = min(delay * 2, self.backoff_s[1])
                    continue
            try:
                data = self._serial.read(self._serial.in_waiting or 1)
            except (serial.SerialException, OSError) as exc:
                self._lost_port(f"read from {self.port} failed: {exc}")
                continue
            if data:
                self.feed(data, time.monotonic())

    def _open(self) -> bool:
        try:
            port = self._opener(self.port, self.baudrate, timeout=READ_TIMEOUT_S, write_timeout=WRITE_TIMEOUT_S,
                                exclusive=True)
        except (serial.SerialException, OSError, ValueError) as exc:
            self._last_error = f"cannot open {self.port}: {exc}"
            return False
        with self._lock:
            self._serial = port
            self._deframer.reset()
            self._clock = DeviceClock()
            self._last_seq = None
            self._last_error = None
        self._connected.set()
        log.info("connected to the Pico on %s", self.port)
        try:
            self.send(p.InfoRequest)
        except LinkDown:
            return True  # the read that follows notices the dead port
        return True

    def _lost_port(self, why: str) -> None:
        log.warning("%s; reconnecting", why)
        self._connected.clear()
        self._close_port()
        with self._lock:
            self._reconnects += 1
            self._last_error = why
            for pending in [*self._pending.values(), *self._info_waiters]:
                pending.done.set()  # the waiter raises LinkDown: no reply will come

    def _close_port(self) -> None:
        port, self._serial = self._serial, None
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError):
                log.debug("closing %s failed", self.port, exc_info=True)

    def feed(self, data: bytes, now: float) -> None:
        """Handle bytes read from the Pico: the reader thread calls this for every read; a captured stream
        can be replayed through it (the benchmark does)."""
        messages = self._deframer.feed(data)
        if not messages:
            return
        listeners = self._listeners
        for message in messages:
            self._account(message, now)
            t_us = getattr(message, "t_us", None)
            device_us = None if t_us is None else self._clock.unwrap(t_us)
            for listener in listeners:
                try:
                    listener(message, device_us, now)
                except Exception:
                    log.exception("a serial listener failed on %s", message)

    def _account(self, message: p.Message, now: float) -> None:
        with self._lock:
            self._frames += 1
            self._recent.append(now)
            self._last_frame_at = now
            seq = message.seq
            if isinstance(message, p.Info):
                self._device = message
                if message.proto != p.PROTOCOL_VERSION:
                    self._last_error = (f"the Pico's firmware {message.version} speaks protocol {message.proto}, "
                                        f"this companion speaks {p.PROTOCOL_VERSION}: flash firmware/ again")
                    log.error("%s", self._last_error)
                if seq == 0:  # the Pico (re)booted: its counters and clock start again
                    self._last_seq = None
                    self._clock = DeviceClock()
                for waiter in self._info_waiters:
                    waiter.replies.append(message)
                    waiter.done.set()
                self._info_waiters.clear()
            elif isinstance(message, p.Heartbeat):
                self._heartbeat = message
            if self._last_seq is not None:
                missing = (seq - self._last_seq - 1) & 0xFFFF
                if missing:
                    self._gaps += 1
                    self._lost += missing
            self._last_seq = seq
            ref = getattr(message, "ref", None)
            pending = self._pending.get(ref) if ref is not None else None
            if pending is not None:
                pending.replies.append(message)
                if isinstance(message, pending.final):
                    pending.done.set()
