"""Build a card catalogue from reference pictures: one per distinct face, named by face id.

A reference may be a photo of the card lying on the table (the card is found and rectified) or an already
cropped scan; either way what is stored is the rectified crop, so the user can see exactly what was learnt.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np

from companion.games.decks import Deck, deck_from_ids, load_deck, load_deck_file
from companion.vision.catalog import WARP, Catalog, CatalogError, warp_card
from companion.vision.detect import CARD_ASPECT, DetectSettings, Quad, find_cards

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".webp"}


def crop_reference(image: np.ndarray, aspect: float = CARD_ASPECT) -> np.ndarray:
    """The rectified card in a reference picture: a picture shaped like a card is a scan of it; in any other
    picture (a photo of the card on the table) the largest card found."""
    h, w = image.shape[:2]
    if abs(max(h, w) / min(h, w) / aspect - 1) > 0.12:
        quads = find_cards(image, DetectSettings(aspect=aspect, min_area=0.05, max_area=0.95))
        if not quads:
            raise CatalogError("no card found in the picture: photograph it alone on a dark cloth, or crop it")
        return warp_card(image, max((q.corners for q in quads), key=cv2.contourArea))
    if w > h:  # a landscape scan of a portrait card
        image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
    return cv2.resize(image, WARP, interpolation=cv2.INTER_AREA)


def reference_images(folder: Path) -> dict[str, Path]:
    """Face id -> image file in a reference folder."""
    if not folder.is_dir():
        raise CatalogError(f"{folder}: not a folder of face images")
    return {p.stem: p for p in sorted(folder.iterdir()) if p.suffix.lower() in IMAGE_SUFFIXES}


def resolve_deck(name: str | None, folder: Path | None) -> tuple[Deck, Path | None]:
    """A packaged deck by name, a spec file path, ``deck.toml`` in the folder, or the folder's file names."""
    if name and (name.endswith(".toml") or Path(name).is_file()):
        return load_deck_file(name), Path(name).resolve()
    if name:
        return load_deck(name), None
    if folder is None:
        raise CatalogError("say which deck (--deck NAME or a spec file) or give a folder of face images (--from)")
    spec = folder / "deck.toml"
    if spec.is_file():
        return load_deck_file(spec), spec.resolve()
    return deck_from_ids(folder.name, list(reference_images(folder))), None


def catalog_from_folder(deck: Deck, folder: Path, progress: Callable[[int, int, str], None] | None = None) -> Catalog:
    """Read one image per face of ``deck`` from ``folder``; names must be exactly the face ids."""
    images = reference_images(folder)
    unknown = sorted(set(images) - {f.id for f in deck})
    if unknown:
        raise CatalogError(f"{folder}: {', '.join(unknown)} are not faces of deck {deck.name}")
    crops = {}
    for k, face in enumerate(deck, 1):
        if face.id not in images:
            continue
        img = cv2.imread(str(images[face.id]), cv2.IMREAD_COLOR)
        if img is None:
            raise CatalogError(f"{images[face.id]}: not a readable image")
        try:
            crops[face.id] = crop_reference(img)
        except CatalogError as exc:
            raise CatalogError(f"{images[face.id]}: {exc}") from None
        if progress:
            progress(k, len(deck), face.id)
    return Catalog(deck, crops)


def guided_capture(
    deck: Deck,
    frames: Iterator[np.ndarray],
    preview: Path,
    steady: int = 5,
    progress: Callable[[int, int, str], None] | None = None,
    find: Callable[[np.ndarray], list[Quad]] = find_cards,
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
    return Catalog(deck, crops)
