"""Pile estimator: raw load-cell counts of one pad → grams → piggy count → pile state with timestamps.

Pure logic driven by device timestamps (µs), so it is tested without serial and replays exactly. States:

- ``empty``: settled at (tared) zero.
- ``building``: weight changing and not (yet) explained: piggies going on or off.
- ``stable(n)``: settled within tolerance of n whole piggies (:meth:`CalibrationProfile.tolerance_g`), over
  readings with no vibration edge among them; a stable pile rides through bumps and noise that stay within
  ``hold_band_g`` while its level stays within :meth:`CalibrationProfile.pile_margin_g` of where it stood.
- ``touched``: weight the piggies do not explain: a standing pile's level off by more than the pile margin for
  ``touch_ms`` (a hand resting on it, or holding it up), above the most the pad can hold, or settled between
  whole counts. The margins are in docs/pads.md.
- ``toppled``: a sudden loss of at least ``topple_drop_g`` from a pile of two or more within
  ``topple_window_ms``, confirmed by the tilt/vibration input within ``tilt_confirm_ms`` or large enough
  (``topple_unconfirmed_g``) to need no confirmation; it holds until the readings settle again.
- ``fault``: the Pico reports the HX711 not ready, no usable samples for ``fault_timeout_ms``, the same raw
  value :data:`FROZEN_READINGS` times in a row (a stuck HX711), or a settled weight below the zero; it holds
  until the readings move and settle again, so nothing is claimed from stale, partial or impossible data.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from companion.devices.calibration import CalibrationProfile, PadCalibration
from companion.table.observations import PileState, pile_label

GLITCHES = (0x7F_FFFF, -0x80_0000, -1)
"""Raw values an HX711 sends when it saturates or glitches (all ones: -1); they carry no weight and are skipped.
The firmware's median replaces isolated ones (``SPIKES`` in firmware/filters.py): both lists are checked against
``glitch_values`` in tests/vectors/protocol.json."""
FROZEN_READINGS = 24
"""A working HX711 never repeats one raw value this many times in a row (0.3 s at 80 samples/s): its noise is
30+ counts rms at gain 128, and even at 10 counts the firmware's median repeated a value at most 11 times in
2 million simulated readings. This many is a stuck chip or a dead data line: a fault."""
ZERO_TRACKING = 0.01
"""Share of a settled pad's residual (from empty, or from its stable pile's level) moved into its zero per
sample: absorbs slow drift. Only residuals under ``empty_g`` or the pile margin are ever tracked away, and
never a reading below zero."""


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
        self._tolerance = [profile.tolerance_g(n) for n in range(profile.max_piggies + 1)]
        self._margin = profile.pile_margin_g()
        self._settle_band = t.settle_band_g
        self._ceiling = profile.max_piggies * profile.piggy_g + self._tolerance[-1]
        self.zero_counts = self.cal.offset_counts
        self.state = PileState.FAULT  # nothing is known until readings settle
        self.count = 0
        self.detail = "no readings yet"  # why the pad is in its state (the last change's detail)
        self.glitches = 0
        self.weighed = False  # whether the last sample was a reading of the pile (not a glitch, not frozen)
        self._last_raw: int | None = None
        self._same_raw = 0  # how many times in a row the last raw value came
        self._glitch_us: int | None = None
        self._vibration_us: int | None = None  # the last edge of the tilt/vibration input
        self._raw: deque[float] = deque(maxlen=3)
        self._window: deque[tuple[int, float]] = deque()
        self._ref_g = 0.0  # the level of the last stable pile (0 when empty)
        self._at_ref_us = 0  # last time the weight was still at that level
        self._excess_since: int | None = None
        self._touched_g: float | None = None  # the level when the pile was last found touched
        self._changed_us = 0  # when the state last changed
        self._tilt_us: int | None = None
        self._drop_since: int | None = None
        self._last_sample_us: int | None = None
        self._last_g = 0.0

    # --- inputs
    def sample(self, t_us: int, raw: int) -> PileEvent | None:
        """One filtered HX711 reading. Glitch values carry no weight and are skipped; a frozen value is a fault."""
        self.weighed = False
        if raw == self._last_raw:
            self._same_raw += 1
        else:
            self._last_raw, self._same_raw = raw, 1
        if self._same_raw >= FROZEN_READINGS:
            if self._same_raw > FROZEN_READINGS:
                return None
            return self.fault(t_us, f"HX711 stuck at raw {raw}: {FROZEN_READINGS} identical readings, a working one "
                                    "always has noise")
        if raw in GLITCHES:
            self.glitches += 1
            self._glitch_us = t_us
            return None
        if self._last_sample_us is not None and t_us < self._last_sample_us:
            # The device clock went back (a restart): older readings and edges are not comparable.
            self._window.clear()
            self._vibration_us = self._tilt_us = self._drop_since = self._excess_since = None
            self._changed_us = self._at_ref_us = 0
        self._last_sample_us = t_us
        self.weighed = self._same_raw < 3
        self._raw.append((raw - self.zero_counts) / self.cal.counts_per_gram)
        g = sorted(self._raw)[len(self._raw) // 2] if len(self._raw) == 3 else self._raw[-1]
        self._last_g = g
        window = self._window
        window.append((t_us, g))
        while len(window) > 2 and window[1][0] <= t_us - self._settle_us:
            window.popleft()
        return self._decide(t_us, g)

    def tilt(self, t_us: int, level: int) -> PileEvent | None:
        """The tilt/vibration input changed at ``t_us``: no new level settles over readings around an edge (a
        knock, a hand on the pad), and going active may confirm a drop already seen."""
        self._vibration_us = t_us if self._vibration_us is None else max(self._vibration_us, t_us)
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
            glitching = self._glitch_us is not None and self._glitch_us > last
            what = f"only glitch values (raw {self._last_raw})" if glitching else "no samples"
            return self.fault(now_us, f"{what} for {(now_us - last) / 1000:.0f} ms")
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

    @property
    def label(self) -> str:
        return pile_label(self.state, self.count)

    # --- decisions
    def _settled(self, t_us: int) -> tuple[int, float] | None:
        """(since, mean) if the readings have stayed within the settle band for the settle time, moving (a
        frozen value is no reading), with no vibration edge among them and, for a pile in motion, all taken
        since the motion began."""
        window = self._window
        start = window[0][0]
        if start > t_us - self._settle_us or self._same_raw >= 3:
            return None
        if self.state is PileState.BUILDING and start < self._changed_us:
            return None  # readings from before the motion began would average it away
        if self._vibration_us is not None and self._vibration_us >= start:
            return None
        values = [g for _, g in window]
        if max(values) - min(values) > self._settle_band:
            return None
        return start, sum(values) / len(values)

    def _decide(self, t_us: int, g: float) -> PileEvent | None:
        t = self.profile.thresholds
        settled = self._settled(t_us)
        if g < -t.hold_band_g:
            # Less than nothing on the pad: no fall does that (a fallen pile leaves an empty pad at worst); a
            # stuck or mis-tared load cell does. Only a settled reading decides (a fault).
            return self._classify(t_us, *settled) if settled else None
        if g >= self._ref_g - t.hold_band_g:
            self._at_ref_us = t_us
            self._drop_since = None
        elif self._may_be_falling(t_us):
            # Weight is leaving a pile: hold any other verdict until the topple window has passed. A fall is
            # believed only from readings that move (a value that repeats may be a chip getting stuck).
            falling = self._ref_g - g >= t.topple_drop_g and self._same_raw < 2
            return self._check_drop(t_us) if falling else None
        if settled:
            return self._classify(t_us, *settled)
        if self.state in (PileState.TOPPLED, PileState.FAULT):
            return None
        off_level = self.state is PileState.STABLE and abs(self._level() - self._ref_g) > self._margin
        near_ref = abs(g - self._ref_g) <= t.hold_band_g and not off_level
        if near_ref and self.state in (PileState.STABLE, PileState.EMPTY, PileState.TOUCHED):
            self._excess_since = None  # bumps and noise on a standing pile; a hand leaving waits to settle
            return None
        if g <= self._ref_g + t.hold_band_g and not off_level:
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

    def _level(self) -> float:
        """The mean of the readings over the settle time: a standing pile's level, noise averaged out."""
        return sum(g for _, g in self._window) / len(self._window)

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
        t = p.thresholds
        self._excess_since = None
        self._drop_since = None
        if mean < -t.empty_g:
            return self._set(PileState.FAULT, self.count, t_us, since,
                             f"reads {mean:.1f} g, below its zero: tared with something on it, or a faulty load "
                             "cell? Empty it and tare again")
        if mean <= t.empty_g:
            self._ref_g = 0.0
            self._track_zero(mean)
            return self._set(PileState.EMPTY, 0, t_us, since)
        off = mean - self._ref_g
        if self.state is PileState.STABLE and abs(off) <= self._margin:
            self._track_zero(off)  # the same pile standing (most readings): its count was decided already
            return None
        n = round(mean / p.piggy_g)
        off_whole = abs(mean - n * p.piggy_g)
        whole = 1 <= n <= p.max_piggies and off_whole <= self._tolerance[n]
        standing = self._ref_g > 0 and n == self.count  # the pile last counted, whatever moved since
        margin = self._margin
        if self.state is PileState.TOUCHED and whole:
            # A hand near the margins must not flicker the pile back: it counts again once its level is well
            # inside them (half), or has dropped by the pile margin since the touch (the hand has gone).
            gone = self._touched_g is not None and mean <= self._touched_g - margin
            inside = (standing and abs(off) <= margin / 2) or off_whole <= self._tolerance[n] / 2
            if not (gone or inside):
                return None
        if whole and standing:
            if abs(off) <= margin:
                self._track_zero(off)
                return self._set(PileState.STABLE, n, t_us, since)  # the same pile (None if it stood all along)
            if off_whole >= abs(self._ref_g - n * p.piggy_g):
                # Further from whole piggies than the pile itself weighed: a hand on it, or holding it up.
                return self._set(PileState.TOUCHED, n, t_us, since, f"{off:+.1f} g off the pile's own weight")
            # Nearer whole piggies than before: a hand that rested on it when it was counted has left.
        if whole:
            self._ref_g = mean
            return self._set(PileState.STABLE, n, t_us, since)
        return self._set(PileState.TOUCHED, self.count, t_us, since, f"{mean:.1f} g is not a whole number of piggies")

    def _track_zero(self, residual_g: float) -> None:
        self.zero_counts += ZERO_TRACKING * residual_g * self.cal.counts_per_gram

    def _set(self, state: PileState, count: int, t_us: int, since: int, detail: str = "") -> PileEvent | None:
        if state is self.state and count == self.count and (state is not PileState.FAULT or detail == self.detail):
            return None
        if state is PileState.TOUCHED:
            self._touched_g = self._level() if self._window else self._last_g
        self._changed_us = t_us
        self.state, self.count, self.detail = state, count, detail
        return PileEvent(self.pad, state, count, round(self._last_g, 2), t_us, since, detail)
