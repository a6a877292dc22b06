"""A recorded PigzUp! race told step by step (``companion judge --trace FILE --explain``): what the pads read,
who shouted, what the judge made of it, and the verdict with its reason code, for a referee checking a call."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion.table.observations import PileState, pile_label
from companion.table.pigzup_judge import FalseShout, MatchJudge, Notice, Output, Overrides, Verdict, replay_steps


@dataclass(frozen=True)
class Step:
    """One thing that happened, ``t`` seconds after the match was called."""

    t: float
    text: str

    def __str__(self) -> str:
        return f"{self.t:+8.3f} s  {self.text}"


def explain(entries: Iterable[dict[str, Any]], overrides: Overrides | None = None) -> list[Step]:
    """The race in ``entries`` as steps; pad readings are told only when a pad's state changes."""
    steps: list[Step] = []
    called = t = 0.0
    shown: dict[int, tuple[str, int]] = {}
    judge: MatchJudge | None = None
    for entry, outputs, judge in replay_steps(entries, overrides):
        if entry["kind"] == "call":
            called = float(entry["t"])
        t = float(entry["t"]) - called
        text = _entry_text(entry, judge, shown)
        if text:
            steps.append(Step(t, text))
        steps.extend(Step(t, _output_text(o, judge)) for o in outputs)
    if judge is not None and judge.race is not None:
        steps.append(Step(t, "The trace ends here, the race undecided: the judge would still be waiting."))
    return steps


def _name(judge: MatchJudge, seat: int) -> str:
    return judge.players[seat] if 0 <= seat < len(judge.players) else f"seat {seat + 1}"


def _entry_text(entry: dict[str, Any], judge: MatchJudge, shown: dict[int, tuple[str, int]]) -> str | None:
    kind = entry["kind"]
    if kind == "call":
        s = judge.settings
        a, b = (_name(judge, seat) for seat in entry["racers"])
        rule = "loses the match" if s.false_shout == FalseShout.LOSES else "is ignored"
        return (f"Match called: {a} vs {b} for {entry['piggies']} piggies (hold {s.hold_seconds:g} s; a false "
                f"shout {rule}; void after {s.race_timeout_seconds:g} s).")
    if kind == "context":
        return _context_text(entry, judge)
    if kind == "tare":
        if entry.get("refused"):
            return f"No tare: {entry['refused']}."
        zeros = ", ".join(f"{_name(judge, int(seat))}'s at {zero:g} counts" for seat, zero in entry["zeros"].items())
        return f"Pads tared: {zeros}."
    if kind == "pad":
        return _pad_text(entry, judge, shown)
    if kind == "vibration":
        return f"{_name(judge, entry['seat'])}'s vibration sensor {'fired' if entry['level'] else 'went quiet'}."
    if kind == "edge":
        what = "down" if entry["down"] else "up"
        taken = "" if entry["taken"] else " (contact chatter: ignored by the debounce)"
        return f"{_name(judge, entry['seat'])}'s button {what}{taken}."
    if kind == "press":
        return f"{_name(judge, entry['seat'])} shouts PIGZUP!"
    if kind == "tick" and judge.race is None:
        return "Time is up."
    if kind == "referee":
        return "The referee took the race over: no verdict from the judge."
    if kind == "full":
        return "The trace is full: from here it keeps only changes of state and the holder's pad."
    return None  # the recorded verdict is compared, not told


def _pad_text(entry: dict[str, Any], judge: MatchJudge, shown: dict[int, tuple[str, int]]) -> str | None:
    seat, state, count = int(entry["seat"]), str(entry["state"]), int(entry["count"])
    if shown.get(seat) == (state, count):
        return None
    shown[seat] = (state, count)
    weight = f", {entry['g']:.1f} g" if entry.get("g") is not None else ""
    detail = f" ({entry['detail']})" if entry.get("detail") else ""
    return f"{_name(judge, seat)}'s pad: {pile_label(PileState(state), count)}{weight}{detail}."


def _context_text(entry: dict[str, Any], judge: MatchJudge) -> str:
    t = entry.get("thresholds", {})
    racers = judge.race.racers if judge.race is not None else ()
    calibrations = entry.get("pads", [])
    pads = "; ".join(f"{_name(judge, seat)}'s pad {calibrations[seat].get('counts_per_gram', 0):g} counts/g, "
                     f"noise {calibrations[seat].get('noise_g', 0):g} g"
                     for seat in racers if seat < len(calibrations))
    limits = (f"a topple is a drop of {t['topple_drop_g']:g} g within {t['topple_window_ms']:g} ms"
              if "topple_drop_g" in t and "topple_window_ms" in t else "no thresholds recorded")
    return (f"Instruments: host {entry.get('host')}, firmware {entry.get('firmware') or 'unknown'}; a piggy "
            f"weighs {entry.get('piggy_g', 0):g} g; {pads or 'no pad calibration recorded'}; {limits}.")


def _output_text(output: Output, judge: MatchJudge) -> str:
    if isinstance(output, Notice):
        return f"  -> {output.text}"
    return "  -> " + verdict_line(output, judge.players)


def verdict_line(verdict: Verdict, players: tuple[str, ...]) -> str:
    """``Ben wins [toppled]: Ann's pile toppled 0.40 s after the shout.``: the winner first, then the code."""
    if verdict.referee_needed:
        who = "The referee decides"
    elif verdict.winner is None:
        who = "Void match"
    else:
        who = f"{players[verdict.winner]} wins"
    code = verdict.code.value if verdict.code else "no code"
    return f"{who} [{code}]: {verdict.reason}"
