"""The HTTP part of the bad-input corpus (issue 16): every route, fed wrong types, huge numbers, deep nesting,
bad UTF-8 and missing fields, answers 4xx with a message a person can read (never a 500 with a traceback), and a
refused request changes nothing. ``ROUTES`` must name every route, so a new one joins the corpus."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask

from companion.table.session import TableSession
from companion.web.prompts import MAX_PROMPT_ID
from tests.web.conftest import Browser, start

HUGE = 10**40
GETS = {
    "/api/history/<int:game_id>": ["/api/history/" + "9" * 30, "/api/history/" + "9" * 5000, "/api/history/0"],
    "/history/<int:game_id>": ["/history/" + "9" * 30, "/history/99999"],
    "/api/games/<name>": ["/api/games/%ff%00", "/api/games/" + "x" * 5000],
    "/cards/<deck>/<face>.svg": ["/cards/..%2f..%2fetc/passwd.svg", "/cards/pigzup/%ff%00.svg",
                                 "/cards/" + "x" * 5000 + "/y.svg", "/cards/pigzup/nope.svg"],
    "/history/<int:game_id>/race/<int:match>.png": ["/history/1/race/" + "9" * 30 + ".png",
                                                    "/history/" + "9" * 5000 + "/race/0.png", "/history/1/race/0.png",
                                                    "/history/1/race/..%2f..%2fetc%2fpasswd.png"],
}
POSTS = ["/api/referee/unlock", "/api/referee/start", "/api/referee/action", "/api/referee/undo",
         "/api/referee/end", "/api/referee/correct", "/api/referee/lock", "/api/prompts/1", "/api/prompts/" + "9" * 30]
PROMPT_ANSWER = f"/api/prompts/<int(max={MAX_PROMPT_ID}):prompt_id>"
PLAIN_GETS = ["/", "/referee", "/history", "/players", "/api/state", "/api/games", "/api/history", "/api/players",
              "/api/referee", "/api/events", "/api/prompts", "/static/<path:filename>"]
BODILESS = ("/api/referee/lock", "/api/referee/undo")  # any body is ignored: they do what they say
ROUTES = set(GETS) | {p for p in POSTS if "/prompts/" not in p} | {PROMPT_ANSWER} | set(PLAIN_GETS)


def nested(depth: int) -> bytes:
    return b'{"pin": ' + b"[" * depth + b"]" * depth + b', "players": ' + b"[" * depth + b"]" * depth + b"}"


WRONG_TYPES = {"game": [], "players": {}, "variant": 3, "options": [], "full_information": "no", "type": {},
               "pin": 1, "reason": 5, "player": "x", "card": [], "seat": None}
BODIES: dict[str, bytes] = {
    "not JSON": b"hello",
    "bad UTF-8": b'{"pin": "\xff\xfe", "game": "corgi-pileup", "players": ["\xff", "b"]}',
    "a list": b"[1, 2]",
    "a number": b"7",
    "nested 5000 deep": nested(5000),
    "nested 50 deep": nested(50),
    "a 5000-digit number": b'{"pin": 1' + b"0" * 5000 + b', "player": 1' + b"0" * 5000 + b"}",
    "NaN and infinities": b'{"pin": NaN, "reason": Infinity, "game": NaN, "players": -Infinity, "player": NaN}',
    "nothing": b"",
    "no fields": b"{}",
    "wrong types": json.dumps(WRONG_TYPES).encode(),
    "huge numbers": json.dumps({"type": "play", "player": HUGE, "card": HUGE, "seat": HUGE, "value": HUGE,
                                "target": -HUGE, "game": "corgi-pileup", "players": ["a", "b"],
                                "options": {"first_player": HUGE}}).encode(),
    "control characters": json.dumps({"game": "corgi-pileup\x00", "players": ["a\x00", "b\x1b[2J"],
                                      "reason": "\x00", "pin": "\x00\x00\x00\x00", "type": "\x00"}).encode(),
    "lone surrogates": b'{"game": "\\ud800", "players": ["\\ud800", "x"], "reason": "\\udfff", "pin": "\\ud800"}',
    "unknown game": json.dumps({"game": "../../etc/passwd", "players": ["a", "b"]}).encode(),
    "bad deck": json.dumps({"game": "pigzup", "players": ["a", "b"], "options": {"deck": "../../../x"}}).encode(),
}


def test_the_corpus_names_every_route(app: Flask) -> None:
    assert {rule.rule for rule in app.url_map.iter_rules()} == ROUTES


def without_reason(raw: bytes) -> bool:
    """A JSON object that gives no reason: a fine way to end a game."""
    try:
        body = json.loads(raw or b"{}")
    except (ValueError, RecursionError):
        return False
    return isinstance(body, dict) and "reason" not in body


def readable_refusal(response: Any) -> None:
    """A 4xx whose body says what was wrong: JSON with a message from the API, a page otherwise."""
    assert 400 <= response.status_code < 500, response.get_data(as_text=True)[:300]
    assert b"Traceback" not in response.data
    if response.is_json:
        assert response.json["message"]


@pytest.mark.parametrize("path", [path for paths in GETS.values() for path in paths])
def test_bad_paths_are_refused(visitor: Browser, table: TableSession, path: str) -> None:
    start(table)
    readable_refusal(visitor.client.get(path))


@pytest.mark.parametrize("path", POSTS)
def test_bad_bodies_are_refused_and_change_nothing(referee: Browser, table: TableSession, unchanged: Any,
                                                   path: str) -> None:
    """Every body of the corpus in turn (one unlock per route: the PIN hash is slow on purpose)."""
    for name, body in BODIES.items():
        if table.status() != "playing":
            start(table)  # a body-less end ended the last one
        if path in ("/api/referee/lock", "/api/referee/unlock"):
            referee.unlock()  # the last body locked the controls, or spent a try of the PIN limit
        check = unchanged()
        response = referee.client.post(path, data=body, content_type="application/json",
                                       headers={"X-CSRF-Token": referee.csrf})
        if path in BODILESS or (path == "/api/referee/end" and without_reason(body)):
            continue  # locking and undoing take no body, and a game ended without a reason is "abandoned"
        assert response.status_code != 200, name
        readable_refusal(response)
        check()


def test_player_names_are_cleaned_where_the_game_is_set_up(referee: Browser, table: TableSession) -> None:
    response = referee.post("/api/referee/start", {"game": "corgi-pileup", "players": ["  Amy ", "Bob  Lee"]})
    assert response.status_code == 200
    assert table.snapshot()["players"] == ["Amy", "Bob Lee"]
    assert table.log.list_games()[-1].players == ("Amy", "Bob Lee")


@pytest.mark.parametrize("name", ["Amy\x00", "\u202eymA", "x" * 2000, "\ud800"])
def test_bad_player_names_are_refused_with_a_reason(referee: Browser, table: TableSession, unchanged: Any,
                                                    name: str) -> None:
    check = unchanged()
    response = referee.post("/api/referee/start", {"game": "corgi-pileup", "players": [name, "Bob"]})
    readable_refusal(response)
    assert response.status_code == 400 and response.json["error"] == "bad-player-name"
    check()


@pytest.mark.parametrize("reason", ["\x00", "a" * 500, "\u202e"])
def test_a_bad_reason_to_end_is_refused(referee: Browser, table: TableSession, unchanged: Any, reason: str) -> None:
    start(table)
    check = unchanged()
    response = referee.post("/api/referee/end", {"reason": reason})
    assert response.status_code == 400 and response.json["error"] == "bad-reason"
    check()
