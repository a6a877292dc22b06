"""The simulated PigzUp! table as the camera sees it: real cards in real places, and a camera that films them.

The world knows every card (it shuffled the deck); the referee's session does not, exactly as at a real table:
it learns each flip from the synthetic camera through the real recognition pipeline.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field, replace

from companion.games.decks import load_deck
from companion.sim.scene import Card, Hand, Look, Scene, View, mat_to_table
from companion.sim.scene_camera import handover_log
from companion.vision.mat import mat_layout
from companion.vision.seats import seat_zones

DECK = "pigzup"


@dataclass
class Pile:
    """One player's cards: the face-down stack (top first) and the face-up pile (top last)."""

    stack: list[str]
    faceup: list[str] = field(default_factory=list)
    angle: float = 0.0  # how the top face-up card lies: each flip lands a little differently


class PigzWorld:
    """The cards on the simulated table. Thread-safe: bots change it, the camera films it."""

    def __init__(self, players: int, seed: int, *, mat: str = "A3", frame: tuple[int, int] = (960, 540)) -> None:
        self.rng = random.Random(seed)
        cards = load_deck(DECK).cards()
        self.rng.shuffle(cards)
        each = len(cards) // players
        self.piles = [Pile(cards[i * each : (i + 1) * each]) for i in range(players)]
        self.out_of_play = cards[players * each :]
        self.discard: list[str] = []
        self.lock = threading.Lock()
        layout = mat_layout(mat)
        ox, oy = mat_to_table(Scene(mat=mat))
        self.spots = []
        for name in seat_zones(players):
            zone = next(z for z in layout.zones if z.name == name)
            self.spots.append((ox + (zone.x0 + zone.x1) / 2, oy + (zone.y0 + zone.y1) / 2))
        self.base = Scene(mat=mat, view=View(tilt=12.0, azimuth=30.0), look=Look(light_gain=0.15, noise=2.0),
                          seed=seed, frame=frame)
        self.hand: tuple[Hand, ...] = ()
        self.handovers = handover_log()  # when each frame was filmed and handed over (``WorldCamera``)
        self.frames = 0

    # ------------------------------------------------------------------------------------ what players do
    def flip(self, seat: int) -> str | None:
        """The player turns their top card onto their face-up pile (``None``: their stack is empty)."""
        with self.lock:
            pile = self.piles[seat]
            if not pile.stack:
                return None
            card = pile.stack.pop(0)
            pile.faceup.append(card)
            pile.angle = self.rng.uniform(-35.0, 35.0)
            return card

    def reach(self, seat: int | None) -> None:
        """A hand over a player's pile (flipping), or none."""
        with self.lock:
            if seat is None:
                self.hand = ()
            else:
                x, y = self.spots[seat]
                self.hand = (Hand(x + 20, y + 15, self.rng.uniform(0, 360), 0.8),)

    def settle(self, winner: int | None, racers: tuple[int, ...]) -> None:
        """After a match: the winner's flipped cards to the discard pile, the others' under their stacks."""
        with self.lock:
            for seat in racers:
                pile = self.piles[seat]
                if seat == winner:
                    self.discard += pile.faceup
                else:
                    pile.stack += pile.faceup
                pile.faceup = []

    # ------------------------------------------------------------------------------------ what the camera sees
    def scene(self) -> Scene:
        with self.lock:
            cards = tuple(
                Card(DECK, pile.faceup[-1], x, y, pile.angle)
                for pile, (x, y) in zip(self.piles, self.spots, strict=True)
                if pile.faceup
            )
            self.frames += 1
            return replace(self.base, cards=cards, hands=self.hand, seed=self.base.seed + self.frames)
