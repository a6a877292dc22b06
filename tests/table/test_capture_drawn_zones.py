"""Capture the Illusionist at a table without the mat: the players' grids drawn as zones (``companion calibrate
zones --game clash-of-corgis --variant capture``), the real recogniser reading rendered pictures, the tracker and
the table adapter turning what it sees into moves."""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.config import load_config
from companion.games.decks import load_deck
from companion.sim.capture_world import DECK, MAT, VARIANT, CaptureWorld
from companion.sim.render import write_reference_folder
from companion.sim.scene import render_scene
from companion.table.live import LiveTable
from companion.table.observations import CardSeen, Orientation
from companion.table.session import TableSession
from companion.vision.calibrate import catalog_from_folder
from companion.vision.catalog import Catalog
from companion.vision.live import recognizer_for
from companion.vision.mat import mat_layout
from companion.vision.pipeline import Recognizer
from companion.vision.registration import MatLocator
from companion.vision.seats import seat_of_zone, table_zone_names
from companion.vision.tracker import Tracker
from companion.vision.zones import save_zones
from tests.table.test_capture_table import ANA, BEN, SETUP, moves

FRAMES = 5  # frames filmed after each move: more than ``steady`` (3)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    deck = load_deck(DECK)
    with tempfile.TemporaryDirectory() as tmp:
        write_reference_folder(deck, tmp)
        return catalog_from_folder(deck, Path(tmp))


def world_across_the_picture() -> CaptureWorld:
    """Both grids laid face down, the camera turned so that the players sit at the picture's top and bottom
    (without a mat, upright is the picture's vertical: ``hardware/README.md``)."""
    world = CaptureWorld(3)
    world.base = replace(world.base, view=replace(world.base.view, roll=90.0))
    for seat, suit in ((ANA, "fire"), (BEN, "water")):
        for row in ("front", "back"):
            for column, rank in enumerate(("4", "9", "2", "7") if row == "front" else ("3", "5", "6", "8"), 1):
                world.put(seat, f"{row}-{column}", f"{suit}-{rank}")
    return world


def draw_zones(world: CaptureWorld, folder: Path) -> Path:
    """The zones a person draws around the places: each place of the mat's grids as the camera sees it (the mat
    printed under the cards plays no part: the recogniser is told there is none)."""
    picture = render_scene(replace(world.scene(), cards=())).image
    layout = mat_layout(MAT, DECK, VARIANT)
    to_frame = np.linalg.inv(MatLocator(layout).locate(picture))
    places = {zone.name: zone for zone in layout.zones}
    drawn = {}
    for name in table_zone_names(2, DECK, VARIANT):
        z = places[name]
        box = np.array([(z.x0, z.y0), (z.x1, z.y0), (z.x1, z.y1), (z.x0, z.y1)], np.float64).reshape(-1, 1, 2)
        drawn[name] = cv2.perspectiveTransform(box, to_frame).reshape(-1).round(1).tolist()
    save_zones(folder / "zones.toml", drawn, (picture.shape[1], picture.shape[0]))
    config = folder / "companion.toml"
    config.write_text('[camera]\nmat = "none"\nzones_file = "zones.toml"\n[web]\nenabled = false\n', encoding="utf-8")
    return config


def film(world: CaptureWorld, recognizer: Recognizer, tracker: Tracker, table: LiveTable) -> list:
    seen = []
    for _ in range(FRAMES):
        for observation in tracker.update(recognizer.process(render_scene(world.scene()).image).cards):
            table.observe(observation)
            seen.append(observation)
    table.drain()
    return seen


@pytest.mark.slow
def test_a_duel_is_refereed_from_the_grids_drawn_as_zones(tmp_path: Path, catalog: Catalog,
                                                          session: TableSession) -> None:
    world = world_across_the_picture()
    config = load_config(draw_zones(world, tmp_path))
    recognizer = recognizer_for(catalog, config.camera, config.resolve, VARIANT)
    assert recognizer.locator is None and len(recognizer.zones) == 24
    tracker = Tracker(steady=3, forget=10)
    session.start_game(SETUP, source="test")
    table = LiveTable(session, seat_of_zone)
    table.drain()
    film(world, recognizer, tracker, table)  # the face-down grids: nothing to report
    world.turn_up(ANA, "front-1")  # Ana's Monk: "Reveal one of your opponent's hidden cards in their front row."
    assert [(o.zone, o.face, o.orientation) for o in film(world, recognizer, tracker, table)] == [
        ("seat-2/front-1", "fire-4", Orientation.UPRIGHT)]
    world.rest(ANA, "front-1")  # the rules rest it; the card follows (nothing to record)
    world.turn_up(BEN, "front-1")  # Ben's own column 1 is the rules' column 4 (Ruling CI-13)
    seen = film(world, recognizer, tracker, table)
    assert [(o.zone, o.face) for o in seen if isinstance(o, CardSeen)] == [("seat-5/front-1", "water-4")]
    world.rest(BEN, "front-1")  # on his turn Ben activates his revealed Monk where it lies: turned sideways
    film(world, recognizer, tracker, table)
    assert moves(session) == [
        ("camera", {"type": "activate", "player": ANA, "slot": "front-1", "card": "fire-4", "column": None}),
        ("camera", {"type": "reveal-card", "player": ANA, "slot": "front-4", "card": "water-4", "column": None}),
        ("camera", {"type": "activate", "player": BEN, "slot": "front-4", "card": None, "column": None}),
    ]
    assert table.view()["objection"] is None
