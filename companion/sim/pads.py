"""Physics of a simulated stacking pad: what the load cell and the vibration switch would see.

Scripted actions (place a piggy, rest a hand, topple, bump the table) become timed contributions to the
weight on the pad; the emulated Pico samples ``raw_at(t)`` like the HX711 would. Everything is driven by an
explicit time in µs and a seeded RNG, so a scenario replays exactly.
"""

from __future__ import annotations

import functools
import math
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

US = 1_000_000
PIGGY_G = 9.0
PIGGY_SPREAD_G = 0.2


F = TypeVar("F", bound=Callable[..., Any])


def _locked(method: F) -> F:
    """Scripts run on the caller's thread while the emulator samples on its own: share the emulator's lock."""

    @functools.wraps(method)
    def wrapper(self: PadModel, *args: Any, **kwargs: Any) -> Any:
        with self.lock:
            return method(self, *args, **kwargs)

    return wrapper  # type: ignore[return-value]


@dataclass(frozen=True)
class PadPhysics:
    """The true properties of one pad; the calibration has to discover them."""

    offset_counts: int = 52_000
    counts_per_gram: float = 4_300.0
    noise_g: float = 0.4
    drift_g_per_s: float = 0.0
    spike_rate: float = 0.0


@dataclass
class _Piggy:
    grams: float
    on_us: int
    off_us: int | None = None


@dataclass
class _Force:
    """Extra weight during [start, end): a hand, an impact, a bump's ringing."""

    start_us: int
    end_us: int
    grams: Callable[[int], float]


@dataclass
class PadModel:
    """One pad: piggies on it, transient forces, vibration bursts, and whether its HX711 answers."""

    physics: PadPhysics = field(default_factory=PadPhysics)
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    now_us: int = 0
    piggies: list[_Piggy] = field(default_factory=list)
    forces: list[_Force] = field(default_factory=list)
    vibrations: list[tuple[int, int]] = field(default_factory=list)  # (start, end) of the switch being active
    hx711_running: bool = True
    stuck_raw: int | None = None  # a broken HX711 sending one value forever (-1: DOUT stuck high)
    drift_from_us: int = 0
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)

    # --- scripting (times are relative to now_us, in seconds)
    @_locked
    def place(self, count: int = 1, *, grams: float | None = None, hand_g: float = 12.0,
              duration_s: float = 0.35, at_s: float = 0.0) -> None:
        """A hand brings ``count`` piggies, presses them on the pile, and lets go."""
        start = self.now_us + int(at_s * US)
        end = start + int(duration_s * US)
        self.hand(hand_g, duration_s, at_s=at_s)
        for _ in range(count):
            weight = grams if grams is not None else self.rng.gauss(PIGGY_G, PIGGY_SPREAD_G)
            self.piggies.append(_Piggy(weight, on_us=(start + end) // 2))

    @_locked
    def remove(self, count: int = 1, *, hand_g: float = 6.0, duration_s: float = 0.35, at_s: float = 0.0) -> None:
        """A hand lifts ``count`` piggies off the top of the pile."""
        start = self.now_us + int(at_s * US)
        end = start + int(duration_s * US)
        self.hand(hand_g, duration_s, at_s=at_s)
        for piggy in self._on_pad(end)[-count:]:
            piggy.off_us = (start + end) // 2

    @_locked
    def hand(self, grams: float, seconds: float, *, tremor_g: float = 1.5, at_s: float = 0.0) -> None:
        """A hand resting on the pile: its weight plus a physiological tremor (~9 Hz) that never settles."""
        start = self.now_us + int(at_s * US)
        phase = self.rng.random() * math.tau

        def force(t: int) -> float:
            ramp = min(1.0, (t - start) / 60_000)  # 60 ms to press down
            return ramp * grams + tremor_g * math.sin(phase + math.tau * 9.0 * (t - start) / US)

        self.forces.append(_Force(start, start + int(seconds * US), force))

    @_locked
    def rest_hand(self, grams: float, seconds: float, *, at_s: float = 0.0) -> None:
        """A hand resting lightly and still on the pile (a player steadying it): its weight and only a faint
        tremor, so that with noisy pads only its weight gives it away."""
        self.hand(grams, seconds, tremor_g=0.2, at_s=at_s)

    @_locked
    def topple(self, falling: int | None = None, *, at_s: float = 0.0) -> None:
        """The pile falls: ``falling`` piggies (default all but the bottom one) leave the pad within 80 ms,
        with an impact on the pad and a burst on the vibration switch."""
        start = self.now_us + int(at_s * US)
        standing = self._on_pad(start)
        falling = len(standing) - 1 if falling is None else falling
        for i, piggy in enumerate(standing[len(standing) - falling :]):
            piggy.off_us = start + 20_000 + 15_000 * i
        self.forces.append(_Force(start, start + 30_000, lambda t: 6.0 * math.sin(math.pi * (t - start) / 30_000)))
        self.vibrations.append((start + 2_000, start + 120_000))

    @_locked
    def bump(self, amplitude_g: float = 3.0, *, at_s: float = 0.0) -> None:
        """Someone knocks the table: the reading rings and dies away, the vibration switch fires, no weight
        changes."""
        start = self.now_us + int(at_s * US)
        self.forces.append(_Force(start, start + 200_000, lambda t: amplitude_g * math.exp(-(t - start) / 50_000)
                                  * math.sin(math.tau * 15.0 * (t - start) / US)))
        self.vibrations.append((start, start + 60_000))

    @_locked
    def clear(self, *, at_s: float = 0.0) -> None:
        """Everything off the pad at once (between matches)."""
        t = self.now_us + int(at_s * US)
        for piggy in self._on_pad(t):
            piggy.off_us = t

    # --- what the sensors see
    def grams_at(self, t: int) -> float:
        weight = sum(p.grams for p in self.piggies if p.on_us <= t and (p.off_us is None or t < p.off_us))
        weight += sum(f.grams(t) for f in self.forces if f.start_us <= t < f.end_us)
        return weight + self.physics.drift_g_per_s * (t - self.drift_from_us) / US

    def raw_at(self, t: int) -> tuple[int, bool]:
        """The filtered HX711 reading and whether the firmware's median removed a spike."""
        if self.stuck_raw is not None:
            return self.stuck_raw, False
        grams = self.grams_at(t) + self.rng.gauss(0.0, self.physics.noise_g)
        raw = round(self.physics.offset_counts + grams * self.physics.counts_per_gram)
        return max(-0x80_0000, min(0x7F_FFFF, raw)), self.rng.random() < self.physics.spike_rate

    def vibrating(self, t: int) -> bool:
        return any(start <= t < end for start, end in self.vibrations)

    def piggies_on(self, t: int) -> int:
        return len(self._on_pad(t))

    def forget_before(self, t: int) -> None:
        """Drop finished forces and piggies long gone, so long runs stay fast."""
        self.forces = [f for f in self.forces if f.end_us > t]
        self.piggies = [p for p in self.piggies if p.off_us is None or p.off_us > t]
        self.vibrations = [v for v in self.vibrations if v[1] > t - US]

    def _on_pad(self, t: int) -> list[_Piggy]:
        return [p for p in self.piggies if p.on_us <= t and (p.off_us is None or t < p.off_us)]
