"""The orientation benchmark's scenes (``benchmarks/bench_orientation.py``): Capture the Illusionist's grids on the
A2 mat with cards face up in random places, each upright or sideways, then some of them turned the other way.

Each scene is a function of its seed alone, so a failure can be looked at again: the cards, the camera, the light
and which cards are turned come from generators seeded by the seed, and the cards are turned in the order of their
places (the card turned last lies over a neighbour it reaches, ``CaptureWorld``) — never in the order of a set,
which Python's string hashing changes from one run to the next."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

import numpy as np

from companion.games.decks import load_deck
from companion.sim.capture_world import DECK, SEAT_ZONES, CaptureWorld
from companion.sim.scene import random_look, random_view
from companion.vision.mat import GRID_ROWS

SLOTS = [f"{row}-{c}" for row in GRID_ROWS for c in range(1, 5)]


@dataclass
class OrientationScene:
    """A scene's world as first filmed, and the places whose cards are then turned, in the order they are turned."""

    seed: int
    world: CaptureWorld
    turns: tuple[tuple[int, str], ...]

    def turn(self) -> None:
        """Turn each chosen card the other way: upright to sideways, sideways to upright."""
        for seat, slot in self.turns:
            self.world.rest(seat, slot, not self.world.places[seat, slot].rested)


def orientation_scene(seed: int) -> OrientationScene:
    """8-14 cards in random places of both grids, most face up, each upright or sideways; a random half of the
    face-up ones to be turned."""
    rng = random.Random(seed)
    world = CaptureWorld(seed)
    faces = load_deck(DECK).cards()
    places = rng.sample([(seat, slot) for seat in range(len(SEAT_ZONES)) for slot in SLOTS], rng.randint(8, 14))
    for (seat, slot), face in zip(places, rng.sample(faces, len(places)), strict=False):
        world.put(seat, slot, face, up=rng.random() < 0.85, rested=rng.random() < 0.5)
    np_rng = np.random.default_rng(seed)
    world.base = replace(world.base, view=random_view(np_rng, max_tilt=25.0), look=random_look(np_rng, harsh=False))
    turning = random.Random(-seed)
    turns = tuple(place for place, card in world.places.items() if card.up and turning.random() < 0.5)
    return OrientationScene(seed, world, turns)
