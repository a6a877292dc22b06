"""The printed play mat: its size, the ArUco markers at its corners and the labelled zones.

The geometry lives here, in millimetres on the mat, because three parties share it: the generator that prints
the mat, the recogniser that finds the markers each frame (so a bumped camera needs no recalibration) and the
synthetic renderer. Seats run clockwise from the bottom left as a player at seat 1 sees the mat.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

ARUCO_DICTIONARY = cv2.aruco.DICT_4X4_50
MARKER_IDS = (0, 1, 2, 3)  # top-left, top-right, bottom-right, bottom-left
CENTRE = "centre"

# Which seats a table of n players uses: opposite one another, so nobody reaches across a neighbour.
SEATS_FOR_PLAYERS = {2: (1, 4), 3: (1, 3, 5), 4: (1, 3, 4, 6), 5: (1, 2, 3, 4, 5), 6: (1, 2, 3, 4, 5, 6)}

# A3 layout in mm (x right, y down); A2 is the same layout scaled by sqrt(2).
_A3 = (420.0, 297.0)
_MARKER = 34.0
_MARGIN = 6.0
_A3_ZONES: dict[str, tuple[float, float, float, float]] = {  # name: (x0, y0, x1, y1)
    "seat-1": (46, 200, 206, 291),
    "seat-2": (6, 103, 100, 194),
    "seat-3": (46, 6, 206, 97),
    "seat-4": (214, 6, 374, 97),
    "seat-5": (320, 103, 414, 194),
    "seat-6": (214, 200, 374, 291),
    CENTRE: (130, 103, 290, 194),
}


@dataclass(frozen=True)
class Zone:
    """A labelled rectangle on the mat."""

    name: str
    x0: float
    y0: float
    x1: float
    y1: float

    def contains(self, x: float, y: float) -> bool:
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1

    @property
    def label(self) -> str:
        return "CENTRE PILE" if self.name == CENTRE else self.name.replace("-", " ").upper()


@dataclass(frozen=True)
class MatLayout:
    """One printable mat: paper size, marker squares and zones, all in mm."""

    name: str
    width: float
    height: float
    marker: float
    margin: float
    zones: tuple[Zone, ...]

    def marker_corners(self) -> dict[int, np.ndarray]:
        """Each marker's four corners (clockwise from its top-left) in mm, keyed by ArUco id."""
        m, g = self.marker, self.margin
        origins = [(g, g), (self.width - g - m, g), (self.width - g - m, self.height - g - m), (g, self.height - g - m)]
        return {
            mid: np.array([(x, y), (x + m, y), (x + m, y + m), (x, y + m)], dtype=np.float32)
            for mid, (x, y) in zip(MARKER_IDS, origins, strict=True)
        }

    def zone_at(self, x: float, y: float) -> str | None:
        """The zone holding the mat point (x, y) in mm, or ``None`` between zones / off the mat."""
        for zone in self.zones:
            if zone.contains(x, y):
                return zone.name
        return None


def mat_layout(size: str = "A3") -> MatLayout:
    """The layout for an ``A3`` or ``A2`` mat."""
    scales = {"A3": 1.0, "A2": math.sqrt(2.0)}
    if size not in scales:
        raise ValueError(f"mat size must be one of {', '.join(scales)}, not {size!r}")
    k = scales[size]
    zones = tuple(Zone(name, *(round(v * k, 1) for v in box)) for name, box in _A3_ZONES.items())
    return MatLayout(size, round(_A3[0] * k), round(_A3[1] * k), round(_MARKER * k, 1), round(_MARGIN * k, 1), zones)
