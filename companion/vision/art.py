"""Cards found by their own art: keypoints of the catalogue's pictures matched in the frame.

On a patterned cloth the checks crowd a card's sides (a gingham's squares are as sharp as a card's edge and
touch it all round), so no outline from edges or a border mask finds a lone queen lying in plain view. Her art
does: SIFT keypoints of each face's picture, matched to the frame's, agree on where her picture lies, and the
homography that maps the picture there is her outline. This works for faces with art of their own (courts, tens,
nines); a low pip card's keypoints are the pips every card of its suit shares, which match no one face surely and
are left to the edges. An outline found so is only a place to look: the catalogue judges the card there as
anywhere else.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import cv2
import numpy as np

from companion.vision.catalog import WARP_CORNERS, Catalog

PICTURE_SCALE = 2  # the pictures (``WARP`` px) are enlarged so: at 72x100 px SIFT finds few keypoints on a face
SEARCH_WIDTH = 860  # px: a wider frame is searched at this width (a card then spans about its picture's width)
RATIO = 0.75  # a keypoint matches a face's when it is this much closer to it than to any other (Lowe's test)
MIN_AGREEING = 8  # matches a face's picture must agree on (within ``REPROJECTION``) to be placed
REPROJECTION = 3.0  # px of the searched frame
FLANN_TREES, FLANN_CHECKS = 4, 32  # approximate nearest neighbours: exact search costs 5x as long for the same cards


class ArtIndex:
    """The keypoints of every face's picture in a catalogue, searchable in a frame."""

    def __init__(self, catalog: Catalog) -> None:
        self._sift = cv2.SIFT_create()
        descriptors, owners, points = [], [], []
        for face in catalog.ids:
            picture = cv2.cvtColor(catalog.reference(face), cv2.COLOR_BGR2GRAY)
            picture = cv2.resize(picture, None, fx=PICTURE_SCALE, fy=PICTURE_SCALE, interpolation=cv2.INTER_CUBIC)
            keypoints, found = self._sift.detectAndCompute(picture, None)
            if found is None:
                continue  # a plain picture: nothing to find it by
            descriptors.append(found)
            owners += [face] * len(keypoints)
            points += [np.array(k.pt) / PICTURE_SCALE for k in keypoints]
        self._owners = np.array(owners)
        self._points = np.array(points, np.float32).reshape(-1, 2)
        self._matcher = cv2.FlannBasedMatcher({"algorithm": 1, "trees": FLANN_TREES}, {"checks": FLANN_CHECKS})
        if descriptors:
            self._matcher.add([np.vstack(descriptors)])
            cv2.setRNGSeed(0)  # the trees are drawn at random: the same catalogue must find the same cards every time
            self._matcher.train()

    def outlines(self, frame: np.ndarray, leave_out: Sequence[np.ndarray] = ()) -> list[np.ndarray]:
        """Where a face's picture lies in ``frame`` (BGR): its corners (frame px, clockwise from the picture's
        top-left), one outline per face found. ``leave_out``: outlines of cards already named, whose art is not
        searched (it would only find them again)."""
        if not len(self._owners):
            return []
        scale = min(1.0, SEARCH_WIDTH / frame.shape[1])
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        if scale < 1.0:
            grey = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        mask = np.full(grey.shape, 255, np.uint8)
        for outline in leave_out:
            cv2.fillConvexPoly(mask, np.round(outline * scale).astype(np.int32), 0)
        keypoints, descriptors = self._sift.detectAndCompute(grey, mask)
        if descriptors is None or len(keypoints) < MIN_AGREEING:
            return []
        by_face: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for pair in self._matcher.knnMatch(descriptors, k=2):
            if len(pair) == 2 and pair[0].distance < RATIO * pair[1].distance:
                by_face[self._owners[pair[0].trainIdx]].append((pair[0].queryIdx, pair[0].trainIdx))
        out = []
        for matches in by_face.values():
            if len(matches) < MIN_AGREEING:
                continue
            seen = np.array([keypoints[q].pt for q, _ in matches], np.float32) / scale
            hom, agreeing = cv2.findHomography(self._points[[t for _, t in matches]], seen, cv2.RANSAC,
                                               REPROJECTION / scale)
            if hom is None or agreeing.sum() < MIN_AGREEING:
                continue
            corners = cv2.perspectiveTransform(WARP_CORNERS[None], hom)[0]
            if np.isfinite(corners).all() and cv2.isContourConvex(corners.astype(np.float32)):
                out.append(corners.astype(np.float32))
        return out

