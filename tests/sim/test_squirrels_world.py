"""The simulated Squirrels tables: two players on the A2 mat; three or four on a bare table whose zones are drawn on
the camera's picture, as `companion calibrate zones` saves them. Every place the bots put a card lies in its zone,
and far enough from every other for the camera to see a lifted stack top go (hardware/README.md)."""

from __future__ import annotations

import itertools
import math
import random

import cv2
import numpy as np
import pytest

from companion.sim.render import CARD_MM
from companion.sim.scene import camera_homography, mat_outline, render_scene, table_extent
from companion.sim.squirrels_world import SAME_PLACE_MM, SAME_TURN, TURNED_REACH_MM, SquirrelsWorld
from companion.sim.table import simulated_catalog
from companion.table.observations import CardSeen
from companion.vision.pipeline import Recognizer
from companion.vision.tracker import Tracker
from companion.vision.zones import validate_zones

APART_MM = 70.0  # the camera takes a card it no longer sees for one covered within ~65 mm of a card it sees


def laid_out(players: int, seed: int = 1) -> SquirrelsWorld:
    """Every seat's four tops and a Skip card before it, and a pile of a few plays."""
    rng = random.Random(seed)
    world = SquirrelsWorld(players, seed=seed)
    for seat in range(players):
        for stack in range(4):
            world.lay_top(seat, stack, rng.choice(["1", "4", "7", "10", "wild", "push"]))
        world.set_skip(seat)
    for faces in (["3", "3"], ["2"], ["2", "wild"], ["1"]):
        world.land(faces)
    return world


def zone_of(world: SquirrelsWorld, zones: dict[str, np.ndarray], x: float, y: float) -> str | None:
    """The drawn zone holding table point (x, y) mm, seen through the simulated camera."""
    to_frame = camera_homography(world.base.view, table_extent(world.base), world.base.frame, mat_outline(world.base))
    point = cv2.perspectiveTransform(np.array([[[x, y]]], np.float64), to_frame)[0, 0]
    return next((name for name, polygon in zones.items()
                 if cv2.pointPolygonTest(polygon.reshape(-1, 1, 2), tuple(map(float, point)), False) >= 0), None)


def test_two_players_play_on_the_a2_mat() -> None:
    world = SquirrelsWorld(2, seed=1)
    assert not world.drawn and world.mat == "A2" and world.drawn_zones() == {}
    assert world.seat_zones == ("seat-1", "seat-4")
    with pytest.raises(ValueError, match="seats 4 players, not 5"):
        SquirrelsWorld(5, seed=1)


@pytest.mark.parametrize("players", [3, 4])
def test_three_or_four_players_play_on_zones_drawn_on_the_cameras_picture(players: int) -> None:
    world = laid_out(players)
    assert world.drawn and world.mat == "none" and world.base.mat is None
    zones = validate_zones(world.drawn_zones(), world.base.frame)  # what `calibrate zones` would accept and save
    assert set(zones) == {*world.seat_zones, "centre"}
    for (seat, _stack), top in world.tops.items():
        assert zone_of(world, zones, top.x, top.y) == world.seat_zones[seat]
    for seat, skip in world.skips.items():
        assert zone_of(world, zones, skip.x, skip.y) == world.seat_zones[seat]
    assert {zone_of(world, zones, card.x, card.y) for card in world.pile} == {"centre"}
    seen = [*world.tops.values(), *world.skips.values()]
    for a, b in itertools.combinations(seen, 2):
        assert math.hypot(a.x - b.x, a.y - b.y) >= APART_MM, "a lifted top would be taken for a covered one"
    assert all(math.hypot(a.x - b.x, a.y - b.y) >= APART_MM for a in world.tops.values() for b in world.pile)


@pytest.mark.slow
def test_the_camera_reads_every_card_of_a_four_player_table_in_its_drawn_zone(camera_config) -> None:
    world = laid_out(4, seed=2)
    recognizer = Recognizer(simulated_catalog(camera_config, "squirrels"), None, world.drawn_zones(),
                            zones_drawn_on=world.base.frame)
    tracker = Tracker(steady=3)
    seen = [o for _ in range(6) for o in tracker.update(recognizer.process(render_scene(world.scene()).image).cards)
            if isinstance(o, CardSeen)]  # each frame with its own sensor noise, as the camera films a still table
    expected = [(world.seat_zones[seat], card.face) for (seat, _), card in world.tops.items()]
    expected += [(world.seat_zones[seat], "skip") for seat in world.skips]
    assert sorted((o.zone, o.face) for o in seen if o.zone != "centre") == sorted(expected)
    assert ("centre", world.pile[-1].face) in [(o.zone, o.face) for o in seen]  # the newest play, on top


@pytest.mark.parametrize("players", [2, 3])
def test_a_card_is_never_put_where_the_camera_would_take_it_for_an_older_card_of_its_face(players: int) -> None:
    """Two 9s on two 9s on three 10s (a whole pile's width): the camera takes a card of the same face lying the
    other way within ~65 mm of an older one for that card turned where it lay, and one lying the same way within
    30 mm for that card itself; the new 9s lie clear of both."""
    for seed in range(5):
        world = SquirrelsWorld(players, seed=seed)
        for faces in (["10", "10", "10"], ["9", "9"], ["9", "9"]):
            world.land(faces)
        nines = [card for card in world.pile if card.face == "9"]
        for old, new in itertools.product(nines[:2], nines[2:]):
            apart = abs(old.angle - new.angle) % 180.0
            reach = TURNED_REACH_MM if min(apart, 180.0 - apart) >= SAME_TURN else SAME_PLACE_MM
            assert math.hypot(old.x - new.x, old.y - new.y) >= reach - 3.0, (seed, old, new)  # a hand's jitter


@pytest.mark.parametrize("plays", [(["4", "4"], ["4", "4"]), (["3", "3", "3"], ["3"]), (["2", "2"], ["9"], ["2"])])
def test_a_play_onto_cards_of_its_face_lies_clear_of_them_whatever_the_jitter(plays: tuple[list[str], ...]) -> None:
    """Two 4s onto two 4s fit only in a few mm between and beside them (the bench once found no place there and
    laid them squarely on the older 4s, where the camera never sees them): every new card lies clear of the older
    cards of its face."""
    for seed in range(20):
        world = SquirrelsWorld(2, seed=seed)
        for faces in plays:
            world.land(faces)
        new, older = world.pile[-len(plays[-1]):], world.pile[:-len(plays[-1])]
        for card, old in itertools.product(new, older):
            if card.face == old.face:
                assert math.hypot(card.x - old.x, card.y - old.y) >= SAME_PLACE_MM - 3.0, (seed, card, old)


@pytest.mark.parametrize("players", [2, 3])
def test_a_play_lies_clear_of_the_older_cards_by_the_gap_the_camera_needs_where_the_pile_has_room(players) -> None:
    """Two 5s beside two 5s on a bare table once lay 5 mm apart, and the camera read the nearer one as no card: a
    card put on the pile lies on an older card or clear of each by the gap between the cards of one play (less
    the jitter of a hand putting it down), never just beside one."""
    for seed in range(10):
        world = SquirrelsWorld(players, seed=seed)
        for faces in (["5", "5"], ["5", "5"]):
            world.land(faces)
        for card, old in itertools.product(world.pile[2:], world.pile[:2]):
            beside = world.gap - 3.0  # two cards' jitter
            grown = ((card.x, card.y), (CARD_MM[0] + 2 * beside, CARD_MM[1] + 2 * beside), card.angle)
            older = ((old.x, old.y), CARD_MM, old.angle)
            on = cv2.rotatedRectangleIntersection(((card.x, card.y), CARD_MM, card.angle), older)[0]
            near = cv2.rotatedRectangleIntersection(grown, older)[0]
            assert on != cv2.INTERSECT_NONE or near == cv2.INTERSECT_NONE, (seed, card, old)
