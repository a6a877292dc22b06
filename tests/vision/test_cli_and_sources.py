"""The vision commands end to end, and bad input: unreadable images, missing catalogues, unplugged cameras."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.sim.scene import Card, Scene, mat_to_table, render_scene
from companion.vision.sources import open_source


def test_calibrate_then_recognize_a_folder_defined_deck(reference_root: Path, tmp_path: Path, capsys) -> None:
    folder = tmp_path / "refs"
    folder.mkdir()
    picks = {"sun": "4-yellow-yellow", "moon": "2-blue-blue", "leaf": "3-green-pink"}
    for name, face in picks.items():
        shutil.copy(reference_root / "pigzup" / f"{face}.png", folder / f"{name}.png")
    # the deck's name is said, never taken from the folder's
    assert main(["calibrate", "cards", "--from", str(folder), "--out", str(tmp_path / "cat")]) == 1
    assert "Name it: --deck NAME" in capsys.readouterr().err and not (tmp_path / "cat").exists()
    assert main(["calibrate", "cards", "--deck", "sky", "--from", str(folder), "--out", str(tmp_path / "cat")]) == 0
    assert json.loads((tmp_path / "cat" / "catalog.json").read_text())["deck"] == "sky"
    ox, oy = mat_to_table(Scene())
    image = tmp_path / "table.png"
    scene = Scene(cards=(Card("pigzup", "2-blue-blue", ox + 55, oy + 150, 30),))
    cv2.imwrite(str(image), render_scene(scene).image)
    capsys.readouterr()
    args = ["cards", "recognize", "--catalog", str(tmp_path / "cat"), str(image), "--annotate", str(tmp_path / "a.png")]
    assert main(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert [(c["face"], c["zone"]) for c in result["cards"]] == [("moon", "seat-2")]
    assert len(result["cards"][0]["corners"]) == 4
    assert cv2.imread(str(tmp_path / "a.png")) is not None


def test_face_images_must_be_named_by_face(reference_root: Path, tmp_path: Path, capsys) -> None:
    folder = tmp_path / "refs"
    shutil.copytree(reference_root / "corgi-pileup", folder)
    (folder / "7.png").rename(folder / "seven.png")
    assert main(["calibrate", "cards", "--deck", "corgi-pileup", "--from", str(folder)]) == 1
    assert "seven are not faces of deck corgi-pileup" in capsys.readouterr().err


def test_unreadable_image_and_missing_catalogue_are_reported(tmp_path: Path, capsys) -> None:
    assert main(["cards", "recognize", "--catalog", str(tmp_path / "none"), "x.png"]) == 1
    assert "no catalog.json" in capsys.readouterr().err
    (tmp_path / "bad.png").write_bytes(b"not a picture")
    cat = tmp_path / "cat"
    assert main(["calibrate", "cards", "--deck", "corgi-pileup", "--from", str(tmp_path), "--out", str(cat)]) == 1
    assert "bad are not faces" in capsys.readouterr().err


def test_recognize_reports_an_unreadable_image_and_goes_on(reference_root: Path, tmp_path: Path, capsys) -> None:
    cat = tmp_path / "cat"
    main(["calibrate", "cards", "--deck", "squirrels", "--from", str(reference_root / "squirrels"), "--out", str(cat)])
    (tmp_path / "bad.png").write_bytes(b"not a picture")
    good = tmp_path / "empty.png"
    cv2.imwrite(str(good), np.full((720, 1280, 3), 40, np.uint8))
    capsys.readouterr()
    assert main(["cards", "recognize", "--catalog", str(cat), str(tmp_path / "bad.png"), str(good)]) == 1
    out = capsys.readouterr()
    assert "bad.png: not a readable image" in out.err
    result = json.loads(out.out)
    assert (result["image"], result["mat"], result["cards"]) == (str(good), "not found", [])
    # a flat dark grey picture: the camera says it cannot see well enough, and why
    assert [p.split(":")[0] for p in result["light"]["problems"]] == ["Too dark"]
    assert "no card or mat in view, and the lightest thing reads 40 of 255" in result["light"]["problems"][0]
    assert "empty.png: Too dark" in out.err


def test_an_unplugged_camera_is_reported_and_retried_not_a_crash() -> None:
    naps: list[float] = []
    source = open_source(9, retry_seconds=0.5)
    source._sleep = naps.append
    assert list(source.frames(max_failures=2)) == []
    assert not source.status.ok and "camera 9: cannot open" in source.status.message
    assert naps == [0.5, 0.5]


def test_a_folder_of_images_is_a_source(tmp_path: Path) -> None:
    for k in range(3):
        cv2.imwrite(str(tmp_path / f"{k}.png"), np.full((10, 10, 3), k, np.uint8))
    (tmp_path / "junk.png").write_bytes(b"")
    assert [int(f[0, 0, 0]) for f in open_source(str(tmp_path)).frames()] == [0, 1, 2]


@pytest.mark.slow
def test_cards_watch_reports_flips_from_the_simulated_camera(reference_root: Path, tmp_path: Path, capsys) -> None:
    config = tmp_path / "companion.toml"
    config.write_text('[camera]\nsource = "sim"\ndeck = "squirrels"\ncatalog = "cards"\n')
    source = str(reference_root / "squirrels")
    assert main(["-c", str(config), "calibrate", "cards", "--deck", "squirrels", "--from", source]) == 0
    capsys.readouterr()
    assert main(["-c", str(config), "cards", "watch", "--frames", "16"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(line["event"], line["zone"]) for line in lines] == [("CardSeen", "seat-1")]
    assert lines[0]["face"] in {f.stem for f in (reference_root / "squirrels").iterdir()}


def test_without_a_mat_zones_come_from_the_config(catalogs, tmp_path: Path) -> None:
    from companion.vision.pipeline import Recognizer

    ox, oy = mat_to_table(Scene(mat=None))
    scene = Scene(cards=(Card("corgi-pileup", "4", ox + 100, oy + 150, 0),), mat=None)
    rendered = render_scene(scene)
    x, y = rendered.truths[0].corners.mean(axis=0)
    zones = {"mine": np.array([(x - 80, y - 80), (x + 80, y - 80), (x + 80, y + 80), (x - 80, y + 80)], np.float32)}
    cards = Recognizer(catalogs["corgi-pileup"], None, zones).process(rendered.image).cards
    assert [(c.face, c.zone) for c in cards] == [("4", "mine")]
    assert [c.zone for c in Recognizer(catalogs["corgi-pileup"]).process(rendered.image).cards] == ["table"]
