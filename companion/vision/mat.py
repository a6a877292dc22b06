"""The printed play mat: its size, the ArUco markers at its corners and the labelled zones.

The geometry lives here, in millimetres on the mat, because three parties share it: the generator that prints
the mat, the recogniser that finds the markers each frame (so a bumped camera needs no recalibration) and the
synthetic renderer. Seats run clockwise from the bottom left as a player at seat 1 sees the mat.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

ARUCO_DICTIONARY = cv2.aruco.DICT_4X4_50
MARKER_IDS = (0, 1, 2, 3)  # top-left, top-right, bottom-right, bottom-left
CENTRE = "centre"
DISCARD = "discard"
KENNELS = 3  # Crazy Corgi: "You can create up to 3 piles of cards in front of you, called 'Kennels'."
KENNEL_GAMES = frozenset({"crazy-corgi"})  # games whose mat splits each seat into Kennels and the centre in two
LOOT = "loot"
# Clash of Corgis (Treasure Island): "The loot pile is an area on the table next to a player", beside the party
# "directly in front of each player", and a discard pile: each seat's zone keeps its name for the party (Original's
# exposed hand) with its loot pile beside it, and the centre (combos, foes) gives a part to the discard pile.
LOOT_GAMES = frozenset({"clash-of-corgis"})
# The smallest printed mat whose zones the camera reads for a game, where A3 is too small (measured with
# benchmarks/bench_kennels.py; hardware/README.md, "Crazy Corgi"): on A3 three Kennels of 63 mm cards overlap.
SMALLEST_MAT = {"crazy-corgi": "A2", "clash-of-corgis": "A2"}  # Clash: a party's two cards side by side
MAT_SIZES = ("A3", "A2")  # smallest first
# How many players a printed mat has room for, where that is fewer than the game's own limit. Squirrels: a player's
# four stacks lie about 72 mm apart (the camera takes a card it no longer sees for one covered by a card it still
# sees within ~65 mm, so a top lifted from a closer stack is never reported gone): some 280 mm a seat, wider than
# any seat box. On A2 two players at seats 1 and 4 have room, their rows reaching into the unused seats beside them;
# on A3 (a 420 mm mat) two such rows would cover the corner markers.
MAT_PLAYERS = {"squirrels": {"A3": 0, "A2": 2}}
GRID_GAMES = frozenset({("clash-of-corgis", "capture")})  # (game, variant)s whose mat is two players' card grids
END_SEATS = frozenset({"seat-2", "seat-5"})  # the seats at the mat's short ends: their cards lie along x
GRID_SEATS = ("seat-2", "seat-5")  # Capture's two players: the mat's ends, where their grids are

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
    axis: float = 90.0  # the direction on the mat (degrees; x right, y down) of an upright card's long side here

    def contains(self, x: float, y: float) -> bool:
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1

    @property
    def label(self) -> str:
        return "CENTRE PILE" if self.name == CENTRE else self.name.replace("-", " ").replace("/", " ").upper()

    def split(self, names: list[str], along_x: bool, widths: list[float] | None = None) -> list[Zone]:
        """This zone cut into parts side by side (left to right, or top to bottom), in proportion to ``widths``."""
        shares = widths or [1.0] * len(names)
        lo, hi = (self.x0, self.x1) if along_x else (self.y0, self.y1)
        cuts = [lo + (hi - lo) * sum(shares[:i]) / sum(shares) for i in range(len(shares) + 1)]
        return [replace(self, name=name, x0=a, x1=b) if along_x else replace(self, name=name, y0=a, y1=b)
                for name, a, b in zip(names, cuts, cuts[1:], strict=False)]


# Capture the Illusionist's grids on the A2 mat, in mm (A3 is the same scaled, too small for its cards): the two
# players sit at the short ends (seats 2 and 5), each with three rows of four places across the mat — the exposed
# hand row nearest them, then the back row, then the front row — and the same four columns, so that each column is
# one strip across the table. A place holds a card upright (88 mm along x) or rested sideways (88 mm along y).
# The back and front rows have the mat's whole height: their places are 96 mm apart, so that a card rested beside a
# rested (or nudged face-down) neighbour lies clear of it with a hand's error of a few mm and degrees (at 80 mm
# apart a neighbour covered its corner index and the camera could not name it). The exposed hand row lies between
# the corner markers: its places are 80 mm apart (70 mm the outer ones), the most that keeps an upright card off
# the markers, and fan out to the same four columns.
_A2_WIDTH = _A3[0] * math.sqrt(2.0)
GRID_ROWS = ("exposed", "back", "front")  # "The exposed hand row is the row of your cards that is closest to you."
_GRID_ROW_X = (62.0, 154.0, 246.0)  # each row's centre from the player's end of the A2 mat
_GRID_HALF_X = 46.0  # a place's half-size along x


@dataclass(frozen=True)
class _GridRow:
    columns: tuple[float, float, float, float]  # the places' centres, from the top edge of the A2 mat
    half_y: float  # a place's half-size along y
    clear: float = 0.0  # the outer places stop this far from the top and bottom edges (clear of the markers)


_WIDE = _GridRow((66.0, 162.0, 258.0, 354.0), 48.0)
_GRID = {"exposed": _GridRow((90.0, 170.0, 250.0, 330.0), 40.0, clear=60.0), "back": _WIDE, "front": _WIDE}


def grid_zone(seat_zone: str, row: str, column: int) -> str:
    """``seat-2/front-3``: a place of the grid of the player at ``seat_zone``; ``column`` 1-4 counted from that
    player's left."""
    return f"{seat_zone}/{row}-{column}"


def grid_zones(seat_zone: str, k: float) -> list[Zone]:
    """The twelve places of the player at an end seat (``seat-2`` left, ``seat-5`` right), on a mat ``k`` times
    the A2 one. Seat 2 faces +x, so its left is the top edge; seat 5 faces -x, its left is the bottom edge."""
    left = seat_zone == "seat-2"
    zones = []
    for row, x in zip(GRID_ROWS, _GRID_ROW_X, strict=True):
        cx = x if left else _A2_WIDTH - x
        for column in range(1, 5):
            places = _GRID[row]
            cy, hx, hy = places.columns[column - 1 if left else 4 - column], _GRID_HALF_X, places.half_y
            box = (cx - hx, max(cy - hy, places.clear), cx + hx, min(cy + hy, _A3[1] * math.sqrt(2.0) - places.clear))
            zones.append(Zone(grid_zone(seat_zone, row, column), *(round(v * k, 1) for v in box), axis=0.0))
    return zones


def kennel_zone(seat_zone: str, kennel: int) -> str:
    """``seat-2/kennel-3``: the zone of Kennel ``kennel`` (0-2) of the player sitting at ``seat_zone``."""
    return f"{seat_zone}/kennel-{kennel + 1}"


def loot_zone(seat_zone: str) -> str:
    """``seat-2/loot``: the loot pile of the player sitting at ``seat_zone``."""
    return f"{seat_zone}/{LOOT}"


def _long_side(zone: Zone) -> bool:
    """Whether a seat's zone runs along the mat's top or bottom edge (its parts then lie left to right)."""
    return zone.x1 - zone.x0 >= zone.y1 - zone.y0 + 10


def loot_zones(zone: Zone) -> list[Zone]:
    """A seat's party (two cards side by side, under the seat's own name) and its loot pile (one pile) beside it."""
    return zone.split([zone.name, loot_zone(zone.name)], _long_side(zone), [2, 1])


def kennel_zones(zone: Zone) -> list[Zone]:
    """A seat's three Kennels, numbered along the seat's long side: left to right for the seats along the top and
    bottom edges, top to bottom for the two at the ends. Which Kennel a card is in is where its centre lies."""
    return zone.split([kennel_zone(zone.name, k) for k in range(KENNELS)], _long_side(zone))


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

    def axis_of(self, zone: str) -> float:
        """``zone``'s upright direction (``Zone.axis``); the mat's own (as seat 1 sees it) between zones."""
        return next((z.axis for z in self.zones if z.name == zone), 90.0)

    def zone_at(self, x: float, y: float) -> str | None:
        """The zone holding the mat point (x, y) in mm, or ``None`` between zones / off the mat."""
        for zone in self.zones:
            if zone.contains(x, y):
                return zone.name
        return None


def mat_advice(game: str | None, size: str, title: str = "", players: int | None = None) -> str | None:
    """What a table on the ``size`` mat (``none``: zones drawn) must hear before ``players`` play ``game`` (called
    ``title``), or ``None``."""
    room = MAT_PLAYERS.get(game or "", {})
    if players is not None and players > room.get(size, players):
        bigger = next((s for s in MAT_SIZES if room.get(s, 0) >= players), None)
        fix = (f'set [camera] mat = "{bigger}"' if bigger else 'play on a table without the mat: draw its zones with '
               '`companion calibrate zones` and set [camera] mat = "none"')
        return (f"{title or game} for {players} players does not fit the {size} mat: each player's four stacks lie "
                f"about 70 mm apart to be read, some 280 mm, and the mat has room for {room[size] or 'no'} such rows; "
                f"{fix} (hardware/README.md)")
    needed = SMALLEST_MAT.get(game or "")
    if needed is None or size not in MAT_SIZES or MAT_SIZES.index(size) >= MAT_SIZES.index(needed):
        return None
    return (f"{title or game} needs the {needed} mat (mat/tableside-mat-{needed}-{game}.pdf): on {size} its piles "
            f"lie too close for the camera to read them; set [camera] mat = \"{needed}\" (hardware/README.md)")


def mat_layout(size: str = "A3", game: str | None = None, variant: str | None = None) -> MatLayout:
    """The layout for an ``A3`` or ``A2`` mat; for a game of ``KENNEL_GAMES`` its Kennel variant (same markers,
    each seat zone in three Kennel zones, the centre a draw zone and a discard pile), for one of ``LOOT_GAMES``
    its loot variant (each seat zone a party and a loot pile, the centre and a discard pile); for a game and
    variant of ``GRID_GAMES`` (Capture the Illusionist) the two end seats' card grids; else the usual one."""
    scales = dict(zip(MAT_SIZES, (1.0, math.sqrt(2.0)), strict=True))
    if size not in scales:
        raise ValueError(f"mat size must be one of {', '.join(scales)}, not {size!r}")
    k = scales[size]
    zones = tuple(Zone(name, *(round(v * k, 1) for v in box), axis=0.0 if name in END_SEATS else 90.0)
                  for name, box in _A3_ZONES.items())
    name = size
    if (game, variant) in GRID_GAMES:
        name = f"{size} {game} {variant}"
        zones = tuple(z for seat in GRID_SEATS for z in grid_zones(seat, k / math.sqrt(2.0)))
    elif game in KENNEL_GAMES | LOOT_GAMES:
        name = f"{size} {game}"
        seat_parts = kennel_zones if game in KENNEL_GAMES else loot_zones
        centre = [3, 2] if game in KENNEL_GAMES else [4, 1]  # Clash's middle holds three cards side by side
        zones = tuple(part for zone in zones for part in (
            zone.split([CENTRE, DISCARD], True, centre) if zone.name == CENTRE else seat_parts(zone)))
    return MatLayout(name, round(_A3[0] * k), round(_A3[1] * k), round(_MARKER * k, 1), round(_MARGIN * k, 1), zones)
