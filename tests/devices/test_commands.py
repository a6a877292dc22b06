"""``companion pads`` and ``companion calibrate pads`` end to end, against the emulator behind a real pty."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion import cli
from companion.devices import commands
from companion.devices import protocol as p
from companion.devices.calibrate import ReadingTap
from companion.devices.calibration import CalibrationProfile
from companion.sim.pads import PadPhysics
from companion.sim.pico import SimulatedPico

pytestmark = pytest.mark.timeout(60)
PROFILE = Path(__file__).parents[2] / "calibration" / "pads.toml"


def config_file(tmp_path: Path, port: str = "sim", calibration: Path = PROFILE) -> str:
    path = tmp_path / "companion.toml"
    path.write_text(f'[serial]\nport = "{port}"\ncalibration = "{calibration}"\n')
    return str(path)


class ScriptedStdin:
    """Answers each prompt with Enter after doing what the person at the table would have done."""

    def __init__(self, actions: list[Callable[[], object]]) -> None:
        self.actions = list(actions)

    def readline(self) -> str:
        if not self.actions:
            return ""  # end of input: the person walked away
        self.actions.pop(0)()
        return "\n"


@pytest.fixture
def running_pico() -> Iterator[SimulatedPico]:
    with SimulatedPico(pads=2, seed=5, realtime=True, speed=4.0) as pico:
        yield pico


def test_pads_shows_live_states_and_ends(tmp_path: Path, running_pico: SimulatedPico, capsys) -> None:
    running_pico.pads[0].place(3)
    assert cli.main(["-c", config_file(tmp_path), "pads", "--seconds", "1.0"]) == 0
    out = capsys.readouterr().out
    assert "pad 1  stable(3)" in out
    table = out.splitlines()[-3:]
    assert table[0].split()[:2] == ["1", "stable(3)"] and table[1].split()[:2] == ["2", "empty"]
    assert "connected" in table[2] and "0 bad" in table[2]


def test_pads_once_starts_its_own_emulator_for_sim(tmp_path: Path, capsys) -> None:
    assert SimulatedPico.current() is None
    assert cli.main(["-c", config_file(tmp_path), "pads", "--once"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[1] for line in lines[-7:-1]] == ["empty"] * 6
    assert SimulatedPico.current() is None  # and closed it again


def test_pads_demo_plays_the_emulated_players(tmp_path: Path, capsys) -> None:
    assert cli.main(["-c", config_file(tmp_path), "pads", "--demo", "--seconds", "1.5"]) == 0
    assert "pad 1  building" in capsys.readouterr().out


def test_pads_with_tare(tmp_path: Path, running_pico: SimulatedPico, capsys) -> None:
    assert cli.main(["-c", config_file(tmp_path), "pads", "--tare", "--seconds", "0.5"]) == 0
    assert "tared 2 pads" in capsys.readouterr().out


def test_pads_without_a_profile_says_how_to_make_one(tmp_path: Path, capsys) -> None:
    assert cli.main(["-c", config_file(tmp_path, calibration=tmp_path / "none.toml"), "pads", "--once"]) == 2
    assert "companion calibrate pads" in capsys.readouterr().err


def test_pads_without_a_pico_explains(tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(commands, "CONNECT_TIMEOUT_S", 0.3)
    assert cli.main(["-c", config_file(tmp_path, port="/dev/ttyNOPICO"), "pads", "--once"]) == 1
    assert "cannot reach the Pico on /dev/ttyNOPICO" in capsys.readouterr().err


def calibrate(tmp_path: Path, pico: SimulatedPico, actions: list[Callable[[], object]],
              monkeypatch: pytest.MonkeyPatch, *extra: str) -> tuple[int, Path]:
    out = tmp_path / "pads.toml"
    monkeypatch.setattr(sys, "stdin", ScriptedStdin(actions))
    rc = cli.main(["-c", config_file(tmp_path), "calibrate", "pads", "--pad", "1", "--samples", "40",
                   "--output", str(out), *extra])
    return rc, out


def weigh_steps(pico: SimulatedPico, reference_g: float, piggies: list[float]) -> list[Callable[[], object]]:
    pad = pico.pads[0]

    def put(grams: float) -> Callable[[], object]:
        return lambda: (pad.clear(), pad.place(grams=grams))

    return [pad.clear, put(reference_g), *[put(g) for g in piggies]]


def test_calibrate_pads_writes_a_profile_from_scripted_weighings(
    tmp_path: Path, running_pico: SimulatedPico, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    piggies = [9.1, 8.8, 9.0, 9.2, 8.9]
    steps = weigh_steps(running_pico, 200.0, piggies)
    rc, out = calibrate(tmp_path, running_pico, steps, monkeypatch, "--reference-grams", "200",
                        "--piggies", str(len(piggies)))
    assert rc == 0, capsys.readouterr().err
    profile = CalibrationProfile.load(out)
    assert profile.pads[0].counts_per_gram == pytest.approx(4300, rel=0.01)
    assert profile.pads[0].offset_counts == pytest.approx(52_000, abs=0.3 * 4300)
    # Each weighing is the mean of 40 readings with the pad's 0.4 g of noise (0.063 g): the empty pad's error moves
    # every piggy alike, the piggies' own errors average over five. Four standard deviations, whichever readings
    # the busy machine's timing picked.
    weighing_sd = PadPhysics().noise_g / math.sqrt(40)
    assert profile.piggy_g == pytest.approx(9.0, abs=4 * weighing_sd * math.sqrt(1 + 1 / len(piggies)))
    assert profile.piggy_spread_g == pytest.approx(0.158, abs=0.08)
    assert profile.thresholds.topple_drop_g == pytest.approx(0.75 * profile.piggy_g, abs=0.01)
    printed = capsys.readouterr().out
    assert "100%" in printed and f"wrote {out}" in printed


def test_calibrate_refuses_a_load_cell_wired_backwards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    with SimulatedPico(pads=1, realtime=True, speed=4.0, physics=PadPhysics(counts_per_gram=-4300)) as pico:
        rc, out = calibrate(tmp_path, pico, weigh_steps(pico, 100.0, [9.0, 9.0]), monkeypatch, "--piggies", "2")
    assert rc == 1 and not out.exists()
    err = capsys.readouterr().err
    assert "lower with the 100 g weight" in err and "swap its A+ and A-" in err and "Nothing was written" in err


def test_calibrate_refuses_piggies_too_spread_to_count(
    tmp_path: Path, running_pico: SimulatedPico, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    piggies = [7.2, 10.8, 7.5, 10.6, 7.3, 10.9]
    rc, out = calibrate(tmp_path, running_pico, weigh_steps(running_pico, 100.0, piggies), monkeypatch,
                        "--piggies", str(len(piggies)))
    assert rc == 1 and not out.exists()
    assert "too spread to count" in capsys.readouterr().err


def test_calibrate_refuses_a_reference_that_was_not_put_on(
    tmp_path: Path, running_pico: SimulatedPico, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    pad = running_pico.pads[0]
    rc, out = calibrate(tmp_path, running_pico, [pad.clear, pad.clear], monkeypatch, "--piggies", "2")
    assert rc == 1 and not out.exists()
    assert "barely changed" in capsys.readouterr().err


def test_calibrate_abandoned_at_a_prompt_writes_nothing(
    tmp_path: Path, running_pico: SimulatedPico, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    rc, out = calibrate(tmp_path, running_pico, [running_pico.pads[0].clear], monkeypatch)
    assert rc == 1 and not out.exists()
    assert "abandoned" in capsys.readouterr().err


def test_calibrate_against_its_own_emulator_is_helped_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    monkeypatch.setattr(sys, "stdin", ScriptedStdin([lambda: None] * 5))
    out = tmp_path / "pads.toml"
    rc = cli.main(["-c", config_file(tmp_path), "calibrate", "pads", "--pad", "2", "--samples", "10",
                   "--settle", "0.45", "--piggies", "3", "--output", str(out)])
    assert rc == 0, capsys.readouterr().err
    profile = CalibrationProfile.load(out)
    assert profile.pads[1].counts_per_gram == pytest.approx(4300, rel=0.03)
    assert profile.piggy_g == pytest.approx(9.0, abs=1.0)


def test_readings_on_their_way_before_enter_are_not_counted() -> None:
    # A busy Pi reads the serial port late: readings the Pico took before Enter was pressed (the pad still empty)
    # arrive after it. The collection starts at the Pico's answer to a ping sent when Enter was pressed.
    tap = ReadingTap()
    tap.start(pad=0, wanted=2, settle_s=0.001, after_token=7)
    for t_us, raw in [(0, 100), (10_000, 101)]:
        tap(p.Sample(0, 0, t_us, raw, 0), t_us, 0.0)
    tap(p.Pong(0, 1, 6), None, 0.0)  # another ping's answer
    tap(p.Sample(0, 0, 20_000, 102, 0), 20_000, 0.0)
    tap(p.Pong(0, 2, 7), None, 0.0)
    for t_us, raw in [(30_000, 900), (30_500, 901), (40_000, 902), (50_000, 903)]:
        tap(p.Sample(0, 0, t_us, raw, 0), t_us, 0.0)
    assert tap.values == [902, 903] and tap.done.is_set()  # after the pong, and the settle time after that
