"""Serve the status page with waitress inside the companion's own process, on a background thread (``serve``
does the same for any of our Flask apps, such as the zone drawing page of ``companion calibrate zones``).

One process on purpose: the web threads share the table session (and through it the hardware) with the camera
and the serial link. Every live stream holds a waitress thread, hence ``settings.threads``.

``ServerLimits`` bounds what any one client can hold: waitress closes idle sockets and refuses long bodies from
their headers; this module adds the one limit waitress lacks, on a client that trickles a request byte by byte.
"""

from __future__ import annotations

import socket
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Flask
from waitress import wasyncore
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer, create_server

from companion.web.app import create_app
from companion.web.auth import load_secret_key
from companion.web.context import EXTENSION
from companion.web.settings import ServerLimits, WebSettings

if TYPE_CHECKING:
    from companion.table.session import TableSession

WILDCARD_HOSTS = ("0.0.0.0", "::", "")
DEFAULT_LIMITS = ServerLimits()  # for our small pages, such as the zone drawing page
LOOP_TURN_SECONDS = 0.2  # the longest an idle loop sleeps: how long stop() may wait (requests wake it at once)


class PerClientCap:
    """waitress's channel factory, admitting a connection only while its address holds fewer than ``limit``: a
    phone opening hundreds of sockets keeps ``limit`` of them, and the page stays reachable for everyone else."""

    def __init__(self, limit: int) -> None:
        self._limit = limit

    def __call__(self, server: BaseWSGIServer, conn: socket.socket, addr: Any, adj: Any,
                 map: dict[int, Any] | None = None) -> HTTPChannel | None:
        host = addr[0] if isinstance(addr, tuple) else addr
        held = sum(1 for channel in list(server.active_channels.values()) if channel.addr[0] == host)
        if held >= self._limit:
            conn.close()
            return None
        return HTTPChannel(server, conn, addr, adj, map=map)


class SlowRequests:
    """Closes connections whose request has been arriving for longer than the limit (a byte every few seconds
    keeps waitress's idle timer happy forever, and each such socket counts against the connection limit)."""

    def __init__(self, server: BaseWSGIServer, limit_seconds: float) -> None:
        self._server = server
        self._limit = limit_seconds
        self._first_seen: weakref.WeakKeyDictionary[object, float] = weakref.WeakKeyDictionary()
        self._next_sweep = 0.0

    def sweep(self, now: float) -> None:
        if now < self._next_sweep:
            return
        self._next_sweep = now + 1.0
        for channel in list(self._server.active_channels.values()):
            partial = channel.request  # the request still being received, if any
            if partial is None or partial.completed:
                continue
            if now - self._first_seen.setdefault(partial, now) > self._limit:
                channel.will_close = True  # waitress closes it on its next turn, as it does idle ones


def lan_address() -> str | None:
    """This machine's address on its network, or ``None`` offline (a UDP connect sends no packet)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
        except OSError:
            return None
        return str(probe.getsockname()[0])


class WebServer:
    """A running app: ``url`` to print, ``stop()`` to end it (``before_stop`` first: the status page closes its
    live streams there)."""

    def __init__(
        self, app: Flask, server: BaseWSGIServer, limits: ServerLimits, before_stop: Callable[[], None] | None = None
    ) -> None:
        self.app = app
        self.host: str = server.effective_host
        self.port: int = server.effective_port
        self._server = server
        self._slow = SlowRequests(server, limits.idle_timeout_seconds)
        self._before_stop = before_stop
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tableside-web", daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        """The address on this machine (a browser on the Pi itself, the tests)."""
        host = "127.0.0.1" if self.host in WILDCARD_HOSTS else self.host
        return f"http://{host}:{self.port}/"

    @property
    def urls(self) -> list[str]:
        """Every address worth printing: this machine's, and the one phones on the network use, if listening."""
        lan = lan_address() if self.host in WILDCARD_HOSTS else None
        return [self.url] + ([f"http://{lan}:{self.port}/"] if lan and lan != "127.0.0.1" else [])

    def _run(self) -> None:
        """waitress's own loop, one turn at a time, so that closing happens on this thread after the last turn."""
        server = self._server
        while not self._stopping.is_set():
            wasyncore.loop(timeout=LOOP_TURN_SECONDS, map=server._map, use_poll=True, count=1)
            self._slow.sweep(time.monotonic())
        server.task_dispatcher.shutdown(timeout=5)
        wasyncore.close_all(server._map)

    def stop(self, timeout: float = 10.0) -> None:
        """Run ``before_stop`` (live streams end), let every request thread finish, then close every socket."""
        if self._before_stop is not None:
            self._before_stop()
        self._stopping.set()  # seen within one loop turn; pulling waitress's trigger here could race its closing
        self._thread.join(timeout)

    @property
    def running(self) -> bool:
        return self._thread.is_alive()


def serve(
    app: Flask, host: str, port: int, limits: ServerLimits = DEFAULT_LIMITS, *,
    before_stop: Callable[[], None] | None = None,
) -> WebServer:
    """Serve ``app`` with waitress on a background thread and return at once; ``port=0`` picks a free port.

    Raises ``OSError`` when the address cannot be used (the port is taken).
    """
    server = create_server(app, host=host, port=port, ident="tableside", **limits.waitress_options())
    server.channel_class = PerClientCap(limits.connections_per_client)  # type: ignore[union-attr]
    return WebServer(app, server, limits, before_stop)  # type: ignore[arg-type]


def start_server(
    session: TableSession,
    settings: WebSettings,
    *,
    secret_key_path: Path | None = None,
    host: str | None = None,
    port: int | None = None,
    traces: Path | None = None,
) -> WebServer:
    """Start serving ``session`` and return at once; ``port=0`` picks a free port (see ``WebServer.url``).

    ``secret_key_path`` is ``settings.secret_key_file`` resolved against the config's folder; without it the
    cookie key lives only as long as the process.
    """
    secret_key = load_secret_key(secret_key_path) if secret_key_path else None
    epoch_path = secret_key_path.with_suffix(".epoch") if secret_key_path else None
    app = create_app(session, settings, secret_key=secret_key, epoch_path=epoch_path, traces=traces)
    return serve(
        app,
        host=settings.host if host is None else host,
        port=settings.port if port is None else port,
        limits=settings.server_limits,
        before_stop=app.extensions[EXTENSION].broadcaster.close,
    )
