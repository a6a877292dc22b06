"""Fixtures for the table layer: a session on a real SQLite file in a temporary folder."""

from __future__ import annotations

import pytest

from companion.games.base import GameSetup
from companion.table.log import EventLog
from companion.table.session import TableSession

EPTA = ("Emily", "Peter", "Taylor", "Amy")


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "table.sqlite3"


@pytest.fixture
def session(db_path):
    log = EventLog(db_path)
    yield TableSession(log, seed=7)
    log.close()


@pytest.fixture
def observed_setup() -> GameSetup:
    return GameSetup("corgi-pileup", EPTA)
