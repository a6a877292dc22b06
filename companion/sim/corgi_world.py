"""The simulated Corgi Pileup table as the camera sees it: cards played face up into the centre, and nothing else.

The hands are the world's secret, as at a real table: the world deals them (a full-information copy of the game
that only the bots read), the referee's session knows only what the camera shows it and what the players
answer on their phones.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, replace
from typing import ClassVar

from companion.sim.scene import Card, Hand, Look, Scene, View, mat_to_table
from companion.sim.scene_camera import handover_log
from companion.vision.mat import CENTRE, mat_layout
from companion.vision.seats import seat_zones

DECK = "corgi-pileup"
LONG_SEATS = {3: ("seat-1", "seat-3", "seat-4")}  # where the mat's plan would use an end seat, a narrow band
SPACING_MM = 42.0  # how far apart the cards of a trick lie in the centre (they overlap a little)


@dataclass(frozen=True)
class Placed:
    """A card lying on the table (face up; ``face`` None: face down)."""

    face: str | None
    x: float
    y: float
    angle: float


def seats_for(players: int) -> tuple[str, ...]:
    """Where the players of a game with piles side by side (Kennels, a party and its loot) sit: along the long
    sides while there is room (two to four players; five and six need the end seats too)."""
    return LONG_SEATS.get(players, tuple(seat_zones(players)))


class CardWorld:
    """Cards lying on a simulated mat, filmed by the camera. Thread-safe: bots change it, the camera films it.
    ``game`` and ``variant`` pick the mat's layout (Crazy Corgi's names its Kennels, Capture's its grids); ``zones``
    are their centres on the table, in mm."""

    deck: ClassVar[str] = ""

    def __init__(self, seed: int, *, mat: str = "A3", frame: tuple[int, int] = (960, 540),
                 game: str | None = None, variant: str | None = None) -> None:
        self.rng = random.Random(seed)
        ox, oy = mat_to_table(Scene(mat=mat))
        self.zones = {z.name: (ox + (z.x0 + z.x1) / 2, oy + (z.y0 + z.y1) / 2)
                      for z in mat_layout(mat, game, variant).zones}
        self.lock = threading.Lock()
        self.hand: tuple[Hand, ...] = ()
        self.base = Scene(mat=mat, view=View(tilt=10.0, azimuth=20.0), look=Look(light_gain=0.12, noise=2.0),
                          seed=seed, frame=frame)
        self.frames = 0
        self.handovers = handover_log()  # when each frame was filmed and handed over (``WorldCamera``)

    def lying(self) -> list[Placed]:
        """Every card on the table, back to front (called under the lock)."""
        return []

    def _at(self, zone: str, face: str, dx: float = 0.0, dy: float = 0.0, angle: float = 0.0) -> Placed:
        """``face`` put down at ``(dx, dy)`` mm from the centre of ``zone``, turned ``angle``, as a hand does it."""
        x, y = self.zones[zone]
        return Placed(face, x + dx + self.rng.uniform(-2, 2), y + dy + self.rng.uniform(-2, 2),
                      angle + self.rng.uniform(-4.0, 4.0))

    def scene(self) -> Scene:
        with self.lock:
            cards = tuple(Card(self.deck, p.face, p.x, p.y, p.angle) for p in self.lying())
            self.frames += 1
            return replace(self.base, cards=cards, hands=self.hand, seed=self.base.seed + self.frames)


class CorgiWorld(CardWorld):
    """Corgi Pileup's table: a trick in the centre, and a card a player shows at their place."""

    deck = DECK

    def __init__(self, players: int, seed: int, *, mat: str = "A3", frame: tuple[int, int] = (960, 540)) -> None:
        super().__init__(seed, mat=mat, frame=frame)
        self.centre = self.zones[CENTRE]
        self.seats = [self.zones[name] for name in seat_zones(players)]
        self.middle: list[Placed] = []  # the centre, oldest first (the newest lies on top)
        self.shown: list[Placed] = []  # cards a player is showing at their place

    def lying(self) -> list[Placed]:
        return [*self.shown, *self.middle]

    # ------------------------------------------------------------------------------------ what players do
    def play(self, face: str) -> None:
        """A card put face up into the centre, a little to the right of the last one."""
        with self.lock:
            x0, y0 = self.centre
            slot = len(self.middle)
            x = x0 + (slot - 1.5) * SPACING_MM + self.rng.uniform(-4, 4)
            y = y0 + self.rng.uniform(-6, 6) + (12.0 if slot % 2 else -12.0)
            self.middle.append(Placed(face, x, y, self.rng.uniform(-25.0, 25.0)))
            self.hand = ()

    def show(self, seat: int, face: str) -> None:
        """A player lays a card face up at their own place first (before pushing it in)."""
        with self.lock:
            x, y = self.seats[seat]
            self.shown.append(Placed(face, x, y, self.rng.uniform(-20.0, 20.0)))

    def push_in(self, face: str) -> None:
        """The card shown at a place goes into the centre."""
        with self.lock:
            self.shown = [p for p in self.shown if p.face != face]
        self.play(face)

    def take_back(self, face: str) -> None:
        """A refused card goes back into its player's hand."""
        with self.lock:
            for placed in reversed(self.middle):
                if placed.face == face:
                    self.middle.remove(placed)
                    return

    def collect(self) -> None:
        """The trick's winner takes the cards in the centre away."""
        with self.lock:
            self.middle = []

    def reach(self, seat: int | None) -> None:
        """A hand reaching from a seat towards the centre (playing a card), or none."""
        with self.lock:
            if seat is None:
                self.hand = ()
            else:
                (sx, sy), (cx, cy) = self.seats[seat], self.centre
                self.hand = (Hand((sx + cx) / 2, (sy + cy) / 2, self.rng.uniform(0, 360), 0.8),)
