"""Standard 52-card decks whose art someone else drew, fetched from the npm registry for benchmarks and tests.

Our own renderer draws the decks the recogniser was tuned on; real decks are drawn by others. These packages
publish a whole deck's faces as pictures. Their art is never committed here: ``fetch_deck`` downloads the package
with ``npm pack`` into a cache folder (``~/.cache/tableside/decks``, or ``$TABLESIDE_DECK_CACHE``) and renders each
face once to a PNG at 4 px/mm; where that is not possible (no network, no ``npm``/``rsvg-convert``) it raises
``DeckUnavailable`` saying why, and callers skip.

Licences of the art (all allow this use; none of it is redistributed by this project):
- ``@younestouati/playing-cards-standard-deck`` 3.0.0: LGPL-3.0 (Younes Touati).
- ``svg-cards`` 4.0.2: LGPL-2.1 (David Bellot's SVG-cards).
- ``@letele/playing-cards`` 0.1.0: CC0-1.0 (Adrian Kennard's designs, as React components; ``jsx_svg.mjs`` turns
  them back into SVG with node, no React needed).

Variants stand in for decks a user may own: the same art cut to bridge size (57 x 89 mm, narrower), or printed on
cream stock (an old or ivory deck, whose border is not white).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from companion.games.decks import Deck, deck_from_ids
from companion.sim.render import CardArt, card_mask, register_art

RANKS = ("a", "2", "3", "4", "5", "6", "7", "8", "9", "10", "j", "q", "k")
SUITS = ("c", "d", "h", "s")
FACE_IDS = tuple(f"{rank}{suit}" for suit in SUITS for rank in RANKS)
PX_PER_MM = 4.0
FETCH_SECONDS = 120
CREAM = (200, 232, 246)  # BGR: the white of ivory card stock


class DeckUnavailable(RuntimeError):
    """A published deck that could not be fetched or rendered here, saying why (callers skip with it)."""


@dataclass(frozen=True)
class Package:
    """An npm package holding a deck's art, and where each face's picture is inside it."""

    name: str
    version: str
    licence: str
    kind: str  # "svg" pictures, "png" pictures, or "jsx": SVG as compiled React components

    def face_file(self, face_id: str | None) -> str:
        """The picture of a face (None: the back) inside the unpacked package."""
        rank, suit = (face_id[:-1], face_id[-1]) if face_id else ("", "")
        if self.name == "svg-cards":
            if face_id is None:
                return "png/2x/back.png"
            word = {"a": "1", "j": "jack", "q": "queen", "k": "king"}.get(rank, rank)
            return f"png/2x/{dict(c='club', d='diamond', h='heart', s='spade')[suit]}_{word}.png"
        if self.kind == "jsx":
            return "B1.svg" if face_id is None else f"{suit.upper()}{rank}.svg"
        if face_id is None:
            return "cards/back.svg"
        return f"cards/{dict(a='1', j='11', q='12', k='13').get(rank, rank)}{suit}.svg"


TOUATI = Package("@younestouati/playing-cards-standard-deck", "3.0.0", "LGPL-3.0", "svg")
SVG_CARDS = Package("svg-cards", "4.0.2", "LGPL-2.1", "png")
KENNARD = Package("@letele/playing-cards", "0.1.0", "CC0-1.0", "jsx")


@dataclass(frozen=True)
class ForeignDeck:
    """One deck as the benchmark uses it: a package's art at a card size, on a card stock."""

    name: str
    package: Package
    card_mm: tuple[float, float]
    stock: tuple[int, int, int] | None = None  # BGR of the paper where the art is white (None: white)

    @property
    def deck(self) -> Deck:
        return deck_from_ids(self.name, list(FACE_IDS))


FOREIGN_DECKS: dict[str, ForeignDeck] = {
    d.name: d
    for d in (
        ForeignDeck("touati", TOUATI, (63.0, 88.0)),
        ForeignDeck("touati-bridge", TOUATI, (57.0, 89.0)),
        ForeignDeck("svg-cards", SVG_CARDS, (61.0, 88.0)),  # the pictures' own shape: between poker and bridge
        ForeignDeck("kennard", KENNARD, (63.5, 88.9)),
        ForeignDeck("kennard-cream", KENNARD, (63.5, 88.9), CREAM),
    )
}


def cache_root() -> Path:
    return Path(os.environ.get("TABLESIDE_DECK_CACHE", Path.home() / ".cache" / "tableside" / "decks"))


def _run(args: list[str], cwd: Path) -> None:
    if shutil.which(args[0]) is None:
        raise DeckUnavailable(f"'{args[0]}' is not installed")
    try:
        done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=FETCH_SECONDS, check=False)
    except subprocess.TimeoutExpired:
        raise DeckUnavailable(f"'{' '.join(args)}' took over {FETCH_SECONDS} s (no network?)") from None
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["failed"])[-1]
        raise DeckUnavailable(f"'{' '.join(args)}': {last}")


def _unpacked(package: Package, root: Path) -> Path:
    """The package's files under the cache, fetched with ``npm pack`` the first time."""
    folder = root / "packages" / f"{package.name.replace('/', '+')}-{package.version}"
    if (folder / ".complete").is_file():
        return folder
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=root) as tmp:
        work = Path(tmp)
        _run(["npm", "pack", f"{package.name}@{package.version}", "--silent"], work)
        tarballs = list(work.glob("*.tgz"))
        if not tarballs:
            raise DeckUnavailable(f"npm pack {package.name}: no tarball")
        with tarfile.open(tarballs[0]) as tar:
            tar.extractall(work / "x", filter="data")
        files = work / "x" / "package"
        if package.kind == "jsx":
            script = Path(__file__).with_name("jsx_svg.mjs")
            _run(["node", str(script), str(files / "dist" / "index.esm.js"), str(files)], work)
        shutil.rmtree(folder, ignore_errors=True)
        folder.parent.mkdir(parents=True, exist_ok=True)
        files.rename(folder)
    (folder / ".complete").write_text("ok\n")
    return folder


def _size_px(card_mm: tuple[float, float]) -> tuple[int, int]:
    return round(card_mm[0] * PX_PER_MM), round(card_mm[1] * PX_PER_MM)


def _render(source: Path, out: Path, size: tuple[int, int]) -> None:
    """A picture (SVG or PNG) resized to ``size`` px, its shape in the alpha channel, written as PNG."""
    if source.suffix == ".svg":
        _run(["rsvg-convert", "-w", str(size[0]), "-h", str(size[1]), "-o", str(out), str(source)], out.parent)
        return
    img = cv2.imread(str(source), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise DeckUnavailable(f"{source}: not a readable picture")
    cv2.imwrite(str(out), cv2.resize(img, size, interpolation=cv2.INTER_AREA))


def fetch_deck(deck: ForeignDeck, root: Path | None = None) -> Path:
    """The folder of a deck's rendered pictures (``<face id>.png`` and ``back.png``, BGRA at 4 px/mm)."""
    root = root or cache_root()
    folder = root / deck.name / f"{_size_px(deck.card_mm)[0]}x{_size_px(deck.card_mm)[1]}"
    if (folder / ".complete").is_file():
        return folder
    files = _unpacked(deck.package, root)
    folder.mkdir(parents=True, exist_ok=True)
    for face_id in (*FACE_IDS, None):
        source = files / deck.package.face_file(face_id)
        if not source.is_file():
            raise DeckUnavailable(f"{deck.package.name}: no picture {source.name} for {face_id or 'the back'}")
        _render(source, folder / f"{face_id or 'back'}.png", _size_px(deck.card_mm))
    (folder / ".complete").write_text("ok\n")
    return folder


def _on_stock(img: np.ndarray, stock: tuple[int, int, int] | None) -> np.ndarray:
    """The art printed on a coloured stock: white becomes the stock, ink stays ink."""
    if stock is None:
        return img
    return np.clip(img.astype(np.float32) * (np.array(stock, np.float32) / 255.0), 0, 255).astype(np.uint8)


@cache
def _art(deck_name: str, folder: str, face_id: str | None) -> CardArt:
    deck = FOREIGN_DECKS[deck_name]
    img = cv2.imread(str(Path(folder) / f"{face_id or 'back'}.png"), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise DeckUnavailable(f"{folder}: no picture of {face_id or 'the back'}")
    size = (img.shape[1], img.shape[0])
    rounded = card_mask(size)
    if img.shape[2] == 4:  # the art's own shape, its corners rounded as a printed card's are
        alpha = img[..., 3:4].astype(np.float32) / 255.0
        bgr = img[..., :3].astype(np.float32) * alpha + 255.0 * (1 - alpha)  # transparent paper is paper
        shape = cv2.min(rounded, np.where(img[..., 3] > 0, 255, 0).astype(np.uint8))
        img = np.clip(bgr, 0, 255).astype(np.uint8)
    else:
        shape = rounded
    img = _on_stock(img, deck.stock)
    img.setflags(write=False)
    return CardArt(img, shape, deck.card_mm)


def use_deck(deck: ForeignDeck, root: Path | None = None) -> Path:
    """Fetch a deck and let scenes draw it (``Card(deck.name, face_id, ...)``); returns its picture folder."""
    folder = fetch_deck(deck, root)
    register_art(deck.name, lambda face_id: _art(deck.name, str(folder), face_id))
    return folder


def write_references(
    deck: ForeignDeck, pictures: Path, folder: Path, *, margin: float = 0.0, backdrop: int = 60
) -> list[str]:
    """One picture per face as a user would give ``calibrate cards --from``: a scan cropped to the card (its
    rounded corners show the scanner's ``backdrop`` grey), or with a ``margin`` (share of the card's width) of it
    around the card, as a loose scan is. ``pictures`` is the deck's folder from ``fetch_deck``."""
    folder.mkdir(parents=True, exist_ok=True)
    for face_id in FACE_IDS:
        art = _art(deck.name, str(pictures), face_id)
        alpha = art.shape.astype(np.float32)[..., None] / 255.0
        img = art.image.astype(np.float32) * alpha + backdrop * (1 - alpha)
        pad = round(margin * img.shape[1])
        img = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(backdrop,) * 3)
        cv2.imwrite(str(folder / f"{face_id}.png"), np.clip(img, 0, 255).astype(np.uint8))
    return list(FACE_IDS)
