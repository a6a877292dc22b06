"""Pile estimator: raw load-cell counts of one pad → grams → piggy count → pile state with timestamps.

Pure logic driven by device timestamps (µs), so it is tested without serial and replays exactly. States:

- ``empty``: settled at (tared) zero.
- ``building``: weight changing and not (yet) explained: piggies going on or off.
- ``stable(n)``: settled within tolerance of n whole piggies; a stable pile rides through bumps and noise
  that stay within ``hold_band_g``.
- ``touched``: more weight than whole piggies explain: above the last stable level for ``touch_ms`` (a hand
  resting on the pile), above the most the pad can hold, or settled between whole counts.
- ``toppled``: a sudden loss of at least ``topple_drop_g`` from a pile of two or more within
  ``topple_window_ms``, confirmed by the tilt/vibration input within ``tilt_confirm_ms`` or large enough
  (``topple_unconfirmed_g``) to need no confirmation; it holds until the readings settle again.
- ``fault``: the Pico reports the HX711 not ready, or no samples for ``fault_timeout_ms``; it holds until the
  readings settle again, so nothing is claimed from stale or partial data.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from companion.devices.calibration import CalibrationProfile, PadCalibration
from companion.table.observations import PileState, pile_label

SATURATED = (0x7F_FFFF, -0x80_0000)
ZERO_TRACKING = 0.01
"""Share of a settled empty pad's residual weight moved into its zero per sample: absorbs slow drift between
matches. Only residuals under ``empty_g`` (far less than a piggy) are ever tracked away."""


@dataclass(frozen=True, slots=True)
class PileEvent:
    """A change of a pad's state. ``t_us`` is the device time of the sample (or signal) that decided it;
    ``since_us`` is when the evidence began (the pile went still, the hand arrived, the pile started to fall)."""

    pad: int
    state: PileState
    count: int
    grams: float
    t_us: int
    since_us: int
    detail: str = ""

    @property
    def label(self) -> str:
        return pile_label(self.state, self.count)


class PileEstimator:
    """Turns one pad's samples, tilt edges and faults into :class:`PileEvent` changes."""

    def __init__(self, pad: int, profile: CalibrationProfile, calibration: PadCalibration | None = None) -> None:
        self.pad = pad
        self.profile = profile
        self.cal = calibration or profile.pads[min(pad, len(profile.pads) - 1)]
        t = profile.thresholds
        self._settle_us = int(t.settle_ms * 1000)
        self._touch_us = int(t.touch_ms * 1000)
        self._window_us = int(t.topple_window_ms * 1000)
        self._confirm_us = int(t.tilt_confirm_ms * 1000)
        self._fault_us = int(t.fault_timeout_ms * 1000)
        self._ceiling = profile.max_piggies * profile.piggy_g + profile.tolerance_g(profile.max_piggies)
        self.zero_counts = self.cal.offset_counts
        self.state = PileState.FAULT  # nothing is known until readings settle
        self.count = 0
        self.saturated = 0
        self._raw: deque[float] = deque(maxlen=3)
        self._window: deque[tuple[int, float]] = deque()
        self._ref_g = 0.0  # the level of the last stable pile (0 when empty)
        self._at_ref_us = 0  # last time the weight was still at that level
        self._excess_since: int | None = None
        self._tilt_us: int | None = None
        self._drop_since: int | None = None
        self._last_sample_us: int | None = None
        self._last_g = 0.0

    # --- inputs
    def sample(self, t_us: int, raw: int) -> PileEvent | None:
        """One filtered HX711 reading. Saturated readings carry no weight information and are skipped."""
        if raw in SATURATED:
            self.saturated += 1
            return None
        if self._last_sample_us is not None and t_us < self._last_sample_us:
            self._window.clear()  # the device clock went back (a restart): older readings are not comparable
        self._last_sample_us = t_us
        self._raw.append((raw - self.zero_counts) / self.cal.counts_per_gram)
        g = sorted(self._raw)[len(self._raw) // 2] if len(self._raw) == 3 else self._raw[-1]
        self._last_g = g
        window = self._window
        window.append((t_us, g))
        while len(window) > 2 and window[1][0] <= t_us - self._settle_us:
            window.popleft()
        return self._decide(t_us, g)

    def tilt(self, t_us: int, level: int) -> PileEvent | None:
        """The tilt/vibration input went active (level 1) at ``t_us``; it may confirm a drop already seen."""
        if not level:
            return None
        self._tilt_us = t_us
        if self._drop_since is not None and abs(t_us - self._drop_since) <= self._confirm_us:
            return self._toppled(t_us, "drop confirmed by the tilt/vibration sensor")
        return None

    def fault(self, t_us: int, detail: str) -> PileEvent | None:
        """The pad cannot be trusted from ``t_us`` on (HX711 not ready, link lost)."""
        self._window.clear()
        self._raw.clear()
        return self._set(PileState.FAULT, self.count, t_us, t_us, detail)

    def check_silence(self, now_us: int) -> PileEvent | None:
        """Called with the device time of each heartbeat: a pad that stopped sampling becomes a fault."""
        last = self._last_sample_us
        if self.state is not PileState.FAULT and last is not None and now_us - last > self._fault_us:
            return self.fault(now_us, f"no samples for {(now_us - last) / 1000:.0f} ms")
        return None

    def set_zero(self, raw_counts: float) -> PileEvent | None:
        """Tare: ``raw_counts`` is now zero grams, and the pad (checked still by the caller) is empty."""
        self.zero_counts = raw_counts
        self._window.clear()
        self._raw.clear()
        self._ref_g = 0.0
        self._excess_since = None
        self._drop_since = None
        self._last_g = 0.0
        t = self._last_sample_us or 0
        return self._set(PileState.EMPTY, 0, t, t, "tared")

    @property
    def grams(self) -> float:
        return self._last_g

    # --- decisions
    def _settled(self, t_us: int) -> tuple[int, float] | None:
        """(since, mean) if the readings have stayed within the settle band for the settle time."""
        window = self._window
        if window[0][0] > t_us - self._settle_us:
            return None
        values = [g for _, g in window]
        if max(values) - min(values) > self.profile.thresholds.settle_band_g:
            return None
        return window[0][0], sum(values) / len(values)

    def _decide(self, t_us: int, g: float) -> PileEvent | None:
        t = self.profile.thresholds
        if g >= self._ref_g - t.hold_band_g:
            self._at_ref_us = t_us
            self._drop_since = None
        elif self._may_be_falling(t_us):
            # Weight is leaving a pile: hold any other verdict until the topple window has passed.
            return self._check_drop(t_us) if self._ref_g - g >= t.topple_drop_g else None
        settled = self._settled(t_us)
        if settled:
            return self._classify(t_us, *settled)
        if self.state in (PileState.TOPPLED, PileState.FAULT):
            return None
        near_ref = abs(g - self._ref_g) <= t.hold_band_g
        if near_ref and self.state in (PileState.STABLE, PileState.EMPTY, PileState.TOUCHED):
            self._excess_since = None  # bumps and noise on a standing pile; a hand leaving waits to settle
            return None
        if g <= self._ref_g + t.hold_band_g:
            self._excess_since = None
            return self._set(PileState.BUILDING, self.count, t_us, t_us)
        if self._excess_since is None:
            self._excess_since = t_us
        if g > self._ceiling:
            return self._set(PileState.TOUCHED, self.count, t_us, self._excess_since, "more than the pad can hold")
        if t_us - self._excess_since >= self._touch_us and self._moving(t_us):
            return self._set(PileState.TOUCHED, self.count, t_us, self._excess_since, "a hand on the pile")
        if self.state is PileState.TOUCHED:
            return None
        return self._set(PileState.BUILDING, self.count, t_us, t_us)

    def _moving(self, t_us: int) -> bool:
        """Readings still moving over the last fifth of the touch time: a hand trembles, a released piggy is
        still (it is merely not settled for long enough yet)."""
        recent = [g for ts, g in self._window if ts >= t_us - self._touch_us // 5]
        return max(recent) - min(recent) > self.profile.thresholds.settle_band_g

    def _may_be_falling(self, t_us: int) -> bool:
        """A pile of two or more started losing weight less than the topple window ago."""
        return (self._ref_g >= 1.5 * self.profile.piggy_g and self.state is not PileState.TOPPLED
                and t_us - self._at_ref_us <= self._window_us)

    def _check_drop(self, t_us: int) -> PileEvent | None:
        loss = self._ref_g - self._last_g
        if self._drop_since is None:
            self._drop_since = self._at_ref_us
        tilt = self._tilt_us
        if tilt is not None and abs(tilt - self._drop_since) <= self._confirm_us:
            return self._toppled(t_us, "drop confirmed by the tilt/vibration sensor")
        if loss >= self.profile.thresholds.topple_unconfirmed_g:
            return self._toppled(t_us, f"lost {loss:.1f} g at once")
        return None

    def _toppled(self, t_us: int, detail: str) -> PileEvent | None:
        since = self._drop_since if self._drop_since is not None else t_us
        if self._tilt_us is not None and abs(self._tilt_us - since) <= self._confirm_us:
            since = min(since, self._tilt_us)
        self._drop_since = None
        self._ref_g = 0.0
        self._excess_since = None
        self._window.clear()
        return self._set(PileState.TOPPLED, self.count, t_us, since, detail)

    def _classify(self, t_us: int, since: int, mean: float) -> PileEvent | None:
        p = self.profile
        self._excess_since = None
        self._drop_since = None
        if mean <= p.thresholds.empty_g:
            self._ref_g = 0.0
            self.zero_counts += ZERO_TRACKING * mean * self.cal.counts_per_gram
            return self._set(PileState.EMPTY, 0, t_us, since)
        if self.state is PileState.STABLE and abs(mean - self._ref_g) <= p.thresholds.hold_band_g:
            return None  # the same pile, drifting slowly: the count was decided when it became stable
        n = round(mean / p.piggy_g)
        if 1 <= n <= p.max_piggies and abs(mean - n * p.piggy_g) <= p.tolerance_g(n):
            self._ref_g = mean
            return self._set(PileState.STABLE, n, t_us, since)
        return self._set(PileState.TOUCHED, self.count, t_us, since, f"{mean:.1f} g is not a whole number of piggies")

    def _set(self, state: PileState, count: int, t_us: int, since: int, detail: str = "") -> PileEvent | None:
        if state is self.state and count == self.count:
            return None
        self.state, self.count = state, count
        return PileEvent(self.pad, state, count, round(self._last_g, 2), t_us, since, detail)
