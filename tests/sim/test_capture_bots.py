"""Capture the Illusionist's camera bots lay the cards as the rules hold them, and wait for the camera as a player's
turn would: a card turned face down is not turned up again before the camera has reported it gone."""

from __future__ import annotations

import random
import threading

from companion.games.base import GameSetup
from companion.sim.capture_demo import CaptureBots
from companion.sim.capture_world import SEAT_ZONES, CaptureWorld
from companion.table.live import LiveTable
from companion.table.observations import CardGone, CardSeen
from companion.table.session import TableSession
from companion.vision.seats import seat_of_zone

ANA = 0
SETUP = GameSetup("clash-of-corgis", ("Ana", "Ben"), "capture", {"first_player": ANA}, seats=SEAT_ZONES)


def test_a_card_turned_face_down_stays_down_until_the_camera_has_reported_it_gone(camera_session: TableSession) -> None:
    """Capture seed 25: the Illusionist, shuffled back face down where it lay, was turned up by the opponent's
    Wild before the camera had reported it down (it lost the card's back at a recheck, and had counted neither
    frames enough to call it turned down nor to call it gone): the reveal was never reported, and typed."""
    session = camera_session
    session.start_game(SETUP, source="test")
    table = LiveTable(session, seat_of_zone)
    world = CaptureWorld(seed=1)
    bots = CaptureBots(session, world, world_seed=1, rng=random.Random(0), pace=0.0, forget_frames=2)
    truth = bots._follow()
    card = str(truth.tables[ANA]["front-1"].card)
    place = bots._own(truth, ANA, "front-1")
    world.put(ANA, place, card, up=True)  # face up where the rules hold it hidden: it is to be turned down
    zone = world.zone(ANA, place)
    table.observe(CardSeen(zone, card, 0.9, 1))
    table.drain()
    assert zone in bots._view()["seen"]
    tidying = threading.Thread(target=bots._tidy, args=(truth, threading.Event()))
    tidying.start()
    for _ in range(bots.picked_up_frames + 5):  # more than the frames the bots gave the camera before
        world.scene()  # the camera films a frame
        tidying.join(0.02)
    assert tidying.is_alive(), "the bots moved on before the camera reported the card gone"
    table.observe(CardGone(zone, card, 2, face_down=True))
    table.drain()
    while tidying.is_alive():
        world.scene()
        tidying.join(0.05)
    assert not world.faces(ANA)[place].up
    bots.close()
