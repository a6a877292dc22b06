"""The simulated Squirrels table as the camera sees it, on the A2 mat: each player's four stack tops side by side
in their seat, the Skip spot behind them, and the centre pile. Hands and face-down cards are the world's secret:
the face-down cards under the tops are not drawn (the recogniser now and then takes a card's back for an unknown
card, and one found where a lifted top lay keeps that top "seen", never reported gone).

The stacks lie a hand's width apart: the camera takes a card it no longer sees for one covered by a card it does
see within about 65 mm (0.6 of a card's diagonal), so a top lifted from a stack closer to its neighbour would never
be reported gone. Four stacks so spaced fill a long seat of the A2 mat (226 mm) and reach past it: the camera game
seats two players, at seats 1 and 4, whose neighbours' boxes stay free (``hardware/README.md``, "Squirrels on the
mat").

Three or four players play on a table without the mat, as a real table with no room on it would: two rows of two
seats facing one another across the pile (seats numbered clockwise from the bottom left, as on the mat), the camera
a little higher, and the zones drawn once on its picture as ``companion calibrate zones`` would save them
(``drawn_zones``; ``hardware/README.md``, "Squirrels on a table without the mat").
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import replace

import cv2
import numpy as np

from companion.sim.corgi_world import CardWorld, Placed, seats_for
from companion.sim.render import CARD_MM
from companion.sim.scene import camera_homography, mat_outline, table_extent
from companion.vision.mat import CENTRE, mat_layout
from companion.vision.tracker import COVER_SHARE

DECK = "squirrels"
MAT = "A2"
FRAME = (1280, 720)  # the A2 mat's cards need the pixels, as Crazy Corgi's do
SEATS = ("seat-1", "seat-4")  # the two long seats facing one another across the centre
STACK_MM = 72.0  # stack tops side by side, their centres further apart than the camera's "covered" reach
ROW_MM = 32.0  # the row of stacks lies this far from the seat box's middle, towards the centre
SKIP_MM = 45.0  # the Skip spot: this far from the box's middle, towards the table's edge (the card turned sideways)
GAP_MM = 3.0  # cards played together lie side by side this far apart, not overlapping, so the camera reads each
GAP_CLEAR_MM = 8.0  # without the mat: closer, two cards' outlines run together and the camera finds a card's middle
# A card put on the pile must not lie where an older pile card of the same face lies (the camera would take it
# for that card): closer than this and turned less than this; nor across it, turned more, within the reach in which
# the camera takes a card of the same face lying the other way for that card turned where it lay (Capture's turn).
SAME_PLACE_MM, SAME_TURN = 30.0, 18.0
TURNED_REACH_MM = COVER_SHARE * math.hypot(*CARD_MM)
SHIFTS = (0.0, -36.0, 36.0, -18.0, 18.0)
SHIFT_STEP_MM = 3.0  # then every few mm out to the pile's reach: room beside the pile, or the few mm between
# older cards of the same face where a pair lands clear of a pair of its face (the bench once found none and put the
# pair squarely on that pair, where the camera can never see it)
TURNS = (0.0, 90.0, 30.0, -30.0, 60.0, -60.0, 15.0, -15.0, 45.0, -45.0, 75.0, -75.0)
# Without the mat (three or four players): where each seat's row lies, seen from the table's middle (x: -1 left,
# +1 right; y: -1 the far side, +1 the near one), and how far.
PLACES = {"seat-1": (-1, 1), "seat-3": (-1, -1), "seat-4": (1, -1), "seat-6": (1, 1)}
SEAT_X = 150.0  # a seat's middle from the table's: two rows of four stacks side by side, 84 mm between them
ROW_Y = 96.0  # a row of stacks from the table's middle: 8 mm clear of the pile's cards however they are turned
SKIP_CLEAR_MM = 52.0  # the Skip spot from the box's middle: 8 mm behind the row (on the mat it nearly touches it,
# and a Skip card touching a top makes both hard to read without the mat's scale)
REACH = 220.0  # how far from the middle a pile card's centre may lie: the bare table leaves room beside the pile
ZOOM = 0.68  # the camera a little higher than over the A2 mat: the rows and the Skip spots behind them in view


class SquirrelsWorld(CardWorld):
    deck = DECK

    def __init__(self, players: int, seed: int) -> None:
        if players > len(PLACES):
            raise ValueError(f"the simulated Squirrels table seats {len(PLACES)} players, not {players}")
        super().__init__(seed, mat=MAT, frame=FRAME)
        self.drawn = players > len(SEATS)  # no mat: the zones are drawn on the camera's picture
        if self.drawn:
            self.seat_zones = seats_for(players)
            self.base = replace(self.base, mat=None, view=replace(self.base.view, zoom=ZOOM))
            width, height = table_extent(self.base)
            self.zones = {CENTRE: (width / 2, height / 2)}
            for name in self.seat_zones:
                sx, sy = PLACES[name]
                self.zones[name] = (width / 2 + sx * SEAT_X, height / 2 + sy * (ROW_Y + ROW_MM))
            self.reach, self.skip_mm, self.gap = REACH, SKIP_CLEAR_MM, GAP_CLEAR_MM
        else:
            self.seat_zones = SEATS[:players]
            centre = next(z for z in mat_layout(MAT).zones if z.name == CENTRE)
            self.reach = (centre.x1 - centre.x0) / 2 - 5.0  # how far from the middle a pile card's centre may lie
            self.skip_mm, self.gap = SKIP_MM, GAP_MM
        self.tops: dict[tuple[int, int], Placed] = {}  # (seat, stack) -> the face-up top
        self.skips: dict[int, Placed] = {}  # seat -> the Skip card lying at its Skip spot
        self.pile: list[Placed] = []  # the centre, oldest first
        self.shown: dict[int, list[Placed]] = {}  # seat -> cards it spreads face up at the round's end

    def lying(self) -> list[Placed]:
        shown = [card for cards in self.shown.values() for card in cards]
        return [*self.tops.values(), *self.skips.values(), *self.pile, *shown]

    @property
    def mat(self) -> str:
        """The ``[camera] mat`` this table is filmed with: the A2 mat, or ``none`` (zones drawn)."""
        return "none" if self.drawn else MAT

    def drawn_zones(self) -> dict[str, np.ndarray]:
        """The zones a referee would draw on the camera's picture of this table (frame pixels, corners clockwise):
        the pile, and each seat's box around its row of stacks and its Skip spot. Empty on the mat."""
        if not self.drawn:
            return {}
        cx, cy = self.zones[CENTRE]
        boxes = {CENTRE: (cx - REACH - 20, cy - 45, cx + REACH + 20, cy + 45)}
        for name in self.seat_zones:
            x, y, inward = self._seat(self.seat_zones.index(name))
            near, far = cy - inward * 55, y - inward * (self.skip_mm + 60)  # beside the pile to past the Skip spot
            boxes[name] = (x - SEAT_X + 6, min(near, far), x + SEAT_X - 6, max(near, far))
        to_frame = camera_homography(self.base.view, table_extent(self.base), self.base.frame, mat_outline(self.base))
        limit = np.array(self.base.frame, np.float64) - 1
        zones = {}
        for name, (x0, y0, x1, y1) in boxes.items():
            corners = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], np.float64).reshape(-1, 1, 2)
            pixels = cv2.perspectiveTransform(corners, to_frame).reshape(-1, 2)
            zones[name] = np.clip(pixels, 0, limit).astype(np.float32)
        return zones

    # ------------------------------------------------------------------------------------ places
    def _seat(self, seat: int) -> tuple[float, float, float]:
        """The middle of ``seat``'s box (table mm) and which way the centre lies from it (+1 down, -1 up)."""
        x, y = self.zones[self.seat_zones[seat]]
        return x, y, 1.0 if y < self.zones[CENTRE][1] else -1.0

    def stack_place(self, seat: int, stack: int) -> tuple[float, float]:
        """Where stack ``stack`` (0-3, left to right as its player sees them) lies."""
        x, y, inward = self._seat(seat)
        return x - inward * (stack - 1.5) * STACK_MM, y + inward * ROW_MM

    def _jitter(self, x: float, y: float, angle: float) -> tuple[float, float, float]:
        return x + self.rng.uniform(-1.5, 1.5), y + self.rng.uniform(-1.5, 1.5), angle + self.rng.uniform(-2, 2)

    # ------------------------------------------------------------------------------------ what players do
    def lay_top(self, seat: int, stack: int, top: str) -> None:
        """A stack's face-up top laid on its face-down cards."""
        x, y = self.stack_place(seat, stack)
        with self.lock:
            self.tops[seat, stack] = Placed(top, *self._jitter(x, y, 0.0))

    def lift_top(self, seat: int, stack: int) -> None:
        """A stack's top picked up to be played (the card drawn from below it leaves one face-down card)."""
        with self.lock:
            self.tops.pop((seat, stack), None)

    def flip_blind(self, face: str) -> None:
        """A Blind card turned over into the centre."""
        self.land([face])

    def land(self, faces: list[str]) -> None:
        """Cards put on the pile in one go, side by side, where no older card of the same face lies: clear of the
        older cards where the pile leaves room, else each squarely on one (a card lying across two others, or on a
        heap whose edges show, is often not found on a table without the mat); in a pile so deep that no place is
        free, as far from the older cards of their faces as it goes."""
        cx, cy = self.zones[CENTRE]
        with self.lock:
            fans = list(self._fans(cx, cy, len(faces)))
            free = [fan for fan in fans if all(self._free(face, pose) for face, pose in zip(faces, fan, strict=True))]
            poses = min(free, key=lambda fan: max(map(self._lies, fan)), default=None)
            if poses is None:
                centred = [(cx + dx, cy, 0.0) for dx in self._fan(len(faces), 0.0)]
                poses = max(fans, key=lambda fan: self._clearance(faces, fan), default=centred)
            self.pile += [Placed(face, *self._jitter(*pose)) for face, pose in zip(faces, poses, strict=True)]

    def _fan(self, n: int, turn: float) -> list[float]:
        """Where ``n`` cards turned ``turn`` degrees lie side by side, from the middle of the fan."""
        width, height = CARD_MM
        across = width * abs(math.cos(math.radians(turn))) + height * abs(math.sin(math.radians(turn))) + self.gap
        return [(i - (n - 1) / 2) * across for i in range(n)]

    def _fans(self, cx: float, cy: float, n: int) -> Iterator[list[tuple[float, float, float]]]:
        """Places for ``n`` cards side by side within the pile's reach: turned and shifted, then with one of them
        on an older card, as it lies."""
        shifts = [(turn, shift) for turn in TURNS for shift in SHIFTS]
        shifts += [(placed.angle, placed.x - cx - dx) for placed in self.pile for dx in self._fan(n, placed.angle)]
        far = [sign * k * SHIFT_STEP_MM for k in range(1, int(self.reach // SHIFT_STEP_MM) + 1) for sign in (1, -1)]
        shifts += [(turn, shift) for turn in TURNS[:2] for shift in far]
        for turn, shift in shifts:
            offsets = self._fan(n, turn)
            if abs(shift) + max(offsets) <= self.reach:
                yield [(cx + shift + dx, cy, turn) for dx in offsets]

    def _lies(self, pose: tuple[float, float, float]) -> int:
        """How a card at ``pose`` would lie on the older cards: 0 clear of them all, 1 squarely on one or more
        (each it touches), 2 across one, or beside one closer than the gap the camera needs between two cards
        (``gap``, as between the cards of one play: their outlines run together, and the camera once read a 5
        lying 5 mm from an older 5 on a bare table as no card at all, seed 0 of the three-player bench)."""
        x, y, turn = pose
        width, height = CARD_MM
        near = ((x, y), (width + 2 * self.gap, height + 2 * self.gap), turn)  # the card and the gap around it
        lies = 0
        for placed in self.pile:
            apart = abs(placed.angle - turn) % 180.0
            if math.hypot(placed.x - x, placed.y - y) < 6.0 and min(apart, 180.0 - apart) < 8.0:
                lies = 1
            elif cv2.rotatedRectangleIntersection(near, ((placed.x, placed.y), CARD_MM, placed.angle))[0] != \
                    cv2.INTERSECT_NONE:
                return 2
        return lies

    def _clearance(self, faces: list[str], fan: list[tuple[float, float, float]]) -> float:
        """How far the card of ``fan`` nearest an older card of its face lies from it (mm)."""
        return min((math.hypot(placed.x - x, placed.y - y) for face, (x, y, _turn) in zip(faces, fan, strict=True)
                    for placed in self.pile if placed.face == face), default=math.inf)

    def _free(self, face: str, pose: tuple[float, float, float]) -> bool:
        x, y, turn = pose
        for placed in self.pile:
            if placed.face != face:
                continue
            apart = abs(placed.angle - turn) % 180.0
            turned = min(apart, 180.0 - apart) >= SAME_TURN
            if math.hypot(placed.x - x, placed.y - y) < (TURNED_REACH_MM if turned else SAME_PLACE_MM):
                return False
        return True

    def clear_pile(self) -> None:
        """The pile taken away: picked up, pushed to a player, or cleared from the game."""
        with self.lock:
            self.pile = []

    def set_skip(self, seat: int) -> None:
        """A Skip card set down at ``seat``'s Skip spot, turned sideways."""
        x, y, inward = self._seat(seat)
        with self.lock:
            self.skips[seat] = Placed("skip", *self._jitter(x, y - inward * self.skip_mm, 90.0))

    def remove_skip(self, seat: int) -> None:
        with self.lock:
            self.skips.pop(seat, None)

    def gather(self, seat: int) -> None:
        """Everything at ``seat`` picked up: its stacks, a Skip card, the cards it showed."""
        with self.lock:
            for key in [k for k in self.tops if k[0] == seat]:
                del self.tops[key]
            self.skips.pop(seat, None)
            self.shown.pop(seat, None)

    def show(self, seat: int, faces: list[str]) -> None:
        """Up to four cards spread face up where the stacks lay (the round's end)."""
        with self.lock:
            self.shown[seat] = [Placed(face, *self._jitter(*self.stack_place(seat, i), 0.0))
                                for i, face in enumerate(faces)]

    def pile_faces(self) -> list[str]:
        with self.lock:
            return [p.face for p in self.pile]

    def skipped(self) -> set[int]:
        with self.lock:
            return set(self.skips)
