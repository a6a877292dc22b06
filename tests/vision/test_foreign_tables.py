"""The ways card art we did not draw used to be missed or misread on real tables, each as a scene: a lone card on
light wood, a warm lamp, cream card stock, a bridge deck on the mat, half a card under another, two overlapping
cards. Decks are the published ones (``foreign_catalogs``; skipped where the npm registry cannot be reached)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.sim.judging import card_claimed
from companion.sim.scene import Card, Hand, Look, Rendered, Scene, View, mat_outline, render_scene
from companion.sim.table_scenes import lamp_cast
from companion.vision import pipeline
from companion.vision.catalog import Catalog
from companion.vision.mat import MatLayout, mat_layout
from companion.vision.observations import UNKNOWN
from companion.vision.pipeline import FrameResult, Recognizer
from companion.vision.pipeline import View as PipelineView

WARM = Look(cast=lamp_cast(2700, 0.5), exposure=0.85, noise=2.0)


def _rendered(
    catalog: Catalog, table: str, mat: str | None, cards: list[tuple[str, float, float, float]], look: Look = WARM
) -> tuple[Rendered, FrameResult]:
    """``cards`` (face, x, y mm from the middle of the A3 area, angle) of the catalogue's deck lying on ``table``,
    drawn, and the recogniser's verdict on them."""
    cx, cy = mat_outline(Scene(mat=mat)).mean(axis=0)
    scene = Scene(
        cards=tuple(Card(catalog.deck.name, face, cx + x, cy + y, angle) for face, x, y, angle in cards),
        cloth=table,
        mat=mat,
        look=look,
    )
    return _read(catalog, scene)


def _read(catalog: Catalog, scene: Scene) -> tuple[Rendered, FrameResult]:
    """``scene`` drawn, and the verdict of a recogniser that knows the scene's mat (or that there is none)."""
    rendered = render_scene(scene)
    return rendered, Recognizer(catalog, mat_layout(scene.mat) if scene.mat else None).process(rendered.image)


def _seen(
    catalog: Catalog, table: str, mat: str | None, cards: list[tuple[str, float, float, float]], look: Look = WARM
) -> FrameResult:
    """The recogniser's verdict on ``cards`` lying on ``table`` (as ``_rendered``)."""
    return _rendered(catalog, table, mat, cards, look)[1]


def _faces(result: FrameResult) -> list[str]:
    return sorted(c.face for c in result.cards)


def test_a_lone_card_on_a_light_wooden_table_is_named(foreign_catalogs: dict[str, Catalog]) -> None:
    """A 2♦ face up on light wood, no mat: its border is no lighter than the table."""
    result = _seen(foreign_catalogs["touati"], "light-wood", None, [("2d", 10, -20, 17)], Look())
    assert _faces(result) == ["2d"]


@pytest.mark.parametrize(("deck", "table"), [("kennard", "dark-wood"), ("kennard", "white-laminate")])
def test_cards_under_a_warm_lamp_are_named_without_the_mat(
    foreign_catalogs: dict[str, Catalog], deck: str, table: str
) -> None:
    cards = [("qh", -90, -40, 5), ("7c", 0, 30, -30), ("ad", 95, -20, 80)]
    result = _seen(foreign_catalogs[deck], table, None, cards)
    assert result.light is not None and result.light.cast > 1.2  # the lamp's colour is measured
    assert _faces(result) == ["7c", "ad", "qh"]


def test_a_cream_stock_deck_is_named_on_the_mat_under_a_warm_lamp(foreign_catalogs: dict[str, Catalog]) -> None:
    cards = [("5d", -80, -30, 10), ("3s", 20, 40, 95), ("10h", 100, -40, -20)]
    result = _seen(foreign_catalogs["kennard-cream"], "light-wood", "A3", cards)
    assert result.registered and _faces(result) == ["10h", "3s", "5d"]


def test_on_the_mat_a_gingham_around_it_is_not_searched_for_cards_art(
    foreign_catalogs: dict[str, Catalog], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four cards on the mat on a red gingham, every one named from its border. The checks around the mat are
    edges everywhere, and the art search (SIFT, ``Recognizer._by_art``) searched a box around them all, the mat
    with it: half the time a clean frame took. On the mat it searches the mat (``MAT_REACH``), where nothing is
    left to find."""
    boxes: list[list[np.ndarray]] = []
    search = pipeline.search_boxes
    monkeypatch.setattr(pipeline, "search_boxes", lambda *args: boxes.append(search(*args)) or boxes[-1])
    cards = [("5d", -110, -40, 10), ("3s", 0, 45, 95), ("10h", 110, -40, -20), ("kc", -20, -60, 30)]
    result = _seen(foreign_catalogs["kennard"], "red-gingham", "A3", cards, Look())
    assert result.registered and _faces(result) == ["10h", "3s", "5d", "kc"]
    assert boxes and not any(boxes)


def test_a_frame_whose_cards_the_border_mask_names_is_not_searched_by_edges(
    foreign_catalogs: dict[str, Catalog], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four cards on the mat on green felt, read first (no frame before it to compare with), every one named from
    its border. What edges lie on the mat are those cards' and its print's: nothing is left for the edge search to
    find, and its outlines are not looked for (``Recognizer._edges_explained``: a third of such a frame's time).
    A lone 2♦ on light wood without the mat, whose border the mask does not see against the table, is searched
    for, and found, by its edges."""
    searches: list[int] = []
    quads = pipeline.edge_quads
    monkeypatch.setattr(pipeline, "edge_quads", lambda *args, **kw: searches.append(1) or quads(*args, **kw))
    cards = [("5d", -110, -40, 10), ("3s", 0, 45, 95), ("10h", 110, -40, -20), ("kc", -20, -60, 30)]
    result = _seen(foreign_catalogs["kennard"], "green-felt", "A3", cards, Look())
    assert _faces(result) == ["10h", "3s", "5d", "kc"]
    assert searches == []
    lone = _seen(foreign_catalogs["touati"], "light-wood", None, [("2d", 10, -20, 17)], Look())
    assert _faces(lone) == ["2d"] and searches


def test_cards_on_the_mat_in_a_dim_green_lit_room_are_named_and_the_frame_says_so(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """A dim room under a green cast (tuning seed 35): the camera's gain makes noise the border mask took for
    colour, and the cast made paper look coloured; only 3 of 8 cards were found. The mat's white and black
    correct the mask's view and its noise is smoothed for it, so the cards are named; the light is still
    reported as too dark and too cast, the camera's own colours."""
    dim = Look(cast=(0.8, 1.05, 0.95), exposure=0.37, noise=3.9, shot_noise=0.45)
    cards = [("jc", -110, -50, 10), ("kh", 0, -50, -20), ("5c", 110, -50, 35), ("2c", -60, 60, 80), ("jd", 70, 60, -5)]
    result = _seen(foreign_catalogs["touati"], "green-felt", "A3", cards, dim)
    assert _faces(result) == sorted(face for face, *_ in cards)
    assert result.light is not None and {issue.kind for issue in result.light.issues()} >= {"dark", "cast"}


def test_a_bridge_deck_is_named_on_the_mat(foreign_catalogs: dict[str, Catalog]) -> None:
    catalog = foreign_catalogs["touati-bridge"]
    assert catalog.card_mm == (57.0, 89.0)  # measured from the scans, not taken as poker size
    cards = [("js", -80, -30, 0), ("9d", 20, 40, 45), ("4c", 100, -40, 170)]
    result = _seen(catalog, "grey-laminate", "A3", cards, Look())
    assert result.registered and _faces(result) == ["4c", "9d", "js"]


@pytest.mark.parametrize("table", ["black", "light-wood"])
def test_half_a_card_under_another_is_never_named_as_another_face(
    foreign_catalogs: dict[str, Catalog], table: str
) -> None:
    """The 4♦ under the K♣ shows one index and a pip: which could be an A♦'s. It is named 4♦ or not at all,
    and it is never taken for a whole card."""
    catalog = foreign_catalogs["kennard"]
    width = catalog.card_mm[0]
    result = _seen(catalog, table, None, [("4d", 0, 0, 0), ("kc", 0.55 * width, 0, 0)], Look())
    assert "kc" in _faces(result)
    under = [c for c in result.cards if c.face != "kc"]
    assert all(c.face in (UNKNOWN, "4d") for c in under)


@pytest.mark.parametrize("deck", ["touati", "svg-cards"])
def test_two_overlapping_cards_are_found_as_two(foreign_catalogs: dict[str, Catalog], deck: str) -> None:
    """The 8♠ lies over a corner of the 5♥: both are in view enough to name, as two cards, not one merged
    outline or a split one."""
    catalog = foreign_catalogs[deck]
    width, height = catalog.card_mm
    result = _seen(catalog, "green-felt", None, [("5h", 0, 0, 0), ("8s", 0.75 * width, 0.7 * height, 15)], Look())
    assert _faces(result) == ["5h", "8s"]
    centres = np.array([c.centre for c in result.cards])
    assert np.hypot(*(centres[0] - centres[1])) > 0.5 * width  # two places, not one card reported twice


@pytest.mark.parametrize(
    ("table", "faces", "step", "angle"),
    [
        ("blue-gingham", ["jh", "ks", "6d", "qh", "6h"], 0.56, 81.0),  # the Q♥ under the 6♥ once read as A♦
        ("green-felt", ["qc", "qd", "5s", "ks", "3c"], 0.38, 44.0),  # a strip of the 5♠ and K♠ once read as A♣
    ],
)
def test_half_cards_in_a_row_whose_upper_neighbours_are_not_found_are_not_named(
    foreign_catalogs: dict[str, Catalog], table: str, faces: list[str], step: float, angle: float
) -> None:
    """Five cards overlapping in a row: the border mask outlines half cards with a strip of their neighbour or
    the table, and the neighbour on top is not found, so nothing says they are covered. Such outlines were named
    with confidence as faces whose ink (index, pips) is not where the outline shows it, or whose paper shows
    another card's pips; no such face is named now."""
    rendered, result = _row(foreign_catalogs["svg-cards"], table, faces, step, angle)
    assert _named_right(rendered, result)


@pytest.mark.parametrize(
    ("faces", "step", "angle"),
    [
        (["5h", "2s", "5c", "6c", "3d"], 0.3, 0.0),  # the 5♥'s strip and the 2♠, 5♣ and 6♣ beside it once read 4♠
        (["9c", "5d", "10h", "8s", "4c"], 0.38, 81.0),  # the 5♦ with a strip of the 10♥ on it once read 4♦
    ],
)
def test_a_row_card_a_neighbours_side_crosses_is_judged_on_its_own_part(
    foreign_catalogs: dict[str, Catalog], faces: list[str], step: float, angle: float
) -> None:
    """Five cards in a row on a floral cloth, their neighbours on top not found: an outline taking in a card and
    the strips of the cards on it read as whole, and the neighbours' paper hiding some pips, fit a plainer face.
    The neighbours' sides cross it, straight edges its face does not have: what lies beyond them is not its own,
    and the rest does not tell that face. The top card, whole, is named."""
    rendered, result = _row(foreign_catalogs["kennard"], "floral-cloth", faces, step, angle)
    assert faces[-1] in _faces(result)
    assert _named_right(rendered, result)


def _row(
    catalog: Catalog, table: str, faces: list[str], step: float, angle: float
) -> tuple[Rendered, FrameResult]:
    """``faces`` in a row on ``table`` without the mat, each ``step`` of a card's width along from the one before
    at ``angle`` degrees, each lying on the one before, in plain light."""
    gap, turn = step * catalog.card_mm[0], np.radians(angle)
    cards = [(f, k * gap * np.cos(turn), k * gap * np.sin(turn), angle) for k, f in enumerate(faces)]
    return _rendered(catalog, table, None, cards, Look())


@pytest.mark.parametrize(
    ("deck", "table", "face", "angle"),
    [
        ("touati", "white-laminate", "kh", 60),
        ("kennard", "grey-laminate", "qc", 12),
        ("touati-bridge", "red-gingham", "6d", 35),
    ],
)
def test_a_card_whose_outline_the_table_blurs_is_named(
    foreign_catalogs: dict[str, Catalog], deck: str, table: str, face: str, angle: float
) -> None:
    """A court card on a light laminate (its frame's lines are stronger than its own edge) and a card on gingham
    (its outline runs into the white squares): the rough outline from the edges is moved onto the card's own."""
    result = _seen(foreign_catalogs[deck], table, None, [(face, 20, 10, angle)], Look(cast=(0.9, 1.0, 1.05)))
    assert _faces(result) == [face]


@pytest.mark.parametrize(
    "cards", [[("jc", -60, 0, -20), ("ks", 60, -10, 70)], [("qc", -60, 0, 8), ("kd", 60, -10, 100)]]
)
def test_court_cards_on_a_gingham_cloth_are_named_without_the_mat(
    foreign_catalogs: dict[str, Catalog], cards: list[tuple[str, float, float, float]]
) -> None:
    """Court cards on cream stock lying on blue gingham: the art's edges and the card's outline join the checks'
    edges into one net, and the paper between them is broken up, so neither the border mask nor the plain edge
    regions outline them; the frame's edges with the checks smoothed away do."""
    result = _seen(foreign_catalogs["kennard-cream"], "blue-gingham", None, cards, Look())
    assert sorted(c.face for c in result.cards if c.face != UNKNOWN) == sorted(face for face, *_ in cards)


def test_the_top_card_of_a_pile_on_a_wooden_table_is_named_from_its_straight_edges(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """Three cards piled on dark wood without the mat: the top Q♠'s paper runs into the cards under it (white on
    white) and its art breaks it up, so no region outlines it; its four edges are straight segments in view."""
    cards = [("2h", 0, 0, 10), ("9s", 10, 6, 40), ("qs", 16, -4, -10)]
    rendered, result = _rendered(foreign_catalogs["svg-cards"], "dark-wood", None, cards, Look())
    named = [c for c in result.cards if c.face != UNKNOWN]
    assert [c.face for c in named] == ["qs"]
    assert all((truth := card_claimed(c, rendered.truths)) is not None and truth.face == c.face for c in named)


def test_the_top_card_of_a_pile_on_the_mat_is_named_where_its_face_fits(foreign_catalogs: dict[str, Catalog]) -> None:
    """Three cards piled on the mat: the top Q♦'s white border runs on into the cards under it, and the known-size
    fit finds it a few millimetres along them, where no face fits. Moved at the card's true size to where a face
    fits it closest (``Recognizer._placed_by_face``), it is named; the cards under it are not named as others."""
    cards = [("2c", 0, 0, 20), ("qs", -6, -10, 35), ("qd", -10, -3, -18)]
    rendered, result = _rendered(foreign_catalogs["svg-cards"], "green-felt", "A3", cards, Look(noise=2.0))
    named = [c for c in result.cards if c.face != UNKNOWN]
    assert [c.face for c in named] == ["qd"]
    assert all((truth := card_claimed(c, rendered.truths)) is not None and truth.face == c.face for c in named)


def test_a_cream_two_of_clubs_in_a_fan_its_edges_outline_is_not_named_the_two_of_spades(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """The foreign benchmark's one confident error on its tuning seeds (seed 144): a fan of cream cards on white
    laminate, and apart from it a 2♣ that only its edges outline; that rough outline read 2♠ at 0.93. Moved onto
    the card's edges it reads 2♣ at 1.0, which overrules it."""
    fan = [("5s", 445.6326, 305.9091, 179.3171), ("10s", 440.2963, 305.5707, 187.9406),
           ("8s", 435.0711, 304.4359, 196.5641), ("ad", 430.0751, 302.5306, 205.1876),
           ("kc", 425.4212, 299.8976, 213.8110), ("8d", 421.2148, 296.5967, 222.4345)]
    cards = [("4s", 248.5603, 350.7586, 204.1879), ("10d", 347.6277, 396.6995, 223.6532),
             ("2c", 259.4760, 192.2007, 217.3411), *fan]
    scene = Scene(
        cards=tuple(Card("kennard-cream", face, x, y, angle) for face, x, y, angle in cards),
        cloth="white-laminate",
        mat=None,
        view=View(tilt=13.2085, azimuth=200.3877, roll=169.1915, zoom=0.94153, shift=(8.1491, -5.4443)),
        look=Look(light_gain=0.17512, light_dir=30.559, cast=(0.96822, 1.01632, 1.03059), blur=0.59405,
                  noise=2.48664, vignette=0.26725, exposure=0.84827, shot_noise=0.20809, jpeg=90,
                  motion_angle=121.536),
        seed=773731892,
    )
    rendered, result = _read(foreign_catalogs["kennard-cream"], scene)
    named = [(card_claimed(c, rendered.truths), c.face) for c in result.cards if c.face != UNKNOWN]
    assert all(truth is not None and truth.face == face for truth, face in named)
    assert "2c" in [face for _, face in named]


def test_a_fans_top_card_is_searched_for_at_the_size_a_named_card_gives_without_the_mat(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """The foreign bench's tuning scene 283: a K♣ on top of a fan on a floral cloth, no mat, its outline running on
    into the cards under it, was never named. The 6♥ lying apart, named, lays out the table's plane and the deck's
    size there; searched for at that size, the K♣ is named (and nothing is named wrongly)."""
    cards = [("6h", 327.3, 379.0, 258.6), ("10c", 418.9, 287.6, 221.1), ("9d", 415.3, 284.0, 229.3),
             ("kc", 412.3, 279.9, 237.5)]
    scene = Scene(
        cards=tuple(Card("kennard", face, x, y, angle) for face, x, y, angle in cards),
        cloth="floral-cloth",
        mat=None,
        view=View(tilt=33.25, azimuth=19.67, roll=190.52, zoom=0.92, shift=(-11.6, 1.27)),
        look=Look(light_gain=0.185, light_dir=142.1, cast=(1.019, 0.998, 0.959), noise=1.22, vignette=0.079,
                  exposure=0.471, shot_noise=0.364, jpeg=75),
        seed=824151685,
    )
    rendered, result = _read(foreign_catalogs["kennard"], scene)
    assert "kc" in _faces(result)
    for card in result.cards:
        claimed = card_claimed(card, rendered.truths)
        assert card.face == UNKNOWN or (claimed is not None and claimed.face == card.face)


def _named_right(rendered: Rendered, result: FrameResult) -> bool:
    """Whether every card ``result`` names is the card it outlines."""
    return all((claimed := card_claimed(c, rendered.truths)) is not None and claimed.face == c.face
               for c in result.cards if c.face != UNKNOWN)


def _named(catalog: Catalog, scene: Scene, face: str) -> None:
    """The scene names a card ``face``, and every card it names rightly."""
    rendered, result = _read(catalog, scene)
    assert face in _faces(result)
    assert _named_right(rendered, result)


def _never_named(catalog: Catalog, scene: Scene, face: str) -> None:
    """The scene names no card ``face`` (it holds none), and every card it names rightly."""
    rendered, result = _read(catalog, scene)
    assert face not in _faces(result)
    assert _named_right(rendered, result)


def test_a_cream_queen_near_the_mats_edge_on_grey_laminate_is_named(foreign_catalogs: dict[str, Catalog]) -> None:
    """Tuning scene 549: a cream Q♦ lies on the mat half a card from its edge, the grey laminate beyond it nearly as
    light as the card. The table's level the border must outshine was a median over the mat and the laminate
    together: the card's border did not outshine it and the card was not found at all. The mat and the table
    beyond it are levelled apart (``detect.cloth_level``)."""
    cards = [("8c", 515.43, 267.07, 344.75), ("5h", 249.28, 272.57, 105.2), ("2c", 362.39, 236.17, 120.77),
             ("qd", 425.41, 407.83, 70.5), ("4d", 329.33, 368.99, 12.5), ("ad", 525.4, 380.11, 139.02)]
    scene = Scene(
        cards=tuple(Card("kennard-cream", face, x, y, angle) for face, x, y, angle in cards),
        hands=(Hand(x=213.8, y=239.65, from_angle=346.71, size=0.89),),
        cloth="grey-laminate",
        mat="A3",
        view=View(tilt=18.43, azimuth=244.36, roll=188.81, zoom=0.9308, shift=(-13.53, 11.02)),
        look=Look(light_gain=0.001, light_dir=225.25, cast=(0.9727, 1.0266, 1.0299),
                  glare=((445.2, 419.4, 79.8, 0.107),), motion_angle=63.57, noise=2.94, vignette=0.206,
                  exposure=0.532, shot_noise=0.584, jpeg=58),
        seed=734186428,
    )
    _named(foreign_catalogs["kennard-cream"], scene, "qd")


def test_an_ace_of_clubs_a_finger_covers_a_corner_of_is_not_named_the_ace_of_spades(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """Tuning scene 586: a finger over a bridge A♣'s corner bends the border mask's outline; a pixel one way it read
    A♠ at 0.59, the other way A♠ at 0.43 (unknown). A broken outline named less surely than an edge search's guess
    must be is checked on the card's edges as such a guess is (``Recognizer._checked_on_edges``): there it reads
    A♣."""
    scene = Scene(
        cards=(Card("touati-bridge", "ac", 343.8204305664967, 383.20777456385514, 120.15187100891151),
               Card("touati-bridge", "3d", 447.85431465058895, 357.47132187654097, 114.63623401189415)),
        hands=(Hand(x=316.5743452819138, y=402.5688630670078, from_angle=255.63460944943674, size=0.7883821722030232),),
        cloth="black",
        mat="A3",
        view=View(tilt=23.112219918018518, azimuth=30.096833949442985, roll=183.23916733234452, zoom=0.9712456543351997,
                  shift=(-11.275638842605996, 4.485847607807781)),
        look=Look(light_gain=0.33287378741649754, light_dir=4.440983241889898,
                  cast=(0.967022863592734, 0.9558826441681324, 1.0366895111305567),
                  glare=((162.64532608433342, 43.481531103396904, 50.22592962439635, 0.3339645714931282),), motion=2,
                  motion_angle=111.6242733515664, noise=1.2642929794610067, vignette=0.20494953273007932,
                  exposure=0.908326764589735, shot_noise=0.33610445772255726, jpeg=91),
        seed=1650010367,
    )
    _never_named(foreign_catalogs["touati-bridge"], scene, "as")


def test_a_two_of_clubs_on_a_pile_its_outline_broken_is_not_overruled_by_a_view_moved_onto_edges(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """Tuning scene 1045: a pile on the mat, its top 2♣'s border-mask outline broken where the pile runs on (read
    2♣ at 0.52). Checked on its edges, a view moved onto them read 2♠ at 1.0, and overruled it. A broken outline is
    confirmed or made unknown by its views, never renamed (``Recognizer._checked_on_edges``)."""
    cards = [("9d", 392.6981574964997, 278.0575756581558, 186.35232444248268),
             ("2h", 387.2557238750537, 295.8221428927953, 44.858651481806014),
             ("8h", 400.9339600719848, 303.0740994487233, 173.2953879405454),
             ("3c", 384.9400874032109, 286.80608638958836, 159.4736995228818),
             ("kh", 391.0242021080673, 283.9460743295567, 280.6662517002713),
             ("2c", 390.27574020479244, 299.4449159402825, 177.4961455402899)]
    scene = Scene(
        cards=tuple(Card("touati", face, x, y, angle) for face, x, y, angle in cards),
        cloth="white-laminate",
        mat="A3",
        view=View(tilt=11.800563340200261, azimuth=37.130500401848956, roll=-15.085777341147292,
                  zoom=0.9335006945987698, shift=(-14.283631940009464, 0.6489918945510826)),
        look=Look(light_gain=0.2306254803612817, light_dir=289.420856244625,
                  cast=(0.9298509667272175, 0.9582721466243519, 1.1367220204050585), blur=0.8541375146364778,
                  motion_angle=148.57103139826688, noise=1.0937379891203047, vignette=0.187570725381417,
                  exposure=0.9475827034671382, shot_noise=0.14917695483170082, jpeg=85),
        seed=1580309388,
    )
    _never_named(foreign_catalogs["touati"], scene, "2s")


def test_court_cards_on_warm_lit_white_laminate_are_aligned_to_their_faces_and_named(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """Tuning scene 1152: four svg-cards lie apart on white laminate under a warm lamp, their borders no lighter
    than the table. Their edges outline them, but a card's soft shadow is an edge too: the J♣'s outline was 15%
    too large and fit its face at 0.018, and only the K♣ was named. Each outline the catalogue names unsurely or
    not at all is aligned to the picture of the face it fits best (``Recognizer._onto_face``): all four named."""
    cards = [("kc", 325.72, 407.9, 28.31), ("jh", 519.51, 320.04, 212.86), ("jc", 408.74, 322.35, 158.28),
             ("5c", 327.67, 258.42, 207.47)]
    scene = Scene(
        cards=tuple(Card("svg-cards", face, x, y, angle) for face, x, y, angle in cards),
        cloth="white-laminate",
        mat=None,
        view=View(tilt=29.52, azimuth=79.81, roll=198.47, zoom=0.8586, shift=(-18.15, -11.11)),
        look=Look(light_gain=0.0989, light_dir=254.27, cast=(0.8563, 0.9506, 1.1031), blur=1.224,
                  motion_angle=60.89, noise=2.50, vignette=0.2216, exposure=0.9721, shot_noise=0.1685),
        seed=1532308858,
    )
    rendered, result = _read(foreign_catalogs["svg-cards"], scene)
    assert _faces(result) == ["5c", "jc", "jh", "kc"]
    assert _named_right(rendered, result)


def test_a_nine_a_hand_covers_the_end_of_is_not_aligned_into_a_seven(foreign_catalogs: dict[str, Catalog]) -> None:
    """Tuning scene 63: a hand lies over the last third of a 9♦ on black cloth, and the border mask outlines the
    card as far as the hand. That outline, aligned to the picture of the face it fits best, fit the 7♦ squeezed
    into a square and read 7♦ at 0.98. An aligned outline must keep a card's shape (``align.aligned``)."""
    cards = [("9d", 254.70, 205.11, 152.43), ("jc", 573.27, 282.46, 190.82), ("7c", 541.39, 385.78, 337.92),
             ("jd", 515.01, 187.58, 84.41), ("4d", 441.51, 323.69, 169.14), ("2d", 404.29, 329.56, 169.14),
             ("6d", 367.06, 335.43, 169.14), ("9c", 329.84, 341.30, 169.14)]
    scene = Scene(
        cards=tuple(Card("kennard", face, x, y, angle) for face, x, y, angle in cards),
        hands=(Hand(x=395.10, y=300.82, from_angle=110.84, size=0.9672),
               Hand(x=272.30, y=241.84, from_angle=308.46, size=0.8346)),
        cloth="black",
        mat=None,
        view=View(tilt=12.84, azimuth=306.37, roll=13.62, zoom=0.9310, shift=(10.46, 2.19)),
        look=Look(light_gain=0.0101, light_dir=353.77, cast=(0.9049, 1.0277, 1.0431), noise=3.54, vignette=0.1693,
                  exposure=0.9160, shot_noise=0.4314),
        seed=432009334,
    )
    rendered, result = _read(foreign_catalogs["kennard"], scene)
    assert "7d" not in _faces(result)
    assert _named_right(rendered, result)


def test_half_a_two_of_hearts_in_a_row_is_not_named_the_two_of_spades(foreign_catalogs: dict[str, Catalog]) -> None:
    """Tuning scene 822: a row of svg-cards on blue gingham, each half under the next. Half the 2♥ and the A♥ on it
    were outlined as one broken card; of the views moved onto the edges around it, one lay across both cards, 42%
    of it taken for something reaching in, and read 2♠ at 1.0. A view mostly under something reaching in is no
    evidence (``Recognizer._snapped``)."""
    row = [("6h", 429.51, 340.2), ("2h", 409.12, 321.22), ("ah", 388.74, 302.25), ("4d", 368.35, 283.27),
           ("7d", 347.97, 264.29)]
    scene = Scene(
        cards=(Card("svg-cards", "9h", 248.05, 351.06, 287.94), Card("svg-cards", "4c", 580.6, 238.83, 133.95),
               *(Card("svg-cards", face, x, y, 213.23) for face, x, y in row)),
        cloth="blue-gingham",
        mat=None,
        view=View(tilt=10.15, azimuth=276.98, roll=6.15, zoom=0.8314, shift=(-1.06, -13.48)),
        look=Look(light_gain=0.1936, light_dir=81.35, cast=(1.0276, 1.0177, 0.9894),
                  glare=((825.03, 348.2, 30.92, 0.1393), (109.71, 714.48, 64.49, 0.4365)), blur=0.5356,
                  motion_angle=124.1, noise=3.32, vignette=0.264, exposure=0.5672, shot_noise=0.22, jpeg=69),
        seed=159573662,
    )
    rendered, result = _read(foreign_catalogs["svg-cards"], scene)
    assert "2s" not in _faces(result)
    assert _named_right(rendered, result)


def test_a_row_card_read_from_an_outline_its_edges_disown_is_not_named(foreign_catalogs: dict[str, Catalog]) -> None:
    """Tuning scene 359: a row of cream cards on the mat, a hand over it. The 9♦ at the row's end, 43% in view,
    was outlined by the border mask as a whole card and read 4♠ at 0.46 (fitting it at 0.012). None of the views
    moved onto the edges around it was named, so the rough verdict stood; but one of them fit the 4♦ at 0.006, a
    face nothing like a 4♠. Such a view says the outline was a guess: the card is not named
    (``Recognizer._checked``)."""
    row = [("9d", 456.16, 218.47), ("5d", 437.8, 238.76), ("10s", 419.44, 259.05), ("10d", 401.08, 279.34),
           ("kh", 382.72, 299.63), ("2h", 364.36, 319.92), ("jh", 346.0, 340.21)]
    scene = Scene(
        cards=(Card("kennard-cream", "3s", 550.94, 315.3, 238.78),
               *(Card("kennard-cream", face, x, y, 128.12) for face, x, y in row)),
        hands=(Hand(x=446.84, y=292.01, from_angle=197.6, size=0.9548),),
        cloth="dark-wood",
        view=View(tilt=27.51, azimuth=106.29, roll=16.56, zoom=0.8109, shift=(18.31, 0.71)),
        look=Look(light_gain=0.2822, light_dir=72.6, cast=(0.9815, 0.95, 0.9949), blur=0.3557, motion_angle=33.29,
                  noise=1.91, vignette=0.2288, exposure=0.8783, shot_noise=0.1745, jpeg=89),
        seed=799152786,
    )
    _never_named(foreign_catalogs["kennard-cream"], scene, "4s")



def test_a_queen_lying_alone_on_a_red_gingham_is_found_by_her_art(foreign_catalogs: dict[str, Catalog]) -> None:
    """Tuning scene 392: a svg-cards Q♥ in plain view on red gingham had no outline at all (only the 8♠ beside her
    was named): the white squares touch her border all round and the checks' sides are as sharp as hers. Her art
    places her (``ArtIndex``)."""
    scene = Scene(
        cards=(Card("svg-cards", "qh", 290.34, 375.15, 9.96), Card("svg-cards", "8s", 313.18, 230.63, 356.77)),
        cloth="red-gingham",
        mat=None,
        view=View(tilt=11.46, azimuth=349.82, roll=171.79, zoom=0.9826, shift=(3.36, -0.13)),
        look=Look(light_gain=0.3951, light_dir=184.04, cast=(1.0108, 0.9762, 1.0614),
                  glare=((379.68, 375.96, 34.80, 0.2096),), blur=0.8887, motion=3, motion_angle=11.57, noise=2.52,
                  vignette=0.3050, exposure=0.8629, shot_noise=0.3467),
        seed=1584904680,
    )
    rendered, result = _read(foreign_catalogs["svg-cards"], scene)
    assert _faces(result) == ["8s", "qh"]
    assert _named_right(rendered, result)


def test_the_king_on_top_of_a_messy_pile_on_the_mat_is_found_by_his_art(foreign_catalogs: dict[str, Catalog]) -> None:
    """Tuning scene 417: five svg-cards piled askew on the mat on dark wood, under two glare spots. The K♥ on top
    lies in plain view, but his border runs on into the four cards under him, no outline from the mask or the edges
    fit him, and he was not named. His art places him (``ArtIndex``), and the cards under him are not named."""
    cards = [("7d", 386.06, 299.70, 205.99), ("5d", 357.21, 310.62, 244.54), ("10c", 388.49, 299.69, 47.36),
             ("7h", 371.64, 301.63, 349.93), ("kh", 381.35, 288.81, 67.24)]
    scene = Scene(
        cards=tuple(Card("svg-cards", face, x, y, angle) for face, x, y, angle in cards),
        cloth="dark-wood",
        mat="A3",
        view=View(tilt=10.89, azimuth=237.55, roll=175.31, zoom=0.9259, shift=(-14.15, -11.11)),
        look=Look(light_gain=0.0708, light_dir=222.02, cast=(0.9979, 1.0198, 1.0426),
                  glare=((425.52, 205.98, 63.10, 0.4554), (372.22, 484.65, 61.69, 0.2369)), blur=0.9764,
                  motion_angle=11.95, noise=2.76, vignette=0.1050, exposure=0.9627, shot_noise=0.3575, jpeg=58),
        seed=1583752063,
    )
    rendered, result = _read(foreign_catalogs["svg-cards"], scene)
    assert [c.face for c in result.cards if c.face != UNKNOWN] == ["kh"]
    assert _named_right(rendered, result)


def test_a_piece_of_a_named_jack_is_not_reported_as_an_unknown_card_nor_searched_around(
    foreign_catalogs: dict[str, Catalog], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three kennard cards apart on red gingham: the border mask outlines the lower part of the J♣ (it stops at his
    frame) and cannot name it, while his art names the whole of him. That piece lies all but within him: it is no
    card, and the table must not ask about it (``pipeline._without_pieces``); nor is a card searched for around
    it (``Recognizer._placed_by_face``, tens of ms: a played court card's pieces made most of a window read's
    time without the mat)."""
    searched: list[np.ndarray] = []
    search = Recognizer._placed_by_face

    def spied(self: Recognizer, frame: np.ndarray, corners: np.ndarray, *rest: object) -> object:
        searched.append(corners)
        return search(self, frame, corners, *rest)

    monkeypatch.setattr(Recognizer, "_placed_by_face", spied)
    cards = [("jc", -120, 0, -4), ("kh", 20, 10, 35), ("2c", 120, 60, 0)]
    rendered, result = _rendered(foreign_catalogs["kennard"], "red-gingham", None, cards, Look())
    assert _faces(result) == ["2c", "jc", "kh"]
    assert _named_right(rendered, result)
    assert searched == []


def test_a_seven_on_red_gingham_is_placed_by_pips_other_faces_share(foreign_catalogs: dict[str, Catalog]) -> None:
    """Tuning scene 290: five touati cards apart on red gingham; the 7♣ had no outline. Its corner pips and index
    lie where the 5♣'s, the 8♣'s and others' do, so each of its keypoints was as close to another face's as to its
    own and the ratio test threw them all away. The same spot on other faces is no rival (``art.TWIN_PX``): its
    keypoints place it, and the catalogue names it."""
    cards = [("5c", 248.868985, 247.837805, 28.889256), ("4h", 562.597653, 251.057606, 330.307215),
             ("4d", 328.025426, 359.220098, 11.361070), ("7c", 363.725791, 198.322748, 168.627579),
             ("jh", 430.004643, 399.649005, 163.212368)]
    scene = Scene(
        cards=tuple(Card("touati", face, x, y, angle) for face, x, y, angle in cards),
        cloth="red-gingham",
        mat=None,
        view=View(tilt=21.713064, azimuth=113.500526, roll=0.600963, zoom=0.905926, shift=(16.402066, 8.656461)),
        look=Look(light_gain=0.291132, light_dir=219.580118, cast=(0.998906, 1.048862, 1.084418), blur=0.621615,
                  motion=2, motion_angle=135.914876, noise=2.265282, vignette=0.280264, exposure=0.948142,
                  shot_noise=0.438475),
        seed=1803113509,
    )
    rendered, result = _read(foreign_catalogs["touati"], scene)
    assert _faces(result) == ["4d", "4h", "5c", "7c", "jh"]
    assert _named_right(rendered, result)


def test_a_card_on_a_red_gingham_is_outlined_by_its_sides_though_the_checks_line_up_longer(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """Fresh tuning scene 2081: seven bridge cards apart on red gingham, no mat. The 5♦'s sides, broken where
    they meet the white checks, were shorter than the rows of checks: 75 of the 80 longest segments were the
    cloth's, one of the 5♦'s sides kept one, and no outline from segments found it. At most ``PER_DIRECTION``
    segments running one way are kept."""
    cards = [("ah", 258.775708, 247.158986, 343.604053), ("qs", 438.726304, 268.234438, 342.106531),
             ("6s", 582.421961, 404.812190, 174.420997), ("5d", 277.730445, 353.808452, 51.970756),
             ("6d", 354.359583, 207.523497, 332.280199), ("jd", 431.241178, 378.598727, 84.018457),
             ("4c", 584.822595, 220.114916, 230.624542)]
    scene = Scene(
        cards=tuple(Card("touati-bridge", face, x, y, angle) for face, x, y, angle in cards),
        cloth="red-gingham",
        mat=None,
        view=View(tilt=2.922863, azimuth=190.501179, roll=-18.417335, zoom=0.818239, shift=(5.414925, -11.283444)),
        look=Look(light_gain=0.224790, light_dir=303.976675, cast=(0.878374, 1.013010, 1.070398), noise=2.981645,
                  vignette=0.229416, exposure=0.910555, shot_noise=0.232424, jpeg=74, motion_angle=16.706194),
        seed=1437011617,
    )
    _named(foreign_catalogs["touati-bridge"], scene, "5d")


def test_a_card_a_steep_camera_shows_larger_than_a_named_card_across_the_frame_is_measured_on_their_plane(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """Fresh tuning scene 2020: a row of five on a floral cloth, a forearm across its end, a camera tilted 34
    degrees; an A♥ and a 4♦ apart, named. The row's Q♦, aligned and named at 1.0, was refused: by the map of the
    A♥ nearest it, 83 x 100 mm. Through the plane the A♥ and the 4♦ both lie on (``registration.plane_through``)
    it is 62 x 87, a card."""
    cards = [("ah", 563.07456, 228.638026, 6.842358), ("4d", 564.391435, 408.981267, 245.452311),
             ("6s", 237.928818, 385.323068, 79.209683), ("kh", 424.460207, 306.644973, 142.662383),
             ("10d", 398.734279, 320.741425, 142.662383), ("8h", 373.008352, 334.837877, 142.662383),
             ("7c", 347.282424, 348.934329, 142.662383), ("qd", 321.556496, 363.03078, 142.662383)]
    scene = Scene(
        cards=tuple(Card("touati", face, x, y, angle) for face, x, y, angle in cards),
        hands=(Hand(x=301.827725, y=419.056407, from_angle=170.945853, size=0.84171),),
        cloth="floral-cloth",
        mat=None,
        view=View(tilt=33.69888, azimuth=137.491063, roll=19.756836, zoom=0.958969, shift=(4.262825, 5.445415)),
        look=Look(light_gain=0.092461, light_dir=353.865209, cast=(1.022005, 0.958986, 1.036199), blur=1.001536,
                  motion_angle=152.160497, noise=2.523551, vignette=0.248576, exposure=0.471142, shot_noise=0.544872,
                  jpeg=62),
        seed=1619054547,
    )
    _named(foreign_catalogs["touati"], scene, "qd")


def test_a_piles_top_card_two_sides_show_is_completed_at_its_size_on_the_plane_through_the_named_cards(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """Tuning scene 440: a pile of four on black cloth under a camera tilted 33 degrees, no mat, a J♣ and a 3♦
    apart, named. The pile's top 6♦ shows two sides meeting at a corner, and an outline from them is completed at
    the card's size on the table (``edges.corner_quads``): by the map of the named card nearest it, 18 px off, and
    it went unnamed. On the plane through both named cards (``Recognizer._through``), 4 px, and it is named."""
    cards = [("jc", 508.264069, 200.920456, 282.026457), ("3d", 565.864455, 392.330341, 132.622981),
             ("2d", 384.644544, 280.028656, 199.483679), ("10s", 392.409683, 268.76543, 89.965345),
             ("4d", 364.695407, 276.223974, 295.822296), ("6d", 386.219722, 270.15127, 41.629207)]
    scene = Scene(
        cards=tuple(Card("touati", face, x, y, angle) for face, x, y, angle in cards),
        cloth="black",
        mat=None,
        view=View(tilt=33.300136, azimuth=180.67725, roll=5.231256, zoom=0.994343, shift=(-18.087143, -7.367425)),
        look=Look(light_gain=0.374942, light_dir=308.570054, cast=(0.87574, 0.97703, 1.054732),
                  glare=((1065.097771, 239.694353, 56.568734, 0.133011),
                         (1012.386456, 525.899072, 53.659784, 0.347859)),
                  motion_angle=21.758433, noise=2.40645, vignette=0.150971, exposure=0.558524, shot_noise=0.374668),
        seed=765394953,
    )
    _named(foreign_catalogs["touati"], scene, "6d")


def test_an_ace_outlined_past_its_foot_is_not_aligned_onto_the_table_as_its_twin(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """Held-out scene 203 (found by session 33's held-out run, so no longer blind): seven cards on grey laminate,
    no mat. The A♥'s outline ran 5 px past its foot, and the strip of table it took in was taken for something
    reaching in over the card; left out of the alignment (``Match.reaching``), it let the outline move 9 px
    further onto the table, where it read A♦ at 0.75. An outline moved onto more of what was left out than before is
    aligned again on all of it (``Recognizer._onto_face``)."""
    cards = [("6c", 277.108574, 347.709898, 233.997111), ("ks", 266.432849, 233.745723, 239.669002),
             ("jc", 535.897753, 395.732425, 114.790347), ("ah", 374.160458, 263.470335, 155.636249),
             ("qh", 492.627354, 202.726138, 179.290143), ("7d", 380.318914, 385.239408, 170.806242),
             ("ac", 556.033854, 286.683466, 176.784161)]
    scene = Scene(
        cards=tuple(Card("kennard", face, x, y, angle) for face, x, y, angle in cards),
        cloth="grey-laminate",
        mat=None,
        view=View(tilt=30.893942, azimuth=337.268681, roll=-17.405001, zoom=0.934191, shift=(11.707407, 7.053808)),
        look=Look(light_gain=0.282758, light_dir=96.827655, cast=(0.941147, 1.01607, 1.051985), blur=0.72591,
                  motion=2, motion_angle=45.119341, noise=2.84896, vignette=0.027281, exposure=0.98383,
                  shot_noise=0.538222),
        seed=499317185,
    )
    _named(foreign_catalogs["kennard"], scene, "ah")


def test_a_piles_top_card_half_of_whose_outline_the_card_under_it_hides_is_outlined_by_its_sides(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """Fresh tuning scene 1231: a bridge 9♦ lying across a 5♥ on dark wood, in a dim room with two glare spots, no
    mat. Where the 9♦ lies on the 5♥, its sides are white on white and show no straight edge: its four sides' segments
    lined less than 55% of its outline, and it was left unknown. Segments lining 45% of an outline make it a candidate
    (``edges.MIN_LINED``); the catalogue still judges it as any other."""
    scene = Scene(
        cards=(Card("touati-bridge", "5h", 378.709789, 320.898104, 126.047508),
               Card("touati-bridge", "9d", 373.474658, 336.761992, 314.899957)),
        cloth="dark-wood",
        mat=None,
        view=View(tilt=29.226673, azimuth=102.833620, roll=10.257525, zoom=0.930860, shift=(-0.396108, -11.772930)),
        look=Look(light_gain=0.293071, light_dir=46.550188, cast=(0.897658, 0.994834, 1.061152),
                  glare=((889.238967, 517.291568, 46.440771, 0.298800), (572.631473, 328.169697, 21.598961, 0.217776)),
                  motion_angle=95.817209, noise=1.607725, vignette=0.267274, exposure=0.452854, shot_noise=0.513856,
                  jpeg=76),
        seed=352802621,
    )
    _named(foreign_catalogs["touati-bridge"], scene, "9d")


def test_a_fans_top_four_is_named_though_views_half_off_it_fit_plainer_faces(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """Tuning scene 80: a fan of four touati cards on light wood, the 4♦ on top, and a J♠ apart. The 4♦'s outline
    runs on into the Q♣ under it; the search at the size the J♠ gives settles on it (fit 0.001), but views half off
    it on the way fit the 2♥ and the A♦ closely enough that it was never named. Those fit three times less well than
    the 4♦ where the search settles: no rivals (``pipeline.RIVAL_FIT``)."""
    cards = [("js", 242.332005, 369.047312, 206.315333), ("2h", 400.466044, 260.127421, 321.901584),
             ("8h", 405.214561, 256.989097, 331.176499), ("qc", 410.406807, 254.657129, 340.451415),
             ("4d", 415.907019, 253.192492, 349.72633)]
    scene = Scene(
        cards=tuple(Card("touati", face, x, y, angle) for face, x, y, angle in cards),
        cloth="light-wood",
        mat=None,
        view=View(tilt=22.836013, azimuth=105.052448, roll=-8.555435, zoom=0.972586, shift=(-10.792349, -10.317184)),
        look=Look(light_gain=0.116410, light_dir=29.067736, cast=(1.004246, 0.920031, 1.059481),
                  glare=((839.850555, 537.928963, 27.849607, 0.239922),), blur=0.495929, motion_angle=133.531635,
                  noise=2.578066, vignette=0.200599, exposure=0.555789, shot_noise=0.349478),
        seed=1168540568,
    )
    rendered, result = _read(foreign_catalogs["touati"], scene)
    assert sorted(c.face for c in result.cards if c.face != UNKNOWN) == ["4d", "js"]
    assert _named_right(rendered, result)


def test_a_piles_top_card_is_fitted_at_the_size_a_named_card_gives_without_the_mat(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """Tuning scene 350: a pile of six touati cards on black cloth in a dim room, the 3♥ on top, a 4♥ and a 7♦
    apart. The pile's border runs on from card to card, so it outlines no card; the 4♥ and the 7♦ were named and the
    3♥ was not found at all. Fitted at the size the nearest named card gives the border mask's pile region (its
    straight stretches, as on the mat), the 3♥ is named, and nothing is named wrongly."""
    cards = [("4h", 573.633980, 366.565296, 266.468140), ("7d", 546.046234, 205.175403, 194.161363),
             ("2d", 369.335788, 277.407465, 157.866126), ("8h", 379.350534, 272.539595, 274.039037),
             ("6c", 359.459723, 275.439557, 358.061712), ("8s", 373.611716, 276.470553, 311.972319),
             ("qh", 377.472946, 286.347831, 80.699055), ("3h", 380.602839, 282.204136, 341.431162)]
    scene = Scene(
        cards=tuple(Card("touati", face, x, y, angle) for face, x, y, angle in cards),
        cloth="black",
        mat=None,
        view=View(tilt=30.669215, azimuth=186.793009, roll=17.003939, zoom=0.997330, shift=(-12.643008, 9.893096)),
        look=Look(light_gain=0.302446, light_dir=117.251316, cast=(0.960397, 0.963325, 1.019541),
                  glare=((196.936097, 289.577873, 40.939376, 0.174202), (695.321656, 242.343367, 25.731646, 0.103252)),
                  blur=1.467483, motion_angle=112.578207, noise=2.845709, vignette=0.105017, exposure=0.840877,
                  shot_noise=0.448671, jpeg=90),
        seed=347021207,
    )
    rendered, result = _read(foreign_catalogs["touati"], scene)
    assert sorted(c.face for c in result.cards if c.face != UNKNOWN) == ["3h", "4h", "7d"]
    assert _named_right(rendered, result)


def test_a_strip_of_a_rows_card_the_edges_outline_is_not_named_a_plainer_face(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """Tuning scene 814: a row of three cream cards on red gingham, no mat, the 5♦ whole and the 4♥ and A♥ each a
    third under the next. The edges outlined the strip of the 4♥ that shows, its column of two hearts, and it read
    2♥ at 0.64. The 5♦ named beside it says how big a card is on this table, and the strip is 0.6 of that: not a
    card (``Recognizer._sized_as_named``)."""
    row = [("ah", 477.689578, 264.737590), ("4h", 436.245306, 262.046131), ("5d", 394.801034, 259.354671)]
    scene = Scene(
        cards=tuple(Card("kennard-cream", face, x, y, 181.766515) for face, x, y in row),
        cloth="red-gingham",
        mat=None,
        view=View(tilt=30.628218, azimuth=94.384319, roll=-9.278607, zoom=0.814072, shift=(5.665644, -0.574913)),
        look=Look(light_gain=0.212522, light_dir=308.256082, cast=(0.884492, 0.945680, 1.150071),
                  glare=((119.353242, 6.130173, 45.160284, 0.127821), (1062.118626, 220.616151, 61.365683, 0.268089)),
                  noise=3.938381, vignette=0.233197, exposure=0.829693, shot_noise=0.246053, jpeg=85),
        seed=1025459237,
    )
    rendered, result = _read(foreign_catalogs["kennard-cream"], scene)
    assert "2h" not in _faces(result)
    assert "5d" in _faces(result)
    assert _named_right(rendered, result)


def test_a_two_of_hearts_outlined_short_under_an_arm_is_not_named_the_two_of_diamonds(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """Tuning scene 1070: eight touati cards on a floral cloth, two arms across them. An arm over one end of the 2♥
    cut its outline short. The sharp references fit it closest as the 2♥ (unsure); of the second looks, the one
    against the most blurred references hid the most cells, fit the rest closer for that alone, and named the 2♦ at
    0.51. A second look whose closest face is not the first look's is a guess (``Catalog.match``)."""
    cards = [("2s", 262.749659, 382.612779, 34.188721), ("6h", 565.998308, 366.307185, 143.593337),
             ("2h", 373.635368, 266.578548, 119.182494), ("10c", 582.823426, 237.586674, 205.390916),
             ("3s", 275.675579, 230.400598, 246.052911), ("qs", 365.219117, 388.722172, 108.592433),
             ("8d", 482.124644, 224.884597, 1.541665), ("7c", 462.660858, 352.669427, 113.595834)]
    scene = Scene(
        cards=tuple(Card("touati", face, x, y, angle) for face, x, y, angle in cards),
        hands=(Hand(x=523.891824, y=211.386472, from_angle=44.116963, size=0.914479),
               Hand(x=486.608050, y=397.514457, from_angle=214.559356, size=0.758819)),
        cloth="floral-cloth",
        mat=None,
        view=View(tilt=34.520875, azimuth=256.218229, roll=-7.751338, zoom=0.859098, shift=(9.951069, 1.262158)),
        look=Look(light_gain=0.014414, light_dir=217.183612, cast=(0.967399, 0.952773, 0.947166),
                  glare=((940.968961, 533.326002, 50.679975, 0.134181),), motion_angle=177.197200, noise=1.237849,
                  vignette=0.015583, exposure=0.801652, shot_noise=0.499677, jpeg=63),
        seed=2109980808,
    )
    rendered, result = _read(foreign_catalogs["touati"], scene)
    assert "2d" not in _faces(result)
    assert _named_right(rendered, result)


def test_a_row_card_outlined_off_is_judged_under_the_card_whose_face_shows_over_it(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """Tuning scene 886: a row of four bridge cards on the mat, each 40% under the next. The 8♠ was outlined 10 px
    off, along the 4♦'s strip, and read 3♠ at 0.74; its side ran along the 9♦'s pips, so by the edges it lay on the
    9♦. Where the two outlines overlap the 9♦'s diamonds show, fitting the 9♦ five times closer than the 3♠: the
    9♦ is on top, and what shows of the 8♠ is judged alone (``Recognizer._lies_on``)."""
    row = [("5s", 325.531704, 266.863626), ("4d", 356.649487, 283.236183), ("8s", 387.767271, 299.608739),
           ("9d", 418.885055, 315.981296)]
    scene = Scene(
        cards=(Card("touati-bridge", "ah", 536.328699, 306.051751, 226.322871),
               Card("touati-bridge", "5h", 503.139094, 410.547821, 90.551553),
               *(Card("touati-bridge", face, x, y, 25.814564) for face, x, y in row)),
        cloth="floral-cloth",
        mat="A3",
        view=View(tilt=27.059239, azimuth=6.294234, roll=-8.242025, zoom=0.987125, shift=(7.871159, -4.588261)),
        look=Look(light_gain=0.123782, light_dir=180.672833, cast=(0.890992, 0.969647, 1.043522),
                  glare=((996.040897, 625.911142, 68.861291, 0.214742),), motion=2, motion_angle=3.132632,
                  noise=1.093457, vignette=0.279225, exposure=0.803620, shot_noise=0.166756),
        seed=34232425,
    )
    _never_named(foreign_catalogs["touati-bridge"], scene, "3s")


PILE_ON_GINGHAM = [("8c", 415.434578, 282.824516, 41.711620), ("9h", 402.177941, 276.875246, 220.681188),
                   ("3s", 419.765178, 287.281930, 190.292135)]
PILE_VIEW = View(tilt=23.915042, azimuth=283.354899, roll=167.664650, zoom=0.838265, shift=(-16.737895, 10.656809))
PILE_LOOK = Look(light_gain=0.121278, light_dir=163.259240, cast=(0.976581, 0.981748, 1.058037), motion=3,
                 motion_angle=47.216401, noise=3.251094, vignette=0.098143, exposure=0.996147, shot_noise=0.580829)


def _pile_frames(cloth_first: str = "red-gingham") -> list[Rendered]:
    """A touati discard pile on red gingham (pile tuning sequence 1) as the camera sees it grow: the first card
    alone (on ``cloth_first``), then with two more on it, each frame with its own sensor noise."""
    return [render_scene(Scene(
        cards=tuple(Card("touati-bridge", face, x, y, angle) for face, x, y, angle in PILE_ON_GINGHAM[:count]),
        cloth=cloth_first if count == 1 else "red-gingham",
        mat=None,
        view=PILE_VIEW,
        look=PILE_LOOK,
        seed=1723063915 + count,
    )) for count in (1, 3)]


def test_a_piles_top_card_on_a_gingham_is_fitted_where_the_edges_cut_its_paper_from_the_checks(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """The pile with a Q♥ lying apart, in one picture. The border mask takes the checks' white in with the pile,
    so it outlines no card there; the edges leave the pile's paper one region, cut from the checks, whose straight
    stretches, at the size the Q♥ gives, are the 3♠'s sides (``edge_free``, ``_fitted_at_named_size``)."""
    cards = [("qh", 300.0, 200.0, 10.0), *PILE_ON_GINGHAM]
    scene = Scene(
        cards=tuple(Card("touati-bridge", face, x, y, angle) for face, x, y, angle in cards),
        cloth="red-gingham",
        mat=None,
        view=PILE_VIEW,
        look=PILE_LOOK,
        seed=7,
    )
    rendered, result = _read(foreign_catalogs["touati-bridge"], scene)
    assert _faces(result) == ["3s", "qh"]
    assert _named_right(rendered, result)


def _watched(catalog: Catalog, frames: list[Rendered], layout: MatLayout | None = None) -> list[FrameResult]:
    """The frames read one after another as the camera's watcher reads them: each with the last one's outlines."""
    recognizer, known, results = Recognizer(catalog, layout), [], []
    for frame in frames:
        results.append(recognizer.process(frame.image, known))
        known = [card.corners for card in results[-1].cards]
    return results


def test_a_lone_piles_new_top_card_on_a_gingham_is_named_at_the_scale_the_first_card_showed(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """A discard pile built on red gingham, without the mat. The first card lies alone and is named. In the next
    frame read the 3♠ lies on top, its border running on into the cards under it and into the checks' white, and no card
    of that frame is named to say the table's scale: read alone, the frame names nothing. The camera has not moved,
    so the scale the first card gave still holds: the pile's paper, which the edges cut from the checks, is fitted
    at the deck's size, and the 3♠ is named (``Recognizer._remembered``, ``_fitted_at_named_size``)."""
    catalog = foreign_catalogs["touati-bridge"]
    frames = _pile_frames()
    assert "3s" not in _faces(Recognizer(catalog, follow=False).process(frames[-1].image))
    results = _watched(catalog, frames)
    assert _faces(results[0]) == ["8c"]
    assert "3s" in _faces(results[-1])
    assert all(_named_right(frame, result) for frame, result in zip(frames, results, strict=True))


def test_a_scale_seen_before_the_table_changed_everywhere_is_forgotten(foreign_catalogs: dict[str, Catalog]) -> None:
    """The same pile, but the first frame shows the 8♣ on another cloth: what the camera sees changed everywhere
    (it was moved, or the table was), so the scale that frame gave no longer holds, and the pile is read as if it
    were the first frame (``CAMERA_MOVED``)."""
    catalog = foreign_catalogs["touati-bridge"]
    frames = _pile_frames(cloth_first="light-wood")
    results = _watched(catalog, frames)
    assert _faces(results[0]) == ["8c"]
    assert "3s" not in _faces(results[-1])


def test_a_piles_new_top_card_on_the_mat_is_not_taken_for_the_cards_it_covers(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """A discard pile on the mat (pile tuning sequence 100075) grown card by card, read as the watcher reads it:
    the 4♣ lands on the K♦ and the Q♣. Their outlines of the last frame, where the 4♣'s border now lines them as
    well as their own did, were confirmed in place, and the 4♣, found too, lost to them. A card over which much of
    the frame changed is searched for afresh (``Recognizer._still_lying``), and the 4♣ is named."""
    pile = [("10h", 402.634174, 293.851819, 306.320581), ("2c", 420.863825, 320.052462, 297.271116),
            ("qc", 423.229857, 317.004076, 353.989661), ("kd", 394.440264, 289.774284, 30.280231),
            ("4c", 403.812198, 305.218848, 63.304643)]
    frames = [render_scene(Scene(
        cards=tuple(Card("touati", face, x, y, angle) for face, x, y, angle in pile[:count]),
        cloth="green-felt",
        mat="A3",
        view=View(tilt=13.326447, azimuth=234.183370, roll=191.340137, zoom=0.872634, shift=(-4.763661, -10.835695)),
        look=Look(light_gain=0.138952, light_dir=102.581765, cast=(0.951411, 0.968855, 0.967849), blur=0.853294,
                  motion_angle=146.913875, noise=1.648588, vignette=0.166273, exposure=0.952405, shot_noise=0.365525),
        seed=608136041 + count,
    )) for count in range(1, 6)]
    results = _watched(foreign_catalogs["touati"], frames, mat_layout("A3"))
    assert "kd" in _faces(results[3])
    assert "4c" in _faces(results[4])
    assert all(_named_right(frame, result) for frame, result in zip(frames, results, strict=True))


def _queen_played_on_laminate() -> list[Rendered]:
    """Seven touati cards strewn on white laminate under two glares, without the mat (speed frame 0), before and
    after the Q♣ is played last."""
    cards = [("ah", 327.74, 206.27, 263.22), ("5d", 431.04, 210.71, 313.19), ("6c", 537.43, 324.55, 260.83),
             ("7s", 346.50, 376.57, 253.92), ("2d", 541.37, 206.44, 3.42), ("6h", 251.56, 334.99, 191.25),
             ("qc", 471.34, 408.57, 294.50)]
    scene = Scene(
        cards=tuple(Card("touati", face, x, y, angle) for face, x, y, angle in cards),
        cloth="white-laminate",
        mat=None,
        view=View(tilt=30.888, azimuth=261.119, roll=-14.302, zoom=0.951, shift=(0.859, 13.031)),
        look=Look(light_gain=0.0574, light_dir=46.04, cast=(0.9718, 1.0500, 1.0512),
                  glare=((951.23, 270.10, 79.76, 0.2739), (524.35, 548.28, 34.13, 0.3447)), noise=3.465,
                  vignette=0.2757, exposure=0.8127, shot_noise=0.1435),
        seed=1547085061,
    )
    return [render_scene(replace(scene, cards=scene.cards[:-1], seed=scene.seed + 1)), render_scene(scene)]


def test_a_card_played_beside_a_kept_one_is_read_without_trying_outlines_on_it(
    foreign_catalogs: dict[str, Catalog], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Q♣ played last on white laminate (``_queen_played_on_laminate``). The window read around it
    (``Recognizer._window``) takes in a corner of the 6♣, whose reading it keeps, and the edges outline that
    corner. It is the 6♣'s and is not tried as a card (``View.on_kept``): trying it, and moving it onto the edges
    around it, took most of the window's time."""
    frames = _queen_played_on_laminate()
    tried: list[np.ndarray] = []  # edge candidates (frame px) in the window read
    candidates = Recognizer._edge_candidates

    def spied(self: Recognizer, view: PipelineView, *args: object) -> Iterator[np.ndarray]:
        for quad in candidates(self, view, *args):
            if view.kept:
                tried.append(quad + view.origin)
            yield quad

    monkeypatch.setattr(Recognizer, "_edge_candidates", spied)
    before, after = _watched(foreign_catalogs["touati"], frames)
    six = next(c for c in before.cards if c.face == "6c")
    assert any(c is six for c in after.cards)  # kept as it was read
    assert tried and not any(cv2.pointPolygonTest(six.corners, tuple(map(float, q.mean(axis=0))), False) >= 0
                             for q in tried)
    assert _named_right(frames[1], after) and "qc" in _faces(after)


def test_a_card_played_that_the_edges_outline_is_named_without_searching_the_art(
    foreign_catalogs: dict[str, Catalog], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same Q♣ played (``_queen_played_on_laminate``). The window read around it finds the queen from the
    quads the edges outline, and stops there: the art search (SIFT, ``Recognizer._by_art``), a few times dearer,
    is for what those miss, and the frame read whole searches it first."""
    frames = _queen_played_on_laminate()
    searched: list[bool] = []  # for each art search, whether the frame was read whole
    by_art = Recognizer._by_art
    monkeypatch.setattr(Recognizer, "_by_art",
                        lambda self, view, *args: searched.append(view.whole) or by_art(self, view, *args))
    after = _watched(foreign_catalogs["touati"], frames)[-1]
    assert searched and all(searched)
    assert _named_right(frames[1], after) and "qc" in _faces(after)


def test_small_cards_a_soft_frame_blurs_are_named_against_references_blurred_as_softly(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """Six cards about 100 px long on red gingham, in a frame blurred by 1.4 px (tuning scene 950). The edges
    outline the 4♥ to a pixel, but against the sharp references it leads the next face (5♥) too little to be named
    as an edge guess (0.56); against references blurred as softly as the frame shows it, it leads by more than its
    own misfit, and is named at 1.0 (``Catalog._as_soft``)."""
    scene = Scene(
        cards=tuple(Card("touati", face, x, y, angle) for face, x, y, angle in [
            ("2s", 257.59, 301.21, 241.91), ("4h", 427.51, 284.36, 280.34), ("10h", 540.95, 194.22, 205.36),
            ("8d", 364.15, 203.77, 244.61), ("3s", 345.72, 390.70, 53.73), ("5d", 581.34, 342.11, 86.56)]),
        cloth="red-gingham",
        mat=None,
        view=View(tilt=27.548273, azimuth=136.701808, roll=162.170476, zoom=0.810437, shift=(13.727792, 14.079298)),
        look=Look(light_gain=0.230248, light_dir=178.035885, cast=(1.038190, 0.998372, 1.021083), blur=1.414882,
                  motion_angle=150.240341, noise=2.795583, vignette=0.191628, exposure=0.979968,
                  shot_noise=0.251535, jpeg=64),
        seed=2047176922,
    )
    rendered, result = _read(foreign_catalogs["touati"], scene)
    assert {"2s", "8d", "4h", "3s"} <= set(_faces(result))
    assert _named_right(rendered, result)



def test_a_fans_top_card_two_of_whose_sides_show_is_fitted_at_its_corner(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """A fan on white laminate in a dim, blurred frame (tuning scene 1131): the 3♣ on top shows only its two outer
    sides as edges (its paper barely differs from the table; the cards under it hide the others' edges), so no
    region or four segments outline it. The two sides meet square at its corner, and the 5♥ lying apart gives the
    table's scale: the card-sized rectangle there is the 3♣ (``edges.corner_quads``)."""
    scene = Scene(
        cards=tuple(Card("touati-bridge", face, x, y, angle) for face, x, y, angle in [
            ("5h", 246.71, 215.56, 218.71), ("kd", 393.42, 246.09, -23.85), ("kh", 402.77, 243.42, -7.98),
            ("qd", 412.49, 243.41, 7.90), ("10s", 421.84, 246.06, 23.77), ("3c", 430.11, 251.17, 39.65)]),
        cloth="white-laminate",
        mat=None,
        view=View(tilt=11.676444, azimuth=242.231485, roll=-6.540639, zoom=0.916502, shift=(15.483893, 14.130337)),
        look=Look(light_gain=0.331790, light_dir=259.953340, cast=(1.005558, 0.971876, 0.939552), blur=1.455070,
                  motion_angle=127.331633, noise=3.250997, vignette=0.148293, exposure=0.391063,
                  shot_noise=0.323015, jpeg=79),
        seed=340489702,
    )
    rendered, result = _read(foreign_catalogs["touati-bridge"], scene)
    assert _faces(result) == ["3c", "5h"]
    assert _named_right(rendered, result)


def test_a_lone_piles_top_card_is_sized_from_its_own_side_where_nothing_gives_the_tables_scale(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """A lone pile on grey laminate in a dim room (tuning scene 463): the 3♠ on top shows three sides as edges, its
    fourth running on into the cards under it, and no other card is named to say how large a card is here. Its side
    between two square corners is one of the card's, so it gives the size, and the card the deck's shape there is
    the 3♠ (``edges.side_quads``); it is named only as its face's picture aligns onto it."""
    scene = Scene(
        cards=tuple(Card("kennard", face, x, y, angle) for face, x, y, angle in [
            ("7s", 421.66, 327.21, 121.31), ("5s", 405.42, 328.57, 180.01), ("10s", 415.03, 345.67, 348.71),
            ("ks", 415.26, 330.60, 238.84), ("2d", 424.64, 338.95, 119.06), ("kc", 397.98, 326.11, 264.72),
            ("3s", 416.70, 329.46, 252.39)]),
        cloth="grey-laminate",
        mat=None,
        view=View(tilt=16.608965, azimuth=78.171121, roll=-12.279446, zoom=0.826041, shift=(-15.342425, -3.710604)),
        look=Look(light_gain=0.070687, light_dir=159.760201, cast=(0.959957, 1.022495, 1.006861),
                  glare=((128.548894, 477.348498, 67.207880, 0.327542), (406.770118, 199.974079, 68.851485, 0.166206)),
                  blur=0.955355, motion_angle=80.433482, noise=3.860982, vignette=0.323791, exposure=0.412089,
                  shot_noise=0.527123, jpeg=62),
        seed=276717614,
    )
    rendered, result = _read(foreign_catalogs["kennard"], scene)
    assert _faces(result) == ["3s"]
    assert _named_right(rendered, result)


def test_a_card_under_the_pile_top_whose_three_sides_show_is_not_named_from_them(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """A pile on white laminate (tuning scene 791): the 5♦ half under the 6♦ on top shows three sides, its paper
    running on under the 6♦'s, and the 6♦'s pips where its other half would be read 4♦ at 0.61. The rectangle its
    three sides give is a guess at its fourth: a card is named from it only where its face's picture aligns onto
    it, and the 4♦'s does not. (The read is as frail as that: the scene's numbers are kept to the last digit, as
    the bench drew it; rounded to six, the frame differs by a few levels and nothing is read 4♦.)"""
    scene = Scene(
        cards=tuple(Card("touati-bridge", face, x, y, angle) for face, x, y, angle in [
            ("8c", 409.1584947289204, 311.1554136555301, 78.48661028291826),
            ("qc", 398.4733051589704, 313.5733288990535, 203.69172996021888),
            ("5d", 375.93708151428194, 308.5142571375718, 101.28177013991713),
            ("10c", 405.2078235735483, 339.45631523558166, 114.74047916202639),
            ("8s", 410.2781121030208, 334.5142878209229, 336.38920139319043),
            ("6d", 397.99127905898604, 339.5367235952557, 212.00001100099516)]),
        cloth="white-laminate",
        mat=None,
        view=View(tilt=5.220142955570045, azimuth=197.6741170321822, roll=168.095588577402, zoom=0.9934733637233376,
                  shift=(10.966419780764983, -4.347380272844381)),
        look=Look(light_gain=0.38580838374668497, light_dir=346.1065295788474,
                  cast=(1.005437666865634, 1.040362423342854, 1.0107763947732422), motion=4,
                  motion_angle=30.757680423610772, noise=2.7505110729367797, vignette=0.03699351435392802,
                  exposure=0.5181316725056825, shot_noise=0.1295896520886535, jpeg=73),
        seed=1749665669,
    )
    rendered, result = _read(foreign_catalogs["touati-bridge"], scene)
    assert "4d" not in _faces(result)
    assert _named_right(rendered, result)


def test_a_card_whose_outline_takes_in_a_strip_of_table_is_aligned_before_it_is_named(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """A 2♣ lying alone on red gingham (the tuning run's played scene 200051): the edges outline it 7 px wide along
    one long side, a strip of checks inside the outline, and so far off the marks that tell a club from a spade
    fall on other cells: it read 2♠ at 1.0 and stood as read. Something reaching in over an outline's edge (the
    strip) says the outline is off: it is aligned to its face's picture first, and there it reads 2♣. (The scene's
    numbers are kept to the last digit, as the bench drew it.)"""
    scene = Scene(
        cards=tuple(Card("touati-bridge", face, x, y, angle) for face, x, y, angle in [
            ("ah", 245.3057413579568, 313.1052803033086, 216.94644369824195),
            ("2c", 399.54818389769775, 350.65828614411384, 35.6678647802212),
            ("8s", 577.3513665523344, 327.5539621957611, 267.1114755477439),
            ("7s", 350.21549170322027, 199.8739755005253, 194.0751272970812)]),
        cloth="red-gingham",
        mat=None,
        view=View(tilt=14.286161309017041, azimuth=39.9285297592387, roll=-14.307884530169899,
                  zoom=0.9656890389253476, shift=(-17.807870905722737, -12.686979671826766)),
        look=Look(light_gain=0.24217666919998082, light_dir=338.21257667012503,
                  cast=(0.9432391564495625, 0.9846317475618568, 1.0830585232205034),
                  glare=((560.1917207801598, 369.08319883624023, 47.64529388193182, 0.2399284995727351),
                         (301.8658277278514, 464.7810626159454, 31.50049541553799, 0.309050996623781)),
                  blur=0.5900561340819046, motion_angle=149.3901315074536, noise=2.081932901669998,
                  vignette=0.04142787247754078, exposure=0.9960300283753463, shot_noise=0.34810388648621116),
        seed=257150535,
    )
    rendered, result = _read(foreign_catalogs["touati-bridge"], scene)
    assert "2s" not in _faces(result)
    assert _named_right(rendered, result)
    assert "2c" in _faces(result)


def test_a_window_read_given_up_leaves_the_frame_read_whole_to_search_its_edges(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """A discard pile built on dark wood, watched (tuning pile 100041). The fifth card, a 9♦, lands where a window
    read around it finds an outline running to the window's edge, so the frame is read whole. The window's own edge
    search had been taken as this frame's last search: the whole read saw nothing changed since, and stopped its
    search before it began, leaving the 9♦ unnamed. A window read given up says nothing of the frame."""
    scene = Scene(
        cards=tuple(Card("touati-bridge", face, x, y, angle) for face, x, y, angle in [
            ("6d", 372.5533536040289, 286.9393236436662, 35.573127991439875),
            ("ad", 380.8189155252788, 309.77836952224004, 337.2856951191356),
            ("10c", 378.9454289372318, 321.16088840373993, 303.2355412310974),
            ("qh", 395.18521459848705, 313.79456927610374, 334.39601403684685),
            ("9d", 402.976239500751, 305.1642843721242, 264.34345641235404)]),
        cloth="dark-wood",
        mat=None,
        view=View(tilt=12.13576876381187, azimuth=224.4007990396456, roll=-5.046936027283341,
                  zoom=0.8589437503793715, shift=(-0.4045779078854004, 1.459781893603271)),
        look=Look(light_gain=0.23041434658113322, light_dir=84.29573285595407,
                  cast=(1.0198031730313575, 1.0402923877045074, 1.0140339097540005), motion_angle=9.771807876791927,
                  noise=2.5303958706108443, vignette=0.1374202853004401, exposure=0.9493159787659641,
                  shot_noise=0.45769657190298974),
        seed=1556207754,
    )
    frames = [render_scene(replace(scene, cards=scene.cards[:laid], seed=scene.seed + laid)) for laid in range(1, 6)]
    results = _watched(foreign_catalogs["touati-bridge"], frames)
    assert "9d" in _faces(results[-1])
    assert all(_named_right(frame, result) for frame, result in zip(frames, results, strict=True))


def test_a_piles_top_card_the_border_mask_outlines_loosely_is_aligned_onto_its_face(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """Tuning scene 2294: a pile of three cream cards on green felt, no mat, dim. The border mask outlines the top
    6♠ together with the card under it, 9 px off, and it read 6♠ at 0.6, fitting loosely (0.0043). Left so, it
    blocked the edge outlines over it that were 4 px off, and judged at the end on what shows of it, it was
    unknown. Aligned onto the 6♠'s picture (``Recognizer._onto_face``), 2 px off, it is named."""
    cards = [("10c", 378.646962, 293.853012, 52.762684), ("qh", 369.091234, 301.992577, 49.689568),
             ("6s", 374.518044, 308.416789, 50.164408)]
    scene = Scene(
        cards=tuple(Card("kennard-cream", face, x, y, angle) for face, x, y, angle in cards),
        cloth="green-felt",
        mat=None,
        view=View(tilt=5.726424, azimuth=88.119401, roll=179.042172, zoom=0.850183, shift=(15.356, -8.363387)),
        look=Look(light_gain=0.046455, light_dir=25.41659, cast=(0.992432, 1.046242, 0.99281),
                  glare=((925.014208, 217.715625, 33.722908, 0.418521), (836.753261, 331.288773, 75.06555, 0.241906)),
                  motion_angle=60.045489, noise=1.373463, vignette=0.320574, exposure=0.535009, shot_noise=0.564567),
        seed=1806790471,
    )
    _named(foreign_catalogs["kennard-cream"], scene, "6s")


def test_the_last_card_of_a_row_is_aligned_after_the_rows_strips_have_been(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """Tuning scene 1551: a row of seven bridge cards on black cloth, no mat, in a dim room, and a 3♠ apart. The
    edges outline strips of the row many times over, and each strip the catalogue cannot name is aligned to the
    face it fits best (``Recognizer._onto_face``); none settles. The row's end card, a 3♣ outlined to a pixel but
    read 0.45 against the 3♠, came after 17 of them, and 12 aligns a frame (``MAX_ALIGNS``) left it unnamed."""
    row = ["8d", "4c", "7h", "kd", "6s", "ac", "3c"]
    scene = Scene(
        cards=(Card("touati-bridge", "3s", 571.396384, 239.102015, 28.420514),
               *(Card("touati-bridge", face, 334.3184 + 18.900759 * i, 344.416424 - 6.794933 * i, 345.780032)
                 for i, face in enumerate(row))),
        cloth="black",
        mat=None,
        view=View(tilt=0.971504, azimuth=324.262025, roll=1.510859, zoom=0.923627, shift=(0.019488, -10.153034)),
        look=Look(light_gain=0.019782, light_dir=331.779115, cast=(0.985896, 0.959277, 0.988174),
                  glare=((283.97493, 324.679693, 73.390981, 0.298018),), blur=0.882976, motion=4,
                  motion_angle=133.050402, noise=2.354132, vignette=0.153229, exposure=0.958383, shot_noise=0.131344),
        seed=572182745,
    )
    _named(foreign_catalogs["touati-bridge"], scene, "3c")


def test_a_card_whose_corner_outline_fits_its_face_loosely_is_aligned_and_named(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """Tuning scene 2394: a cream 10♥ apart from a row on blue gingham, no mat, under a camera tilted 31 degrees. Its
    corner outline (``edges.corner_quads``) lay 2 px off, but the cheap first look found it fitting its face more
    loosely than an edge guess must, and it was never tried. Every corner outline some face fits at all is tried:
    aligned onto the 10♥'s picture, 1 px, and named."""
    row = ["3d", "3h", "4h", "4d", "as", "3s"]
    scene = Scene(
        cards=(Card("kennard-cream", "10h", 574.784775, 389.137325, 216.784202),
               Card("kennard-cream", "2s", 254.109897, 198.730647, 107.78827),
               Card("kennard-cream", "8s", 236.831226, 405.693219, 271.604185),
               *(Card("kennard-cream", face, 514.005528 - 37.378785 * i, 333.973972 - 11.536313 * i, 192.874783)
                 for i, face in enumerate(row))),
        cloth="blue-gingham",
        mat=None,
        view=View(tilt=30.643767, azimuth=218.60818, roll=-19.335701, zoom=0.840308, shift=(-12.466345, 4.261749)),
        look=Look(light_gain=0.156911, light_dir=151.45739, cast=(0.952297, 1.034449, 1.014143), motion_angle=34.990913,
                  noise=1.95063, vignette=0.212162, exposure=0.811142, shot_noise=0.198483, jpeg=57),
        seed=1397182105,
    )
    _named(foreign_catalogs["kennard-cream"], scene, "10h")


def test_a_fans_top_card_outlined_off_it_is_not_named_as_the_face_its_aligned_outline_disowns(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """Tuning scene 2153: a fan of three on dark wood, no mat. The border mask outlined its top 6♣ 19 px off, read
    6♠ at 0.62; aligned onto its face, the outline read 6♣ at 0.97, and the rough 6♠ stood, as only an aligned
    outline reading the same face was kept. An outline off its card that no alignment bears out is a guess: left
    unknown, the edge search finds the 6♣."""
    scene = Scene(
        cards=(Card("kennard", "10s", 390.48861, 235.861064, 330.65532),
               Card("kennard", "9h", 397.758548, 232.779602, 343.404033),
               Card("kennard", "6c", 405.529265, 231.378403, 356.152746)),
        cloth="dark-wood",
        mat=None,
        view=View(tilt=18.584273, azimuth=222.359364, roll=16.768861, zoom=0.970517, shift=(-6.124745, -7.30097)),
        look=Look(light_gain=0.131808, light_dir=90.150882, cast=(1.04778, 0.994869, 0.98873),
                  glare=((914.402328, 166.872356, 45.654069, 0.483476), (1096.727235, 436.527376, 53.219572, 0.222027)),
                  motion_angle=177.705637, noise=2.651796, vignette=0.112598, exposure=0.467503, shot_noise=0.382141,
                  jpeg=83),
        seed=93704663,
    )
    _named(foreign_catalogs["kennard"], scene, "6c")


def test_a_card_an_arm_cuts_short_outlined_off_it_and_aligned_to_nothing_is_not_named(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """Tuning scene 1593: a 10♠ on green felt, no mat, an arm over a third of it. The border mask outlined what
    showed, 52 px off the card, and it read 9♠ at 0.68; aligned onto the 9♠'s picture, nothing settled, and the
    9♠ stood. An outline that loose which no alignment bears out is a guess, and is left unknown."""
    faces = [("2d", 241.705793, 251.124677, 230.351205), ("4s", 570.596801, 380.348615, 266.598028),
             ("6h", 376.165402, 287.65478, 165.330744), ("jd", 296.474526, 408.727344, 227.299921),
             ("6s", 484.306813, 303.240287, 318.297666), ("ac", 527.294911, 199.317937, 332.237685),
             ("10s", 450.214308, 401.232347, 88.497782)]
    scene = Scene(
        cards=tuple(Card("kennard", face, x, y, angle) for face, x, y, angle in faces),
        hands=(Hand(x=417.193225, y=436.870458, from_angle=79.112302, size=0.962556),),
        cloth="green-felt",
        mat=None,
        view=View(tilt=4.226122, azimuth=104.622843, roll=186.858762, zoom=0.927826, shift=(-16.166799, -0.219712)),
        look=Look(light_gain=0.019631, light_dir=139.343972, cast=(1.100394, 0.908854, 0.880515),
                  glare=((1271.95538, 437.157048, 77.155422, 0.409706),), motion_angle=164.77125, noise=1.628518,
                  vignette=0.199015, exposure=0.998986, shot_noise=0.300528),
        seed=1610479154,
    )
    _never_named(foreign_catalogs["kennard"], scene, "9s")


@pytest.mark.parametrize("deck", ["kennard-cream", "touati-bridge"])
def test_a_lone_two_of_clubs_on_white_laminate_is_not_named_the_two_of_spades(
    foreign_catalogs: dict[str, Catalog], deck: str
) -> None:
    """A 2♣ alone on white laminate, no mat: its border does not stand out, and its edges outline it a few px off.
    Nothing reaches in over it, and that outline read 2♠ at 0.99-1.0, at once (``AT_ONCE``), so it stood unaligned:
    a few px off, the marks that tell a club from the spade of its rank fall on other cells. A face with such a twin
    (``ALIGNED_TWINS``) is aligned onto its picture all the same, and reads 2♣ at 1.0 (tuning scene 1881 too)."""
    result = _seen(foreign_catalogs[deck], "white-laminate", None, [("2c", 10, -20, 17)], Look())
    assert _faces(result) == ["2c"]


def test_a_card_an_arm_lies_over_is_fitted_at_its_corner_though_its_diamonds_edges_cross_it(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """Tuning scene 1251: a bridge 9♦ on black cloth, no mat, an arm over its left corner, which breaks the border
    mask's outline. Its right corner shows plainly and a named card gives the table's scale, but the rectangle
    there was taken for a card under another (``edges._crossed``): two diamonds' edges in line made a 40 px segment
    across it. Another card's side comes in from beyond the card's inner outline; the diamonds' edges do not."""
    scene = Scene(
        cards=(Card("touati-bridge", "kd", 340.466897, 389.629506, 236.560287),
               Card("touati-bridge", "7h", 257.804703, 301.75164, 284.764219),
               Card("touati-bridge", "9d", 520.850339, 295.811239, 229.853858)),
        hands=(Hand(x=480.662842, y=284.577838, from_angle=90.343538, size=0.847549),),
        cloth="black",
        mat=None,
        view=View(tilt=27.905107, azimuth=75.579566, roll=4.264691, zoom=0.917443, shift=(4.342229, 1.365582)),
        look=Look(light_gain=0.181121, light_dir=79.405584, cast=(0.917094, 0.93775, 0.968742),
                  glare=((528.362564, 411.163344, 69.216973, 0.166441),), motion_angle=13.634029, noise=2.836601,
                  vignette=0.222043, exposure=0.953307, shot_noise=0.238759, jpeg=57),
        seed=512897702,
    )
    _named(foreign_catalogs["touati-bridge"], scene, "9d")


def test_a_cards_corner_is_not_crowded_out_by_the_corners_of_cards_named_already(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """Tuning scene 1980: seven cards on white laminate, no mat, in a dim room. A 6♥ among them shows its corners
    plainly, but the corner outlines kept (``edges.MAX_CORNERS``, the most lined first) were all the named cards'
    own, and the 6♥'s never came. Outlines of cards found already are left out before the most lined are kept."""
    faces = [("kc", 263.557546, 236.916926, 178.645688), ("8s", 253.386679, 340.12413, 7.594872),
             ("js", 437.581375, 297.765491, 340.082041), ("6h", 564.912833, 293.325306, 9.556843),
             ("qs", 476.59395, 198.269058, 86.66047), ("7c", 373.058422, 396.962479, 252.073603),
             ("ks", 583.398925, 407.996911, 69.854545)]
    scene = Scene(
        cards=tuple(Card("touati", face, x, y, angle) for face, x, y, angle in faces),
        cloth="white-laminate",
        mat=None,
        view=View(tilt=19.927801, azimuth=356.109176, roll=194.36599, zoom=0.962996, shift=(-15.811448, -6.939403)),
        look=Look(light_gain=0.239556, light_dir=71.778726, cast=(0.943556, 0.966348, 1.02185), blur=0.871246,
                  motion_angle=127.825049, noise=3.615154, vignette=0.315096, exposure=0.412623, shot_noise=0.396516),
        seed=768560501,
    )
    _named(foreign_catalogs["touati"], scene, "6h")


def test_a_card_a_hand_covers_a_fifth_of_is_tried_at_its_corner_though_it_fits_loosely_at_first_look(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """Tuning scene 1320: a 7♦ on black cloth, no mat, a hand over its top right corner. Its corner outline lay
    5 px off, but the cheap first look, which has no hand to leave out, found it fitting the 7♦ at 0.017, looser
    than ``MatchSettings.max_distance``, and it was never tried. Within ``CORNER_FIT`` times that it is: aligned
    without the hand, 3 px off, and named."""
    scene = Scene(
        cards=(Card("touati", "7d", 540.69848, 197.846173, 18.120944),
               Card("touati", "2c", 558.9936, 393.819442, 6.266693),
               Card("touati", "2s", 284.967471, 268.230979, 119.989825),
               Card("touati", "as", 310.800076, 371.741426, 199.878562)),
        hands=(Hand(x=570.635063, y=174.951136, from_angle=6.040495, size=0.941113),),
        cloth="black",
        mat=None,
        view=View(tilt=34.219367, azimuth=62.957374, roll=14.740715, zoom=0.99642, shift=(-7.655514, -6.297349)),
        look=Look(light_gain=0.353661, light_dir=11.946851, cast=(1.048761, 0.98806, 0.959509), blur=1.053323,
                  motion=2, motion_angle=101.646838, noise=2.305601, vignette=0.128647, exposure=0.854171,
                  shot_noise=0.543874),
        seed=1239918420,
    )
    _named(foreign_catalogs["touati"], scene, "7d")


def test_a_card_an_arms_edge_crosses_is_fitted_at_its_corner(foreign_catalogs: dict[str, Catalog]) -> None:
    """Tuning scene 1314: a cream 7♠ on light wood, no mat, an arm across its corner. Its corner outline, 2 px off,
    was dropped as a card under another (``edges._crossed``): the arm's edge runs across it as another card's side
    would. Where something reaches in over the outline (``CROSSED_REACHED``), the segment may be its edge: aligned
    without the arm, and named."""
    faces = [("7s", 549.814381, 217.533198, 139.653575), ("4c", 435.414237, 225.514755, 133.522889),
             ("10s", 318.394959, 346.976521, 141.001656), ("as", 578.684661, 365.465745, 305.788132),
             ("5h", 441.034187, 397.957645, 244.108307), ("3d", 252.680778, 254.551855, 80.706743)]
    scene = Scene(
        cards=tuple(Card("kennard-cream", face, x, y, angle) for face, x, y, angle in faces),
        hands=(Hand(x=484.000673, y=244.106604, from_angle=233.593966, size=0.827444),
               Hand(x=567.55286, y=323.978037, from_angle=102.969248, size=0.821985)),
        cloth="light-wood",
        mat=None,
        view=View(tilt=25.017465, azimuth=128.811299, roll=178.35113, zoom=0.85249, shift=(16.428046, 13.110158)),
        look=Look(light_gain=0.155033, light_dir=256.105391, cast=(0.96024, 0.965264, 1.104701), blur=0.35462,
                  motion=4, motion_angle=129.233318, noise=3.953688, vignette=0.123641, exposure=0.951032,
                  shot_noise=0.334859, jpeg=74),
        seed=1325376925,
    )
    _named(foreign_catalogs["kennard-cream"], scene, "7s")


def test_a_clubs_outline_off_its_card_that_aligns_to_nothing_is_not_named_its_spade(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """A pile of six small bridge cards on white laminate, no mat, a 3♣ on top (a probe of clubs on light tables,
    seed 6000425, apart from the tuning and held-out seeds). The edges outline it 26 px off, and that outline reads
    3♠ at 1.0, at once; aligned onto the 3♠'s picture (``ALIGNED_TWINS``), it settles nowhere. A twin's read that
    no alignment bears out is a guess: the outline is no card."""
    faces = [("8s", 389.518441, 330.313031, 197.546532), ("4h", 388.949142, 342.128849, 186.813345),
             ("ad", 397.614316, 340.580512, 73.399322), ("3h", 389.929626, 315.694327, 228.968155),
             ("2h", 391.272838, 326.640023, 9.865404), ("3c", 404.863303, 331.808739, 304.304822)]
    scene = Scene(
        cards=tuple(Card("touati-bridge", face, x, y, angle) for face, x, y, angle in faces),
        cloth="white-laminate",
        mat=None,
        view=View(tilt=16.543938, azimuth=117.323278, roll=-8.657593, zoom=0.84246, shift=(3.015348, -3.241213)),
        look=Look(light_gain=0.075815, light_dir=299.54308, cast=(0.940421, 1.034257, 1.042806),
                  motion_angle=140.571045, noise=2.526752, vignette=0.095609, exposure=0.823701, shot_noise=0.246267,
                  jpeg=61),
        seed=1866766610,
    )
    _never_named(foreign_catalogs["touati-bridge"], scene, "3s")
