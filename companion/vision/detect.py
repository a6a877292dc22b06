"""Find cards in a frame as quadrilaterals, with corners in a fixed order.

Cards are found as light, nearly colourless regions that stand out from the cloth *at the same place in the
frame*: the cloth brightness is estimated with a coarse median, so a light gradient across the table does not
matter. Strong edges are cut out of that mask, which separates a card from the one it lies on (their boundary
is a shadow line). Each region's convex hull is reduced to its four longest sides, whose intersections are the
corners even when a corner is rounded or hidden under a thumb.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.registration import to_mat

CARD_ASPECT = 88.0 / 63.0


@dataclass(frozen=True)
class Quad:
    """A card found in a frame: its corners and how much of its outline a white border lines (1: all of it;
    less when a hand or another card covers part of it)."""

    corners: np.ndarray  # 4x2 float32, clockwise from a top-left corner
    border: float
    true_size: bool = True  # False: the mat says its sides are not a card's (an outline cut short or stretched)


@dataclass(frozen=True)
class DetectSettings:
    """Tuning for the detector; the defaults suit a 1280x720 frame of a table seen from above."""

    min_area: float = 0.002  # of the frame: smaller regions are not cards
    max_area: float = 0.12
    contrast: float = 1.7  # a card's darkest channel vs the cloth's, at the same place
    max_saturation: float = 0.24  # card borders are near white; skin and felt are not
    seam: int = 8  # how much darker than its surroundings a thin line must be to cut (card edges on a pile)
    aspect: float = CARD_ASPECT
    aspect_range: tuple[float, float] = (0.7, 1.5)  # long/short side over ``aspect``, as a tilted camera sees it
    min_border: float = 0.5  # share of a quad's edges lined by white border (less whatever lies outside it)
    min_fill: float = 0.85  # region's hull area / quad area: a border ring broken by a thumb still counts
    size_tolerance: float = 0.04  # with a known card size: a quad whose side is off by more is doubtful
    min_known_border: float = 0.25  # the same for a rectangle of the mat's known card size
    refine: bool = True  # move each found side onto the card's edge in the image, to a fraction of a pixel
    size_handicap: float = 1.0  # a doubtful quad's border score is lowered by this times its size error
    min_fit_start: float = 0.15  # border score of a known-size rectangle as first drawn, to be worth fitting
    firm_border: float = 0.75  # a true-size quad lined this well by a border is not contested by fitted ones
    max_fits: int = 24  # of those, the most promising fitted in one frame (bounds the time a messy frame takes)
    max_white_gain: float = 1.0  # the most a channel is raised to make the lightest paper colourless (1: never)
    min_confirmed: float = 0.6  # a card of the last frame lined this well where it lay is still there (sides under
    # another card's white panel score 0.5 at most: a card wholly covered is not confirmed)


def paper_white(frame: np.ndarray) -> np.ndarray:
    """The colour (B, G, R grey levels) of the lightest paper in view: a card's border, as the lamp and the
    camera made it.

    Of the pixels not blown out in all three channels (glare is), the lightest 2% are taken as paper: under a warm
    lamp they are orange, under a cast tinted (a warm lamp often clips red, even green, on white paper, which then
    understates the tint: what is left is what the mask needs to see paper as colourless). Their median colour
    ratios make a mixture (paper, a light cloth) count by its majority. Sampled every fourth pixel: the light's
    colour varies slowly.
    """
    pixels = frame[::4, ::4].reshape(-1, 3)
    pixels = pixels[pixels.min(axis=1) < 250].astype(np.float32)
    if len(pixels) < 100:
        return np.full(3, 250.0)
    lum = pixels.sum(axis=1)
    light = pixels[lum >= np.percentile(lum, 98)]
    brightest = light.max(axis=1, keepdims=True)
    ratios = np.median(light / np.maximum(brightest, 1.0), axis=0)
    return ratios / ratios.max() * float(np.median(brightest))


def white_gains(white: np.ndarray, most: float) -> np.ndarray:
    """Per-channel gains that make ``white`` colourless (none lowers a channel; none exceeds ``most``)."""
    return np.clip(white.max() / np.maximum(white, 1e-3), 1.0, most)


def _lightness(frame: np.ndarray, s: DetectSettings, white: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's lowest and highest channel, once the light's colour is taken out (``white_mask``)."""
    b, g, r = cv2.split(frame)
    if s.max_white_gain > 1.0:
        gains = white_gains(paper_white(frame) if white is None else white, s.max_white_gain)
        b, g, r = (cv2.multiply(c, float(k)) if k > 1.01 else c for c, k in zip((b, g, r), gains, strict=True))
    return cv2.min(cv2.min(b, g), r), cv2.max(cv2.max(b, g), r)


def cloth_level(
    frame: np.ndarray, s: DetectSettings, white: np.ndarray | None = None, mat: np.ndarray | None = None
) -> np.ndarray:
    """The table's lowest channel around each pixel, cards left out: a median over a tenth of the frame, which a
    card's border must outshine to be seen (``white_mask``). It changes little when a card lands, so a window
    read (``pipeline.Recognizer``) takes its part of the whole frame's. ``mat``: the printed mat's outline in frame
    px, when it is in view: the mat and the table beyond it are levelled apart (``_levelled_apart``)."""
    return _cloth_of(_lightness(frame, s, white)[0], mat)


def _cloth_of(lo: np.ndarray, mat: np.ndarray | None = None) -> np.ndarray:
    """``cloth_level`` from the frame's lowest channel (``_lightness``)."""
    h, w = lo.shape
    small = cv2.resize(lo, (max(8, w // 8), max(8, h // 8)), interpolation=cv2.INTER_AREA)
    size = 2 * (max(small.shape) // 10) + 1
    if mat is None:
        cloth = cv2.medianBlur(small, size)
    else:
        on_mat = np.zeros(small.shape, np.uint8)
        cv2.fillConvexPoly(on_mat, np.round(mat * (small.shape[1] / w, small.shape[0] / h)).astype(np.int32), 1)
        cloth = _levelled_apart(small, on_mat.astype(bool), size)
    return cv2.resize(cloth, (w, h), interpolation=cv2.INTER_LINEAR)


def _levelled_apart(small: np.ndarray, on_mat: np.ndarray, size: int) -> np.ndarray:
    """The median around each pixel over its own side of the mat's edge only (the other side's pixels stand in as
    this side's median): a card lying on the dark mat near its edge outshines the mat, not the mat and the light
    table beyond it (a cream queen half a card from the mat's edge on grey laminate was not seen at all)."""
    cloth = np.empty_like(small)
    for side in (on_mat, ~on_mat):
        if side.any():
            level = np.where(side, small, np.uint8(np.median(small[side])))
            cloth[side] = cv2.medianBlur(level, size)[side]
    return cloth


def white_mask(
    frame: np.ndarray, s: DetectSettings, white: np.ndarray | None = None, cloth: np.ndarray | None = None
) -> np.ndarray:
    """Pixels that may be a card's white border: light, nearly colourless (once the light's colour is taken
    out: ``white`` is the frame's ``paper_white`` when the caller has it), no thin dark seam through them.
    ``cloth``: the frame's ``cloth_level`` when the caller has it."""
    lo, hi = _lightness(frame, s, white)
    cloth = _cloth_of(lo) if cloth is None else cloth
    bright = cv2.compare(lo, cv2.add(cv2.multiply(cloth, s.contrast), 12), cv2.CMP_GT)
    neutral = cv2.compare(cv2.subtract(hi, lo), cv2.multiply(hi, s.max_saturation), cv2.CMP_LT)
    # thin dark lines are cut away: the edge where one card lies on or against another
    smooth = cv2.GaussianBlur(lo, (3, 3), 0)
    seams = cv2.morphologyEx(smooth, cv2.MORPH_BLACKHAT, np.ones((7, 7), np.uint8))
    no_seam = cv2.compare(seams, s.seam, cv2.CMP_LT)
    return cv2.bitwise_and(cv2.bitwise_and(bright, neutral), no_seam)


def _filled(mask: np.ndarray) -> np.ndarray:
    """Closed border rings filled in: each card a solid region (touching cards a joint one)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 255, -1)
    return filled


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


def _hull_quad(contour: np.ndarray, frame_area: float, s: DetectSettings) -> np.ndarray | None:
    """The quad of a region's convex hull, or None when the region is not quad-shaped."""
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
    return quad


def card_shaped(quad: np.ndarray, frame_area: float, s: DetectSettings) -> bool:
    """Whether a quad has a card's size range and (as a tilted camera may stretch it) its aspect."""
    if not s.min_area * frame_area <= cv2.contourArea(quad) <= s.max_area * frame_area:
        return False
    short = (np.hypot(*(quad[1] - quad[0])) + np.hypot(*(quad[3] - quad[2]))) / 2
    long = (np.hypot(*(quad[2] - quad[1])) + np.hypot(*(quad[0] - quad[3]))) / 2
    return s.aspect_range[0] <= long / max(short, 1e-6) / s.aspect <= s.aspect_range[1]


def grow(quad: np.ndarray, by: float) -> np.ndarray:
    """The quad scaled about its centre, each side moved out by about ``by / 2`` px."""
    centre = quad.mean(axis=0)
    return (centre + (quad - centre) * (1 + by / np.sqrt(cv2.contourArea(quad)))).astype(np.float32)


def _sides(quad: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each side's start, direction and outward unit normal (corners clockwise on screen)."""
    p0 = quad.astype(np.float64)
    d = np.roll(p0, -1, axis=0) - p0
    n = np.stack([d[:, 1], -d[:, 0]], axis=1) / np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-6)[:, None]
    return p0, d, n


def _sample(mask: np.ndarray, pts: np.ndarray) -> np.ndarray:
    h, w = mask.shape
    xs = np.clip(np.rint(pts[..., 0]).astype(np.intp), 0, w - 1)
    ys = np.clip(np.rint(pts[..., 1]).astype(np.intp), 0, h - 1)
    return mask[ys, xs] > 0


def _out_to_border(quad: np.ndarray, mask: np.ndarray) -> np.ndarray | None:
    """Push each side of a card's inner panel out across the white border around it.

    The border width is the median over samples along the side, so where a neighbouring card's border touches
    this one, a few long runs do not move the side.
    """
    p0, d, n = _sides(quad)
    reach = np.arange(1, max(4, int(0.2 * np.hypot(d[:, 0], d[:, 1]).min())))
    starts = p0[:, None, :] + np.linspace(0.15, 0.85, 9)[None, :, None] * d[:, None, :]  # (4, 9, 2)
    white = _sample(mask, starts[:, :, None, :] + reach[None, None, :, None] * n[:, None, None, :])  # (4, 9, R)
    index = np.arange(len(reach))
    first = np.argmax(white, axis=2)  # the border may start a pixel or two out from the panel's outline
    beyond = ~white & (index >= first[..., None])
    end = np.where(beyond.any(axis=2), np.argmax(beyond, axis=2), len(reach))
    width = np.median(np.where(white.any(axis=2) & (first <= 3), end, 0), axis=1)
    if width.min() < 1:
        return None
    return _moved_out(quad, (width + 0.5)[:, None] * n)


def _moved_out(quad: np.ndarray, by: np.ndarray) -> np.ndarray | None:
    """The quad with each side moved by its vector in ``by`` (4 x 2), or None where two sides no longer meet."""
    p0, d, _ = _sides(quad)
    shifted = p0 + by
    corners = [
        _line_intersection(shifted[k - 1], shifted[k - 1] + d[k - 1], shifted[k], shifted[k] + d[k]) for k in range(4)
    ]
    if any(c is None for c in corners):
        return None
    return np.array(corners, np.float32)


TRIM_REACH = 0.08  # of a quad's short side: how far ``_trimmed`` moves a side in (a few mm)


def _trimmed(quad: np.ndarray, mask: np.ndarray) -> np.ndarray | None:
    """The quad with each side moved in, by a few millimetres at most, to where a white border lines it best:
    the top card of a pile lying a few mm out on the card under it, whose region takes in a strip of that card
    along two of its sides (white outside them, the seam between the two cards inside). None if no side moves."""
    p0, d, n = _sides(quad)
    offs = np.arange(0.0, TRIM_REACH * np.hypot(d[:, 0], d[:, 1]).min() + 0.01, 0.5)
    along = p0[:, None, :] + np.linspace(0.1, 0.9, 16)[None, :, None] * d[:, None, :]
    moved = along[:, None] - offs[None, :, None, None] * n[:, None, None, :]  # (4 sides, offsets, 16, 2)
    inside = _sample(mask, moved - 2.5 * n[:, None, None, :]).mean(axis=2)
    outside = _sample(mask, moved + 3.0 * n[:, None, None, :]).mean(axis=2)
    shift = offs[np.argmax(inside - 0.5 * outside, axis=1)]  # the least move of the best
    return _moved_out(quad, -shift[:, None] * n) if shift.any() else None


def find_cards(
    frame: np.ndarray,
    settings: DetectSettings | None = None,
    plausible: Callable[[np.ndarray], bool] | None = None,
    table: tuple[np.ndarray, tuple[float, float]] | None = None,
    mask: np.ndarray | None = None,
    known: Sequence[np.ndarray] = (),
) -> list[Quad]:
    """Cards in a BGR frame, as quadrilaterals with corners clockwise from a top-left one.

    Candidates come from three views of the white-border mask: the panels inside closed border rings (cards
    whose border touches another card's: a pile, a neighbour), solid regions (filled rings, eroded apart: cards
    whose panel white art breaks up) and the raw rings (cards whose border a hand has broken open). The best
    candidates by how well a white border lines their edges claim their place first. ``plausible`` can veto a
    candidate (the mat knows a card's true size), so a card's white centre panel never stands in for it.
    ``table`` (the homography frame px -> table mm, and a card's size in mm) lets a card whose outline a hand
    has merged with or broken be found from one straight stretch of its edge: see ``_known_size``. ``mask`` is
    the frame's ``white_mask`` when the caller has it already. ``known``: the outlines of the cards found in the
    last frame recognised from the same camera (with ``table``): a card still lying there is confirmed in place
    (``_confirmed``) instead of searched for.
    """
    s = settings or DetectSettings()
    mask = white_mask(frame, s) if mask is None else mask
    frame_area = float(frame.shape[0] * frame.shape[1])
    candidates: list[np.ndarray] = []
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))  # seal gaps in thin borders
    contours, hierarchy = cv2.findContours(closed, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    links = hierarchy[0] if hierarchy is not None else np.zeros((0, 4), int)
    holes = [contour for contour, link in zip(contours, links, strict=True) if link[3] >= 0]
    for contour in holes:  # a hole: the panel inside a card's border
        quad = _hull_quad(contour, frame_area * 0.7, s)
        candidates.append(None if quad is None else _out_to_border(quad, mask))
    filled = _filled(mask)
    for size in (5, 11):  # eroded apart: cards joined by a thin bridge, then by a wider one
        solid, _ = cv2.findContours(cv2.erode(filled, np.ones((size, size), np.uint8)), cv2.RETR_EXTERNAL, 2)
        for contour in solid:
            quad = _hull_quad(contour, frame_area, s)
            candidates.append(None if quad is None else grow(quad, size - 1.0))
    rings, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    candidates += [_hull_quad(contour, frame_area, s) for contour in rings]
    def fits(quad: np.ndarray) -> bool:
        return card_shaped(quad, frame_area, s) and (plausible is None or plausible(quad))

    scored: list[tuple[float, float, np.ndarray]] = []
    for candidate in (portrait_order(q) for q in candidates if q is not None):
        if any(np.abs(candidate - other).max() < 2.0 for _, _, other in scored):
            continue  # the same card found by another pass
        if not fits(candidate):
            continue
        score, quad = _border_score(candidate, mask), candidate
        trimmed = _trimmed(candidate, mask) if score < s.min_border else None
        if trimmed is not None and fits(trimmed):
            score, quad = _border_score(trimmed, mask), trimmed  # a pile's top card, the strip under it cut off
        if score >= s.min_border:
            scored.append((score, cv2.contourArea(quad), quad))
    found: list[Quad] = []
    for score, _, quad in sorted(scored, key=lambda t: (round(t[0], 1), t[1]), reverse=True):
        if not any(overlaps(quad, q.corners) for q in found):
            found.append(Quad(quad, score))
    lo = darkest_channel(frame)

    def refined(quads: list[Quad]) -> list[Quad]:
        return [Quad(refine_edges(lo, q.corners), q.border, q.true_size) for q in quads] if s.refine else quads

    found = refined(found)  # before sizes are judged: an outline is a few pixels out until its sides are refined
    if table is not None:
        fitted = _known_size(mask, rings, holes, found, table, frame_area, s, plausible, known)
        kept = {id(q) for q in found}  # quads that stood are refined already; fitted ones are new
        found = [q if id(q) in kept else refined([q])[0] for q in fitted]
    return found


def darkest_channel(frame: np.ndarray) -> np.ndarray:
    """Each pixel's lowest channel: what ``refine_edges`` reads (a card's white border is high in all three, a
    coloured table or cloth low in one)."""
    return cv2.min(cv2.min(frame[..., 0], frame[..., 1]), frame[..., 2]) if frame.ndim == 3 else frame


def refine_edges(lo: np.ndarray, quad: np.ndarray, reach: float = 4.0) -> np.ndarray:
    """The quad with each side moved onto the card's edge in the image, to a fraction of a pixel.

    Along each side the steepest fall from the card's light border to what lies outside it is found within
    ``reach`` px; a side moves only where most of it agrees (a thumb or a touching card is outvoted), and never
    by more than ``reach``. The recogniser compares small details (a corner index): a few pixels matter.
    """
    p0, d, n = _sides(quad)
    ts = np.linspace(0.12, 0.88, 14)
    offs = np.arange(-reach, reach + 0.01, 0.5)
    pts = (
        p0[:, None, None, :]
        + ts[None, :, None, None] * d[:, None, None, :]
        + offs[None, None, :, None] * n[:, None, None, :]
    )
    vals = cv2.remap(
        lo,
        pts[..., 0].astype(np.float32).reshape(-1, len(offs)),
        pts[..., 1].astype(np.float32).reshape(-1, len(offs)),
        cv2.INTER_LINEAR,
    ).astype(np.float32)
    vals = vals.reshape(4, len(ts), len(offs))
    fall = vals[..., :-2] - vals[..., 2:]  # light inside to dark outside, over 1 px
    k = np.argmax(fall, axis=2)
    strength = np.take_along_axis(fall, k[..., None], axis=2)[..., 0]
    shift = offs[1 + k]  # centre of the steepest step
    lines = []
    for side in range(4):
        ok = strength[side] > 12
        if ok.sum() < 7:
            lines.append((p0[side], d[side]))
            continue
        moved = shift[side][ok]
        med = np.median(moved)
        agree = np.abs(moved - med) <= 1.0
        if agree.sum() < 7:
            lines.append((p0[side], d[side]))
            continue
        t = ts[ok][agree]
        # a straight line through the agreeing edge points: offset as a linear function of position along the side
        y = moved[agree]
        tc = t - t.mean()
        slope = float(tc @ (y - y.mean()) / (tc @ tc)) if np.ptp(t) > 0.3 else 0.0
        icpt = float(y.mean() - slope * t.mean())
        start = p0[side] + icpt * n[side]
        end = p0[side] + d[side] + (icpt + slope) * n[side]
        if max(abs(icpt), abs(icpt + slope)) > reach:
            lines.append((p0[side], d[side]))
            continue
        lines.append((start, end - start))
    corners = [
        _line_intersection(lines[k - 1][0], lines[k - 1][0] + lines[k - 1][1], lines[k][0], lines[k][0] + lines[k][1])
        for k in range(4)
    ]
    if any(c is None for c in corners):
        return quad
    out = np.array(corners, np.float32)
    return out if np.abs(out - quad).max() <= 2 * reach else quad


def _known_size(
    mask: np.ndarray,
    rings: list[np.ndarray],
    holes: list[np.ndarray],
    found: list[Quad],
    table: tuple[np.ndarray, tuple[float, float]],
    frame_area: float,
    s: DetectSettings,
    plausible: Callable[[np.ndarray], bool] | None,
    known: Sequence[np.ndarray] = (),
) -> list[Quad]:
    """Cards the outline passes missed, each from one straight stretch of its edge and the card's known size.

    A hand touching a card merges with its border or breaks it, and the region is no longer quad-shaped, but
    stretches of the card's edge stay straight. On the table plane (the mat's homography) each long straight
    stretch of a region's outline is a card side: the card lies on the region's side of it with the known size,
    flush with one end or the other (the other end may be under a finger). Each such rectangle is refined to the
    outline points along its sides and judged by how well a white border lines it, like any other candidate.
    On a pile the top card's sides lie mostly inside the pile's region: rectangles lined up with the region's
    main edge directions (its holes' edges too) stand for it. Cards found at their true size and well lined by a
    border stand; one found the wrong size (its outline cut short by a hand), or poorly lined (a lower card of a
    pile where the top card lies), competes with these rectangles where it lies, at a handicap for its size.
    A card of the last frame (``known``) still lined by a border where it lay competes like any candidate, and a
    region that such cards and the firm quads cover is not searched (a trick's lower cards, when the next one
    lands on them: the search is most of the time a frame takes).
    """
    hom, (cw, ch) = table
    inv = np.linalg.inv(hom)
    errors = [_size_error(q.corners, hom, (cw, ch)) for q in found]
    # a quad of the true size that a border lines well stands; the others compete with fitted rectangles there
    firm = [e <= s.size_tolerance and q.border >= s.firm_border for q, e in zip(found, errors, strict=True)]
    good = [q for q, ok in zip(found, firm, strict=True) if ok]
    in_place = _confirmed(known, good, mask, hom, (cw, ch), frame_area, s, plausible)
    contested = [(q, e) for q, e, ok in zip(found, errors, firm, strict=True) if not ok]
    doubtful = [q for q, _ in contested]
    rects: list[np.ndarray] = []
    outlines: list[np.ndarray] = []  # each unexplained region's, in table mm
    region: list[int] = []  # the outline each of ``rects`` was drawn from
    aligned: list[np.ndarray] = []
    for contour, pts in _unexplained(rings, good, hom, (cw, ch), s.min_area * frame_area * 0.5, plausible, in_place):
        found_here = _side_rectangles(pts, (cw, ch))
        rects += found_here
        region += [len(outlines)] * len(found_here)
        outlines.append(pts)
        inner = [h for h in holes if cv2.pointPolygonTest(contour, tuple(map(float, h[0, 0])), False) > 0]
        aligned += _aligned_rectangles([pts, *(to_mat(hom, h) for h in inner)], (cw, ch))
    scored: list[tuple[float, Quad]] = [
        (q.border - s.size_handicap * e, Quad(q.corners, q.border, e <= s.size_tolerance)) for q, e in contested
    ] + [(q.border, q) for q in in_place]  # a card confirmed in place competes, never wins by being known
    # the wrong size, but in the right place? (not an outline inside a card confirmed in place: that card's)
    starts = [_card_rect(q.corners, hom, (cw, ch)) for q in doubtful if not any(_within(q, c) for c in in_place)]
    priority = [2.0] * len(starts)
    if rects or aligned:
        # a cheap first look at every rectangle as drawn: the promising ones from an outline's stretches are
        # snapped to it; a pile's top card (aligned) looks poor until the fit lines it up, so all of those go on
        raw = to_mat(inv, np.array(rects + aligned)).reshape(-1, 4, 2)
        rough = _border_scores(raw, mask)
        from_stretch = np.arange(len(raw)) < len(rects)
        chosen = np.nonzero(_clear_of(raw, [q.corners for q in good]) & (~from_stretch | (rough >= s.min_fit_start)))[0]
        stretch = chosen[chosen < len(rects)]
        snapped, of = np.array(rects).reshape(-1, 4, 2)[stretch], np.array(region, int)[stretch]
        for k, pts in enumerate(outlines):
            snapped[of == k] = _snap(snapped[of == k], pts)
        starts += [*snapped, *(aligned[k - len(rects)] for k in chosen[chosen >= len(rects)])]
        priority += list(rough[chosen])
    if starts:
        ranked = np.argsort(-np.array(priority), kind="stable")[: 4 * s.max_fits]
        distinct = ranked[_distinct(np.array(starts)[ranked], np.array(priority)[ranked], 2.0)]  # one per outline
        starts = list(fit_poses(mask, inv, np.array(starts)[distinct[: s.max_fits]], s.min_known_border))
    for quad in (_frame_quad(rect, inv) for rect in starts):
        if not card_shaped(quad, frame_area, s) or (plausible is not None and not plausible(quad)):
            continue
        score = _border_score(quad, mask)
        if score >= s.min_border:
            scored.append((score, Quad(quad, score)))
        elif score >= s.min_known_border and any(overlaps(quad, q.corners) for q in doubtful):
            # a hand over two sides leaves little border to see: the known size may still replace an
            # outline found the wrong size, but finds no card where none was seen
            scored.append((score, Quad(quad, score, False)))
    out = list(good)
    for _, quad in sorted(scored, key=lambda t: t[0], reverse=True):
        # an outline inside a card taken already is part of that card, however far apart their centres (a
        # malformed outline of three of its corners)
        if not any(overlaps(quad.corners, q.corners) or _within(quad, q) for q in out):
            out.append(quad)
    return out


def _confirmed(
    known: Sequence[np.ndarray],
    good: list[Quad],
    mask: np.ndarray,
    hom: np.ndarray,
    card_mm: tuple[float, float],
    frame_area: float,
    s: DetectSettings,
    plausible: Callable[[np.ndarray], bool] | None,
) -> list[Quad]:
    """The cards of the last frame (``known``, frame quads) that still lie where they were, clear of ``good``.

    Each is fitted at the card's true size from where it was, by the search's fine steps only (a card nudged a
    few millimetres is followed; one moved further is searched for as any other), and is confirmed when a white
    border still lines it (``min_confirmed``): a card wholly covered, or gone, is not.
    """
    inv = np.linalg.inv(hom)
    starts = [_card_rect(q, hom, card_mm) for q in known if not any(overlaps(q, g.corners) for g in good)]
    out: list[Quad] = []
    if not starts:
        return out
    for rect in fit_poses(mask, inv, np.array(starts), s.min_border, POSE_STEPS[1:]):
        quad = _frame_quad(rect, inv)
        if not card_shaped(quad, frame_area, s) or (plausible is not None and not plausible(quad)):
            continue
        score = _border_score(quad, mask)
        if score >= s.min_confirmed and not any(overlaps(quad, q.corners) for q in [*good, *out]):
            out.append(Quad(quad, score))
    return out


def _side_rectangles(pts: np.ndarray, card_mm: tuple[float, float]) -> list[np.ndarray]:
    """Card-sized rectangles (table mm) on the inner side of each long straight stretch of an outline (table
    mm), flush with one end of it, the other or centred on it, the stretch taken as a short side and as a long
    one."""
    cw, ch = card_mm
    poly = cv2.approxPolyDP(pts.astype(np.float32), 1.0, True).reshape(-1, 2).astype(np.float64)
    if len(poly) < 3:
        return []
    turn = 1.0 if cv2.contourArea(poly.astype(np.float32), oriented=True) > 0 else -1.0
    rects = []
    for i in range(len(poly)):
        a, b = poly[i], poly[(i + 1) % len(poly)]
        length = float(np.hypot(*(b - a)))
        if length < 0.45 * cw or length > 1.08 * ch:
            continue
        u = (b - a) / length
        inward = turn * np.array([-u[1], u[0]])
        for along, across in ((cw, ch), (ch, cw)):
            if length > along * 1.08:
                continue
            for start in (a, b - u * along, (a + b - u * along) / 2):  # flush with an end, or broken at both
                rects.append(
                    np.array([start, start + u * along, start + u * along + inward * across, start + inward * across])
                )
    return rects


def _unexplained(
    rings: list[np.ndarray],
    good: list[Quad],
    hom: np.ndarray,
    card_mm: tuple[float, float],
    min_area: float,
    plausible: Callable[[np.ndarray], bool] | None,
    in_place: Sequence[Quad] = (),
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The regions (frame contour, and outline in table mm) where a card may lie that no good quad explains.

    ``in_place``: cards of the last frame confirmed where they lay; a region that they and the good quads cover
    is explained too, whichever of them its centre falls in (a trick's lower card, whose centre the top card
    hides, and whose visible rim is a region of its own)."""
    cw, ch = card_mm
    inv = np.linalg.inv(hom)
    for contour in rings:
        area = cv2.contourArea(contour)
        if area < min_area:
            continue
        inside = [
            q for q in good if cv2.pointPolygonTest(contour, tuple(map(float, q.corners.mean(axis=0))), False) >= 0
        ]
        if sum(cv2.contourArea(q.corners) for q in inside) >= 0.9 * area:
            continue  # every card in this region has been found
        if in_place and _coverage(contour, [q.corners for q in [*good, *in_place]]) >= 0.9:
            continue
        pts = to_mat(hom, contour)
        if plausible is not None:  # a region centred where no card can lie (a marker) is not one
            mid = pts.mean(axis=0) + np.array([(-cw, -ch), (cw, -ch), (cw, ch), (-cw, ch)]) / 2
            if not plausible(to_mat(inv, mid).astype(np.float32)):
                continue
        yield contour, pts


def _within(quad: Quad, card: Quad, margin: float = 8.0) -> bool:
    """Whether a quad lies inside a card's outline (grown by ``margin`` px): an outline of part of that card."""
    outline = grow(card.corners, margin).reshape(-1, 1, 2)
    return all(cv2.pointPolygonTest(outline, (float(x), float(y)), False) >= 0 for x, y in quad.corners)


def _coverage(contour: np.ndarray, quads: list[np.ndarray]) -> float:
    """The share of a region (frame contour) that lies under the quads (each grown by a pixel: a border's rim)."""
    x, y, w, h = cv2.boundingRect(contour)
    region = np.zeros((h, w), np.uint8)
    cv2.drawContours(region, [contour], -1, 255, -1, offset=(-x, -y))
    cover = np.zeros_like(region)
    for quad in quads:  # one by one: ``fillPoly`` would leave where two overlap empty
        cv2.fillConvexPoly(cover, np.round(grow(quad, 2.0) - (x, y)).astype(np.int32), 255)
    return cv2.countNonZero(cv2.bitwise_and(region, cover)) / max(1, cv2.countNonZero(region))


def _aligned_rectangles(outlines: list[np.ndarray], card_mm: tuple[float, float]) -> list[np.ndarray]:
    """Card-sized rectangles (table mm) lined up with the main edge directions of a region's outlines (its own
    and its holes'), where those edges vote for a card's opposite sides: the top card of a pile, whose sides are
    mostly inside the pile's region.

    The edges of one card share a direction (modulo 90°); across that direction, edge points a card's width (or
    height) apart are two of its sides.
    """
    polys = [cv2.approxPolyDP(o.astype(np.float32), 1.0, True).reshape(-1, 2).astype(np.float64) for o in outlines]
    starts = np.concatenate(polys)
    d = np.concatenate([np.roll(q, -1, axis=0) - q for q in polys])
    length = np.hypot(d[:, 0], d[:, 1])
    angle = np.degrees(np.arctan2(d[:, 1], d[:, 0])) % 90
    votes = np.bincount(np.round(angle).astype(int) % 90, weights=length, minlength=90)
    votes = votes + np.roll(votes, 1) + np.roll(votes, -1)  # a degree either way
    rects = []
    for peak in np.argsort(-votes)[:2]:
        if votes[peak] < 0.3 * votes.max():
            break
        a = np.radians(float(peak))
        u, v = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
        off = np.abs(((angle - peak + 45) % 90) - 45)
        chosen = np.nonzero((off <= 4) & (length >= 3))[0]
        if not len(chosen):
            continue
        steps = np.floor(length[chosen]).astype(int)  # a point every millimetre along each chosen edge
        which = np.repeat(chosen, steps)
        t = np.arange(steps.sum()) - np.repeat(np.cumsum(steps) - steps, steps)
        edge = starts[which] + (t / length[which])[:, None] * d[which]
        pts = edge @ np.stack([u, v], axis=1)
        for width, height in (card_mm, card_mm[::-1]):
            for x0 in _opposite_sides(pts[:, 0], width):
                for y0 in _opposite_sides(pts[:, 1], height):
                    c = x0 * u + y0 * v
                    rects.append(np.array([c, c + width * u, c + width * u + height * v, c + height * v]))
    return rects


def _opposite_sides(positions: np.ndarray, gap: float, best: int = 2) -> list[float]:
    """The ``best`` places x (1 mm bins, 5 mm apart) with the most positions at x or at x + ``gap``: two
    opposite sides of a card."""
    lo = np.floor(positions.min()) - gap - 2
    counts = np.bincount(np.round(positions - lo).astype(int), minlength=int(np.ceil(gap)) + 4)
    counts = counts + np.roll(counts, 1) + np.roll(counts, -1)
    k = round(gap)
    pair = counts[: len(counts) - k] + counts[k:]
    out: list[float] = []
    for x in np.argsort(-pair, kind="stable"):
        if pair[x] <= 0 or len(out) == best:
            break
        if all(abs(lo + x - o) >= 5 for o in out):
            out.append(float(lo + x))
    return out


POSE_STEPS = ((3.0, 2.0, 2.5), (1.5, 1.0, 0.0), (0.75, 0.5, 0.0), (0.4, 0.25, 0.0))  # mm, degrees, blur px


def fit_poses(
    mask: np.ndarray, inv: np.ndarray, rects: np.ndarray, floor: float = -1.0,
    steps: tuple[tuple[float, float, float], ...] = POSE_STEPS,
) -> np.ndarray:
    """Card-sized rectangles (K x 4 x 2, table mm) each moved and turned, its size kept, to where a white border
    lines it best; the ones worth keeping are returned.

    A rectangle built from part of an outline is a few pixels off where a hand broke that outline, and the
    border score (a thin band each side of the edge) falls fast with the error. A pattern search over position
    and angle on the table plane, scoring the frame's mask sampled between pixels (softened for the first, long
    steps), puts it back on the card.
    After each step size, rectangles that score below ``floor`` or have come to rest within two steps of a
    better one are dropped (many starts from one card's outline converge), and only moving ones are looked at
    again.
    ``inv`` maps table mm to frame px; ``steps`` are the search's step sizes (and blur), longest first.
    """
    centres = rects.mean(axis=1)
    local = rects - centres[:, None, :]
    angles = np.zeros(len(rects))
    grid = np.stack(np.meshgrid([-1, 0, 1], [-1, 0, 1], [-1, 0, 1], indexing="ij"), -1).reshape(-1, 3)
    for step_mm, step_deg, blur in steps:
        moving = np.arange(len(centres))
        if not len(moving):
            break
        here = _to_frame(local, centres, angles, inv)
        level, origin = _level(mask, here, blur)
        best = _soft_scores(here - origin, level)
        for _ in range(4):
            moves = grid * (step_mm, step_mm, step_deg)
            tried_c = (centres[moving, None, :] + moves[None, :, :2]).reshape(-1, 2)
            tried_a = (angles[moving, None] + moves[None, :, 2]).ravel()
            quads = _to_frame(np.repeat(local[moving], len(grid), axis=0), tried_c, tried_a, inv) - origin
            scores = _soft_scores(quads, level).reshape(len(moving), -1)
            k = np.argmax(scores, axis=1)
            top = scores[np.arange(len(moving)), k]
            better = top > best[moving] + 1e-6
            pick = (np.arange(len(moving)) * len(grid) + k)[better]
            moving = moving[better]
            centres[moving], angles[moving], best[moving] = tried_c[pick], tried_a[pick], top[better]
            if not len(moving):
                break
        keep = _distinct(_turn(local, angles) + centres[:, None, :], best, 2 * step_mm) & (best >= floor)
        centres, angles, best, local = centres[keep], angles[keep], best[keep], local[keep]
    return _turn(local, angles) + centres[:, None, :]


def _level(mask: np.ndarray, quads: np.ndarray, blur: float, margin: int = 80) -> tuple[np.ndarray, np.ndarray]:
    """The mask a search step reads, and where it starts in the frame: the first, long steps read it softened
    (a wider pull towards the card), cut to the quads' surroundings so that the blur costs little."""
    if not blur:
        return mask, np.zeros(2)
    h, w = mask.shape
    x0, y0 = np.clip(np.floor(quads.reshape(-1, 2).min(axis=0)).astype(int) - margin, 0, (w - 1, h - 1))
    x1, y1 = np.clip(np.ceil(quads.reshape(-1, 2).max(axis=0)).astype(int) + margin, (x0 + 1, y0 + 1), (w, h))
    return cv2.GaussianBlur(mask[y0:y1, x0:x1], (0, 0), blur), np.array([x0, y0], float)


def _distinct(rects: np.ndarray, scores: np.ndarray, near_mm: float = 1.0) -> np.ndarray:
    """Which rectangles (K x 4 x 2 mm) no better-scoring one already covers (every corner of one within
    ``near_mm`` of a corner of the other)."""
    corner_gaps = np.linalg.norm(rects[:, None, :, None, :] - rects[None, :, None, :, :], axis=-1)  # (K, K, 4, 4)
    same = corner_gaps.min(axis=3).max(axis=2) < near_mm
    keep = np.zeros(len(rects), bool)
    for i in np.argsort(-scores, kind="stable"):
        keep[i] = not (same[i] & keep).any()
    return keep


def settle(quad: np.ndarray, mask: np.ndarray, hom: np.ndarray, card_mm: tuple[float, float]) -> np.ndarray:
    """A found quad replaced by the card-sized rectangle around it that a white border lines best.

    For a second look at a card the recogniser could not name: an outline a few pixels off (a thumb on a
    corner) misaligns the small details that tell faces apart.
    """
    inv = np.linalg.inv(hom)
    return _frame_quad(fit_poses(mask, inv, _card_rect(quad, hom, card_mm)[None])[0], inv)


MOVES = np.array([(dx, dy, 0) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy] + [(0, 0, -1), (0, 0, 1)], float)


def card_moves(
    quad: np.ndarray, hom: np.ndarray, card_mm: tuple[float, float], step_mm: float, step_deg: float
) -> list[np.ndarray]:
    """The card-sized rectangle around a frame quad moved one step each way across the table, and turned a step
    either way, as frame quads: the neighbours a search for a card's outline looks at next."""
    rect = _card_rect(quad, hom, card_mm)
    centre = rect.mean(axis=0)
    local = np.repeat((rect - centre)[None], len(MOVES), axis=0)
    moved = _turn(local, MOVES[:, 2] * step_deg) + centre + MOVES[:, None, :2] * step_mm
    inv = np.linalg.inv(hom)
    return [_frame_quad(m, inv) for m in moved]


def card_sized(quad: np.ndarray, hom: np.ndarray, card_mm: tuple[float, float]) -> np.ndarray:
    """The card-sized rectangle around a frame quad (its centre and direction), as a frame quad."""
    return _frame_quad(_card_rect(quad, hom, card_mm), np.linalg.inv(hom))


def _card_rect(quad: np.ndarray, hom: np.ndarray, card_mm: tuple[float, float]) -> np.ndarray:
    """The card-sized rectangle on the table (mm) with a frame quad's centre and direction."""
    pts = to_mat(hom, quad)
    short, long = pts[1] - pts[0] + pts[2] - pts[3], pts[2] - pts[1] + pts[3] - pts[0]
    u = short / max(float(np.hypot(*short)), 1e-9)
    v = long - (long @ u) * u  # square to the short side
    v /= max(float(np.hypot(*v)), 1e-9)
    w, h = card_mm
    return pts.mean(axis=0) + np.array([-w * u - h * v, w * u - h * v, w * u + h * v, -w * u + h * v]) / 2


def _frame_quad(rect: np.ndarray, inv: np.ndarray) -> np.ndarray:
    """A rectangle on the table (mm) as a frame quad in ``portrait_order``."""
    hyp = to_mat(inv, rect).astype(np.float32)
    return portrait_order(hyp if cv2.contourArea(hyp, oriented=True) > 0 else hyp[::-1].copy())


def _turn(local: np.ndarray, degrees: np.ndarray) -> np.ndarray:
    """Each of M point sets (M x P x 2) turned by its own angle about the origin."""
    a = np.radians(degrees)
    c, s = np.cos(a)[:, None], np.sin(a)[:, None]
    x, y = local[..., 0], local[..., 1]
    return np.stack([c * x - s * y, s * x + c * y], axis=-1)


def _to_frame(local: np.ndarray, centres: np.ndarray, angles: np.ndarray, inv: np.ndarray) -> np.ndarray:
    """Rectangles given about their centres (M x 4 x 2 mm), turned and placed on the table, as frame quads."""
    mm = _turn(local, angles) + centres[:, None, :]
    return to_mat(inv, mm).reshape(-1, 4, 2)


def _soft_scores(quads: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``_border_scores`` with the mask read between pixels, so that a sub-pixel move changes the score."""
    along, n = _edge_bands(quads)
    inside = along - 2.5 * n[:, :, None, :]
    outside = along + 3.0 * n[:, :, None, :]
    pts = np.stack([inside, outside]).astype(np.float32).reshape(2 * len(quads), -1, 2)  # rows: a quad's band
    vals = cv2.remap(mask, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR, borderValue=0).astype(np.float32) / 255
    vals = vals.reshape(2, len(quads), -1).mean(axis=2)
    return vals[0] - 0.5 * vals[1]


NEXT_CORNER = [1, 2, 3, 0]
BAND_STEPS = np.linspace(0.1, 0.9, 16)[None, None, :, None]  # where a side is sampled, from one corner to the next


def _edge_bands(quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points along each side of many quads and each side's outward normal (any corner order)."""
    q = quads.astype(np.float64)
    after = q[:, NEXT_CORNER]  # each corner's successor (``np.roll`` costs more than the sums here)
    d = after - q  # (M, 4, 2)
    sign = np.sign(np.sum(q[:, :, 0] * after[:, :, 1] - after[:, :, 0] * q[:, :, 1], axis=1))
    n = np.stack([d[..., 1], -d[..., 0]], axis=-1) / np.maximum(np.hypot(d[..., 0], d[..., 1]), 1e-6)[..., None]
    n *= sign[:, None, None]
    along = q[:, :, None, :] + BAND_STEPS * d[:, :, None, :]
    return along, n


def _border_scores(quads: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``_border_score`` of many quads at once (any corner order: the sign of each quad's area sets inside)."""
    along, n = _edge_bands(quads)
    inside = _sample(mask, along - 2.5 * n[:, :, None, :]).mean(axis=(1, 2))
    outside = _sample(mask, along + 3.0 * n[:, :, None, :]).mean(axis=(1, 2))
    return inside - 0.5 * outside


def _clear_of(quads: np.ndarray, taken: list[np.ndarray]) -> np.ndarray:
    """Which of many quads overlap none of ``taken`` (as ``_overlaps`` judges)."""
    if not taken:
        return np.ones(len(quads), bool)
    t = np.stack(taken).astype(np.float64)
    side_q = np.hypot(*(quads[:, 1] - quads[:, 0]).T)
    side_q = np.minimum(side_q, np.hypot(*(quads[:, 2] - quads[:, 1]).T))
    side_t = np.hypot(*(t[:, 1] - t[:, 0]).T)
    gap = np.hypot(*(quads.mean(axis=1)[:, None, :] - t.mean(axis=1)[None, :, :]).transpose(2, 0, 1))
    return ~np.any(gap < 0.5 * np.minimum(side_q[:, None], side_t[None, :]), axis=1)


def _size_error(quad: np.ndarray, hom: np.ndarray, card_mm: tuple[float, float]) -> float:
    """The largest relative error of a quad's sides and diagonals, measured on the table, against the card's."""
    pts = to_mat(hom, quad)
    sides = np.hypot(*(np.roll(pts, -1, axis=0) - pts).T)
    diagonals = np.hypot(*(pts[2:] - pts[:2]).T)
    true = np.array([card_mm[0], card_mm[1], card_mm[0], card_mm[1], *[np.hypot(*card_mm)] * 2])
    return float(np.max(np.abs(np.concatenate([sides, diagonals]) / true - 1)))


def _border_score(quad: np.ndarray, mask: np.ndarray) -> float:
    """How well the quad's edges follow a white border: white just inside, not white just outside."""
    p0, d, n = _sides(quad)
    along = p0[:, None, :] + np.linspace(0.1, 0.9, 16)[None, :, None] * d[:, None, :]
    inside = _sample(mask, along - 2.5 * n[:, None, :])
    outside = _sample(mask, along + 3.0 * n[:, None, :])
    return float(inside.mean() - 0.5 * outside.mean())


def _snap(rects: np.ndarray, pts: np.ndarray, near: float = 1.5) -> np.ndarray:
    """Rectangles (K x 4 x 2, table mm) with each side moved onto the outline points along it, where there are
    some. Which points lie along which side is found for all of them at once; a line is fitted only to the sides
    that have enough (a few of the many rectangles drawn from one outline)."""
    a = rects.astype(np.float64)
    d = np.roll(a, -1, axis=1) - a
    length = np.hypot(d[..., 0], d[..., 1])  # (K, 4)
    u = d / length[..., None]
    rel = pts[None, None, :, :] - a[:, :, None, :]  # (K, 4, N, 2)
    t = rel[..., 0] * u[..., 0, None] + rel[..., 1] * u[..., 1, None]
    off = rel[..., 0] * u[..., 1, None] - rel[..., 1] * u[..., 0, None]
    on = (np.abs(off) < near) & (t > 0.1 * length[..., None]) & (t < 0.9 * length[..., None])
    spread = np.where(on, t, -np.inf).max(axis=2) - np.where(on, t, np.inf).min(axis=2)
    origin, direction = a.copy(), u.copy()
    for k, side in zip(*np.nonzero((on.sum(axis=2) >= 2) & (spread > 0.25 * length)), strict=True):
        vx, vy, x0, y0 = cv2.fitLine(pts[on[k, side]].astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        origin[k, side], direction[k, side] = (x0, y0), (vx, vy)
    corners, ok = side_intersections(origin, direction)
    return np.where(ok[:, None, None], corners, a)


def side_intersections(origin: np.ndarray, direction: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each of K quads' sides (K x 4 lines: a point and a direction) meets the side before it, and whether
    all four of a quad's pairs do (not parallel), as ``_line_intersection`` finds each."""
    p1, d1 = np.roll(origin, 1, axis=1), np.roll(direction, 1, axis=1)
    denom = d1[..., 0] * direction[..., 1] - d1[..., 1] * direction[..., 0]
    ok = np.abs(denom) >= 1e-6
    gap = origin - p1
    t = (gap[..., 0] * direction[..., 1] - gap[..., 1] * direction[..., 0]) / np.where(ok, denom, 1.0)
    return p1 + t[..., None] * d1, ok.all(axis=1)


def overlaps(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two quads claim the same card: their centres closer than half the smaller one's short side."""
    side = min(np.hypot(*(a[1] - a[0])), np.hypot(*(b[1] - b[0])))
    return bool(np.hypot(*(a.mean(axis=0) - b.mean(axis=0))) < 0.5 * side)
