"""The HTML pages. The scoreboard is drawn in the browser from the same snapshot the API serves, so one
renderer serves the first paint and every live update; history pages are plain server-rendered HTML."""

from __future__ import annotations

import time

from flask import Blueprint, abort, render_template

from companion.games.registry import GAMES
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


@bp.app_template_filter("game_title")
def game_title(name: str) -> str:
    return GAMES[name].title if name in GAMES else name


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
    return render_template("game.html", game=summary, record=game_record(events, secrets=is_unlocked()),
                           races=race_pictures(web().traces, game_id, events))


@bp.get("/players")
def players() -> str:
    return render_template("players.html", players=player_stats(web().session.log.list_games()))
