"""Moving a rough card outline onto the card's own edges (``snap_to_edges``), on drawn pictures whose true edges
are known."""

from __future__ import annotations

import cv2
import numpy as np

from companion.sim.scene import Card, Look, Scene, View, mat_outline, render_scene
from companion.vision.catalog import TWINS, Catalog, Match
from companion.vision.detect import CARD_ASPECT, DetectSettings, portrait_order
from companion.vision.edges import corner_quads, edge_map, edge_quads, line_quads, side_quads, snap_to_edges
from companion.vision.pipeline import Recognizer


def _card_on_a_light_table(frame_line: int) -> tuple[np.ndarray, np.ndarray]:
    """A white card (126 x 176 px, turned 20°) with a dark frame line ``frame_line`` (0: none) px inside its edge,
    on a table nearly as light as it: the picture and the card's corners."""
    image = np.full((480, 640, 3), 196, np.uint8)
    box = ((320.0, 240.0), (126.0, 176.0), 20.0)
    corners = cv2.boxPoints(box).astype(np.float32)
    cv2.fillPoly(image, [np.rint(corners).astype(np.int32)], (226, 228, 230), cv2.LINE_AA)
    if frame_line:
        inner = cv2.boxPoints((box[0], (126.0 - 2 * frame_line, 176.0 - 2 * frame_line), 20.0))
        cv2.polylines(image, [np.rint(inner).astype(np.int32)], True, (120, 110, 170), 2, cv2.LINE_AA)
    return image, portrait_order(corners)


def _gap(a: np.ndarray, b: np.ndarray) -> float:
    """The largest distance between corresponding corners of two outlines, whichever corner each starts at."""
    return min(float(np.hypot(*(np.roll(a, k, axis=0) - b).T).max()) for k in range(4))


def test_an_outline_a_few_px_off_is_moved_onto_the_card_edge_not_its_frame() -> None:
    image, truth = _card_on_a_light_table(frame_line=9)
    centre = truth.mean(axis=0)
    rough = (centre + (truth - centre) * 1.06 + (4.0, -3.0)).astype(np.float32)  # grown and shifted, as a leak
    snapped = snap_to_edges(image, rough, CARD_ASPECT)
    assert _gap(rough, truth) > 6
    assert snapped and _gap(snapped[0], truth) < 1.5  # the frame line inside is stronger; the edge is outermost


def test_a_window_around_a_lone_card_outlines_it_no_wider_than_it_is() -> None:
    """A window read sees one card and the table around it. The card's edges are then the only edges, and what
    lies between the edge-free regions (label 0 of their pieces) is those edges: taken for a region and grown
    outward as a region's rim is, it outlined the card several px too wide (a 3 on white laminate, 5 px, then
    aligned onto its face askew by 9 px)."""
    image, truth = _card_on_a_light_table(frame_line=9)
    window = image[100:380, 180:460]  # the card fills ~30% of it, as a window read's card played does
    origin = np.array([180.0, 100.0], np.float32)
    quads = edge_quads(edge_map(window), window.shape, DetectSettings(min_area=0.02, max_area=0.6), opened=True)
    assert quads and min(_gap(q + origin, truth) for q in quads) < 2.5
    assert all(cv2.contourArea(q) <= cv2.contourArea(truth) * 1.03 for q in quads)  # none grown outward


def test_the_frame_inside_is_offered_too_but_only_in_the_card_shape() -> None:
    image, truth = _card_on_a_light_table(frame_line=9)
    snapped = snap_to_edges(image, truth, CARD_ASPECT, count=5)
    for quad in snapped:
        sides = np.hypot(*(np.roll(quad, -1, axis=0) - quad).T)
        assert abs((sides[1] + sides[3]) / (sides[0] + sides[2]) / CARD_ASPECT - 1) <= 0.12


def test_views_on_the_edges_confirm_or_overrule_an_edge_guess_but_only_confirm_a_broken_outline(
    catalogs: dict[str, Catalog],
) -> None:
    """``Recognizer._checked``: an edge search's guess named 2♣ at 0.52 whose view moved onto the edges reads 2♠ at
    once is overruled by it; a border-mask outline a neighbour or a hand broke (``overrule=False``) is made unknown
    instead (the views may lie on the neighbour's edges), and confirmed when they read it as it was read."""
    recognizer = Recognizer(catalogs["corgi-pileup"])
    rough, on_edges = np.zeros((4, 2), np.float32), np.ones((4, 2), np.float32)
    guess = Match("2c", 0.52, "2c", 0.004, False)
    moved = [(Match("2s", 1.0, "2s", 0.002, False), on_edges)]
    overruled = recognizer._checked(guess, rough, moved)
    assert overruled is not None and overruled[0].face == "2s" and overruled[1] is on_edges
    assert recognizer._checked(guess, rough, moved, overrule=False) is None
    agreeing = [(Match("2c", 0.9, "2c", 0.002, False), on_edges)]
    confirmed = recognizer._checked(guess, rough, agreeing, overrule=False)
    assert confirmed is not None and confirmed[0].face == "2c" and confirmed[1] is on_edges


def test_a_club_and_the_spade_of_its_rank_are_twins_a_four_of_spades_and_of_diamonds_are_not(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """``Catalog.difference``, which ``Recognizer._checked`` asks before a view on the edges may disown an outline's
    face: views a few px apart are expected to swap twins, not to turn a black face into a red one."""
    for catalog in foreign_catalogs.values():
        assert catalog.difference("8c", "8s") == catalog.difference("8s", "8c") < TWINS
        assert catalog.difference("4s", "4d") > TWINS
        assert catalog.difference("4s", "4s") == 0.0


def test_straight_sides_outline_a_card_a_tilted_camera_foreshortens() -> None:
    """Tilted 35 degrees across its long side, a card on white laminate looks 18% squatter than the deck's aspect;
    its four sides, found as straight segments (``line_quads``), still outline it (``LINE_ASPECT``)."""
    cx, cy = mat_outline(Scene(mat=None)).mean(axis=0)
    scene = Scene(cards=(Card("corgi-pileup", "5", cx, cy, 0.0),), cloth="white-laminate", mat=None,
                  view=View(tilt=35.0, azimuth=90.0), look=Look(noise=2.0))
    rendered = render_scene(scene)
    truth = rendered.truths[0].corners
    quads = line_quads(rendered.image, DetectSettings(aspect=CARD_ASPECT))
    off = [np.linalg.norm(np.roll(truth, k, axis=0) - q, axis=1).max() for q in quads for k in range(4)]
    assert min(off, default=np.inf) < 6.0


def test_a_card_is_outlined_by_its_sides_on_a_cloth_whose_stripes_are_longer_and_more() -> None:
    """A card turned 30° on a striped cloth whose hundred-odd stripe edges all run longer than the card's sides:
    they do not take every segment kept (``PER_DIRECTION``), and the card's four sides outline it."""
    image = np.full((720, 1280, 3), 70, np.uint8)
    for y in range(0, 720, 12):
        image[y : y + 6] = 140
    corners = cv2.boxPoints(((640.0, 360.0), (126.0, 176.0), 30.0))
    cv2.fillConvexPoly(image, np.rint(corners).astype(np.int32), (225, 225, 225), cv2.LINE_AA)
    quads = line_quads(image, DetectSettings(aspect=CARD_ASPECT))
    assert min((_gap(q, portrait_order(corners)) for q in quads), default=np.inf) < 4.0


TO_TABLE = np.diag([0.5, 0.5, 1.0])  # 2 px a mm


def _two_sides(pieces: tuple[tuple[float, float], ...]) -> tuple[np.ndarray, np.ndarray]:
    """Two sides of a card (63 x 88 mm at 2 px/mm, turned 20°) meeting at a corner, each drawn as ``pieces``
    (px from the corner along the side), on a dark table: the picture and the card's corners."""
    image = np.full((480, 640, 3), 90, np.uint8)
    corners = cv2.boxPoints(((320.0, 240.0), (126.0, 176.0), 20.0)).astype(np.float64)
    corner = corners[2]
    for end in (corners[1], corners[3]):
        unit = (end - corner) / np.linalg.norm(end - corner)
        for start, stop in pieces:
            a, b = corner + start * unit, corner + stop * unit
            cv2.line(image, tuple(np.rint(a).astype(int)), tuple(np.rint(b).astype(int)), (230, 230, 230), 2,
                     cv2.LINE_AA)
    return image, portrait_order(corners.astype(np.float32))


def test_two_sides_meeting_at_a_corner_give_the_card_at_its_true_size() -> None:
    """Only two sides of a card show, each broken in two by a gap, and each stopping short of the corner they meet
    at (a card's corner is round): with the table's scale known, the rectangle of the card's size at that corner is
    among the outlines (``corner_quads``); without it, none is."""
    image, corners = _two_sides(((8.0, 50.0), (56.0, 110.0)))
    found = corner_quads(image, DetectSettings(), [(np.array([320.0, 240.0]), TO_TABLE)], (63.0, 88.0))
    assert min(_gap(c.quad, corners) for c in found if not c.crossed) < 4.0  # 2 mm
    assert corner_quads(image, DetectSettings(), [], (63.0, 88.0)) == []


def _crossed_at(half_length: float) -> list[bool]:
    """The same two sides, and a segment through the card's centre, turned 30° from its sides, ``half_length`` px
    each way: whether each outline ``corner_quads`` gives at the card's corner is crossed, the most lined first."""
    image, corners = _two_sides(((8.0, 110.0),))
    across = np.array([np.cos(np.radians(50.0)), np.sin(np.radians(50.0))])
    ends = [tuple(np.rint(np.array([320.0, 240.0]) + k * half_length * across).astype(int)) for k in (-1, 1)]
    cv2.line(image, ends[0], ends[1], (230, 230, 230), 2, cv2.LINE_AA)
    found = corner_quads(image, DetectSettings(), [(np.array([320.0, 240.0]), TO_TABLE)], (63.0, 88.0))
    assert [c.crossed for c in found] == sorted(c.crossed for c in found)  # those crossed come last
    return [c.crossed for c in found if _gap(c.quad, corners) < 6.0]  # 3 mm


def test_a_card_another_cards_side_crosses_is_fitted_at_its_corner_as_crossed() -> None:
    """A segment running into the card from beyond its inner outline: another card's side lying on it, or the edge
    of an arm over it. The rectangle at the corner may be half the card on top: it is given, but as crossed
    (``Completed.crossed``), after the rest."""
    assert set(_crossed_at(70.0)) == {True}


def test_a_segment_wholly_inside_a_card_does_not_cross_it() -> None:
    """A shorter segment, wholly inside the card's inner outline: the card's own art (two diamonds' edges in line),
    not another card's side."""
    assert set(_crossed_at(30.0)) == {False}


def _three_sides(base: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Three sides of a card (126 x 176 px, turned 20°) on a dark table: the side from corner ``base[0]`` to
    ``base[1]``, and the two leaving it square, each stopping 6 px short of its corners (a card's corners are round)
    and the two running on 40 px past the card, as a row's sides run on over the cards under its top one. The
    fourth side is not drawn: the card's paper runs on into the next one's. The picture and the card's corners."""
    image = np.full((480, 640, 3), 90, np.uint8)
    corners = cv2.boxPoints(((320.0, 240.0), (126.0, 176.0), 20.0)).astype(np.float64)
    a, b = (corners[k] for k in base)
    far = {base[0]: corners[(base[0] - 1) % 4 if (base[0] + 1) % 4 == base[1] else (base[0] + 1) % 4],
           base[1]: corners[(base[1] + 1) % 4 if (base[0] + 1) % 4 == base[1] else (base[1] - 1) % 4]}
    unit = (b - a) / np.linalg.norm(b - a)
    lines = [(a + 6 * unit, b - 6 * unit)]
    for start in (a, b):
        away = far[base[0] if start is a else base[1]] - start
        lines.append((start + 6 * away / np.linalg.norm(away), start + away * (1 + 40 / np.linalg.norm(away))))
    for p, q in lines:
        cv2.line(image, tuple(np.rint(p).astype(int)), tuple(np.rint(q).astype(int)), (230, 230, 230), 2,
                 cv2.LINE_AA)
    return image, portrait_order(corners.astype(np.float32))


def test_a_side_with_a_square_corner_at_each_end_gives_the_card_where_no_scale_is_known() -> None:
    """Three sides of a card show, the two square to the third running on past it: nothing in view says how large
    a card is, but the side between the two corners is one of the card's, so its length does (``side_quads``):
    the card is among the outlines, its fourth side placed by the deck's aspect, whether the side seen is its short
    or its long one."""
    for base in ((0, 1), (1, 2)):
        image, corners = _three_sides(base)
        found = side_quads(image, DetectSettings(), (63.0, 88.0))
        assert found and min(_gap(c.quad, corners) for c in found) < 4.0, base


def test_two_sides_alone_give_no_card_where_no_scale_is_known() -> None:
    """Two sides meeting at a corner say nothing of a card's size: with no scale known, no outline is made of
    them."""
    image, _ = _two_sides(((8.0, 110.0),))
    assert side_quads(image, DetectSettings(), (63.0, 88.0)) == []
