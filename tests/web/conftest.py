"""Fixtures for the status page: a real table session on a real SQLite log in a temporary folder."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.games.actions import Action
from companion.games.base import GameSetup
from companion.games.registry import GAMES
from companion.table.log import EventLog
from companion.table.session import TableSession
from companion.web.app import create_app
from companion.web.auth import hash_pin
from companion.web.server import WebServer, start_server
from companion.web.settings import WebSettings

PIN = "2468"
GAME = "corgi-pileup"
PLAYERS = ("Emily", "Peter", "Taylor")


@pytest.fixture(scope="session")
def pin_hash() -> str:
    """Hashed once: scrypt is slow on purpose."""
    return hash_pin(PIN)


@pytest.fixture
def settings(pin_hash: str) -> WebSettings:
    return WebSettings(pin_hash=pin_hash, pin_max_attempts=3, pin_window_seconds=60.0, keepalive_seconds=0.5,
                       device_poll_seconds=0.1)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableSession]:
    log = EventLog(tmp_path / "table.sqlite3")
    yield TableSession(log, seed=7)
    log.close()


def start(table: TableSession, players: tuple[str, ...] = PLAYERS) -> int:
    """A full-information game, so tests can pick moves the rules accept."""
    return table.start_game(GameSetup(GAME, players, full_information=True), source="test")


def legal_move(table: TableSession) -> Action:
    return GAMES[GAME].legal_actions(table.state)[0]


@dataclass
class FakeClock:
    now: float = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


AppFactory = Callable[[WebSettings], Flask]


@pytest.fixture
def make_app(table: TableSession, clock: FakeClock) -> Iterator[AppFactory]:
    """Apps over the test's table; their live-update threads are stopped afterwards."""
    apps: list[Flask] = []

    def make(settings: WebSettings) -> Flask:
        apps.append(create_app(table, settings, clock=clock))
        return apps[-1]

    yield make
    for app in apps:
        app.extensions["tableside"].broadcaster.close()


@pytest.fixture
def app(make_app: AppFactory, settings: WebSettings) -> Flask:
    return make_app(settings)


@dataclass
class Browser:
    """A test client that carries its CSRF token the way the page's JavaScript does."""

    client: FlaskClient
    csrf: str = ""

    def refresh_token(self) -> str:
        self.csrf = self.client.get("/api/referee").json["csrf_token"]
        return self.csrf

    def post(self, path: str, body: Any = None, *, csrf: str | None = None, **kwargs: Any) -> Any:
        token = self.csrf if csrf is None else csrf
        headers = {"X-CSRF-Token": token} if token else {}
        response = self.client.post(path, json=body, headers=headers, **kwargs)
        if response.is_json and isinstance(response.json, dict) and "csrf_token" in response.json:
            self.csrf = response.json["csrf_token"]
        return response

    def unlock(self, pin: str = PIN) -> Any:
        return self.post("/api/referee/unlock", {"pin": pin})


@pytest.fixture
def visitor(app: Flask) -> Browser:
    browser = Browser(app.test_client())
    browser.refresh_token()
    return browser


@pytest.fixture
def referee(visitor: Browser) -> Browser:
    assert visitor.unlock().status_code == 200
    return visitor


@pytest.fixture
def server(table: TableSession, settings: WebSettings) -> Iterator[WebServer]:
    """The status page served by waitress on a free local port, as ``companion demo`` runs it."""
    running = start_server(table, settings, host="127.0.0.1", port=0)
    yield running
    running.stop()


Unchanged = Callable[[], None]


@pytest.fixture
def unchanged(table: TableSession) -> Callable[[], Unchanged]:
    """Take a picture of the table; calling the result asserts nothing moved since (refusal warnings aside)."""

    def picture() -> tuple[Any, ...]:
        snap = {k: v for k, v in table.snapshot().items() if k != "warnings"}
        return snap, table.log.list_games(), [table.log.events(g.id) for g in table.log.list_games()]

    def take() -> Unchanged:
        before = picture()
        return lambda: (None if picture() == before else pytest.fail("the table changed"))

    return take
