"""Guided calibration from the camera: one face at a time, taken once still, with a preview of the crop."""

from __future__ import annotations

from pathlib import Path

import cv2

from companion.games.decks import deck_from_ids
from companion.sim.scene import Card, Scene, mat_to_table, render_scene
from companion.sim.scene_camera import SimCamera
from companion.vision.calibrate import guided_capture
from companion.vision.catalog import CatalogError
from companion.vision.mat import mat_layout
from companion.vision.pipeline import Recognizer, card_finder


def _frames(faces: list[str], still: int = 6) -> SimCamera:
    ox, oy = mat_to_table(Scene())
    scenes: list[Scene] = []
    for k, face in enumerate(faces):
        scenes += [Scene(seed=k)] * 2  # the hand takes the last card away
        scenes += [Scene(cards=(Card("corgi-pileup", face, ox + 210, oy + 150, 20.0 * k),), seed=k)] * still
    return SimCamera(scenes)


def _read(camera: SimCamera):
    while True:
        ok, frame = camera.read()
        if not ok:
            return
        yield frame


def test_guided_capture_learns_each_face_and_previews_the_crop(tmp_path: Path) -> None:
    deck = deck_from_ids("mini", ["3", "6", "9"])
    progress: list[tuple[int, int, str]] = []
    frames = _read(_frames(["3", "6", "9"]))
    find = card_finder(mat_layout("A3"))
    catalog = guided_capture(deck, frames, tmp_path / "p.png", progress=lambda *a: progress.append(a), find=find)
    assert cv2.imread(str(tmp_path / "p.png")).shape[:2] == (100, 72)
    assert progress[-1] == (3, 3, "9")
    ox, oy = mat_to_table(Scene())
    image = render_scene(Scene(cards=(Card("corgi-pileup", "6", ox + 100, oy + 150, 200),))).image
    assert [c.face for c in Recognizer(catalog, mat_layout("A3")).process(image).cards] == ["6"]


def test_guided_capture_says_which_face_was_missing_when_the_camera_stops(tmp_path: Path) -> None:
    deck = deck_from_ids("mini", ["3", "6"])
    try:
        guided_capture(deck, _read(_frames(["3"])), tmp_path / "p.png", find=card_finder(mat_layout("A3")))
    except CatalogError as exc:
        assert "before face 6 was captured" in str(exc)
    else:
        raise AssertionError("a missing face must be reported")
