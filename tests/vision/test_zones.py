"""Zones drawn by hand for a table without the mat: the file, its checks, and a card
found in a drawn zone (config -> zones file -> Recognizer -> CardFound.zone)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.config import load_config
from companion.sim.scene import Card, Scene, mat_to_table, render_scene
from companion.vision.catalog import Catalog
from companion.vision.live import card_watcher, recognizer_for, table_zones
from companion.vision.sources import FrameSource
from companion.vision.zones import ZonesError, load_zones, save_zones, toml_string, validate_zones

FRAME = (1280, 720)
SQUARE = [100, 100, 300, 100, 300, 250, 100, 250]
TRIANGLE = [500, 400, 700, 400, 600, 600]


def square(x: float, y: float, half: float) -> list[float]:
    return [x - half, y - half, x + half, y - half, x + half, y + half, x - half, y + half]

# ------------------------------------------------------------------------------------------------- the file


def test_zones_round_trip_through_the_file(tmp_path: Path) -> None:
    path = tmp_path / "calibration" / "zones.toml"
    zones = {"seat-1": SQUARE, "centre": [10.25, 20.0, 600.5, 30.0, 300.0, 700.75]}
    save_zones(path, zones, FRAME)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# ") and "written by `companion calibrate zones`" in text.splitlines()[0]
    assert tomllib.loads(text)["frame"] == [1280, 720]
    loaded = load_zones(path)
    assert list(loaded) == ["seat-1", "centre"]
    assert loaded["seat-1"].shape == (4, 2) and loaded["seat-1"].dtype == np.float32
    np.testing.assert_allclose(loaded["seat-1"].ravel(), SQUARE)
    np.testing.assert_allclose(loaded["centre"].ravel(), zones["centre"], atol=0.051)  # kept to 0.1 px


def test_any_printable_zone_name_survives_the_file(tmp_path: Path) -> None:
    names = ['seat "1"', "back\\slash", "x = [1]", "zöne ✓ 😀", "[zones]", "#not a comment"]
    zones = {name: square(200 + 150 * k, 300, 50) for k, name in enumerate(names)}
    save_zones(tmp_path / "zones.toml", zones, FRAME)
    assert list(load_zones(tmp_path / "zones.toml")) == names


@pytest.mark.parametrize("text", ['a "quoted" \\ name', "tab\there", "new\nline", "bell\x07 del\x7f", "é ✓ 😀"])
def test_toml_string_is_read_back_exactly(text: str) -> None:
    assert tomllib.loads(f"key = {toml_string(text)}")["key"] == text


BAD_ZONES: list[tuple[dict[str, Any], str]] = [
    ({}, "no zones drawn"),
    ({"seat-1": SQUARE[:5]}, "zone 'seat-1' has an odd count of numbers (5)"),
    ({"seat-1": SQUARE[:4]}, "zone 'seat-1' has 2 corners; a zone needs 3"),
    ({"seat-1": [0.0, 0.0] * 101}, "zone 'seat-1' has 101 corners; a zone needs 3 to 100"),
    ({"seat-1": "100, 100, 300, 100, 300, 250"}, "zone 'seat-1' must be a list of x, y numbers"),
    ({"seat-1": [100, 100, 300, "100", 300, 250]}, "zone 'seat-1' must be a list of x, y numbers"),
    ({"seat-1": [100, 100, 300, True, 300, 250]}, "zone 'seat-1' must be a list of x, y numbers"),
    ({"seat-1": [100, 100, 300, float("nan"), 300, 250]}, "zone 'seat-1' must be a list of x, y numbers"),
    ({"seat-1": [100, 100, 1281, 100, 300, 250]}, "zone 'seat-1' has a corner (1281, 100) outside the 1280x720"),
    ({"seat-1": [100, -1, 300, 100, 300, 250]}, "zone 'seat-1' has a corner (100, -1) outside"),
    ({"seat-1": [100, 100, 200, 200, 300, 300]}, "zone 'seat-1' has no area: its corners lie on one line"),
    ({"seat-1": [100, 100, 300, 250, 300, 100, 100, 250]}, "zone 'seat-1' crosses itself"),
    ({"seat-1": [0, 0, 400, 0, 400, 400, 200, 400, 200, 0, 100, 300]}, "zone 'seat-1' crosses itself"),
    ({"": SQUARE}, "zone name '' must be printable text"),
    ({"seat\n1": SQUARE}, "zone name 'seat\\n1' must be printable text"),
]


@pytest.mark.parametrize(("zones", "message"), BAD_ZONES)
def test_unusable_zones_are_refused_by_name(zones: dict[str, Any], message: str) -> None:
    with pytest.raises(ZonesError) as refused:
        validate_zones(zones, FRAME)
    assert message in str(refused.value)


def test_only_offered_names_are_accepted() -> None:
    with pytest.raises(ZonesError, match="unknown zone 'seat-9': the zones are seat-1, centre"):
        validate_zones({"seat-1": SQUARE, "seat-9": TRIANGLE}, FRAME, ["seat-1", "centre"])
    assert list(validate_zones({"centre": TRIANGLE}, FRAME, ["seat-1", "centre"])) == ["centre"]


def test_concave_zones_and_corners_on_the_picture_edge_are_fine() -> None:
    l_shape = [0, 0, 400, 0, 400, 100, 100, 100, 100, 720, 0, 720]
    zones = validate_zones({"seat-1": l_shape, "centre": np.array(TRIANGLE, np.float32).reshape(-1, 2)}, FRAME)
    assert zones["seat-1"].shape == (6, 2) and zones["centre"].shape == (3, 2)


@pytest.mark.parametrize(("content", "message"), [
    (None, "no such zones file (see [camera] zones_file); draw the zones with `companion calibrate zones`"),
    ("frame = [1280, 720\n", "not valid TOML"),
    ('[zones]\nseat-1 = [1, 2, 3, 4, 5, 6]\n', "frame must be the picture's [width, height] in pixels"),
    ('frame = [1280.0, 720]\n[zones]\nseat-1 = [1, 2, 3, 4, 5, 6]\n', "frame must be the picture's [width"),
    ('frame = [1280, 720]\nzone = 3\n[zones]\nseat-1 = [1, 2, 3, 4, 5, 6]\n', "unknown key 'zone'"),
    ("frame = [1280, 720]\n", "no zones drawn"),
    ('frame = [640, 360]\n[zones]\n"seat-1" = [100, 100, 700, 100, 300, 250]\n', "zone 'seat-1' has a corner (700"),
])
def test_a_bad_zones_file_names_the_file_and_what_to_do(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "zones.toml"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(ZonesError) as refused:
        load_zones(path)
    assert str(refused.value).startswith(f"{path}: ")
    assert message in str(refused.value)
    assert "companion calibrate zones" in str(refused.value)


def test_bad_zones_are_not_written_and_the_old_file_stays(tmp_path: Path) -> None:
    path = tmp_path / "zones.toml"
    save_zones(path, {"seat-1": SQUARE}, FRAME)
    before = path.read_bytes()
    with pytest.raises(ZonesError, match="crosses itself"):
        save_zones(path, {"seat-1": [100, 100, 300, 250, 300, 100, 100, 250]}, FRAME)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["zones.toml"]


# ----------------------------------------------------------------------------------------- the config


def write_config(folder: Path, camera: str) -> Path:
    config = folder / "companion.toml"
    config.write_text(f"[camera]\n{camera}\n[web]\nenabled = false\n", encoding="utf-8")
    return config


def test_inline_zones_add_to_the_file_and_win_a_name_clash(tmp_path: Path) -> None:
    save_zones(tmp_path / "drawn.toml", {"seat-1": SQUARE, "centre": TRIANGLE}, FRAME)
    config = load_config(write_config(tmp_path, 'mat = "none"\nzones_file = "drawn.toml"\n'
                                                "zones = { centre = [1, 1, 9, 1, 9, 9], extra = [0, 0, 5, 0, 5, 5] }"))
    zones = table_zones(config.camera, config.resolve)
    assert list(zones) == ["seat-1", "centre", "extra"]
    np.testing.assert_array_equal(zones["seat-1"].ravel(), SQUARE)
    np.testing.assert_array_equal(zones["centre"].ravel(), [1, 1, 9, 1, 9, 9])


def test_the_zones_file_is_relative_to_the_config_and_reaches_the_card_watcher(tmp_path: Path, catalogs) -> None:
    save_zones(tmp_path / "calibration" / "zones.toml", {"seat-1": SQUARE}, FRAME)
    config = load_config(write_config(tmp_path, 'mat = "none"\nzones_file = "calibration/zones.toml"'))
    source = FrameSource("none", lambda: None, live=False)  # type: ignore[arg-type,return-value]
    watcher = card_watcher(source, catalogs["corgi-pileup"], config.camera, lambda seen, t: None, config.resolve)
    assert list(watcher.recognizer.zones) == ["seat-1"]


@pytest.fixture(scope="module")
def table_picture(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, tuple[float, float]]:
    """A table without the mat, one corgi card on it: the picture and the card's centre in it."""
    ox, oy = mat_to_table(Scene(mat=None))
    rendered = render_scene(Scene(cards=(Card("corgi-pileup", "4", ox + 100, oy + 150, 0),), mat=None))
    path = tmp_path_factory.mktemp("picture") / "table.png"
    cv2.imwrite(str(path), rendered.image)
    x, y = rendered.truths[0].corners.mean(axis=0)
    return path, (float(x), float(y))


def test_a_card_is_named_in_the_zone_drawn_around_it(tmp_path: Path, catalogs, table_picture) -> None:
    picture, (x, y) = table_picture
    save_zones(tmp_path / "zones.toml", {"seat-3": square(x, y, 90), "centre": square(640, 360, 60)}, FRAME)
    config = load_config(write_config(tmp_path, 'mat = "none"\nzones_file = "zones.toml"'))
    recognizer = recognizer_for(catalogs["corgi-pileup"], config.camera, config.resolve)
    cards = recognizer.process(cv2.imread(str(picture))).cards
    assert [(c.face, c.zone) for c in cards] == [("4", "seat-3")]


@pytest.fixture(scope="module")
def catalog_folder(tmp_path_factory: pytest.TempPathFactory, catalogs: dict[str, Catalog]) -> Path:
    folder = tmp_path_factory.mktemp("catalog") / "corgi-pileup"
    catalogs["corgi-pileup"].save(folder)
    return folder


def test_cards_recognize_uses_the_zones_file(tmp_path: Path, catalog_folder: Path, table_picture, capsys) -> None:
    picture, (x, y) = table_picture
    save_zones(tmp_path / "zones.toml", {"seat-6": square(x, y, 90)}, FRAME)
    config = write_config(tmp_path, 'mat = "none"\nzones_file = "zones.toml"')
    assert main(["-c", str(config), "cards", "recognize", "--catalog", str(catalog_folder), str(picture)]) == 0
    assert [c["zone"] for c in json.loads(capsys.readouterr().out)["cards"]] == ["seat-6"]


def test_a_bad_zones_file_is_a_message_not_a_traceback(tmp_path: Path, catalog_folder: Path, table_picture,
                                                       capsys) -> None:
    picture, _ = table_picture
    (tmp_path / "zones.toml").write_text('frame = [1280, 720]\n[zones]\n"seat-1" = [1, 2, 3]\n', encoding="utf-8")
    config = write_config(tmp_path, 'mat = "none"\nzones_file = "zones.toml"')
    for command in (["cards", "recognize", "--catalog", str(catalog_folder), str(picture)], ["calibrate", "camera"]):
        assert main(["-c", str(config), *command]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"companion: {tmp_path / 'zones.toml'}: zone 'seat-1' has an odd count of numbers")
        assert "Traceback" not in err
    (tmp_path / "zones.toml").unlink()
    assert main(["-c", str(config), "cards", "watch", "--catalog", str(catalog_folder), "--frames", "1"]) == 1
    assert "zones.toml: no such zones file" in capsys.readouterr().err


def test_the_demo_explains_a_missing_zones_file(tmp_path: Path, capsys) -> None:
    pads = Path(__file__).resolve().parents[2] / "calibration" / "pads.toml"
    config = write_config(tmp_path, f'mat = "none"\nzones_file = "nowhere.toml"\n[serial]\ncalibration = "{pads}"')
    assert main(["-c", str(config), "demo", "--then", "exit"]) == 2
    assert f"companion demo: {tmp_path / 'nowhere.toml'}: no such zones file" in capsys.readouterr().err


def test_calibrate_camera_lists_the_drawn_zones_without_a_mat(tmp_path: Path, capsys) -> None:
    save_zones(tmp_path / "zones.toml", {"seat-1": SQUARE, "centre": TRIANGLE}, FRAME)
    config = write_config(tmp_path, 'mat = "none"\nzones_file = "zones.toml"')
    assert main(["-c", str(config), "calibrate", "camera"]) == 0
    assert "no mat configured; zones: seat-1, centre" in capsys.readouterr().out
    assert main(["-c", str(write_config(tmp_path, 'mat = "none"')), "calibrate", "camera"]) == 0
    assert "no zones: every card is in zone 'table'" in capsys.readouterr().out
