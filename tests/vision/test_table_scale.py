"""The table's scale a named card's outline gives without the mat (``scale_of``): by it, an outline elsewhere on
the table is judged a card's size or not (``card_size_check``)."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.pipeline import GUIDE_MISFIT_MM, plane_of, scale_of
from companion.vision.registration import card_size_check, plane_through, to_mat

CARD_MM = (63.0, 88.0)
TABLE_TO_FRAME = np.array([[2.0, 0.2, 200.0], [0.0, 1.7, 100.0], [0.0, 0.0004, 1.0]])  # a camera seeing it tilted


def _outline(
    x: float, y: float, w: float = CARD_MM[0], h: float = CARD_MM[1], table_to_frame: np.ndarray = TABLE_TO_FRAME
) -> np.ndarray:
    """The frame outline of a ``w`` x ``h`` mm rectangle at (``x``, ``y``) mm on the table."""
    rect = np.array([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], np.float64)
    return cv2.perspectiveTransform(rect.reshape(-1, 1, 2), table_to_frame).reshape(-1, 2).astype(np.float32)


def _size_mm(hom: np.ndarray, outline: np.ndarray) -> tuple[float, float]:
    pts = to_mat(hom, outline)
    return float(np.hypot(*(pts[1] - pts[0]))), float(np.hypot(*(pts[2] - pts[1])))


def test_a_card_far_across_the_table_is_a_card_and_a_strip_of_one_is_not() -> None:
    scale, misfit = scale_of(_outline(20, 20), CARD_MM)
    assert misfit < GUIDE_MISFIT_MM
    is_card = card_size_check(scale, CARD_MM)
    assert is_card(_outline(250, 150))
    assert not is_card(_outline(250, 150, w=CARD_MM[0] * 0.6))  # the third of a row's card that shows, and more
    assert not is_card(_outline(250, 150, w=CARD_MM[0] * 2))  # two cards side by side


def test_a_guides_corner_a_few_pixels_off_still_measures_a_far_card_as_a_card() -> None:
    """The perspective of one card's four corners follows each pixel they are off: with one corner 6 px out, a card
    230 mm away measures about 45 x 67 mm by it, past the size check's slack. The affine map stays near 60 x 79."""
    guide = _outline(20, 20)
    guide[2] += (6.0, 6.0)
    far = _outline(250, 150)
    assert not card_size_check(plane_of(guide, CARD_MM), CARD_MM)(far)
    scale, misfit = scale_of(guide, CARD_MM)
    assert misfit < GUIDE_MISFIT_MM
    assert card_size_check(scale, CARD_MM)(far)
    width, length = _size_mm(scale, far)
    assert abs(width / CARD_MM[0] - 1) < 0.1 and abs(length / CARD_MM[1] - 1) < 0.15


def test_an_outline_far_off_a_cards_shape_gives_no_scale() -> None:
    """An outline 20 px out at one corner (the border mask ran on into a neighbour) is no measure of the table."""
    guide = _outline(20, 20)
    guide[0] -= (20.0, 20.0)
    assert scale_of(guide, CARD_MM)[1] > GUIDE_MISFIT_MM


STEEP = np.array([[2.0, 0.2, 200.0], [0.0, 1.7, 100.0], [0.0, 0.0012, 1.0]])  # a camera tilted steeply


def test_a_plane_through_two_named_cards_measures_a_card_one_cards_map_cannot() -> None:
    """Seen steeply, a card 240 mm from a named one measures 51 x 56 mm by that card's map: no card, though it is
    one (fresh tuning scene 2020: a Q♦ measured 83 x 100 mm by an A♥'s map across the frame). Through the plane
    that both named cards lie on (``plane_through``), it is the deck's size, and half a card or two still are not."""
    named = [_outline(20, 20, table_to_frame=STEEP), _outline(300, 30, table_to_frame=STEEP)]
    far = _outline(160, 260, table_to_frame=STEEP)
    one = scale_of(named[0], CARD_MM)[0]
    assert not card_size_check(one, CARD_MM)(far)
    plane = plane_through(named, CARD_MM, one)
    assert plane is not None
    width, length = _size_mm(plane, far)
    assert abs(width / CARD_MM[0] - 1) < 0.03 and abs(length / CARD_MM[1] - 1) < 0.03
    is_card = card_size_check(plane, CARD_MM)
    assert is_card(far)
    assert not is_card(_outline(160, 260, w=CARD_MM[0] * 0.6, table_to_frame=STEEP))
    assert not is_card(_outline(160, 260, w=CARD_MM[0] * 2, table_to_frame=STEEP))


def test_no_plane_is_laid_through_named_cards_it_cannot_explain() -> None:
    """An outline 20 px out at one corner: no plane takes it and its neighbour both onto cards of the deck's size
    within ``registration.PLANE_MISFIT_MM``, and each card's own map is left to judge by."""
    named = [_outline(20, 20), _outline(250, 150)]
    named[1][0] -= (20.0, 20.0)
    assert plane_through(named, CARD_MM, scale_of(named[0], CARD_MM)[0]) is None
