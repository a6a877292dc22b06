"""The event log's schema versions and the forward migrations between them (``PRAGMA user_version``).

A log remembers the version of its schema. Opening it runs, in order and each in one transaction, the migrations
it has not had yet, so an upgraded table reads every game night stored before it. A log from a newer Tableside
than this one is refused rather than guessed at: a downgrade must never rewrite a newer log.

Version 1 is the schema as first shipped. Logs written before versioning say ``user_version = 0`` but already
hold these tables (and perhaps version 2's): every statement is ``IF NOT EXISTS``, so such steps only stamp them.
To change the schema, append a script to ``MIGRATIONS`` (never edit a published one) and keep a log of the
previous version as a test fixture.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

V1 = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    players TEXT NOT NULL,
    started_at REAL NOT NULL,
    ended_at REAL,
    status TEXT NOT NULL DEFAULT 'playing',
    winners TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    ts REAL NOT NULL,
    source TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('start', 'action', 'undo', 'end')),
    payload TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TRIGGER IF NOT EXISTS events_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
"""

V2 = """
CREATE TABLE IF NOT EXISTS prompts (
    game_id INTEGER NOT NULL REFERENCES games(id),
    id INTEGER NOT NULL,
    ts REAL NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('asked', 'answered', 'withdrawn')),
    payload TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS prompts_append_only_update BEFORE UPDATE ON prompts
BEGIN SELECT RAISE(ABORT, 'the prompt log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS prompts_append_only_delete BEFORE DELETE ON prompts
BEGIN SELECT RAISE(ABORT, 'the prompt log is append-only'); END;
"""
"""Version 2: the questions the table puts to the phones, and their answers (a log without them has none)."""

MIGRATIONS: tuple[str, ...] = (V1, V2)
"""``MIGRATIONS[i]`` takes a log from version ``i`` to ``i + 1``."""

SCHEMA_VERSION = len(MIGRATIONS)


class SchemaError(RuntimeError):
    """A log this Tableside cannot use: written by a newer version, or a migration failed (nothing changed)."""


def version(db: sqlite3.Connection) -> int:
    (found,) = db.execute("PRAGMA user_version").fetchone()
    return int(found)


def migrate(db: sqlite3.Connection, migrations: Sequence[str] = MIGRATIONS, where: str = "the log") -> int:
    """Bring the log on ``db`` (opened with ``isolation_level=None``) up to ``len(migrations)``; returns the
    version it had. Each step and its new version number commit together, or not at all."""
    start = version(db)
    if start > len(migrations):
        raise SchemaError(f"{where} has schema version {start}, written by a newer Tableside; this one reads up to "
                          f"{len(migrations)}: upgrade Tableside (docs/install.md), or restore an older backup")
    for number in range(start, len(migrations)):
        try:
            db.executescript(f"BEGIN IMMEDIATE;\n{migrations[number]}\nPRAGMA user_version = {number + 1};\nCOMMIT;")
        except sqlite3.Error as exc:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise SchemaError(f"cannot upgrade {where} from schema version {number} to {number + 1}: {exc}; "
                              "nothing was changed") from None
    return start
