"""Zones drawn by hand for a table without the mat: the file and its checks."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

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
