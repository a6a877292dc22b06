"""A recorded PigzUp! race as a picture: both racers' pad weights over time, with the call, the shouts, the
hold and the verdict marked (``companion judge --plot`` and the status page's link from each verdict).

Drawn with OpenCV, which the table already depends on: a chart this plain does not earn matplotlib's weight on
a Pi. Text is written as ASCII, which every OpenCV's ``putText`` draws (other letters of a name come out as
``?``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.table.pigzup_judge import MatchJudge, Notice, Overrides, Verdict, replay_steps
from companion.table.race_story import verdict_line

WIDTH, HEIGHT = 1000, 540
LEFT, RIGHT, TOP, BOTTOM = 70, 20, 70, 60
INK, GRID, PAPER = (40, 40, 40), (225, 225, 225), (255, 255, 255)
PAD_COLOURS = ((190, 100, 20), (20, 120, 230))  # BGR: blue for the first racer, orange for the second
HOLD_SHADE, VERDICT_RED = (200, 235, 200), (30, 30, 200)
FONT = cv2.FONT_HERSHEY_SIMPLEX


class NothingToDraw(ValueError):
    """A trace with no weights in it (written before traces kept them, or a race with no readings)."""


@dataclass
class RaceChart:
    """What the picture shows, in seconds since the call and grams."""

    title: str
    names: tuple[str, str]
    weights: tuple[list[tuple[float, float]], list[tuple[float, float]]]
    shouts: list[tuple[float, int, str]] = field(default_factory=list)  # (t, racer 0/1, how the judge took it)
    holds: list[tuple[float, float]] = field(default_factory=list)
    verdict: tuple[float, str] | None = None
    piggy_g: float | None = None
    piggies: int = 0


def chart(entries: Iterable[dict[str, Any]], overrides: Overrides | None = None) -> RaceChart:
    """Replay the trace (with any what-ifs) and collect what the picture marks."""
    result: RaceChart | None = None
    judge: MatchJudge | None = None
    called = 0.0
    for entry, outputs, judge in replay_steps(entries, overrides):
        kind, t = entry["kind"], float(entry["t"])
        if kind == "call":
            called, racers = t, tuple(entry["racers"])
            names = tuple(judge.players[s] for s in racers)
            title = f"{names[0]} vs {names[1]}: {entry['piggies']} piggies, hold {judge.settings.hold_seconds:g} s"
            result = RaceChart(title, names, ([], []), piggies=int(entry["piggies"]))  # type: ignore[arg-type]
        assert result is not None and judge is not None
        rel = t - called
        if kind == "context" and entry.get("piggy_g"):
            result.piggy_g = float(entry["piggy_g"])
        elif kind == "pad" and entry.get("g") is not None and int(entry["seat"]) in racers:
            result.weights[racers.index(int(entry["seat"]))].append((rel, float(entry["g"])))
        elif kind == "press" and int(entry["seat"]) in racers:
            taken = _shout(outputs)
            result.shouts.append((rel, racers.index(int(entry["seat"])), taken))
            if taken == "":
                result.holds.append((rel, rel + judge.settings.hold_seconds))
        for verdict in (o for o in outputs if isinstance(o, Verdict)):
            result.verdict = (float(verdict.t) - called, verdict_line(verdict, judge.players))
    if result is None:
        raise NothingToDraw("it has no match call")
    if not any(result.weights):
        raise NothingToDraw("it holds no pad weights to draw (traces written before weights were kept)")
    return result


def _shout(outputs: list[Any]) -> str:
    """How the judge took a shout, as its label says it: "" (held), " (false)", or " (late)" (one was held)."""
    if any(isinstance(o, Notice) and o.kind == "hold" for o in outputs):
        return ""
    if any(isinstance(o, Verdict) or (isinstance(o, Notice) and o.kind == "false-shout") for o in outputs):
        return " (false)"
    return " (late)"


def _ticks(low: float, high: float, most: int = 8) -> list[float]:
    """Round-numbered ticks (1, 2 or 5 times a power of ten apart) covering ``low``..``high``."""
    span = max(high - low, 1e-9)
    raw = span / most
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(low / step) * step
    return [round(first + i * step, 9) for i in range(int((high - first) / step) + 1)]


def draw(race: RaceChart) -> np.ndarray:
    """The chart as a BGR image."""
    img = np.full((HEIGHT, WIDTH, 3), PAPER, np.uint8)
    points = [p for series in race.weights for p in series]
    ends = [t for t, _ in points] + [t for t, _, _ in race.shouts] + [end for _, end in race.holds]
    t0, t1 = min(0.0, *ends), max(ends) + 0.2
    if race.verdict:
        t1 = max(t1, race.verdict[0] + 0.2)
    top_g = max([g for _, g in points] + [(race.piggy_g or 0) * race.piggies]) * 1.1 or 1.0
    g0, g1 = min(0.0, *(g for _, g in points)), top_g

    def x(t: float) -> int:
        return int(LEFT + (t - t0) / (t1 - t0) * (WIDTH - LEFT - RIGHT))

    def y(g: float) -> int:
        return int(HEIGHT - BOTTOM - (g - g0) / (g1 - g0) * (HEIGHT - TOP - BOTTOM))

    for start, end in race.holds:
        cv2.rectangle(img, (x(start), TOP), (x(end), HEIGHT - BOTTOM), HOLD_SHADE, -1)
        cv2.putText(img, "hold", (x(start) + 4, TOP + 16), FONT, 0.45, (40, 120, 40), 1, cv2.LINE_AA)
    for t in _ticks(t0, t1):
        cv2.line(img, (x(t), TOP), (x(t), HEIGHT - BOTTOM), GRID, 1)
        cv2.putText(img, f"{t:g}", (x(t) - 10, HEIGHT - BOTTOM + 18), FONT, 0.42, INK, 1, cv2.LINE_AA)
    for g in _ticks(g0, g1, 6):
        cv2.line(img, (LEFT, y(g)), (WIDTH - RIGHT, y(g)), GRID, 1)
        cv2.putText(img, f"{g:g}", (8, y(g) + 5), FONT, 0.42, INK, 1, cv2.LINE_AA)
    if race.piggy_g:
        for n in range(1, race.piggies + 1):  # where n piggies weigh: what the pad counts against
            gy = y(n * race.piggy_g)
            for gx in range(LEFT, WIDTH - RIGHT, 12):
                cv2.line(img, (gx, gy), (gx + 5, gy), (170, 170, 170), 1)
    cv2.rectangle(img, (LEFT, TOP), (WIDTH - RIGHT, HEIGHT - BOTTOM), INK, 1)
    cv2.putText(img, "seconds since the match call", (WIDTH // 2 - 120, HEIGHT - 18), FONT, 0.5, INK, 1, cv2.LINE_AA)
    cv2.putText(img, "grams", (8, TOP - 10), FONT, 0.5, INK, 1, cv2.LINE_AA)
    _marker(img, x(0.0), "call", INK, 0)
    for series, colour in zip(race.weights, PAD_COLOURS, strict=True):
        if series:
            line = np.array([(x(t), y(g)) for t, g in series], np.int32)
            cv2.polylines(img, [line], False, colour, 2, cv2.LINE_AA)
    for row, (t, racer, taken) in enumerate(race.shouts, start=1):
        _marker(img, x(t), f"PIGZUP! {race.names[racer]}{taken}", PAD_COLOURS[racer], row)
    if race.verdict:
        _marker(img, x(race.verdict[0]), "verdict", VERDICT_RED, len(race.shouts) + 1)
        cv2.putText(img, _ascii(race.verdict[1])[:110], (LEFT, 52), FONT, 0.5, VERDICT_RED, 1, cv2.LINE_AA)
    cv2.putText(img, _ascii(race.title), (LEFT, 26), FONT, 0.65, INK, 2, cv2.LINE_AA)
    for i, (name, colour) in enumerate(zip(race.names, PAD_COLOURS, strict=True)):  # the key, above the plot
        cv2.line(img, (WIDTH - 230, 16 + 20 * i), (WIDTH - 200, 16 + 20 * i), colour, 3)
        cv2.putText(img, _ascii(f"{name}'s pad"), (WIDTH - 192, 21 + 20 * i), FONT, 0.5, INK, 1, cv2.LINE_AA)
    return img


def _marker(img: np.ndarray, at: int, label: str, colour: tuple[int, int, int], row: int) -> None:
    """A dashed vertical line across the plot, its label near the foot (one row up per marker, so that marks
    close together stay readable)."""
    for gy in range(TOP, HEIGHT - BOTTOM, 10):
        cv2.line(img, (at, gy), (at, min(gy + 6, HEIGHT - BOTTOM)), colour, 2)
    foot = HEIGHT - BOTTOM - 8 - 18 * (row % 8)
    cv2.putText(img, _ascii(label), (at + 4, foot), FONT, 0.45, colour, 1, cv2.LINE_AA)


def _ascii(text: str) -> str:
    return text.replace("\u2014", "-").encode("ascii", "replace").decode("ascii")


def png(entries: Iterable[dict[str, Any]], overrides: Overrides | None = None) -> bytes:
    """The race's picture as PNG bytes (OpenCV's default compression: 6x faster than the most, 15% larger)."""
    ok, data = cv2.imencode(".png", draw(chart(entries, overrides)))
    if not ok:
        raise RuntimeError("OpenCV could not encode the race's picture")
    return data.tobytes()
