"""The simulated camera notes when it filmed each frame and when it handed the drawing over: the benchmarks time a
card from the frame that first filmed it as a real camera would hand it over, without the simulator's drawing."""

from __future__ import annotations

import time

from companion.sim.corgi_world import CorgiWorld
from companion.sim.scene_camera import WorldCamera


def test_each_frame_is_noted_when_filmed_and_when_handed_over() -> None:
    world = CorgiWorld(3, seed=5)
    camera = WorldCamera(world)
    camera.read()
    camera.read()
    landed = time.monotonic()
    world.play("7")
    camera.read()
    assert len(world.handovers) == 3
    (_, first), (second_taken, second), (taken, handed) = world.handovers
    assert first <= second_taken <= second <= landed <= taken <= handed  # in order, the last filmed after the card
