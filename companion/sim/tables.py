"""Table tops as procedural textures: wood, laminate, plain and patterned cloth.

A felt cloth is the easy case for finding white cards; real game nights happen on a light oak table, a white
laminate one, a gingham cloth. Each texture is deterministic from its name and size, so every process draws the
same table.
"""

from __future__ import annotations

import zlib

import cv2
import numpy as np

BGR = tuple[int, int, int]
WOODS: dict[str, tuple[BGR, BGR]] = {  # base, grain (BGR)
    "light-wood": ((125, 175, 215), (85, 130, 175)),
    "dark-wood": ((35, 60, 95), (20, 35, 60)),
}
LAMINATES: dict[str, BGR] = {"white-laminate": (222, 224, 226), "grey-laminate": (150, 155, 158)}
GINGHAMS: dict[str, BGR] = {"red-gingham": (50, 45, 190), "blue-gingham": (150, 90, 40)}
PRINTS: dict[str, tuple[BGR, BGR]] = {"floral-cloth": ((70, 40, 30), (110, 150, 200))}  # ground, flowers
TABLES = (*WOODS, *LAMINATES, *GINGHAMS, *PRINTS)


def _noise(rng: np.random.Generator, size: tuple[int, int], cell: int, sigma: float = 1.0) -> np.ndarray:
    """Smooth noise (float32, h x w) varying over about ``cell`` px."""
    w, h = size
    coarse = rng.normal(0, sigma, (h // cell + 2, w // cell + 2)).astype(np.float32)
    return cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC)


def _wood(size: tuple[int, int], px_per_mm: float, colours: tuple[BGR, BGR], rng: np.random.Generator) -> np.ndarray:
    """Planks along x, each with its own shade, grain lines bent by slow noise and fine streaks."""
    w, h = size
    base, grain = (np.array(c, np.float32) for c in colours)
    yy = np.mgrid[0:h, 0:w][0].astype(np.float32)
    plank = max(8, round(140 * px_per_mm))
    bend = _noise(rng, size, round(60 * px_per_mm), 6 * px_per_mm)
    rings = 0.5 + 0.5 * np.sin((yy + bend) * (2 * np.pi / (4.5 * px_per_mm)))
    streaks = cv2.resize(rng.normal(0, 1, (h, max(2, w // 40))).astype(np.float32), (w, h))
    t = np.clip(0.55 * rings**3 + 0.15 * streaks, 0, 1)[..., None]
    img = base * (1 - t) + grain * t
    shade = rng.uniform(0.88, 1.12, h // plank + 1).astype(np.float32)
    img *= np.repeat(shade, plank)[:h, None, None]
    img[(yy.astype(int) % plank) < max(1, round(0.6 * px_per_mm))] *= 0.55  # the gap between planks
    return img


def _laminate(size: tuple[int, int], px_per_mm: float, colour: BGR, rng: np.random.Generator) -> np.ndarray:
    w, h = size
    speckle = rng.normal(0, 3.0, (h, w)).astype(np.float32) + _noise(rng, size, round(20 * px_per_mm), 2.0)
    return np.array(colour, np.float32) + speckle[..., None]


def _gingham(size: tuple[int, int], px_per_mm: float, colour: BGR, rng: np.random.Generator) -> np.ndarray:
    """Checks of coloured stripes on white: half-tone where one stripe crosses, full colour where two do."""
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w]
    period = 24 * px_per_mm
    stripes = ((xx % period) < period / 2).astype(np.float32) + ((yy % period) < period / 2).astype(np.float32)
    white, ink = np.array((235, 238, 240), np.float32), np.array(colour, np.float32)
    img = white + (ink - white) * (0.5 * stripes)[..., None]
    weave = rng.normal(0, 4.0, (h, w)).astype(np.float32)
    return img + weave[..., None]


def _print(size: tuple[int, int], px_per_mm: float, colours: tuple[BGR, BGR], rng: np.random.Generator) -> np.ndarray:
    """Flowers (clusters of light petals) scattered over a dark ground."""
    w, h = size
    ground, petal = colours
    img = np.empty((h, w, 3), np.float32)
    img[:] = ground
    for _ in range(int(w * h / (55 * px_per_mm) ** 2)):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(5, 11) * px_per_mm
        for k in range(5):
            a = k * 2 * np.pi / 5 + rng.uniform(0, 1)
            centre = (int(cx + r * np.cos(a)), int(cy + r * np.sin(a)))
            axes = (int(r * 0.8), int(r * 0.45))
            cv2.ellipse(img, centre, axes, float(np.degrees(a)), 0, 360, petal, -1, cv2.LINE_AA)
        cv2.circle(img, (int(cx), int(cy)), int(r * 0.4), (40, 180, 220), -1, cv2.LINE_AA)
    return img + rng.normal(0, 3.0, (h, w, 1)).astype(np.float32)


def table_texture(name: str, size: tuple[int, int], px_per_mm: float) -> np.ndarray:
    """The table top ``name`` (one of ``TABLES``) as a BGR image of ``size`` (w, h) px."""
    rng = np.random.default_rng(zlib.crc32(f"{name}|{size}".encode()))
    if name in WOODS:
        img = _wood(size, px_per_mm, WOODS[name], rng)
    elif name in LAMINATES:
        img = _laminate(size, px_per_mm, LAMINATES[name], rng)
    elif name in GINGHAMS:
        img = _gingham(size, px_per_mm, GINGHAMS[name], rng)
    elif name in PRINTS:
        img = _print(size, px_per_mm, PRINTS[name], rng)
    else:
        raise ValueError(f"no table top named {name!r}; known: {', '.join(TABLES)}")
    return np.clip(img, 0, 255).astype(np.uint8)
