"""Each PigzUp! verdict's picture: the race's trace drawn (``companion.table.race_plot``), linked from the
history page, so a referee or a doubting player can see what the judge saw."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from flask import Blueprint, Response, abort

from companion.table.log import Event
from companion.table.race_files import pruned_path, read_match_trace, trace_path
from companion.table.race_plot import NothingToDraw, png
from companion.table.replay import live_events
from companion.web.context import web
from companion.web.history import LARGEST_GAME_ID

bp = Blueprint("races", __name__)

RESULTS = ("verdict", "wrong-style")  # the actions that end a match (a match's number counts them)
LARGEST_TRACE_BYTES = 4 * 1024 * 1024  # a trace is bounded well under this; a bigger file is not one of ours


def race_pictures(traces: Path | None, game_id: int, events: Sequence[Event]) -> dict[int, int | None]:
    """The match number of each live event that ended a match, where the race's trace is kept: seq -> match;
    ``None`` where it was pruned (the history says so)."""
    if traces is None:
        return {}
    ended = [e.seq for e in live_events(events) if e.kind == "action" and e.payload.get("type") in RESULTS]
    pruned = pruned_path(traces, game_id).is_file()
    pictures = {seq: match for match, seq in enumerate(ended) if trace_path(traces, game_id, match).is_file()}
    return pictures | {seq: None for seq in ended if pruned and seq not in pictures}


@bp.get("/history/<int:game_id>/race/<int:match>.png")
def picture(game_id: int, match: int) -> Response:
    """The race's weights over time with the call, the shouts, the hold and the verdict marked."""
    traces = web().traces
    path = trace_path(traces, game_id, match) if traces is not None and game_id <= LARGEST_GAME_ID else None
    if path is None or not path.is_file():
        if path is not None and pruned_path(path.parent, game_id).is_file():
            abort(404, f"Race {match + 1} of game {game_id} was recorded, but the traces of older games are pruned "
                       "to keep the card from filling ([table] traces_keep_games, traces_max_mb).")
        abort(404, f"No race {match + 1} of game {game_id} is recorded on this table: there is nothing to draw.")
    try:
        if path.stat().st_size > LARGEST_TRACE_BYTES:
            raise ValueError("it is larger than any trace the table writes")
        with path.open("rb") as stream:
            image = png(read_match_trace(stream))
    except (NothingToDraw, ValueError, KeyError, TypeError) as exc:
        abort(404, f"Race {match + 1} of game {game_id} cannot be drawn: {exc}.")
    response = Response(image, mimetype="image/png")
    response.headers["Cache-Control"] = "max-age=60"
    return response
