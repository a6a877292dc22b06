"""The SQLite event log: WAL, durable appends, and no way to rewrite history."""

from __future__ import annotations

import sqlite3

import pytest

from companion.games.base import GameSetup
from companion.table.log import EventLog


def test_events_are_append_only(db_path):
    log = EventLog(db_path)
    start = log.create_game(GameSetup("corgi-pileup", ("A", "B")), ts=1.0, source="t")
    log.append(start.game_id, 2.0, "t", "action", {"type": "deal", "seed": None})
    log.close()
    raw = sqlite3.connect(db_path)
    assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    for statement in ("UPDATE events SET source = 'x'", "DELETE FROM events"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute(statement)
    assert raw.execute("SELECT COUNT(*) FROM events").fetchone() == (2,)
    raw.close()


def test_games_are_listed_with_their_players_and_events_in_order(db_path):
    log = EventLog(db_path)
    first = log.create_game(GameSetup("corgi-pileup", ("A", "B"), "underdog"), ts=10.0, source="web")
    second = log.create_game(GameSetup("corgi-pileup", ("C", "D", "E")), ts=20.0, source="web")
    log.append(first.game_id, 11.0, "camera", "action", {"type": "play", "player": 0, "card": 4})
    log.set_status(first.game_id, "finished", 12.0, ["A"])
    games = log.list_games()
    assert [(g.id, g.variant, g.players, g.status, g.winners) for g in games] == [
        (first.game_id, "underdog", ("A", "B"), "finished", ("A",)),
        (second.game_id, "standard", ("C", "D", "E"), "playing", ()),
    ]
    assert [e.seq for e in log.events(first.game_id)] == [0, 1]
    assert log.events(first.game_id)[0].payload["players"] == ["A", "B"]
    assert log.latest_game() == second.game_id
    with pytest.raises(KeyError):
        log.append(99, 1.0, "t", "action", {})
    with pytest.raises(KeyError, match="no game 99"):
        log.game(99)
    log.close()


def test_closing_folds_the_write_ahead_log_into_the_database(db_path):
    log = EventLog(db_path)
    start = log.create_game(GameSetup("corgi-pileup", ("A", "B")), ts=1.0, source="t")
    for n in range(50):
        log.append(start.game_id, 2.0 + n, "t", "action", {"type": "deal", "seed": n})
    wal = db_path.with_name(db_path.name + "-wal")
    assert wal.stat().st_size > 0
    log.close()
    assert not wal.exists() or wal.stat().st_size == 0
    reopened = EventLog(db_path)
    assert len(reopened.events(start.game_id)) == 51
    reopened.close()
