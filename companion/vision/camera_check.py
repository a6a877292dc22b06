"""Can the camera see well enough? One frame judged as the recogniser will need it: the mat found, the light's
level and colour, the focus, and a card's size in pixels, each problem with what to do about it.

``companion calibrate camera`` shows it live while a newcomer sets the camera up; the doctor reports it too. The
limits are the recogniser's measured ones (``light.py``, ``MIN_CARD_PX``; docs/vision-figures.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.vision.catalog import POKER_MM, CatalogError, load_catalog
from companion.vision.detect import DetectSettings, find_cards
from companion.vision.light import (
    MAX_CAST,
    MAX_EDGE_PX,
    MAX_PATTERN,
    MIN_LEVEL,
    NOTICEABLE_CAST,
    Issue,
    Light,
    light_on_paper,
)
from companion.vision.mat import mat_layout
from companion.vision.registration import MatLocator
from companion.vision.settings import CameraSettings

NO_CARD = "no card"  # the topic of a check that had nothing to measure a card's size on
# Measured (docs/vision-figures.md, "Where accuracy falls"): the long side a card needs in the frame. Our decks:
# all named at 72 px (at 1280x720 and at 640x360), 82% at 64; the published ones: 96% down to 71, 84% at 63, and
# misnamed with confidence at 55.
MIN_CARD_PX = 72.0
GOOD_WIDTH = 1280  # the picture width the recogniser is tuned and measured at


@dataclass(frozen=True)
class MatView:
    """What the frame showed of the configured mat."""

    name: str
    seen: tuple[int, ...]  # ids of the corner markers in view
    registered: bool  # enough of them to map the frame onto the mat

    @property
    def missing(self) -> list[int]:
        return [i for i in range(4) if i not in self.seen]


@dataclass(frozen=True)
class CameraCheck:
    """One frame judged: what was measured, the problems that break the promised accuracy (``problems``: by
    topic, mat, light or cards) and hints that do not."""

    size: tuple[int, int]  # width, height
    mat: MatView | None  # None: no mat configured
    light: Light
    card_px: float | None  # a card's long side in px, None when neither the mat nor a card showed it
    card_from: str  # how card_px was measured
    hom: np.ndarray | None = None  # frame px -> mat mm, when the mat was found
    problems: list[tuple[str, Issue]] = field(default_factory=list)
    hints: list[Issue] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def as_json(self) -> dict:
        mat = None if self.mat is None else {
            "name": self.mat.name, "registered": self.mat.registered, "markers": len(self.mat.seen),
            "missing": self.mat.missing,
        }
        card = None if self.card_px is None else round(self.card_px)
        return {
            "ok": self.ok,
            "frame": list(self.size),
            "mat": mat,
            "light": self.light.as_json(),
            "card_px": {"long_side": card, "measured_from": self.card_from or None, "needs": MIN_CARD_PX},
            "problems": [str(issue) for _, issue in self.problems],
            "hints": [str(issue) for issue in self.hints],
        }

    def summary(self) -> str:
        """The light and the cards' size in a line, for the doctor."""
        size = f"cards {self.card_px:.0f} px long" if self.card_px else "no card in view"
        return f"{self.light.summary()}; {size}"

    def lines(self) -> list[str]:
        """The check as a person reads it, one measurement a line, then the verdict and the advice."""
        light = self.light
        out = [f"  picture  {self.size[0]}x{self.size[1]}"]
        if self.mat is not None:
            state = "found" if self.mat.registered else "NOT found"
            out.append(f"  mat      {self.mat.name} {state}: {len(self.mat.seen)} of 4 corner markers in view")
        paper = "white card" if light.paper else "lightest thing in view (no card or mat)"
        out.append(f"  light    {paper} reads {light.level:.0f} of 255 (needs {MIN_LEVEL:.0f})")
        channels = " ".join(f"{k} {v:.2f}" for k, v in light.balance.items())
        tint = light.tint() if light.cast >= NOTICEABLE_CAST else "neutral"
        out.append(f"  colour   {tint}; {channels} (copes up to {MAX_CAST:g}x)")
        out.append(f"  focus    edges smeared over {light.edge_px:.1f} px (needs {MAX_EDGE_PX:g} or fewer)")
        if light.pattern is not None:
            out.append(f"  table    an edge on {light.pattern:.0%} of it (needs {MAX_PATTERN:.0%} or less)")
        size = f"{self.card_px:.0f} px long, from {self.card_from}" if self.card_px else "not measured"
        out.append(f"  cards    {size} (needs {MIN_CARD_PX:.0f})")
        if self.ok:
            out.append("  verdict  good enough: the camera can name cards here")
        else:
            out.append("  verdict  NOT good enough:")
            out += [f"    - {issue}" for _, issue in self.problems]
        out += [f"  hint: {issue}" for issue in self.hints]
        return out


def deck_card_mm(settings: CameraSettings, resolve: Callable[[str], Path] = Path) -> tuple[float, float]:
    """The deck's card size: ``[camera] card_mm``, else the calibrated catalogue's (``resolve``: the config's
    ``resolve``), else poker size."""
    if settings.card_size:
        return settings.card_size
    try:
        return load_catalog(resolve(settings.catalog) / settings.deck).card_mm
    except CatalogError:
        return POKER_MM


class CameraChecker:
    """Judges frames for the ``[camera]`` settings; ``card_mm`` is the deck's card size."""

    def __init__(self, settings: CameraSettings, card_mm: tuple[float, float]) -> None:
        self.locator = None if settings.mat == "none" else MatLocator(mat_layout(settings.mat))
        self.card_mm = card_mm
        self.layout = None if self.locator is None else self.locator.layout
        self.detect = DetectSettings(aspect=card_mm[1] / card_mm[0])

    def check(self, frame: np.ndarray) -> CameraCheck:
        height, width = frame.shape[:2]
        mat, hom = None, None
        if self.locator is not None:
            seen = self.locator.markers(frame)
            hom = self.locator.homography(seen)
            mat = MatView(self.locator.layout.name, tuple(sorted(seen)), hom is not None)
        fits = self.locator.card_check(hom, self.card_mm) if self.locator is not None and hom is not None else None
        quads = find_cards(frame, self.detect, fits)
        paper = [q.corners for q in quads]  # white paper to measure the light on: the cards, the mat's markers
        if self.locator is not None and hom is not None:
            paper += self.locator.marker_outlines(hom)
        light = light_on_paper(frame, paper, table=hom is None)
        if hom is not None:
            card_px, card_from = self._card_on_mat(hom), "the mat's scale"
        elif quads:
            card_px = float(np.median([_long_side(q.corners) for q in quads]))
            card_from = f"{len(quads)} card{'s' if len(quads) > 1 else ''} in view"
        else:
            card_px, card_from = None, ""
        check = CameraCheck((width, height), mat, light, card_px, card_from, hom)
        self._advise(check)
        return check

    @property
    def _min_markers(self) -> int:
        return self.locator.min_markers if self.locator is not None else 0

    def _card_on_mat(self, hom: np.ndarray) -> float:
        """The long side in px of a card lying in the middle of the mat."""
        assert self.locator is not None
        layout = self.locator.layout
        w, h = self.card_mm
        cx, cy = layout.width / 2, layout.height / 2
        card = np.array([(cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2), (cx + w / 2, cy + h / 2),
                         (cx - w / 2, cy + h / 2)], np.float64)
        return _long_side(cv2.perspectiveTransform(card.reshape(-1, 1, 2), np.linalg.inv(hom)).reshape(-1, 2))

    def _advise(self, check: CameraCheck) -> None:
        mat, light = check.mat, check.light
        if mat is not None and not mat.registered:
            check.problems.append(("mat", Issue(
                f"The mat is not in view: {len(mat.seen)} of its 4 corner markers seen, {self._min_markers} needed",
                f"put the printed {mat.name} mat under the camera with its corner squares in view, or set "
                '[camera] mat = "none" and draw the zones: companion calibrate zones')))
        elif mat is not None and mat.missing:
            check.hints.append(Issue(
                f"{len(mat.seen)} of the mat's 4 corner markers in view (missing {', '.join(map(str, mat.missing))})",
                "a hand over one more loses the mat: bring all four into view"))
        check.problems.extend(("light", issue) for issue in light.issues())
        if light.paper and NOTICEABLE_CAST <= light.cast <= MAX_CAST:
            check.hints.append(Issue(f"Light is {light.tint()}, within the {MAX_CAST:g}x the recogniser copes with",
                                     "a whiter lamp gives it more margin"))
        self._advise_size(check)

    def _advise_size(self, check: CameraCheck) -> None:
        width, height = check.size
        if check.card_px is None:
            check.problems.append((NO_CARD, Issue(
                "No card found to measure", "lay a card face up under the camera: its size and the light are "
                "measured on it (a card already there is too small or too dark to be found: lower the camera, "
                "light the table)")))
            return
        if check.card_px < MIN_CARD_PX:
            bigger = f"or use {GOOD_WIDTH}x720 ([camera] width and height)" if width < GOOD_WIDTH else "or zoom in"
            check.problems.append(("cards", Issue(
                f"Cards are {check.card_px:.0f} px long, the recogniser needs {MIN_CARD_PX:.0f}",
                f"lower the camera {bigger}")))
        elif check.card_px**2 / (self.card_mm[1] / self.card_mm[0]) > self.detect.max_area * width * height:
            check.problems.append(("cards", Issue(
                f"Cards are {check.card_px:.0f} px long, too big a part of the picture to be told from the table",
                "raise the camera so the whole table is in view")))


def _long_side(quad: np.ndarray) -> float:
    """The mean of a quad's two long sides."""
    a = (np.hypot(*(quad[1] - quad[0])) + np.hypot(*(quad[3] - quad[2]))) / 2
    b = (np.hypot(*(quad[2] - quad[1])) + np.hypot(*(quad[0] - quad[3]))) / 2
    return float(max(a, b))
