"""A rough card outline moved onto the face it shows: aligned to the catalogue's own picture of that face.

An outline from edges is a few pixels out (a card's soft shadow is an edge too, a court card's frame is another),
and the catalogue then names the card unsurely, or not at all: a svg-cards J♣ outlined 15% too large on warm
laminate fits its face at 0.018, where its true corners fit at 0.003. Where the outline lies is a question the
face itself answers: the card's picture, warped from the outline, is aligned to the reference picture of the face
the catalogue thinks closest by enhanced-correlation maximisation (OpenCV's ``findTransformECC``, a homography,
from where the outline stands), which is insensitive to the light's level and contrast. The aligned outline is
only a place to look: the catalogue judges the card there as anywhere else.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.catalog import WARP, WARP_CORNERS, cell_pixels

ITERATIONS = 30  # ECC steps: from an outline a few px out it settles in 10-20
SMOOTHING = 5  # px: ECC's Gaussian on both pictures (at 1, the same outlines settle worse and take 3x as long)
MAX_SHIFT = 0.2  # share of the card's short side a corner may move: further is another place, not this outline
MAX_SCALE = 1.3  # the aligned outline's area may be at most this much larger or smaller than the rough one
MAX_STRETCH = 0.2  # how far the aligned outline's long over short sides may be from the deck's aspect: a camera
# tilted 30 degrees shows plainly visible cards at 0.82-1.18 of it (foreign-art tuning seeds 0-199: 1.2% beyond 0.2,
# 9.2% beyond the 0.12 an outline snapped to edges may be)


def aligned(
    frame: np.ndarray,
    corners: np.ndarray,
    reference: np.ndarray,
    aspect: float,
    to_table: np.ndarray | None = None,
    reaching: np.ndarray | None = None,
) -> np.ndarray | None:
    """``corners`` (frame px, clockwise from the card's top-left) moved so that the card they outline lies on
    ``reference`` (a face's picture at ``WARP`` px, the way up the card is read); None when the alignment does not
    settle, would move the outline somewhere else (a corner more than ``MAX_SHIFT`` of the short side, the area
    more than ``MAX_SCALE``), or leaves it no card's shape (long over short side off the deck's ``aspect`` by
    more than ``MAX_STRETCH``): the top two thirds of a 9♦ under a hand, outlined as far as the hand, fit the 7♦'s
    picture squeezed into a square. The shape is judged on the table where its plane is known (``to_table``: frame
    px -> mm, the mat's or a named card's): a tilted camera stretches a card in the picture beyond
    ``MAX_STRETCH`` (a cream 5♥ on light wood, outlined to a pixel, showed 1.22 times the deck's aspect).
    ``reaching``: the cells (``catalog.GRID``) under something reaching in over the card's edge, left out of the
    alignment: a hand is not the face, and pulled a 5♠ outlined to a pixel 7 px away (fresh tuning scene 1951)."""
    to_card = cv2.getPerspectiveTransform(corners.astype(np.float32), WARP_CORNERS)
    seen = cv2.cvtColor(cv2.warpPerspective(frame, to_card, WARP), cv2.COLOR_BGR2GRAY).astype(np.float32)
    face = cv2.cvtColor(reference, cv2.COLOR_BGR2GRAY).astype(np.float32)
    mask = None if reaching is None or not reaching.any() else cv2.resize(
        (~cell_pixels(reaching)).astype(np.uint8), WARP, interpolation=cv2.INTER_NEAREST)
    warp = np.eye(3, dtype=np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, ITERATIONS, 1e-4)
    try:
        _, warp = cv2.findTransformECC(face, seen, warp, cv2.MOTION_HOMOGRAPHY, criteria, mask, SMOOTHING)
    except cv2.error:  # flat or featureless, or it did not converge
        return None
    moved = cv2.perspectiveTransform(WARP_CORNERS[None], np.linalg.inv(to_card) @ warp.astype(np.float64))[0]
    if not np.isfinite(moved).all():
        return None
    moved = moved.astype(np.float32)
    short = min(np.linalg.norm(corners[1] - corners[0]), np.linalg.norm(corners[2] - corners[1]))
    before, after = cv2.contourArea(corners.astype(np.float32)), cv2.contourArea(moved)
    on_table = moved if to_table is None else cv2.perspectiveTransform(moved[None], to_table)[0]
    sides = np.linalg.norm(np.roll(on_table, -1, axis=0) - on_table, axis=1)
    shape = (sides[1] + sides[3]) / max(sides[0] + sides[2], 1e-6) / aspect
    if (np.linalg.norm(moved - corners, axis=1).max() > MAX_SHIFT * short
            or not 1 / MAX_SCALE <= after / max(before, 1e-6) <= MAX_SCALE
            or abs(shape - 1) > MAX_STRETCH or not cv2.isContourConvex(moved)):
        return None
    return moved
