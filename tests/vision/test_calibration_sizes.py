"""Calibration a newcomer cannot get wrong: loose scans cropped, the deck's size measured (bridge, poker) or
taken from ``card_mm``, the deck named by ``--deck``, the catalogue saved beside the config with a summary and a
contact sheet, warnings only for faces the recogniser really confuses."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.games.decks import deck_from_ids, load_deck
from companion.sim.render import register_resized, write_reference_folder
from companion.sim.scene import Card, Scene, mat_to_table, render_scene
from companion.vision.calibrate import catalog_from_folder, crop_reference
from companion.vision.catalog import Catalog, features
from companion.vision.mat import mat_layout
from companion.vision.pipeline import Recognizer

BRIDGE = (57.0, 89.0)


@pytest.fixture(scope="module")
def bridge_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Pictures of our Corgi Pileup art printed at bridge size, one per face."""
    register_resized("corgi-bridge", "corgi-pileup", BRIDGE)
    folder = tmp_path_factory.mktemp("bridge") / "refs"
    write_reference_folder(load_deck("corgi-pileup"), str(folder), art="corgi-bridge")
    return folder


def _loose(scan: np.ndarray, margin: float, turn: float, backdrop: int = 45) -> np.ndarray:
    """The scan as a careless user makes it: the card with a margin of dark lid around it, a little askew."""
    pad = round(margin * scan.shape[1])
    img = cv2.copyMakeBorder(scan, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(backdrop,) * 3)
    h, w = img.shape[:2]
    rot = cv2.getRotationMatrix2D((w / 2, h / 2), turn, 1.0)
    return cv2.warpAffine(img, rot, (w, h), borderValue=(backdrop,) * 3)


def test_a_loose_scan_is_cropped_to_the_card_not_refused(reference_root: Path) -> None:
    scan = cv2.imread(str(reference_root / "clash-of-corgis" / "fire-7.png"))
    tight = features(crop_reference(scan).crop)
    for margin, turn in ((0.06, 0.0), (0.12, 3.0), (0.3, -4.0)):
        ref = crop_reference(_loose(scan, margin, turn))
        assert ref.aspect == pytest.approx(88 / 63, rel=0.03)
        assert ((features(ref.crop) - tight) ** 2).mean() < 0.004  # the same card, straightened


def test_calibration_measures_a_bridge_deck_and_the_mat_finds_it_at_that_size(bridge_folder: Path) -> None:
    catalog = catalog_from_folder(load_deck("corgi-pileup"), bridge_folder)
    assert catalog.card_mm == BRIDGE
    ox, oy = mat_to_table(Scene())
    cards = tuple(Card("corgi-bridge", str(n), ox + 60 + 75 * k, oy + 150, 25.0 * k) for k, n in enumerate((2, 5, 9)))
    image = render_scene(Scene(cards=cards, cloth="blue-felt")).image
    seen = Recognizer(catalog, mat_layout("A3")).process(image).cards
    assert sorted(c.face for c in seen) == ["2", "5", "9"]


def test_card_mm_given_is_honoured_over_the_measured_shape(bridge_folder: Path) -> None:
    catalog = catalog_from_folder(load_deck("corgi-pileup"), bridge_folder, card_mm=(56.0, 87.0))
    assert catalog.card_mm == (56.0, 87.0)


def test_a_poker_deck_is_poker_size(reference_root: Path) -> None:
    assert catalog_from_folder(load_deck("squirrels"), reference_root / "squirrels").card_mm == (63.0, 88.0)


def test_newcomer_from_a_folder_of_pictures_to_a_named_card(bridge_folder: Path, tmp_path: Path, capsys) -> None:
    home = tmp_path / "game-night"
    home.mkdir()
    config = home / "companion.toml"
    config.write_text('[camera]\ncatalog = "cards"\n')
    assert main(["-c", str(config), "calibrate", "cards", "--deck", "my-bridge", "--from", str(bridge_folder)]) == 0
    out = capsys.readouterr().out
    folder = home / "cards" / "my-bridge"  # beside the config, wherever the shell stands
    assert json.loads((folder / "catalog.json").read_text())["card_mm"] == list(BRIDGE)
    assert "card size 57 x 89 mm (measured from the pictures)" in out
    assert "closest faces:" in out and str(folder / "contact-sheet.png") in out
    assert cv2.imread(str(folder / "contact-sheet.png")).shape[1] > 13 * 72
    assert "warning" not in out  # 6 and 9 are underlined: nothing the recogniser confuses
    ox, oy = mat_to_table(Scene())
    picture = tmp_path / "table.jpg"
    scene = Scene(cards=(Card("corgi-bridge", "6", ox + 300, oy + 100, 170.0),), cloth="wood")
    cv2.imwrite(str(picture), render_scene(scene).image)
    assert main(["-c", str(config), "cards", "recognize", "--catalog", "my-bridge", str(picture)]) == 0
    assert [c["face"] for c in json.loads(capsys.readouterr().out)["cards"]] == ["6"]


def test_only_faces_the_recogniser_confuses_are_warned_about() -> None:
    half = np.full((100, 72, 3), 240, np.uint8)
    half[8:50, 8:64], half[50:92, 8:64] = (40, 40, 200), (200, 120, 30)  # red over blue
    cross = np.full((100, 72, 3), 240, np.uint8)
    cv2.line(cross, (10, 10), (62, 90), (30, 30, 30), 6)
    cv2.line(cross, (62, 10), (10, 90), (30, 30, 30), 6)  # the same either way up: no trouble
    crops = {"red-top": half, "blue-top": half[::-1, ::-1].copy(), "cross": cross}
    catalog = Catalog(deck_from_ids("twins", list(crops)), crops)
    confused = dict(catalog.confusions())
    assert set(confused) == {"red-top", "blue-top"} and "cross" not in confused
