"""Nothing hidden from the players is shown without the referee PIN (issue 16): in a full-information game the
log holds the seeds of the companion's shuffles, which rebuild every hand and the draw pile."""

from __future__ import annotations

import json

import pytest

from companion.games.base import GameSetup
from companion.games.registry import GAMES
from companion.table.session import TableSession
from tests.web.conftest import Browser


def play_a_while(table: TableSession, game: str) -> list[int]:
    """A full-information game with a few moves; the seeds its chance actions recorded."""
    table.start_game(GameSetup(game, ("Amy", "Bob", "Cat"), full_information=True), source="test")
    for _ in range(6):
        moves = GAMES[game].legal_actions(table.state)
        if table.status() != "playing" or not moves:
            break
        table.submit(moves[0], source="test")
    seeds = [e.payload["seed"] for e in table.log.events(table.game_id) if e.payload.get("seed") is not None]
    assert seeds, "the game recorded no seed: the test would prove nothing"
    return seeds


def public_texts(browser: Browser, game_id: int) -> dict[str, str]:
    return {path: browser.client.get(path).get_data(as_text=True)
            for path in (f"/api/history/{game_id}", f"/history/{game_id}", "/api/state", "/", "/api/history")}


@pytest.mark.parametrize("game", list(GAMES))
def test_the_public_never_sees_a_seed(visitor: Browser, table: TableSession, game: str) -> None:
    seeds = play_a_while(table, game)
    for path, text in public_texts(visitor, table.game_id).items():
        leaked = [seed for seed in seeds if str(seed) in text]
        assert not leaked, f"{path} shows the seeds {leaked}"
    events = visitor.client.get(f"/api/history/{table.game_id}").json["events"]
    deals = [e for e in events if e["payload"].get("type") == "deal"]
    assert deals and all(e["payload"] == {"type": "deal"} for e in deals)  # that a deal happened is public
    assert "hands" not in json.dumps(visitor.client.get("/api/state").json)


def test_the_referee_sees_the_seeds(referee: Browser, table: TableSession) -> None:
    seeds = play_a_while(table, "corgi-pileup")
    record = referee.client.get(f"/api/history/{table.game_id}").get_data(as_text=True)
    assert all(str(seed) in record for seed in seeds)

