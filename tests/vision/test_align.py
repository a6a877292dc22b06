"""An outline aligned to its face's picture (``align.aligned``): onto the card's own corners from a few px out,
never stretched from part of a card to the whole of it, nothing where there is nothing to align."""

from __future__ import annotations

import numpy as np
import pytest

from companion.sim.scene import Card, Hand, Look, Scene, View, mat_outline, render_scene
from companion.vision.align import MAX_STRETCH, aligned
from companion.vision.catalog import Catalog, warp_card
from companion.vision.pipeline import scale_of


@pytest.fixture(scope="module")
def nine(foreign_catalogs: dict[str, Catalog]) -> tuple[np.ndarray, np.ndarray, Catalog]:
    """A kennard 9♦ lying turned on black cloth, a little noise: the frame, its true corners, the catalogue."""
    catalog = foreign_catalogs["kennard"]
    cx, cy = mat_outline(Scene(mat=None)).mean(axis=0)
    scene = Scene(cards=(Card("kennard", "9d", cx, cy, 23.0),), cloth="black", mat=None,
                  view=View(tilt=12.0, azimuth=40.0), look=Look(noise=2.0))
    rendered = render_scene(scene)
    return rendered.image, rendered.truths[0].corners.astype(np.float32), catalog


def test_an_outline_a_few_pixels_out_is_aligned_onto_the_cards_corners(nine) -> None:
    frame, truth, catalog = nine
    centre = truth.mean(axis=0)
    rough = (centre + (truth - centre) * 1.1 + (4.0, -3.0)).astype(np.float32)  # its shadow's outline, moved
    moved = aligned(frame, rough, catalog.reference("9d"), catalog.card_mm[1] / catalog.card_mm[0])
    assert moved is not None
    long = np.linalg.norm(truth[3] - truth[0])
    # onto the card as its reference picture was cropped (a scan's crop lies a px or two inside the card's edge)
    assert np.linalg.norm(moved - truth, axis=1).max() < 0.025 * long < np.linalg.norm(rough - truth, axis=1).min()


def test_a_card_a_tilted_camera_foreshortens_is_aligned_too(foreign_catalogs: dict[str, Catalog]) -> None:
    """Tilted 30 degrees across its long side, a card looks 13% squatter than the deck's aspect: an outline
    snapped to edges that shape is refused (``edges.SNAP_ASPECT``), an aligned one is not (``MAX_STRETCH``)."""
    catalog = foreign_catalogs["kennard"]
    cx, cy = mat_outline(Scene(mat=None)).mean(axis=0)
    scene = Scene(cards=(Card("kennard", "9d", cx, cy, 0.0),), cloth="black", mat=None,
                  view=View(tilt=30.0, azimuth=90.0), look=Look(noise=2.0))
    rendered = render_scene(scene)
    truth = rendered.truths[0].corners.astype(np.float32)
    centre = truth.mean(axis=0)
    rough = (centre + (truth - centre) * 1.08 + (3.0, 2.0)).astype(np.float32)
    moved = aligned(rendered.image, rough, catalog.reference("9d"), catalog.card_mm[1] / catalog.card_mm[0])
    assert moved is not None
    assert np.linalg.norm(moved - truth, axis=1).max() < 0.025 * np.linalg.norm(truth[3] - truth[0])


@pytest.mark.parametrize("face", ["9d", "5s"])
def test_a_hand_reaching_in_over_a_card_does_not_pull_its_outline(
    foreign_catalogs: dict[str, Catalog], face: str
) -> None:
    """A hand reaching in over a corner covers an eighth of the card: it is not the face, and aligned with the
    rest, it pulled the outline 6-8 px off the card's true corners (a 5♠ outlined to a pixel was moved 7 px off
    and went unnamed: fresh tuning scene 1951). Left out where the catalogue finds it (``Match.reaching``),
    the outline stays on the card."""
    catalog = foreign_catalogs["kennard"]
    cx, cy = mat_outline(Scene(mat=None)).mean(axis=0)
    scene = Scene(cards=(Card("kennard", face, cx, cy, 23.0),), cloth="black", mat=None,
                  view=View(tilt=12.0, azimuth=40.0), look=Look(noise=2.0),
                  hands=(Hand(cx + 30.0, cy - 25.0, 20.0, 0.9, skin=(120, 150, 200)),))
    rendered = render_scene(scene)
    truth = rendered.truths[0].corners.astype(np.float32)
    reaching = catalog.match(warp_card(rendered.image, truth), retry=False).reaching
    assert reaching is not None and 0.1 < reaching.mean() < 0.2
    aspect = catalog.card_mm[1] / catalog.card_mm[0]
    pulled = aligned(rendered.image, truth, catalog.reference(face), aspect)
    moved = aligned(rendered.image, truth, catalog.reference(face), aspect, reaching=reaching)
    assert pulled is not None and moved is not None
    off = np.linalg.norm(moved - truth, axis=1).max()
    assert off < 0.025 * np.linalg.norm(truth[3] - truth[0]) < np.linalg.norm(pulled - truth, axis=1).max()


def test_part_of_a_card_is_never_stretched_into_the_whole_of_it(nine) -> None:
    frame, truth, catalog = nine
    top = truth.copy()
    top[2:] = truth[1::-1] + (truth[2:] - truth[1::-1]) * 0.6  # the top 60% of the card, the rest under a hand
    moved = aligned(frame, top, catalog.reference("9d"), catalog.card_mm[1] / catalog.card_mm[0])
    assert moved is None or np.linalg.norm(moved[2:] - truth[2:], axis=1).min() > 0.25 * np.linalg.norm(
        truth[3] - truth[0])


def test_a_card_sized_outline_on_a_plain_table_aligns_to_nothing(nine) -> None:
    frame, truth, catalog = nine
    plain = np.full_like(frame, 40)  # the card taken away: plain cloth where it lay
    assert aligned(plain, truth, catalog.reference("9d"), catalog.card_mm[1] / catalog.card_mm[0]) is None


def test_a_card_a_tilted_camera_stretches_past_the_decks_shape_is_aligned_on_the_tables_plane(
    foreign_catalogs: dict[str, Catalog],
) -> None:
    """Tilted 36 degrees across its short side, a card looks 1.24 times as long as the deck's aspect: in the
    picture that is no card's shape, and the aligned outline is refused. On the table's plane, as a card named
    beside it lays it out (``scale_of``), it has the deck's shape, and the outline is aligned (tuning scene 1104: a
    cream 5♥ outlined to a pixel, 1.22 times the aspect, went unnamed)."""
    catalog = foreign_catalogs["kennard"]
    cx, cy = mat_outline(Scene(mat=None)).mean(axis=0)
    scene = Scene(cards=(Card("kennard", "9d", cx, cy, 0.0), Card("kennard", "5c", cx + 80.0, cy, 0.0)),
                  cloth="black", mat=None, view=View(tilt=36.0, azimuth=0.0), look=Look(noise=2.0))
    rendered = render_scene(scene)
    truth, beside = (t.corners.astype(np.float32) for t in rendered.truths)
    centre = truth.mean(axis=0)
    rough = (centre + (truth - centre) * 1.04 + (2.0, 1.0)).astype(np.float32)
    aspect = catalog.card_mm[1] / catalog.card_mm[0]
    sides = np.linalg.norm(np.roll(truth, -1, axis=0) - truth, axis=1)
    assert (sides[1] + sides[3]) / (sides[0] + sides[2]) / aspect > 1 + MAX_STRETCH
    assert aligned(rendered.image, rough, catalog.reference("9d"), aspect) is None
    to_table, _ = scale_of(beside, catalog.card_mm)
    moved = aligned(rendered.image, rough, catalog.reference("9d"), aspect, to_table)
    assert moved is not None
    assert np.linalg.norm(moved - truth, axis=1).max() < 0.025 * np.linalg.norm(truth[3] - truth[0])
