"""The printable mat: SVG and PDF for A3 and A2 whose markers the camera software finds, and zone lookup."""

from __future__ import annotations

import itertools
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision.detect import DetectSettings, cloth_level
from companion.vision.mat import SEATS_FOR_PLAYERS, grid_zone, mat_advice, mat_layout
from companion.vision.mat_print import mat_image, mat_pdf, mat_svg
from companion.vision.registration import MatLocator


@pytest.mark.parametrize("size", ["A3", "A2"])
def test_svg_is_sized_in_mm_and_lists_every_zone(size: str) -> None:
    layout = mat_layout(size)
    root = ET.fromstring(mat_svg(layout))
    assert root.get("width") == f"{layout.width}mm"
    labels = {t.text for t in root.iter("{http://www.w3.org/2000/svg}text")}
    assert {z.label for z in layout.zones} <= labels


@pytest.mark.parametrize("size", ["A3", "A2"])
def test_rasterised_mat_registers_with_all_four_markers(size: str) -> None:
    layout = mat_layout(size)
    image = mat_image(layout, 2.0)
    hom = MatLocator(layout).locate(image)
    assert hom is not None
    x, y = cv2.perspectiveTransform(layout.marker_corners()[2][:1].reshape(1, 1, 2) * 2.0, hom)[0, 0]
    assert abs(x - layout.marker_corners()[2][0, 0]) < 1.0 and abs(y - layout.marker_corners()[2][0, 1]) < 1.0


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils (pdftoppm) not installed")
def test_pdf_renders_and_its_markers_are_found(tmp_path: Path) -> None:
    layout = mat_layout("A3")
    pdf = tmp_path / "mat.pdf"
    pdf.write_bytes(mat_pdf(layout))
    subprocess.run(["pdftoppm", "-r", "60", "-png", str(pdf), str(tmp_path / "page")], check=True)
    image = cv2.imread(str(next(tmp_path.glob("page*.png"))))
    assert sorted(MatLocator(layout).markers(image)) == [0, 1, 2, 3]


def test_zones_and_seats() -> None:
    layout = mat_layout("A3")
    assert layout.zone_at(210, 150) == "centre"
    assert layout.zone_at(100, 250) == "seat-1"
    assert layout.zone_at(2, 2) is None
    assert all(len(seats) == n for n, seats in SEATS_FOR_PLAYERS.items())
    with pytest.raises(ValueError, match="A3, A2"):
        mat_layout("A4")


@pytest.mark.parametrize("seed", range(4))
def test_a_tilted_camera_registers_the_mat_to_within_a_few_mm(seed: int) -> None:
    from companion.sim.scene import mat_to_table, random_scene, render_scene

    scene = random_scene(np.random.default_rng(1500 + seed), [], hands=1)
    rendered = render_scene(scene)
    hom = MatLocator(mat_layout("A3")).locate(rendered.image)
    assert hom is not None
    ox, oy = mat_to_table(scene)
    for x, y in [(210.0, 148.5), (60.0, 250.0), (380.0, 40.0)]:  # mat mm
        seen = cv2.perspectiveTransform(np.array([[[ox + x, oy + y]]]), rendered.table_to_image)
        back = cv2.perspectiveTransform(seen, hom)[0, 0]
        assert np.hypot(back[0] - x, back[1] - y) < 3.0


def test_the_crazy_corgi_mat_splits_each_seat_into_three_kennels_and_the_centre_into_draw_and_discard() -> None:
    layout = mat_layout("A3", "crazy-corgi")
    assert layout.zone_at(60, 250) == "seat-1/kennel-1" and layout.zone_at(200, 250) == "seat-1/kennel-3"
    assert layout.zone_at(50, 110) == "seat-2/kennel-1" and layout.zone_at(50, 190) == "seat-2/kennel-3"
    assert layout.zone_at(150, 150) == "centre" and layout.zone_at(280, 150) == "discard"
    assert len(layout.zones) == 6 * 3 + 2
    assert layout.marker_corners().keys() == mat_layout("A3").marker_corners().keys()  # one camera set-up for both
    assert mat_layout("A3", "corgi-pileup").zones == mat_layout("A3").zones  # every other game: the usual mat
    labels = {t.text for t in ET.fromstring(mat_svg(layout)).iter("{http://www.w3.org/2000/svg}text")}
    assert {"SEAT 1 KENNEL 1", "DISCARD"} <= labels


def test_drawn_zones_for_a_kennel_game_name_the_kennels_and_the_discard_pile() -> None:
    from companion.vision.seats import table_zone_names

    assert table_zone_names(2) == ["seat-1", "seat-4", "centre"]
    assert table_zone_names(2, "crazy-corgi") == [
        "seat-1/kennel-1", "seat-1/kennel-2", "seat-1/kennel-3",
        "seat-4/kennel-1", "seat-4/kennel-2", "seat-4/kennel-3", "centre", "discard"]


def test_the_clash_mat_gives_each_seat_a_loot_pile_beside_its_party_and_the_centre_a_discard_pile() -> None:
    from companion.vision.seats import table_zone_names

    layout = mat_layout("A3", "clash-of-corgis")
    assert layout.zone_at(60, 250) == "seat-1" and layout.zone_at(200, 250) == "seat-1/loot"
    assert layout.zone_at(50, 110) == "seat-2" and layout.zone_at(50, 190) == "seat-2/loot"
    assert layout.zone_at(150, 150) == "centre" and layout.zone_at(280, 150) == "discard"
    assert len(layout.zones) == 6 * 2 + 2
    assert table_zone_names(2, "clash-of-corgis") == ["seat-1", "seat-1/loot", "seat-4", "seat-4/loot", "centre",
                                                      "discard"]


def test_a_table_on_a_mat_too_small_for_the_game_is_told_which_mat_it_needs() -> None:
    advice = mat_advice("crazy-corgi", "A3", "Crazy Corgi")
    assert advice is not None and advice.startswith("Crazy Corgi needs the A2 mat")
    assert 'mat = "A2"' in advice
    assert mat_advice("crazy-corgi", "A2") is None and mat_advice("crazy-corgi", "none") is None
    assert mat_advice("corgi-pileup", "A3") is None and mat_advice(None, "A3") is None


def test_a_mat_with_no_room_for_that_many_squirrels_players_is_told_what_to_use() -> None:
    """Four stacks a player, about 70 mm apart: two players on A2 (seats 1 and 4), none on A3; more need drawn
    zones."""
    assert mat_advice("squirrels", "A2", "Squirrels", players=2) is None
    assert mat_advice("squirrels", "none", "Squirrels", players=6) is None
    on_a3 = mat_advice("squirrels", "A3", "Squirrels", players=2)
    assert on_a3 is not None and on_a3.startswith("Squirrels for 2 players does not fit the A3 mat")
    assert 'mat = "A2"' in on_a3
    three = mat_advice("squirrels", "A2", "Squirrels", players=3)
    assert three is not None and "room for 2 such rows" in three and 'mat = "none"' in three
    assert "calibrate zones" in three


def test_captures_mat_has_two_grids_whose_columns_face_each_other() -> None:
    """Capture the Illusionist: 12 places a player at each end, none overlapping, each big enough for a card upright
    (88 mm towards its player) and the second player's own column C in the strip of the first's column 5 - C."""
    layout = mat_layout("A2", "clash-of-corgis", "capture")
    zones = {z.name: z for z in layout.zones}
    assert len(zones) == 24
    for a in layout.zones:
        assert a.x1 - a.x0 >= 88 and a.y1 - a.y0 >= 63 + 5  # the outer places stop short of the markers
        for b in layout.zones:
            assert a is b or a.x1 <= b.x0 or b.x1 <= a.x0 or a.y1 <= b.y0 or b.y1 <= a.y0
    for column in range(1, 5):
        mine, theirs = zones[grid_zone("seat-2", "front", column)], zones[grid_zone("seat-5", "front", 5 - column)]
        assert (mine.y0, mine.y1) == (theirs.y0, theirs.y1) and mine.x1 < theirs.x0
    for row in ("back", "front"):  # room for a rested card (88 mm across the columns) beside a rested neighbour
        middles = [(z.y0 + z.y1) / 2 for z in (zones[grid_zone("seat-2", row, c)] for c in range(1, 5))]
        assert all(abs(b - a) >= 88 + 8 for a, b in itertools.pairwise(middles))
        assert all(z.y1 - z.y0 >= 88 + 8 for z in (zones[grid_zone("seat-5", row, c)] for c in range(1, 5)))
    x = [zones[grid_zone("seat-2", row, 1)].x0 for row in ("exposed", "back", "front")]
    assert x == sorted(x), "the exposed hand row is nearest its player, the front row furthest"
    assert mat_layout("A2", "clash-of-corgis", "original").zones == mat_layout("A2", "clash-of-corgis").zones


def test_the_mat_and_the_light_table_beyond_it_are_levelled_apart() -> None:
    """A card's border must outshine the level of what it lies on (``detect.cloth_level``): just inside the dark
    mat's corner that is the mat's level, not a median taking in the light laminate around it; beyond the mat's
    edge, the laminate's."""
    frame = np.full((720, 1280, 3), 200, np.uint8)  # light laminate
    frame[300:, 400:] = (40, 70, 30)  # the mat, its top-left corner at (400, 300) px
    mat = np.array([(400, 300), (1300, 300), (1300, 730), (400, 730)], np.float64)
    settings = DetectSettings()
    inside, beyond = (420, 320), (380, 320)
    together = cloth_level(frame, settings)
    apart = cloth_level(frame, settings, mat=mat)
    assert together[inside[1], inside[0]] > 100  # the laminate's light taken in near the corner
    assert apart[inside[1], inside[0]] < 45 and apart[beyond[1], beyond[0]] > 190
