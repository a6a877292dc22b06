"""The Flask app factory: public read-only pages and API, plus PIN-protected referee controls."""

from __future__ import annotations

import secrets
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.web import api, cards, pages, prompts, races, referee
from companion.web.auth import AttemptLimiter, LockEpoch
from companion.web.context import EXTENSION, WebContext
from companion.web.csrf import check_csrf
from companion.web.live import Broadcaster
from companion.web.settings import WebSettings

if TYPE_CHECKING:
    from companion.table.session import TableSession

SESSION_COOKIE = "tableside_session"


def create_app(
    session: TableSession,
    settings: WebSettings,
    *,
    secret_key: bytes | None = None,
    epoch_path: Path | None = None,
    traces: Path | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Flask:
    """The status page for ``session``.

    ``secret_key`` signs the referee's cookie (see ``load_secret_key``); without one a random key is used and
    referees must unlock again after a restart. ``epoch_path`` keeps the referee lock epoch beside the key
    (see ``LockEpoch``). ``traces`` is where PigzUp! race traces are kept (each verdict's picture). ``clock``
    times the PIN rate limit (tests pass a fake one).
    """
    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=secret_key or secrets.token_bytes(32),
        SESSION_COOKIE_NAME=SESSION_COOKIE,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        MAX_CONTENT_LENGTH=settings.max_body_bytes,
    )
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.extensions[EXTENSION] = WebContext(
        session=session,
        settings=settings,
        broadcaster=Broadcaster(
            session, settings.max_streams, settings.keepalive_seconds, settings.device_poll_seconds,
            settings.stream_minutes * 60, settings.streams_per_client,
        ),
        limiter=AttemptLimiter(settings.pin_max_attempts, settings.pin_window_seconds, clock),
        epoch=LockEpoch(epoch_path),
        traces=traces,
    )
    app.before_request(check_csrf)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(referee.bp)
    app.register_blueprint(prompts.bp)
    app.register_blueprint(cards.bp)
    app.register_blueprint(races.bp)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(sqlite3.Error, _storage_error)
    app.after_request(_security_headers)
    return app


def _http_error(exc: HTTPException) -> Response | HTTPException:
    """API clients get JSON errors with a readable message; pages keep Flask's HTML ones."""
    if exc.response is not None or not request.path.startswith("/api/"):
        return exc
    response = jsonify(error=(exc.name or "error").lower().replace(" ", "-"), message=exc.description)
    response.status_code = exc.code or 500
    return response


def _storage_error(exc: sqlite3.Error) -> tuple[Response, int]:
    """The game log could not be written (a full disk, a failing card): say so, not Flask's "the server is
    overloaded". The session appends before it changes its state, so nothing was recorded or changed."""
    full = "full" in str(exc)
    status = 507 if full else 500
    what = "the table's disk is full" if full else f"the game log failed ({exc})"
    advice = "free some space on it" if full else "check the storage"
    message = f"Nothing was recorded: {what}. The game is as it was; {advice}, then try again."
    return jsonify(error="storage-full" if full else "storage-failed", message=message), status


def _security_headers(response: Response) -> Response:
    """Everything is served locally, so the page may load nothing from elsewhere and never be framed."""
    response.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    )
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response
