"""Cards found by their own art: keypoints of the catalogue's pictures matched in the frame.

On a patterned cloth the checks crowd a card's sides (a gingham's squares are as sharp as a card's edge and
touch it all round), so no outline from edges or a border mask finds a lone queen lying in plain view; nor does
one find the king on top of a messy pile, whose border runs on into the cards under him. Their art does: SIFT
keypoints of each face's picture, matched to the frame's, agree on where its picture lies, and the homography
that maps the picture there is the card's outline. This works for faces with art of their own (courts, tens,
nines), and for pip cards whose pips lie where other faces of their suit have theirs; a pip that matches pips at
other spots (most of a low pip card's) places nothing, and such cards are left to the edges. An outline found so
is only a place to look: the catalogue judges the card there as anywhere else.
"""

from __future__ import annotations

import weakref
from collections import defaultdict
from collections.abc import Sequence
from typing import ClassVar

import cv2
import numpy as np

from companion.vision.catalog import WARP_CORNERS, Catalog

PICTURE_SCALE = 2  # the pictures (``WARP`` px) are enlarged so: at 72x100 px SIFT finds few keypoints on a face
SEARCH_WIDTH = 860  # px: a wider frame is searched at this width (a card then spans about its picture's width)
RATIO = 0.75  # a keypoint matches a face's when it is this much closer to it than to any other (Lowe's test) ...
TWIN_PX = 2.0  # ... but the same spot of other faces' pictures (``WARP`` px) is no rival: a suit's pips and index
# corners, a court's art in both its colours, lie alike on several faces, and any of them places the card's outline
# (the catalogue tells which face it is). Such twins are credited to each face, if nearly as close as the nearest.
NEIGHBOURS = 4  # nearest reference keypoints looked at for each of the frame's: twins and the first rival
MIN_AGREEING = 8  # matches a face's picture must agree on (within ``REPROJECTION``) to be placed
REPROJECTION = 3.0  # px of the searched frame
POSE_TURN = 40.0  # degrees: matches agreeing on a picture's place turn their keypoints alike within this ...
POSE_SCALE = 1.0  # ... scale them alike within this (log2: twice or half) ...
POSE_CENTRE = 0.5  # ... and put the picture's centre within this share of its height (scaled) of each other
DENSITY_WINDOW = 0.02  # share of the frame's width (25 px of a 1280 px frame, half a card's short side) over
# which edges are counted for ``search_boxes`` ...
MIN_DENSITY = 0.05  # ... and the share of it that must be edges for a card to lie there (on foreign-art tuning
# seeds 0-59, at least half of every plainly visible card lies in such windows, the median 93%)
NAMED_SLACK = 3  # px of the edge map: a named card's outline lies this far outside it at most
FLANN_TREES, FLANN_CHECKS = 4, 32  # approximate nearest neighbours: an exact (brute-force) search made the whole
# search about twice as long here


class ArtIndex:
    """The keypoints of every face's picture in a catalogue, searchable in a frame."""

    _made: ClassVar[weakref.WeakKeyDictionary[Catalog, ArtIndex]] = weakref.WeakKeyDictionary()

    @classmethod
    def of(cls, catalog: Catalog) -> ArtIndex:
        """The catalogue's index, made once (about a second: 52 faces' keypoints) for every recogniser using it."""
        if catalog not in cls._made:
            cls._made[catalog] = cls(catalog)
        return cls._made[catalog]

    def __init__(self, catalog: Catalog) -> None:
        self._sift = cv2.SIFT_create()
        descriptors, owners, points, poses = [], [], [], []
        for face in catalog.ids:
            picture = cv2.cvtColor(catalog.reference(face), cv2.COLOR_BGR2GRAY)
            picture = cv2.resize(picture, None, fx=PICTURE_SCALE, fy=PICTURE_SCALE, interpolation=cv2.INTER_CUBIC)
            keypoints, found = self._sift.detectAndCompute(picture, None)
            if found is None:
                continue  # a plain picture: nothing to find it by
            descriptors.append(found)
            owners += [face] * len(keypoints)
            points += [np.array(k.pt) / PICTURE_SCALE for k in keypoints]
            poses += [(k.angle, k.size / PICTURE_SCALE) for k in keypoints]
        self._owners = np.array(owners)
        self._points = np.array(points, np.float32).reshape(-1, 2)
        self._poses = np.array(poses, np.float64).reshape(-1, 2)  # each keypoint's angle (degrees) and size (px)
        self._matcher = cv2.FlannBasedMatcher({"algorithm": 1, "trees": FLANN_TREES}, {"checks": FLANN_CHECKS})
        if descriptors:
            self._matcher.add([np.vstack(descriptors)])
            cv2.setRNGSeed(0)  # the trees are drawn from OpenCV's RNG (this thread's): the same catalogue must find
            # the same cards every time
            self._matcher.train()

    def outlines(
        self,
        frame: np.ndarray,
        boxes: Sequence[np.ndarray],
        leave_out: Sequence[np.ndarray] = (),
        frame_width: int | None = None,
    ) -> list[np.ndarray]:
        """Where a face's picture lies in ``frame`` (BGR): its corners (frame px, clockwise from the picture's
        top-left), one outline per face found. Only the ``boxes`` (x0, y0, x1, y1 frame px: ``search_boxes``)
        are searched, and not the cards outlined in ``leave_out`` (named already: it would only find them
        again). ``frame_width``: the whole frame's, when ``frame`` is a window of it: searched at the scale the
        whole frame is (``SEARCH_WIDTH``), where its cards span about their pictures' width."""
        if not len(self._owners) or not len(boxes):
            return []
        scale = min(1.0, SEARCH_WIDTH / (frame_width or frame.shape[1]))
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        if scale < 1.0:
            grey = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        mask = _blanked(grey.shape, leave_out, scale)
        points, poses, found = [], [], []
        for box in boxes:
            x0, y0, x1, y1 = (int(v) for v in np.round(box * scale))
            keypoints, descriptors = self._sift.detectAndCompute(grey[y0:y1, x0:x1], mask[y0:y1, x0:x1])
            if descriptors is not None:
                points.append(np.array([k.pt for k in keypoints], np.float32).reshape(-1, 2) + np.float32([x0, y0]))
                poses.append(np.array([(k.angle, k.size / scale) for k in keypoints], np.float64).reshape(-1, 2))
                found.append(descriptors)
        if sum(map(len, points)) < MIN_AGREEING:
            return []
        seen, seen_poses = np.vstack(points) / scale, np.vstack(poses)
        by_face: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for q, t in self._credited(self._matcher.knnMatch(np.vstack(found), k=NEIGHBOURS)):
            by_face[self._owners[t]].append((q, t))
        out = []
        for matches in by_face.values():
            if len(matches) < MIN_AGREEING or not self._may_agree(matches, seen, seen_poses):
                continue
            hom, agreeing = cv2.findHomography(self._points[[t for _, t in matches]], seen[[q for q, _ in matches]],
                                               cv2.RANSAC, REPROJECTION / scale)
            if hom is None or agreeing.sum() < MIN_AGREEING:
                continue
            corners = cv2.perspectiveTransform(WARP_CORNERS[None], hom)[0]
            if np.isfinite(corners).all() and cv2.isContourConvex(corners.astype(np.float32)):
                out.append(corners.astype(np.float32))
        return out

    def _may_agree(self, matches: list[tuple[int, int]], seen: np.ndarray, seen_poses: np.ndarray) -> bool:
        """Whether ``MIN_AGREEING`` of a face's matches (frame keypoint, reference keypoint) can agree on where its
        picture lies, judged from each match alone: a keypoint's turn and size against its reference's say how the
        picture is turned and scaled, and with its place, where the picture's centre lies (Lowe's Hough step). Only
        a face some match of which sees so many others within ``POSE_TURN``, ``POSE_SCALE`` and ``POSE_CENTRE`` of
        itself is worth a RANSAC homography: on a gingham, faces with a few stray matches among dozens made RANSAC
        draw samples for up to 180 ms each."""
        q, t = (np.array(i) for i in zip(*matches, strict=True))
        turn = np.radians(seen_poses[q, 0] - self._poses[t, 0])
        scale = seen_poses[q, 1] / self._poses[t, 1]
        to_centre = WARP_CORNERS.mean(axis=0) - self._points[t]  # picture px, from the keypoint
        cos, sin = np.cos(turn), np.sin(turn)
        centre = seen[q] + scale[:, None] * np.stack([cos * to_centre[:, 0] - sin * to_centre[:, 1],
                                                      sin * to_centre[:, 0] + cos * to_centre[:, 1]], axis=1)
        apart = np.abs((turn[:, None] - turn[None, :] + np.pi) % (2 * np.pi) - np.pi)
        ratio = np.abs(np.log2(scale[:, None] / scale[None, :]))
        reach = POSE_CENTRE * WARP_CORNERS[2, 1] * scale[:, None]
        near = np.hypot(*(centre[:, None, :] - centre[None, :, :]).transpose(2, 0, 1)) <= reach
        together = (apart <= np.radians(POSE_TURN)) & (ratio <= POSE_SCALE) & near
        return int(together.sum(axis=1).max()) >= MIN_AGREEING

    def _credited(self, nearest: Sequence[Sequence[cv2.DMatch]]) -> list[tuple[int, int]]:
        """The (frame keypoint, reference keypoint) pairs that count as matches, frame keypoint by keypoint:
        the nearest reference keypoint when it is ``RATIO`` closer than the nearest lying elsewhere than it (more
        than ``TWIN_PX`` away), with its twins (the same spot of other faces' pictures) nearly as close."""
        rows = [near for near in nearest if len(near) == NEIGHBOURS]
        if not rows:
            return []
        train = np.array([[m.trainIdx for m in near] for near in rows])
        distance = np.array([[m.distance for m in near] for near in rows])
        query = np.array([near[0].queryIdx for near in rows])
        twin = np.abs(self._points[train] - self._points[train[:, :1]]).max(axis=2) <= TWIN_PX
        rival = np.argmax(~twin, axis=1)  # the first keypoint lying elsewhere (0 when all are twins)
        unrivalled = twin.all(axis=1) | (distance[:, 0] < RATIO * distance[np.arange(len(rows)), rival])
        close = distance < distance[:, :1] / RATIO**0.5
        close[:, 0] = True
        rows_kept, cols = np.nonzero(twin & close & unrivalled[:, None])
        return list(zip(query[rows_kept].tolist(), train[rows_kept, cols].tolist(), strict=True))


def search_boxes(
    edges: np.ndarray,
    frame_shape: tuple[int, ...],
    leave_out: Sequence[np.ndarray],
    min_area: float,
    frame_width: int | None = None,
) -> list[np.ndarray]:
    """Where a card no outline named may lie, as boxes to search (x0, y0, x1, y1 frame px): where ``edges`` (an
    edge map of the frame at any scale, 255 on an edge, with whatever is known not to be a card, such as the mat's
    print, taken out) lie densely outside the cards outlined in ``leave_out``, over at least ``min_area`` (frame
    px). A card's outline, index and art are edges all over it; a plain table has none and is not searched, which
    is most of the art search's cost (SIFT's scale space is built over all it is given). ``frame_width``: the
    whole frame's, when ``frame_shape`` is a window's (the density is judged over a share of the frame's width)."""
    scale = edges.shape[1] / frame_shape[1]
    free = cv2.erode(_blanked(edges.shape, leave_out, scale), np.ones((2 * NAMED_SLACK + 1,) * 2, np.uint8))
    # (eroded: a named card's own outline is left out too)
    window = max(3, round(DENSITY_WINDOW * (frame_width or frame_shape[1]) * scale))
    dense = cv2.blur(((edges > 0) & (free > 0)).astype(np.float32), (window, window)) > MIN_DENSITY
    count, _, stats, _ = cv2.connectedComponentsWithStats(dense.astype(np.uint8))
    boxes = [np.array([x - window, y - window, x + w + window, y + h + window], np.float64) / scale
             for x, y, w, h, area in stats[1:count] if area >= min_area * scale * scale]
    return [np.clip(box, 0, [frame_shape[1], frame_shape[0]] * 2) for box in _merged(boxes)]


def _blanked(shape: tuple[int, ...], outlines: Sequence[np.ndarray], scale: float) -> np.ndarray:
    """A mask of ``shape`` (255) with the ``outlines`` (frame px, drawn at ``scale``) blanked out (0)."""
    mask = np.full(shape[:2], 255, np.uint8)
    for outline in outlines:
        cv2.fillConvexPoly(mask, np.round(outline * scale).astype(np.int32), 0)
    return mask


def _merged(boxes: list[np.ndarray]) -> list[np.ndarray]:
    """Overlapping boxes joined into the box around both, until none overlap (each part searched once)."""
    out: list[np.ndarray] = []
    for box in boxes:
        joined = box
        while True:
            hit = next((i for i, o in enumerate(out) if (joined[:2] < o[2:]).all() and (o[:2] < joined[2:]).all()),
                       None)
            if hit is None:
                break
            other = out.pop(hit)
            joined = np.concatenate([np.minimum(joined[:2], other[:2]), np.maximum(joined[2:], other[2:])])
        out.append(joined)
    return out
