"""Build a card catalogue from reference pictures: one per distinct face, named by face id.

A reference may be a photo of the card lying on the table (the card is found and rectified) or an already
cropped scan; either way what is stored is the rectified crop, so the user can see exactly what was learnt.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.games.decks import Deck, deck_from_ids, deck_names, load_deck, load_deck_file
from companion.vision.catalog import POKER_MM, WARP, Catalog, CatalogError, warp_card
from companion.vision.detect import CARD_ASPECT, DetectSettings, Quad, find_cards, fit_quad, portrait_order

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".webp"}


CARD_SHAPES = (1.25, 1.75)  # long side / short side of a card, mini to tarot (a 16:9 photo, 1.78, is not one)
STANDARD_SIZES = {"poker": (63.0, 88.0), "bridge": (57.0, 89.0), "tarot": (70.0, 120.0)}  # width, height mm
SIZE_MATCH = 0.03  # an aspect this close to a standard size's is that size
BACKDROP_GAP = 0.03  # share of the picture's short side a backdrop shows around a loose scan, at least


@dataclass(frozen=True)
class Reference:
    """One face as calibration learnt it: the rectified card, and its shape in the picture (long / short)."""

    crop: np.ndarray
    aspect: float


def _backdrop(image: np.ndarray) -> np.ndarray | None:
    """The colour of a plain backdrop all around the picture's edge (a scanner lid, a cloth), else None."""
    rim = np.concatenate([image[:3].reshape(-1, 3), image[-3:].reshape(-1, 3),
                          image[:, :3].reshape(-1, 3), image[:, -3:].reshape(-1, 3)]).astype(np.float32)
    colour = np.median(rim, axis=0)
    return colour if np.percentile(np.abs(rim - colour).max(axis=1), 90) < 25 else None


def _card_on_backdrop(image: np.ndarray) -> np.ndarray | None:
    """The corners of the card lying on a plain backdrop that is not white: a loose scan, a photo on a cloth.

    A white backdrop is not used: around a card with a white border it is the art, not the card, that stands
    out from it.
    """
    colour = _backdrop(image)
    if colour is None or (colour.min() > 150 and np.ptp(colour) < 40):
        return None
    h, w = image.shape[:2]
    unlike = (np.abs(image.astype(np.float32) - colour).max(axis=2) > 40).astype(np.uint8) * 255
    unlike = cv2.morphologyEx(unlike, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(unlike, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    quad = fit_quad(hull)
    if quad is None or cv2.contourArea(quad) < 0.15 * h * w:
        return None
    gap = BACKDROP_GAP * min(h, w)  # closer to the edge it is a card's outline, not a backdrop around it
    if quad.min() < gap or (quad[:, 0] > w - 1 - gap).any() or (quad[:, 1] > h - 1 - gap).any():
        return None
    if cv2.contourArea(hull) < 0.9 * cv2.contourArea(quad) or not CARD_SHAPES[0] <= _aspect(quad) <= CARD_SHAPES[1]:
        return None
    return portrait_order(quad)


def _straighten(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The card inside ``quad`` at ``WARP`` px, straightened at its own resolution first and then shrunk by
    averaging, so that a sharp scan is not aliased (as ``warp_card`` straight to ``WARP`` would)."""
    short = max(WARP[0], round(min(np.hypot(*(quad[1] - quad[0])), np.hypot(*(quad[3] - quad[2])))))
    size = (short, round(short * WARP[1] / WARP[0]))
    dst = np.array([(0, 0), (size[0] - 1, 0), (size[0] - 1, size[1] - 1), (0, size[1] - 1)], np.float32)
    flat = cv2.warpPerspective(image, cv2.getPerspectiveTransform(quad.astype(np.float32), dst), size)
    return cv2.resize(flat, WARP, interpolation=cv2.INTER_AREA)


def _aspect(quad: np.ndarray) -> float:
    a = np.hypot(*(quad[1] - quad[0])) + np.hypot(*(quad[3] - quad[2]))
    b = np.hypot(*(quad[2] - quad[1])) + np.hypot(*(quad[0] - quad[3]))
    return float(max(a, b) / max(min(a, b), 1e-6))


def crop_reference(image: np.ndarray, aspect: float = CARD_ASPECT) -> Reference:
    """The rectified card in a reference picture, and its shape.

    A card on a plain, not white, backdrop (a loose scan, a photo on a cloth) is cut out of it; a picture shaped
    like a card is a scan of it (a landscape one of a portrait card turned a quarter clockwise); in any other
    picture (a photo on the table) the largest card found, shaped about like ``aspect``.
    """
    quad = _card_on_backdrop(image)
    if quad is not None:
        return Reference(_straighten(image, quad), _aspect(quad))
    h, w = image.shape[:2]
    if CARD_SHAPES[0] <= max(h, w) / min(h, w) <= CARD_SHAPES[1]:
        if w > h:
            image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
        return Reference(cv2.resize(image, WARP, interpolation=cv2.INTER_AREA), max(h, w) / min(h, w))
    quads = find_cards(image, DetectSettings(aspect=aspect, min_area=0.05, max_area=0.95))
    if not quads:
        raise CatalogError("no card found in the picture: photograph it alone on a dark cloth, or crop it")
    best = max((q.corners for q in quads), key=cv2.contourArea)
    return Reference(_straighten(image, best), _aspect(best))


def card_size(aspects: list[float]) -> tuple[float, float]:
    """A deck's card size (mm) from its cards' shapes: the standard size of that shape (poker, bridge, tarot),
    else poker height at the measured shape. (Mini cards are poker-shaped: give their size as ``card_mm``.)"""
    aspect = float(np.median(aspects))
    for width, height in STANDARD_SIZES.values():
        if abs(aspect / (height / width) - 1) <= SIZE_MATCH:
            return width, height
    return round(88.0 / aspect, 1), 88.0


def reference_images(folder: Path) -> dict[str, Path]:
    """Face id -> image file in a reference folder."""
    if not folder.is_dir():
        raise CatalogError(f"{folder}: not a folder of face images")
    return {p.stem: p for p in sorted(folder.iterdir()) if p.suffix.lower() in IMAGE_SUFFIXES}


def resolve_deck(name: str | None, folder: Path | None) -> tuple[Deck, Path | None]:
    """The deck ``name`` says: a spec file, a packaged deck, or (with a folder of pictures) a deck of one's own
    of that name, whose faces are the pictures' names; without a name, the folder's ``deck.toml``.

    The name is never taken from the folder: a folder called ``refs`` or ``photos`` says nothing about the deck,
    and the catalogue is saved under the deck's name.
    """
    if name and (name.endswith(".toml") or Path(name).is_file()):
        return load_deck_file(name), Path(name).resolve()
    if name and (folder is None or name in deck_names()):
        return load_deck(name), None
    if name and folder is not None:
        return deck_from_ids(name, list(reference_images(folder))), None
    if folder is None:
        raise CatalogError("say which deck (--deck NAME or a spec file) or give a folder of face images (--from)")
    spec = folder / "deck.toml"
    if spec.is_file():
        return load_deck_file(spec), spec.resolve()
    raise CatalogError(
        f"which deck are the pictures in {folder} of? Name it: --deck NAME (a packaged deck such as "
        f"{deck_names()[0]}, a deck spec file, or a name of your own; the catalogue is saved under it)"
    )


def catalog_from_folder(
    deck: Deck,
    folder: Path,
    progress: Callable[[int, int, str], None] | None = None,
    card_mm: tuple[float, float] | None = None,
) -> Catalog:
    """Read one image per face of ``deck`` from ``folder``; names must be exactly the face ids. The cards' size
    is ``card_mm`` when given, else measured from the pictures' shapes (``card_size``)."""
    images = reference_images(folder)
    unknown = sorted(set(images) - {f.id for f in deck})
    if unknown:
        raise CatalogError(f"{folder}: {', '.join(unknown)} are not faces of deck {deck.name}")
    refs: dict[str, Reference] = {}
    for k, face in enumerate(deck, 1):
        if face.id not in images:
            continue
        img = cv2.imread(str(images[face.id]), cv2.IMREAD_COLOR)
        if img is None:
            raise CatalogError(f"{images[face.id]}: not a readable image")
        try:
            refs[face.id] = crop_reference(img)
        except CatalogError as exc:
            raise CatalogError(f"{images[face.id]}: {exc}") from None
        if progress:
            progress(k, len(deck), face.id)
    size = card_mm or (card_size([r.aspect for r in refs.values()]) if refs else POKER_MM)
    return Catalog(deck, {i: r.crop for i, r in refs.items()}, card_mm=size)


def guided_capture(
    deck: Deck,
    frames: Iterator[np.ndarray],
    preview: Path,
    steady: int = 5,
    progress: Callable[[int, int, str], None] | None = None,
    find: Callable[[np.ndarray], list[Quad]] = find_cards,
    card_mm: tuple[float, float] = POKER_MM,
) -> Catalog:
    """Ask for each face in turn; a face is taken once one card has stayed still for ``steady`` frames.

    The crop of each captured face is written to ``preview`` so the user can check what was learnt. ``find``
    locates cards (by default without a mat; ``pipeline.card_finder`` uses the mat's markers).
    """
    crops: dict[str, np.ndarray] = {}
    for k, face in enumerate(deck, 1):
        if progress:
            progress(k - 1, len(deck), face.id)
        still, last, cleared = 0, None, k == 1
        for frame in frames:
            quads = find(frame)
            cleared = cleared or not quads  # the previous card must leave the view first
            if len(quads) != 1 or not cleared:
                still, last = 0, None
                continue
            centre = quads[0].corners.mean(axis=0)
            still = still + 1 if last is not None and np.hypot(*(centre - last)) < 3 else 0
            last = centre
            if still >= steady:
                crops[face.id] = warp_card(frame, quads[0].corners)
                cv2.imwrite(str(preview), crops[face.id])
                break
        else:
            raise CatalogError(f"the camera stopped before face {face.id} was captured")
        if progress:
            progress(k, len(deck), face.id)
    return Catalog(deck, crops, card_mm=card_mm)
