"""The pile estimator and the calibration profile as pure logic: no serial, synthetic readings."""

from __future__ import annotations

import json
import random
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from companion.devices.calibration import CalibrationProfile, ProfileError
from companion.devices.pile import GLITCHES, PileEstimator, PileState

PROFILE_PATH = Path(__file__).parents[2] / "calibration" / "pads.toml"
PROFILE = CalibrationProfile.load(PROFILE_PATH)
CAL = PROFILE.pads[0]
PERIOD = 12_500
VECTORS = json.loads((Path(__file__).parents[1] / "vectors" / "protocol.json").read_text())


def feed(est: PileEstimator, grams: float, seconds: float, start: int, noise_g: float = 0.1,
         rng: random.Random | None = None) -> tuple[int, list]:
    """Readings of a still weight with the pad's noise (a real HX711 never repeats itself for long)."""
    rng = rng or random.Random(start)
    events = []
    t = start
    for _ in range(int(seconds * 80)):
        t += PERIOD
        event = est.sample(t, round(CAL.offset_counts + (grams + rng.gauss(0.0, noise_g)) * CAL.counts_per_gram))
        if event:
            events.append(event)
    return t, events


def stuck(est: PileEstimator, raw: int, seconds: float, start: int) -> tuple[int, list]:
    events = []
    t = start
    for _ in range(int(seconds * 80)):
        t += PERIOD
        event = est.sample(t, raw)
        if event:
            events.append(event)
    return t, events


def built(n: int) -> tuple[PileEstimator, int]:
    est = PileEstimator(0, PROFILE)
    t, _ = feed(est, 0.0, 0.5, 0)
    for k in range(1, n + 1):
        t, _ = feed(est, k * PROFILE.piggy_g, 0.5, t)
    assert est.label == f"stable({n})"
    return est, t


def test_a_weight_between_whole_piggies_is_touched() -> None:
    est = PileEstimator(0, PROFILE)
    _, events = feed(est, 2.5 * PROFILE.piggy_g, 1.0, 0)
    assert [e.label for e in events][-1] == "touched"
    assert "not a whole number" in events[-1].detail


def test_more_than_the_pad_can_hold_is_touched_at_once() -> None:
    est = PileEstimator(0, PROFILE)
    t, _ = feed(est, 0.0, 0.5, 0)
    t, events = feed(est, 500.0, 0.05, t)
    assert [e.label for e in events][-1] == "touched"
    assert events[-1].detail == "more than the pad can hold"


def test_glitch_values_are_skipped_not_weighed() -> None:
    est = PileEstimator(0, PROFILE)
    t, _ = feed(est, 0.0, 0.5, 0)
    for i, raw in enumerate((0x7F_FFFF, -0x80_0000, -1)):
        assert est.sample(t + (i + 1) * PERIOD, raw) is None
    assert est.glitches == 3 and est.state is PileState.EMPTY and abs(est.grams) < 1.0


def test_the_host_and_the_firmware_skip_the_same_glitch_values() -> None:
    assert sorted(GLITCHES) == sorted(VECTORS["glitch_values"]["values"])


@pytest.mark.parametrize("raw", [-1, 0, round(CAL.offset_counts + 3.0 * CAL.counts_per_gram)],
                         ids=["all-ones", "zero", "a small weight"])
def test_a_stuck_hx711_under_a_pile_is_a_fault_not_a_topple(raw: int) -> None:
    est, start = built(3)
    zero = est.zero_counts
    _, events = stuck(est, raw, 3.0, start)
    assert [e.label for e in events] in (["fault"], ["building", "fault"])
    assert f"HX711 stuck at raw {raw}" in events[-1].detail
    assert est.zero_counts == pytest.approx(zero, abs=0.1 * CAL.counts_per_gram)  # it did not follow the pad down
    assert events[-1].t_us - start <= 310_000  # 24 identical readings: 0.3 s at 80 samples/s


def test_a_stuck_pad_recovers_once_its_readings_move_and_settle_again() -> None:
    est, t = built(2)
    t, _ = stuck(est, -1, 1.0, t)
    assert est.state is PileState.FAULT
    t, events = feed(est, 2 * PROFILE.piggy_g, 1.0, t)
    assert [e.label for e in events] == ["stable(2)"]


def test_readings_far_below_the_zero_are_a_fault_and_the_zero_does_not_follow() -> None:
    est = PileEstimator(0, PROFILE)
    t, _ = feed(est, 0.0, 0.5, 0)
    est.set_zero(CAL.offset_counts + PROFILE.piggy_g * CAL.counts_per_gram)  # tared with a piggy left on
    zero = est.zero_counts
    t, events = feed(est, 0.0, 2.0, t)
    assert [e.label for e in events] == ["fault"]
    assert "below its zero" in events[0].detail
    assert est.zero_counts == pytest.approx(zero, abs=0.1 * CAL.counts_per_gram)


def test_silence_becomes_a_fault() -> None:
    est = PileEstimator(0, PROFILE)
    t, _ = feed(est, 0.0, 0.5, 0)
    assert est.check_silence(t + 200_000) is None
    event = est.check_silence(t + 300_000)
    assert event is not None and event.state is PileState.FAULT and "no samples" in event.detail


def test_the_profile_round_trips_and_the_default_can_count() -> None:
    assert CalibrationProfile.from_dict(tomllib.loads(PROFILE.dumps())) == PROFILE
    assert PROFILE.countable() is None


def test_too_spread_piggies_are_refused_with_a_reason() -> None:
    spread = replace(PROFILE, piggy_spread_g=1.5)
    assert "ambiguous" in (spread.countable() or "")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("version = 2", "version must be 1"),
        ("version = 1\n[piggy]\ngrams = 9\nspread_g = 0.3\nmax_count = 8\n", "[[pads]]"),
        (PROFILE_PATH.read_text().replace("grams = 9.000", "grams = -9"), "piggy.grams"),
        (PROFILE_PATH.read_text().replace("settle_ms", "settle_sm"), "unknown key"),
        (PROFILE_PATH.read_text().replace("counts_per_gram = 4300.0000", "counts_per_gram = 0", 1), "must not be 0"),
        ("version = [", "not valid TOML"),
    ],
)
def test_a_bad_profile_names_what_is_wrong(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "pads.toml"
    path.write_text(text)
    with pytest.raises(ProfileError, match=message.replace("[", r"\[")):
        CalibrationProfile.load(path)


def test_a_missing_profile_says_how_to_make_one(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="companion calibrate pads"):
        CalibrationProfile.load(tmp_path / "nope.toml")


def test_a_restarted_device_clock_forgets_old_vibration_edges() -> None:
    est = PileEstimator(0, PROFILE)
    t, _ = feed(est, 0.0, 0.5, 50_000_000)
    est.tilt(t, 1)
    est.tilt(t + 60_000, 0)
    est.fault(t + 70_000, "Pico restarted")
    _, events = feed(est, 0.0, 0.5, 0)  # the Pico's clock starts again from 0
    assert [e.label for e in events] == ["empty"]


def test_a_pad_sending_only_glitch_values_is_a_fault_that_says_so() -> None:
    est = PileEstimator(0, PROFILE)
    t, _ = feed(est, 0.0, 0.5, 0)
    for i in range(24):  # alternating: never frozen, never weighed
        est.sample(t + (i + 1) * PERIOD, (0x7F_FFFF, -1)[i % 2])
    event = est.check_silence(t + 25 * PERIOD)
    assert event is not None and event.state is PileState.FAULT
    assert event.detail.startswith("only glitch values (raw -1) for 3")
