"""Per-frame mat registration from the ArUco markers at the mat's corners.

Following the mat from frame to frame (rather than locating it once at calibration) means a bumped camera needs
no recalibration: the homography simply follows it. The ArUco search runs again the frame any marker's place
looks different, and every ``REGISTER_EVERY`` frames anyway; in between the last homography stands (``follow``).
It also gives each card's true shape on the table, which rejects card-sized white things that are not cards (the
markers' own white squares, for one).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from companion.vision.mat import ARUCO_DICTIONARY, MatLayout
from companion.vision.stillness import changed_cells, colour_cells

SUBPIX_STOP = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_COUNT, 20, 0.05)
MARKER_CELL_PX = 8  # the markers' places are compared in cells this size: a pixel's shift of an edge changes its cells
SIZE_SLACK = 0.25  # share a card's sides, as found, may differ from its true size's
REGISTER_EVERY = 10  # frames a registration is kept at most, however still its markers look (then found afresh)


@dataclass
class Registration:
    """The mat as found in one frame: its homography, and what each marker's place (with its white border) looked
    like then, so that a later frame showing the same there can keep the homography instead of finding the
    markers again (``MatLocator.follow``)."""

    hom: np.ndarray
    places: list[tuple[int, int, int, int]]  # x0, y0, x1, y1 frame px
    looks: list[np.ndarray]  # ``colour_cells`` of each place
    kept: int = 0  # later frames it was kept for


class MatLocator:
    """Finds the mat's markers and maps frame pixels to mat millimetres (OpenCV 4.7+ and 5 APIs)."""

    def __init__(self, layout: MatLayout, min_markers: int = 2, max_width: int = 640) -> None:
        self.layout = layout
        self.min_markers = min_markers
        self.max_width = max_width
        self._corners = layout.marker_corners()
        dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY)
        self._detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())

    def markers(self, frame: np.ndarray) -> dict[int, np.ndarray]:
        """The mat's markers visible in the frame: id -> 4x2 corners in frame px."""
        full = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        gray, scale = full, 1.0
        if full.shape[1] > self.max_width:  # markers are large: half a 720p frame finds them in a third the time
            scale = full.shape[1] / self.max_width
            gray = cv2.resize(full, (self.max_width, round(full.shape[0] / scale)), interpolation=cv2.INTER_AREA)
        corners, ids, _ = self._detector.detectMarkers(gray)
        if ids is None:
            return {}
        pairs = zip(ids.ravel(), corners, strict=True)
        found = {int(i): c.reshape(4, 2) * scale for i, c in pairs if int(i) in self._corners}
        if found and scale > 1:  # found at reduced size: each corner to a fraction of a pixel in the full frame
            pts = np.concatenate(list(found.values())).astype(np.float32).reshape(-1, 1, 2)
            win = max(2, round(2 * scale))
            pts = cv2.cornerSubPix(full, pts, (win, win), (-1, -1), SUBPIX_STOP).reshape(-1, 4, 2)
            found = dict(zip(found, pts, strict=True))
        return found

    def locate(self, frame: np.ndarray) -> np.ndarray | None:
        """The homography frame px -> mat mm, or None when too few markers are visible."""
        return self.homography(self.markers(frame))

    def follow(self, frame: np.ndarray, last: Registration | None) -> Registration | None:
        """The mat in ``frame``: ``last`` again when every marker's place looks as it did (neither the mat nor the
        camera moved, no hand over a marker) and it is younger than ``REGISTER_EVERY`` frames, which costs a few
        small crops; else found afresh (``locate``: the ArUco search), None when too few markers are in view.
        Keeping it changes nothing found: the markers are the same pixels, so ArUco would find the same corners."""
        if last is not None and last.kept < REGISTER_EVERY and self._unmoved(frame, last):
            last.kept += 1
            return last
        hom = self.locate(frame)
        if hom is None:
            return None
        places = [_box(outline, frame.shape) for outline in self.marker_outlines(hom)]
        places = [p for p in places if p[2] - p[0] >= MARKER_CELL_PX and p[3] - p[1] >= MARKER_CELL_PX]
        return Registration(hom, places, [_look(frame, p) for p in places])

    def _unmoved(self, frame: np.ndarray, last: Registration) -> bool:
        return bool(last.places) and all(
            look.shape == (now := _look(frame, place)).shape and not changed_cells(now, look).any()
            for place, look in zip(last.places, last.looks, strict=True))

    def homography(self, found: dict[int, np.ndarray]) -> np.ndarray | None:
        """The homography frame px -> mat mm from the ``markers`` found, or None when they are too few."""
        if len(found) < self.min_markers:
            return None
        src = np.concatenate([found[i] for i in sorted(found)]).astype(np.float32)
        dst = np.concatenate([self._corners[i] for i in sorted(found)]).astype(np.float32)
        hom, _ = cv2.findHomography(src, dst, 0)
        return hom

    def card_check(self, hom: np.ndarray, card_mm: tuple[float, float]) -> Callable[[np.ndarray], bool]:
        """A test that a frame quad, rectified by the mat, has a card's true size and is not on a marker."""
        sized = card_size_check(hom, card_mm)

        def fits(quad: np.ndarray) -> bool:
            return sized(quad) and not self.on_marker(*to_mat(hom, quad).mean(axis=0))

        return fits

    def marker_outlines(self, hom: np.ndarray) -> list[np.ndarray]:
        """Each corner marker with its white border, in frame px: white paper the light can be measured on."""
        inverse = np.linalg.inv(hom)
        pad = self.layout.marker / 6
        boxes = [np.array([c[0] - pad, (c[1, 0] + pad, c[1, 1] - pad), c[2] + pad, (c[3, 0] - pad, c[3, 1] + pad)])
                 for c in self._corners.values()]
        return [cv2.perspectiveTransform(b.reshape(-1, 1, 2).astype(np.float64), inverse).reshape(-1, 2) for b in boxes]

    def paper_outline(self, hom: np.ndarray) -> np.ndarray:
        """The mat's paper, corner to corner, in frame px."""
        w, h = self.layout.width, self.layout.height
        corners = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(corners, np.linalg.inv(hom)).reshape(-1, 2)

    def on_marker(self, x: float, y: float) -> bool:
        """Whether a mat point (mm) lies on a marker or its white border."""
        pad = self.layout.marker / 6 + 2
        return any(
            c[0, 0] - pad <= x <= c[2, 0] + pad and c[0, 1] - pad <= y <= c[2, 1] + pad for c in self._corners.values()
        )


def _box(outline: np.ndarray, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The frame px box around ``outline``, within a frame of ``shape``."""
    x0, y0 = np.floor(outline.min(axis=0)).astype(int)
    x1, y1 = np.ceil(outline.max(axis=0)).astype(int)
    return max(0, x0), max(0, y0), min(shape[1], x1), min(shape[0], y1)


def _look(frame: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    x0, y0, x1, y1 = box
    return colour_cells(frame[y0:y1, x0:x1], MARKER_CELL_PX)


def card_size_check(hom: np.ndarray, card_mm: tuple[float, float]) -> Callable[[np.ndarray], bool]:
    """A test that a frame quad, taken onto the table's plane by ``hom`` (frame px -> mm), has a card's true size
    (``card_mm``, within ``SIZE_SLACK``): half a card, or two side by side, is not a card."""
    w, h = card_mm

    def fits(quad: np.ndarray) -> bool:
        pts = to_mat(hom, quad)
        short = (np.hypot(*(pts[1] - pts[0])) + np.hypot(*(pts[3] - pts[2]))) / 2
        long = (np.hypot(*(pts[2] - pts[1])) + np.hypot(*(pts[0] - pts[3]))) / 2
        return abs(short / w - 1) < SIZE_SLACK and abs(long / h - 1) < SIZE_SLACK

    return fits


PLANE_STEPS = 10  # rounds of ``plane_through``: it settles slowly, but a synthetic tilted table's cards then measure
# within 3% of what 200 rounds give, an eighth of ``SIZE_SLACK``
PLANE_MISFIT_MM = 3.0  # a plane through the named cards that leaves a corner of one this far from a card of the
# deck's size does not explain them (an outline off, a card bent): each card's own map stands then


def plane_through(outlines: list[np.ndarray], card_mm: tuple[float, float], start: np.ndarray) -> np.ndarray | None:
    """The homography frame px -> table mm that takes every outline (clockwise from a card's top-left) closest to
    a card of the deck's size lying somewhere on the table, from ``start`` (one card's map): a tilted camera's
    perspective, which one card's map cannot follow a few cards away (fresh tuning scene 2020: a Q♦ measured
    83 x 100 mm by the map of an A♥ across the frame, 62 x 87 through it and a 4♦). Each round lays a card of
    the true size on each outline as the plane places it (the rotation and shift that fit it best), then fits the
    plane through all the corners. None when the plane leaves a card's corner ``PLANE_MISFIT_MM`` off."""
    return _plane_through(np.asarray(outlines, np.float64).tobytes(), card_mm, np.asarray(start, np.float64).tobytes())


@lru_cache(maxsize=64)
def _plane_through(outlines: bytes, card_mm: tuple[float, float], start: bytes) -> np.ndarray | None:
    w, h = card_mm
    card = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float64)
    frame = np.frombuffer(outlines).reshape(-1, 2)
    hom: np.ndarray | None = np.frombuffer(start).reshape(3, 3)
    for _ in range(PLANE_STEPS):
        laid = _laid_on(card, to_mat(hom, frame).reshape(-1, 4, 2)).reshape(-1, 2)
        hom, _ = cv2.findHomography(frame, laid, 0)
        if hom is None:
            return None
    if np.hypot(*(to_mat(hom, frame) - laid).T).max() > PLANE_MISFIT_MM:
        return None
    hom.flags.writeable = False
    return hom


def _laid_on(card: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """``card``'s corners (4 x 2) turned and moved to lie closest to each of ``seen`` (K x 4 x 2; least squares,
    Kabsch's)."""
    mid_card, mid_seen = card.mean(axis=0), seen.mean(axis=1, keepdims=True)
    u, _, vt = np.linalg.svd(np.einsum("ci,kcj->kij", card - mid_card, seen - mid_seen))
    flip = np.ones((len(seen), 2))
    flip[:, 1] = np.sign(np.linalg.det(u @ vt))
    turn = np.transpose((u * flip[:, None, :]) @ vt, (0, 2, 1))  # (K, 2, 2): card -> seen
    return np.einsum("ci,kji->kcj", card - mid_card, turn) + mid_seen


def to_mat(hom: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Frame points -> mat mm."""
    return cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64), hom).reshape(-1, 2)
