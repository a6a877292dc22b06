"""A face-up card turned face down where it lies, through the renderer, the real recogniser and the tracker: its
face is reported gone (``face_down``), and seen again when it is turned back up."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.sim.capture_world import DECK, MAT, VARIANT, CaptureWorld
from companion.sim.scene import render_scene
from companion.table.observations import CardGone, CardSeen
from companion.vision.catalog import Catalog
from companion.vision.mat import mat_layout
from companion.vision.pipeline import Recognizer
from companion.vision.tracker import Tracker

FORGET = 6  # frames: the camera's forget_frames, short for the test


def film(world: CaptureWorld, recognizer: Recognizer, tracker: Tracker, frames: int) -> list:
    pictures = (render_scene(world.scene()).image for _ in range(frames))
    return [obs for picture in pictures for obs in tracker.update(recognizer.process(picture).cards)]


@pytest.mark.slow
def test_a_card_turned_face_down_in_its_place_is_reported_and_seen_again_when_turned_up(
        catalogs: dict[str, Catalog]) -> None:
    world = CaptureWorld(0)  # a scene whose card backs are found (in some, a back is missed: plain ``CardGone``)
    world.put(0, "front-2", "fire-4", up=True)
    world.put(1, "back-3", "water-9", up=True, rested=True)
    recognizer, tracker = Recognizer(catalogs[DECK], mat_layout(MAT, DECK, VARIANT)), Tracker(steady=3, forget=FORGET)
    recognizer.process(render_scene(replace(world.scene(), cards=())).image)  # the mat seen before the cards
    assert {(o.zone, o.face) for o in film(world, recognizer, tracker, 4) if isinstance(o, CardSeen)} == {
        ("seat-2/front-2", "fire-4"), ("seat-5/back-3", "water-9")}
    world.turn_down(0, "front-2")
    gone = film(world, recognizer, tracker, FORGET + 3)
    assert gone == [CardGone("seat-2/front-2", "fire-4", 11, face_down=True)]  # no ZoneCleared: a card lies there
    world.turn_up(0, "front-2")
    again = film(world, recognizer, tracker, 4)
    assert [(type(o), o.zone, o.face) for o in again] == [(CardSeen, "seat-2/front-2", "fire-4")]
