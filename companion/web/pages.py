"""The HTML pages. The scoreboard is drawn in the browser from the same snapshot the API serves, so one
renderer serves the first paint and every live update; history pages are plain server-rendered HTML."""

from __future__ import annotations

import time

from flask import Blueprint, abort, render_template

from companion.games.registry import GAMES
from companion.web.charts import CHARTED
from companion.web.context import web
from companion.web.history import game_record, logged_game
from companion.web.races import race_pictures
from companion.web.referee import is_unlocked
from companion.web.stats import player_stats

bp = Blueprint("pages", __name__)


@bp.app_template_filter("when")
def when(ts: float | None) -> str:
    """A log timestamp as the Pi's local date and time (the table's clock is the one players know)."""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts)) if ts else "—"


@bp.app_template_filter("stat_label")
def stat_label(key: str) -> str:
    """A statistic's name in words, as the scoreboard shows it: ``median_reaction_ms`` is "Reaction"."""
    return key.removeprefix("median_").removesuffix("_ms").replace("_", " ").capitalize()


@bp.app_template_filter("stat_value")
def stat_value(value: object, key: str) -> str:
    """A statistic's value in words: timings in seconds, a missing one as a dash."""
    if value is None:
        return "\u2014"  # an em dash, as elsewhere on the page
    return f"{value / 1000:.2f} s" if key.endswith("_ms") and isinstance(value, int | float) else str(value)


@bp.app_template_filter("game_title")
def game_title(name: str) -> str:
    return GAMES[name].title if name in GAMES else name


@bp.app_context_processor
def chart_games() -> dict[str, tuple[str, ...]]:
    """The games the scoreboard shows a chart for."""
    return {"charted": CHARTED}


@bp.get("/")
def scoreboard() -> str:
    return render_template("scoreboard.html", snapshot=web().session.snapshot())


@bp.get("/referee")
def referee() -> str:
    return render_template("referee.html", snapshot=web().session.snapshot())


@bp.get("/history")
def history() -> str:
    return render_template("history.html", games=list(reversed(web().session.log.list_games())))


@bp.get("/history/<int:game_id>")
def history_game(game_id: int) -> str:
    log = web().session.log
    summary = logged_game(log, game_id)
    if summary is None:
        abort(404, f"There is no game number {game_id} in the log.")
    events = log.events(game_id)
    referee = is_unlocked()
    return render_template("game.html", game=summary, record=game_record(events, secrets=referee),
                           races=race_pictures(web().traces, game_id, events),
                           overrule=referee and game_id == web().session.game_id)


@bp.get("/players")
def players() -> str:
    return render_template("players.html", players=player_stats(web().session.log.list_games()))
