"""The simulated Crazy Corgi table as the camera sees it, on the Crazy Corgi mat (A2: its Kennels hold a card
each side by side): the cards revealed in the draw zone, the discard pile, and each player's three Kennels, each
a neat pile whose top card shows. The deck is the world's secret: only the bots read its order."""

from __future__ import annotations

from collections.abc import Iterable

from companion.sim.corgi_world import CardWorld, Placed, seats_for
from companion.vision.mat import CENTRE, DISCARD, KENNELS, SMALLEST_MAT, kennel_zone

DECK = "crazy-corgi"
MAT = SMALLEST_MAT[DECK]  # A3 is too small for three Kennels a seat
FRAME = (1280, 720)  # the A2 mat's cards need the pixels (hardware/README.md, "Crazy Corgi")
DRAWN_MM = 18.0  # how far apart the revealed cards lie in the draw zone (each covers most of the last)


class CrazyWorld(CardWorld):
    deck = DECK

    def __init__(self, players: int, seed: int, *, mat: str = MAT, frame: tuple[int, int] = FRAME) -> None:
        super().__init__(seed, mat=mat, frame=frame, game=DECK)
        self.seat_zones = seats_for(players)
        self.drawn: list[Placed] = []  # the draw zone, oldest first
        self.discard: list[Placed] = []
        self.kennels: dict[tuple[int, int], list[Placed]] = {(p, k): [] for p in range(players) for k in range(KENNELS)}

    def lying(self) -> list[Placed]:
        return [*self.discard, *(c for pile in self.kennels.values() for c in pile), *self.drawn]

    def _take(self, face: str) -> None:
        """Pick ``face`` up from wherever it lies (the draw zone, the discard pile, a Kennel's top)."""
        for pile in (self.drawn, self.discard, *self.kennels.values()):
            for placed in reversed(pile):
                if placed.face == face:
                    pile.remove(placed)
                    return

    # ------------------------------------------------------------------------------------ what players do
    def reveal(self, face: str) -> None:
        """The top card of the deck turned face up in the draw zone, a little right of the last one."""
        with self.lock:
            slot = len(self.drawn)
            self.drawn.append(self._at(CENTRE, face, (slot - 2) * DRAWN_MM, 8.0 if slot % 2 else -8.0, 90.0))

    def place(self, face: str, seat: int, kennel: int) -> None:
        """A card put on top of one of a player's Kennels."""
        with self.lock:
            self._take(face)
            self.kennels[seat, kennel].append(self._at(kennel_zone(self.seat_zones[seat], kennel), face))

    def to_discard(self, faces: Iterable[str]) -> None:
        """Cards carried to the discard pile in this order, the last on top (an Event resolved, a Wilds' bust, a
        scored or discarded Kennel)."""
        with self.lock:
            for face in faces:
                self._take(face)
                self.discard.append(self._at(DISCARD, face))

    def clear_kennel(self, seat: int, kennel: int) -> None:
        """A Kennel carried to the discard pile as it lies: its top card stays on top, in the camera's view."""
        with self.lock:
            faces = [p.face for p in self.kennels[seat, kennel]]
        self.to_discard(faces)

    def reshuffled(self) -> None:
        """The discard pile became the new deck."""
        with self.lock:
            self.discard = []

    def faces(self) -> dict[str, set[str]]:
        """What lies where, by face: ``drawn``, ``discard`` and each Kennel's zone."""
        with self.lock:
            where = {"drawn": {p.face for p in self.drawn}, "discard": {p.face for p in self.discard}}
            for (seat, k), pile in self.kennels.items():
                where[kennel_zone(self.seat_zones[seat], k)] = {p.face for p in pile}
            return where
