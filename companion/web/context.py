"""What every request handler shares (the session, settings, live broadcaster, PIN limiter) and error replies."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from flask import Response, abort, current_app, jsonify, make_response, request

from companion.web.auth import AttemptLimiter, LockEpoch
from companion.web.live import Broadcaster
from companion.web.settings import WebSettings

if TYPE_CHECKING:
    from companion.table.session import TableSession

EXTENSION = "tableside"


@dataclass(frozen=True)
class WebContext:
    session: TableSession
    settings: WebSettings
    broadcaster: Broadcaster
    limiter: AttemptLimiter
    epoch: LockEpoch
    traces: Path | None = None  # PigzUp! race traces ([table] traces), drawn for each verdict


def web() -> WebContext:
    return current_app.extensions[EXTENSION]


def error_response(status: int, code: str, message: str, headers: dict[str, str] | None = None,
                   **extra: Any) -> Response:
    """A JSON error a person can read: ``{"error": code, "message": message, ...}``."""
    response = make_response(jsonify(error=code, message=message, **extra), status)
    response.headers.update(headers or {})
    return response


def fail(status: int, code: str, message: str, headers: dict[str, str] | None = None, **extra: Any) -> NoReturn:
    """Stop the request with ``error_response``."""
    abort(error_response(status, code, message, headers, **extra))


def closing(response: Response) -> Response:
    """``response`` sent without a length, which makes waitress close the connection after it (a WSGI app may
    not send ``Connection: close`` itself): a refused client's socket is freed at once, not kept alive."""
    body = response.get_data()
    response.headers.pop("Content-Length", None)
    response.response = iter((body,))
    return response


MAX_JSON_DEPTH = 8  # no request nests deeper (a setup's options are the deepest); a deeper one is refused whole


def json_body() -> dict[str, Any]:
    """The request's JSON object, or a 400 that says what is wrong with it."""
    try:
        body = request.get_json(silent=True, force=True) if request.get_data() else {}
    except RecursionError:
        body = None  # nested too deeply for the parser: not JSON this table could use either
    if body is None:
        fail(400, "bad-json", "The request body is not valid JSON (UTF-8 text, nested at most "
             f"{MAX_JSON_DEPTH} levels).")
    if not isinstance(body, dict):
        fail(400, "bad-json", "The request body must be a JSON object.")
    if _depth(body) > MAX_JSON_DEPTH:
        fail(400, "bad-json", f"The request body nests more than {MAX_JSON_DEPTH} levels deep.")
    return body


def _depth(value: Any) -> int:
    """How deeply ``value`` nests lists and objects (counted without recursion: the input may be hostile)."""
    deepest, pending = 0, [(value, 1)]
    while pending:
        item, level = pending.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            pending.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest
