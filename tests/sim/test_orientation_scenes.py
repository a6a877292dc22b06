"""The orientation benchmark's scenes are a function of their seed alone: the same cards, camera, light and turns
in every run, whatever Python's string hashing (``PYTHONHASHSEED``) does to the order of a set."""

from __future__ import annotations

import os
import subprocess
import sys

from companion.sim.orientation_scenes import orientation_scene

# Prints each scene as first filmed and after its turns: what the renderer draws, cards back to front.
SHOW = """
from companion.sim.orientation_scenes import orientation_scene
for seed in (9_000_025, 9_000_041, 17):
    scene = orientation_scene(seed)
    print(scene.turns, scene.world.scene())
    scene.turn()
    print(scene.world.scene())
"""


def shown_with_hash_seed(hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    return subprocess.run([sys.executable, "-c", SHOW], env=env, capture_output=True, text=True, check=True).stdout


def test_a_scene_is_drawn_the_same_in_every_run() -> None:
    first = shown_with_hash_seed("1")
    assert "Card(" in first
    assert shown_with_hash_seed("2") == first


def test_the_turned_cards_are_face_up_and_turned_the_other_way_in_the_order_of_their_places() -> None:
    scene = orientation_scene(9_000_041)
    before = {place: card.rested for place, card in scene.world.places.items()}
    assert scene.turns and all(scene.world.places[place].up for place in scene.turns)
    assert list(scene.turns) == [place for place in scene.world.places if place in scene.turns]
    scene.turn()
    assert {place: card.rested for place, card in scene.world.places.items()} == {
        place: rested != (place in scene.turns) for place, rested in before.items()}
    assert list(scene.world.places)[-len(scene.turns):] == list(scene.turns)  # the last turned lies on top
