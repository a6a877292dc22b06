"""Find cards in a frame as quadrilaterals, with corners in a fixed order.

Cards are found as light, nearly colourless regions that stand out from the cloth *at the same place in the
frame*: the cloth brightness is estimated with a coarse median, so a light gradient across the table does not
matter. Strong edges are cut out of that mask, which separates a card from the one it lies on (their boundary
is a shadow line). Each region's convex hull is reduced to its four longest sides, whose intersections are the
corners even when a corner is rounded or hidden under a thumb.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

CARD_ASPECT = 88.0 / 63.0


@dataclass(frozen=True)
class DetectSettings:
    """Tuning for the detector; the defaults suit a 1280x720 frame of a table seen from above."""

    min_area: float = 0.002  # of the frame: smaller regions are not cards
    max_area: float = 0.12
    contrast: float = 1.7  # a card's darkest channel vs the cloth's, at the same place
    max_saturation: float = 0.24  # card borders are near white; skin and felt are not
    plateau: float = 0.86  # a pixel darker than this share of its 3x3 neighbourhood's brightest is an edge
    aspect: float = CARD_ASPECT
    aspect_range: tuple[float, float] = (0.7, 1.5)  # long/short side over ``aspect``, as a tilted camera sees it
    min_fill: float = 0.85  # region's hull area / quad area: a border ring broken by a thumb still counts


def _mask(frame: np.ndarray, s: DetectSettings) -> np.ndarray:
    b, g, r = cv2.split(frame)
    lo = cv2.min(cv2.min(b, g), r)
    hi = cv2.max(cv2.max(b, g), r)
    h, w = lo.shape
    small = cv2.resize(lo, (max(8, w // 8), max(8, h // 8)), interpolation=cv2.INTER_AREA)
    cloth = cv2.medianBlur(small, 2 * (max(small.shape) // 10) + 1)
    cloth = cv2.resize(cloth, (w, h), interpolation=cv2.INTER_LINEAR)
    bright = cv2.compare(lo, cv2.add(cv2.multiply(cloth, s.contrast), 12), cv2.CMP_GT)
    neutral = cv2.compare(cv2.subtract(hi, lo), cv2.multiply(hi, s.max_saturation), cv2.CMP_LT)
    # the dark side of every edge is cut away: the shadow line where one card lies on another
    plateau = cv2.compare(lo, cv2.multiply(cv2.dilate(lo, np.ones((3, 3), np.uint8)), s.plateau), cv2.CMP_GE)
    return cv2.bitwise_and(cv2.bitwise_and(bright, neutral), plateau)


def _solid(mask: np.ndarray) -> np.ndarray:
    """Closed border rings filled in, then eroded: thin bridges between cards on a pile disappear."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 255, -1)
    return cv2.erode(filled, np.ones((5, 5), np.uint8))


def _line_intersection(p1: np.ndarray, p2: np.ndarray, q1: np.ndarray, q2: np.ndarray) -> np.ndarray | None:
    d1, d2 = p2 - p1, q2 - q1
    denom = d1[0] * d2[1] - d1[1] * d2[0]
    if abs(denom) < 1e-6:
        return None
    t = ((q1[0] - p1[0]) * d2[1] - (q1[1] - p1[1]) * d2[0]) / denom
    return p1 + t * d1


def fit_quad(hull: np.ndarray) -> np.ndarray | None:
    """The quadrilateral whose sides are the hull's four longest sides (clockwise on screen), or None."""
    pts = cv2.approxPolyDP(hull, 0.012 * cv2.arcLength(hull, True), True).reshape(-1, 2).astype(np.float64)
    if len(pts) < 4:
        return None
    sides = [(pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts))]
    lengths = [np.hypot(*(b - a)) for a, b in sides]
    keep = sorted(sorted(range(len(sides)), key=lambda i: -lengths[i])[:4])
    corners = []
    for k in range(4):
        a, b = sides[keep[k - 1]], sides[keep[k]]
        p = _line_intersection(a[0], a[1], b[0], b[1])
        if p is None:
            return None
        corners.append(p)
    quad = np.array(corners, np.float32)
    if cv2.contourArea(quad, oriented=True) < 0:
        quad = quad[::-1].copy()
    return quad


def portrait_order(quad: np.ndarray) -> np.ndarray:
    """Rotate the (clockwise) corners so the first side is a short one: top-left of a card read upright or
    upside down; which of the two is decided by the recogniser."""
    side01 = np.hypot(*(quad[1] - quad[0])) + np.hypot(*(quad[3] - quad[2]))
    side12 = np.hypot(*(quad[2] - quad[1])) + np.hypot(*(quad[0] - quad[3]))
    start = 0 if side01 <= side12 else 1
    # of the two short-side starts, begin at the upper-left one so the order is stable frame to frame
    a, b = np.roll(quad, -start, axis=0), np.roll(quad, -start - 2, axis=0)
    return a if a[0].sum() <= b[0].sum() else b


def _quad(contour: np.ndarray, frame_area: float, s: DetectSettings, grow: float) -> np.ndarray | None:
    """The card quad of one region, or None when the region is not card-shaped."""
    area = cv2.contourArea(contour)
    if not s.min_area * frame_area * 0.3 <= area <= s.max_area * frame_area:
        return None
    hull = cv2.convexHull(contour)
    quad = fit_quad(hull)
    if quad is None:
        return None
    quad_area = cv2.contourArea(quad)
    if quad_area <= 0 or not s.min_fill <= cv2.contourArea(hull) / quad_area <= 1.08:
        return None
    centre = quad.mean(axis=0)
    quad = portrait_order((centre + (quad - centre) * (1 + grow / np.sqrt(quad_area))).astype(np.float32))
    if not s.min_area * frame_area <= cv2.contourArea(quad) <= s.max_area * frame_area:
        return None
    short = (np.hypot(*(quad[1] - quad[0])) + np.hypot(*(quad[3] - quad[2]))) / 2
    long = (np.hypot(*(quad[2] - quad[1])) + np.hypot(*(quad[0] - quad[3]))) / 2
    if not s.aspect_range[0] <= long / max(short, 1e-6) / s.aspect <= s.aspect_range[1]:
        return None
    return quad


def find_cards(frame: np.ndarray, settings: DetectSettings | None = None) -> list[np.ndarray]:
    """Card quadrilaterals (4x2 float32, clockwise from a top-left corner) in a BGR frame.

    Two passes: solid regions (filled rings, eroded apart) find whole cards, also on piles; then the raw border
    rings find cards whose ring a hand or another card has broken open.
    """
    s = settings or DetectSettings()
    mask = _mask(frame, s)
    frame_area = float(frame.shape[0] * frame.shape[1])
    quads: list[np.ndarray] = []
    for source, grow in ((_solid(mask), 4.0), (mask, 0.0)):
        contours, _ = cv2.findContours(source, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            quad = _quad(contour, frame_area, s, grow)
            if quad is not None and not any(_overlaps(quad, q) for q in quads):
                quads.append(quad)
    return quads


def _overlaps(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether the centre of one quad lies inside the other."""
    return (
        cv2.pointPolygonTest(b.reshape(-1, 1, 2), tuple(map(float, a.mean(axis=0))), False) >= 0
        or cv2.pointPolygonTest(a.reshape(-1, 1, 2), tuple(map(float, b.mean(axis=0))), False) >= 0
    )
