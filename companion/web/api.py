"""The public, read-only JSON API and the live event stream (documented in ``docs/api.md``)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request

from companion.games.actions import action_schema
from companion.games.base import Ruleset
from companion.games.registry import GAMES
from companion.web.context import closing, error_response, fail, web
from companion.web.history import game_record, logged_game
from companion.web.live import RETRY_MS
from companion.web.referee import is_unlocked
from companion.web.stats import player_stats

bp = Blueprint("api", __name__, url_prefix="/api")


def game_info(ruleset: Ruleset) -> dict[str, Any]:
    """What the referee's start form and action forms are generated from."""
    return {
        "name": ruleset.name,
        "title": ruleset.title,
        "variants": dict(ruleset.variants),
        "min_players": ruleset.min_players,
        "max_players": ruleset.max_players,
        "actions": [action_schema(cls) for cls in ruleset.action_types if not cls.chance],
        "options": [option.to_json() for option in ruleset.options],
    }


@bp.get("/state")
def state() -> Response:
    """The current snapshot: the polling fallback when live streaming is unavailable."""
    response = jsonify(web().session.snapshot())
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/events")
def events() -> Response:
    """Server-Sent Events: the full snapshot on connect, a new one after every change, keep-alives between.

    A stream over the limit is refused and its connection closed (the page then polls ``/api/state``)."""
    stream = web().broadcaster.open_stream(request.remote_addr or "unknown")
    if stream is None:
        return closing(error_response(
            503,
            "too-many-streams",
            "Too many live screens are open; this one will refresh every few seconds instead.",
            {"Retry-After": str(RETRY_MS // 1000)},
        ))
    return Response(
        stream,
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


@bp.get("/games")
def games() -> Response:
    return jsonify([game_info(ruleset) for ruleset in GAMES.values()])


@bp.get("/games/<name>")
def game(name: str) -> Response:
    if name not in GAMES:
        fail(404, "unknown-game", f"Unknown game {name!r}; known games: {', '.join(GAMES)}.")
    return jsonify(game_info(GAMES[name]))


@bp.get("/history")
def history() -> Response:
    """Every game in the log, newest first."""
    return jsonify([g.to_json() for g in reversed(web().session.log.list_games())])


@bp.get("/history/<int:game_id>")
def history_game(game_id: int) -> Response:
    """One game's summary, its per-player statistics and its move-by-move log (the seeds for the referee only)."""
    log = web().session.log
    summary = logged_game(log, game_id)
    if summary is None:
        fail(404, "unknown-game-id", f"There is no game number {game_id} in the log.")
    record = game_record(log.events(game_id), secrets=is_unlocked())
    return jsonify(game=summary.to_json(), stats=record.stats, events=record.events)


@bp.get("/players")
def players() -> Response:
    return jsonify([s.to_json() for s in player_stats(web().session.log.list_games())])
