"""Which of two overlapping card outlines lies on the other (``lies_on``), on drawn pictures whose order is known."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.edges import edge_map, lies_on

LOWER = cv2.boxPoints(((300.0, 250.0), (126.0, 176.0), 10.0)).astype(np.float32)
UPPER = cv2.boxPoints(((390.0, 300.0), (126.0, 176.0), -25.0)).astype(np.float32)


def _two_cards(court_art: bool) -> np.ndarray:
    """A white card on a dark cloth and another laid over it (its edge a broken soft grey line where it meets the
    white below: its shadow); the upper one's art, inside its border, is a pip or a court card's (edges everywhere:
    coloured strokes)."""
    image = np.full((540, 720, 3), (40, 70, 30), np.uint8)
    rng = np.random.default_rng(3)
    for quad in (LOWER, UPPER):
        cv2.fillPoly(image, [np.rint(quad).astype(np.int32)], (236, 236, 232), cv2.LINE_AA)
    for k in range(4):  # the shadow shows along most of each side, not all (glare, JPEG)
        for t in np.arange(0.0, 1.0, 0.1):
            ends = [UPPER[k] + f * (UPPER[(k + 1) % 4] - UPPER[k]) for f in (t, t + 0.06)]
            cv2.line(image, *(tuple(np.rint(e).astype(int)) for e in ends), (150, 150, 150), 2, cv2.LINE_AA)
    centre = UPPER.mean(axis=0)
    inner = centre + (UPPER - centre) * 0.8
    if court_art:
        to_card = cv2.getPerspectiveTransform(np.float32([(0, 0), (1, 0), (1, 1), (0, 1)]), inner.astype(np.float32))
        for _ in range(900):
            a, b = rng.uniform(0, 1, 2), rng.uniform(-0.12, 0.12, 2)
            ends = cv2.perspectiveTransform(np.float32([[a, np.clip(a + b, 0, 1)]]), to_card)[0]
            colour = tuple(int(c) for c in rng.integers(20, 200, 3))
            cv2.line(image, tuple(np.rint(ends[0]).astype(int)), tuple(np.rint(ends[1]).astype(int)), colour, 2)
    else:
        cv2.circle(image, tuple(np.rint(centre).astype(int)), 12, (30, 30, 200), -1)
    return image


@pytest.mark.parametrize("court_art", [False, True])
def test_the_card_laid_over_another_is_on_top_even_with_a_court_cards_art(court_art: bool) -> None:
    edges = edge_map(_two_cards(court_art))
    assert lies_on(UPPER, LOWER, edges)
    assert not lies_on(LOWER, UPPER, edges)  # its sides run across the art, not along an edge of its own


def test_an_outline_inside_a_card_is_a_piece_of_it_not_a_card_lying_on_it() -> None:
    edges = edge_map(_two_cards(court_art=True))
    centre = UPPER.mean(axis=0)
    piece = centre + (UPPER - centre) * 0.8  # the art's frame, or an outline that stopped short of the edge
    assert not lies_on(piece.astype(np.float32), UPPER, edges)
