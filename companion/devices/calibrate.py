"""``companion calibrate pads``: a guided tare, a reference weight and N piggies → a calibration profile.

The arithmetic (:func:`fit_pad`, :func:`fit_piggies`) is separate from the conversation (:class:`Wizard`), so
the refusals are tested directly and the conversation is tested end to end against the emulator. Prompts
are answered through ``input()``; anything that makes no physical sense is refused with the likely cause,
and nothing is written.
"""

from __future__ import annotations

import itertools
import statistics
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TextIO

from companion.devices import protocol as p
from companion.devices.calibration import DEFAULT_RATE_SPS, CalibrationProfile, PadCalibration, Thresholds
from companion.devices.link import SerialLink

MIN_SIGNAL_TO_NOISE = 20.0
MAX_PIGGY_DEVIATION = 0.25


class CalibrationRefused(ValueError):
    """A measurement that cannot be right, with what probably went wrong."""


@dataclass(frozen=True)
class Readings:
    """Raw readings of one pad while it held one thing."""

    values: tuple[int, ...]

    @property
    def mean(self) -> float:
        return statistics.fmean(self.values)

    @property
    def stdev(self) -> float:
        return statistics.stdev(self.values) if len(self.values) > 1 else 0.0


def fit_pad(pad: int, empty: Readings, loaded: Readings, reference_g: float) -> PadCalibration:
    """Counts per gram from an empty reading and one with a known weight on."""
    if reference_g <= 0:
        raise CalibrationRefused(f"the reference weight must be above 0 g, not {reference_g:g} g")
    delta = loaded.mean - empty.mean
    noise = max(empty.stdev, loaded.stdev, 1.0)
    if delta < 0 and -delta > MIN_SIGNAL_TO_NOISE * noise:
        raise CalibrationRefused(
            f"pad {pad + 1} reads lower with the {reference_g:g} g weight ({loaded.mean:.0f}) than empty "
            f"({empty.mean:.0f}): the load cell is mounted or wired backwards; swap its A+ and A- wires "
            "(or turn the cell over) and calibrate again")
    if delta < MIN_SIGNAL_TO_NOISE * noise:
        raise CalibrationRefused(
            f"pad {pad + 1} barely changed with the {reference_g:g} g weight ({delta:+.0f} counts, noise "
            f"{noise:.0f}): was the weight on the pad, and is the pad resting on its load cell only?")
    counts_per_gram = delta / reference_g
    return PadCalibration(offset_counts=round(empty.mean, 1), counts_per_gram=round(counts_per_gram, 3),
                          noise_g=round(empty.stdev / counts_per_gram, 3))


def fit_piggies(grams: list[float]) -> tuple[float, float]:
    """Mean weight and spread (standard deviation) of individually weighed piggies."""
    if len(grams) < 2:
        raise CalibrationRefused("weigh at least 2 piggies to learn their spread")
    for i, g in enumerate(grams):
        if g < 0.5:
            raise CalibrationRefused(f"piggy {i + 1} weighed {g:.1f} g: was it on the pad?")
    mean = statistics.fmean(grams)
    for i, g in enumerate(grams):
        if abs(g - mean) > MAX_PIGGY_DEVIATION * mean:
            raise CalibrationRefused(
                f"piggy {i + 1} weighed {g:.1f} g, far from the others' {mean:.1f} g: was something else on the "
                "pad, or two piggies at once? Weigh them again")
    return mean, statistics.stdev(grams)


@dataclass(frozen=True)
class Step:
    """What the person is asked to put on a pad: nothing, the reference weight, or one piggy."""

    kind: str  # "empty", "reference" or "piggy"
    pad: int
    grams: float = 0.0
    number: int = 0


class ReadingTap:
    """A link listener that hands one pad's readings to whoever is collecting, after a settle delay.

    Readings already on their way when the person pressed Enter weighed what was on the pad before: the
    collection starts only after the Pico's answer to a ping sent then (the Pico sends its frames in order), and
    the settle delay runs from the first reading after that answer, on the Pico's clock.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.pad = 0
        self.wanted = 0
        self.settle_us = 0
        self.after_token: int | None = None  # the ping whose answer starts the collection
        self.skip_until_us: int | None = None
        self.values: list[int] = []
        self.last_raw: int | None = None

    def start(self, pad: int, wanted: int, settle_s: float, after_token: int) -> None:
        with self.lock:
            self.pad, self.wanted, self.settle_us = pad, wanted, int(settle_s * 1_000_000)
            self.after_token, self.skip_until_us, self.values, self.last_raw = after_token, None, [], None
            self.done.clear()

    def __call__(self, message: p.Message, device_us: int | None, _host_s: float) -> None:
        if isinstance(message, p.Pong):
            with self.lock:
                if message.token == self.after_token:
                    self.after_token = None
            return
        if not isinstance(message, p.Sample) or message.pad != self.pad or device_us is None:
            return
        with self.lock:
            self.last_raw = message.raw
            if self.after_token is not None:
                return  # weighed before Enter was pressed
            if self.skip_until_us is None:
                self.skip_until_us = device_us + self.settle_us  # hands off the pad first
            if device_us < self.skip_until_us or len(self.values) >= self.wanted:
                return
            self.values.append(message.raw)
            if len(self.values) >= self.wanted:
                self.done.set()


class Wizard:
    """The conversation: prompts on ``out``, answers via ``ask`` (``input`` by default)."""

    def __init__(self, link: SerialLink, profile: CalibrationProfile, *, samples: int, settle_s: float,
                 out: TextIO | None = None, ask: Callable[[str], str] = input,
                 on_step: Callable[[Step], None] | None = None) -> None:
        self.link = link
        self.on_step = on_step
        self.profile = profile
        self.samples = samples
        self.settle_s = settle_s
        self.out = out or sys.stdout
        self.ask = ask
        self.tap = ReadingTap()
        self._tokens = itertools.count(0xCA11B)
        link.add_listener(self.tap)

    def close(self) -> None:
        self.link.remove_listener(self.tap)

    def rate(self) -> int:
        """The Pico's sample rate (readings per second), as it reported it."""
        device = self.link.health().device
        return device.rate if device and device.rate else DEFAULT_RATE_SPS

    def measure(self, step: Step, prompt: str, guess: PadCalibration | None) -> Readings:
        """Ask for something to be put on the pad, then collect readings with a progress bar."""
        pad = step.pad
        self.ask(f"{prompt}, then press Enter ")
        if self.on_step is not None:
            self.on_step(step)
        token = next(self._tokens)
        self.tap.start(pad, self.samples, self.settle_s, after_token=token)
        self.link.ping(token)
        deadline = time.monotonic() + 3 * (self.samples / self.rate() + self.settle_s) + 2
        while not self.tap.done.wait(0.1):
            if time.monotonic() > deadline:
                self.out.write("\n")
                raise CalibrationRefused(f"pad {pad + 1} sent no readings: is the Pico connected and the pad's "
                                         "HX711 wired (see hardware/README.md)?")
            self._progress(len(self.tap.values), guess)
        self._progress(self.samples, guess)
        self.out.write("\n")
        return Readings(tuple(self.tap.values))

    def _progress(self, have: int, guess: PadCalibration | None) -> None:
        width = 30
        filled = width * have // self.samples
        live = self.tap.last_raw
        if live is None:
            reading = "waiting for readings"
        elif guess is None:
            reading = f"{live} counts"
        else:
            reading = f"{guess.grams(live):7.1f} g"
        self.out.write(f"\r  [{'#' * filled}{'.' * (width - filled)}] {100 * have // self.samples:3d}%  {reading}")
        self.out.flush()

    def run(self, pads: list[int], reference_g: float, piggies: int) -> CalibrationProfile:
        profile = self.profile
        for pad in pads:
            self.out.write(f"Pad {pad + 1}\n")
            empty = self.measure(Step("empty", pad), f"Take everything off pad {pad + 1}", None)
            loaded = self.measure(Step("reference", pad, reference_g),
                                  f"Put the {reference_g:g} g reference weight alone on pad {pad + 1}", None)
            cal = fit_pad(pad, empty, loaded, reference_g)
            self.out.write(f"  pad {pad + 1}: {cal.counts_per_gram:.1f} counts/g, noise {cal.noise_g:.2f} g\n")
            profile = profile.with_pad(pad, cal)
        first = pads[0]
        cal = profile.pads[first]
        weights = []
        for i in range(piggies):
            readings = self.measure(Step("piggy", first, number=i + 1),
                                    f"Put piggy {i + 1} of {piggies} alone on pad {first + 1}", cal)
            weights.append(cal.grams(readings.mean))
            self.out.write(f"  piggy {i + 1}: {weights[-1]:.2f} g\n")
        mean, spread = fit_piggies(weights)
        noise = max(c.noise_g for c in profile.pads)
        profile = replace(profile, piggy_g=round(mean, 3), piggy_spread_g=round(spread, 3),
                          thresholds=Thresholds.derive(mean, noise, self.rate()))
        why = profile.countable()
        if why:
            raise CalibrationRefused(why)
        return profile
