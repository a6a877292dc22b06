"""How the camera-playing bots count a move the referee would type: the benchmark's typed and wrong shares."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from companion.games.base import GameSetup
from companion.games.registry import get_game
from companion.sim.table_bots import TableBots
from companion.table.log import EventLog
from companion.table.session import TableSession


@dataclass
class StillWorld:
    frames: int = 0


class Bots(TableBots):
    rules = get_game("corgi-pileup")


@pytest.fixture
def bots(tmp_path) -> Iterator[Bots]:
    log = EventLog(tmp_path / "t.sqlite3")
    session = TableSession(log)
    session.start_game(GameSetup("corgi-pileup", ("Ann", "Ben", "Cat")), "test")
    team = Bots(session, StillWorld(), world_seed=1, rng=random.Random(1))
    yield team
    team.close()
    log.close()


def test_a_move_the_table_recorded_late_is_the_cameras_not_typed_nor_wrong(bots) -> None:
    action = bots.rules.legal_actions(bots._follow())[0]
    bots.session.submit(action, source="camera")  # just after the bots stopped waiting for it
    bots._type(action, "the camera did not report it")
    assert (bots.typed, bots.wrong, bots.camera_moves) == (0, 0, 1)
    assert bots._moves() == [action.to_json()]


def test_a_move_the_table_missed_is_typed_and_one_it_got_wrong_is_undone_first(bots) -> None:
    first = bots.rules.legal_actions(bots._follow())[0]
    bots._type(first, "the camera did not report it")
    assert (bots.typed, bots.wrong) == (1, 0) and bots._moves() == [first.to_json()]
    second, misread = bots.rules.legal_actions(bots._follow())[:2]
    bots.session.submit(misread, source="camera")
    bots._type(second, "the camera misread it")
    assert (bots.typed, bots.wrong) == (2, 1)
    assert bots._moves() == [first.to_json(), second.to_json()]
