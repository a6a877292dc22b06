"""Scenes with the variety real tables have: table tops, lamps, phone cameras, and cards as people lay them.

``random_scene`` (scene.py) scatters cards a hand's breadth apart on felt under neutral light: the world the
detector was tuned in. Here cards also lie in overlapping rows, fans and piles, on wood, laminate and cloth, under
warm and cool lamps, in dim and uneven light, seen through a phone-grade camera (noise that grows with gain,
JPEG). Everything is drawn from a seed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from companion.sim.render import card_size
from companion.sim.scene import CLOTHS, FRAME, Card, Look, Scene, hands_over, mat_outline, random_view
from companion.sim.tables import TABLES

SURFACES = (*TABLES, "green-felt", "black")  # the new table tops, and the plain cloths (the mat lies on any)
LAYOUTS = ("scatter", "row", "fan", "pile")
assert set(SURFACES) - set(TABLES) <= set(CLOTHS)


def kelvin_rgb(kelvin: float) -> np.ndarray:
    """The colour (R, G, B, 0-1) of a black body at ``kelvin``: a lamp's light (Tanner Helland's fit)."""
    t = kelvin / 100.0
    r = 1.0 if t <= 66 else 1.293 * (t - 60) ** -0.1332
    g = (0.3901 * math.log(t) - 0.6318) if t <= 66 else 1.1299 * (t - 60) ** -0.0755
    b = 1.0 if t >= 66 else 0.0 if t <= 19 else 0.5432 * math.log(t - 10) - 1.1962
    return np.clip(np.array([r, g, b]), 0.05, 1.0)


def lamp_cast(kelvin: float, correction: float) -> tuple[float, float, float]:
    """The per-channel gains (B, G, R) a camera leaves under a lamp of ``kelvin`` after its white balance has
    corrected ``correction`` (0-1) of the difference from daylight (5500 K)."""
    ratio = kelvin_rgb(kelvin) / kelvin_rgb(5500.0)
    residual = ratio ** (1.0 - correction)
    residual /= residual.mean()
    r, g, b = residual
    return float(b), float(g), float(r)


def real_look(rng: np.random.Generator, frame: tuple[int, int] = FRAME) -> Look:
    """Light and optics as a phone or a Pi camera over a real table sees them.

    A lamp between 2700 K and 6500 K that auto white balance corrects only in part (50-90 %), with a colour cast of
    up to ±20 % per channel in a third of the frames (±5 % otherwise); a dim room in a quarter of them; uneven
    light and vignetting; glare spots; blur; noise growing with brightness and gain; JPEG.
    """
    cast = np.array(lamp_cast(rng.uniform(2700, 6500), rng.uniform(0.5, 0.9)))
    spread = 0.2 if rng.random() < 1 / 3 else 0.05
    cast *= rng.uniform(1 - spread, 1 + spread, 3)
    glare = tuple(
        (rng.uniform(0, frame[0]), rng.uniform(0, frame[1]), rng.uniform(20, 80), rng.uniform(0.1, 0.5))
        for _ in range(rng.choice([0, 0, 1, 2]))
    )
    return Look(
        light_gain=float(rng.uniform(0, 0.4)),
        light_dir=float(rng.uniform(0, 360)),
        cast=(float(cast[0]), float(cast[1]), float(cast[2])),
        glare=glare,
        blur=float(rng.choice([0.0, rng.uniform(0.3, 1.5)])),
        motion=int(rng.choice([0, 0, 0, rng.integers(2, 5)])),
        motion_angle=float(rng.uniform(0, 180)),
        noise=float(rng.uniform(1, 4)),
        vignette=float(rng.uniform(0, 0.35)),
        exposure=float(rng.uniform(0.35, 0.6) if rng.random() < 0.25 else rng.uniform(0.8, 1.0)),
        shot_noise=float(rng.uniform(0.1, 0.6)),
        jpeg=int(rng.choice([0, rng.integers(55, 95)])),
    )


@dataclass(frozen=True)
class Setting:
    """Where the scene is: the table top, the mat (or none) and how the cards lie."""

    table: str
    mat: str | None
    layout: str
    hands: int


def _scatter(rng: np.random.Generator, deck: str, faces: list[str], area: np.ndarray, mat: bool) -> list[Card]:
    """Cards strewn over the area, a little apart (a card with no room left is left out)."""
    (x0, y0), (x1, y1) = area[0], area[2]
    w, h = card_size(deck)
    cards: list[Card] = []
    for face in faces:
        for _ in range(200):
            x, y = rng.uniform(x0 + w / 2 + 5, x1 - w / 2 - 5), rng.uniform(y0 + w / 2 + 5, y1 - w / 2 - 5)
            clear_of_markers = not mat or all(math.hypot(x - a, y - b) > 115 for a, b in area)
            if clear_of_markers and all(math.hypot(x - c.x, y - c.y) > 1.15 * h for c in cards):
                cards.append(Card(deck, face, float(x), float(y), float(rng.uniform(0, 360))))
                break
    return cards


def _row(rng: np.random.Generator, deck: str, faces: list[str], centre: np.ndarray) -> list[Card]:
    """A row of cards each lying over the last, as in patience or a meld: each shows a strip of the one below."""
    w, _ = card_size(deck)
    step = w * rng.uniform(0.3, 0.7)
    a = math.radians(rng.uniform(0, 360))
    turn = float(rng.uniform(-10, 10))
    start = centre - (len(faces) - 1) / 2 * step * np.array([math.cos(a), math.sin(a)])
    cards = []
    for k, face in enumerate(faces):
        x, y = start + k * step * np.array([math.cos(a), math.sin(a)])
        cards.append(Card(deck, face, float(x), float(y), math.degrees(a) + turn))
    return cards


def _fan(rng: np.random.Generator, deck: str, faces: list[str], centre: np.ndarray) -> list[Card]:
    """A hand of cards laid down fanned: turned about a point below their bottom edges."""
    _, h = card_size(deck)
    base = rng.uniform(0, 360)
    spread = rng.uniform(8, 16)
    cards = []
    for k, face in enumerate(faces):
        angle = base + (k - (len(faces) - 1) / 2) * spread
        a = math.radians(angle)
        up = np.array([math.sin(a), -math.cos(a)])  # the card's up direction on the table
        x, y = centre + up * 0.4 * h
        cards.append(Card(deck, face, float(x), float(y), float(angle)))
    return cards


def _pile(rng: np.random.Generator, deck: str, faces: list[str], centre: np.ndarray) -> list[Card]:
    """A messy discard pile: each card dropped near the centre at any angle."""
    cards = []
    for face in faces:
        x, y = centre + rng.normal(0, 10, 2)
        cards.append(Card(deck, face, float(x), float(y), float(rng.uniform(0, 360))))
    return cards


def table_scene(rng: np.random.Generator, deck: str, faces: list[str], setting: Setting, look: Look) -> Scene:
    """``faces`` of ``deck`` laid out as ``setting.layout`` says over the mat (or the A3 area where it would lie):
    a row, fan or pile takes up to seven of them near the middle and the rest are scattered around it."""
    area = mat_outline(Scene(mat=setting.mat))
    centre = area.mean(axis=0) + rng.uniform(-40, 40, 2)
    group = 0 if setting.layout == "scatter" else min(len(faces), int(rng.integers(3, 8)))
    grouped = {"row": _row, "fan": _fan, "pile": _pile}
    cards = grouped[setting.layout](rng, deck, faces[:group], centre) if group else []
    loose = _scatter(rng, deck, faces[group:], area, setting.mat is not None)
    if group:  # scattered cards keep clear of the group
        _, h = card_size(deck)
        loose = [c for c in loose if math.hypot(c.x - centre[0], c.y - centre[1]) > 1.6 * h]
    cards = loose + cards  # the group last: drawn on top, its top card fully visible
    return Scene(
        cards=tuple(cards),
        hands=hands_over(rng, cards, setting.hands),
        cloth=setting.table,
        mat=setting.mat,
        view=random_view(rng),
        look=look,
        seed=int(rng.integers(2**31)),
    )


def lone_pile(rng: np.random.Generator, deck: str, faces: list[str], setting: Setting, look: Look) -> Scene:
    """A discard pile and nothing else on the table: ``faces`` of ``deck`` dropped one on another near the middle
    of the mat (or where it would lie), the last on top; no hands (the one that dropped it has gone). Its first
    cards alone are the pile as it grows (``replace(scene, cards=scene.cards[:count])``)."""
    centre = mat_outline(Scene(mat=setting.mat)).mean(axis=0) + rng.uniform(-40, 40, 2)
    return Scene(
        cards=tuple(_pile(rng, deck, faces, centre)),
        cloth=setting.table,
        mat=setting.mat,
        view=random_view(rng),
        look=look,
        seed=int(rng.integers(2**31)),
    )
