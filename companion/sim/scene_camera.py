"""A synthetic camera for the simulated table: a ``cv2.VideoCapture`` look-alike that plays rendered scenes.

``flip_script`` builds the common test and demo story: cards lie face down in seat zones and the centre, and
one by one a hand reaches over a card, which is then seen face up.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, replace
from typing import Protocol

import cv2
import numpy as np

from companion.games.decks import load_deck
from companion.sim.scene import Card, Hand, Scene, mat_to_table, random_look, random_view, render_scene
from companion.vision.mat import mat_layout


@dataclass(frozen=True)
class Flip:
    """A card turned face up during the script: what the camera should report."""

    frame: int  # first frame showing the face
    zone: str
    face: str


class SimCamera:
    """Plays a list of scenes as frames (each with fresh sensor noise); ``loop`` restarts at the end."""

    def __init__(self, scenes: list[Scene], loop: bool = False) -> None:
        self.scenes = scenes
        self.loop = loop
        self.index = 0
        self._open = True

    def isOpened(self) -> bool:  # the cv2.VideoCapture name
        return self._open

    def read(self) -> tuple[bool, np.ndarray | None]:
        if not self._open or (self.index >= len(self.scenes) and not self.loop):
            return False, None
        scene = self.scenes[self.index % len(self.scenes)]
        frame = render_scene(replace(scene, seed=scene.seed + self.index)).image
        self.index += 1
        return True, frame

    def release(self) -> None:
        self._open = False


def flip_script(
    deck: str, seed: int, *, flips: int = 4, rest: int = 6, hand: int = 3, mat: str = "A3", harsh: bool = False
) -> tuple[list[Scene], list[Flip]]:
    """Scenes of ``flips`` cards turned face up one after another, and the flips the camera should report."""
    rng = np.random.default_rng(seed)
    layout = mat_layout(mat)
    ox, oy = mat_to_table(Scene(mat=mat))
    zones = [z for z in layout.zones if z.name in {"seat-1", "seat-3", "seat-4", "seat-6", "centre"}]
    faces = [f.id for f in rng.choice(list(load_deck(deck).faces), flips, replace=False)]
    cards = []
    for k in range(flips):
        zone = zones[k % len(zones)]
        x = ox + (zone.x0 + zone.x1) / 2 + rng.uniform(-20, 20) + (k // len(zones)) * 70
        y = oy + (zone.y0 + zone.y1) / 2 + rng.uniform(-5, 5)
        cards.append(Card(deck, None, float(x), float(y), float(rng.uniform(60, 120))))
    base = Scene(cards=tuple(cards), mat=mat, view=random_view(rng, 25), look=random_look(rng, harsh=harsh), seed=seed)
    scenes = [base] * rest
    expected = []
    for k, face in enumerate(faces):
        target = cards[k]
        reach = Hand(target.x + 15, target.y + 10, float(rng.uniform(0, 360)), 0.8)
        scenes += [replace(base, hands=(reach,))] * hand
        cards[k] = replace(target, face=face)
        base = replace(base, cards=tuple(cards))
        expected.append(Flip(len(scenes), layout.zone_at(target.x - ox, target.y - oy) or "table", face))
        scenes += [base] * rest
    return scenes, expected


class World(Protocol):
    """A simulated table that knows where every card lies, and when the camera filmed it: for each frame, when its
    scene was taken and when its drawing was handed over (``time.monotonic``, the newest last)."""

    handovers: deque[tuple[float, float]]

    def scene(self) -> Scene: ...


def handover_log() -> deque[tuple[float, float]]:
    """A world's ``handovers``: the last few hundred frames' times are all anyone looks back at."""
    return deque(maxlen=512)


class WorldCamera:
    """A ``cv2.VideoCapture`` look-alike filming a world: each read renders the table as it is now.

    A table that has not changed since the last frame is not drawn again: the last drawing gets fresh sensor
    noise, as a real camera's next frame of a still table would (drawing costs the simulator far more than a real
    camera spends on a frame, and would otherwise be counted in the table's reaction time)."""

    def __init__(self, world: World) -> None:
        self.world = world
        self._open = True
        self._still: Scene | None = None
        self._drawn: np.ndarray | None = None

    def isOpened(self) -> bool:  # the cv2.VideoCapture name
        return self._open

    def read(self) -> tuple[bool, np.ndarray | None]:
        if not self._open:
            return False, None
        taken = time.monotonic()
        frame = self._draw(self.world.scene())
        self.world.handovers.append((taken, time.monotonic()))
        return True, frame

    def _draw(self, scene: Scene) -> np.ndarray:
        look = scene.look
        if look.shot_noise or look.jpeg:  # noise that depends on the picture: drawn whole every time
            return render_scene(scene).image
        still = replace(scene, seed=0, look=replace(look, noise=0.0))
        if still != self._still or self._drawn is None:
            self._still, self._drawn = still, render_scene(still).image
        if not look.noise:
            return self._drawn.copy()
        sigma = look.noise / look.exposure  # as ``render_scene`` adds it: a dim frame's gain raises the noise
        noise = np.empty(self._drawn.shape, np.float32)
        cv2.randn(noise, (0.0,) * 3, (sigma,) * 3)
        return cv2.add(self._drawn, noise, dtype=cv2.CV_8U)

    def release(self) -> None:
        self._open = False
