"""The calibrated card catalogue: one reference crop per distinct face, and matching a seen card against it.

A card is compared as a small colour image, not as keypoints: plain pip cards have too few keypoints and
colour is often the only difference between two faces. Colour is made comparable across lighting by dividing
by the card's own brightest tones (its white border). Each reference is tried upright and upside down. Cells
that match *no* reference (a thumb, a glare spot) are left out of every comparison, so occlusion lowers the
evidence without favouring a wrong face. Confidence comes from the margin to the best *other* face.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np

from companion.games.decks import Deck, deck_from_ids, load_deck, load_deck_file
from companion.vision.observations import UNKNOWN

WARP = (72, 100)  # (w, h) px of the rectified card
FEATURE = (40, 56)  # (w, h) px compared
CELL = 4  # feature px per occlusion cell side
CHROMA_WEIGHT = 2.0
BLUR_LEVELS = (0.0, 0.7, 1.2)  # feature px: references are also kept blurred, as a soft frame sees them
FORMAT = 1
TWINS = 0.01  # faces whose references differ less than this (``Catalog.difference``) are told apart by small marks
POKER_MM = (63.0, 88.0)  # a card's size when nothing says otherwise


class CatalogError(ValueError):
    """A catalogue folder that cannot be used, saying why."""


@dataclass(frozen=True)
class Match:
    """The recogniser's verdict on one card: ``face`` is ``UNKNOWN`` when it is not sure."""

    face: str
    confidence: float
    best: str  # best-scoring face even when unsure (for confusion reports)
    distance: float
    upside_down: bool
    lead: float = 0.0  # how much closer the best face is than the next one (absolute)
    reaching: np.ndarray | None = field(default=None, compare=False, repr=False)  # the cells (``GRID``) under
    # something reaching in over its edge (``occluder_cells``), where the card's picture is not its face's

    @property
    def reached(self) -> float:
        """The share of the card under something reaching in over its edge."""
        return 0.0 if self.reaching is None else float(self.reaching.mean())


@dataclass(frozen=True)
class MatchSettings:
    max_distance: float = 0.016  # mean distance of the best-fitting 3/4 of the card beyond which it is not named
    not_a_card: float = 0.04  # beyond this distance a white quad is not reported at all (paper, a box lid)
    min_confidence: float = 0.45  # below this a card is unknown (tuned on seeds 0-319 to zero confident errors)
    occluded_share: float = 0.25  # at most this share of cells may be ignored as matching no reference
    cell_noise: float = 0.04  # a cell this close to some reference is never ignored (edges misalign a little)
    min_evidence: float = 0.2  # share of the difference between the two closest faces that must be in view
    # (a hand over one index and the pips leaves the big number; on seeds 0-319 no wrong best face scored > 0.07)
    ink: float = 0.1  # a reference's cell this far from its paper (mean squared feature distance) is its ink
    ink_fit: float = 0.08  # a seen cell this close to the reference's inked cell shows that ink
    min_ink_shown: float = 0.6  # share of the named face's ink in view that the card must show (foreign-art
    # tuning seeds 0-299: a half card, or table beside it, read as a face showed at most 0.4; true faces 0.76+ but 4)
    max_stray_ink: float = 0.04  # share of the face's paper in view that may show something else (the same
    # seeds: true faces at most 0.025)


WARP_CORNERS = np.array([(0, 0), (WARP[0] - 1, 0), (WARP[0] - 1, WARP[1] - 1), (0, WARP[1] - 1)], np.float32)


def warp_card(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The card inside ``quad`` (clockwise from its top-left) rectified to ``WARP`` px, onto ``WARP_CORNERS``."""
    return cv2.warpPerspective(frame, cv2.getPerspectiveTransform(quad.astype(np.float32), WARP_CORNERS), WARP)


def _small(card: np.ndarray, blur: float = 0.0) -> np.ndarray:
    small = cv2.resize(card, FEATURE, interpolation=cv2.INTER_AREA).astype(np.float32)
    return cv2.GaussianBlur(small, (0, 0), blur) if blur else small


GRID = (FEATURE[1] // CELL, FEATURE[0] // CELL)  # rows and columns of occlusion cells


def _cells(img: np.ndarray) -> np.ndarray:
    """An image at ``FEATURE`` px as (cells, pixels of a cell, channels), cells row by row."""
    rows, cols = GRID
    blocks = img[: rows * CELL, : cols * CELL].reshape(rows, CELL, cols, CELL, -1).transpose(0, 2, 1, 3, 4)
    return blocks.reshape(rows * cols, CELL * CELL, -1)


def cell_shares(mask: np.ndarray) -> np.ndarray:
    """The share of each cell (``GRID``, row by row) that a mask at ``FEATURE`` px (0 to 1 a px) covers."""
    rows, cols = GRID
    return mask[: rows * CELL, : cols * CELL].reshape(rows, CELL, cols, CELL).mean(axis=(1, 3)).ravel()


def cell_pixels(flags: np.ndarray) -> np.ndarray:
    """One flag per cell as a mask of ``FEATURE`` px."""
    return np.repeat(np.repeat(flags.reshape(GRID), CELL, 0), CELL, 1)


def features(card: np.ndarray, hidden: np.ndarray | None = None, *, blur: float = 0.0) -> np.ndarray:
    """A lighting-normalised opponent-colour image of a rectified card, flattened per occlusion cell.

    ``hidden`` (one flag per cell) leaves cells out of the white and contrast estimates: a hand or a glare spot
    over part of the card must not shift the rest. ``blur`` (feature px) softens a reference like a blurred frame.
    """
    small = _small(card, blur) if card.shape[:2] != FEATURE[::-1] or blur else card.astype(np.float32, copy=True)
    seen = np.ones(small.shape[:2], bool)
    if hidden is not None and not hidden.all():
        seen[: GRID[0] * CELL, : GRID[1] * CELL] = ~cell_pixels(hidden)
    return _normalised(small[None], seen)[0]


def _normalised(small: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """``features`` of K cards at once (K x ``FEATURE`` px, float), their lighting judged on the pixels ``seen``:
    (K, cells, feature values)."""
    white = np.percentile(small[:, seen], 92, axis=1)
    small = small / np.maximum(white, 8.0)[:, None, None, :]
    b, g, r = small[..., 0], small[..., 1], small[..., 2]
    lum = (b + g + r) / 3
    kept = lum[:, seen]  # glare and haze flatten contrast: restore it
    lum = (lum - kept.mean(axis=1)[:, None, None]) / (kept.std(axis=1)[:, None, None] + 0.05) * 0.3
    o1 = (r - g) * CHROMA_WEIGHT / 2
    o2 = (r + g - 2 * b) * CHROMA_WEIGHT / 4
    cards = np.stack([lum, o1, o2], axis=-1)
    return np.stack([_cells(card) for card in cards]).reshape(len(cards), GRID[0] * GRID[1], -1)


OCCLUDER_TOLERANCE = 0.14  # colour distance (share of the card's white) within which a pixel is the occluder
MIN_INK_CELLS = 4  # a reference with fewer inked cells than this has no ink to look for (a plain colour card)
RIM = np.pad(np.zeros((GRID[0] - 2, GRID[1] - 2), bool), 1, constant_values=True).ravel()  # the cells at the edge


def occluder_cells(small: np.ndarray, hidden: np.ndarray) -> np.ndarray:
    """Cells under something that reaches in over the card's edge (a hand, a sleeve), though they fit a face.

    A hand the colour of a fawn corgi fits that face's art wherever it covers it, so "fits no reference" misses
    it there. But a hand comes from outside the card: where a cell on the card's rim fits nothing and is not
    glare, the pixels of its colour connected to it are the same occluder, and are not evidence either.
    ``small`` is the card at ``FEATURE`` px, ``hidden`` the cells already found to fit no reference.
    """
    seeds = hidden & RIM
    if not seeds.any():
        return np.zeros_like(seeds)
    img = small / np.maximum(np.percentile(small, 92, axis=(0, 1)), 8.0)
    colours = np.median(_cells(img)[seeds], axis=1)
    colours = colours[colours.min(axis=1) < 0.85]  # a white cell there is glare, not a hand
    if not len(colours):
        return np.zeros_like(seeds)
    near = np.zeros(img.shape[:2], bool)
    for colour in colours:  # one at a time: the pixels x colours x channels at once took 4 ms of a window read
        near |= (np.abs(img - colour) < OCCLUDER_TOLERANCE).all(axis=2)
    _, labels = cv2.connectedComponents(near.astype(np.uint8), connectivity=4)
    reaching = np.setdiff1d(np.unique(labels[cell_pixels(seeds) & near]), [0])
    return _cells(np.isin(labels, reaching)).mean(axis=(1, 2)) >= 0.5


class References:
    """A catalogue's reference features at one blur level: (faces upright then upside down, cells, D)."""

    def __init__(self, features: np.ndarray) -> None:
        self.features = features
        self._by_cell = np.ascontiguousarray(features.transpose(1, 0, 2))  # (cells, references, D)
        self._squares = (features**2).sum(axis=2)  # (references, cells)

    def distances(self, f: np.ndarray) -> np.ndarray:
        """The mean squared difference between card features ``f`` (cells, D) and every reference, per cell:
        (references, cells). Worked out as |r|^2 - 2 r.f + |f|^2, one small matrix product per cell, ten times
        faster than the differences themselves and equal to them within float32's rounding."""
        dots = np.matmul(self._by_cell, f[:, :, None])[:, :, 0].T
        d = self._squares - 2 * dots + (f**2).sum(axis=1)
        return np.maximum(d, 0.0, out=d) / f.shape[1]


class Catalog:
    """Reference features for every face of a deck, upright and upside down."""

    def __init__(
        self,
        deck: Deck,
        crops: dict[str, np.ndarray],
        settings: MatchSettings | None = None,
        card_mm: tuple[float, float] = POKER_MM,
    ) -> None:
        missing = [f.id for f in deck if f.id not in crops]
        if missing:
            raise CatalogError(f"deck {deck.name}: no reference image for {', '.join(missing)}")
        self.deck = deck
        self.crops = crops
        self.settings = settings or MatchSettings()
        self.card_mm = card_mm  # the cards' width and height: what the detector's known-size fits use
        self.ids = [f.id for f in deck]
        self._levels = []  # references at each blur level: the first sharp, as calibrated
        for blur in BLUR_LEVELS:
            upright = [features(crops[i], blur=blur) for i in self.ids]
            flipped = [features(crops[i][::-1, ::-1], blur=blur) for i in self.ids]
            self._levels.append(References(np.stack(upright + flipped)))
        self._refs = self._levels[0]
        paper = np.median(self._refs.features, axis=1, keepdims=True)  # most of a card is its paper
        self._ink = ((self._refs.features - paper) ** 2).mean(axis=2) > self.settings.ink  # (2N, cells): the ink

    def __len__(self) -> int:
        return len(self.ids)

    def reference(self, face: str, upside_down: bool = False) -> np.ndarray:
        """The reference picture of ``face`` (``WARP`` px), turned the way a card read ``upside_down`` lies."""
        crop = self.crops[face]
        return crop[::-1, ::-1] if upside_down else crop

    def match(
        self, card: np.ndarray, retry: bool = True, under: np.ndarray | None = None, *, soft: bool = True
    ) -> Match:
        """Identify a rectified card (``WARP`` px, either way up).

        ``under`` flags the cells (``GRID``, row by row) that another card lying on this one covers: another
        face's art there is no evidence, and a face is named only if what tells it apart is in the rest.

        A card the sharp references name is judged at the blur the frame shows it with (``_as_soft``), unless
        not ``soft``: the sharp look also says how true the outline is. One they do not name is looked at again:
        with the cells no reference fits (a hand, a glare spot) left out of its lighting estimate, and against
        references blurred like a soft frame. Of those views the one where the best face fits closest is judged
        (the closest fit, not the most confident verdict, so that several tries do not add up to a lucky guess), if
        its closest face is the first look's: a view that fits another face closest is a guess too (a 2♥ outlined
        short, closest to the 2♥, read 2♦ at 0.51 against the most blurred references). ``retry=False`` skips that
        second look (for an outline the detector doubts: a blurred reference can fit a misaligned crop of the wrong
        face).
        """
        small = _small(card)
        f = features(small, under)
        first, hidden, d1 = self._judge(f, self._refs, under)
        reached = occluder_cells(small, hidden if under is None else hidden & ~under)
        covered = reached if under is None else reached | under
        if covered.any():  # something reaches in over the edge: what lies under it is no evidence either
            first, hidden, d1 = self._judge(f, self._refs, covered)
        first = replace(first, reaching=reached)
        if soft and first.face != UNKNOWN:
            first, hidden, d1 = self._as_soft(f, first, hidden, d1, covered if covered.any() else under)
        if not retry or first.face != UNKNOWN or first.distance > self.settings.not_a_card:
            return first
        if hidden.mean() > 0.8 * self.settings.occluded_share:
            return first  # hidden as much as allowed: too little left in view to look again
        clean = features(small, hidden)
        best = (d1, first)
        for refs in self._levels:
            m, _, d = self._judge(clean, refs, covered)
            if d < best[0]:
                best = (d, replace(m, reaching=first.reaching))
        return best[1] if best[1].best == first.best else first

    def _as_soft(
        self, f: np.ndarray, sharp: Match, hidden: np.ndarray, d1: float, covered: np.ndarray | None
    ) -> tuple[Match, np.ndarray, float]:
        """A card the sharp references name, judged against the references blurred as softly as the frame sees it:
        the level (``BLUR_LEVELS``) its face fits closest, when that is still the sharp look's face. A soft frame's
        card fits its sharp reference loosely and the next face nearly as loosely, and is named unsurely (a blurred
        4♥ on a gingham, outlined to the pixel, read 0.56 and went unnamed as an edge guess; at 0.7 px, 1.0). Only
        when the face leads the next one there by more than its own misfit (``Match.lead`` >= ``distance``): a
        blur wipes the small marks that tell a club from the spade of its rank, and a lead within the misfit is
        noise (on the tuning scenes, a 2♥ outlined 7 px off read 2♦ at 0.52 sharp and 0.99 blurred, leading by
        0.0041 at a misfit of 0.0042)."""
        out = (sharp, hidden, d1)
        for refs in self._levels[1:]:
            m, h, d = self._judge(f, refs, covered)
            if d < out[2] and m.best == sharp.best and m.lead >= d:
                out = (replace(m, reaching=sharp.reaching), h, d)
        return out

    def cell_fit(self, card: np.ndarray, face: str) -> np.ndarray:
        """How closely each cell (``GRID``, row by row) of a rectified card, upright as read, fits ``face``'s
        reference (mean squared feature distance, as ``match`` weighs it)."""
        return self._refs.distances(features(_small(card)))[self.ids.index(face)]

    def nearest(self, cards: Sequence[np.ndarray]) -> tuple[np.ndarray, list[str]]:
        """A cheap first look at many rectified cards at once: for each, how closely the face that fits it best
        fits (mean distance over its best-fitting 3/4 of cells, as ``Match.distance``), and which face that is.
        No second look, no occluder: for a search over where a card lies, which ``match`` then judges."""
        smalls = np.stack([_small(card) for card in cards])
        cell_d = np.stack([self._refs.distances(f) for f in _normalised(smalls, np.ones(smalls.shape[1:3], bool))])
        kept = int(cell_d.shape[2] * (1 - self.settings.occluded_share))
        fit = np.partition(cell_d, kept - 1, axis=2)[..., :kept].mean(axis=2)  # (K, 2N)
        best = np.argmin(fit, axis=1)
        return fit[np.arange(len(best)), best], [self.ids[b % len(self.ids)] for b in best]

    def _judge(
        self, f: np.ndarray, refs: References, covered: np.ndarray | None = None
    ) -> tuple[Match, np.ndarray, float]:
        """The verdict on card features ``f`` against one set of references, the cells left out as hidden
        (``covered`` ones too), and the best face's mean distance over the cells kept."""
        cell_d = refs.distances(f)  # (2N, cells)
        best_fit = cell_d.min(axis=0)  # a cell no reference fits is hidden (a thumb, glare), not evidence
        cap = np.sort(best_fit)[int(len(best_fit) * (1 - self.settings.occluded_share))]
        hidden = best_fit > max(cap, self.settings.cell_noise)
        if covered is not None:
            hidden |= covered
        keep = np.nonzero(~hidden)[0]
        in_view = len(keep) > 0
        if not in_view:  # all of it under a hand or another card: judged on all of it, and never named
            keep = np.arange(len(hidden))
        scores = cell_d[:, keep].mean(axis=1)
        n = len(self.ids)
        per_face = np.minimum(scores[:n], scores[n:])
        order = np.argsort(per_face)
        best = int(order[0])
        d1 = float(per_face[best])
        b = best + n * int(scores[n + best] < scores[best])
        if n > 1:
            second = int(order[1])
            s2 = second + n * int(scores[n + second] < scores[second])
            # where the card sits between the two references: 1 = exactly the best, 0 = halfway
            diff = ((refs.features[b] - refs.features[s2]) ** 2).mean(axis=1)
            gap = float(diff[keep].mean())
            lead = float(per_face[second]) - d1
            margin = lead / max(gap, 1e-9)
            # what tells the two apart must be in view: else a hidden corner index would be a coin toss
            if not in_view or diff[keep].sum() < self.settings.min_evidence * diff.sum():
                margin = 0.0
            if not self._shows_ink(b, cell_d[b], hidden):
                margin = 0.0
        else:
            margin, lead = 1.0, float("inf")
        # how well the best face fits where the card is in view: its worst cells may be under a thumb or glare
        fit = float(np.sort(cell_d[b])[: int(cell_d.shape[1] * (1 - self.settings.occluded_share))].mean())
        closeness = np.clip(2.0 - 2.0 * fit / self.settings.max_distance, 0.0, 1.0)
        confidence = float(np.clip(margin, 0.0, 1.0) * closeness)
        sure = confidence >= self.settings.min_confidence
        face = self.ids[best]
        return Match(face if sure else UNKNOWN, confidence, face, fit, b >= n, lead), hidden, d1

    def _shows_ink(self, b: int, cell_d: np.ndarray, hidden: np.ndarray) -> bool:
        """Whether the card's ink and reference ``b``'s agree where the card is in view: the face's pips, indices
        and art are there, not paper or table, and its paper is paper (no ink the face does not have).

        The closest face by the mean can be a mostly white one (a two) read from half a card and the table
        beside it, or an ace read from a strip of two cards whose upper one was not found; what is missing (the
        face's ink) or too much (the neighbour's) gives it away. A face with too little ink to judge (art in
        colour to its edges, no plain paper) is left to the margins to the other faces.
        """
        if self._ink[b].sum() < MIN_INK_CELLS:
            return True
        s = self.settings
        ink, paper = self._ink[b] & ~hidden, ~self._ink[b] & ~hidden
        shown = float((cell_d[ink] <= s.ink_fit).mean()) if ink.any() else 0.0
        stray = float((cell_d[paper] > s.ink_fit).mean()) if paper.any() else 0.0
        return shown >= s.min_ink_shown and stray <= s.max_stray_ink

    def closest_pairs(self, count: int = 3) -> list[tuple[str, str, float]]:
        """The ``count`` pairs of faces whose references differ least (either way up), closest first, with how
        much they differ (``difference``)."""
        d = self._differences
        i, j = np.triu_indices(len(self.ids), 1)
        order = np.argsort(d[i, j], kind="stable")[:count]
        return [(self.ids[i[k]], self.ids[j[k]], float(d[i[k], j[k]])) for k in order]

    def difference(self, a: str, b: str) -> float:
        """How much the references of faces ``a`` and ``b`` differ, either way up (mean squared feature distance:
        below ``TWINS`` the camera needs a clear view to tell them apart, as a club from the spade of its rank)."""
        return float(self._differences[self.ids.index(a), self.ids.index(b)])

    def has_twin(self, face: str, within: float) -> bool:
        """Whether another face's reference differs from ``face``'s by less than ``within`` (``difference``)."""
        others = np.delete(self._differences[self.ids.index(face)], self.ids.index(face))
        return bool(others.size) and float(others.min()) < within

    @cached_property
    def _differences(self) -> np.ndarray:
        """``difference`` between every two faces (N x N), worked out once."""
        n = len(self.ids)
        upright, flipped = self._refs.features[:n], self._refs.features[n:]
        return np.minimum(
            ((upright[:, None] - upright[None]) ** 2).mean(axis=(2, 3)),
            ((upright[:, None] - flipped[None]) ** 2).mean(axis=(2, 3)),
        )

    def confusions(self) -> list[tuple[str, str]]:
        """Faces the recogniser does not name from their own reference, turned either way and softened as a
        camera sees it: (face, the face it is taken for). Faces that look like themselves upside down (most
        playing cards) are no trouble; only a face read as another one, or not named at all, is."""
        out = []
        for face_id in self.ids:
            crop = self.crops[face_id]
            for view in (crop, crop[::-1, ::-1], cv2.GaussianBlur(crop, (0, 0), 1.0)):
                m = self.match(view)
                if m.face != face_id:
                    out.append((face_id, m.best if m.best != face_id else UNKNOWN))
                    break
        return out

    def contact_sheet(self, columns: int = 13) -> np.ndarray:
        """Every reference crop with its face id underneath, in a grid: what the catalogue learnt, at a glance."""
        w, h = WARP
        label = 16
        rows = -(-len(self.ids) // columns)
        sheet = np.full((rows * (h + label + 4), columns * (w + 4), 3), 255, np.uint8)
        for k, face_id in enumerate(self.ids):
            x, y = (k % columns) * (w + 4) + 2, (k // columns) * (h + label + 4) + 2
            sheet[y : y + h, x : x + w] = cv2.resize(self.crops[face_id], WARP, interpolation=cv2.INTER_AREA)
            cv2.putText(sheet, face_id[:11], (x, y + h + 12), cv2.FONT_HERSHEY_SIMPLEX, 0.36, (0, 0, 0), 1, cv2.LINE_AA)
        return sheet

    def save(self, folder: Path, spec: Path | None = None) -> None:
        """Write ``catalog.json`` and one rectified crop per face under ``faces/``."""
        (folder / "faces").mkdir(parents=True, exist_ok=True)
        for face_id, crop in self.crops.items():
            cv2.imwrite(str(folder / "faces" / f"{face_id}.png"), crop)
        meta = {
            "format": FORMAT,
            "deck": self.deck.name,
            "spec": str(spec) if spec else None,
            "warp": list(WARP),
            "card_mm": list(self.card_mm),
            "faces": {i: f"faces/{i}.png" for i in self.ids},
        }
        (folder / "catalog.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")


def load_catalog(folder: str | Path, settings: MatchSettings | None = None) -> Catalog:
    """Read a catalogue folder written by ``companion calibrate cards``."""
    folder = Path(folder)
    meta_path = folder / "catalog.json"
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CatalogError(f"{folder}: no catalog.json; build one with 'companion calibrate cards'") from None
    except json.JSONDecodeError as exc:
        raise CatalogError(f"{meta_path}: not valid JSON: {exc}") from None
    if meta.get("format") != FORMAT:
        raise CatalogError(f"{meta_path}: format {meta.get('format')!r} is not {FORMAT}; recalibrate")
    deck = _deck(meta, folder)
    crops = {}
    for face_id, rel in meta["faces"].items():
        img = cv2.imread(str(folder / rel), cv2.IMREAD_COLOR)
        if img is None:
            raise CatalogError(f"{folder / rel}: missing or unreadable reference crop")
        crops[face_id] = cv2.resize(img, WARP, interpolation=cv2.INTER_AREA)
    width, height = meta.get("card_mm", POKER_MM)  # catalogues from before sizes were measured: poker size
    return Catalog(deck, crops, settings, (float(width), float(height)))


def _deck(meta: dict, folder: Path) -> Deck:
    if meta.get("spec"):
        spec = Path(meta["spec"])
        return load_deck_file(spec if spec.is_absolute() else folder / spec)
    try:
        return load_deck(meta["deck"])
    except ValueError:
        return deck_from_ids(meta["deck"], list(meta["faces"]))
