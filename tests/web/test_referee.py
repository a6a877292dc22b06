"""Referee controls: the PIN, its rate limit, CSRF, and every action route; a refusal changes nothing."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from flask import Flask

from companion.games.registry import GAMES
from companion.table.session import TableSession
from companion.web.auth import hash_pin
from companion.web.context import EXTENSION
from companion.web.settings import WebSettings
from tests.web.conftest import GAME, PIN, PLAYERS, AppFactory, Browser, FakeClock, legal_move, start


def error(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.json["error"] == code
    assert response.json["message"]
    return response.json["message"]


def test_status_reports_lock_and_token(visitor: Browser) -> None:
    status = visitor.client.get("/api/referee").json
    assert status == {"pin_set": True, "unlocked": False, "csrf_token": visitor.csrf}


def test_unlock_then_lock(visitor: Browser) -> None:
    old_token = visitor.csrf
    response = visitor.unlock()
    assert response.status_code == 200 and response.json["unlocked"] is True
    assert visitor.csrf != old_token  # a fresh token once unlocked
    assert visitor.client.get("/api/referee").json["unlocked"] is True
    assert visitor.post("/api/referee/lock").json["unlocked"] is False
    error(visitor.post("/api/referee/undo"), 401, "locked")


def test_wrong_pin_then_too_many_attempts(visitor: Browser, clock: FakeClock, settings: WebSettings) -> None:
    assert "2 tries left" in error(visitor.unlock("0000"), 401, "wrong-pin")
    assert "1 try left" in error(visitor.unlock("1111"), 401, "wrong-pin")
    assert "No tries left" in error(visitor.unlock("2222"), 401, "wrong-pin")
    blocked = visitor.unlock(PIN)  # even the right PIN waits
    assert "wait 60 seconds" in error(blocked, 429, "too-many-attempts")
    assert blocked.headers["Retry-After"] == "60"
    clock.now += settings.pin_window_seconds
    assert visitor.unlock(PIN).status_code == 200


def test_success_clears_the_failures(visitor: Browser) -> None:
    error(visitor.unlock("0000"), 401, "wrong-pin")
    error(visitor.unlock("0000"), 401, "wrong-pin")
    assert visitor.unlock().status_code == 200
    assert "2 tries left" in error(visitor.unlock("0000"), 401, "wrong-pin")


def test_unlock_needs_a_pin(visitor: Browser) -> None:
    error(visitor.post("/api/referee/unlock", {}), 400, "missing-pin")
    error(visitor.post("/api/referee/unlock", {"pin": 2468}), 400, "missing-pin")


def test_no_pin_configured_means_no_controls(make_app: AppFactory) -> None:
    browser = Browser(make_app(WebSettings()).test_client())
    browser.refresh_token()
    assert browser.client.get("/api/referee").json["pin_set"] is False
    assert "companion hash-pin" in error(browser.unlock(), 403, "no-pin")


def test_changing_the_pin_locks_open_sessions(referee: Browser, app: Flask) -> None:
    ctx = app.extensions[EXTENSION]
    app.extensions[EXTENSION] = dataclasses.replace(ctx, settings=WebSettings(pin_hash=hash_pin("9999")))
    error(referee.post("/api/referee/undo"), 401, "locked")


@pytest.mark.parametrize(
    "path", ["/api/referee/unlock", "/api/referee/lock", "/api/referee/start", "/api/referee/action",
             "/api/referee/undo", "/api/referee/end", "/api/referee/correct"],
)
def test_every_post_needs_the_csrf_token(referee: Browser, table: TableSession, path: str, unchanged: Any) -> None:
    start(table)
    check = unchanged()
    body = {"pin": PIN, "type": "play", "player": 0, "card": 1}
    error(referee.client.post(path, json=body), 403, "csrf-missing")
    error(referee.post(path, body, csrf="forged"), 403, "csrf-mismatch")
    check()
    assert referee.client.get("/api/referee").json["unlocked"] is True


@pytest.mark.parametrize("path", ["/api/referee/start", "/api/referee/action", "/api/referee/undo",
                                  "/api/referee/end", "/api/referee/correct"])
def test_locked_controls_refuse(visitor: Browser, table: TableSession, path: str, unchanged: Any) -> None:
    start(table)
    check = unchanged()
    error(visitor.post(path, {}), 401, "locked")
    check()


def test_start_a_game(referee: Browser, table: TableSession) -> None:
    response = referee.post("/api/referee/start", {"game": GAME, "variant": "standard", "players": list(PLAYERS)})
    assert response.status_code == 200
    assert response.json["game_id"] == table.game_id
    assert response.json["state"]["players"] == list(PLAYERS)
    assert table.log.events(table.game_id)[0].source == "web"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "snap", "players": ["A", "B"]}, "unknown-game"),
        ({"game": GAME, "variant": "upside-down", "players": ["A", "B"]}, "unknown-variant"),
        ({"game": GAME, "players": ["A"]}, "player-count"),
        ({"game": GAME, "players": ["A", "A"]}, "duplicate-player"),
        ({"game": GAME}, "bad-setup"),
        ({"game": GAME, "players": "Emily"}, "bad-setup"),
    ],
)
def test_bad_setups_are_refused(referee: Browser, unchanged: Any, body: dict[str, Any], code: str) -> None:
    check = unchanged()
    error(referee.post("/api/referee/start", body), 400, code)
    check()


@pytest.mark.parametrize("path", ["/api/referee/start", "/api/referee/action", "/api/referee/correct"])
@pytest.mark.parametrize("case", [(b"{not json", "not valid JSON"), (b"[1, 2]", "JSON object")])
def test_bad_json(referee: Browser, table: TableSession, unchanged: Any, path: str, case: tuple[bytes, str]) -> None:
    data, message = case
    start(table)
    check = unchanged()
    response = referee.client.post(path, data=data, headers={"X-CSRF-Token": referee.csrf,
                                                             "Content-Type": "application/json"})
    assert message in error(response, 400, "bad-json")
    check()


def test_enter_a_move_and_undo_it(referee: Browser, table: TableSession) -> None:
    start(table)
    before = table.snapshot()
    move = legal_move(table)
    response = referee.post("/api/referee/action", move.to_json())
    assert response.status_code == 200
    assert response.json["event"]["payload"] == move.to_json()
    assert response.json["state"]["seq"] > before["seq"]
    undone = referee.post("/api/referee/undo")
    assert undone.status_code == 200 and undone.json["event"]["kind"] == "undo"
    assert undone.json["state"]["scoreboard"] == before["scoreboard"]


def test_illegal_and_malformed_actions(referee: Browser, table: TableSession, unchanged: Any) -> None:
    start(table)
    check = unchanged()
    assert "Peter" in error(referee.post("/api/referee/action", {"type": "play", "player": 1, "card": 3}),
                            409, "not-your-turn")
    assert "fly" in error(referee.post("/api/referee/action", {"type": "fly", "player": 0}), 400, "malformed")
    missing = referee.post("/api/referee/action", {"type": "play", "player": 0})
    assert "card" in error(missing, 400, "malformed") and missing.json["kind"] == "malformed"
    check()


def test_nothing_to_undo_and_no_game(referee: Browser, table: TableSession) -> None:
    error(referee.post("/api/referee/undo"), 409, "no-game")
    error(referee.post("/api/referee/action", {"type": "play", "player": 0, "card": 1}), 409, "no-game")
    error(referee.post("/api/referee/correct", {"type": "play", "player": 0, "card": 1}), 409, "no-game")
    start(table)
    error(referee.post("/api/referee/undo"), 409, "nothing-to-undo")


def test_end_a_game(referee: Browser, table: TableSession, unchanged: Any) -> None:
    start(table)
    check = unchanged()
    error(referee.post("/api/referee/end", {"reason": "  "}), 400, "bad-reason")
    check()
    response = referee.post("/api/referee/end", {"reason": "Dinner is ready"})
    assert response.status_code == 200
    assert response.json["state"]["status"] == "abandoned"
    assert response.json["state"]["ended"] == "Dinner is ready"
    error(referee.post("/api/referee/end"), 409, "game-over")


def test_correct_the_last_card(referee: Browser, table: TableSession) -> None:
    start(table)
    first, second = [a for a in GAMES[GAME].legal_actions(table.state) if a.type == "play"][:2]
    table.submit(first, source="camera")
    response = referee.post("/api/referee/correct", second.to_json())
    assert response.status_code == 200
    events = table.log.events(table.game_id)
    assert [e.kind for e in events[-2:]] == ["undo", "action"]
    assert events[-1].payload == second.to_json() and events[-1].source == "web"
    assert table.game.moves[-1].event.payload == second.to_json()


def test_a_refused_correction_changes_nothing(referee: Browser, table: TableSession, unchanged: Any) -> None:
    start(table)
    table.submit(legal_move(table), source="camera")
    check = unchanged()
    error(referee.post("/api/referee/correct", {"type": "play", "player": 2, "card": 1}), 409, "not-your-turn")
    error(referee.post("/api/referee/correct", {"type": "jump"}), 400, "malformed")
    check()
    start(table)
    error(referee.post("/api/referee/correct", legal_move(table).to_json()), 409, "nothing-to-undo")
    referee.post("/api/referee/end", {"reason": "Bedtime"})
    error(referee.post("/api/referee/correct", {"type": "play", "player": 0, "card": 1}), 409, "ended")


def test_the_final_card_of_a_finished_game_can_be_corrected(referee: Browser, table: TableSession) -> None:
    start(table)
    while table.status() == "playing":
        final = legal_move(table)
        table.submit(final, source="camera")
    response = referee.post("/api/referee/correct", final.to_json())  # the last player had only that card left
    assert response.status_code == 200 and response.json["state"]["status"] == "finished"
    assert [e.kind for e in table.log.events(table.game_id)[-2:]] == ["undo", "action"]


def test_oversized_bodies_are_refused(referee: Browser, table: TableSession, unchanged: Any) -> None:
    start(table)
    check = unchanged()
    response = referee.post("/api/referee/end", {"reason": "x" * 70_000})
    assert response.status_code == 413 and response.json["error"] == "request-entity-too-large"
    check()
