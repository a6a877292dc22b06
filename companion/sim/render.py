"""Synthetic card art for every deck, card backs and the play mat as a top-down image.

We have no scans of the real decks, so tests and benchmarks use faces drawn here from the deck specs. The art
deliberately includes the hard cases of real decks: faces that differ only by colour (PigzUp!, Crazy Corgi
suits and fur, Clash suits), numbers that turn into one another upside down (6/9), and plain pip cards. The
recogniser never sees this module: it learns from reference images like any user's photos.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from companion.games.decks import Deck, Face, load_deck

CARD_MM = (63.0, 88.0)  # poker size
CARD_PX = (252, 352)  # reference resolution: 4 px/mm

Colour = tuple[int, int, int]
PALETTE: dict[str, Colour] = {  # BGR
    "red": (40, 40, 210),
    "yellow": (30, 200, 235),
    "green": (60, 160, 40),
    "blue": (200, 110, 30),
    "purple": (150, 50, 130),
    "pink": (180, 130, 245),
    "earth": (40, 100, 130),
    "water": (190, 120, 20),
    "fire": (20, 70, 230),
    "wind": (170, 200, 90),
    "void": (90, 30, 60),
    "fawn": (90, 160, 225),
    "black": (35, 30, 30),
}
_NUMBER_HUES = [0, 18, 36, 54, 72, 90, 108, 126, 144, 162]
_SPECIES: dict[str, tuple[Colour, Colour]] = {  # fur, belly
    "eastern-gray": ((130, 130, 135), (220, 220, 225)),
    "fox": ((60, 110, 190), (120, 180, 230)),
    "red": ((30, 70, 170), (210, 230, 240)),
    "western-gray": ((160, 150, 150), (250, 250, 250)),
    "abert": ((80, 80, 90), (240, 240, 240)),
    "flying": ((90, 120, 150), (200, 225, 240)),
}
INK: Colour = (30, 30, 30)
PAPER: Colour = (245, 246, 244)
FONT = cv2.FONT_HERSHEY_DUPLEX


def hue_colour(hue: int, sat: int = 170, val: int = 225) -> Colour:
    """A BGR colour from an OpenCV hue (0-179)."""
    b, g, r = cv2.cvtColor(np.uint8([[[hue, sat, val]]]), cv2.COLOR_HSV2BGR)[0, 0]
    return int(b), int(g), int(r)


def text(img: np.ndarray, label: str, centre: tuple[int, int], height: int, colour: Colour, *, thick: int = 0) -> None:
    """Centred Hershey text of a given cap height; underlined when it could be read upside down (6, 9)."""
    scale = height / 22.0
    thick = thick or max(1, height // 7)
    (w, h), _ = cv2.getTextSize(label, FONT, scale, thick)
    org = (centre[0] - w // 2, centre[1] + h // 2)
    cv2.putText(img, label, org, FONT, scale, colour, thick, cv2.LINE_AA)
    if label in {"6", "9"}:
        y = org[1] + max(3, height // 6)
        cv2.line(img, (org[0], y), (org[0] + w, y), colour, thick, cv2.LINE_AA)


def _edge(img: np.ndarray) -> None:
    """The card's cut edge reads as a thin grey line, which is what separates two white cards on a pile."""
    contours, _ = cv2.findContours(card_mask(), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    cv2.drawContours(img, contours, -1, (150, 150, 150), 3, cv2.LINE_AA)


def _blank(panel: Colour) -> np.ndarray:
    w, h = CARD_PX
    img = np.full((h, w, 3), PAPER, np.uint8)
    _edge(img)
    inset = 18
    cv2.rectangle(img, (inset, inset), (w - inset, h - inset), panel, -1)
    return img


def _indices(img: np.ndarray, label: str, both: bool = True) -> None:
    """Corner indices: top-left always, bottom-right (upside down) on decks whose faces read either way."""
    w, h = CARD_PX
    box = np.full((56, 44, 3), PAPER, np.uint8)
    text(box, label, (22, 26), 26 if len(label) < 2 else 20, INK, thick=3)
    img[20:76, 20:64] = box
    if both:
        img[h - 76 : h - 20, w - 64 : w - 20] = box[::-1, ::-1]


def _corgi(img: np.ndarray, centre: tuple[int, int], fur: Colour, scale: float = 1.0) -> None:
    """A stylised corgi: body, head, ears, white chest; ``fur`` is what tells fawn from black."""
    cx, cy = centre
    s = scale
    cv2.ellipse(img, (cx, cy + int(20 * s)), (int(60 * s), int(34 * s)), 0, 0, 360, fur, -1, cv2.LINE_AA)
    cv2.circle(img, (cx - int(44 * s), cy - int(18 * s)), int(28 * s), fur, -1, cv2.LINE_AA)
    for dx in (-62, -30):
        tip = (cx + int(dx * s), cy - int(64 * s))
        base = [(cx + int((dx - 12) * s), cy - int(34 * s)), (cx + int((dx + 14) * s), cy - int(34 * s))]
        cv2.fillConvexPoly(img, np.array([tip, *base], np.int32), fur, cv2.LINE_AA)
    cv2.ellipse(img, (cx - int(30 * s), cy + int(18 * s)), (int(18 * s), int(22 * s)), 0, 0, 360, PAPER, -1)
    cv2.circle(img, (cx - int(52 * s), cy - int(22 * s)), max(2, int(4 * s)), INK, -1, cv2.LINE_AA)
    for dx in (-40, 30):
        cv2.rectangle(img, (cx + int(dx * s), cy + int(44 * s)), (cx + int((dx + 12) * s), cy + int(62 * s)), fur, -1)


def _pig(img: np.ndarray, centre: tuple[int, int], r: int) -> None:
    cx, cy = centre
    cv2.circle(img, centre, r, (170, 150, 250), -1, cv2.LINE_AA)
    cv2.circle(img, centre, r, INK, 2, cv2.LINE_AA)
    cv2.ellipse(img, (cx, cy + r // 4), (r // 2, r // 3), 0, 0, 360, (140, 110, 230), -1, cv2.LINE_AA)
    for dx in (-r // 5, r // 5):
        cv2.circle(img, (cx + dx, cy + r // 4), max(1, r // 10), INK, -1)
        cv2.circle(img, (cx + 2 * dx, cy - r // 3), max(1, r // 9), INK, -1)
    for dx in (-1, 1):  # ears point up: the card has a top
        ear = [(cx + dx * r // 2, cy - r + 4), (cx + dx * r, cy - r - r // 3), (cx + dx * (r - 2), cy - r // 3)]
        cv2.fillConvexPoly(img, np.array(ear, np.int32), (170, 150, 250), cv2.LINE_AA)


def _suit_symbol(img: np.ndarray, suit: str, centre: tuple[int, int], r: int) -> None:
    cx, cy = centre
    ink = PAPER
    if suit == "earth":
        pts = [
            (cx - r, cy + r // 2),
            (cx - r // 3, cy - r),
            (cx + r // 6, cy),
            (cx + r // 2, cy - r // 2),
            (cx + r, cy + r // 2),
        ]
        cv2.fillPoly(img, [np.array(pts, np.int32)], ink, cv2.LINE_AA)
    elif suit == "water":
        cv2.circle(img, (cx, cy + r // 3), int(r * 0.6), ink, -1, cv2.LINE_AA)
        cv2.fillConvexPoly(
            img,
            np.array([(cx, cy - r), (cx - int(r * 0.58), cy + r // 5), (cx + int(r * 0.58), cy + r // 5)], np.int32),
            ink,
        )
    elif suit == "fire":
        for k, f in enumerate((1.0, 0.6)):
            pts = [
                (cx, cy - int(r * f)),
                (cx + int(r * 0.7 * f), cy + int(r * 0.6 * f)),
                (cx - int(r * 0.7 * f), cy + int(r * 0.6 * f)),
            ]
            flame = np.array(pts, np.int32) + np.array([0, k * r // 4])
            cv2.fillConvexPoly(img, flame, ink if k == 0 else PALETTE["yellow"], cv2.LINE_AA)
    elif suit == "wind":
        for k in range(3):
            y = cy - r // 2 + k * r // 2
            cv2.ellipse(img, (cx - r // 4 * (k - 1), y), (r, r // 5), 0, 180, 360, ink, max(2, r // 7), cv2.LINE_AA)
    else:
        cv2.circle(img, centre, r, ink, max(3, r // 4), cv2.LINE_AA)
        cv2.circle(img, centre, r // 4, ink, -1, cv2.LINE_AA)


def _event_art(img: np.ndarray, event: str, centre: tuple[int, int]) -> None:
    cx, cy = centre
    if event == "baseball":
        cv2.circle(img, centre, 48, PAPER, -1, cv2.LINE_AA)
        for dx in (-1, 1):
            cv2.ellipse(
                img, (cx + dx * 62, cy), (30, 40), 0, 120 if dx > 0 else -60, 240 if dx > 0 else 60, (40, 40, 200), 4
            )
    elif event == "bones":
        cv2.line(img, (cx - 45, cy + 30), (cx + 45, cy - 30), PAPER, 16, cv2.LINE_AA)
        for ex, ey in ((cx - 45, cy + 30), (cx + 45, cy - 30)):
            for d in (-1, 1):
                cv2.circle(img, (ex + d * 8, ey + d * 8 if ex < cx else ey - d * 8), 13, PAPER, -1, cv2.LINE_AA)
    elif event == "fleas":
        rng = np.random.default_rng(7)
        for x, y in rng.integers(-55, 55, (22, 2)):
            cv2.ellipse(img, (cx + int(x), cy + int(y)), (6, 4), int(x * 7), 0, 360, INK, -1, cv2.LINE_AA)
    elif event == "collar":
        cv2.ellipse(img, centre, (52, 36), 0, 0, 360, (40, 40, 200), 14, cv2.LINE_AA)
        cv2.circle(img, (cx, cy + 44), 12, PALETTE["yellow"], -1, cv2.LINE_AA)
    else:
        cv2.ellipse(img, (cx, cy), (60, 40), 0, 0, 180, (200, 110, 30), -1, cv2.LINE_AA)
        cv2.ellipse(img, (cx, cy), (60, 14), 0, 0, 360, (120, 60, 20), -1, cv2.LINE_AA)


def _number_face(number: int, deck_style: int) -> np.ndarray:
    w, h = CARD_PX
    img = _blank(hue_colour((_NUMBER_HUES[number - 1] + deck_style) % 180))
    cv2.rectangle(img, (40, 80), (w - 40, h - 80), PAPER, -1)
    text(img, str(number), (w // 2, h // 2 - 10), 110, INK, thick=12)
    for k in range(number):  # pips along the bottom: count differs even where glyphs look alike
        cv2.circle(img, (58 + (k % 5) * 34, h - 120 + (k // 5) * 26), 9, hue_colour(_NUMBER_HUES[number - 1]), -1)
    _indices(img, str(number))
    return img


def _crazy(face: Face) -> np.ndarray:
    w, h = CARD_PX
    if face.kind == "corgi":
        img = _blank(PALETTE[str(face["color"])])
        cv2.circle(img, (w // 2, h // 2 + 20), 88, PAPER, -1, cv2.LINE_AA)
        _corgi(img, (w // 2 + 10, h // 2 + 10), PALETTE[str(face["fur"])], 0.95)
        text(img, str(face["number"]), (w // 2, 60), 56, PAPER, thick=7)
        for k in range(int(face["number"])):  # pips: the count reads at any size, unlike a small digit
            cv2.circle(img, (w // 2 + (k - 2) * 28, h - 46), 11, PAPER, -1, cv2.LINE_AA)
        _indices(img, str(face["number"]))
    elif face.kind == "wild":
        img = _blank(PAPER)
        for k, name in enumerate(("red", "yellow", "green", "blue", "purple")):
            cv2.rectangle(img, (18, 18 + k * 63), (w - 18, 18 + (k + 1) * 63), PALETTE[name], -1)
        text(img, "WILD", (w // 2, h // 2), 48, PAPER, thick=8)
        _indices(img, "W")
    else:
        img = _blank((110, 110, 40))
        _event_art(img, str(face["event"]), (w // 2, h // 2))
        text(img, str(face["event"]).upper(), (w // 2, h - 60), 26, PAPER, thick=3)
        _indices(img, "E")
    return img


def _squirrels(face: Face) -> np.ndarray:
    w, h = CARD_PX
    if face.kind == "number":
        return _number_face(int(face["number"]), 9)
    if face.kind == "squirrel":
        species = str(face["species"])
        fur, belly = _SPECIES[species]
        # each species its own pose, as each real card has its own illustration (two greys differ in shade only)
        pose = list(_SPECIES).index(species)
        img = _blank((90, 140, 70))
        art = np.full((h, w, 3), (90, 140, 70), np.uint8)
        tail = (w // 2 + 40, h // 2 - 10 + (pose // 2) * 25)
        cv2.ellipse(art, tail, (40, 90 - (pose // 2) * 15), 20 + pose * 28, 0, 360, fur, -1, cv2.LINE_AA)
        cv2.ellipse(art, (w // 2 - 20, h // 2 + 30), (45, 60), 0, 0, 360, fur, -1, cv2.LINE_AA)
        cv2.ellipse(art, (w // 2 - 30, h // 2 + 40), (22, 38), 0, 0, 360, belly, -1, cv2.LINE_AA)
        cv2.circle(art, (w // 2 - 30, h // 2 - 45), 30, fur, -1, cv2.LINE_AA)
        cv2.circle(art, (w // 2 - 40, h // 2 - 50), 5, INK, -1, cv2.LINE_AA)
        if pose % 2:
            art = art[:, ::-1]  # facing the other way
        img[78 : h - 78, 18 : w - 18] = art[78 : h - 78, 18 : w - 18]
        text(img, str(face["species"]).replace("-", " ").upper(), (w // 2, h - 50), 17, PAPER, thick=2)
        _indices(img, "S")
        return img
    colours = {"wild": (130, 40, 160), "push": (30, 120, 220), "skip": (40, 40, 190)}
    img = _blank(colours[face.kind])
    c = (w // 2, h // 2)
    if face.kind == "push":
        cv2.arrowedLine(img, (c[0] - 60, c[1]), (c[0] + 60, c[1]), PAPER, 18, cv2.LINE_AA, tipLength=0.45)
    elif face.kind == "skip":
        cv2.circle(img, c, 55, PAPER, 12, cv2.LINE_AA)
        cv2.line(img, (c[0] - 38, c[1] + 38), (c[0] + 38, c[1] - 38), PAPER, 12, cv2.LINE_AA)
    else:
        for k in range(8):
            cv2.ellipse(img, c, (70, 20), k * 22.5, 0, 360, hue_colour(k * 22), -1, cv2.LINE_AA)
    text(img, face.kind.upper(), (w // 2, h - 60), 30, PAPER, thick=4)
    _indices(img, face.kind[0].upper())
    return img


def _clash(face: Face) -> np.ndarray:
    w, h = CARD_PX
    suit = str(face["suit"])
    img = _blank(PALETTE[suit])
    label = {"ace": "A", "wild": "W"}.get(face.kind, str(face.get("rank")))
    _suit_symbol(img, suit, (42, 100), 18)  # the suit sits below the rank, as in the real deck
    if face.kind == "wild":
        cv2.rectangle(img, (50, 120), (w - 50, h - 70), (40, 40, 40), -1)
        _corgi(img, (w // 2 + 8, h // 2 + 10), (200, 200, 200), 0.8)
    elif face.kind == "ace":
        cv2.circle(img, (w // 2, h // 2 + 10), 70, (40, 180, 220), -1, cv2.LINE_AA)
        _suit_symbol(img, suit, (w // 2, h // 2 + 10), 45)
    else:
        _suit_symbol(img, suit, (w // 2, h // 2 + 40), 50)
        text(img, label, (w // 2, h // 2 - 50), 70, PAPER, thick=9)
    _indices(img, label)
    return img


def _pigzup(face: Face) -> np.ndarray:
    w, h = CARD_PX
    img = _blank(PAPER)
    cv2.rectangle(img, (18, 18), (w - 18, h // 2), PALETTE[str(face["color1"])], -1)
    cv2.rectangle(img, (18, h // 2), (w - 18, h - 18), PALETTE[str(face["color2"])], -1)
    n = int(face["number"])
    for k in range(n):
        _pig(img, (w // 2 - (n - 1) * 28 + k * 56, h // 2), 24)
    text(img, str(n), (w // 2, h // 2 - 80), 60, PAPER, thick=8)
    _indices(img, str(n), both=False)  # one index only: the card has an up, so slot 1 is the top colour
    return img


@cache
def render_face(deck_name: str, face_id: str) -> np.ndarray:
    """The reference image (BGR, ``CARD_PX``) of one face, as a user's flat photo of the card would look."""
    deck = load_deck(deck_name)
    face = deck.face(face_id)
    if deck_name == "corgi-pileup":
        img = _number_face(int(face["number"]), 0)
    elif deck_name == "crazy-corgi":
        img = _crazy(face)
    elif deck_name == "squirrels":
        img = _squirrels(face)
    elif deck_name == "clash-of-corgis":
        img = _clash(face)
    elif deck_name == "pigzup":
        img = _pigzup(face)
    else:
        raise ValueError(f"no synthetic art for deck {deck_name!r}")
    img.setflags(write=False)
    return img


@cache
def render_back() -> np.ndarray:
    """A card back: a dense two-tone lattice, as most backs are, so it is never mistaken for a face."""
    w, h = CARD_PX
    img = np.full((h, w, 3), PAPER, np.uint8)
    cv2.rectangle(img, (14, 14), (w - 14, h - 14), (120, 50, 30), -1)
    for k in range(-h, w + h, 22):
        cv2.line(img, (k, 14), (k + h, h + 14), (200, 140, 60), 3, cv2.LINE_AA)
        cv2.line(img, (k, 14), (k - h, h + 14), (200, 140, 60), 3, cv2.LINE_AA)
    cv2.rectangle(img, (14, 14), (w - 14, h - 14), PAPER, 6)
    _edge(img)
    img.setflags(write=False)
    return img


@cache
def card_mask(size: tuple[int, int] = CARD_PX) -> np.ndarray:
    """The card's outline with rounded corners (uint8 0/255, ``size`` px, read-only)."""
    w, h = size
    mask = np.zeros((h, w), np.uint8)
    r = 14
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for x, y in ((r, r), (w - 1 - r, r), (w - 1 - r, h - 1 - r), (r, h - 1 - r)):
        cv2.circle(mask, (x, y), r, 255, -1, cv2.LINE_AA)
    mask.setflags(write=False)
    return mask


@dataclass(frozen=True)
class CardArt:
    """One side of a card as the scene draws it: its picture, its shape (0/255, rounded corners) and its size."""

    image: np.ndarray  # BGR
    shape: np.ndarray  # uint8 mask, same size as ``image``
    size_mm: tuple[float, float]


ArtSource = Callable[[str | None], CardArt]  # face id (None: the back) -> art
_OTHER_ART: dict[str, ArtSource] = {}


def register_art(deck_name: str, source: ArtSource) -> None:
    """Let scenes draw a deck whose art is not drawn here (published decks fetched for a benchmark)."""
    _OTHER_ART[deck_name] = source


def card_art(deck_name: str, face_id: str | None) -> CardArt:
    """The art of one face (None: the back) of any deck a scene may hold: ours, or one registered."""
    if deck_name in _OTHER_ART:
        return _OTHER_ART[deck_name](face_id)
    return CardArt(render_back() if face_id is None else render_face(deck_name, face_id), card_mask(), CARD_MM)


def register_resized(deck_name: str, source_deck: str, card_mm: tuple[float, float]) -> None:
    """Our art for ``source_deck`` printed at another size (a bridge-size deck, say), drawn as ``deck_name``."""
    size = (round(card_mm[0] * CARD_PX[0] / CARD_MM[0]), round(card_mm[1] * CARD_PX[1] / CARD_MM[1]))

    def art(face_id: str | None) -> CardArt:
        image = render_back() if face_id is None else render_face(source_deck, face_id)
        return CardArt(cv2.resize(image, size, interpolation=cv2.INTER_AREA), card_mask(size), card_mm)

    register_art(deck_name, art)


def card_size(deck_name: str) -> tuple[float, float]:
    """A deck's card size (mm): poker size for ours."""
    return _OTHER_ART[deck_name](None).size_mm if deck_name in _OTHER_ART else CARD_MM


def write_reference_folder(deck: Deck, folder: str, art: str | None = None) -> list[str]:
    """One PNG per distinct face, named ``<face id>.png``: the input ``calibrate cards --from`` expects.
    ``art`` names the registered art to draw them with (default: the deck's own)."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    names = []
    for face in deck:
        cv2.imwrite(str(out / f"{face.id}.png"), card_art(art or deck.name, face.id).image)
        names.append(face.id)
    return names
