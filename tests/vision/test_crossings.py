"""A straight edge across a card that its face does not have: the side of a card lying on it (``crossings``)."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.catalog import GRID, WARP, Catalog
from companion.vision.crossings import beyond, crossing_lines, face_edges


def _noisy(picture: np.ndarray, seed: int = 0, sigma: float = 6.0) -> np.ndarray:
    """``picture`` with a phone camera's grain on it."""
    grain = np.random.default_rng(seed).normal(0.0, sigma, picture.shape)
    return np.clip(picture.astype(np.float32) + grain, 0, 255).astype(np.uint8)


def _under_a_card(picture: np.ndarray, x: int) -> np.ndarray:
    """``picture`` with another card's plain white paper lying on it from ``x`` px rightwards, its side a thin
    grey shadow line (as white card stock lying on white card stock shows)."""
    covered = picture.copy()
    covered[:, x:] = 245
    cv2.line(covered, (x, 0), (x, WARP[1] - 1), (150, 150, 150), 1)
    return covered


def test_no_face_of_any_deck_is_crossed_by_an_edge_of_its_own(catalogs: dict[str, Catalog]) -> None:
    """Every edge a face's own picture has (pips, indices, a corgi's art) is its own, wherever it runs."""
    crossed = [(name, face) for name, catalog in catalogs.items() for face in catalog.ids
               if crossing_lines(_noisy(catalog.reference(face)), face_edges(catalog.reference(face)))]
    assert crossed == []


def test_the_side_of_a_card_lying_on_it_crosses_a_card_and_cuts_off_what_is_not_its_own(
    catalogs: dict[str, Catalog],
) -> None:
    catalog = next(iter(catalogs.values()))
    reference = catalog.reference(catalog.ids[0])
    x = int(WARP[0] * 0.65)
    lines = crossing_lines(_noisy(_under_a_card(reference, x)), face_edges(reference))
    assert lines
    assert all(abs(abs(rho) - x) <= 2 and min(theta, np.pi - theta) < np.radians(3) for rho, theta in lines)
    columns = beyond(lines).reshape(GRID)  # 10 columns of cells: the side runs through the seventh
    assert not columns[:, :6].any()  # the card's own part is not cut off
    assert columns[:, 7:].all()  # what lies beyond the side is


def test_an_edge_along_the_cards_own_side_does_not_cross_it(catalogs: dict[str, Catalog]) -> None:
    """An outline a few px off takes in the card's own side and a strip of table: that is no card lying on it."""
    catalog = next(iter(catalogs.values()))
    reference = catalog.reference(catalog.ids[0])
    assert crossing_lines(_noisy(_under_a_card(reference, WARP[0] - 4)), face_edges(reference)) == []


def test_lines_that_leave_no_part_of_the_card_leave_it_nothing_of_its_own() -> None:
    lines = [(float(x), 0.0) for x in range(0, WARP[0] + 2, 2)]  # upright lines every 2 px, 2 px thick
    assert beyond(lines).all()
