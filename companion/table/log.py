"""The append-only event log in SQLite.

Every game is a ``start`` event (its setup) followed by ``action``, ``undo`` and ``end`` events. Nothing is
ever updated or deleted in ``events``; the ``games`` table is an index of summaries the session keeps current.
The ``prompts`` table records every question the table put to the players (asked, answered, withdrawn) beside
the game's events; the answer's move itself is an ordinary event.
WAL with ``synchronous=FULL`` means an event is on disk once ``append`` returns: a power cut then loses nothing
that was acknowledged, and a half-written transaction is rolled back on the next open.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.games.base import GameSetup
from companion.table.schema import SchemaError, migrate

WAL_LIMIT_BYTES = 1 << 20
"""An SD card wears with every block written: SQLite checkpoints the write-ahead log into the database every
1000 pages by itself; after a checkpoint the log file is cut back to this size instead of staying at its peak."""


@dataclass(frozen=True)
class Event:
    """One entry of a game's log. ``payload`` is the action's JSON (or the setup, undo or end details)."""

    game_id: int
    seq: int
    ts: float
    source: str
    kind: str
    payload: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "seq": self.seq,
            "ts": self.ts,
            "source": self.source,
            "kind": self.kind,
            "payload": self.payload,
        }


@dataclass(frozen=True)
class GameSummary:
    id: int
    game: str
    variant: str
    players: tuple[str, ...]
    started_at: float
    ended_at: float | None
    status: str  # "playing", "finished" or "abandoned"
    winners: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "variant": self.variant,
            "players": list(self.players),
            "started_at": self.started_at,
            "ended_at": self.ended_at,
            "status": self.status,
            "winners": list(self.winners),
        }


class EventLog:
    """A SQLite file (or ``":memory:"``) holding every game. Safe to share between threads."""

    def __init__(self, path: str | Path) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute(f"PRAGMA journal_size_limit={WAL_LIMIT_BYTES}")
        try:
            migrate(self._db, where=self.path)
        except SchemaError:
            self._db.close()
            raise

    def close(self) -> None:
        """Fold the write-ahead log into the database and close: a stopped table leaves one file to copy."""
        with self._lock:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._db.close()

    def create_game(self, setup: GameSetup, ts: float, source: str) -> Event:
        """Record a new game and its ``start`` event in one transaction."""
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            cur = self._db.execute(
                "INSERT INTO games (game, variant, players, started_at) VALUES (?, ?, ?, ?)",
                (setup.game, setup.variant, json.dumps(list(setup.players)), ts),
            )
            game_id = int(cur.lastrowid or 0)
            return self._insert(Event(game_id, 0, ts, source, "start", setup.to_json()))

    def append(self, game_id: int, ts: float, source: str, kind: str, payload: dict[str, Any]) -> Event:
        """Append one event; when this returns the event is durable."""
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            (last,) = self._db.execute("SELECT MAX(seq) FROM events WHERE game_id = ?", (game_id,)).fetchone()
            if last is None:
                raise KeyError(f"no game {game_id}")
            return self._insert(Event(game_id, last + 1, ts, source, kind, payload))

    def _insert(self, e: Event) -> Event:
        self._db.execute(
            "INSERT INTO events (game_id, seq, ts, source, kind, payload) VALUES (?, ?, ?, ?, ?, ?)",
            (e.game_id, e.seq, e.ts, e.source, e.kind, json.dumps(e.payload, separators=(",", ":"))),
        )
        return e

    def set_status(self, game_id: int, status: str, ended_at: float | None, winners: Sequence[str]) -> None:
        """Keep the game's summary row in step with its events (the events themselves never change)."""
        with self._lock, self._db:
            self._db.execute(
                "UPDATE games SET status = ?, ended_at = ?, winners = ? WHERE id = ?",
                (status, ended_at, json.dumps(list(winners)), game_id),
            )

    def events(self, game_id: int) -> list[Event]:
        with self._lock:
            rows = self._db.execute(
                "SELECT game_id, seq, ts, source, kind, payload FROM events WHERE game_id = ? ORDER BY seq",
                (game_id,),
            ).fetchall()
        return [Event(g, s, ts, src, k, json.loads(p)) for g, s, ts, src, k, p in rows]

    def record_prompt(self, game_id: int, prompt_id: int, ts: float, kind: str, payload: dict[str, Any]) -> None:
        """Append one line of a prompt's life (``asked``, ``answered`` or ``withdrawn``)."""
        with self._lock, self._db:
            self._db.execute(
                "INSERT INTO prompts (game_id, id, ts, kind, payload) VALUES (?, ?, ?, ?, ?)",
                (game_id, prompt_id, ts, kind, json.dumps(payload, separators=(",", ":"))),
            )

    def prompts(self, game_id: int) -> list[dict[str, Any]]:
        """A game's prompt lines in the order they happened."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, ts, kind, payload FROM prompts WHERE game_id = ? ORDER BY rowid", (game_id,)
            ).fetchall()
        return [{"id": i, "ts": ts, "kind": k, **json.loads(p)} for i, ts, k, p in rows]

    def list_games(self) -> list[GameSummary]:
        return self._summaries("1", ())

    def game(self, game_id: int) -> GameSummary:
        found = self._summaries("id = ?", (game_id,))
        if not found:
            raise KeyError(f"There is no game {game_id} in {self.path}.")
        return found[0]

    def _summaries(self, where: str, params: tuple[Any, ...]) -> list[GameSummary]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, game, variant, players, started_at, ended_at, status, winners FROM games "
                f"WHERE {where} ORDER BY id",
                params,
            ).fetchall()
        return [
            GameSummary(i, g, v, tuple(json.loads(p)), st, en, status, tuple(json.loads(w)))
            for i, g, v, p, st, en, status, w in rows
        ]

    def latest_game(self) -> int | None:
        with self._lock:
            row = self._db.execute("SELECT MAX(id) FROM games").fetchone()
        return row[0]
