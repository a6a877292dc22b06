"""Serve the status page with waitress inside the companion's own process, on a background thread.

One process on purpose: the web threads share the table session (and through it the hardware) with the camera
and the serial link. Every live stream holds a waitress thread, hence ``settings.threads``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from flask import Flask
from waitress.server import create_server

from companion.web.app import create_app
from companion.web.auth import load_secret_key
from companion.web.context import EXTENSION
from companion.web.settings import WebSettings

if TYPE_CHECKING:
    from companion.table.session import TableSession


@dataclass
class WebServer:
    """A running status page: ``url`` to print, ``stop()`` to end it (live streams are closed first)."""

    app: Flask
    host: str
    port: int
    _server: object
    _thread: threading.Thread

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "::", "") else self.host
        return f"http://{host}:{self.port}/"

    def stop(self, timeout: float = 5.0) -> None:
        self.app.extensions[EXTENSION].broadcaster.close()
        self._server.close()  # type: ignore[attr-defined]
        self._thread.join(timeout)


def start_server(
    session: TableSession,
    settings: WebSettings,
    *,
    secret_key_path: Path | None = None,
    host: str | None = None,
    port: int | None = None,
) -> WebServer:
    """Start serving ``session`` and return at once; ``port=0`` picks a free port (see ``WebServer.url``).

    ``secret_key_path`` is ``settings.secret_key_file`` resolved against the config's folder; without it the
    cookie key lives only as long as the process.
    """
    secret_key = load_secret_key(secret_key_path) if secret_key_path else None
    app = create_app(session, settings, secret_key=secret_key)
    server = create_server(
        app,
        host=settings.host if host is None else host,
        port=settings.port if port is None else port,
        threads=settings.threads,
        ident="tableside",
        channel_timeout=max(120, int(settings.keepalive_seconds * 4)),
    )
    thread = threading.Thread(target=server.run, name="tableside-web", daemon=True)
    thread.start()
    return WebServer(app, server.effective_host, server.effective_port, server, thread)  # type: ignore[union-attr]
