"""How Clash of Corgis' camera bots count a move the referee would type: the benchmark's typed and wrong shares."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from companion.games.base import GameSetup
from companion.games.clash_of_corgis.actions import Play
from companion.sim.clash_demo import ClashCameraBots
from companion.sim.clash_world import ClashWorld
from companion.table.log import EventLog
from companion.table.session import TableSession


@pytest.fixture
def bots(tmp_path) -> Iterator[ClashCameraBots]:
    log = EventLog(tmp_path / "t.sqlite3")
    session = TableSession(log, seed=3)
    session.start_game(GameSetup("clash-of-corgis", ("Ann", "Ben", "Cat"), "original", {"first_player": 0}), "test")
    team = ClashCameraBots(session, ClashWorld(3, seed=1, foes=False), world_seed=1, rng=random.Random(1))
    yield team
    team.close()
    log.close()


def singles(bots: ClashCameraBots, seat: int) -> list[Play]:
    """The singles ``seat`` could lead from the bots' own hands."""
    return [Play(seat, (card,)) for card in bots.truth.hands[seat]]


def test_a_move_the_table_recorded_late_is_the_cameras_not_typed_nor_wrong(bots) -> None:
    play = singles(bots, 0)[0]
    bots.session.submit(play, source="camera (whose turn it was)")  # just after the bots stopped waiting for it
    bots._type_over(play, 0)
    assert (bots.typed, bots.wrong, bots.camera_moves) == (0, 0, 1) and len(bots._recorded()) == 1


def test_a_misread_is_undone_and_typed_and_a_refused_entry_is_not_counted_as_typed(bots) -> None:
    meant, misread = singles(bots, 0)[:2]
    bots.session.submit(misread, source="camera (whose turn it was)")
    bots._type_over(meant, 0)
    assert (bots.typed, bots.wrong) == (1, 1)
    assert [m.event.payload for m in bots._recorded()] == [meant.to_json()]
    bots._type_over(singles(bots, 0)[1], 1)  # Ann again, out of turn: the table refuses it and records nothing
    assert (bots.typed, bots.wrong) == (1, 1) and len(bots._recorded()) == 1
