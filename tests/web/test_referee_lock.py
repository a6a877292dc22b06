"""The referee lock against a hostile guest (issue 16): simultaneous PIN guesses are all counted, hashing is
bounded, the limiter forgets old clients, and "Lock the controls" locks every copy of an unlocked cookie."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion.table.session import TableSession
from companion.web import auth
from companion.web.app import SESSION_COOKIE, create_app
from companion.web.auth import AttemptLimiter
from companion.web.settings import WebSettings
from tests.web.conftest import PIN, Browser, FakeClock

GUESSES = 30


def all_at_once(count: int, task: Callable[[int], Any]) -> list[Any]:
    """Run ``task(i)`` on ``count`` threads released together."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(i: int) -> None:
        barrier.wait()
        results[i] = task(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def guesser(app: Flask, address: str) -> Browser:
    browser = Browser(app.test_client())
    browser.client.environ_base["REMOTE_ADDR"] = address
    browser.refresh_token()
    return browser


def test_simultaneous_wrong_pins_are_all_counted(app: Flask, settings: WebSettings) -> None:
    browsers = [guesser(app, "10.0.0.9") for _ in range(GUESSES)]
    codes = all_at_once(GUESSES, lambda i: browsers[i].unlock(f"{9000 + i}").status_code)
    assert codes.count(401) == settings.pin_max_attempts  # only that many PINs were even hashed
    assert codes.count(429) == GUESSES - settings.pin_max_attempts


def test_no_more_than_two_pins_are_hashed_at_once(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """Guesses from many addresses pass the per-client limit; the hashing itself must still queue, on the two
    hashing threads (the allocator keeps each hashing thread's 16 MB: on request threads memory would grow)."""
    running, most = 0, 0
    counting = threading.Lock()
    scrypt = auth.hashlib.scrypt
    hashed_on: set[str] = set()

    def observed(*args: Any, **kwargs: Any) -> bytes:
        nonlocal running, most
        with counting:
            running += 1
            most = max(most, running)
            hashed_on.add(threading.current_thread().name)
        try:
            return scrypt(*args, **kwargs)
        finally:
            with counting:
                running -= 1

    monkeypatch.setattr(auth.hashlib, "scrypt", observed)
    browsers = [guesser(app, f"10.0.1.{i}") for i in range(12)]
    codes = all_at_once(len(browsers), lambda i: browsers[i].unlock("0000").status_code)
    assert codes == [401] * len(browsers)
    assert 1 <= most <= 2
    assert 1 <= len(hashed_on) <= 2 and all(name.startswith("tableside-pin-hash") for name in hashed_on)


def test_the_limiter_forgets_clients_whose_tries_are_old() -> None:
    clock = FakeClock()
    limiter = AttemptLimiter(max_attempts=3, window_seconds=60, clock=clock)
    for i in range(1000):
        assert limiter.begin(f"10.0.{i // 250}.{i % 250}") == 0
    assert limiter.clients == 1000
    clock.now += 61
    assert limiter.begin("10.9.9.9") == 0
    assert limiter.clients == 1  # the thousand guessers left nothing behind


def test_a_too_long_pin_is_refused_without_hashing(visitor: Browser) -> None:
    response = visitor.unlock("1" * 5000)
    assert response.status_code == 400 and response.json["error"] == "bad-pin"
    assert visitor.unlock().status_code == 200  # and it used none of the tries


def copy_of(referee: Browser, app: Flask) -> Browser:
    """Another client carrying a copy of the referee's cookie (and so its CSRF token)."""
    thief = Browser(app.test_client(), csrf=referee.csrf)
    thief.client.set_cookie(SESSION_COOKIE, referee.client.get_cookie(SESSION_COOKIE).value)
    return thief


def test_locking_locks_a_copied_cookie(referee: Browser, app: Flask) -> None:
    thief = copy_of(referee, app)
    assert thief.client.get("/api/referee").json["unlocked"] is True
    assert referee.post("/api/referee/lock").json["unlocked"] is False
    assert thief.client.get("/api/referee").json["unlocked"] is False
    assert thief.post("/api/referee/undo").status_code == 401


def test_a_locked_visitor_cannot_lock_the_referee_out(referee: Browser, app: Flask) -> None:
    visitor = guesser(app, "10.0.0.7")
    visitor.post("/api/referee/lock")
    assert referee.client.get("/api/referee").json["unlocked"] is True


def test_the_lock_survives_a_restart(table: TableSession, settings: WebSettings, tmp_path: Path) -> None:
    key, epoch = b"k" * 32, tmp_path / "web-secret.epoch"
    before = create_app(table, settings, secret_key=key, epoch_path=epoch)
    referee = Browser(before.test_client())
    referee.refresh_token()
    assert referee.unlock().status_code == 200
    thief = copy_of(referee, before)
    restarted = create_app(table, settings, secret_key=key, epoch_path=epoch)
    assert copy_of(referee, restarted).client.get("/api/referee").json["unlocked"] is True  # restarts keep it
    referee.post("/api/referee/lock")
    again = create_app(table, settings, secret_key=key, epoch_path=epoch)
    assert copy_of(thief, again).client.get("/api/referee").json["unlocked"] is False
    for app in (before, restarted, again):
        app.extensions["tableside"].broadcaster.close()


def test_a_damaged_epoch_file_is_replaced(table: TableSession, settings: WebSettings, tmp_path: Path) -> None:
    epoch = tmp_path / "web-secret.epoch"
    epoch.write_bytes(b"\xff\x00 not toml")
    app = create_app(table, settings, secret_key=b"k" * 32, epoch_path=epoch)
    referee = Browser(app.test_client())
    referee.refresh_token()
    assert referee.unlock(PIN).status_code == 200
    assert 'epoch = "' in epoch.read_text(encoding="utf-8")
    app.extensions["tableside"].broadcaster.close()
