"""A still table reuses the last reading; anything that lands, moves or passes over it is recognised again."""

from __future__ import annotations

import threading
from dataclasses import replace

import numpy as np

from companion.sim.scene import Card, Hand, Look, Scene, mat_to_table, render_scene
from companion.sim.scene_camera import SimCamera
from companion.table.observations import CameraObservation, CardSeen
from companion.vision.live import recognizer_for, tracker_for
from companion.vision.settings import CameraSettings
from companion.vision.sources import FrameSource
from companion.vision.stillness import RECHECK_FRAMES, StillnessGate
from companion.vision.watcher import CardWatcher
from tests.waiting import PATIENCE, wait_until

OX, OY = mat_to_table(Scene())
NOISY = Look(noise=4.0, light_gain=0.1)
ONE_CARD = Scene(cards=(Card("corgi-pileup", "4", OX + 150, OY + 120, 0),), look=NOISY, seed=1)
TWO_CARDS = replace(ONE_CARD, cards=(*ONE_CARD.cards, Card("corgi-pileup", "7", OX + 260, OY + 210, 30)))


def frame(scene: Scene, seed: int) -> np.ndarray:
    return render_scene(replace(scene, seed=seed)).image


def test_the_same_table_under_fresh_sensor_noise_is_still() -> None:
    gate = StillnessGate()
    gate.recognised(frame(ONE_CARD, 1))
    assert all(gate.still(frame(ONE_CARD, seed)) for seed in range(2, 6))


def test_a_card_landing_or_a_hand_reaching_in_is_a_change() -> None:
    gate = StillnessGate()
    gate.recognised(frame(ONE_CARD, 1))
    assert not gate.still(frame(TWO_CARDS, 2))
    hand = replace(ONE_CARD, hands=(Hand(OX + 150, OY + 160, 90.0, 0.8),))
    assert not gate.still(frame(hand, 3))


def test_a_still_table_is_recognised_again_now_and_then_and_after_forgetting() -> None:
    gate = StillnessGate()
    picture = frame(ONE_CARD, 1)
    gate.recognised(picture)
    assert [gate.still(picture) for _ in range(RECHECK_FRAMES + 1)] == [True] * RECHECK_FRAMES + [False]
    gate.recognised(picture)
    gate.forget()
    assert not gate.still(picture)
    assert not StillnessGate().still(picture)  # nothing recognised yet


def test_the_watcher_reuses_still_frames_and_still_reports_a_card_that_lands(catalogs) -> None:
    scenes = [ONE_CARD] * 8 + [TWO_CARDS] * 8
    source = FrameSource("scenes", lambda: SimCamera(scenes), live=False)
    seen: list[CameraObservation] = []
    done = threading.Event()

    def observe(frame: list[CameraObservation], _t: float) -> None:
        seen.extend(frame)
        if len(seen) >= 2:
            done.set()

    settings = CameraSettings()
    watcher = CardWatcher(source, recognizer_for(catalogs["corgi-pileup"], settings), tracker_for(settings), observe,
                          max_fps=1000)
    watcher.start()
    try:
        assert done.wait(PATIENCE) and wait_until(lambda: watcher.frames >= len(scenes))
    finally:
        watcher.stop()
    assert [(o.zone, o.face) for o in seen if isinstance(o, CardSeen)] == [
        (seen[0].zone, "4"), (seen[1].zone, "7")]
    assert watcher.still_frames >= len(scenes) - 4  # each table recognised about once, then reused
    health = watcher.health()
    assert health["still_frames"] == watcher.still_frames
    assert health["mat_registered"] and health["light"]["problems"] == [] and health["light"]["level"] > 200
    assert 0 <= watcher.health()["last_frame_age_s"] < PATIENCE  # the status page greys a camera gone quiet
