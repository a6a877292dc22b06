"""``companion judge --trace FILE`` on a race recorded by the simulated table (the real pads through the emulated
Pico): reason codes, what-ifs (``--hold``, ``--false-shout``), ``--explain`` step by step and ``--plot``."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.table.observations import ButtonPress, PadReading, PileState
from companion.table.pigzup_judge import JudgeSettings, MatchJudge
from companion.table.race_plot import HEIGHT, PAD_COLOURS, VERDICT_RED, WIDTH

# Ben and Ann race for 3 piggies (hold 0.6 s); Ben shouts at +2.567 s, Ann a moment later, Ann's pile topples
# during Ben's hold (her vibration sensor fires), Ben's pile stands: Ben wins.
STOOD = Path(__file__).parents[1] / "table" / "fixtures" / "race-stood.jsonl"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_verdict_comes_with_its_reason_code_and_matches_the_recorded_one(capsys):
    code, out, _ = run(capsys, "judge", "--trace", str(STOOD))
    report = json.loads(out)
    assert code == 0 and report["same"] and report["overrides"] == {}
    (verdict,) = report["verdicts"]
    assert (verdict["winner"], verdict["code"]) == (1, "stood")
    assert verdict["reason"] == "Ben's pile of 3 stood 0.6 s after the shout."


def test_explain_tells_the_race_step_by_step(capsys):
    code, out, _ = run(capsys, "judge", "--trace", str(STOOD), "--explain")
    lines = out.splitlines()
    assert code == 0
    assert lines[0].endswith("Match called: Ben vs Ann for 3 piggies (hold 0.6 s; a false shout loses the match; "
                             "void after 60 s).")
    expected_in_order = [
        "Instruments: host ",
        "Pads tared: Ben's at 51851 counts, Ann's at 51615 counts.",
        "Ben's pad: stable(3), 27.1 g.",
        "Ben's button down.",
        "Ben shouts PIGZUP!",
        "-> Ben: PIGZUP! 3 piggies",
        "Ann shouts PIGZUP!",
        "Ann's vibration sensor fired.",
        "Ann's pad: toppled, 18.4 g (drop confirmed by the tilt/vibration sensor).",
        "-> Ben wins [stood]: Ben's pile of 3 stood 0.6 s after the shout.",
        "Recorded: the same verdict.",
    ]
    found = [next(i for i, line in enumerate(lines) if part in line) for part in expected_in_order]
    assert found == sorted(found)
    assert "+2.567 s  Ben shouts PIGZUP!" in out  # times are seconds since the call


def test_a_longer_hold_leaves_the_race_undecided_and_says_so(capsys):
    code, out, _ = run(capsys, "judge", "--trace", str(STOOD), "--hold", "3")
    report = json.loads(out)
    assert code == 1 and report["verdicts"] == [] and report["overrides"] == {"hold_seconds": 3.0}
    code, out, _ = run(capsys, "judge", "--trace", str(STOOD), "--hold", "3", "--explain")
    assert "The trace ends here, the race undecided" in out and "not what the judge gives" in out


def test_a_shorter_hold_decides_sooner_for_the_same_winner(capsys):
    _, out, _ = run(capsys, "judge", "--trace", str(STOOD))
    recorded = json.loads(out)["verdicts"][0]
    _, out, _ = run(capsys, "judge", "--trace", str(STOOD), "--hold", "0.3")
    (verdict,) = json.loads(out)["verdicts"]
    assert verdict["winner"] == 1 and verdict["code"] == "stood" and verdict["t"] < recorded["t"] - 0.25


def test_the_false_shout_ruling_can_be_replayed_the_other_way(capsys, tmp_path):
    judge = MatchJudge(JudgeSettings(), ("Ann", "Ben"))
    judge.call((0, 1), 3, 0.0)
    judge.reading(PadReading(1, PileState.STABLE, 2, 1.0, grams=18.2))
    judge.press(ButtonPress(1, 1.1))  # one piggy short: Ben loses at once (Ruling PZ-4)
    path = tmp_path / "false.jsonl"
    path.write_text("\n".join(json.dumps(e) for e in judge.trace), encoding="utf-8")
    _, out, _ = run(capsys, "judge", "--trace", str(path))
    assert json.loads(out)["verdicts"][0]["code"] == "false-shout"
    code, out, _ = run(capsys, "judge", "--trace", str(path), "--false-shout", "ignored", "--explain")
    assert code == 1
    assert "-> False shout by Ben: 2 piggies on the pad, 3 needed. Keep stacking!" in out
    assert "race undecided" in out


def test_plot_draws_both_pads_the_hold_and_the_verdict(capsys, tmp_path):
    out_png = tmp_path / "race.png"
    code, _, _ = run(capsys, "judge", "--trace", str(STOOD), "--plot", str(out_png))
    assert code == 0
    image = cv2.imread(str(out_png))
    assert image.shape == (HEIGHT, WIDTH, 3)

    def pixels(colour: tuple[int, int, int]) -> int:
        return int(np.all(np.abs(image.astype(int) - colour) < 30, axis=2).sum())

    assert pixels(PAD_COLOURS[0]) > 500 and pixels(PAD_COLOURS[1]) > 500  # both pads' weight lines
    assert pixels(VERDICT_RED) > 100  # the verdict's line and words
    assert pixels((200, 235, 200)) > 5000  # the shaded hold


@pytest.mark.parametrize(("argv", "message"), [
    (["--hold", "0"], "a hold time is a number of seconds above 0, not '0'"),
    (["--hold", "nan"], "a hold time is a number of seconds above 0, not 'nan'"),
    (["--false-shout", "maybe"], "invalid choice: 'maybe'"),
])
def test_bad_what_ifs_are_refused_in_words(capsys, argv, message):
    with pytest.raises(SystemExit) as exit_info:
        main(["judge", "--trace", str(STOOD), *argv])
    assert exit_info.value.code == 2 and message in capsys.readouterr().err


def test_a_trace_without_weights_has_nothing_to_plot(capsys, tmp_path):
    judge = MatchJudge(JudgeSettings(), ("Ann", "Ben"))
    judge.call((0, 1), 2, 0.0)
    judge.press(ButtonPress(1, 1.0))
    path = tmp_path / "old.jsonl"
    path.write_text("\n".join(json.dumps(e) for e in judge.trace), encoding="utf-8")
    code, out, err = run(capsys, "judge", "--trace", str(path), "--plot", str(tmp_path / "x.png"))
    assert code == 2 and out == "" and "nothing to plot" in err and "holds no pad weights" in err
    assert not (tmp_path / "x.png").exists()


def test_a_plot_that_cannot_be_written_is_one_line(capsys, tmp_path):
    code, _, err = run(capsys, "judge", "--trace", str(STOOD), "--plot", str(tmp_path / "no" / "such" / "x.png"))
    assert code == 2 and err.startswith("companion judge: cannot write ") and err.count("\n") == 1
