"""What makes a card a hand touches still found, still named, and never named wrong."""

from __future__ import annotations

import numpy as np
import pytest

from companion.sim.scene import Card, Hand, Scene, View, mat_to_table, random_scene, render_scene
from companion.vision import catalog as catalog_module
from companion.vision.catalog import Catalog
from companion.vision.detect import DetectSettings, _border_score, fit_poses, white_mask
from companion.vision.mat import mat_layout
from companion.vision.pipeline import MAX_REACHED
from companion.vision.registration import MatLocator, to_mat

SEED = 1700  # tests use seeds 1000-1999


@pytest.mark.parametrize(("dx", "dy", "turn"), [(5.0, -4.0, 4.0), (-7.0, 3.0, -3.0), (2.0, 8.0, 0.0)])
def test_a_card_sized_rectangle_off_by_millimetres_is_fitted_back_onto_a_card_a_hand_touches(
    dx: float, dy: float, turn: float
) -> None:
    ox, oy = mat_to_table(Scene())
    card = Card("squirrels", "7", ox + 200, oy + 150, 25.0)
    scene = Scene(cards=(card,), hands=(Hand(card.x - 25, card.y + 30, 135.0, 0.8),), view=View(tilt=20, azimuth=40))
    rendered = render_scene(scene)
    truth = rendered.truths[0]
    assert 0.8 < truth.visible < 0.99  # the hand really covers part of it
    hom = MatLocator(mat_layout("A3")).locate(rendered.image)
    true_mm = to_mat(hom, truth.corners)
    centre = true_mm.mean(axis=0)
    a = np.radians(turn)
    start = (true_mm - centre) @ np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]]) + centre + (dx, dy)
    mask = white_mask(rendered.image, DetectSettings())
    inv = np.linalg.inv(hom)
    fitted = fit_poses(mask, inv, start[None])
    assert len(fitted) == 1
    assert np.abs(fitted[0] - true_mm).max() < 2.0  # mm, every corner: within reach of the edge refinement
    before, after = (_border_score(to_mat(inv, r).astype(np.float32), mask) for r in (start, fitted[0]))
    assert after > before + 0.3


def _forearm_over(crop: np.ndarray, region: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """The card with a forearm of ``colour`` reaching in from its left edge over most of ``region`` (a mask)."""
    ys, xs = np.nonzero(region)
    y0, y1 = int(np.percentile(ys, 15)), int(np.percentile(ys, 85))
    out = crop.copy()
    out[y0:y1, : xs.max() + 1] = colour
    return out


@pytest.mark.parametrize("black", ["red-3-black", "blue-5-black", "green-2-black"])
def test_a_hand_the_colour_of_the_art_it_covers_is_no_evidence(
    black: str, catalogs: dict[str, Catalog], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fawn-coloured forearm over a black corgi fits the fawn twin there. It reaches in over the card's edge,
    so it is left out: the black corgi's ears and paws still name the card."""
    cat = catalogs["crazy-corgi"]
    fawn = black.replace("black", "fawn")
    dog = np.abs(cat.crops[black].astype(np.int16) - cat.crops[fawn]).max(axis=2) > 60  # where the twins differ
    seen = _forearm_over(cat.crops[black], dog, np.median(cat.crops[fawn][dog], axis=0))
    assert cat.match(seen).face == black
    assert cat.match(seen).reached > MAX_REACHED  # the face search never moves an outline a hand covers

    monkeypatch.setattr(catalog_module, "occluder_cells", lambda small, hidden: np.zeros_like(hidden))
    assert cat.match(seen).face == fawn  # what it guards against: without it, a confident wrong face


def test_a_clean_card_has_no_occluder(catalogs: dict[str, Catalog]) -> None:
    cat = catalogs["pigzup"]
    for face in list(cat.crops)[:12]:
        small = catalog_module._small(cat.crops[face])
        cells = (small.shape[0] // catalog_module.CELL) * (small.shape[1] // catalog_module.CELL)
        assert not catalog_module.occluder_cells(small, np.zeros(cells, bool)).any()
        assert cat.match(cat.crops[face]).reached == 0.0


@pytest.mark.parametrize("seed", range(3))
def test_mat_markers_are_placed_to_a_fraction_of_a_pixel(seed: int) -> None:
    scene = random_scene(np.random.default_rng(SEED + seed), [], hands=0, harsh=False)
    rendered = render_scene(scene)
    layout = mat_layout("A3")
    found = MatLocator(layout).markers(rendered.image)
    assert len(found) == 4
    ox, oy = mat_to_table(scene)
    for marker, corners in layout.marker_corners().items():
        truth = to_mat(rendered.table_to_image, corners + np.array([ox, oy]))
        assert np.abs(found[marker] - truth).max() < 1.0  # px
