"""Pads: the serial link's frames routed to one pile estimator per pad, with tare and link-loss handling.

This is what the rest of Tableside uses: ``PadMonitor(link, profile, on_event)`` calls ``on_event`` with every
:class:`~companion.devices.pile.PileEvent` (on the link's reader thread; hand it on, don't block), and
:meth:`PadMonitor.snapshot` gives the current state of every pad for a status page.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from companion.devices import protocol as p
from companion.devices.calibration import CalibrationProfile
from companion.devices.link import LinkDown, SerialLink
from companion.devices.pile import PileEstimator, PileEvent
from companion.table.observations import PadReading, PadVibration, PileState

LINK_SILENCE_S = 1.5
"""A link with no frame for this long is dead even if the port is open: a Pico with every pad faulted still
sends a heartbeat every 0.5 s."""

EventHandler = Callable[[PileEvent, float], None]
"""Called with each state change and the host's ``time.monotonic()`` when it was decided."""

ReadingHandler = Callable[[PadReading | PadVibration], None]
"""Called for every sample and every state change with the pad's state and weight then (host time): what the
match judge follows, as it must see time pass on a pad to end a hold exactly; and with every edge of a pad's
tilt/vibration input, which the judge keeps in the race's trace."""


class TareRefused(RuntimeError):
    """A tare that would set a wrong zero (a pad still moving or not answering), with the reason."""


@dataclass(frozen=True)
class PadView:
    """One pad as a status page shows it: a fault's label says why (the referee decides until it is mended)."""

    pad: int
    label: str
    state: PileState
    count: int
    grams: float
    since_us: int | None
    for_s: float | None  # how long it has been in this state, by the device clock
    detail: str = ""


class PadMonitor:
    """Listens to a :class:`SerialLink` and keeps one :class:`PileEstimator` per pad."""

    def __init__(self, link: SerialLink, profile: CalibrationProfile, on_event: EventHandler | None = None,
                 pads: int | None = None, on_reading: ReadingHandler | None = None) -> None:
        self.link = link
        self.profile = profile
        count = pads if pads is not None else len(profile.pads)
        self.estimators = [PileEstimator(i, profile) for i in range(count)]
        self._on_event = on_event
        self._on_reading = on_reading
        self._since: list[int | None] = [None] * count
        self._lock = threading.Lock()
        self._tare_lock = threading.Lock()
        self._last_device_us: int | None = None
        link.add_listener(self._frame)

    def close(self) -> None:
        self.link.remove_listener(self._frame)

    def _frame(self, message: p.Message, device_us: int | None, host_s: float) -> None:
        with self._lock:
            if device_us is not None:
                self._last_device_us = device_us
            event = None
            sampled = None
            vibration = None
            if isinstance(message, p.Sample):
                if message.pad < len(self.estimators):
                    sampled = self.estimators[message.pad]
                    event = sampled.sample(device_us, message.raw)
            elif isinstance(message, p.Tilt):
                if message.pad < len(self.estimators):
                    event = self.estimators[message.pad].tilt(device_us, message.level)
                    vibration = PadVibration(message.pad, message.level, host_s)
            elif isinstance(message, p.Fault):
                if message.code == p.FaultCode.NOT_READY and message.pad < len(self.estimators):
                    event = self.estimators[message.pad].fault(device_us, "HX711 not ready")
            elif isinstance(message, p.Heartbeat):
                for estimator in self.estimators:
                    self._emit(estimator.check_silence(device_us), host_s)
            elif isinstance(message, p.Info) and message.seq == 0:
                # The Pico (re)booted: its clock restarted, so what the estimators hold is from another time.
                for estimator in self.estimators:
                    self._emit(estimator.fault(self._last_device_us or 0, "Pico restarted"), host_s)
        if vibration is not None and self._on_reading is not None:
            self._on_reading(vibration)
        self._emit(event, host_s)
        if event is None and sampled is not None and sampled.weighed and self._on_reading is not None:
            # Only a reading of the pile shows time passing on it: a glitch or a repeated value says nothing.
            self._on_reading(PadReading(sampled.pad, sampled.state, sampled.count, host_s, sampled.detail,
                                        round(sampled.grams, 2)))

    def _emit(self, event: PileEvent | None, host_s: float) -> None:
        if event is None:
            return
        self._since[event.pad] = event.since_us
        if self._on_event is not None:
            self._on_event(event, host_s)
        if self._on_reading is not None:
            self._on_reading(PadReading(event.pad, event.state, event.count, host_s, event.detail, event.grams))

    def poll(self) -> None:
        """Call now and then (e.g. once a second): a lost link puts every pad in ``fault``."""
        health = self.link.health()
        age = health.last_frame_age_s
        if health.connected and (age is None or age <= LINK_SILENCE_S):
            return  # frames are arriving, or the Pico has only just connected (pads are `fault` until they settle)
        why = "Pico not connected" if not health.connected else f"no frames for {age:.1f} s"
        with self._lock:
            t = self._last_device_us or 0
            events = [e.fault(t, why) for e in self.estimators if e.state is not PileState.FAULT]
        for event in events:
            self._emit(event, time.monotonic())

    def tare(self, pads: list[int] | None = None, samples: int = 16) -> dict[int, float]:
        """Set the zero of ``pads`` (default all) from the Pico's mean of the next readings; the pads must be
        empty and still. Used on demand and when a match starts. Returns the new zeros in counts."""
        pads = list(range(len(self.estimators))) if pads is None else pads
        mask = sum(1 << i for i in pads)
        try:
            with self._tare_lock:  # the Pico takes one tare at a time (a second one is BAD_ARGUMENT)
                results = self.link.tare_raw(mask, samples, timeout=2.0 + samples / 10)
        except LinkDown as exc:
            raise TareRefused(f"cannot tare: {exc}") from None
        band = self.profile.thresholds.settle_band_g
        zeros = {}
        for pad in pads:
            result = results.get(pad)
            if result is None:
                raise TareRefused(f"pad {pad + 1} sent no readings to tare")
            if result.n >= 3 and result.spread == 0:
                raise TareRefused(f"pad {pad + 1} sent the same raw value ({result.mean}) {result.n} times: its "
                                  "HX711 is stuck; check its wiring (hardware/README.md), then tare again")
            spread_g = result.spread / abs(self.estimators[pad].cal.counts_per_gram)
            if spread_g > band * 2:
                raise TareRefused(f"pad {pad + 1} moved by {spread_g:.1f} g while taring (limit {band * 2:.1f} g): "
                                  "keep the pads empty and still, then tare again")
            zeros[pad] = float(result.mean)
        with self._lock:
            events = [self.estimators[pad].set_zero(zero) for pad, zero in zeros.items()]
        for event in events:
            self._emit(event, time.monotonic())
        return zeros

    def snapshot(self) -> list[PadView]:
        with self._lock:
            now = self._last_device_us
            views = []
            for e in self.estimators:
                since = self._since[e.pad]
                for_s = None if since is None or now is None else max(0.0, (now - since) / 1e6)
                label = f"fault ({e.detail})" if e.state is PileState.FAULT and e.detail else e.label
                views.append(PadView(e.pad, label, e.state, e.count, round(e.grams, 1), since, for_s, e.detail))
            return views
