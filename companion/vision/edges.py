"""Card outlines from edges, for what the white-border mask cannot see: a table as light as a card's border, cream
stock, a warm lamp.

Wherever a card lies, its outline is an edge: a step in brightness or colour between card and table, and the
card's soft shadow on the table. Edges are found on a half-size frame in each colour channel (a red card on a
pale wooden table may differ only in blue); closed a little, they cut the frame into regions, and a region whose
outer boundary is card-shaped is a candidate: the card's paper, its art's outlines inside it filled in.

These are guesses only. Table texture (gingham checks, a laminate joint, wood grain) makes card-shaped regions
too, so a candidate becomes a card only when the catalogue names it confidently (``Recognizer``); its other
verdicts are dropped, never reported as an unknown card.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from typing import NamedTuple

import cv2
import numpy as np

from companion.vision.catalog import FEATURE, cell_shares
from companion.vision.detect import (
    DetectSettings,
    card_shaped,
    fit_quad,
    grow,
    portrait_order,
    side_intersections,
)

SCALE = 0.5  # edges are found at half size: a card's outline is long and straight, its art's details don't matter
CLOSE = 2  # px at half size: gaps this wide in an outline (a soft shadow corner, JPEG blocks) are closed
MAX_SKEW = 0.25  # a side may be this much longer or shorter than the one opposite (the camera's tilt)
MIN_FILL = 0.8  # region's area / its quad's: a card with a corner under a neighbour still counts
SMOOTH = 5  # px at quarter size: the median filter's width for ``smooth_edge_map`` (3 finds fewer cards,
# both together one more than 5 alone)
OPEN = 3  # px at half size: edge-free regions are opened by a disc this wide, cutting a card's paper from a
# light check or laminate it touches (their meeting is a faint edge, broken in places)


def edge_map(frame: np.ndarray) -> np.ndarray:
    """Edges in any colour channel of the half-size frame (255 on an edge), thickened to close small gaps."""
    return _edges_of(cv2.resize(frame, None, fx=SCALE, fy=SCALE, interpolation=cv2.INTER_AREA))


def smooth_edge_map(frame: np.ndarray) -> np.ndarray:
    """``edge_map`` of the frame with its fine texture smoothed away: a median filter (at quarter size, where it
    is cheap) leaves a card's long straight outline and removes what is smaller than a few of its widths (a
    cloth's checks, wood grain, a court card's art and frame, which otherwise join a card's outline to the
    table's edges or break the paper inside it)."""
    quarter = cv2.resize(frame, None, fx=SCALE / 2, fy=SCALE / 2, interpolation=cv2.INTER_AREA)
    return _edges_of(cv2.resize(cv2.medianBlur(quarter, SMOOTH), None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR))


def _edges_of(small: np.ndarray) -> np.ndarray:
    small = cv2.GaussianBlur(small, (3, 3), 0)
    edges = np.zeros(small.shape[:2], np.uint8)
    for channel in cv2.split(small):
        edges |= cv2.Canny(channel, 30, 80, L2gradient=True)
    return cv2.dilate(edges, np.ones((CLOSE, CLOSE), np.uint8))


def edge_free(edges: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Where an ``edge_map`` of a frame of ``shape`` has no edge, opened (``OPEN``), at the frame's size (255): a
    card's paper between its pips, cut from a cloth's checks (smaller than ``OPEN``) and from the table by its
    outline; its rim lies about ``CLOSE`` px of the half-size map inside the card's edge."""
    return cv2.resize(_opened_free(edges), (shape[1], shape[0]), interpolation=cv2.INTER_NEAREST)


def _opened_free(edges: np.ndarray) -> np.ndarray:
    """Where an ``edge_map`` has no edge (255), opened by a disc ``OPEN`` px wide, at the map's size."""
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * OPEN + 1, 2 * OPEN + 1))
    return cv2.morphologyEx(255 - edges, cv2.MORPH_OPEN, disc)


def edge_quads(
    edges: np.ndarray,
    shape: tuple[int, ...],
    settings: DetectSettings,
    plausible: Callable[[np.ndarray], bool] | None = None,
    opened: bool = False,
) -> list[np.ndarray]:
    """Card-shaped quads (frame px, ``portrait_order``) bounded by the ``edge_map`` of a frame of ``shape``,
    largest first; ``plausible`` (the mat's check of a card's size) vetoes as in ``find_cards``. ``opened``: the
    edge-free regions opened (``OPEN``) give candidates too."""
    frame_area = float(shape[0] * shape[1])
    lo, hi = (settings.min_area * frame_area * 0.7 * SCALE**2, settings.max_area * frame_area * SCALE**2)
    # a region's outer boundary (a hole in one is a pip or the art's outline) lies just inside the card's edge
    free = 255 - edges
    outlines = [(c, CLOSE + 1.0) for c in _outer_boundaries(free, lo, 2 * hi)]
    if opened:
        outlines += [(c, CLOSE + 1.0) for c in _outer_boundaries(_opened_free(edges), lo, 2 * hi)]
    # on a plain table a card's edges (its outline and art) are one piece, whose outer boundary is the card's
    # edge: the region inside may be broken where the art comes close to the edge
    outlines += [(c, -1.0) for c in _outer_boundaries(edges, lo, 2 * hi)]
    quads: list[tuple[float, np.ndarray]] = []
    for contour, outward in outlines:
        if not lo <= cv2.contourArea(contour) <= hi:
            continue
        quad = _hull_quad(cv2.convexHull(contour))
        if quad is None:
            continue
        quad_area = cv2.contourArea(quad)
        quad = portrait_order((grow(quad, outward) / SCALE).astype(np.float32))
        if not _parallel(quad):
            continue  # a card seen from above is near a parallelogram; an outline run into the table's is not
        if card_shaped(quad, frame_area, settings) and (plausible is None or plausible(quad)):
            quads.append((quad_area, quad))
    return [q for _, q in sorted(quads, key=lambda t: -t[0])]


LINE_MIN = 0.35  # of the smallest card's short side: shorter straight segments are not looked at
MAX_LINES = 80  # the longest segments kept (a textured table has hundreds) ...
DIRECTIONS = 18  # ... but at most ``PER_DIRECTION`` of them running one way (within 10 degrees): a gingham's
PER_DIRECTION = 10  # checks line up in two directions, longer than a card's sides broken by its white checks, and
# took 71 of the 80 (fresh tuning scene 2131: 11 of nine cards' 36 sides kept a segment; with the cap, 25)
MAX_PAIRS = 300  # facing parallel pairs kept, longest first (at 150, a gingham's still crowded out some cards') ...
MAX_FRAMES = 800  # ... and pairs of pairs (a card's four sides) judged, longest first
PARALLEL = np.radians(4.0)  # two sides of a card seen from above are parallel within this ...
SQUARE = np.radians(6.0)  # ... and square to the other two within this
LINE_ASPECT = 0.2  # how far the gaps between the two pairs may be from the deck's aspect (a camera tilted 30-35
# degrees shows a card 13-18% squatter or longer; at 0.12 such cards had no outline from segments)
MIN_LINED = 0.45  # share of the outline's length its four segments must cover (a pile's top card shows no edge
# where it lies white on white over the card under it: at 0.55, a 9♦ across a 5♥ went unknown, fresh tuning scene 1231)
SAME_QUAD = 6.0  # px: rectangles whose corners are all this close are one
BESIDE = 8.0  # px: how far from a side the lines are that say whether it is an edge's own line (``lies_on``)
WITHIN = 0.9  # share of an outline's area inside another's beyond which it is a piece of that card (``lies_on``)


def line_quads(frame: np.ndarray, settings: DetectSettings, count: int = 12) -> list[np.ndarray]:
    """Card outlines (frame px, ``portrait_order``) from straight segments: two facing pairs of parallel ones,
    square to each other, as far apart as the deck's aspect says, that line most of the outline they make.

    For a card whose paper no region outlines: the top card of a pile or a row, whose own edges are all in view
    but whose paper runs into the cards under it (white on white), and a court card, whose art breaks its paper
    up. Segments come from the line segment detector on the half-size frame's grey; the best ``count`` outlines
    are returned, most lined first.
    """
    p, q, length = segments(frame, settings)
    if len(length) < 4:
        return []
    frame_area = float(frame.shape[0] * frame.shape[1])
    angle = np.arctan2(q[:, 1] - p[:, 1], q[:, 0] - p[:, 0]) % np.pi
    ii, jj, width = _facing_pairs(p, q, length, angle, settings, frame_area)
    square = np.abs((angle[ii][:, None] - angle[ii][None, :]) % np.pi - np.pi / 2) < SQUARE
    shaped = np.abs(width[None, :] / np.maximum(width[:, None], 1e-6) / settings.aspect - 1) <= LINE_ASPECT
    a, b = np.nonzero(square & shaped)  # a: the short sides' pair, b: the long sides'
    order = np.argsort(-(length[ii[a]] + length[jj[a]] + length[ii[b]] + length[jj[b]]))[:MAX_FRAMES]
    sides = np.stack([ii[a], ii[b], jj[a], jj[b]], axis=1)[order]  # each frame's four segments, in turn
    corners, met = side_intersections(p[sides], q[sides] - p[sides])
    lined = _lined(corners, p[sides], q[sides])
    keep = np.nonzero(met & (lined >= MIN_LINED))[0]
    out: list[np.ndarray] = []
    for rough in corners[keep[np.argsort(-lined[keep], kind="stable")]]:
        quad = _clockwise((rough / SCALE).astype(np.float32))
        if not (card_shaped(quad, frame_area, settings) and _parallel(quad)):
            continue
        if not any(np.abs(quad - o).max() < SAME_QUAD for o in out):
            out.append(quad)
        if len(out) == count:
            break
    return out


def _facing_pairs(
    p: np.ndarray, q: np.ndarray, length: np.ndarray, angle: np.ndarray, settings: DetectSettings, frame_area: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pairs of parallel segments (half-size px) facing each other as two sides of a card do, as far apart as a
    card's short or long side may be (``MAX_PAIRS``, longest first): their indices and how far apart they are."""
    short_min, short_max = (
        np.sqrt(a * frame_area / settings.aspect) * SCALE for a in (settings.min_area, settings.max_area)
    )
    u = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    normal = np.stack([-u[:, 1], u[:, 0]], axis=1)
    mid = (p + q) / 2
    turn = np.abs((angle[:, None] - angle[None, :] + np.pi / 2) % np.pi - np.pi / 2)
    gap = np.abs(mid @ normal.T - np.einsum("ik,ik->i", mid, normal)[None, :]).T  # [i, j]: j's middle from i's line
    along = (mid @ u.T - np.einsum("ik,ik->i", mid, u)[None, :]).T
    facing = np.abs(along) < 0.5 * (length[:, None] + length[None, :])
    apart = (gap >= 0.7 * short_min) & (gap <= 1.5 * short_max * settings.aspect)
    ii, jj = np.nonzero(np.triu((turn < PARALLEL) & facing & apart, 1))
    pairs = np.argsort(-(length[ii] + length[jj]))[:MAX_PAIRS]
    return ii[pairs], jj[pairs], gap[ii[pairs], jj[pairs]]


Segments = tuple[np.ndarray, np.ndarray, np.ndarray]
_last_segments: list[tuple[np.ndarray, DetectSettings, Segments]] = []  # the frame last looked at and its segments


def segments(frame: np.ndarray, settings: DetectSettings) -> Segments:
    """The frame's longest straight segments (``MAX_LINES``, ``PER_DIRECTION`` at most running one way, each at
    least ``LINE_MIN`` of the smallest card's short side): their starts and ends (half-size px, K x 2 each) and
    lengths, from the line segment detector on the half-size frame's grey. Found once per frame (``line_quads``
    and ``corner_quads`` both look, 13 ms)."""
    last = _last_segments[0] if _last_segments else None
    if last is not None and last[0] is frame and last[1] == settings:
        return last[2]
    found = _segments_in(frame, settings)
    _last_segments[:] = [(frame, settings, found)]
    return found


def _segments_in(frame: np.ndarray, settings: DetectSettings) -> Segments:
    """``segments``, found afresh."""
    small = cv2.resize(frame, None, fx=SCALE, fy=SCALE, interpolation=cv2.INTER_AREA)
    found = cv2.createLineSegmentDetector().detect(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY))[0]
    if found is None:
        return np.empty((0, 2)), np.empty((0, 2)), np.empty(0)
    segs = found.reshape(-1, 4).astype(np.float64)
    short_min = np.sqrt(settings.min_area * frame.shape[0] * frame.shape[1] / settings.aspect) * SCALE
    length = np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1])
    longest = np.argsort(-length, kind="stable")
    longest = longest[length[longest] >= LINE_MIN * short_min]
    keep = longest[_rank_in_direction(segs[longest]) < PER_DIRECTION][:MAX_LINES]
    return segs[keep, :2], segs[keep, 2:], length[keep]


def _rank_in_direction(segs: np.ndarray) -> np.ndarray:
    """Each segment's place (0 first) among those running its way (``DIRECTIONS`` bins of the half turn), in the
    order given (longest first)."""
    angle = np.arctan2(segs[:, 3] - segs[:, 1], segs[:, 2] - segs[:, 0]) % np.pi
    way = np.minimum((angle / np.pi * DIRECTIONS).astype(int), DIRECTIONS - 1)
    rank = np.zeros(len(way), int)
    for k in np.unique(way):
        rank[way == k] = np.arange(int((way == k).sum()))
    return rank


CORNER_REACH = 12.0  # mm on the table: how far a side's segment may stop short of the corner it meets the next at
CORNER_SQUARE = np.radians(15.0)  # two sides meeting at a corner are square within this in the picture (a
# tilted camera skews them); on the table's plane within ``SQUARE``
CORNER_LINED = 0.2  # share of a card's outline two sides' segments must line
MAX_CORNERS = 12  # outlines from corners returned, most lined first


class Completed(NamedTuple):
    """An outline completed from some of a card's sides (``corner_quads``, ``side_quads``)."""

    quad: np.ndarray  # frame px, ``portrait_order``
    crossed: bool  # a straight segment runs across it (``_crossed``): another card's side lying on it, or an arm's edge


def corner_quads(
    frame: np.ndarray,
    settings: DetectSettings,
    planes: list[tuple[np.ndarray, np.ndarray]],
    card_mm: tuple[float, float],
    taken: Callable[[np.ndarray], bool] | None = None,
) -> list[Completed]:
    """Card outlines from two straight segments meeting square at a corner, at the card's true size on the table's
    plane there, each way the two sides may be its short and long ones (``_most_lined``; ``taken``: whether an
    outline is a card found already). ``planes``: where the table's plane is known, each as a point (frame px) and
    the map frame px -> mm around it (the mat's, or a named card's); the nearest one stands for it at each corner.

    For a card only two of whose sides show as edges: the top card of a fan or a pile on a table its paper barely
    stands out from in a dim room, where the cards under it hide its other two sides' edges (tuning scene 1131: a
    3♣ on white laminate, its two outer sides lined, a 5♥ beside the fan giving the scale)."""
    if not planes:
        return []
    p, q, length = _joined(*(v / SCALE for v in segments(frame, settings)))
    if len(length) < 2:
        return []
    d = (q - p) / length[:, None]
    i, j = np.triu_indices(len(length), 1)
    square = np.abs(d[i, 0] * d[j, 1] - d[i, 1] * d[j, 0]) >= np.cos(CORNER_SQUARE)
    i, j = i[square], j[square]
    corner = p[i] + _meets(p[i], d[i], p[j], d[j])[:, None] * d[i]  # where the two lines meet
    # a first cut in px, at the largest and smallest scales in view: each segment's nearer end within reach of the
    # corner, and the two long enough to line ``CORNER_LINED`` of a card's outline
    scales = [_px_per_mm(to_table, at) for at, to_table in planes]
    gap = np.minimum.reduce([np.hypot(*(end[k] - corner).T) for end, k in ((p, i), (q, i))])
    gap = np.maximum(gap, np.minimum.reduce([np.hypot(*(end[k] - corner).T) for end, k in ((p, j), (q, j))]))
    lined = (length[i] + length[j]) / (2 * sum(card_mm) * min(scales))
    near = (gap <= 1.5 * CORNER_REACH * max(scales)) & (lined >= 0.7 * CORNER_LINED)
    found: list[tuple[float, np.ndarray]] = []
    for a, b, c in zip(i[near], j[near], corner[near], strict=True):
        found += _cornered(c, (p[a], q[a]), (p[b], q[b]), nearest_plane(planes, c), card_mm)
    frame_area = float(frame.shape[0] * frame.shape[1])
    shaped = [(share, quad) for share, quad in found if card_shaped(quad, frame_area, settings)]
    return _most_lined(shaped, p, q, taken)


SIDE_REACH = 0.2  # of the side's length: how far a segment may stop short of a corner it meets, or run past it
SIDE_ARM = 0.3  # of the side's length: how long each of the sides square to it must show at least
SIDE_LINED = 0.45  # share of the completed outline the three sides' segments must line


def side_quads(
    frame: np.ndarray,
    settings: DetectSettings,
    card_mm: tuple[float, float],
    taken: Callable[[np.ndarray], bool] | None = None,
) -> list[Completed]:
    """Card outlines from three sides (``_most_lined``; ``taken``: as for ``corner_quads``): a straight segment
    with a square corner at each end, where two parallel segments leave it on the same side. The side between them
    is one of the card's, so its length gives the card's size where nothing else does; the fourth side is placed at
    the deck's aspect, each way (the side may be the short or the long one).

    For a card the table's scale is not yet known at: a lone pile's or a row's top card on a busy cloth, the
    fourth side of whose paper runs on into the cards under it, where no card is named to say how large a card
    is (``corner_quads`` needs that)."""
    p, q, length = _joined(*(v / SCALE for v in segments(frame, settings)))
    if len(length) < 3:
        return []
    d = (q - p) / length[:, None]
    frame_area = float(frame.shape[0] * frame.shape[1])
    ii, jj, _ = _facing_pairs(p * SCALE, q * SCALE, length * SCALE, np.arctan2(d[:, 1], d[:, 0]) % np.pi, settings,
                              frame_area)
    if not len(ii):
        return []
    # each pair (i, j: the arms) against each segment k square to it, the side between the arms' ends: the corners
    # where k's line meets theirs, and how far along k they lie
    pair, k = np.nonzero(np.abs(d[None, :, 0] * d[ii][:, None, 1] - d[None, :, 1] * d[ii][:, None, 0])
                         >= np.cos(CORNER_SQUARE))
    i, j = ii[pair], jj[pair]
    corners = [p[k] + _meets(p[k], d[k], p[m], d[m])[:, None] * d[k] for m in (i, j)]
    t1, t2 = (((c - p[k]) * d[k]).sum(axis=1) for c in corners)
    lo, hi = np.minimum(t1, t2), np.maximum(t1, t2)
    reach = SIDE_REACH * (hi - lo)
    ok = ((lo >= -reach) & (hi <= length[k] + reach)  # k ends at the corners, and lines most of the side
          & (np.minimum(hi, length[k]) - np.maximum(lo, 0) >= (1 - SIDE_REACH) * (hi - lo)))
    normal = np.stack([-d[k, 1], d[k, 0]], axis=1)
    arms = []  # how far each arm runs from k's line (signed: which way it leaves)
    for m, c in ((i, corners[0]), (j, corners[1])):
        a, b = ((p[m] - c) * normal).sum(axis=1), ((q[m] - c) * normal).sum(axis=1)
        near, far = np.where(np.abs(a) <= np.abs(b), a, b), np.where(np.abs(a) <= np.abs(b), b, a)
        ok &= (np.abs(near) <= reach) & (np.abs(far - near) >= SIDE_ARM * (hi - lo))
        arms.append(far)
    ok &= np.sign(arms[0]) == np.sign(arms[1])  # both leave k the same way
    out: list[tuple[float, np.ndarray]] = []
    aspect = max(card_mm) / min(card_mm)
    for n in np.nonzero(ok)[0]:
        c1, c2, side = corners[0][n], corners[1][n], float(hi[n] - lo[n])
        e1 = d[i[n]] * np.sign(d[i[n]] @ normal[n] * arms[0][n])  # along each arm, away from k
        e2 = d[j[n]] * np.sign(d[j[n]] @ normal[n] * arms[1][n])
        for other in (side * aspect, side / aspect):  # k the short side, or the long one
            lined = (side + min(abs(arms[0][n]), other) + min(abs(arms[1][n]), other)) / (2 * (side + other))
            quad = _clockwise(np.array([c1, c2, c2 + other * e2, c1 + other * e1], np.float32))
            if lined >= SIDE_LINED and card_shaped(quad, frame_area, settings):
                out.append((lined, quad))
    return _most_lined(out, p, q, taken)


def _most_lined(
    found: list[tuple[float, np.ndarray]],
    p: np.ndarray,
    q: np.ndarray,
    taken: Callable[[np.ndarray], bool] | None = None,
) -> list[Completed]:
    """Of outlines completed from some of a card's sides (each with the share of it its segments line), the most
    lined first, each once (``SAME_QUAD``), ``MAX_CORNERS`` at most; those a segment crosses (``_crossed``;
    segments ``p`` to ``q``) after the rest. Those ``taken`` (a card found already) are left out before the most
    lined are kept: the named cards' own corners are the most lined, and they crowded out a 6♥ on white laminate
    whose corner showed plainly (tuning scene 1980)."""
    out: list[Completed] = []
    for _, quad in sorted(found, key=lambda f: -f[0]):
        if (taken is None or not taken(quad)) and not any(np.abs(quad - o.quad).max() < SAME_QUAD for o in out):
            out.append(Completed(quad, _crossed(quad, p, q)))
            if sum(not o.crossed for o in out) == MAX_CORNERS:
                break
    return sorted(out, key=lambda o: o.crossed)[:MAX_CORNERS]  # a stable sort: the most lined first still


def _clockwise(quad: np.ndarray) -> np.ndarray:
    """A quad's corners clockwise in the picture, from its top-left as a card is read (``portrait_order``)."""
    return portrait_order(quad if cv2.contourArea(quad, oriented=True) > 0 else quad[::-1].copy())


def _meets(p: np.ndarray, d: np.ndarray, p2: np.ndarray, d2: np.ndarray) -> np.ndarray:
    """How far along each line (``p`` + t ``d``) it meets the line ``p2`` + s ``d2`` (not parallel)."""
    return ((p2 - p)[:, 0] * d2[:, 1] - (p2 - p)[:, 1] * d2[:, 0]) / (d[:, 0] * d2[:, 1] - d[:, 1] * d2[:, 0])


CROSS_INSET = 0.1  # of a card's short side: how far inside its outline another card's side must run ...
CROSS_LENGTH = 0.3  # ... and for how much of the short side's length, ...
CROSS_TURN = np.radians(10.0)  # ... turned this far from the card's own sides, to cross it


def _crossed(quad: np.ndarray, p: np.ndarray, q: np.ndarray) -> bool:
    """Whether a straight segment (starts ``p``, ends ``q``: frame px) crosses the card ``quad`` outlines, well
    inside it and turned from its sides: another card's side, lying on it. A card under another shows two sides
    meeting at a corner as one on top does, and its whole rectangle is half the other card (held-out pile 8100030:
    an 8♣ 60% under a 3♥ the search had not found, read 4♣ at 0.73). Another card's side comes in from beyond the
    card's inner outline: a segment wholly inside it is the card's own art. Its frame lines run along its sides, but
    a diamond's edges are turned, and two pips' in line made a 40 px segment across a 9♦ whose corner showed plainly
    (tuning scene 1251)."""
    short = min(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[2] - quad[1]))
    centre = quad.mean(axis=0)
    inner = centre + (quad - centre) * (1 - 2 * CROSS_INSET * short / np.linalg.norm(quad - centre, axis=1).mean())
    side = np.arctan2(*(quad[1] - quad[0])[::-1])
    turn = np.abs((np.arctan2(q[:, 1] - p[:, 1], q[:, 0] - p[:, 0]) - side + np.pi / 4) % (np.pi / 2) - np.pi / 4)
    a, b = p[turn >= CROSS_TURN], q[turn >= CROSS_TURN]
    pts = a[:, None] + np.linspace(0.0, 1.0, 16)[None, :, None] * (b - a)[:, None]  # (segments, 16, 2)
    edge = np.roll(inner, -1, axis=0) - inner
    rel = pts[:, :, None, :] - inner[None, None]  # (segments, 16, 4 corners, 2)
    side_of = edge[None, None, :, 0] * rel[..., 1] - edge[None, None, :, 1] * rel[..., 0]
    inside = (np.all(side_of > 0, axis=2) | np.all(side_of < 0, axis=2)).mean(axis=1)  # share of each inside
    return bool(((inside * np.hypot(*(b - a).T) >= CROSS_LENGTH * short) & (inside < 1.0)).any())


def nearest_plane(planes: list[tuple[np.ndarray, np.ndarray]], point: np.ndarray) -> np.ndarray:
    """Of ``planes`` (at least one: a point, frame px, and the map frame px -> mm around it), the map of the one
    nearest ``point``: it stands for the table's plane there."""
    return min(planes, key=lambda plane: float(np.hypot(*(plane[0] - point))))[1]


def _px_per_mm(to_table: np.ndarray, at: np.ndarray) -> float:
    """How many frame px a mm on the table spans at point ``at`` (frame px) of the map ``to_table``."""
    pts = cv2.perspectiveTransform((np.asarray(at, np.float64) + np.array([(0, 0), (1, 0), (0, 1)]))[None], to_table)[0]
    (ax, ay), (bx, by) = pts[1] - pts[0], pts[2] - pts[0]
    return 1.0 / np.sqrt(abs(ax * by - ay * bx))


JOIN_OFF = 2.0  # px: segments whose ends lie this close to another's line, ...
JOIN_GAP = 12.0  # ... and this close to it along it, are pieces of one side (a blurred, noisy edge is found broken)


def _joined(p: np.ndarray, q: np.ndarray, length: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Segments (starts, ends, lengths) with those lying on one line, end to end, joined into one: each run of
    pieces (``JOIN_OFF``, ``JOIN_GAP``) becomes the segment from its first end to its last along the longest
    piece."""
    if len(length) < 2:
        return p, q, length
    d = (q - p) / length[:, None]
    normal = np.stack([-d[:, 1], d[:, 0]], axis=1)
    off = np.maximum(np.abs(np.einsum("jk,ik->ij", p, normal) - np.einsum("ik,ik->i", p, normal)[:, None]),
                     np.abs(np.einsum("jk,ik->ij", q, normal) - np.einsum("ik,ik->i", p, normal)[:, None]))
    start = np.einsum("ik,ik->i", p, d)[:, None]  # along i's line: i runs from ``start`` to start + length
    lo = np.minimum(np.einsum("jk,ik->ij", p, d), np.einsum("jk,ik->ij", q, d)) - start
    hi = np.maximum(np.einsum("jk,ik->ij", p, d), np.einsum("jk,ik->ij", q, d)) - start
    near = (off <= JOIN_OFF) & (lo <= length[:, None] + JOIN_GAP) & (hi >= -JOIN_GAP)
    parent = list(range(len(length)))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for i, j in zip(*np.nonzero(near | near.T), strict=True):
        parent[root(int(i))] = root(int(j))
    roots = np.array([root(k) for k in range(len(length))])
    out_p, out_q = [], []
    for r in np.unique(roots):
        members = np.nonzero(roots == r)[0]
        main = members[np.argmax(length[members])]
        ends = np.concatenate([p[members], q[members]])
        along = (ends - p[main]) @ d[main]
        out_p.append(p[main] + along.min() * d[main])
        out_q.append(p[main] + along.max() * d[main])
    new_p, new_q = np.array(out_p), np.array(out_q)
    return new_p, new_q, np.hypot(*(new_q - new_p).T)


def _cornered(
    corner: np.ndarray,
    first: tuple[np.ndarray, np.ndarray],
    second: tuple[np.ndarray, np.ndarray],
    to_table: np.ndarray,
    card_mm: tuple[float, float],
) -> list[tuple[float, np.ndarray]]:
    """The card-sized rectangles (frame px, each with the share of its outline the two segments line) whose
    corner is where segments ``first`` and ``second`` (start, end: frame px) meet, their sides along them: none
    when, on the table's plane (``to_table``), a segment stops more than ``CORNER_REACH`` short of the corner, runs
    on past it, is longer than the side it lies on, or the two are not square."""
    c, a0, a1, b0, b1 = cv2.perspectiveTransform(np.array([[corner, *first, *second]], np.float64), to_table)[0]
    arms = []
    for s0, s1 in ((a0, a1), (b0, b1)):
        near, far = (s0, s1) if np.hypot(*(s0 - c)) <= np.hypot(*(s1 - c)) else (s1, s0)
        if np.hypot(*(near - c)) > CORNER_REACH:  # short of the corner, or running on past it
            return []
        reach = float(np.hypot(*(far - c)))
        arms.append(((far - c) / reach, min(reach, float(np.hypot(*(far - near))))))
    (u, along_u), (v, along_v) = arms
    if abs(float(u @ v)) > np.sin(SQUARE):
        return []
    v = v - (u @ v) * u
    v /= np.linalg.norm(v)
    inv = np.linalg.inv(to_table)
    out = []
    for side_u, side_v in (card_mm, card_mm[::-1]):
        if along_u > side_u * 1.08 or along_v > side_v * 1.08:
            continue
        rect = np.array([c, c + side_u * u, c + side_u * u + side_v * v, c + side_v * v])
        quad = _clockwise(cv2.perspectiveTransform(rect[None], inv)[0].astype(np.float32))
        out.append(((along_u + along_v) / (side_u + side_v) / 2, quad))
    return [(lined, quad) for lined, quad in out if lined >= CORNER_LINED]


def _lined(quads: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The share of each quad's outline (F x 4 x 2) that its segments (F x 4 starts and ends: segment k on side k,
    from corner k to k + 1) cover, counting only what of each lies between its side's corners."""
    side = np.roll(quads, -1, axis=1) - quads
    lengths = np.hypot(side[..., 0], side[..., 1])
    unit = side / np.maximum(lengths, 1e-9)[..., None]
    along = np.clip([np.einsum("fkj,fkj->fk", e - quads, unit) for e in (starts, ends)], 0.0, lengths)
    return np.abs(along[0] - along[1]).sum(axis=1) / lengths.sum(axis=1)


def _outer_boundaries(binary: np.ndarray, lo: float, hi: float) -> list[np.ndarray]:
    """The outer boundary of each connected piece of ``binary`` whose bounding box's area is between ``lo`` and
    ``hi`` (the many small pieces of a textured table are never traced). Label 0 is what lies between the pieces,
    not one of them: in a window around a lone card, the card's edges, whose outline, taken for an edge-free
    region's and grown outward, was the card's outline 5 px too wide on each side."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
    x, y, w, h = stats[:, 0], stats[:, 1], stats[:, 2], stats[:, 3]
    box = w * h
    out = []
    pieces = np.nonzero((box >= lo) & (box <= hi))[0]
    for k in pieces[pieces > 0]:
        piece = (labels[y[k] : y[k] + h[k], x[k] : x[k] + w[k]] == k).astype(np.uint8)
        contours, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(int(x[k]), int(y[k])))
        out.append(max(contours, key=cv2.contourArea))
    return out


def _hull_quad(hull: np.ndarray) -> np.ndarray | None:
    """The quad (clockwise) a region's hull fills: the lines of its four longest sides, else (a side split in
    two where the art or a shadow meets the edge) the smallest rectangle around it; None if it fills neither."""
    area = cv2.contourArea(hull)
    for quad in (fit_quad(hull), cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32)):
        if quad is not None and MIN_FILL * cv2.contourArea(quad) <= area <= 1.08 * cv2.contourArea(quad):
            return quad if cv2.contourArea(quad, oriented=True) > 0 else quad[::-1].copy()
    return None


def _parallel(quads: np.ndarray) -> np.ndarray:
    """Whether each side is within ``MAX_SKEW`` of the length of the side opposite it, for one quad (4 x 2) or
    each of a stack (... x 4 x 2)."""
    step = np.roll(quads, -1, axis=-2) - quads
    sides = np.hypot(step[..., 0], step[..., 1])
    return np.all(np.abs(sides[..., :2] / np.maximum(sides[..., 2:], 1e-6) - 1) <= MAX_SKEW, axis=-1)


def lies_on(top: np.ndarray, below: np.ndarray, edges: np.ndarray) -> bool:
    """Whether the card outlined by ``top`` lies on the one outlined by ``below`` (frame px quads).

    Where two cards overlap, the upper one's outline is in view across the lower one, and the lower one's
    outline is hidden under the upper: whichever's sides inside the other run along edges more is on top. An
    outline (nearly) all within the other is no card lying on it but a piece of it (its art's frame, an outline
    that stopped short): two cards of one deck cannot lie so.
    """
    if share_within(top, below) > WITHIN:
        return False
    mine, theirs = _support_inside(top, below, edges), _support_inside(below, top, edges)
    return mine is not None and (theirs is None or mine > theirs)


def share_within(quad: np.ndarray, other: np.ndarray) -> float:
    """The share of ``quad``'s area that lies inside ``other`` (frame px quads, either may be malformed)."""
    a, b = (cv2.convexHull(q.astype(np.float32)) for q in (quad, other))
    area = cv2.contourArea(a)
    return cv2.intersectConvexConvex(a, b)[0] / area if area > 0 else 1.0


def _support_inside(quad: np.ndarray, other: np.ndarray, edges: np.ndarray) -> float | None:
    """How much more of ``quad``'s sides, where they cross the inside of ``other``, lie on an edge than lines
    beside them do (``BESIDE`` px away: a court card's art is edges everywhere, a card's outline only along it);
    None: too little of them is inside it to say."""
    along = np.linspace(0.05, 0.95, 24)
    side = np.roll(quad, -1, axis=0) - quad
    normal = np.stack([-side[:, 1], side[:, 0]], axis=1) / np.maximum(np.hypot(*side.T), 1e-9)[:, None]
    pts = (quad[:, None, :] + along[None, :, None] * side[:, None, :]).reshape(-1, 2)
    inside = (_inset_depth(other, pts) > 6).all(axis=1)
    if inside.sum() < 6:
        return None
    h, w = edges.shape
    shift = np.repeat(normal, len(along), axis=0)[inside] * BESIDE

    def on_edges(p: np.ndarray) -> float:
        xy = np.clip(np.rint(p * SCALE).astype(int), 0, (w - 1, h - 1))
        return float((edges[xy[:, 1], xy[:, 0]] > 0).mean())

    on = pts[inside]
    return on_edges(on) - (on_edges(on + shift) + on_edges(on - shift)) / 2


def _inset_depth(quad: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """How far (px) each point lies inside each side's line of a convex quad (any corner order); negative:
    outside. Shape (points, 4)."""
    q = quad.astype(np.float64)
    d = np.roll(q, -1, axis=0) - q
    n = np.stack([-d[:, 1], d[:, 0]], axis=1) / np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-9)[:, None]
    n *= np.sign(cv2.contourArea(quad.astype(np.float32), oriented=True)) or 1.0
    return np.einsum("pk,sk->ps", pts, n) - np.einsum("sk,sk->s", q, n)[None, :]


def covered_cells(quad: np.ndarray, tops: list[np.ndarray]) -> np.ndarray:
    """The recogniser's cells (``GRID``, row by row) of the card in ``quad`` that the cards in ``tops`` cover
    (over half of the cell)."""
    w, h = FEATURE
    to_card = cv2.getPerspectiveTransform(
        quad.astype(np.float32), np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32)
    )
    cover = np.zeros((h, w), np.uint8)
    for top in tops:
        poly = cv2.perspectiveTransform(top.reshape(-1, 1, 2).astype(np.float32), to_card)
        cv2.fillPoly(cover, [np.rint(poly).astype(np.int32)], 1)
    return cell_shares(cover) > 0.5


SNAP_PEAK = 0.35  # of the strongest straight edge along a side: weaker ones are the table's texture
SNAP_OUTER = 0.2  # of a side's strongest edge: an edge outside it this strong may be the card's own ...
SNAP_OVER_TABLE = 4.0  # ... if it also stands this far above the plain table (the side's weakest quarter)
SNAP_CHOICES = 3  # edges kept per side: the card's own, a court card's frame or a row of pips, a table's line
SNAP_ASPECT = 0.12  # how far a snapped outline's long/short sides may be from the deck's aspect
SNAP_ALONG = np.linspace(0.1, 0.9, 24)  # where along a side its edges are sampled, from one corner to the next


def snap_to_edges(
    frame: np.ndarray, quad: np.ndarray, aspect: float, count: int = 3, reach: float = 0.2
) -> list[np.ndarray]:
    """Up to ``count`` card outlines (frame px, clockwise) near a rough one, each side moved onto a straight edge,
    most likely first: where an outline from a region ran into the table's pattern, took in a neighbour's strip
    or stopped short of a corner, one of these is the card's.

    Along each side, straight edges parallel to it within ``reach`` times the card's short side are scored by
    the step across them in their strongest colour channel, averaged over the side's length (a white card on a
    white gingham square still shows its edge where the red squares and its shadow meet it). Which of a side's
    edges is the card's is not always the strongest (a court card's frame, a row of pips, a gingham line), so
    the few strongest of each side are combined, and the combinations with the deck's ``aspect`` are ranked by
    their edges' strength; the catalogue tells which (if any) is a card. Each side turns a little to lie along
    its edge.
    """
    q = quad.astype(np.float64)
    short = float(min(np.hypot(*(q[1] - q[0])), np.hypot(*(q[2] - q[1]))))
    span = reach * short
    h, w = frame.shape[:2]
    x0, y0 = np.clip(np.floor(q.min(axis=0) - span - 6).astype(int), 0, (w - 1, h - 1))
    x1, y1 = np.clip(np.ceil(q.max(axis=0) + span + 6).astype(int), (x0 + 2, y0 + 2), (w, h))
    patch = cv2.GaussianBlur(frame[y0:y1, x0:x1], (3, 3), 0).astype(np.float32)
    grads = cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3)
    origin = np.array([x0, y0], np.float64)
    q = q - origin
    d = np.roll(q, -1, axis=0) - q
    n = np.stack([d[:, 1], -d[:, 0]], axis=1) / np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-9)[:, None]
    n *= np.sign(cv2.contourArea(q.astype(np.float32), oriented=True)) or 1.0  # outward
    offs = np.arange(-span, span + 0.01, 0.5)
    path = _snap_paths(len(offs))
    choices = []  # per side: (strength, line start, line end) of its strongest edges, its outermost one first
    for k in range(4):
        across = _steps_across(grads, q[k] + SNAP_ALONG[:, None, None] * d[k] + offs[None, :, None] * n[k], n[k])
        score = across.ravel().take(path).mean(axis=0)  # (start offset, end offset)
        straight = np.diagonal(score)
        floor = max(SNAP_OUTER * straight.max(), SNAP_OVER_TABLE * np.percentile(straight, 25), 1e-3)
        # a card's own edge is the outermost of its straight edges, if not the strongest
        outer = int(np.nonzero(straight >= floor)[0].max(initial=int(np.argmax(straight))))
        near = slice(max(0, outer - 4), outer + 5)
        s, e = np.unravel_index(int(np.argmax(score[near, near])), score[near, near].shape)
        side = [(float(score[near, near][s, e]), q[k] + offs[near][s] * n[k], q[k] + d[k] + offs[near][e] * n[k])]
        score[max(0, outer - 6) : outer + 7, max(0, outer - 6) : outer + 7] = 0.0
        for _ in range(SNAP_CHOICES):  # the strongest lines, each a few px from the ones before
            s, e = np.unravel_index(int(np.argmax(score)), score.shape)
            if score[s, e] < SNAP_PEAK * max(c[0] for c in side):
                break
            side.append((float(score[s, e]), q[k] + offs[s] * n[k], q[k] + d[k] + offs[e] * n[k]))
            score[max(0, s - 6) : s + 7, max(0, e - 6) : e + 7] = 0.0
        choices.append(side)
    # every combination of one edge per side at once (up to 4^4): corners, the deck's aspect, near-parallel sides
    picks = np.array(list(itertools.product(*(range(len(c)) for c in choices))))
    lines = [np.array([np.concatenate(c[1:]) for c in side]) for side in choices]  # per side: (start, end) rows
    ends = np.stack([lines[k][picks[:, k]] for k in range(4)], axis=1)  # (combos, side, start + end)
    corners, met = side_intersections(ends[..., :2], ends[..., 2:] - ends[..., :2])
    out = (corners + origin).astype(np.float32)
    sides = np.hypot(*np.moveaxis(np.roll(out, -1, axis=1) - out, -1, 0))
    a, b = sides[:, 0] + sides[:, 2], sides[:, 1] + sides[:, 3]
    shaped = np.abs(np.maximum(a, b) / np.maximum(np.minimum(a, b), 1e-6) / aspect - 1) <= SNAP_ASPECT
    good = np.nonzero(met & shaped & _parallel(out))[0]
    strength = sum(np.array([c[0] for c in side])[picks[good, k]] for k, side in enumerate(choices))
    inner = picks[good].any(axis=1)  # the outermost edges first, then the strongest
    ranked = good[np.lexsort((-strength, inner))]
    return [portrait_order(out[i]) for i in ranked[:count]]


@functools.lru_cache(maxsize=64)
def _snap_paths(offsets: int) -> np.ndarray:
    """Indices into a side's steps (``SNAP_ALONG`` x ``offsets``, flattened) along every straight line from one
    offset at the side's start to another at its end: (along, start offset, end offset)."""
    i = np.arange(offsets)
    t = SNAP_ALONG[:, None, None]
    path = np.rint((1 - t) * i[None, :, None] + t * i[None, None, :]).astype(int)
    path += np.arange(len(SNAP_ALONG))[:, None, None] * offsets
    path.flags.writeable = False  # shared by every call
    return path


def _steps_across(grads: tuple[np.ndarray, np.ndarray], pts: np.ndarray, normal: np.ndarray) -> np.ndarray:
    """The brightness step across ``normal`` at each point (any shape x 2, patch px), in its strongest channel."""
    mx, my = pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32)
    gx, gy = (cv2.remap(g, mx, my, cv2.INTER_LINEAR) for g in grads)
    return np.abs(gx * normal[0] + gy * normal[1]).max(axis=-1)
