"""The public, read-only pages and JSON API: every route, its status codes, and that reading changes nothing."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from companion.games.base import GameSetup
from companion.games.registry import GAMES
from companion.table.session import TableSession
from tests.web.conftest import GAME, PLAYERS, Browser, legal_move, start


def test_idle_table_pages_render(visitor: Browser) -> None:
    for path in ("/", "/referee", "/history", "/players"):
        response = visitor.client.get(path)
        assert response.status_code == 200, path
        assert response.mimetype == "text/html"
        assert b"<main id=\"main\">" in response.data
    assert visitor.client.get("/api/state").json["status"] == "idle"


def test_scoreboard_embeds_the_snapshot_safely(visitor: Browser, table: TableSession) -> None:
    start(table, players=("</script><b>x", "Peter"))
    html = visitor.client.get("/").get_data(as_text=True)
    assert "</script><b>x" not in html  # a player's name cannot close the data block
    assert '"game":"corgi-pileup"' in html.replace(" ", "")


def test_state_is_the_session_snapshot(visitor: Browser, table: TableSession) -> None:
    start(table)
    response = visitor.client.get("/api/state")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    assert response.json == table.snapshot()
    assert response.json["players"] == list(PLAYERS)


def test_game_catalogue(visitor: Browser) -> None:
    games = visitor.client.get("/api/games").json
    corgi = next(g for g in games if g["name"] == GAME)
    assert "standard" in corgi["variants"]
    assert {"type": "play", "fields": {"player": "seat", "card": "int"}}.items() <= next(
        a for a in corgi["actions"] if a["type"] == "play"
    ).items()
    assert all(a["type"] != "deal" for a in corgi["actions"])  # chance actions are the table's, not a form's
    assert visitor.client.get(f"/api/games/{GAME}").json == corgi


def test_unknown_game_is_404_with_the_known_ones(visitor: Browser) -> None:
    response = visitor.client.get("/api/games/snap")
    assert response.status_code == 404
    assert response.json["error"] == "unknown-game"
    assert GAME in response.json["message"]


def test_history_log_and_player_stats(visitor: Browser, table: TableSession) -> None:
    first = start(table)
    move = legal_move(table)
    table.submit(move, source="camera")
    table.undo(source="test")
    table.submit(move, source="camera")
    table.end_game(source="test", reason="Bedtime")
    second = start(table, players=("Emily", "Amy"))
    history = visitor.client.get("/api/history").json
    assert [g["id"] for g in history] == [second, first]
    assert history[1]["status"] == "abandoned"

    log = visitor.client.get(f"/api/history/{first}").json
    assert log["game"]["players"] == list(PLAYERS)
    kinds = [e["kind"] for e in log["events"]]
    assert kinds[0] == "start" and "undo" in kinds and kinds[-1] == "end"
    revoked = [e for e in log["events"] if e["revoked"]]
    assert revoked and all(e["kind"] == "action" for e in revoked)
    assert all(e["text"] for e in log["events"])

    page = visitor.client.get(f"/history/{first}").get_data(as_text=True)
    assert "<del>" in page and "Emily" in page
    assert "Corgi Pileup" in visitor.client.get("/history").get_data(as_text=True)

    players = {p["name"]: p for p in visitor.client.get("/api/players").json}
    assert players["Emily"]["played"] == 2 and players["Peter"]["played"] == 1
    assert players["Emily"]["finished"] == 0 and players["Emily"]["win_rate"] is None
    assert "Taylor" in visitor.client.get("/players").get_data(as_text=True)


def test_unknown_history_game_is_404(visitor: Browser) -> None:
    response = visitor.client.get("/api/history/99")
    assert response.status_code == 404
    assert response.json == {"error": "unknown-game-id", "message": "There is no game number 99 in the log."}
    page = visitor.client.get("/history/99")
    assert page.status_code == 404 and b"no game number 99" in page.data


def test_unknown_routes_and_wrong_methods(visitor: Browser) -> None:
    assert visitor.client.get("/nope").status_code == 404
    api = visitor.client.get("/api/nope")
    assert api.status_code == 404 and api.json["error"] == "not-found"
    wrong = visitor.client.get("/api/referee/undo")
    assert wrong.status_code == 405 and wrong.json["error"] == "method-not-allowed"
    assert visitor.post("/api/state").status_code == 405


def test_reading_changes_nothing(visitor: Browser, table: TableSession, app: Flask) -> None:
    start(table)
    before = (table.snapshot(), table.log.list_games())
    client: FlaskClient = visitor.client
    for rule in app.url_map.iter_rules():
        if "GET" in rule.methods and not rule.arguments and rule.endpoint != "api.events":
            referees_only = rule.rule == "/api/referee/choices"  # it may show hidden cards
            assert client.get(rule.rule).status_code == (401 if referees_only else 200), rule.rule
    assert (table.snapshot(), table.log.list_games()) == before


def test_security_headers_and_local_assets(visitor: Browser) -> None:
    response = visitor.client.get("/")
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    for asset in ("style.css", "scoreboard.js", "referee.js"):
        assert visitor.client.get(f"/static/{asset}").status_code == 200
    html = visitor.client.get("/referee").get_data(as_text=True)
    assert "http://" not in html and "https://" not in html  # nothing from a CDN: the Pi is offline


def test_session_cookie_is_httponly_and_samesite(app: Flask) -> None:
    response = app.test_client().get("/api/referee")
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie


def test_a_games_own_statistics_are_shown(visitor: Browser, table: TableSession) -> None:
    game_id = table.start_game(GameSetup("pigzup", ("Emily", "Peter"), full_information=True), source="test")
    for _ in range(20):
        table.submit(GAMES["pigzup"].legal_actions(table.state)[0], source="test")
    stats = visitor.client.get(f"/api/history/{game_id}").json["stats"]
    assert [row["name"] for row in stats] == ["Emily", "Peter"]
    assert sum(row["races"] for row in stats) > 0
    page = visitor.client.get(f"/history/{game_id}").get_data(as_text=True)
    assert ">Reaction</th>" in page and "<th scope=\"row\">Peter</th>" in page
    corgi = start(table)
    assert visitor.client.get(f"/api/history/{corgi}").json["stats"] == []
