"""The simulated Capture the Illusionist table as the camera sees it, on Capture's mat (A2): two players at the
mat's ends, each with a grid of places — front and back rows of face-down cards, and the exposed hand row — where
a card lies face down (hidden), face up (revealed) or face up turned sideways (rested). The faces of the hidden
cards are the world's secret: only the bots know them.

A card put down, flipped or turned lies over the neighbours it reaches (it is drawn last): two rested cards of the
exposed row, whose places are 80 mm apart (``companion/vision/mat.py``), overlap, and the one turned last cannot
have been slid under the other."""

from __future__ import annotations

from dataclasses import dataclass

from companion.sim.corgi_world import CardWorld, Placed
from companion.vision.mat import GRID_SEATS, grid_zone

DECK = "clash-of-corgis"
VARIANT = "capture"
MAT = "A2"
FRAME = (1280, 720)
SEAT_ZONES = GRID_SEATS
FACING = (90.0, 270.0)  # an upright card's angle at each seat: its top away from its player


@dataclass
class Lying:
    """A card in a grid place: its face (known to the world even when it lies face down), and how it lies."""

    face: str
    up: bool = False
    rested: bool = False
    angle: float = 0.0  # the hand's small error when it was put down
    dx: float = 0.0
    dy: float = 0.0


class CaptureWorld(CardWorld):
    deck = DECK

    def __init__(self, seed: int) -> None:
        super().__init__(seed, mat=MAT, frame=FRAME, game=DECK, variant=VARIANT)
        self.places: dict[tuple[int, str], Lying] = {}  # (seat, slot such as "front-2") -> the card there

    def zone(self, seat: int, slot: str) -> str:
        row, column = slot.rsplit("-", 1)
        return grid_zone(SEAT_ZONES[seat], row, int(column))

    def lying(self) -> list[Placed]:
        out = []
        for (seat, slot), card in self.places.items():
            x, y = self.zones[self.zone(seat, slot)]
            angle = FACING[seat] + card.angle + (90.0 if card.rested else 0.0)
            out.append(Placed(card.face if card.up else None, x + card.dx, y + card.dy, angle))
        return out

    # ------------------------------------------------------------------------------------ what players do
    def put(self, seat: int, slot: str, face: str, *, up: bool = False, rested: bool = False) -> None:
        """A card put down in a place (a hand's small error in where and at what angle)."""
        with self.lock:
            self.places.pop((seat, slot), None)
            self.places[seat, slot] = Lying(face, up, rested, self.rng.uniform(-5.0, 5.0), self.rng.uniform(-3, 3),
                                            self.rng.uniform(-3, 3))

    def turn_up(self, seat: int, slot: str) -> None:
        """A hidden card flipped face up where it lies (revealed)."""
        with self.lock:
            self._on_top(seat, slot).up = True

    def turn_down(self, seat: int, slot: str) -> None:
        """A face-up card turned face down where it lies (hidden), without being picked up."""
        with self.lock:
            card = self._on_top(seat, slot)
            card.up = card.rested = False

    def rest(self, seat: int, slot: str, rested: bool = True) -> None:
        """A face-up card turned sideways (rested), or back upright (revealed)."""
        with self.lock:
            self._on_top(seat, slot).rested = rested

    def take(self, seat: int, slot: str) -> str:
        """The card picked up from a place (into the hand, to shuffle, or out of play)."""
        with self.lock:
            return self.places.pop((seat, slot)).face

    def _on_top(self, seat: int, slot: str) -> Lying:
        """The card in a place, handled: it now lies over its neighbours."""
        card = self.places[seat, slot] = self.places.pop((seat, slot))
        return card

    def faces(self, seat: int) -> dict[str, Lying]:
        with self.lock:
            return {slot: card for (s, slot), card in self.places.items() if s == seat}
