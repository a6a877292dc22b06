"""The match judge on its own (pure inputs); the same scenarios through the serial link are in tests/devices."""

from __future__ import annotations

import pytest

from companion.table.observations import ButtonPress, PadReading, PileState
from companion.table.pigzup_judge import JudgeSettings, MatchJudge, Notice, Verdict, replay_trace

ANN, BEN, CAT = range(3)
S, B, T, H, E, F = (PileState.STABLE, PileState.BUILDING, PileState.TOPPLED, PileState.TOUCHED, PileState.EMPTY,
                    PileState.FAULT)
SAMPLE = 1 / 80


def judge(**settings) -> MatchJudge:
    return MatchJudge(JudgeSettings(**settings), ("Ann", "Ben", "Cat"))


def pad(j: MatchJudge, seat: int, state: PileState, count: int, start: float, end: float) -> list:
    """Readings of one pad at 80 samples/s from ``start`` up to ``end``."""
    out, t = [], start
    while t < end - 1e-9:
        out += j.reading(PadReading(seat, state, count, round(t, 6)))
        t += SAMPLE
    return out


def verdicts(outputs) -> list[Verdict]:
    return [o for o in outputs if isinstance(o, Verdict)]


def test_clean_win_after_the_hold_time():
    j = judge()
    j.call((ANN, BEN), 3, t=10.0)
    pad(j, ANN, B, 0, 10.5, 12.0)
    pad(j, ANN, S, 3, 12.0, 12.3)
    assert [n.kind for n in j.press(ButtonPress(ANN, 12.3)) if isinstance(n, Notice)] == ["hold"]
    out = pad(j, ANN, S, 3, 12.3, 14.0)
    (v,) = verdicts(out)
    assert v.winner == ANN and v.reason == "Ann's pile of 3 stood 1.5 s after the shout."
    assert 13.8 <= v.t < 13.8 + SAMPLE  # decided by the first reading after the hold
    assert (v.reaction_ms, v.stacking_ms) == (2300, 1800)
    assert v.action().to_json() == {"type": "verdict", "winner": 0, "reason": v.reason, "reaction_ms": 2300,
                                    "stacking_ms": 1800}
    assert j.race is None


def test_topple_inside_the_hold_gives_the_match_to_the_opponent():
    j = judge()
    j.call((ANN, BEN), 3, t=0.0)
    pad(j, ANN, S, 3, 1.0, 1.2)
    j.press(ButtonPress(ANN, 1.2))
    pad(j, ANN, S, 3, 1.2, 1.6)
    (v,) = verdicts(pad(j, ANN, T, 3, 1.6, 1.7))
    assert v.winner == BEN and v.reason == "Ann's pile toppled 0.40 s after the shout."
    assert v.reaction_ms is None  # Ben never shouted


def test_a_pile_in_motion_is_judged_once_it_settles_or_falls():
    j = judge()
    j.call((ANN, BEN), 3, t=0.0)
    pad(j, ANN, S, 3, 1.0, 1.2)
    j.press(ButtonPress(ANN, 1.2))
    assert verdicts(pad(j, ANN, B, 3, 1.5, 1.6)) == []  # a knock: the weight moves
    assert verdicts(pad(j, ANN, S, 3, 1.6, 2.0)) == []  # ... and settles again
    (v,) = verdicts(pad(j, ANN, B, 3, 2.6, 2.8) + pad(j, ANN, T, 3, 2.8, 2.9))  # moving at the deadline, then down
    assert v.winner == BEN and "toppled" in v.reason


def test_topple_just_after_the_hold_does_not_matter():
    j = judge()
    j.call((ANN, BEN), 2, t=0.0)
    pad(j, ANN, S, 2, 1.0, 1.2)
    j.press(ButtonPress(ANN, 1.2))
    (v,) = verdicts(pad(j, ANN, S, 2, 1.2, 2.8))
    assert v.winner == ANN
    assert verdicts(pad(j, ANN, T, 2, 2.8, 2.9)) == []  # the race is over


def test_early_shout_with_one_piggy_short_loses_by_default():
    j = judge()
    j.call((ANN, BEN), 4, t=0.0)
    pad(j, BEN, S, 3, 1.0, 1.1)
    (v,) = verdicts(j.press(ButtonPress(BEN, 1.1)))
    assert v.winner == ANN and v.reason == "False shout by Ben: 3 piggies on the pad, 4 needed."


def test_false_shout_can_be_ignored_by_house_rule():
    j = judge(false_shout="ignored")
    j.call((ANN, BEN), 4, t=0.0)
    pad(j, BEN, S, 3, 1.0, 1.1)
    (notice,) = j.press(ButtonPress(BEN, 1.1))
    assert notice.kind == "false-shout" and "Keep stacking" in notice.text
    pad(j, BEN, S, 4, 1.2, 1.3)
    j.press(ButtonPress(BEN, 1.3))
    assert verdicts(pad(j, BEN, S, 4, 1.3, 3.0))[0].winner == BEN


def test_shout_with_a_hand_on_the_pile_is_false():
    j = judge()
    j.call((ANN, BEN), 3, t=0.0)
    pad(j, ANN, H, 3, 1.0, 1.1)
    (v,) = verdicts(j.press(ButtonPress(ANN, 1.1)))
    assert v.winner == BEN and v.reason == "False shout by Ann: a hand is on the pile."


def test_touching_the_pile_during_the_hold_loses():
    j = judge()
    j.call((ANN, BEN), 3, t=0.0)
    pad(j, ANN, S, 3, 1.0, 1.1)
    j.press(ButtonPress(ANN, 1.1))
    (v,) = verdicts(pad(j, ANN, H, 3, 1.5, 1.6))
    assert v.winner == BEN and "was touched" in v.reason


def test_both_shout_five_ms_apart_the_first_valid_shout_is_held():
    j = judge()
    j.call((ANN, BEN), 2, t=0.0)
    pad(j, ANN, S, 2, 1.0, 1.2)
    pad(j, BEN, S, 2, 1.0, 1.2)
    j.press(ButtonPress(BEN, 1.200))
    assert j.press(ButtonPress(ANN, 1.205)) == []
    out = pad(j, ANN, S, 2, 1.2, 3.0) + pad(j, BEN, S, 2, 1.2, 3.0)
    (v,) = verdicts(out)
    assert v.winner == BEN


def test_both_piles_down_is_a_void_match():
    j = judge()
    j.call((ANN, BEN), 3, t=0.0)
    pad(j, BEN, T, 2, 0.5, 0.6)
    pad(j, ANN, S, 3, 1.0, 1.1)
    j.press(ButtonPress(ANN, 1.1))
    (v,) = verdicts(pad(j, ANN, T, 3, 1.3, 1.4))
    assert v.winner is None and v.reason.endswith("Ben's pile is down too: void match.")


def test_pad_fault_mid_match_leaves_the_verdict_to_the_referee():
    j = judge()
    j.call((ANN, BEN), 3, t=0.0)
    pad(j, ANN, B, 1, 0.5, 0.6)
    (v,) = verdicts(j.reading(PadReading(BEN, F, 0, 0.7, "HX711 not ready")))
    assert v.referee_needed and v.winner is None
    assert v.reason == "Ben's pad failed (HX711 not ready): the referee decides."


def test_non_player_shout_is_ignored():
    j = judge()
    j.call((ANN, BEN), 3, t=0.0)
    (notice,) = j.press(ButtonPress(CAT, 0.5))
    assert notice.kind == "ignored-shout" and j.race is not None


def test_no_match_called_piggies_back():
    j = judge()
    (notice,) = j.press(ButtonPress(CAT, 0.5))
    assert notice.text.startswith("No match — piggies back!")
    (warning,) = pad(j, BEN, B, 0, 1.0, 1.02)
    assert warning.text == "No match — piggies back!"
    assert pad(j, BEN, S, 1, 1.1, 1.5) == []  # said once, until the pad is empty again
    pad(j, BEN, E, 0, 2.0, 2.1)
    assert len(pad(j, BEN, B, 0, 3.0, 3.02)) == 1


def test_a_race_nobody_finishes_is_void_after_the_timeout():
    j = judge(race_timeout_seconds=30)
    j.call((ANN, BEN), 4, t=0.0)
    assert j.tick(29.9) == []
    (v,) = verdicts(j.tick(30.0))
    assert v.winner is None and v.reason == "Nobody finished within 30 s: void match."


@pytest.mark.parametrize(("key", "value"), [("hold_seconds", 0), ("false_shout", "maybe")])
def test_bad_judge_settings_are_refused(key, value):
    with pytest.raises(ValueError, match=key):
        JudgeSettings(**{key: value})


def test_a_recorded_trace_replays_to_the_same_verdict():
    j = judge()
    j.call((ANN, BEN), 3, t=0.0)
    pad(j, ANN, B, 1, 0.3, 0.8)
    pad(j, ANN, S, 3, 0.8, 1.0)
    pad(j, BEN, S, 2, 0.8, 1.0)
    j.press(ButtonPress(CAT, 0.9))
    j.press(ButtonPress(ANN, 1.0))
    pad(j, ANN, S, 3, 1.0, 1.3)
    live = verdicts(pad(j, ANN, T, 3, 1.3, 1.4))
    assert replay_trace(j.trace) == live
    assert j.trace[-1]["kind"] == "verdict" and j.trace[-1]["winner"] == BEN
