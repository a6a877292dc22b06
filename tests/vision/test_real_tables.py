"""The simulated real tables the foreign-art benchmark draws: table tops, lamps, phone cameras, card layouts, and
the published decks fetched from the npm registry (skipped, saying why, where they cannot be fetched)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.sim.foreign_decks import FACE_IDS, FOREIGN_DECKS, write_references
from companion.sim.render import card_size
from companion.sim.scene import Look, Scene, render_scene
from companion.sim.table_scenes import Setting, lamp_cast, real_look, table_scene
from companion.sim.tables import TABLES, table_texture


def test_table_tops_are_the_same_every_time_and_differ_from_each_other() -> None:
    tops = {name: table_texture(name, (240, 160), 2.4) for name in TABLES}
    assert all(np.array_equal(tops[name], table_texture(name, (240, 160), 2.4)) for name in TABLES)
    means = {name: float(img.mean()) for name, img in tops.items()}
    assert means["light-wood"] > means["dark-wood"] + 60
    assert means["white-laminate"] > 200  # the hard case: a table as light as a card's border
    assert tops["red-gingham"].std() > 30  # checks, not a plain colour
    with pytest.raises(ValueError, match="no table top named 'marble'"):
        table_texture("marble", (10, 10), 2.4)


def test_a_warm_lamp_leaves_a_warm_cast_and_a_cool_one_a_cool_cast() -> None:
    b, g, r = lamp_cast(2700, 0.5)
    assert r > g > b and r / b > 1.3
    b, g, r = lamp_cast(6500, 0.5)
    assert b > r
    assert lamp_cast(2700, 1.0) == pytest.approx((1.0, 1.0, 1.0))  # a perfect white balance leaves none


def test_real_looks_span_dim_warm_and_compressed_frames() -> None:
    looks = [real_look(np.random.default_rng(seed)) for seed in range(200)]
    assert any(look.exposure < 0.6 for look in looks) and any(look.exposure > 0.8 for look in looks)
    assert any(look.cast[2] / look.cast[0] > 1.3 for look in looks)  # red over blue: a warm lamp
    assert any(look.jpeg for look in looks) and any(not look.jpeg for look in looks)


def test_a_dim_frame_from_a_phone_is_darker_and_noisier() -> None:
    def frame(look: Look) -> np.ndarray:
        return render_scene(Scene(mat="A3", cloth="grey-laminate", look=look)).image.astype(np.float32)

    def grain(img: np.ndarray) -> float:
        return float((img - cv2.GaussianBlur(img, (0, 0), 2)).std())

    clean, dim = frame(Look()), frame(Look(exposure=0.4))
    phone = frame(Look(exposure=0.4, shot_noise=0.5))
    assert dim.mean() < 0.5 * clean.mean()
    assert grain(phone) > 1.5 * grain(dim)
    assert grain(frame(Look(exposure=0.4, shot_noise=0.5, jpeg=40))) < grain(phone)  # JPEG smooths noise away


@pytest.mark.parametrize("layout", ["row", "fan", "pile"])
def test_grouped_layouts_overlap_with_the_top_card_whole(layout: str) -> None:
    faces = ["1", "2", "3", "4", "5", "6"]
    scene = table_scene(np.random.default_rng(3), "corgi-pileup", faces, Setting("dark-wood", "A3", layout, 0), Look())
    assert 3 <= len(scene.cards) <= len(faces)  # a scattered card with no room left is left out
    truths = render_scene(scene).truths
    assert truths[-1].visible > 0.97  # drawn last, on top
    assert min(t.visible for t in truths) < 0.8  # the ones below show only a part


def test_published_decks_render_every_face_at_their_own_size(foreign_pictures: dict[str, Path], tmp_path: Path) -> None:
    for folder in foreign_pictures.values():
        assert sorted(p.stem for p in folder.glob("*.png")) == sorted([*FACE_IDS, "back"])
    poker, bridge = card_size("touati"), card_size("touati-bridge")
    assert poker == (63.0, 88.0) and bridge[1] / bridge[0] > 1.5
    write_references(FOREIGN_DECKS["kennard-cream"], foreign_pictures["kennard-cream"], tmp_path, margin=0.1)
    scan = cv2.imread(str(tmp_path / "2d.png"))
    assert scan.shape[1] == pytest.approx(254 * 1.2, abs=2)  # the loose scan's margin is there
    centre = scan[scan.shape[0] // 2, scan.shape[1] // 2 - 60].astype(int)  # paper between pips: cream, not white
    assert centre[2] > centre[0] + 30
