"""PigzUp! race traces (issue 17): what keeping every reading costs the judge, how big a trace grows, and how
long the race's picture takes to draw (the status page draws it on request). Prints figures; not a test.

    .venv/bin/python benchmarks/bench_race_trace.py
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

from companion.table.observations import ButtonPress, PadReading, PileState
from companion.table.pigzup_judge import MAX_TRACE_ENTRIES, JudgeSettings, MatchJudge
from companion.table.race_plot import png
from companion.table.race_story import explain

RATE = 80  # samples a second per pad
FIXTURE = Path(__file__).parents[1] / "tests" / "table" / "fixtures" / "race-stood.jsonl"
RUNS = 5


def race(seconds: float) -> MatchJudge:
    """Two pads stacking for ``seconds``, then a shout and a hold: every reading goes through the judge."""
    judge = MatchJudge(JudgeSettings(race_timeout_seconds=600), ("Ann", "Ben"))
    judge.call((0, 1), 3, 0.0)
    samples = int(seconds * RATE)
    for i in range(samples):
        t = i / RATE
        for seat in (0, 1):
            state, count = (PileState.STABLE, 3) if i > samples - RATE else (PileState.BUILDING, 1)
            judge.reading(PadReading(seat, state, count, t + seat / 1000, grams=9.0 * count + (i % 5) / 10))
    judge.press(ButtonPress(0, seconds))
    for i in range(2 * RATE):
        judge.reading(PadReading(0, PileState.STABLE, 3, seconds + i / RATE, grams=27.1))
    return judge


def median_s(work) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    for seconds in (5, 30, 90):
        judge = race(seconds)
        size = len("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in judge.trace).encode())
        per_reading_us = median_s(lambda s=seconds: race(s)) / (2 * seconds * RATE + 2 * RATE) * 1e6
        print(f"{seconds:3d} s race: {len(judge.trace):6d} entries, {size / 1000:7.1f} kB written once at its end, "
              f"judge {per_reading_us:5.1f} µs a reading (median of {RUNS})")
    print(f"bound: {MAX_TRACE_ENTRIES} readings kept in full, then changes of state only")
    recorded = [json.loads(line) for line in FIXTURE.read_text().splitlines()]
    longest = race(MAX_TRACE_ENTRIES / (2 * RATE)).trace
    for name, entries in (("recorded 3 s race", recorded), ("race at the bound", longest)):
        print(f"{name}: picture {median_s(lambda e=entries: png(e)) * 1000:6.0f} ms, "
              f"--explain {median_s(lambda e=entries: explain(e)) * 1000:6.0f} ms (medians of {RUNS})")


if __name__ == "__main__":
    main()
