"""The PigzUp! match judge: pad readings and button presses in, a verdict with its reason out.

Rulebook: "As soon as you have put your last piggy up, put your hands in the air and shout 'PIGZUP!'... if your
pile stays up, you win the match... if your pile topples over after you shout, your opponent wins."

A shout is valid when the shouter's pad reads ``stable(n)`` with exactly the race's n piggies. The pile must
then stand for the hold time; the verdict comes with the first steady reading of that pad at or after the end of
the hold, so a slow tick can never hand a win to a pile that fell in time, and a pile still in motion is judged
only once it has settled or fallen. Everything is pure: the same inputs
(a recorded trace) always give the same verdicts. Rulings PZ-4 to PZ-8 are in ``docs/rulings.md``.

The trace of a race keeps what the judge saw, for a referee to check a verdict (``companion judge --trace``):
every reading of the racers' pads with its weight, the shouts, and as evidence beside them the instruments'
context (versions, calibration, thresholds, the tare), the vibration inputs and the buttons' raw edges. It is
kept in memory and written once, when the race ends (``docs/events.md``, "Race traces").
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from companion.games.pigzup.actions import MatchVerdict
from companion.table.observations import ButtonPress, PadReading, PileState, pile_label


class FalseShout(StrEnum):
    """What a shout with the wrong pile does (Ruling PZ-4)."""

    LOSES = "loses"  # the shouter loses the match at once
    IGNORED = "ignored"  # the shout is announced and ignored; the race goes on


@dataclass(frozen=True)
class JudgeSettings:
    """``[judge]``: the hold time, the false-shout ruling and how long a race may last without a valid shout.

    1.5 s of hold: a pile of wooden piggies that falls does so within about a second of the last piggy's release
    (its wobble); longer only slows the game, shorter lets a wobbling pile win.
    """

    hold_seconds: float = 1.5
    false_shout: str = "loses"
    race_timeout_seconds: float = 60.0

    def __post_init__(self) -> None:
        if self.hold_seconds <= 0 or self.race_timeout_seconds <= 0:
            raise ValueError("hold_seconds and race_timeout_seconds must be positive")
        if self.false_shout not in set(FalseShout):
            raise ValueError(f"false_shout must be one of {', '.join(FalseShout)}, not {self.false_shout!r}")


MAX_TRACE_ENTRIES = 12_000
"""A race's trace keeps every reading for 75 s of two pads at 80 samples/s (longer than the default 60 s race
timeout; about 1.1 MB at 95 bytes a reading; a typical 5 s race is 70 KB). Beyond that it keeps only what the
judge needs to give the same verdict again: the changes of state, the holder's readings and the shouts."""

EVIDENCE = ("context", "tare", "vibration", "edge")
"""Trace entries the judge does not decide with: kept for the referee, ignored by a replay."""


class VerdictCode(StrEnum):
    """Why a race ended, as a code a script or a test can check (the sentence says it to people)."""

    STOOD = "stood"  # the shouter's pile stood for the hold time
    FALSE_SHOUT = "false-shout"  # Ruling PZ-4: a shout with the wrong pile loses
    TOPPLED = "toppled"  # the holder's pile fell during the hold
    TOUCHED = "touched"  # a hand on the holder's pile during the hold
    TAKEN_DOWN = "taken-down"  # the holder's pad went empty during the hold
    CHANGED = "changed"  # the holder's pile settled at another count during the hold
    BOTH_DOWN = "both-down"  # the holder's pile fell with the other's already down: void
    TIMEOUT = "timeout"  # Ruling PZ-6: nobody finished in time: void
    PAD_FAULT = "pad-fault"  # a racer's pad failed: the referee decides


@dataclass(frozen=True)
class Notice:
    """Something to announce at the table (LEDs, buzzer, status page): a call, a shout, a warning."""

    kind: str  # "match", "hold", "false-shout", "ignored-shout", "no-match"
    text: str
    seats: tuple[int, ...]
    t: float


@dataclass(frozen=True)
class Verdict:
    """How a race ended. ``referee_needed``: the judge cannot decide (a pad fault) and says so instead."""

    winner: int | None
    reason: str
    t: float
    reaction_ms: int | None = None
    stacking_ms: int | None = None
    referee_needed: bool = False
    code: VerdictCode | None = None

    def action(self) -> MatchVerdict:
        return MatchVerdict(self.winner, self.reason, self.reaction_ms, self.stacking_ms)

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "reason": self.reason,
            "t": self.t,
            "reaction_ms": self.reaction_ms,
            "stacking_ms": self.stacking_ms,
            "referee_needed": self.referee_needed,
            "code": None if self.code is None else self.code.value,
        }


Output = Notice | Verdict


@dataclass
class _Race:
    racers: tuple[int, int]
    piggies: int
    called: float
    lifted: dict[int, float] = field(default_factory=dict)  # when each racer's pad first left empty
    holder: int | None = None
    shout: float = 0.0
    deadline: float = 0.0


class MatchJudge:
    """Judges one race at a time for a table of ``players`` (seat i owns pad i and button i)."""

    def __init__(self, settings: JudgeSettings, players: Sequence[str]) -> None:
        self.settings = settings
        self.players = tuple(players)
        self.race: _Race | None = None
        self.pads: dict[int, tuple[PileState, int]] = {}
        self.trace: list[dict[str, Any]] = []  # what the judge saw of the current race (``companion judge``)
        self._warned: set[int] = set()
        self._kept = 0  # readings kept in the trace of the current race

    # ----------------------------------------------------------------------------------- inputs
    def call(self, racers: tuple[int, int], piggies: int, t: float) -> list[Output]:
        """The rules called a match: ``racers`` race for ``piggies`` piggies from time ``t``."""
        self.race = _Race(racers, piggies, t)
        self._warned.clear()
        self._kept = 0
        before = {str(seat): [state.value, count] for seat, (state, count) in self.pads.items() if seat in racers}
        self.trace = [{"kind": "call", "t": t, "racers": list(racers), "piggies": piggies,
                       "players": list(self.players), "settings": vars(self.settings), "pads": before}]
        for seat in racers:
            state, _ = self.pads.get(seat, (PileState.EMPTY, 0))
            if state is not PileState.EMPTY:
                self.race.lifted[seat] = t
        a, b = (self.players[s] for s in racers)
        return [Notice("match", f"MATCH! {a} vs {b}: {piggies} piggies!", racers, t)]

    def reading(self, r: PadReading) -> list[Output]:
        """A pad's state at a sample (sent for every sample: it is also how the judge sees time pass)."""
        previous = self.pads.get(r.seat, (PileState.EMPTY, 0))
        self.pads[r.seat] = (r.state, r.count)
        race = self.race
        if race is None or r.seat not in race.racers:
            return self._idle_pad(r, previous[0])
        self._record_reading(r, needed=(r.state, r.count) != previous or race.holder == r.seat)
        if r.state is not PileState.EMPTY:
            race.lifted.setdefault(r.seat, r.t)
        if r.state is PileState.FAULT:
            return self._end(Verdict(None, f"{self.players[r.seat]}'s pad failed ({r.detail or 'no readings'}): "
                                     "the referee decides.", r.t, referee_needed=True, code=VerdictCode.PAD_FAULT))
        if race.holder != r.seat or r.state is PileState.BUILDING:
            return []  # a pile in motion (a knock, or the start of a fall) is judged once it settles or falls
        if r.state is PileState.STABLE and r.count == race.piggies:
            if r.t < race.deadline:
                return []
            # The first steady reading at or after the end of the hold: the pile stood for all of it.
            return self._end(self._win(race.holder, f"{self.players[race.holder]}'s pile of {race.piggies} stood "
                                       f"{self.settings.hold_seconds:g} s after the shout.", r.t, VerdictCode.STOOD))
        return self._end(self._holder_failed(race, r))

    def press(self, p: ButtonPress) -> list[Output]:
        """A "PIGZUP!" button press."""
        race, name = self.race, self.players[p.seat] if p.seat < len(self.players) else f"seat {p.seat}"
        if race is None:
            # Ruling PZ-8: a shout with no match called.
            return [Notice("no-match", f"No match — piggies back! ({name} shouted with no match called.)",
                           (p.seat,), p.t)]
        self._record({"kind": "press", "t": p.t, "seat": p.seat})
        if p.seat not in race.racers:
            # Ruling PZ-7: bystanders' shouts change nothing.
            return [Notice("ignored-shout", f"{name} is not in this race: shout ignored.", (p.seat,), p.t)]
        if race.holder is not None:
            return []  # the first valid shout is being held; a later one cannot overtake it
        state, count = self.pads.get(p.seat, (PileState.EMPTY, 0))
        if state is PileState.STABLE and count == race.piggies:
            race.holder, race.shout, race.deadline = p.seat, p.t, p.t + self.settings.hold_seconds
            return [Notice("hold", f"{name}: PIGZUP! {count} piggies — hold {self.settings.hold_seconds:g} s!",
                           (p.seat,), p.t)]
        why = self._not_ready(state, count, race.piggies)
        if self.settings.false_shout == FalseShout.IGNORED:
            return [Notice("false-shout", f"False shout by {name}: {why}. Keep stacking!", (p.seat,), p.t)]
        other = self._other(race, p.seat)
        return self._end(self._win(other, f"False shout by {name}: {why}.", p.t, VerdictCode.FALSE_SHOUT,
                                   shouted=False))

    def tick(self, t: float) -> list[Output]:
        """Host-clock tick: ends a race nobody finished (Ruling PZ-6)."""
        race = self.race
        if race is None or race.holder is not None or t - race.called < self.settings.race_timeout_seconds:
            return []
        self._record({"kind": "tick", "t": t})
        timeout = self.settings.race_timeout_seconds
        return self._end(Verdict(None, f"Nobody finished within {timeout:g} s: void match.", t,
                                 code=VerdictCode.TIMEOUT))

    def cancel(self, t: float) -> bool:
        """The referee took the race over (overrule, or a verdict entered by hand); whether a race was open."""
        open_race = self.race is not None
        if open_race:
            self._record({"kind": "referee", "t": t})
        self.race = None
        return open_race

    def note(self, entry: dict[str, Any]) -> None:
        """Evidence for the current race's trace (one of :data:`EVIDENCE`); nothing the judge decides with."""
        if self.race is not None and entry.get("kind") in EVIDENCE and self._room():
            self._record(entry)

    # ----------------------------------------------------------------------------------- decisions
    def _idle_pad(self, r: PadReading, before: PileState) -> list[Output]:
        """Ruling PZ-8: piggies going up with no match called get a warning, once until the pad is empty."""
        if r.state is PileState.EMPTY:
            self._warned.discard(r.seat)
            return []
        started = before is PileState.EMPTY and r.state is not PileState.FAULT
        if started and self.race is None and r.seat not in self._warned:
            self._warned.add(r.seat)
            return [Notice("no-match", "No match — piggies back!", (r.seat,), r.t)]
        return []

    def _holder_failed(self, race: _Race, r: PadReading) -> Verdict:
        assert race.holder is not None
        name, other = self.players[race.holder], self._other(race, race.holder)
        after = r.t - race.shout
        what, code = {
            PileState.TOPPLED: ("toppled", VerdictCode.TOPPLED),
            PileState.TOUCHED: ("was touched", VerdictCode.TOUCHED),
            PileState.EMPTY: ("was taken down", VerdictCode.TAKEN_DOWN),
        }.get(r.state, (f"changed to {pile_label(r.state, r.count)}", VerdictCode.CHANGED))
        reason = f"{name}'s pile {what} {after:.2f} s after the shout"
        other_state, _ = self.pads.get(other, (PileState.EMPTY, 0))
        if other_state is PileState.TOPPLED:
            return Verdict(None, f"{reason}, and {self.players[other]}'s pile is down too: void match.", r.t,
                           code=VerdictCode.BOTH_DOWN)
        # "if your pile topples over after you shout 'PIGZUP!', your opponent wins."
        return self._win(other, f"{reason}.", r.t, code, shouted=False)

    def _win(self, seat: int, reason: str, t: float, code: VerdictCode, shouted: bool = True) -> Verdict:
        race = self.race
        assert race is not None
        if not shouted:
            return Verdict(seat, reason, t, code=code)
        reaction = round((race.shout - race.called) * 1000)
        lifted = race.lifted.get(seat)
        stacking = round((race.shout - lifted) * 1000) if lifted is not None else None
        return Verdict(seat, reason, t, reaction_ms=reaction, stacking_ms=stacking, code=code)

    @staticmethod
    def _not_ready(state: PileState, count: int, piggies: int) -> str:
        if state is PileState.STABLE:
            return f"{count} {'piggy' if count == 1 else 'piggies'} on the pad, {piggies} needed"
        return {
            PileState.EMPTY: "the pad is empty",
            PileState.BUILDING: "the pile is still moving",
            PileState.TOUCHED: "a hand is on the pile",
            PileState.TOPPLED: "the pile has toppled",
            PileState.FAULT: "the pad is not working",
        }[state]

    @staticmethod
    def _other(race: _Race, seat: int) -> int:
        return race.racers[1] if seat == race.racers[0] else race.racers[0]

    def _end(self, verdict: Verdict) -> list[Output]:
        self._record({"kind": "verdict", **verdict.to_json()})
        self.race = None
        return [verdict]

    def _record(self, entry: dict[str, Any]) -> None:
        self.trace.append(entry)

    def _room(self) -> bool:
        """Whether the trace may keep one more reading or piece of evidence; says so once when it is full."""
        self._kept += 1
        if self._kept == MAX_TRACE_ENTRIES + 1:
            self._record({"kind": "full", "t": self.trace[-1]["t"]})
        return self._kept <= MAX_TRACE_ENTRIES

    def _record_reading(self, r: PadReading, needed: bool) -> None:
        """Every reading while there is room; past that only the ``needed`` ones (a change, the holder's pad)."""
        if self._room() or needed:
            entry: dict[str, Any] = {"kind": "pad", "t": r.t, "seat": r.seat, "state": r.state.value,
                                     "count": r.count}
            if r.grams is not None:
                entry["g"] = r.grams
            if r.detail:
                entry["detail"] = r.detail
            self._record(entry)


@dataclass(frozen=True)
class Overrides:
    """What-ifs for a replay: another hold time or false-shout ruling than the race was judged with."""

    hold_seconds: float | None = None
    false_shout: str | None = None

    def apply(self, recorded: dict[str, Any]) -> JudgeSettings:
        settings = JudgeSettings(**recorded)
        if self.hold_seconds is not None:
            settings = replace(settings, hold_seconds=self.hold_seconds)
        if self.false_shout is not None:
            settings = replace(settings, false_shout=self.false_shout)
        return settings


def replay_steps(entries: Iterable[dict[str, Any]], overrides: Overrides | None = None
                 ) -> Iterator[tuple[dict[str, Any], list[Output], MatchJudge]]:
    """Run a recorded trace through a fresh judge, one entry at a time: the entry, what the judge made of it now
    (notices, a verdict) and the judge after it. Evidence and the recorded verdict are passed through unjudged."""
    judge: MatchJudge | None = None
    for entry in entries:
        kind, t = entry["kind"], float(entry["t"])
        if kind == "call":
            judge = MatchJudge((overrides or Overrides()).apply(entry["settings"]), entry["players"])
            for seat, (state, count) in entry.get("pads", {}).items():
                judge.pads[int(seat)] = (PileState(state), int(count))
            outputs = judge.call(tuple(entry["racers"]), int(entry["piggies"]), t)
        elif judge is None:
            raise ValueError("a trace must start with its match call")
        elif kind == "pad":
            reading = PadReading(int(entry["seat"]), PileState(entry["state"]), int(entry["count"]), t,
                                 entry.get("detail", ""), entry.get("g"))
            outputs = judge.reading(reading)
        elif kind == "press":
            outputs = judge.press(ButtonPress(int(entry["seat"]), t))
        elif kind == "tick":
            outputs = judge.tick(t)
        elif kind == "referee":
            judge.cancel(t)
            outputs = []
        else:
            outputs = []  # evidence, or the recorded verdict: what we compare against, not an input
        yield entry, outputs, judge


def replay_trace(entries: Iterable[dict[str, Any]], overrides: Overrides | None = None) -> list[Verdict]:
    """The verdicts a fresh judge gives a recorded trace now (``companion judge --trace``)."""
    return [o for _entry, outputs, _judge in replay_steps(entries, overrides) for o in outputs
            if isinstance(o, Verdict)]


def read_trace(lines: Iterable[str]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in lines if line.strip()]
