"""The pad calibration profile (``calibration/pads.toml``, format in ``calibration/README.md``).

It holds what a person measured with ``companion calibrate pads`` (zero, counts per gram and noise of each
pad; a piggy's weight and spread) and every threshold the pile estimator uses, written out explicitly so a
referee's decision can always be traced to a number in one file.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any, TypeVar

from companion.games.toml_files import read_toml, write_toml

FORMAT_VERSION = 1
DEFAULT_RATE_SPS = 80  # the firmware's rate at boot; the host leaves it there
MIN_MEAN_NOISE_G = 0.05  # a load cell is never better than this, whatever the measured noise says
T = TypeVar("T")


class ProfileError(ValueError):
    """A calibration profile that cannot be used, with the key that is wrong."""


@dataclass(frozen=True)
class PadCalibration:
    """One pad's load cell: raw counts at empty, counts per gram, and its noise at rest."""

    offset_counts: float
    counts_per_gram: float
    noise_g: float

    def grams(self, raw: float) -> float:
        return (raw - self.offset_counts) / self.counts_per_gram


@dataclass(frozen=True)
class Thresholds:
    """Every number the pile estimator decides with (see calibration/README.md for what each one means)."""

    empty_g: float
    count_sigmas: float
    count_floor_g: float
    settle_ms: float
    settle_band_g: float
    hold_band_g: float
    touch_ms: float
    topple_drop_g: float
    topple_unconfirmed_g: float
    topple_window_ms: float
    tilt_confirm_ms: float
    fault_timeout_ms: float

    @classmethod
    def derive(cls, piggy_g: float, noise_g: float, rate_sps: int = DEFAULT_RATE_SPS) -> Thresholds:
        """Defaults scaled to the measured piggy weight, the noisiest pad and the Pico's sample rate."""
        settle_ms = 300.0
        return cls(
            empty_g=round(0.3 * piggy_g, 2),
            count_sigmas=4.0,
            count_floor_g=round(max(MIN_MEAN_NOISE_G, mean_noise_g(noise_g, settle_ms, rate_sps)), 3),
            settle_ms=settle_ms,
            settle_band_g=round(max(1.0, 5 * noise_g), 2),
            hold_band_g=round(0.4 * piggy_g, 2),
            touch_ms=500.0,
            topple_drop_g=round(0.75 * piggy_g, 2),
            topple_unconfirmed_g=round(1.5 * piggy_g, 2),
            topple_window_ms=150.0,
            tilt_confirm_ms=300.0,
            fault_timeout_ms=250.0,
        )


def mean_noise_g(noise_g: float, settle_ms: float, rate_sps: int) -> float:
    """Standard deviation of the mean of a settle window's readings from a pad with ``noise_g`` of noise. The
    firmware's and the host's medians of 3 leave about one independent reading in three (measured: 0.34 sigma over
    the 24 readings of 300 ms at 80 samples/s)."""
    readings = max(1.0, settle_ms * rate_sps / 1000)
    return noise_g * math.sqrt(min(1.0, 3 / readings))


@dataclass(frozen=True)
class CalibrationProfile:
    piggy_g: float
    piggy_spread_g: float
    max_piggies: int
    pads: tuple[PadCalibration, ...]
    thresholds: Thresholds

    def tolerance_g(self, count: int) -> float:
        """How far a settled weight may sit from ``count`` whole piggies and still be that count: the one
        definition the estimator counts with and the calibration checks. Two independent errors add up: the
        piggies' spread (growing with the square root of the count) and the noise of a settled mean
        (``count_floor_g``, one standard deviation); ``count_sigmas`` of their sum."""
        t = self.thresholds
        return t.count_sigmas * math.sqrt(count * self.piggy_spread_g**2 + t.count_floor_g**2)

    def pile_margin_g(self) -> float:
        """How far two settled readings of the same standing pile may differ: the same piggies, so only the noise
        of two means (``count_sigmas`` * sqrt(2) * ``count_floor_g``). More than that is a hand on it, or lifting it."""
        t = self.thresholds
        return t.count_sigmas * math.sqrt(2) * t.count_floor_g

    def countable(self) -> str | None:
        """Why piggies cannot be counted reliably with this profile, or None if they can: the tolerance the
        estimator uses (:meth:`tolerance_g`) must stay under half a piggy for every count up to the most."""
        worst = self.tolerance_g(self.max_piggies)
        if worst < self.piggy_g / 2:
            return None
        t = self.thresholds
        spread = t.count_sigmas * math.sqrt(self.max_piggies) * self.piggy_spread_g
        noise = t.count_sigmas * t.count_floor_g
        cause = ("piggies too spread to count" if spread >= noise else
                 f"pads too noisy to count (a settled reading wavers by ±{noise:.1f} g)")
        return (f"{cause}: {self.max_piggies} piggies could be off by ±{worst:.1f} g, but one piggy weighs only "
                f"{self.piggy_g:.1f} g: counts would be ambiguous (tolerance must stay under half a piggy)")

    @classmethod
    def default(cls, pads: int) -> CalibrationProfile:
        """A starting point before any calibration: typical piggies and 500 g cells; the offsets come from the
        tare at match start. ``companion calibrate pads`` replaces all of it with measurements."""
        pad = PadCalibration(offset_counts=0.0, counts_per_gram=4300.0, noise_g=0.4)
        return cls(piggy_g=9.0, piggy_spread_g=0.2, max_piggies=8, pads=(pad,) * pads,
                   thresholds=Thresholds.derive(9.0, pad.noise_g))

    def with_pad(self, index: int, pad: PadCalibration) -> CalibrationProfile:
        pads = list(self.pads)
        pads.extend(pads[-1:] * (index + 1 - len(pads)))
        pads[index] = pad
        return replace(self, pads=tuple(pads))

    # --- files
    @classmethod
    def load(cls, path: str | Path) -> CalibrationProfile:
        path = Path(path)
        raw = read_toml(path, ProfileError, "no calibration profile; run `companion calibrate pads`")
        try:
            return cls.from_dict(raw)
        except ProfileError as exc:
            raise ProfileError(f"{path}: {exc}") from None

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> CalibrationProfile:
        if raw.get("version") != FORMAT_VERSION:
            raise ProfileError(f"version must be {FORMAT_VERSION}, got {raw.get('version')!r}")
        piggy = _table(raw, "piggy")
        pads = raw.get("pads")
        if not isinstance(pads, list) or not pads:
            raise ProfileError("[[pads]]: at least one pad is needed")
        profile = cls(
            piggy_g=_number(piggy, "grams", "piggy", positive=True),
            piggy_spread_g=_number(piggy, "spread_g", "piggy"),
            max_piggies=int(_number(piggy, "max_count", "piggy", positive=True)),
            pads=tuple(_fill(PadCalibration, pad, f"pads[{i}]") for i, pad in enumerate(pads)),
            thresholds=_fill(Thresholds, _table(raw, "thresholds"), "thresholds"),
        )
        for i, pad in enumerate(profile.pads):
            if pad.counts_per_gram == 0:
                raise ProfileError(f"pads[{i}].counts_per_gram: must not be 0")
        return profile

    def dumps(self) -> str:
        lines = [
            "# Pad calibration profile: format in calibration/README.md. Written by `companion calibrate pads`.",
            f"version = {FORMAT_VERSION}",
            "",
            "[piggy]",
            f"grams = {self.piggy_g:.3f}",
            f"spread_g = {self.piggy_spread_g:.3f}",
            f"max_count = {self.max_piggies}",
            "",
            "[thresholds]",
            *(f"{k} = {float(v):g}" for k, v in asdict(self.thresholds).items()),
        ]
        for pad in self.pads:
            lines += ["", "[[pads]]", *(f"{k} = {float(v):.4f}" for k, v in asdict(pad).items())]
        return "\n".join(lines) + "\n"

    def save(self, path: str | Path) -> None:
        """Write atomically: a half-written profile must never be what the next start reads."""
        write_toml(path, self.dumps())


def _table(raw: dict[str, Any], name: str) -> dict[str, Any]:
    value = raw.get(name)
    if not isinstance(value, dict):
        raise ProfileError(f"[{name}]: missing section")
    return value


def _number(table: dict[str, Any], key: str, where: str, positive: bool = False) -> float:
    value = table.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ProfileError(f"{where}.{key}: expected a number, got {value!r}")
    if value < 0 or (positive and value == 0):
        raise ProfileError(f"{where}.{key}: must be {'above' if positive else 'at least'} 0, got {value!r}")
    return float(value)


def _fill(cls: type[T], table: dict[str, Any], where: str) -> T:
    names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    unknown = set(table) - names
    if unknown:
        raise ProfileError(f"{where}.{sorted(unknown)[0]}: unknown key; known keys: {', '.join(sorted(names))}")
    values = {}
    for name in names:
        value = table.get(name)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ProfileError(f"{where}.{name}: expected a number, got {value!r}")
        values[name] = float(value)
    return cls(**values)
