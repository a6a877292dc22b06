"""Charts drawn on the Pi as small SVGs (no script, no asset from elsewhere): a glance says more than a table.

``GET /charts/<game_id>.svg`` — Corgi Pileup and Squirrels: each player's score at the end of every round;
PigzUp!: each player's matches won and lost, and the reaction time of every match they won. Other games have
no chart (404). A chart for a given ``seq`` never changes, so the page asks for ``?seq=N`` and it is cached.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Any

from flask import Blueprint, Response, abort

from companion.games.base import RuleViolation
from companion.table.replay import fold
from companion.web.context import web
from companion.web.history import logged_game

bp = Blueprint("charts", __name__, url_prefix="/charts")

# The scoreboard column each game's score is in, charted round by round.
SCORE_COLUMNS = {"corgi-pileup": "Score", "squirrels": "Total"}
REACTION_GAMES = ("pigzup",)
CHARTED = (*SCORE_COLUMNS, *REACTION_GAMES)
INKS = ("#0b5cad", "#d1362f", "#2e9e4f", "#e3b505", "#7e4bc2", "#2aa198")  # one per seat; readable light or dark
WIDTH, ROW = 360, 26
INK = "#333"  # text and axes, on the chart's own light card (an image does not follow the page's dark mode)
FONT = 'font-family="sans-serif" font-size="12"'  # text is INK unless a fill is given


def scores_by_round(events: Sequence[Any], column: str) -> tuple[list[str], list[list[float]]]:
    """The players, and per player their score as each round ended (the round in play counts as it stands)."""
    rounds: dict[int, list[float]] = {}
    playing: list[int] = []  # the round in play after the last move

    def record(ruleset: Any, state: Any) -> None:
        board = ruleset.scoreboard(state)
        if column not in board.columns or not isinstance(getattr(state, "round", None), int):
            return
        i = board.columns.index(column)
        scores = [row.cells[i] if isinstance(row.cells[i], int | float) else 0 for row in board.rows]
        if playing and playing[-1] != state.round:
            rounds[playing[-1]] = scores  # the move that ended a round scored it (a game may count on at once)
        playing[:] = [state.round]
        rounds[state.round] = scores

    folded = fold(events, after=record)
    series = [rounds[r] for r in sorted(rounds) if r > 0]
    return list(folded.setup.players), [[scores[p] for scores in series] for p in range(len(folded.setup.players))]


def line_chart(title: str, names: Sequence[str], series: Sequence[Sequence[float]]) -> str:
    """One line per player over rounds 1..n, the last value labelled with the name."""
    n = max((len(s) for s in series), default=0)
    top = max([1.0, *(v for s in series for v in s)])
    left, right, upper, lower = 28, WIDTH - 90, 24, 160

    def x(i: int) -> float:
        return left + (right - left) * (i / (n - 1) if n > 1 else 0.5)

    def y(v: float) -> float:
        return lower - (lower - upper) * v / top

    parts = [f'<text x="6" y="14" {FONT} font-weight="bold">{escape(title)}</text>',
             f'<line x1="{left}" y1="{lower}" x2="{right}" y2="{lower}" stroke="{INK}" opacity="0.4"/>',
             f'<text x="{left - 4}" y="{upper + 4}" {FONT} text-anchor="end">{top:g}</text>',
             f'<text x="{left - 4}" y="{lower + 4}" {FONT} text-anchor="end">0</text>']
    parts += [f'<text x="{x(i):.1f}" y="{lower + 16}" {FONT} text-anchor="middle">R{i + 1}</text>' for i in range(n)]
    label_y = -100.0
    ranked = sorted(range(len(names)), key=lambda seat: -(series[seat][-1] if series[seat] else 0))
    for seat in ranked:  # names at the end of their lines, top to bottom, never on top of each other
        values, ink = series[seat], INKS[seat % len(INKS)]
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        parts.append(f'<polyline points="{points}" fill="none" stroke="{ink}" stroke-width="3"/>')
        parts += [f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3.5" fill="{ink}"/>' for i, v in enumerate(values)]
        if values:
            label_y = max(y(values[-1]) + 4, label_y + 14)
            parts.append(f'<text x="{right + 8}" y="{label_y:.1f}" {FONT} fill="{ink}">'
                         f'{escape(names[seat][:10])} {values[-1]:g}</text>')
    return _svg(WIDTH, max(lower, label_y) + 24, title, parts)


def reaction_chart(state: Any) -> str:
    """Per player: matches won (solid) and lost (hollow) as bars, and each won match's reaction time as a dot."""
    players = state.players
    slowest = 500 * math.ceil(max([1000, *(r.reaction_ms or 0 for r in state.results)]) / 500)
    most = max([1, *(sum(1 for r in state.results if seat in r.race.racers) for seat in range(len(players)))])
    name_w, bars_w, mid = 80, 110, 210
    parts = [f'<text x="6" y="14" {FONT} font-weight="bold">Matches won and lost</text>',
             f'<text x="{mid}" y="14" {FONT} font-weight="bold">Reaction, 0 to {slowest / 1000:g} s</text>']
    for seat, name in enumerate(players):
        ink, top = INKS[seat % len(INKS)], 24 + seat * ROW
        won = sum(1 for r in state.results if r.winner == seat)
        lost = sum(1 for r in state.results if seat in r.race.racers and r.winner not in (seat, None))
        w_won, w_lost = bars_w * won / most, bars_w * lost / most
        parts += [
            f'<text x="6" y="{top + 14}" {FONT}>{escape(name[:10])}</text>',
            f'<rect x="{name_w}" y="{top + 3}" width="{w_won:.1f}" height="14" fill="{ink}"/>',
            f'<rect x="{name_w + w_won:.1f}" y="{top + 3}" width="{w_lost:.1f}" height="14" fill="none" '
            f'stroke="{ink}"/>',
            f'<text x="{name_w + w_won + w_lost + 4:.1f}" y="{top + 14}" {FONT}>{won} : {lost}</text>',
            f'<line x1="{mid}" y1="{top + 10}" x2="{WIDTH - 4}" y2="{top + 10}" stroke="{INK}" '
            'opacity="0.3"/>',
        ]
        parts += [f'<circle cx="{mid + (WIDTH - 4 - mid) * r.reaction_ms / slowest:.1f}" cy="{top + 10}" r="4" '
                  f'fill="{ink}"><title>{r.reaction_ms} ms</title></circle>'
                  for r in state.results if r.winner == seat and r.reaction_ms is not None]
    return _svg(WIDTH, 30 + len(players) * ROW, "Matches and reaction times per player", parts)


def _svg(width: int, height: int, label: str, parts: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}" role="img" aria-label="{escape(label)}" fill="{INK}">'
            f'<rect width="{width}" height="{height}" rx="6" fill="#fffdf7"/>{"".join(parts)}</svg>')


def game_chart(events: Sequence[Any]) -> str | None:
    """The chart for a game's events, or ``None`` for a game without one (or a log this version cannot replay)."""
    game = events[0].payload.get("game") if events else None
    try:
        if game in SCORE_COLUMNS:
            names, series = scores_by_round(events, SCORE_COLUMNS[game])
            return line_chart("Scores by round", names, series)
        if game in REACTION_GAMES:
            return reaction_chart(fold(events).state)
    except (ValueError, KeyError, RuleViolation):
        return None
    return None


@bp.get("/<int:game_id>.svg")
def chart(game_id: int) -> Response:
    log = web().session.log
    if logged_game(log, game_id) is None:
        abort(404, f"There is no game number {game_id} in the log.")
    drawn = game_chart(log.events(game_id))
    if drawn is None:
        abort(404, "This game has no chart.")
    response = Response(drawn, mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, max-age=3600"  # the page asks again, by seq, after a change
    return response
