"""Clients for the live server, shared by the tests and ``benchmarks/bench_web.py``: a minimal EventSource and
Debian's Chromium under Playwright (never a downloaded browser: CI and the Pi are offline)."""

from __future__ import annotations

import http.client
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, sync_playwright

from companion.web.server import WebServer

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


def launch_chromium(home: Path) -> Iterator[Browser]:
    """Debian's Chromium with its profile, caches and config in ``home`` (never the user's, never CI's)."""
    if not CHROMIUM.exists():
        raise FileNotFoundError(f"{CHROMIUM} is missing: run .ci/install-browser (apt-get install chromium) first")
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"),
           "XDG_CACHE_HOME": str(home / "cache"), "XDG_DATA_HOME": str(home / "data")}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, env=env)
        yield browser
        browser.close()


@dataclass
class SSEClient:
    """A minimal EventSource: reads the stream line by line (waitress sends it chunked)."""

    response: http.client.HTTPResponse
    connection: http.client.HTTPConnection

    @classmethod
    def open(cls, server: WebServer, timeout: float = 5.0, source: str | None = None) -> SSEClient:
        """A stream from ``source`` (a loopback address such as ``127.0.0.7``: another phone), else this host."""
        connection = http.client.HTTPConnection(server.host, server.port, timeout=timeout,
                                                source_address=(source, 0) if source else None)
        connection.request("GET", "/api/events", headers={"Accept": "text/event-stream"})
        return cls(connection.getresponse(), connection)

    def next_event(self) -> dict[str, str]:
        """The next block of ``field: value`` lines; a comment (keep-alive) comes back as ``{"comment": ...}``."""
        fields: dict[str, str] = {}
        while True:
            line = self.response.readline().decode("utf-8")
            if line in ("\n", ""):
                if fields or line == "":
                    return fields
                continue
            name, _, value = line.rstrip("\n").partition(":")
            fields[name or "comment"] = value.strip()

    def next_snapshot(self) -> dict[str, Any]:
        while True:
            event = self.next_event()
            if event.get("event") == "snapshot":
                return json.loads(event["data"])
            assert event, "the stream ended"

    def close(self) -> None:
        self.response.close()  # the response holds its own reference to the socket
        self.connection.close()
