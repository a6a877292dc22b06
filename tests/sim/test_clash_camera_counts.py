"""How Clash of Corgis' camera bots count a move the referee would type: the benchmark's typed and wrong shares."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator

import pytest

from companion.games.base import GameSetup
from companion.games.clash_of_corgis.actions import Parry, Pick, Play, Target
from companion.sim.clash_demo import ClashCameraBots
from companion.sim.clash_world import ClashWorld
from companion.table.log import EventLog
from companion.table.session import TableSession
from companion.vision.mat import CENTRE


def camera_bots(tmp_path, world_seed: int) -> Iterator[ClashCameraBots]:
    log = EventLog(tmp_path / "t.sqlite3")
    session = TableSession(log, seed=3)
    session.start_game(GameSetup("clash-of-corgis", ("Ann", "Ben", "Cat"), "original", {"first_player": 0}), "test")
    team = ClashCameraBots(session, ClashWorld(3, seed=world_seed, foes=False), world_seed=world_seed,
                           rng=random.Random(world_seed))
    yield team
    team.close()
    log.close()


@pytest.fixture
def bots(tmp_path) -> Iterator[ClashCameraBots]:
    yield from camera_bots(tmp_path, 1)


@pytest.fixture
def archer_bots(tmp_path) -> Iterator[ClashCameraBots]:
    yield from camera_bots(tmp_path, 0)  # Ann holds an Archer (a 7)


def singles(bots: ClashCameraBots, seat: int) -> list[Play]:
    """The singles ``seat`` could lead from the bots' own hands."""
    return [Play(seat, (card,)) for card in bots.truth.hands[seat]]


def test_a_move_the_table_recorded_late_is_the_cameras_not_typed_nor_wrong(bots) -> None:
    play = singles(bots, 0)[0]
    bots.session.submit(play, source="camera (whose turn it was)")  # just after the bots stopped waiting for it
    bots._type(play, "late", 0)
    assert (bots.typed, bots.wrong, bots.camera_moves) == (0, 0, 1) and len(bots._table_moves()) == 1


def test_a_misread_is_undone_and_typed_and_a_refused_entry_is_not_counted_as_typed(bots) -> None:
    meant, misread = singles(bots, 0)[:2]
    bots.session.submit(misread, source="camera (whose turn it was)")
    bots._type(meant, "misread", 0)
    assert (bots.typed, bots.wrong) == (1, 1)
    assert [m.event.payload for m in bots._table_moves()] == [meant.to_json()]
    bots._type(singles(bots, 0)[1], "out of turn", 1)  # Ann again: the table refuses it and records nothing
    assert (bots.typed, bots.wrong) == (1, 1) and len(bots._table_moves()) == 1


def test_the_archers_pick_the_camera_records_is_the_cameras_move_not_lost(archer_bots) -> None:
    """A random pick is a chance event, but the table records it from the card the camera sees turned up (not on
    its own, as a shuffle or a deal): the bots wait for it and count it (seed 4's picks were counted neither way,
    and the referee's entry of each was refused)."""
    bots, session = archer_bots, archer_bots.session
    seven = next(c for c in bots.truth.hands[0] if c.endswith("-7"))
    for move in (Play(0, (seven,)), Target(0, 1), Parry(1, None)):
        session.submit(move, source="test")
    pick = Pick(card=bots.truth.hands[1][0])
    session.submit(pick, source="camera")
    assert [m.event.payload["type"] for m in bots._table_moves()] == ["play", "target", "parry", "pick"]
    bots._type(pick, "late", 3)
    assert (bots.typed, bots.wrong, bots.camera_moves) == (0, 0, 1)


def test_a_card_taken_off_the_table_comes_back_once_the_camera_has_seen_it_go(bots) -> None:
    """The camera takes a card put back in its place within ``forget_frames`` for the same card and never reports it
    again (Treasure Island seed 17: a foe fought, reshuffled into the deck at once and turned up in its old place)."""
    world, (fresh, back) = bots.table_world, singles(bots, 0)[:2]
    bots._show(fresh, bots.truth, threading.Event())  # never on the table before: down at once
    assert world.faces(CENTRE) == list(fresh.cards)
    world.arrange({CENTRE: [*fresh.cards, *back.cards]})
    world.arrange({CENTRE: list(fresh.cards)})  # ``back`` taken into a hand
    showing = threading.Thread(target=bots._show, args=(back, bots.truth, threading.Event()))
    showing.start()
    for _ in range(bots.forget_frames + 1):
        world.scene()  # the camera films a frame
        assert world.faces(CENTRE) == list(fresh.cards), "put back before the camera could see it gone"
    while showing.is_alive():
        world.scene()
        showing.join(0.05)
    assert world.faces(CENTRE) == [*fresh.cards, *back.cards]
