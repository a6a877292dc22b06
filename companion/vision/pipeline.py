"""One frame in, the cards on the table out: register the mat, find quads, identify them, name their zones."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache

import cv2
import numpy as np

from companion.vision.align import aligned
from companion.vision.art import ArtIndex, search_boxes
from companion.vision.catalog import POKER_MM, TWINS, Catalog, Match, warp_card
from companion.vision.crossings import beyond, crossing_lines, face_edges
from companion.vision.detect import (
    DetectSettings,
    Quad,
    card_moves,
    card_shaped,
    card_sized,
    cloth_level,
    darkest_channel,
    find_cards,
    grow,
    overlaps,
    portrait_order,
    refine_edges,
    settle,
    white_mask,
)
from companion.vision.edges import (
    WITHIN,
    Completed,
    corner_quads,
    covered_cells,
    edge_free,
    edge_map,
    edge_quads,
    lies_on,
    line_quads,
    nearest_plane,
    share_within,
    side_quads,
    smooth_edge_map,
    snap_to_edges,
)
from companion.vision.light import Light, PaperCorrection, light_on_paper, paper_correction
from companion.vision.mat import MatLayout
from companion.vision.mat_print import mat_image
from companion.vision.observations import UNKNOWN
from companion.vision.orientation import long_axis, orientation_of, turn_from
from companion.vision.registration import MatLocator, Registration, card_size_check, plane_through, to_mat
from companion.vision.stillness import CELL_PX, changed_cells, colour_cells
from companion.vision.zones import fit_to_frame, upright_axes

TABLE = "table"  # the zone of a card when neither a mat nor drawn zones say otherwise
MAX_EDGE_TRIES = 24  # edge candidates the catalogue looks at in one frame (bounds the time a messy frame takes)
EDGE_CONFIDENCE = 0.6  # an edge candidate is a guess: named only when the catalogue is this sure ...
EDGE_DISTANCE = 0.5  # ... and it fits its face this closely (share of ``MatchSettings.max_distance``)
AT_ONCE = 0.97  # an edge candidate named this surely stands as it is; one named less surely is checked against its
# outline moved onto the edges around it (``Recognizer._checked``)
ALIGNED_TWINS = 0.006  # an edge candidate named at once as a face whose twin's picture differs from its own less
# than this (``Catalog.difference``: a club and the spade of its rank) is aligned onto it all the same
MAX_SNAPS = 8  # of those not named at once, the most moved onto the edges around them (``snap_to_edges``) in one frame
# by the edge search; as many broken outlines of the border mask at most are checked so (``BROKEN``)
BROKEN = 0.9  # share of its outline a border lines below which the border mask's outline is broken (a hand, a
# neighbour): a guess, as an edge candidate is, checked on its edges unless named as surely (``Recognizer._read``)
Moved = list[tuple[Match, np.ndarray]]  # an outline's views moved onto the edges around it, each with its verdict
SAME_OUTLINE = 4.0  # px: edge candidates whose corners are all this close are one outline, looked at once
WHOLE_SURE = 0.9  # a card named this surely from its whole outline is on top of any outline the catalogue cannot name
OVER_FIT = 2.0  # where two named cards overlap, the one whose face fits there this many times closer is on top
MIN_OVERLAP_CELLS = 4  # cells (``catalog.GRID``) two cards must share for their faces there to say which is on top
MIN_VISIBLE = 0.6  # share of a card in view (the rest under other cards) for it to be named
NAMED_EDGE_PX = 3.0  # px beyond a named card's outline that its border may still show in the border mask
MAX_FITTED_REGIONS = 8  # regions ``Recognizer._fitted_at_named_size`` fits in one frame, largest first (the
# foreign-art tuning frames without the mat have 0-5; bounds the time a messy frame takes) ...
MAX_FREE_REGIONS = 4  # ... and of the edge-free regions, where the border mask sees no card
FREE_CARDS = 4.0  # an edge-free region larger than this many cards is the table, not a pile
GUIDE_MISFIT_MM = 3.0  # a named card's outline whose corners an affine map cannot take this close to its true size's
# gives no scale to judge other outlines by (``Recognizer._sized_as_named``)
COVERED_CHANGE = 0.25  # share of a card's cells that may change since the last frame read for it to be confirmed
# where it lay (``Recognizer._still_lying``)
CAMERA_MOVED = 0.5  # share of the frame's cells that changed since the frame read before it past which the camera
# may have moved: the cards named earlier no longer say the table's scale (``Recognizer._remembered``)
SEARCH_EDGES_EVERY = 10  # frames the edge search may be skipped in a row at most (``Recognizer._edges_may_add``)
# mm, degrees: ``Recognizer._placed_by_face``'s steps, longest first. The first is long: a face's fit is bumpy at a
# few mm (pips), and a Squirrels 2 laid across two 3s, outlined 10 mm along them, fit worse 4 mm either way than where
# it stood (the bench's seed 17: the table recorded one 2 of two)
FACE_STEPS = ((8.0, 4.0), (4.0, 2.0), (2.0, 1.0), (1.0, 0.5))
FACE_MOVES = 2  # moves at most per step
RIVAL_FIT = 2.0  # a view fitting another face closely is a rival to the face a search settles on only if it fits
# that face within this many times as closely (a fan's 4♦ settled at 0.001; views half off it fit 2♥ at 0.0037)
MAX_FACE_SEARCHES = 2  # outlines a frame searches so (bounds the time a messy frame takes)
MAX_ALIGNS = 20  # outlines a frame aligns to a face's picture at most (``Recognizer._onto_face``, a few ms each): a
# row's strips take many (tuning scene 1551: a row's end 3♣ came after 17 that did not settle)
CORNER_FIT = 1.5  # share of ``MatchSettings.max_distance`` within which some face must fit a corner outline at a
# cheap first look for it to be tried (``Recognizer._corner_candidates``). The look has no hand to leave out: a 7♦
# an arm lay over a fifth of fitted 0.017, and aligned without the arm read 0.88 (tuning scene 1320)
CROSSED_REACHED = 0.05  # share of a corner outline a segment crosses (``edges._crossed``) under something reaching
# in (``Match.reached``) past which that segment may be its edge: an arm's over a 7♠ (tuning scene 1314, 0.17), not
# another card's side lying on it (a card's paper is not taken for something reaching in)
LOOSE_FIT = 0.25  # share of ``MatchSettings.max_distance`` past which a border-mask outline named unsurely fits its
# face loosely, and is aligned onto it (``Recognizer._read``): a pile's top card outlined with the card under it
AROUND = 3  # cells (``CELL_PX``) a window read (``Recognizer._window``) looks beyond what changed: a card's shadow,
# the edges around it that the edge search and the face search look along
MAX_WINDOW = 0.4  # share of the frame past which a window read saves too little to be worth it: the frame is read whole
WHOLE_EVERY = 10  # window reads in a row at most: then the frame is read whole (the light's correction and the
# table's level a window read takes from the last whole read are measured again)
MAX_IN_WINDOW = 0.6  # share of a window a card may fill (its own outline, in a window around it, fills ~1/3): the
# window's own edges outline no card
AT_WINDOW_EDGE = 3.0  # px: a card found this close to a window's edge (not the frame's) may run on beyond it
PRINT_PX_PER_MM = 2.0  # the mat's print drawn so for ``Recognizer._print_edges`` (an A3 mat across a 1280 px
# frame is seen at 2.5-3 px/mm, its edges found at half that)
MAT_REACH = 0.0  # card lengths beyond the mat's edge where the art search still looks for a card: none, the mat only
# (a card lying half off it is searched on the mat's side; one card length let a gingham ring make one box around
# the whole mat). The border mask and the edges look beyond it (``Recognizer._print_edges``)
PRINT_SLACK = 3  # px of ``edge_map``: the print's edges are widened so, for the registration's error
MAX_REACHED = 0.15  # share of an unnamed outline under something reaching in (a hand: 0.3+) past which moving it
# cannot help: the outline is the card's, its face is what is covered (a pile's top card found a few mm along the
# cards under it shows a strip of table at its edge: 0.02); a view moved onto edges past it is no evidence
# (``_moved_onto_edges``)


@dataclass(frozen=True)
class CardFound:
    """One card in one frame."""

    face: str  # a face id, or ``unknown``
    confidence: float
    zone: str
    corners: np.ndarray  # 4x2 frame px, clockwise from the card's top-left as read
    best: str  # the closest face even when unsure
    distance: float
    border: float = 1.0  # share of the outline seen lined by the card's border (less when partly covered)
    turn: float = 0.0  # degrees (0-90) between its long side and its zone's upright direction (``orientation.py``)

    @property
    def centre(self) -> tuple[float, float]:
        x, y = self.corners.mean(axis=0)
        return float(x), float(y)

    def as_json(self) -> dict:
        return {
            "face": self.face,
            "confidence": round(self.confidence, 3),
            "zone": self.zone,
            "outline": round(self.border, 2),
            "orientation": orientation_of(self.turn).value,
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
        }


@dataclass
class EdgeSearch:
    """The frame the edge search last ran on: its ``colour_cells``, whether the search named a card the border
    mask had not, and in how many frames in a row since then it was skipped, or stopped once the cards found
    explained what had changed (``Recognizer._search_done``)."""

    cells: np.ndarray
    added: bool
    skipped: int = 0


@dataclass
class FrameResult:
    cards: list[CardFound]
    registered: bool  # the mat's homography was found in this frame (or kept from an earlier one)
    timings: dict[str, float] = field(default_factory=dict)  # seconds per stage
    light: Light | None = None  # what the camera saw of the light; ``light.problems()`` says what it cannot do


@dataclass(frozen=True)
class View:
    """The part of a frame being read (the whole frame, or a window around what changed since the last frame
    read, ``Recognizer._window``) and the frame's geometry there, in its own px."""

    image: np.ndarray
    origin: np.ndarray  # frame px (x, y) of its top-left
    hom: np.ndarray | None  # its px -> mat mm; None without the mat
    zones: dict[str, np.ndarray]  # the drawn zones, in its px
    detect: DetectSettings  # card areas as shares of its own area
    seen: np.ndarray  # as the border mask sees it (``light.PaperCorrection``)
    cloth: np.ndarray  # its part of the frame's ``cloth_level``
    frame_width: int  # px, the whole frame's: a window is searched for art at the frame's scale (``_by_art``)
    kept: list[CardFound] = field(default_factory=list)  # the last frame's cards a window read keeps as they were
    # read (frame px): it may take in part of one, which is known and not searched for
    whole: bool = True  # the whole frame, not a window of it

    def in_frame(self, card: CardFound) -> CardFound:
        return replace(card, corners=card.corners + self.origin)

    def in_view(self, card: CardFound) -> CardFound:
        return replace(card, corners=card.corners - self.origin)

    @cached_property
    def kept_here(self) -> list[np.ndarray]:
        """The ``kept`` cards' outlines in its px (worked out once: every edge candidate is tested against them)."""
        return [card.corners - self.origin for card in self.kept]

    def kept_outlines(self, grown_by: float) -> list[np.ndarray]:
        """The ``kept`` cards' outlines in its px, each side moved out by about ``grown_by / 2`` px."""
        return [grow(outline, grown_by) for outline in self.kept_here]

    def on_kept(self, quad: np.ndarray) -> bool:
        """Whether an outline (its px) centres on a kept card: the part of it the view takes in."""
        centre = tuple(float(v) for v in quad.mean(axis=0))
        return any(cv2.pointPolygonTest(outline, centre, False) >= 0 for outline in self.kept_here)


@dataclass(frozen=True)
class Window:
    """A part of a frame to read again (``Recognizer._window``): its box (x0, y0, x1, y1 frame px), and the last
    frame's cards kept as they were read (the change reached none of them, nor any card on or under them)."""

    box: np.ndarray
    kept: list[CardFound]


@dataclass
class Reading:
    """The last frame read (``Recognizer.follow``): its ``colour_cells``, its cards, and what a window read of the
    next one takes from the last whole read: the mat's paper correction, the table's level, the markers' outlines."""

    cells: np.ndarray
    cards: list[CardFound]
    correction: PaperCorrection | None
    cloth: np.ndarray
    markers: list[np.ndarray]
    windows: int = 0  # window reads since the frame was last read whole


def plane_of(corners: np.ndarray, card_mm: tuple[float, float]) -> np.ndarray:
    """The homography frame px -> table mm that a card's outline (``corners``, clockwise from its top-left) gives,
    its top-left at the origin: where no mat is in view, the table's plane and scale around that card."""
    w, h = card_mm
    rect = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32)
    return cv2.getPerspectiveTransform(corners.astype(np.float32), rect)


def scale_of(corners: np.ndarray, card_mm: tuple[float, float]) -> tuple[np.ndarray, float]:
    """The affine map frame px -> table mm (as a homography) that best takes a card's outline onto its true size:
    the table's scale and slant around that card, for judging sizes far from it too. ``plane_of``'s perspective
    follows each pixel its four corners are off: a few cards away, by an outline 2.6 mm out, a whole card measured
    50 mm by 63 (tuning scene 71). With the map, how far (mm) it puts the outline's worst corner from the card's:
    an outline a corner off (the border mask run on into a neighbour) is no measure. Worked out once per outline
    (the map is read-only): the edge search asks again for every named card each time it adds one."""
    return _scale_of(np.asarray(corners, np.float64).tobytes(), card_mm)


@lru_cache(maxsize=256)
def _scale_of(corners: bytes, card_mm: tuple[float, float]) -> tuple[np.ndarray, float]:
    w, h = card_mm
    rect = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float64)
    frame = np.hstack([np.frombuffer(corners).reshape(4, 2), np.ones((4, 1))])
    affine = np.linalg.lstsq(frame, rect, rcond=None)[0]
    misfit = float(np.hypot(*(frame @ affine - rect).T).max())
    scale = np.vstack([affine.T, (0.0, 0.0, 1.0)])
    scale.flags.writeable = False
    return scale, misfit


def nearest_card(cards: Sequence[CardFound], point: np.ndarray) -> CardFound:
    """The card of ``cards`` (at least one) whose centre lies nearest ``point`` (px): the one whose plane
    (``plane_of``) best stands for the table's there."""
    return min(cards, key=lambda c: float(np.hypot(*np.subtract(c.centre, point))))


def on_named(quad: np.ndarray, cards: Sequence[CardFound], besides: CardFound | None = None) -> bool:
    """Whether a named card of ``cards`` (but ``besides``) claims the card ``quad`` outlines (``overlaps``)."""
    return any(c is not besides and c.face != UNKNOWN and overlaps(quad, c.corners) for c in cards)


def card_finder(
    layout: MatLayout | None, card_mm: tuple[float, float] = POKER_MM
) -> Callable[[np.ndarray], list[Quad]]:
    """Mat registration and card detection without recognition: what guided calibration needs."""
    locator = MatLocator(layout) if layout else None
    settings = DetectSettings(aspect=card_mm[1] / card_mm[0])

    def find(frame: np.ndarray) -> list[Quad]:
        hom = locator.locate(frame) if locator else None
        return find_cards(frame, settings, locator.card_check(hom, card_mm) if locator and hom is not None else None)

    return find


class Recognizer:
    """The recognition pipeline for one catalogue; cheap to call per frame."""

    def __init__(
        self,
        catalog: Catalog,
        layout: MatLayout | None = None,
        zones: dict[str, np.ndarray] | None = None,
        card_mm: tuple[float, float] | None = None,
        detect: DetectSettings | None = None,
        zones_drawn_on: tuple[int, int] | None = None,
        follow: bool = True,
    ) -> None:
        """``follow``: keep from one frame to the next what a frame showing the same there would only work out
        again (the mat's registration, ``MatLocator.follow``; the edge search's verdict, ``_edges_may_add``); False
        works everything out afresh each frame (the benchmarks' comparison). A single picture is worked out whole
        either way."""
        self.catalog = catalog
        self.follow = follow
        self.locator = MatLocator(layout) if layout else None
        self.zones = zones or {}
        self.zones_drawn_on = zones_drawn_on  # picture size the drawn zones' pixels refer to (None: any)
        self._fitted_zones: tuple[tuple[int, int], dict[str, np.ndarray]] | None = None
        self._axes: tuple[dict[str, np.ndarray], dict[str, float]] | None = None  # the zones', for those zones
        self.card_mm = card_mm or catalog.card_mm  # the deck's size, as calibration measured it
        self.detect = detect or DetectSettings(aspect=self.card_mm[1] / self.card_mm[0])
        self._last_hom: np.ndarray | None = None
        self._registration: Registration | None = None
        self._searched: EdgeSearch | None = None
        self._face_searches = 0  # ``_placed_by_face`` searches in the frame being read
        self._checks = 0  # broken outlines checked on their edges in the frame being read (``_checked_on_edges``)
        self._aligns = 0  # outlines aligned to a face's picture in the frame being read (``_onto_face``)
        self._last: Reading | None = None  # the last frame read, when following (``_window``)
        self._print: tuple[np.ndarray, tuple[int, ...], np.ndarray] | None = None  # ``_print_edges``, for a hom
        self._guides: list[CardFound] = []  # without the mat, the cards last named whose outlines give the table's
        # scale (``_remembered``)
        self._own_edges: dict[str, np.ndarray] = {}  # ``crossings.face_edges`` of each face, worked out once

    def process(self, frame: np.ndarray, known: Sequence[np.ndarray] = (), *, light: bool = True) -> FrameResult:
        """The cards in one frame. Without a mat, raises ``ZonesError`` when the drawn zones do not fit the
        camera's pictures (with one they are only a stand-in while the mat is out of view). ``known``: the outlines
        of the cards found in the last frame recognised from this camera; where such a card still lies and little
        changed over it (``_still_lying``), it is confirmed in place rather than searched for
        (``detect.find_cards``), which makes a card landing on a trick cheaper to read; and (with ``follow``)
        where the frame changed in a small part only, only that part is read again (``_window``). With ``follow``
        and no mat, the table's scale the cards named earlier gave is kept while the camera stays put
        (``_remembered``). ``light``: whether to measure the light (``FrameResult.light``; it changes
        slowly, so a watcher measures it every few frames, see ``CardWatcher``)."""
        zones = self._zones_for((frame.shape[1], frame.shape[0])) if self.locator is None else self.zones
        timings: dict[str, float] = {}
        cells = colour_cells(frame)
        last = self._last
        changed = None if last is None or last.cells.shape != cells.shape else changed_cells(cells, last.cells)
        guides = self._remembered(changed)
        window = self._window(changed, frame.shape, known)
        lying = self._still_lying(known, changed, frame.shape)
        searched = None if self._searched is None else replace(self._searched)
        cards = None if window is None else self._in_window(frame, cells, window, lying, zones, guides, timings)
        if cards is None:
            self._searched = searched  # a window read given up: its search says nothing of the frame read whole
            cards = self._whole(frame, cells, lying, zones, guides, timings)
        if self.locator is None and self.follow:
            self._guides = [c for c in cards if c.face != UNKNOWN and self._true(c)] or guides
        markers = self._last.markers if self._last is not None else self._markers(self._last_hom)
        lit = self._light(frame, cards, markers, on_table=self._last_hom is None) if light else None
        return FrameResult(cards, self._last_hom is not None, timings, lit)

    @staticmethod
    def _still_lying(
        known: Sequence[np.ndarray], changed: np.ndarray | None, shape: tuple[int, ...]
    ) -> list[np.ndarray]:
        """The ``known`` outlines (the last frame's cards) over which little ``changed`` since the last frame read
        (its cells that did, ``changed_cells``; None: no frame to compare with; ``COVERED_CHANGE``): only those are
        confirmed in place (``detect.find_cards``). Where much of a card changed, something now lies on it, or it
        moved: a pile's new top card, whose border lines the cards under it as well as their own did, was taken
        for them."""
        if changed is None:
            return list(known)
        cell = np.array([shape[1] / changed.shape[1], shape[0] / changed.shape[0]])
        lying = []
        for outline in known:
            under = _cells_of(outline, cell, changed.shape)
            if (changed & under).sum() <= COVERED_CHANGE * max(1, under.sum()):
                lying.append(outline)
        return lying

    def _remembered(self, changed: np.ndarray | None) -> list[CardFound]:
        """Without the mat, the cards named in the frames read before this one that give the table's scale, while
        the camera has not moved (``changed``: the cells that changed since the frame read before it; more than
        ``CAMERA_MOVED`` of them): where no card of its own is named (a lone pile whose new top card's border runs
        on into the cards under it), a frame is searched at the deck's size as they lay it out. Nothing when not
        following (``follow``, ``changed`` None): each frame is a picture of its own."""
        return [] if changed is None or changed.mean() > CAMERA_MOVED else self._guides

    def _whole(
        self,
        frame: np.ndarray,
        cells: np.ndarray,
        known: Sequence[np.ndarray],
        zones: dict[str, np.ndarray],
        guides: list[CardFound],
        timings: dict[str, float],
    ) -> list[CardFound]:
        """The cards in the whole frame (the mat registered afresh, the light's correction measured)."""
        t0 = time.perf_counter()
        hom = self._register(frame)
        timings["register"] = time.perf_counter() - t0
        markers = self._markers(hom)
        correction = paper_correction(frame, markers)
        seen = frame if correction is None else correction.apply(frame)
        paper = self.locator.paper_outline(hom) if hom is not None and self.locator is not None else None
        cloth = cloth_level(seen, self.detect, mat=paper)
        view = View(frame, np.zeros(2, np.float32), hom, zones, self.detect, seen, cloth, frame.shape[1])
        cards = self._look(view, known, cells, guides, timings)
        self._last = Reading(cells, cards, correction, cloth, markers) if self.follow else None
        return cards

    def _window(
        self, changed: np.ndarray | None, shape: tuple[int, ...], known: Sequence[np.ndarray]
    ) -> Window | None:
        """Where a frame need be read again, or None to read it whole: around the cells that ``changed`` since the
        last frame read (None: no frame to compare with), and the cards of that frame read again with them: each
        the change reaches, each lying on or under one of those (a card landing on a trick changes how much shows
        of the cards under it), and each the catalogue could not name (no reading to keep: what a hand or a card
        being lifted left, read with the last frame's outlines; kept, it held a Squirrels stack top played as still
        in its place, and the table recorded the play as from the hand). ``AROUND`` cells beyond. Whole when
        nothing is ``known`` (a recheck, a first frame), nothing changed, the window would be large
        (``MAX_WINDOW``: a hand sweeping the table), a marker of the mat changed (a hand over it; the camera or the
        mat moved), and every ``WHOLE_EVERY`` reads."""
        last = self._last
        if not known or last is None or changed is None or last.windows >= WHOLE_EVERY or not changed.any():
            return None
        h, w = shape[:2]
        cell = np.array([w / changed.shape[1], h / changed.shape[0]])
        if any((changed & _cells_of(outline, cell, changed.shape)).any() for outline in last.markers):
            return None  # a hand over a marker, or the mat moved: registered afresh
        again = [card.face == UNKNOWN or bool((changed & _cells_of(card.corners, cell, changed.shape)).any())
                 for card in last.cards]
        grown = True
        while grown:  # and what lies on or under those, and on or under those...
            grown = False
            for k, card in enumerate(last.cards):
                if not again[k] and any(again[j] and _meet(other.corners, card.corners)
                                        for j, other in enumerate(last.cards)):
                    again[k] = grown = True
        ys, xs = np.nonzero(changed)
        box = np.array([xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]) * np.tile(cell, 2)
        for card, read in zip(last.cards, again, strict=True):
            if read:
                bounds = _bounds(card.corners)
                box = np.concatenate([np.minimum(box[:2], bounds[:2]), np.maximum(box[2:], bounds[2:])])
        margin = AROUND * np.concatenate([-cell, cell])
        box = np.clip(np.round(box + margin), 0, [w, h, w, h]).astype(int)
        if (box[2] - box[0]) * (box[3] - box[1]) > MAX_WINDOW * w * h:
            return None
        return Window(box, [card for card, read in zip(last.cards, again, strict=True) if not read])

    def _in_window(
        self,
        frame: np.ndarray,
        cells: np.ndarray,
        window: Window,
        known: Sequence[np.ndarray],
        zones: dict[str, np.ndarray],
        guides: list[CardFound],
        timings: dict[str, float],
    ) -> list[CardFound] | None:
        """The cards in the frame, read in the ``window`` only (``_window``); the last frame's other cards kept as
        they were (what of them shows in the window is theirs). The mat's registration, the light's correction
        and the table's level are the last whole read's (none of them changes outside the window). None when a
        card found runs to the window's edge: it may run on beyond it, and only the whole frame can say."""
        last = self._last
        assert last is not None
        x0, y0, x1, y1 = (int(v) for v in window.box)
        origin = np.array([x0, y0], np.float32)
        image = frame[y0:y1, x0:x1]
        hom = self._last_hom
        hom = None if hom is None else hom @ np.array([[1, 0, x0], [0, 1, y0], [0, 0, 1]], np.float64)
        share = frame.shape[0] * frame.shape[1] / (image.shape[0] * image.shape[1])
        detect = replace(self.detect, min_area=self.detect.min_area * share,
                         max_area=min(self.detect.max_area * share, MAX_IN_WINDOW))
        seen = image if last.correction is None else last.correction.apply(image)
        view = View(image, origin, hom, {name: zone - origin for name, zone in zones.items()}, detect, seen,
                    last.cloth[y0:y1, x0:x1], frame.shape[1], window.kept, whole=False)
        timings["register"] = 0.0
        kept = window.kept
        here = [outline - origin for outline in known
                if _cuts(window.box, outline) and not any(np.array_equal(outline, k.corners) for k in kept)]
        cards = [view.in_frame(card) for card in self._look(view, here, cells, guides, timings)]
        cards = [card for card in cards if not any(share_within(card.corners, k.corners) > 0.5 for k in kept)]
        edge = np.array([x0 + AT_WINDOW_EDGE if x0 else -np.inf, y0 + AT_WINDOW_EDGE if y0 else -np.inf,
                         x1 - AT_WINDOW_EDGE if x1 < frame.shape[1] else np.inf,
                         y1 - AT_WINDOW_EDGE if y1 < frame.shape[0] else np.inf])
        if any(not _within(_bounds(card.corners), edge) for card in cards):
            return None
        cards = kept + cards
        last.cells, last.cards, last.windows = cells, cards, last.windows + 1
        return cards

    def _look(
        self,
        view: View,
        known: Sequence[np.ndarray],
        cells: np.ndarray,
        remembered: list[CardFound],
        timings: dict[str, float],
    ) -> list[CardFound]:
        """The cards in ``view`` (its px): the border mask's outlines named, the edge search's added where it may
        find more, each card under another judged on what shows of it. The cards a window keeps (``View.kept``) are
        known: what it takes in of one is not searched as a card (in the border mask it would be a card a hand
        broke, and the searches for those were most of the time a played frame took); with the ``remembered``
        ones (``_remembered``), they say the table's scale beside the view's own named cards."""
        t1 = time.perf_counter()
        hom = view.hom
        check = self.locator.card_check(hom, self.card_mm) if hom is not None and self.locator is not None else None
        mask = white_mask(view.seen, view.detect, cloth=view.cloth)
        if view.kept:
            mask = _blanked(mask, [np.round(o).astype(np.int32) for o in view.kept_outlines(4 * NAMED_EDGE_PX)])
        quads = find_cards(view.image, view.detect, check, (hom, self.card_mm) if hom is not None else None, mask,
                           known)
        t2 = time.perf_counter()
        self._face_searches = self._checks = self._aligns = 0
        cards = self._apart([self._read(view.image, quad, mask, hom, view.zones) for quad in quads])
        edges = edge_map(view.image)
        if self._edges_may_add(cells, [*view.kept, *map(view.in_frame, cards)]):
            guides = [view.in_view(c) for c in [*view.kept, *remembered] if c.face != UNKNOWN]
            done = self._search_done(cells, view, known, edges)
            searched, unnamed = self._from_edges(view, edges, cards, check, guides, done)
            stopped = done(searched)
            if hom is None and not stopped:
                searched = self._fitted_at_named_size(view, mask, edges, searched, known, guides)
                searched = self._completed(view.image, searched, unnamed, view.zones, guides)
            skipped = self._searched.skipped + 1 if stopped and self._searched is not None else 0
            self._searched = EdgeSearch(cells, [id(c) for c in searched] != [id(c) for c in cards], skipped)
            cards = searched
        cards = _without_pieces(self._on_what_shows(view.image, edges, cards, hom, view.zones))
        timings.update(detect=t2 - t1, recognise=time.perf_counter() - t2)
        return cards

    def _markers(self, hom: np.ndarray | None) -> list[np.ndarray]:
        """The mat's markers' outlines in the frame (none without the mat)."""
        return self.locator.marker_outlines(hom) if hom is not None and self.locator is not None else []

    def _register(self, frame: np.ndarray) -> np.ndarray | None:
        """The homography frame px -> mat mm (None without a mat); while too few markers are in view (a hand over
        them), the last one found."""
        if self.locator is None:
            return None
        last = self._registration if self.follow else None
        self._registration = self.locator.follow(frame, last)
        if self._registration is not None:
            self._last_hom = self._registration.hom
        return self._last_hom

    def _light(self, frame: np.ndarray, cards: list[CardFound], markers: list[np.ndarray], on_table: bool) -> Light:
        """The light, judged on white paper: the cards', the mat's markers'; ``on_table``: no mat under the cards,
        so the table's pattern is judged too."""
        return light_on_paper(frame, [c.corners for c in cards] + markers, table=on_table)

    def _read(
        self, frame: np.ndarray, quad: Quad, mask: np.ndarray, hom: np.ndarray | None, zones: dict[str, np.ndarray]
    ) -> tuple[CardFound | None, CardFound | None]:
        """The card a quad from the border mask outlines (an unknown one too), or None for paper that is not a
        card; and, when a face search moved it and named it, the card as its own outline read (``_apart``)."""
        corners = quad.corners
        m = self.catalog.match(warp_card(frame, corners), retry=quad.true_size)
        if m.face == UNKNOWN and hom is not None and m.distance <= self.catalog.settings.not_a_card:
            # a second look with the outline settled on the card's true size where a border lines it best
            settled = settle(corners, mask, hom, self.card_mm)
            again = self.catalog.match(warp_card(frame, settled), retry=quad.true_size)
            if again.face != UNKNOWN:
                m, corners = again, settled
        # unknown, or named unsurely and fitting loosely: an outline off the card (a pile's top 6♠ outlined with the
        # card under it, 9 px off, read 0.6 at 0.0043 and blocked the edge outlines over it: tuning scene 2294). One
        # that fits closely is on its card: a plain face's picture would only pull it off (an A♣ 1 px off was moved
        # 14 px off, where it read more surely: tuning scene 1951)
        loose = m.confidence < AT_ONCE and m.distance > LOOSE_FIT * self.catalog.settings.max_distance
        onto = self._onto_face(frame, m, corners, hom) if m.face == UNKNOWN or loose else None
        if onto is not None and (m.face == UNKNOWN or (onto[0].face == m.face and onto[0].confidence > m.confidence)):
            m, corners = onto
        elif loose and (onto[0].face != m.face if onto is not None else hom is None):
            # an outline off its card that no alignment bears out is a guess: a fan's top 6♣ outlined 19 px off
            # read 6♠ at 0.62, and aligned, 6♣ at 0.97 (tuning scene 2153); a 10♠ an arm cut off, outlined 52 px
            # off, read 9♠ at 0.68 and aligned to nothing (1593). Unknown, the edge search may find its card. On
            # the mat the card's true size holds its outline to it, and a loose fit is what covers it, or a face the
            # catalogue finds hard: one aligned to nothing stands (an A♦ 2 px off under a hand, read 0.61)
            m = replace(m, face=UNKNOWN)
        if m.face != UNKNOWN and quad.border < BROKEN and not self._sure(m) and self._checks < MAX_SNAPS:
            m, corners = self._checked_on_edges(frame, m, corners)
        if (m.face == UNKNOWN and hom is not None and m.distance <= self.catalog.settings.not_a_card
                and m.reached <= MAX_REACHED and self._face_searches < MAX_FACE_SEARCHES):
            # like a card (not a hand, not paper) and not under a hand: an outline in the wrong place, as a pile's
            # top card's is, a few mm along the cards under it: moved to where a face fits it (``_placed_by_face``).
            # Here only with the mat; without it, once a named card gives the true size (``_completed``): only
            # the card's true size keeps a half card from being moved to where half a face fits (a half 4♥ in a
            # row was named 2♥)
            self._face_searches += 1
            placed, moved = self._placed_by_face(frame, corners, m, hom)
            if placed is not m:
                own = self._found(m, corners, hom, zones, quad.border)
                return self._found(placed, moved, hom, zones, quad.border), own
        if m.distance > self.catalog.settings.not_a_card:
            return None, None  # like nothing in the deck: a white box, a sheet of paper, not a card
        return self._found(m, corners, hom, zones, quad.border), None

    def _checked_on_edges(self, frame: np.ndarray, m: Match, corners: np.ndarray) -> tuple[Match, np.ndarray]:
        """A broken outline named less surely than an edge guess must be, checked against its views moved onto the
        edges around it (``_checked``): a finger over an ace of clubs' corner bent its outline a pixel and it read
        the ace of spades at 0.59 (a pixel the other way, 0.43). Unknown when they disagree, and never overruled:
        what breaks a border-mask outline is often a neighbour, whose edges the views may be moved onto (on a pile
        a 2♣ read at 0.52 was overruled by a view that read 2♠ at 1.0)."""
        self._checks += 1
        checked = self._checked(m, corners, self._moved_onto_edges(frame, corners), overrule=False)
        return (replace(m, face=UNKNOWN), corners) if checked is None else checked

    @staticmethod
    def _apart(read: list[tuple[CardFound | None, CardFound | None]]) -> list[CardFound]:
        """The cards ``_read`` found; one a face search moved onto another named card (their outlines claim one
        card) as its own outline read it: the search places its outline's card, it never takes another's place (a
        60%-covered 7♥ in a row, named, lost its place to an outline moved 14 mm onto it and read 3♥)."""
        cards = [card for card, _ in read if card is not None]
        return [own if own is not None and on_named(card.corners, cards, besides=card) else card
                for card, own in read if card is not None]

    def _placed_by_face(
        self, frame: np.ndarray, corners: np.ndarray, m: Match, hom: np.ndarray
    ) -> tuple[Match, np.ndarray]:
        """An outline the catalogue cannot name, moved at the card's true size (``hom``: the mat's, or the plane a named
        card lays out, ``_completed``) to where a face fits it closest: the top card of a pile, whose white border runs
        on into the cards under it, is often found a few millimetres along them. A pattern search over position and
        angle on the table, scored by the closest face's fit (``Catalog.nearest``: each step's moves at once). Named as
        a card the border lines is (the catalogue's own verdict) if the face fits closely (``_close``), and only when
        no view fits another face closely and nearly as closely (``RIVAL_FIT``): a lucky view of a neighbour must not
        count, but a view half off a low pip card, fitting a plainer face of its suit less well than the card's own
        fits where the search settles, is no rival. Else the outline's own verdict."""
        close = EDGE_DISTANCE * self.catalog.settings.max_distance
        here, fit = corners, m.distance
        seen = {m.best: m.distance} if self._close(m) else {}  # the faces some view fits closely, each's best fit
        for step_mm, step_deg in FACE_STEPS:
            for _ in range(FACE_MOVES):
                around = card_moves(here, hom, self.card_mm, step_mm, step_deg)
                fits, faces = self.catalog.nearest([warp_card(frame, q) for q in around])
                for face, d in zip(faces, fits, strict=True):
                    if d <= min(close, seen.get(face, close)):
                        seen[face] = float(d)
                k = int(np.argmin(fits))
                if fits[k] >= fit:
                    break
                here, fit = around[k], float(fits[k])
        lo = darkest_channel(frame)
        here = refine_edges(lo, here)  # onto the card's own edges, to a fraction of a pixel
        named = self.catalog.match(warp_card(frame, here))
        rivals = [d for face, d in seen.items() if face != named.face and d <= RIVAL_FIT * named.distance]
        if named.face != UNKNOWN and self._close(named) and not rivals:
            return named, here
        return m, corners

    def _fitted_at_named_size(
        self,
        view: View,
        mask: np.ndarray,
        edges: np.ndarray,
        cards: list[CardFound],
        known: Sequence[np.ndarray],
        guides: list[CardFound],
    ) -> list[CardFound]:
        """Without the mat, ``cards`` with the cards the border mask shows beyond the named ones, fitted at the
        deck's true size as the named card nearest each such region lays it out (``plane_of``): the mask's
        known-size fit (``find_cards`` given a table), as on the mat. A pile's top card, whose border runs on into
        the cards under it, outlines no card-shaped region, but its sides are straight stretches of the pile's
        (tuning scene 350: a 3♥ on a pile on black cloth, two cards named apart from it). Unknown outlines are
        part of what is left to explain (a row outlined as one card). Only what the catalogue names is added: the
        rest of a pile fits lower cards, too little of each in view to tell (on the tuning seeds they were 27 more
        unknown cards in 300 frames, each a question at the table). Only outlines the named cards say have a
        card's size count (``_sized_as_named``). Without a named card there is no true size, and no fit; the
        ``guides`` (named cards beyond the view, ``_look``) say it too.

        On a patterned cloth the border mask takes in the cloth's white checks with the cards, but the ``edges``
        leave a pile's paper one region, cut from the checks (``edge_free``): its straight stretches are fitted too
        (up to ``MAX_FREE_REGIONS``, each at most ``FREE_CARDS`` cards large and clear of the view's edge: a plain
        table between the cards runs to it), and a card found so is named only as surely as an edge guess
        (``_sure``)."""
        named = [c for c in cards if c.face != UNKNOWN]
        guiding = [*named, *guides]
        if not guiding:
            return cards
        blank = [np.round(o).astype(np.int32)  # with a border's rim
                 for o in [*(grow(c.corners, NAMED_EDGE_PX) for c in named), *view.kept_outlines(NAMED_EDGE_PX)]]
        least = view.detect.min_area * view.image.shape[0] * view.image.shape[1]
        card_px = max(cv2.contourArea(c.corners) for c in guiding)
        regions = [(region, centre, False) for region, centre in
                   _regions(_blanked(mask, blank), least, np.inf)[:MAX_FITTED_REGIONS]]
        free = cv2.dilate(_blanked(edge_free(edges, view.image.shape), blank), np.ones((5, 5), np.uint8))
        regions += [(region, centre, True) for region, centre in
                    _regions(free, least, FREE_CARDS * card_px, inside=True)[:MAX_FREE_REGIONS]]
        added: list[CardFound] = []
        sized = self._sized_as_named(guiding)
        for region, centre, unbordered in regions:
            guide = nearest_card(guiding, centre)
            for quad in find_cards(view.image, view.detect, sized,
                                   (plane_of(guide.corners, self.card_mm), self.card_mm), region, known):
                if any(overlaps(quad.corners, c.corners) for c in [*cards, *added]):
                    continue
                card, _ = self._read(view.image, quad, region, None, view.zones)
                if card is not None and card.face != UNKNOWN and (not unbordered or self._sure(card)):
                    added.append(card)
        return cards + added

    def _completed(
        self,
        frame: np.ndarray,
        cards: list[CardFound],
        unnamed: Moved,
        zones: dict[str, np.ndarray],
        guides: Sequence[CardFound] = (),
    ) -> list[CardFound]:
        """Without the mat, ``cards`` with the outlines the catalogue could not name (the unknown ones, and the edge
        search's ``unnamed`` ones) searched for as on the mat (``_placed_by_face``), at the deck's true size on the
        table's plane as the nearest named card lays it out (``plane_of``): a pile's or a fan's top card, whose
        paper runs on into the cards under it, is outlined a few mm off, or only in part. Without a named card in
        the frame there is no true size, and no search (at an outline's own scale it named a half 4♥ in a row
        2♥). A card is added only as the search names it, and as surely as an edge guess (``_sure``: a 9♣ on cream
        stock was named 9♠ at 0.57); unknown cards stay unknown. ``guides``: named cards beyond the view
        (``_look``), guides too."""
        guides = [c for c in [*cards, *guides] if c.face != UNKNOWN]
        if not guides:
            return cards
        unknown = [c.corners for c in cards if c.face == UNKNOWN]  # each like a card (``_read``)
        outlines = [(self.catalog.match(warp_card(frame, q), retry=False), q) for q in unknown]
        for rough, outline in [*outlines, *sorted(unnamed, key=lambda t: t[0].distance)]:
            if self._face_searches >= MAX_FACE_SEARCHES:
                break
            if rough.reached > MAX_REACHED or on_named(outline, cards) or _piece_of_named(outline, cards):
                continue
            self._face_searches += 1
            centre = outline.mean(axis=0)
            guide = nearest_card(guides, centre)
            plane = plane_of(guide.corners, self.card_mm)
            sized = card_sized(outline, plane, self.card_mm)  # a part of a card is never named as a whole one
            start = self.catalog.match(warp_card(frame, sized))
            m, corners = self._placed_by_face(frame, sized, start, plane)
            # ``start`` back: the search named nothing (a face the rectangle fits where it stands is no evidence);
            # a name is a guess, as an edge candidate's is: taken only as surely
            if m is start or not self._sure(m) or on_named(corners, cards):
                continue
            cards = [c for c in cards if not overlaps(corners, c.corners)]  # the unknown card it names
            cards.append(self._found(m, corners, None, zones, 0.0))
        return cards

    def _found(
        self, m: Match, corners: np.ndarray, hom: np.ndarray | None, zones: dict[str, np.ndarray], border: float
    ) -> CardFound:
        zone = self._zone(hom, corners, zones)
        corners = np.roll(corners, -2, axis=0) if m.upside_down else corners
        return CardFound(m.face, m.confidence, zone, corners, m.best, m.distance, border,
                         self._turn(hom, corners, zone, zones))

    def _from_edges(
        self,
        view: View,
        edges: np.ndarray,
        cards: list[CardFound],
        check: Callable[[np.ndarray], bool] | None,
        guides: list[CardFound],
        done: Callable[[list[CardFound]], bool],
    ) -> tuple[list[CardFound], Moved]:
        """``cards`` with the ones only edges outline added, until ``done`` says the cards found explain the frame
        (``_search_done``): where no card was named, a candidate the catalogue names confidently is a card (it
        replaces an unknown one there); its other verdicts are table texture or a part of a card, and are dropped.
        With them, the candidates that look like a card the catalogue cannot name (``_completed`` may search around
        them). ``guides``: named cards beyond the view that say the table's scale (``_look``). The candidates are
        ``_edge_candidates``, then ``_corner_candidates`` (a card is named from one of those only as its face's
        picture aligns onto it, or the catalogue names it at once)."""
        frame, hom, zones = view.image, view.hom, view.zones
        lo = darkest_channel(frame)
        snapped = 0
        unnamed: Moved = []
        named = [c.corners for c in cards if c.face != UNKNOWN]
        scales = self._scales([*cards, *guides])  # worked out again only when a card is added

        def planes() -> list[tuple[np.ndarray, np.ndarray]]:
            """Where the named cards lay out the table's plane: each card's centre and its map (``scale_of``), or
            the plane through them all (``_through``)."""
            through = self._through(scales)
            return [(card.corners.mean(axis=0), scale if through is None else through)
                    for card, scale in scales.values()]

        def taken(quad: np.ndarray) -> bool:
            """Whether an outline is a named card's, or a piece of one."""
            return on_named(quad, cards) or _piece_of_named(quad, cards)

        candidates = itertools.chain(((q, False, False) for q in self._edge_candidates(view, edges, check, named)),
                                     ((c.quad, True, c.crossed) for c in self._corner_candidates(view, planes, taken)))
        untaken = (c for c in (() if done(cards) else candidates) if not taken(c[0]))  # by the cards named so far
        for quad, completed, crossed in itertools.islice(untaken, MAX_EDGE_TRIES):
            corners = refine_edges(lo, quad) if self.detect.refine else quad
            # judged sharp: a rough outline the blurred references name at once would stand unaligned (a Q♥ on a
            # gingham, 3 px off, then set the table's scale for the pile beside it too roughly to fit its top card)
            m = self.catalog.match(warp_card(frame, corners), retry=False, soft=False)
            if crossed and m.reached < CROSSED_REACHED:
                continue  # half of another card, whose side lies across it (``edges._crossed``)
            at_once = m.confidence >= AT_ONCE
            twinned = at_once and self.catalog.has_twin(m.face, ALIGNED_TWINS)
            onto = None
            if not at_once or m.reached > 0 or twinned:
                to_table = hom  # on the mat, its own plane; without it, the named cards' nearest this outline
                if hom is None and (near := planes()):
                    to_table = nearest_plane(near, corners.mean(axis=0))
                onto = self._onto_face(frame, m, corners, to_table)
                if twinned and onto is None:
                    # an outline that aligns to nothing is no outline of the face it read: a 3♣ atop a small
                    # bridge pile, outlined 26 px off, read 3♠ at 1.0 (its twin's read is a guess)
                    continue
                if at_once and onto is not None and onto[0].face == m.face:
                    # named at once, but something reaches in over its edge, or it has a twin: a strip of table
                    # along a side is an outline that far off, and a few px off, the marks that tell a club from
                    # the spade of its rank fall on other cells (a 2♣ on a gingham outlined 7 px wide read 2♠ at
                    # 1.0; aligned, 2♣ at 0.95; a 2♣ on white laminate outlined 7 px off read 2♠ at 0.97 with
                    # nothing reaching in: tuning scene 1881). The face its aligned outline reads stands; where it
                    # is the same face, the outline as found stands
                    onto = None
            if onto is not None:
                m, corners = onto
            elif not at_once and completed:
                # half its outline is a guess, so no edge around it says where the card is: only its face's picture,
                # aligned onto it. A 5♦ half under a pile's top 6♦ showed three sides, and the rectangle they gave,
                # half the 6♦'s pips, read 4♦ at 0.61 (tuning scene 791); aligned, it fit no face
                continue
            elif not at_once and snapped < MAX_SNAPS:  # a guess: looked at on the edges around it
                snapped += 1
                moved = self._moved_onto_edges(frame, corners)
                settled = self._checked(m, corners, moved) if self._sure(m) else self._snapped(m, corners, moved)
                if settled is None:
                    continue
                m, corners = settled
            if self._sure(m) and (hom is not None or self._sized_by(scales)(corners)):
                cards = [c for c in cards if not overlaps(quad, c.corners)]
                cards.append(self._found(m, corners, hom, zones, 0.0))
                scales = self._scales([*cards, *guides])
                if done(cards):
                    break
            elif m.distance <= self.catalog.settings.not_a_card:
                unnamed.append((m, corners))
        return cards, unnamed

    def _true(self, card: CardFound) -> bool:
        """Whether a named card's outline is true enough to give the table's scale (``GUIDE_MISFIT_MM``)."""
        return scale_of(card.corners, self.card_mm)[1] <= GUIDE_MISFIT_MM

    def _sized_as_named(self, cards: list[CardFound]) -> Callable[[np.ndarray], bool]:
        """Without the mat, a test whether an outline has the deck's size as the named card of ``cards`` nearest it
        gives the table's scale (``scale_of``; of those whose outlines are true within ``GUIDE_MISFIT_MM``), or no
        card is named to say: an edge candidate may be a strip of a row's card, and a strip with a column of pips
        fits a plainer face (tuning scene 814: the left half of a 4♥ read 2♥ at 0.64)."""
        return self._sized_by(self._scales(cards))

    def _sized_by(self, scales: dict[int, tuple[CardFound, np.ndarray]]) -> Callable[[np.ndarray], bool]:
        """``_sized_as_named`` with the named cards' planes worked out (``_scales``): where two or more are named,
        on the plane through them all (``plane_through``) when it explains them."""
        plane = self._through(scales)
        if plane is not None:
            return card_size_check(plane, self.card_mm)
        checks = {id(card): card_size_check(scale, self.card_mm) for card, scale in scales.values()}
        guides = [card for card, _ in scales.values()]

        def sized(corners: np.ndarray) -> bool:
            return not guides or checks[id(nearest_card(guides, corners.mean(axis=0)))](corners)

        return sized

    def _through(self, scales: dict[int, tuple[CardFound, np.ndarray]]) -> np.ndarray | None:
        """The table's plane through all the named cards of ``scales`` (``plane_through``), where two or more are
        named and it explains them."""
        if len(scales) < 2:
            return None
        maps = list(scales.values())
        return plane_through([card.corners for card, _ in maps], self.card_mm, maps[0][1])

    def _scales(self, cards: list[CardFound]) -> dict[int, tuple[CardFound, np.ndarray]]:
        """The named cards of ``cards`` whose outlines are true within ``GUIDE_MISFIT_MM``, each with the table's
        plane its outline lays out (``scale_of``), by the card's id."""
        out = {}
        for card in (c for c in cards if c.face != UNKNOWN):
            scale, misfit = scale_of(card.corners, self.card_mm)
            if misfit <= GUIDE_MISFIT_MM:
                out[id(card)] = (card, scale)
        return out

    def _edges_may_add(self, cells: np.ndarray, cards: list[CardFound]) -> bool:
        """Whether the edge search (``_from_edges``) may find anything the border mask's ``cards`` lack. Always,
        unless this camera's last search added nothing to the mask's cards, each card the mask found now is
        named (an edge candidate over a named card is never tried), and all that changed since that search (its
        frame's ``cells``) lies on those cards or at their edges: a card that lands on a trick and the border
        mask sees. A card the mask cannot see changes the frame where it lands outside them, as does one taken
        away. Skipped ``SEARCH_EDGES_EVERY`` frames in a row at most."""
        last = self._searched if self.follow else None
        if (last is None or last.added or last.skipped >= SEARCH_EDGES_EVERY or last.cells.shape != cells.shape
                or any(c.face == UNKNOWN for c in cards)):
            return True
        changed = changed_cells(cells, last.cells)
        if (changed & ~_cells_under([card.corners for card in cards], changed.shape)).any():
            return True
        last.skipped += 1
        return False

    def _search_done(
        self, cells: np.ndarray, view: View, known: Sequence[np.ndarray], edges: np.ndarray
    ) -> Callable[[list[CardFound]], bool]:
        """A test whether the edge search may stop with the cards (``view`` px) found so far: named cards lie over
        all that changed since this camera's last search (its frame's ``cells``), and cards over every card of the
        last frame read again (``known``: a card it no longer finds may have moved, or lie under what landed on
        it), and no card unknown lies where anything changed (one where nothing did, under a hand resting on the
        table, was searched for by the last search). A card played is most of what a watched frame searches for,
        and once it is named the rest of the search (the segments, the corners, each a few ms) would look at
        cards found already. Without a last search to compare with (``edges``: the view's ``edge_map``), once
        the named cards explain every edge (``_edges_explained``). Never when the search last ran to its end
        ``SEARCH_EDGES_EVERY`` frames ago (``EdgeSearch.skipped``): a card missed then may be found now."""
        last = self._searched if self.follow else None
        if last is None or last.cells.shape != cells.shape:
            return self._edges_explained(view, edges)
        if last.skipped >= SEARCH_EDGES_EVERY:
            return lambda cards: False
        changed = changed_cells(cells, last.cells)
        read_again = _cells_under([outline + view.origin for outline in known], changed.shape)

        def done(cards: list[CardFound]) -> bool:
            found = [*view.kept, *map(view.in_frame, cards)]
            named = _cells_under([c.corners for c in found if c.face != UNKNOWN], changed.shape)
            unknown = _cells_under([c.corners for c in found if c.face == UNKNOWN], changed.shape)
            unexplained = (changed & ~named) | (read_again & ~(named | unknown)) | (changed & unknown)
            return not unexplained.any()

        return done

    def _edge_candidates(
        self, view: View, edges: np.ndarray, check: Callable[[np.ndarray], bool] | None, named: list[np.ndarray]
    ) -> Iterator[np.ndarray]:
        """Where a face's art lies outside the cards ``named`` so far (``ArtIndex``: a patterned cloth hides a
        card's sides, a pile's top card's border runs on into the cards under it; neither hides its art) and the
        quads edges outline (``edge_quads``); without the mat then the outlines of the edge-free regions opened and
        of the frame's edges with fine texture smoothed away (``smooth_edge_map``), and outlines lined by straight
        segments (``line_quads``), each outline once. Each kind is looked for only when the search reaches it: one
        that has found what changed stops before the rest (``_search_done``). The art is searched first when the
        frame is read whole; in a window around a card played, after the edges' outlines, which mostly find it:
        SIFT took 7-57 ms of such a read, the outlines a few (the card played without the mat, 24.5 -> 12.6 ms),
        and the tuning piles and cards played were named the same."""
        frame, detect, no_mat = view.image, view.detect, view.hom is None
        kinds: list[Callable[[], list[np.ndarray]]] = [
            lambda: [q for q in self._by_art(view, edges, [*named, *view.kept_here]) if check is None or check(q)],
            lambda: edge_quads(edges, frame.shape, detect, check, opened=no_mat),
        ]
        if not view.whole:
            kinds.reverse()
        if no_mat:
            kinds += [lambda: edge_quads(smooth_edge_map(frame), frame.shape, detect, check),
                      lambda: line_quads(frame, detect)]
        out: list[np.ndarray] = []
        for quad in itertools.chain.from_iterable(kind() for kind in kinds):
            if not view.on_kept(quad) and not any(np.abs(quad - q).max() < SAME_OUTLINE for q in out):
                out.append(quad)
                yield quad

    def _corner_candidates(
        self,
        view: View,
        planes: Callable[[], list[tuple[np.ndarray, np.ndarray]]],
        taken: Callable[[np.ndarray], bool],
    ) -> Iterator[Completed]:
        """After the other edge candidates (``_edge_candidates``), outlines completed from some of a card's sides:
        from two meeting at a corner, at the card's true size where the table's plane is known (``corner_quads``;
        ``planes``: without the mat, the named cards'); where no card is named to say it, from three, the side
        between two square corners giving the card's size (``side_quads``). Worked out only when they are
        reached, so that the planes include those of the cards the edge search has named by then (often the only
        ones to give the table's scale). Only those some face fits at all (``CORNER_FIT``, a cheap first look at
        all at once): a rectangle drawn from square lines of a table's grain or of a court card's frame is tried
        otherwise. Not only those it fits closely (``_close``): a corner outline 2 px off a cream 10♥ on gingham
        fitted more loosely, and its face's picture, aligned onto it, named it (tuning scene 2394). ``taken``: the
        outlines of cards found already, left out before the most lined are kept (``edges.MAX_CORNERS``). Those a
        segment crosses come last, and are tried only where something reaches in over them (``CROSSED_REACHED``).
        On the mat (its plane gives the size), only when the frame is read whole: the border mask lines a card's
        paper there, and corners found a card it left unknown (a tuning cream 9♦, one of our own decks' cards),
        while in a window around a card played with hands resting they made the read 76 -> 178 ms."""
        if view.hom is not None and not view.whole:
            return
        near = planes() if view.hom is None else [(np.array(view.image.shape[1::-1], float) / 2, view.hom)]
        found = (corner_quads(view.image, view.detect, near, self.card_mm, taken) if near
                 else side_quads(view.image, view.detect, self.card_mm, taken))
        kept = [c for c in found if not view.on_kept(c.quad)]
        if kept:
            fits, _ = self.catalog.nearest([warp_card(view.image, c.quad) for c in kept])
            yield from (c for c, fit in zip(kept, fits, strict=True)
                        if fit <= CORNER_FIT * self.catalog.settings.max_distance)

    def _edges_explained(self, view: View, edges: np.ndarray) -> Callable[[list[CardFound]], bool]:
        """A test whether the cards named so far explain the view's ``edges``: none lie densely outside them and
        the mat's print (``search_boxes``, where the art search would look). A card has edges all over it (its
        outline, index, art): one the border mask missed, or left unknown, leaves them. On a clean mat, or a
        plain table, whose every card the border mask names, the edge search found nothing more and took a third
        of a first read's time; the tuning sets were named the same card for card without it."""
        searchable = self._searchable(view, edges)
        area = view.image.shape[0] * view.image.shape[1]

        def done(cards: list[CardFound]) -> bool:
            named = [c.corners for c in cards if c.face != UNKNOWN]
            return not search_boxes(searchable, view.image.shape, [*named, *view.kept_here],
                                    view.detect.min_area * area, view.frame_width)

        return done

    def _searchable(self, view: View, edges: np.ndarray) -> np.ndarray:
        """The view's ``edges`` a card may make: on the mat, less its print and what lies beyond it
        (``_print_edges``)."""
        return edges if view.hom is None else cv2.subtract(edges, self._print_edges(view.hom, view.image.shape))

    def _by_art(self, view: View, edges: np.ndarray, named: list[np.ndarray]) -> list[np.ndarray]:
        """Where a face's art lies outside the ``named`` cards (``ArtIndex.outlines``), card-shaped (the known-size
        ``check`` of the mat is the caller's); searched only where the view's ``edges`` (``edge_map``), but for
        the mat's own print, say something may lie (``search_boxes``). A window is searched as the whole frame
        would be (``View.frame_width``): at its own width, SIFT missed a pile's new top card on a gingham that the
        whole frame's search found."""
        frame = view.image
        area = frame.shape[0] * frame.shape[1]
        boxes = search_boxes(self._searchable(view, edges), frame.shape, named, view.detect.min_area * area,
                             view.frame_width)
        found = ArtIndex.of(self.catalog).outlines(frame, boxes, named, view.frame_width)
        return [portrait_order(q) for q in found if card_shaped(q, area, view.detect)]

    @cached_property
    def _mat_picture(self) -> np.ndarray:
        """The mat's print (``PRINT_PX_PER_MM``), drawn once: each window read registers it afresh."""
        assert self.locator is not None
        return mat_image(self.locator.layout, PRINT_PX_PER_MM)

    def _print_edges(self, hom: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        """The edges (``edge_map``) the mat's own print makes in a frame of ``shape`` that ``hom`` registers,
        widened by ``PRINT_SLACK``: its zones' lines, its markers, its lettering are not cards. With them all
        beyond ``MAT_REACH`` of the mat: a gingham around it is edges everywhere, and the art search, searching
        them, took half the time of a clean mat's frame on one. Kept while the mat lies still."""
        if self._print is None or not np.array_equal(self._print[0], hom) or self._print[1] != shape[:2]:
            assert self.locator is not None
            to_frame = np.linalg.inv(hom) @ np.diag([1 / PRINT_PX_PER_MM, 1 / PRINT_PX_PER_MM, 1.0])
            printed = cv2.warpPerspective(self._mat_picture, to_frame, (shape[1], shape[0]))
            slack = np.ones((2 * PRINT_SLACK + 1,) * 2, np.uint8)
            edges = cv2.dilate(edge_map(printed), slack)
            (w, h), r = (self.locator.layout.width, self.locator.layout.height), MAT_REACH * max(self.card_mm)
            near = to_mat(np.linalg.inv(hom), np.array([(-r, -r), (w + r, -r), (w + r, h + r), (-r, h + r)]))
            beyond = np.full_like(edges, 255)
            cv2.fillConvexPoly(beyond, np.round(near * edges.shape[1] / shape[1]).astype(np.int32), 0)
            self._print = (hom.copy(), shape[:2], edges | beyond)
        return self._print[2]

    def _onto_face(
        self, frame: np.ndarray, m: Match, corners: np.ndarray, to_table: np.ndarray | None = None
    ) -> tuple[Match, np.ndarray] | None:
        """An outline the catalogue names unsurely or not at all (``m``, like a card: an edge guess, an unknown
        border-mask outline) aligned to the picture of the face it fits best (``align.aligned``), and named there
        as surely as an edge guess must be (``_sure``). When the card there reads as another face, it is aligned
        once more, to that one, and kept only if it then reads as the face it was aligned to. None when nothing
        settles, the card is not named surely, or ``MAX_ALIGNS`` were made this frame. ``to_table``: the table's
        plane there (frame px -> mm), where the aligned outline's shape is judged (``align.aligned``). What reaches
        in over the card is left out of the alignment (``Match.reaching``). But a strip of table an outline takes in
        along a side counts as reaching in too: left out, it leaves an outline 15-20 px off nothing to align by, or
        lets it move further onto the table. One that aligns to nothing so, or is moved to where more of it is taken
        for something reaching in than before (and more than ``MAX_REACHED``), is aligned again on all of it (an A♥
        on grey laminate outlined 5 px past its foot, read best as the A♦, was moved 9 px further, 44% of it then
        "reaching in", and read A♦ at 0.75; aligned on all of it, A♥ at 1.0: held-out scene 203, found by session
        33's held-out run)."""
        if m.distance > self.catalog.settings.not_a_card:
            return None
        for _ in range(2):
            if self._aligns >= MAX_ALIGNS:
                return None
            self._aligns += 1
            face = self.catalog.reference(m.best, m.upside_down)
            moved, seen = self._aligned_to(frame, corners, face, to_table, m.reaching)
            if m.reached > 0 and (seen is None or seen.reached > max(m.reached, MAX_REACHED)):
                # what was left out was a strip of table, not something over the card: aligned on all of it
                moved, seen = self._aligned_to(frame, corners, face, to_table, None)
            if moved is None or seen is None:
                return None
            if seen.best == m.best:
                return (seen, moved) if self._sure(seen) else None
            m, corners = seen, moved
        return None

    def _aligned_to(
        self, frame: np.ndarray, corners: np.ndarray, face: np.ndarray, to_table: np.ndarray | None,
        reaching: np.ndarray | None,
    ) -> tuple[np.ndarray | None, Match | None]:
        """An outline aligned to a face's picture (``align.aligned``, ``reaching`` left out) and the catalogue's
        verdict there; (None, None) when it does not settle."""
        moved = aligned(frame, corners, face, self.detect.aspect, to_table, reaching)
        return (None, None) if moved is None else (moved, self.catalog.match(warp_card(frame, moved), retry=False))

    def _moved_onto_edges(self, frame: np.ndarray, corners: np.ndarray) -> Moved:
        """An outline's views moved onto the straight edges around it (``snap_to_edges``), each with its verdict;
        but a view mostly under something reaching in (``MAX_REACHED``) is no evidence, and is left out: the rest
        of it is too little to tell a face by (a view across half a 2♥ and the A♥ beside it, 42% of it taken for a
        hand, read 2♠ at 1.0)."""
        views = [(self.catalog.match(warp_card(frame, q), retry=False), q)
                 for q in snap_to_edges(frame, corners, self.detect.aspect)]
        return [(m, q) for m, q in views if m.reached <= MAX_REACHED]

    def _sure(self, m: Match | CardFound) -> bool:
        """Whether a guessed outline is named: the catalogue sure of its face and the face fitting closely."""
        return m.confidence >= EDGE_CONFIDENCE and self._close(m)

    def _close(self, m: Match | CardFound) -> bool:
        """Whether a guessed outline fits its closest face closely (``EDGE_DISTANCE``)."""
        return m.distance <= EDGE_DISTANCE * self.catalog.settings.max_distance

    def _snapped(self, m: Match, corners: np.ndarray, moved: Moved) -> tuple[Match, np.ndarray]:
        """An outline the catalogue cannot name (``m``), or its views ``moved`` onto the straight edges around it
        (``snap_to_edges``): the one the catalogue names most surely, when every view that fits some face closely
        (the rough one too) agrees which face is the closest: views that disagree (a slightly shifted ace of clubs
        can look like the ace of spades) are a guess, and several tries must not add up to a lucky one. Else the
        rough outline's verdict."""
        tries = [(m, corners), *moved]
        if len({t[0].best for t in tries if self._close(t[0])}) > 1:
            return tries[0]
        return max(tries, key=lambda t: t[0].confidence)

    def _checked(
        self, m: Match, corners: np.ndarray, moved: Moved, overrule: bool = True
    ) -> tuple[Match, np.ndarray] | None:
        """An outline the catalogue names, but not at once (``m``), against its views ``moved`` onto the
        straight edges around it: those name the card more surely than a rough outline can (a 2♥ outlined 12 px
        too wide read 2♦ at 0.63, on its edges 2♥ at 1.0; a 2♣ read 2♠ at 0.93). Named as the surest of them
        when they agree with it; overruled by them when they agree on another face and one is named at once
        (unless not to ``overrule``); None when they disagree otherwise. When no moved view names a face, the rough
        verdict, unless a view that fits some face closely fits best one unlike it (not its twin, ``TWINS``: a
        slightly shifted club fits the spade of its rank best): then the rough outline was a guess (a row's 9♦, 43%
        in view, read 4♠ at 0.46 from an outline that fit it at 0.012; a view on its edges fit the 4♦ at 0.006)."""
        named = [t for t in moved if self._sure(t[0])]
        faces = {t[0].face for t in named}
        surest = max(named, key=lambda t: t[0].confidence, default=None)
        if surest is None:
            disowned = any(self._close(t[0]) and self.catalog.difference(t[0].best, m.face) >= TWINS for t in moved)
            return None if disowned else (m, corners)
        if faces == {m.face}:
            return max(surest, (m, corners), key=lambda t: t[0].confidence)
        return surest if overrule and len(faces) == 1 and surest[0].confidence >= AT_ONCE else None

    def _on_what_shows(
        self,
        frame: np.ndarray,
        edges: np.ndarray,
        cards: list[CardFound],
        hom: np.ndarray | None,
        zones: dict[str, np.ndarray],
    ) -> list[CardFound]:
        """Each card another one lies on judged again on what is in view of it: named only when enough of it
        shows and what tells its face apart is in that part (half a 4 is not an ace). A card that a straight edge
        its face does not have crosses (``crossings``) lies under a card that was not found: what lies beyond the
        edge is not its own, and it keeps its face only if the rest tells that face (a 5♠ a third in view, read
        4♠ as if whole, is then unknown)."""
        out = []
        for card in cards:
            if card.face == UNKNOWN:
                out.append(card)
                continue
            tops = [o.corners for o in cards if o is not card and self._may_lie_on(o, card)
                    and self._lies_on(frame, edges, o, card)]
            view = warp_card(frame, card.corners)
            lines = crossing_lines(view, self._face_edges(card.face))
            if not tops and not lines:
                out.append(card)
                continue
            under = covered_cells(card.corners, tops)
            if lines:
                under |= beyond(lines)
            if under.mean() > 1 - MIN_VISIBLE:
                out.append(replace(card, face=UNKNOWN, confidence=0.0))
                continue
            m = self.catalog.match(view, retry=False, under=under)
            if lines and m.face != card.face:
                m = replace(m, face=UNKNOWN)
            out.append(self._found(m, card.corners, hom, zones, card.border))
        return out

    def _face_edges(self, face: str) -> np.ndarray:
        """The edges ``face``'s own picture has (``crossings.face_edges``), worked out once."""
        if face not in self._own_edges:
            self._own_edges[face] = face_edges(self.catalog.reference(face))
        return self._own_edges[face]

    def _lies_on(self, frame: np.ndarray, edges: np.ndarray, upper: CardFound, card: CardFound) -> bool:
        """Whether ``upper`` lies on ``card``: where both are named, the face that shows where they overlap is the
        upper one's (its reference fits there ``OVER_FIT`` times closer than the other's does); else, or when
        neither face shows there clearly, the one whose sides run along edges across the other (``lies_on``).
        Edges can mislead: a row card's outline found a few mm off runs along its neighbour's pips (tuning scene
        886: an 8♠ outlined 10 px off, read 3♠ at 0.74, was taken to lie on the 9♦ whose diamonds showed in the
        part they shared)."""
        above, below = _bounds(upper.corners), _bounds(card.corners)
        if (above[2:] <= below[:2]).any() or (below[2:] <= above[:2]).any():
            return False  # apart (the most pairs of a frame's cards): neither lies on the other
        if UNKNOWN not in (upper.face, card.face):
            mine, theirs = self._fit_under(frame, upper, card), self._fit_under(frame, card, upper)
            if mine is not None and theirs is not None:
                if mine * OVER_FIT <= theirs:
                    return True
                if theirs * OVER_FIT <= mine:
                    return False
        return lies_on(upper.corners, card.corners, edges)

    def _fit_under(self, frame: np.ndarray, card: CardFound, other: CardFound) -> float | None:
        """How closely ``card``'s face fits it where ``other`` overlaps it (mean over those cells), or None when
        they share fewer than ``MIN_OVERLAP_CELLS``."""
        shared = covered_cells(card.corners, [other.corners])
        if shared.sum() < MIN_OVERLAP_CELLS:
            return None
        return float(self.catalog.cell_fit(warp_card(frame, card.corners), card.face)[shared].mean())

    @staticmethod
    def _may_lie_on(upper: CardFound, card: CardFound) -> bool:
        """Whether ``upper`` may be a card lying on ``card``: not an outline the catalogue cannot name over a card
        it names surely from the whole of it (a face that shows whole is on top; such an outline is what shows of
        the cards under it, as on a Squirrels pile of cards laid half a card apart)."""
        return upper.face != UNKNOWN or card.confidence < WHOLE_SURE

    def _zones_for(self, size: tuple[int, int]) -> dict[str, np.ndarray]:
        """The drawn zones for pictures of ``size`` (scaled once if only the camera's resolution changed)."""
        if self.zones_drawn_on is None or not self.zones:
            return self.zones
        if self._fitted_zones is None or self._fitted_zones[0] != size:
            self._fitted_zones = (size, fit_to_frame(self.zones, self.zones_drawn_on, size))
        return self._fitted_zones[1]

    def _turn(self, hom: np.ndarray | None, corners: np.ndarray, zone: str, zones: dict[str, np.ndarray]) -> float:
        """How far the card is turned from upright for its zone's player: on the mat when it is registered (a
        zone's ``axis``), else in the picture against its drawn zone's upright direction (``upright_axes``: the
        picture's vertical outside any seat's zones)."""
        if hom is None or self.locator is None:
            if self._axes is None or self._axes[0] is not zones:
                self._axes = (zones, upright_axes(zones))
            return turn_from(long_axis(corners), self._axes[1].get(zone, 90.0))
        return turn_from(long_axis(to_mat(hom, corners)), self.locator.layout.axis_of(zone))

    def _zone(self, hom: np.ndarray | None, quad: np.ndarray, zones: dict[str, np.ndarray]) -> str:
        centre = quad.mean(axis=0)
        if hom is not None and self.locator is not None:
            x, y = to_mat(hom, centre[None])[0]
            return self.locator.layout.zone_at(float(x), float(y)) or TABLE
        for name, polygon in zones.items():
            if (
                cv2.pointPolygonTest(polygon.reshape(-1, 1, 2).astype(np.float32), tuple(map(float, centre)), False)
                >= 0
            ):
                return name
        return TABLE


def _blanked(mask: np.ndarray, outlines: list[np.ndarray]) -> np.ndarray:
    """``mask`` with the ``outlines`` (int32 px) filled in black."""
    out = mask.copy()
    for outline in outlines:
        cv2.fillConvexPoly(out, outline, 0)
    return out


def _regions(
    mask: np.ndarray, least: float, most: float, inside: bool = False
) -> list[tuple[np.ndarray, np.ndarray]]:
    """The connected regions of ``mask`` (slivers opened away) with ``least`` to ``most`` px, largest first (and
    when ``inside``, only those clear of the mask's edge): each as a mask of its own, with its centre."""
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    count, labels, stats, centres = cv2.connectedComponentsWithStats(mask)
    x, y, w, h, area = (stats[:, i] for i in range(5))
    clear = (x > 0) & (y > 0) & (x + w < mask.shape[1]) & (y + h < mask.shape[0])
    kept = sorted((k for k in range(1, count) if least <= area[k] <= most and (clear[k] or not inside)),
                  key=lambda k: -area[k])
    return [(np.where(labels == k, mask, 0).astype(np.uint8), centres[k]) for k in kept]


def _without_pieces(cards: list[CardFound]) -> list[CardFound]:
    """``cards`` but the unknown ones lying all but within a named one (``WITHIN``): a piece of that card (an
    outline of the border mask that stopped at a court's frame), not a card; two cards of one deck cannot lie so. A
    question about it at the table would be about nothing."""
    return [c for c in cards if c.face != UNKNOWN or not _piece_of_named(c.corners, cards)]


def _piece_of_named(outline: np.ndarray, cards: list[CardFound]) -> bool:
    """Whether an outline lies all but within (``WITHIN``) a named card of ``cards``: a piece of it, not a card."""
    return any(c.face != UNKNOWN and share_within(outline, c.corners) > WITHIN for c in cards)


def _cells_of(outline: np.ndarray, cell: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The ``colour_cells`` an outline (frame px) covers, each side moved out by a cell (its shadow), as a bool grid."""
    covered = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(covered, np.round(grow(outline.astype(np.float32), 2 * cell.max()) / cell).astype(np.int32), 1)
    return covered > 0


def _cells_under(outlines: list[np.ndarray], shape: tuple[int, ...]) -> np.ndarray:
    """The ``colour_cells`` (``CELL_PX`` each, a grid of ``shape``) any of the outlines (frame px) covers, as
    ``_cells_of`` counts them."""
    cell = np.full(2, float(CELL_PX))
    covered = np.zeros(shape, bool)
    for outline in outlines:
        covered |= _cells_of(outline, cell, shape)
    return covered


def _bounds(outline: np.ndarray) -> np.ndarray:
    """An outline's bounding box (x0, y0, x1, y1)."""
    return np.concatenate([outline.min(axis=0), outline.max(axis=0)])


def _cuts(box: np.ndarray, outline: np.ndarray) -> bool:
    """Whether a box (x0, y0, x1, y1) and a convex outline share any area."""
    x0, y0, x1, y1 = box
    return _meet(np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], np.float32), outline)


def _meet(outline: np.ndarray, other: np.ndarray) -> bool:
    """Whether two convex outlines share any area."""
    return cv2.intersectConvexConvex(outline.astype(np.float32), other.astype(np.float32))[0] > 0


def _within(inner: np.ndarray, outer: np.ndarray) -> bool:
    return bool(inner[0] >= outer[0] and inner[1] >= outer[1] and inner[2] <= outer[2] and inner[3] <= outer[3])
