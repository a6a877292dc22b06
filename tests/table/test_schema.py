"""Schema versions of the event log: a log written before versioning is read whole after an upgrade.

``fixtures/log-v0.sqlite3`` was written by the code of commit f4c8e38 (before ``PRAGMA user_version``): a finished
three-player Corgi Pileup game with an undo in it, and a two-player PigzUp! game still in play.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.cli import main
from companion.table.log import EventLog
from companion.table.replay import fold
from companion.table.schema import MIGRATIONS, SCHEMA_VERSION, SchemaError, migrate, version
from companion.table.session import TableSession

FIXTURE = Path(__file__).parent / "fixtures" / "log-v0.sqlite3"


@pytest.fixture
def old_log(tmp_path) -> Path:
    path = tmp_path / "tableside.sqlite3"
    shutil.copy(FIXTURE, path)
    return path


def raw_rows(path: Path) -> tuple[list, list]:
    db = sqlite3.connect(path)
    try:
        return (db.execute("SELECT * FROM games ORDER BY id").fetchall(),
                db.execute("SELECT * FROM events ORDER BY game_id, seq").fetchall())
    finally:
        db.close()


def test_the_log_written_before_versioning_is_upgraded_with_every_game(old_log):
    before = raw_rows(old_log)
    assert len(before[0]) == 2 and len(before[1]) == 41
    log = EventLog(old_log)
    games = log.list_games()
    assert [(g.game, g.status, g.players) for g in games] == [
        ("corgi-pileup", "finished", ("Emily", "Peter", "Taylor")),
        ("pigzup", "playing", ("Ben", "Cleo")),
    ]
    corgi = fold(log.events(1))
    assert corgi.ruleset.outcome(corgi.state) is not None
    assert [e.kind for e in log.events(1)].count("undo") == 1
    assert log.prompts(2) == []  # version 2's table, added empty
    log.close()
    assert raw_rows(old_log) == before  # not one row changed
    db = sqlite3.connect(old_log)
    assert version(db) == SCHEMA_VERSION
    db.close()


def test_the_table_resumes_the_game_in_play_from_an_upgraded_log(old_log):
    log = EventLog(old_log)
    session = TableSession(log, seed=1)
    assert session.game_id == 2 and session.status() == "playing"
    assert session.game.setup.players == ("Ben", "Cleo")
    log.record_prompt(2, 1, 5.0, "asked", {"question": "Who shouted first?"})
    assert [p["kind"] for p in log.prompts(2)] == ["asked"]
    log.close()


def test_a_new_log_starts_at_the_current_version_and_reopening_changes_nothing(tmp_path):
    path = tmp_path / "new.sqlite3"
    EventLog(path).close()
    db = sqlite3.connect(path, isolation_level=None)
    assert version(db) == SCHEMA_VERSION
    assert migrate(db) == SCHEMA_VERSION
    db.close()


def test_a_later_migration_runs_once_and_in_order(old_log):
    later = (*MIGRATIONS, "ALTER TABLE games ADD COLUMN table_name TEXT NOT NULL DEFAULT 'kitchen';")
    db = sqlite3.connect(old_log, isolation_level=None)
    assert migrate(db, later) == 0
    assert version(db) == len(later)
    assert db.execute("SELECT DISTINCT table_name FROM games").fetchall() == [("kitchen",)]
    assert migrate(db, later) == len(later)
    db.close()


def test_a_failing_migration_changes_nothing(old_log):
    broken = (*MIGRATIONS, "CREATE TABLE notes (x); ALTER TABLE nowhere ADD COLUMN y;")
    db = sqlite3.connect(old_log, isolation_level=None)
    migrate(db)
    with pytest.raises(SchemaError, match=f"from schema version {SCHEMA_VERSION} to .*nothing was changed"):
        migrate(db, broken)
    assert version(db) == SCHEMA_VERSION
    assert db.execute("SELECT name FROM sqlite_master WHERE name = 'notes'").fetchall() == []
    db.close()


def test_a_log_from_a_newer_tableside_is_refused_untouched(old_log, tmp_path, capsys):
    db = sqlite3.connect(old_log, isolation_level=None)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    before = raw_rows(old_log)
    with pytest.raises(SchemaError, match="newer Tableside"):
        EventLog(old_log)
    assert raw_rows(old_log) == before
    config = tmp_path / "companion.toml"
    config.write_text(f'[table]\ndatabase = "{old_log}"\n', encoding="utf-8")
    assert main(["-c", str(config), "log"]) == 2
    assert "written by a newer Tableside" in capsys.readouterr().err
