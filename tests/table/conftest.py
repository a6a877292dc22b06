"""Fixtures for the table layer: a session on a real SQLite file in a temporary folder."""

from __future__ import annotations

import pytest

from companion.games.base import GameSetup
from companion.table.live import LiveTable
from companion.table.log import EventLog
from companion.table.observations import CardGone, CardSeen, QuietFrame, ZoneCleared
from companion.table.session import TableSession

EPTA = ("Emily", "Peter", "Taylor", "Amy")
STILL_FRAMES = 30  # what the camera films after a card comes to rest in a test: two seconds of a still table


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


class Lights:
    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[int, ...]]] = []

    def announce(self, kind: str, seats: tuple[int, ...]) -> None:
        self.calls.append((kind, seats))


@pytest.fixture
def lights() -> Lights:
    return Lights()


class Camera:
    """Frame numbers for the observations a test feeds, as the tracker would number them."""

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.frame = 0

    def lands(self, *faces: str, zone: str = "centre", then: int = STILL_FRAMES) -> None:
        """Cards coming to rest in ``zone`` in one frame, reported together as the camera watcher does; then the
        camera films ``then`` frames of a still table (each reported, with nothing in it, as the watcher does)."""
        self.frame += 1
        self.table.observe_frame([CardSeen(zone, face, 0.9, self.frame) for face in faces])
        self.films(then)

    def films(self, frames: int) -> None:
        """``frames`` frames in which nothing new comes to rest."""
        for _ in range(frames):
            self.frame += 1
            self.table.observe_frame([QuietFrame(self.frame)])
        self.table.drain()

    def gone(self, face: str, zone: str = "centre") -> None:
        self.frame += 1
        self.table.observe_frame([CardGone(zone, face, self.frame)])
        self.table.drain()

    def cleared(self, zone: str) -> None:
        """The last card the camera knew in ``zone`` is gone (a Kennel discarded, a trick collected)."""
        self.frame += 1
        self.table.observe_frame([ZoneCleared(zone, self.frame)])
        self.table.drain()
