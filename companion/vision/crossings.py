"""Straight edges across a card that its face does not have: the sides of cards lying on it that were not found.

A card in a row or a fan whose neighbour on top was not found is judged as if it were whole. The neighbour's white
paper hides some of its pips, and what is left can fit another face: a 5♠ a third in view, read 4♠; a 10♠ under two
cards, read 8♠. The neighbour's side still shows across it, a long straight edge where the face's own picture has
none. Such an edge splits the card; the largest part left is taken for the card's own, and what lies beyond it
(``beyond``) is treated as covered, as the cells under a card that was found are.

Everything here is in the card's rectified picture (``catalog.WARP`` px, upright as read).
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.catalog import FEATURE, GRID, WARP, cell_shares

MARGIN = 6  # px from the card's sides where an edge may be its own side (an outline a few px off)
MIN_CHORD = 0.5  # of the card's short side: a line crossing less of the card cuts off a corner only
MIN_FREE = 0.4  # share of a line's chord that must be clear of the face's own edges for it to be judged
MIN_SUPPORT = 0.75  # share of that clear part lying on an edge that runs along the line
REFERENCE_SLACK = 5  # px: the face's own edges widened so (an outline a few px off moves them)
NOISE = 4.0  # an edge is this many times the gradient a quarter of the card stays under (its paper's noise) ...
MIN_GRADIENT = 20.0  # ... and at least this steep (grey levels per px, the card stretched to 0-255)
MIN_VOTES = 0.35  # of the short side: edge pixels on a line for it to be proposed (``cv2.HoughLines``)
MAX_LINES = 20  # lines proposed that are judged, the most voted first
ALONG = 0.9  # |cos| between an edge pixel's gradient and the line's normal for it to run along the line


def crossing_lines(view: np.ndarray, own: np.ndarray) -> list[tuple[float, float]]:
    """The straight edges (``rho``, ``theta`` as ``cv2.HoughLines`` gives them) that cross ``view``, a card's
    rectified picture, where its face has no edge of its ``own`` (``face_edges``): long (``MIN_CHORD``), away from
    its sides (``MARGIN``), and steep and lined up along most of their length (a card's noise and the grain of the
    table under a thin card make edges too, but short, weak and every way)."""
    w, h = WARP
    smooth = _smooth(view)
    gx, gy = cv2.Sobel(smooth, cv2.CV_32F, 1, 0), cv2.Sobel(smooth, cv2.CV_32F, 0, 1)
    size = np.hypot(gx, gy)
    steep = max(NOISE * float(np.percentile(size[::2, ::2], 25)), MIN_GRADIENT)
    edges = cv2.Canny(np.clip(smooth, 0, 255).astype(np.uint8), steep / 4, steep / 2) & ~own
    edges[:MARGIN], edges[h - MARGIN :], edges[:, :MARGIN], edges[:, w - MARGIN :] = 0, 0, 0, 0
    votes = int(MIN_VOTES * min(w, h))
    proposed = cv2.HoughLines(edges, 1, np.pi / 180, votes) if cv2.countNonZero(edges) >= votes else None
    if proposed is None:
        return []
    lines = proposed.reshape(-1, 2)[:MAX_LINES].astype(np.float64)
    return [(float(rho), float(theta)) for rho, theta in lines[_foreign(lines, gx, gy, size, steep, own)]]


def beyond(lines: list[tuple[float, float]]) -> np.ndarray:
    """The recogniser's cells (``GRID``, row by row) beyond the largest part ``lines`` leave of the card: the part
    taken for its own."""
    w, h = WARP
    cut = np.full((h, w), 255, np.uint8)
    for rho, theta in lines:
        point, direction = _line(rho, theta)
        cv2.line(cut, _px(point - 2 * h * direction), _px(point + 2 * h * direction), 0, 2)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(cut, connectivity=4)
    if count < 2:  # lines so many and close that no part is left: none of the card is its own
        return np.ones(GRID[0] * GRID[1], bool)
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    mine = cv2.resize((labels == largest).astype(np.float32), FEATURE, interpolation=cv2.INTER_AREA)
    return cell_shares(mine) < 0.5


def _smooth(picture: np.ndarray) -> np.ndarray:
    """``picture`` in grey, stretched from its darkest to its lightest (a dim frame's card as a bright one's),
    smoothed."""
    gray = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY).astype(np.float32)
    low, high = np.percentile(gray, (2, 98))
    return cv2.GaussianBlur(((gray - low) * (255.0 / max(high - low, 1.0))).astype(np.float32), (5, 5), 0)


def face_edges(reference: np.ndarray) -> np.ndarray:
    """The edges of a face's picture (``Catalog.reference``), down to its faintest (``MIN_GRADIENT``), widened by
    ``REFERENCE_SLACK``: the face's own, that cross it wherever it lies."""
    smooth = np.clip(_smooth(reference), 0, 255).astype(np.uint8)
    edges = cv2.Canny(smooth, MIN_GRADIENT / 4, MIN_GRADIENT / 2)
    return cv2.dilate(edges, np.ones((REFERENCE_SLACK, REFERENCE_SLACK), np.uint8))


def _foreign(
    lines: np.ndarray, gx: np.ndarray, gy: np.ndarray, size: np.ndarray, steep: float, own: np.ndarray
) -> np.ndarray:
    """Which ``lines`` cross the card's inside far enough, clear of its face's own edges, and have an edge running
    along them (within a px) over most of that clear part."""
    w, h = WARP
    cos, sin = np.cos(lines[:, 1])[:, None], np.sin(lines[:, 1])[:, None]
    reach = int(np.ceil(np.hypot(w, h)))  # a line's foot and every point of it on the card lie within this of (0, 0)
    steps = np.arange(-reach, reach + 1)[None, :]
    x, y = lines[:, :1] * cos - steps * sin, lines[:, :1] * sin + steps * cos
    xs, ys = np.rint(x).astype(int), np.rint(y).astype(int)
    inside = (xs >= MARGIN) & (xs < w - MARGIN) & (ys >= MARGIN) & (ys < h - MARGIN)
    xs, ys = np.where(inside, xs, MARGIN), np.where(inside, ys, MARGIN)  # off the card: any px, left out below
    clear = inside & (own[ys, xs] == 0)
    lined = np.zeros(xs.shape, bool)
    for off in (-1, 0, 1):  # MARGIN >= 1 keeps these on the picture
        px, py = np.rint(xs + off * cos).astype(int), np.rint(ys + off * sin).astype(int)
        along = np.abs(gx[py, px] * cos + gy[py, px] * sin)
        lined |= (size[py, px] > steep) & (along > ALONG * size[py, px])
    chord, free = inside.sum(axis=1), clear.sum(axis=1)
    supported = (lined & clear).sum(axis=1)
    return (chord >= MIN_CHORD * min(w, h)) & (free >= MIN_FREE * chord) & (supported >= MIN_SUPPORT * free)


def _line(rho: float, theta: float) -> tuple[np.ndarray, np.ndarray]:
    """The foot of the line's normal from the origin, and its direction."""
    c, s = np.cos(theta), np.sin(theta)
    return np.array([rho * c, rho * s]), np.array([-s, c])


def _px(point: np.ndarray) -> tuple[int, int]:
    """A point as ``cv2.line`` takes it."""
    x, y = np.rint(point).astype(int)
    return int(x), int(y)
