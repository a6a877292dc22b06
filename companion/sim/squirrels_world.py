"""The simulated Squirrels table as the camera sees it, on the A2 mat: each player's four stack tops side by side
in their seat, the Skip spot behind them, and the centre pile. Hands and face-down cards are the world's secret:
the face-down cards under the tops are not drawn (the recogniser now and then takes a card's back for an unknown
card, and one found where a lifted top lay keeps that top "seen", never reported gone).

The stacks lie a hand's width apart: the camera takes a card it no longer sees for one covered by a card it does
see within about 65 mm (0.6 of a card's diagonal), so a top lifted from a stack closer to its neighbour would never
be reported gone. Four stacks so spaced fill a long seat of the A2 mat (226 mm) and reach past it: the camera game
seats two players, at seats 1 and 4, whose neighbours' boxes stay free (``hardware/README.md``, "Squirrels on the
mat").
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from companion.sim.corgi_world import CardWorld, Placed
from companion.sim.render import CARD_MM
from companion.vision.mat import CENTRE, mat_layout

DECK = "squirrels"
MAT = "A2"
FRAME = (1280, 720)  # the A2 mat's cards need the pixels, as Crazy Corgi's do
SEATS = ("seat-1", "seat-4")  # the two long seats facing one another across the centre
STACK_MM = 72.0  # stack tops side by side, their centres further apart than the camera's "covered" reach
ROW_MM = 32.0  # the row of stacks lies this far from the seat box's middle, towards the centre
SKIP_MM = 45.0  # the Skip spot: this far from the box's middle, towards the table's edge (the card turned sideways)
GAP_MM = 3.0  # cards played together lie side by side this far apart, not overlapping, so the camera reads each
# A card put on the pile must not lie where an older pile card of the same face lies (the camera would take it
# for that card): closer than this and turned less than this.
SAME_PLACE_MM, SAME_TURN = 30.0, 18.0
SHIFTS = (0.0, -36.0, 36.0, -18.0, 18.0)
TURNS = (0.0, 90.0, 30.0, -30.0, 60.0, -60.0, 15.0, -15.0, 45.0, -45.0, 75.0, -75.0)


class SquirrelsWorld(CardWorld):
    deck = DECK

    def __init__(self, players: int, seed: int) -> None:
        if players > len(SEATS):
            raise ValueError(f"the simulated Squirrels table seats {len(SEATS)} players, not {players}")
        super().__init__(seed, mat=MAT, frame=FRAME)
        self.seat_zones = SEATS[:players]
        centre = next(z for z in mat_layout(MAT).zones if z.name == CENTRE)
        self.reach = (centre.x1 - centre.x0) / 2 - 5.0  # how far from the middle a pile card's centre may lie
        self.tops: dict[tuple[int, int], Placed] = {}  # (seat, stack) -> the face-up top
        self.skips: dict[int, Placed] = {}  # seat -> the Skip card lying at its Skip spot
        self.pile: list[Placed] = []  # the centre, oldest first
        self.shown: dict[int, list[Placed]] = {}  # seat -> cards it spreads face up at the round's end

    def lying(self) -> list[Placed]:
        shown = [card for cards in self.shown.values() for card in cards]
        return [*self.tops.values(), *self.skips.values(), *self.pile, *shown]

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
        """Cards put on the pile in one go, side by side, where no older card of the same face lies."""
        cx, cy = self.zones[CENTRE]
        with self.lock:
            poses = next(self._novel(cx, cy, faces), None)
            if poses is None:  # a pile so deep that every place is taken: lie anywhere
                poses = [(cx + dx, cy, 0.0) for dx in self._fan(len(faces), 0.0)]
            self.pile += [Placed(face, *self._jitter(*pose)) for face, pose in zip(faces, poses, strict=True)]

    @staticmethod
    def _fan(n: int, turn: float) -> list[float]:
        """Where ``n`` cards turned ``turn`` degrees lie side by side, from the middle of the fan."""
        width, height = CARD_MM
        across = width * abs(math.cos(math.radians(turn))) + height * abs(math.sin(math.radians(turn))) + GAP_MM
        return [(i - (n - 1) / 2) * across for i in range(n)]

    def _novel(self, cx: float, cy: float, faces: list[str]) -> Iterator[list[tuple]]:
        for turn in TURNS:
            offsets = self._fan(len(faces), turn)
            for shift in SHIFTS:
                poses = [(cx + shift + dx, cy, turn) for dx in offsets]
                if abs(shift) + max(offsets) <= self.reach and all(
                        self._free(face, pose) for face, pose in zip(faces, poses, strict=True)):
                    yield poses

    def _free(self, face: str, pose: tuple[float, float, float]) -> bool:
        x, y, turn = pose
        for placed in self.pile:
            apart = abs(placed.angle - turn) % 180.0
            if (placed.face == face and math.hypot(placed.x - x, placed.y - y) < SAME_PLACE_MM
                    and min(apart, 180.0 - apart) < SAME_TURN):
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
            self.skips[seat] = Placed("skip", *self._jitter(x, y - inward * SKIP_MM, 90.0))

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
