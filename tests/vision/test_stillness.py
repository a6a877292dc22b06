"""A still table reuses the last reading; anything that lands, moves or passes over it is recognised again, once the
frame before it shows the same (or it has been waited on for a frame)."""

from __future__ import annotations

import threading
from dataclasses import replace

import numpy as np

from companion.sim.scene import Card, Hand, Look, Scene, mat_to_table, render_scene
from companion.sim.scene_camera import SimCamera
from companion.table.observations import CameraObservation, CardSeen, QuietFrame
from companion.vision import stillness
from companion.vision.live import recognizer_for, tracker_for
from companion.vision.settings import CameraSettings
from companion.vision.sources import FrameSource
from companion.vision.stillness import RECHECK_FRAMES, Change, StillnessGate, colour_cells
from companion.vision.watcher import CardWatcher
from tests.waiting import PATIENCE, wait_until

OX, OY = mat_to_table(Scene())
NOISY = Look(noise=4.0, light_gain=0.1)
ONE_CARD = Scene(cards=(Card("corgi-pileup", "4", OX + 150, OY + 120, 0),), look=NOISY, seed=1)
TWO_CARDS = replace(ONE_CARD, cards=(*ONE_CARD.cards, Card("corgi-pileup", "7", OX + 260, OY + 210, 30)))
HAND = replace(ONE_CARD, hands=(Hand(OX + 150, OY + 160, 90.0, 0.8),))


def frame(scene: Scene, seed: int) -> np.ndarray:
    return render_scene(replace(scene, seed=seed)).image


def looks(gate: StillnessGate, *scenes: Scene) -> list[Change]:
    return [gate.look(frame(scene, seed)) for seed, scene in enumerate(scenes, start=2)]


def test_the_same_table_under_fresh_sensor_noise_is_still() -> None:
    gate = StillnessGate()
    gate.recognised(frame(ONE_CARD, 1))
    assert looks(gate, *[ONE_CARD] * 4) == [Change.STILL] * 4


def test_a_change_right_after_a_recognition_is_recognised() -> None:
    """The frame before it is the recognised one, read a recognition ago: too old to tell anything moving."""
    for scene in (TWO_CARDS, HAND):
        gate = StillnessGate()
        gate.recognised(frame(ONE_CARD, 1))
        assert looks(gate, scene) == [Change.CHANGED]


def test_a_change_on_a_still_table_waits_one_frame_for_the_table_to_settle() -> None:
    """A hand reaching in, then the card down and the hand gone: the hand's frame is passed over, and the frame
    after it is recognised whatever it shows (a change is never waited on for two frames in a row)."""
    gate = StillnessGate()
    gate.recognised(frame(ONE_CARD, 1))
    assert looks(gate, ONE_CARD, HAND, TWO_CARDS) == [Change.STILL, Change.MOVING, Change.CHANGED]
    gate.recognised(frame(TWO_CARDS, 9))
    assert looks(gate, TWO_CARDS, HAND, HAND) == [Change.STILL, Change.MOVING, Change.CHANGED]  # a hand that rests


def test_a_still_table_is_recognised_again_now_and_then_and_after_forgetting() -> None:
    gate = StillnessGate()
    picture = frame(ONE_CARD, 1)
    gate.recognised(picture)
    assert [gate.look(picture) for _ in range(RECHECK_FRAMES + 1)] == [Change.STILL] * RECHECK_FRAMES + [Change.RECHECK]
    gate.recognised(picture)
    gate.forget()
    assert gate.look(picture) is Change.CHANGED
    assert StillnessGate().look(picture) is Change.CHANGED  # nothing recognised yet


def test_recognising_the_frame_just_looked_at_takes_its_cells_once(monkeypatch) -> None:
    """The watcher looks at a frame, then recognises it: the colour cells of that frame are taken once, not twice,
    and the frames after it are still compared with it."""
    taken: list[np.ndarray] = []
    monkeypatch.setattr(stillness, "colour_cells", lambda f: taken.append(f) or colour_cells(f))
    gate = StillnessGate()
    picture = frame(TWO_CARDS, 1)
    assert gate.look(picture) is Change.CHANGED
    gate.recognised(picture)
    assert len(taken) == 1
    gate.recognised(frame(ONE_CARD, 1))  # a frame never looked at: its own cells
    assert len(taken) == 2
    assert looks(gate, ONE_CARD) == [Change.STILL]


def test_the_watcher_reuses_still_frames_and_still_reports_a_card_that_lands(catalogs) -> None:
    scenes = [ONE_CARD] * 8 + [TWO_CARDS] * 8
    source = FrameSource("scenes", lambda: SimCamera(scenes), live=False)
    seen: list[CameraObservation] = []
    quiet: list[int] = []  # the frames counted that completed nothing: reported too (a table waits in frames)
    done = threading.Event()

    def observe(frame: list[CameraObservation], _t: float) -> None:
        seen.extend(o for o in frame if not isinstance(o, QuietFrame))
        quiet.extend(o.frame for o in frame if isinstance(o, QuietFrame))
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
    assert sorted([*quiet, *(o.frame for o in seen)]) == list(range(1, watcher.tracker.frame + 1))
    assert watcher.still_frames >= len(scenes) - 4  # each table recognised about once, then reused
    health = watcher.health()
    assert health["still_frames"] == watcher.still_frames
    assert health["mat_registered"] and health["light"]["problems"] == [] and health["light"]["level"] > 200
    assert 0 <= watcher.health()["last_frame_age_s"] < PATIENCE  # the status page greys a camera gone quiet


def test_the_hand_that_brought_a_card_is_passed_over_and_the_card_still_reported_in_three_frames(catalogs) -> None:
    """Three frames of the card down are enough, as before: the hand's frame before them costs no recognition."""
    scenes = [ONE_CARD] * 4 + [HAND] + [TWO_CARDS] * 3
    source = FrameSource("scenes", lambda: SimCamera(scenes), live=False)
    seen: list[CameraObservation] = []
    settings = CameraSettings()
    watcher = CardWatcher(source, recognizer_for(catalogs["corgi-pileup"], settings), tracker_for(settings),
                          lambda frame, _t: seen.extend(frame), max_fps=1000)
    watcher.start()
    try:
        assert wait_until(lambda: watcher.frames >= len(scenes))
    finally:
        watcher.stop()
    assert [o.face for o in seen if isinstance(o, CardSeen)] == ["4", "7"]
    assert (watcher.moving_frames, watcher.still_frames) == (1, 3 + 2)  # recognised: the first and the card's first


def test_a_card_laid_on_one_of_the_same_grey_but_another_colour_is_a_change() -> None:
    """A Crazy Corgi red 1 laid squarely on a blue 1: the same art, no cell's mean grey moved by more than the
    noise, its red and blue by far more. Compared in grey, the table looked still (the Crazy Corgi camera bench's
    seed 0: a card a Fleas moved onto a kennel was missed by a window read, ``pipeline.Recognizer._window``)."""
    blue = Card("crazy-corgi", "blue-1-black", OX + 150, OY + 120, 0)
    under = replace(ONE_CARD, cards=(blue,))
    over = replace(ONE_CARD, cards=(blue, replace(blue, face="red-1-black")))
    gate = StillnessGate()
    gate.recognised(frame(under, 1))
    assert looks(gate, under, over, over) == [Change.STILL, Change.MOVING, Change.CHANGED]
