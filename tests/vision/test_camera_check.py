"""``companion calibrate camera``: a newcomer's check of what the camera sees (mat, light, colour, focus, card size),
each problem with what to do, on rendered frames, pictures, the simulated camera and an unplugged one."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.sim.scene import Card, Look, Scene, View, mat_to_table, render_scene
from companion.vision.camera_check import MIN_CARD_PX, CameraChecker
from companion.vision.light import MAX_CAST, MAX_PATTERN, MIN_LEVEL, Light
from companion.vision.settings import CameraSettings

CLEAN = Look(noise=2.0, shot_noise=0.3)  # a decent camera's frame: white paper is not clipped flat


def _scene(look: Look = CLEAN, *, mat: str | None = "A3", zoom: float = 0.9) -> Scene:
    ox, oy = mat_to_table(Scene(mat=mat))
    cards = (Card("corgi-pileup", "3", ox + 120, oy + 150, 10.0), Card("corgi-pileup", "8", ox + 300, oy + 150, -5.0))
    return Scene(cards=cards, cloth="green-felt", mat=mat, look=look, view=View(zoom=zoom))


def _picture(folder: Path, scene: Scene, name: str = "table.png") -> Path:
    path = folder / name
    cv2.imwrite(str(path), render_scene(scene).image)
    return path


def _check(path: Path, capsys, *config: str) -> tuple[int, dict]:
    status = main([*config, "calibrate", "camera", "--from", str(path), "--json"])
    return status, json.loads(capsys.readouterr().out)


def test_a_well_lit_table_is_good_enough(tmp_path: Path, capsys) -> None:
    status, seen = _check(_picture(tmp_path, _scene()), capsys)
    assert status == 0 and seen["ok"] and seen["problems"] == []
    assert seen["mat"] == {"name": "A3", "registered": True, "markers": 4, "missing": []}
    assert seen["light"]["level"] > MIN_LEVEL and seen["light"]["measured_on"] == "white paper"
    assert set(seen["light"]["balance"]) == {"blue", "green", "red"}
    assert seen["card_px"]["long_side"] > MIN_CARD_PX and seen["card_px"]["measured_from"] == "the mat's scale"


def test_the_text_report_names_each_measurement_and_the_verdict(tmp_path: Path, capsys) -> None:
    path = _picture(tmp_path, _scene())
    assert main(["calibrate", "camera", "--from", str(path)]) == 0
    out = capsys.readouterr().out
    for line in ("mat      A3 found: 4 of 4 corner markers", "light    white card reads", "colour   neutral",
                 "focus    edges smeared over", "cards    ", "verdict  good enough"):
        assert line in out


@pytest.mark.parametrize(
    ("look", "start", "advice"),
    [
        (replace(CLEAN, exposure=0.25), "Too dark: white card reads", "light the table or raise the camera's exposure"),
        (replace(CLEAN, cast=(0.55, 0.75, 1.0)), "Too strong a colour cast: white card is warm (red",
         "use a whiter lamp"),
        (replace(CLEAN, blur=4.0), "Too blurred: edges are smeared over", "focus the camera"),
    ],
)
def test_a_frame_the_recogniser_cannot_read_says_why_and_what_to_do(tmp_path: Path, capsys, look: Look, start: str,
                                                                    advice: str) -> None:
    status, seen = _check(_picture(tmp_path, _scene(look)), capsys)
    assert status == 1 and not seen["ok"]
    assert len(seen["problems"]) == 1 and seen["problems"][0].startswith(start) and advice in seen["problems"][0]
    assert seen["problems"] == seen["light"]["problems"]  # the same sentence cards recognize and the page give


def test_a_mild_warm_lamp_is_named_but_not_a_problem(tmp_path: Path, capsys) -> None:
    status, seen = _check(_picture(tmp_path, _scene(replace(CLEAN, cast=(0.9, 0.95, 1.0)))), capsys)
    assert status == 0 and seen["light"]["balance"]["red"] > seen["light"]["balance"]["blue"]
    assert seen["hints"] and seen["hints"][0].startswith("Light is warm (red") and f"{MAX_CAST:g}x" in seen["hints"][0]


def test_the_mat_out_of_view_is_the_problem_and_a_card_in_view_gives_the_size(tmp_path: Path, capsys) -> None:
    status, seen = _check(_picture(tmp_path, _scene(mat=None)), capsys)
    assert status == 1 and seen["mat"]["registered"] is False and seen["mat"]["markers"] == 0
    assert seen["problems"][0].startswith("The mat is not in view: 0 of its 4 corner markers seen, 2 needed")
    assert 'mat = "none"' in seen["problems"][0]
    assert seen["card_px"]["measured_from"] == "2 cards in view" and seen["card_px"]["long_side"] > MIN_CARD_PX


def test_cards_too_small_say_to_lower_the_camera(tmp_path: Path, capsys) -> None:
    status, seen = _check(_picture(tmp_path, _scene(zoom=0.34)), capsys)
    assert status == 1 and seen["mat"]["registered"]
    assert seen["card_px"]["long_side"] < MIN_CARD_PX
    assert seen["problems"] == [f"Cards are {seen['card_px']['long_side']} px long, the recogniser needs "
                                f"{MIN_CARD_PX:.0f}: lower the camera or zoom in"]


def test_a_small_picture_says_to_ask_for_1280x720(tmp_path: Path, capsys) -> None:
    path = _picture(tmp_path, replace(_scene(), frame=(480, 270)))
    status, seen = _check(path, capsys)
    assert status == 1 and seen["frame"] == [480, 270]
    assert seen["problems"][-1].endswith("lower the camera or use 1280x720 ([camera] width and height)")


def test_without_a_mat_or_a_card_the_check_asks_for_a_card(tmp_path: Path, capsys) -> None:
    config = tmp_path / "companion.toml"
    config.write_text('[camera]\nmat = "none"\n[web]\nenabled = false\n', encoding="utf-8")
    status, seen = _check(_picture(tmp_path, Scene(cloth="black", mat=None)), capsys, "-c", str(config))
    assert status == 1 and seen["mat"] is None and seen["card_px"]["long_side"] is None
    assert seen["light"]["measured_on"] == "the lightest thing in view (no card or mat)"
    assert any(p.startswith("No card found to measure: lay a card face up") for p in seen["problems"])


def test_a_gingham_cloth_without_the_mat_is_too_busy_and_the_check_says_lay_the_mat(tmp_path: Path, capsys) -> None:
    config = tmp_path / "companion.toml"
    config.write_text('[camera]\nmat = "none"\n[web]\nenabled = false\n', encoding="utf-8")
    path = _picture(tmp_path, replace(_scene(mat=None), cloth="red-gingham"))
    status, seen = _check(path, capsys, "-c", str(config))
    assert status == 1 and seen["light"]["table_pattern"] > MAX_PATTERN
    assert [p for p in seen["problems"] if p.startswith("Too busy a table")] == seen["light"]["problems"]
    assert main(["-c", str(config), "calibrate", "camera", "--from", str(path)]) == 1
    assert f"(needs {MAX_PATTERN:.0%} or less)" in capsys.readouterr().out
    plain = _picture(tmp_path, _scene(mat=None), "plain.png")
    status, seen = _check(plain, capsys, "-c", str(config))
    assert status == 0 and seen["light"]["table_pattern"] < MAX_PATTERN  # felt: the same cards, found


def test_a_folder_is_checked_picture_by_picture_and_a_bad_one_is_named(tmp_path: Path, capsys) -> None:
    _picture(tmp_path, _scene(), "a-good.png")
    _picture(tmp_path, _scene(replace(CLEAN, exposure=0.25)), "b-dark.png")
    (tmp_path / "c-broken.png").write_bytes(b"not a picture")
    status = main(["calibrate", "camera", "--from", str(tmp_path), "--json"])
    out = capsys.readouterr()
    seen = [json.loads(line) for line in out.out.splitlines()]
    assert [(Path(s["source"]).name, s["ok"]) for s in seen] == [("a-good.png", True), ("b-dark.png", False)]
    assert "c-broken.png: not a readable image" in out.err and status == 2


def test_a_missing_picture_is_a_message_not_a_traceback(tmp_path: Path, capsys) -> None:
    assert main(["calibrate", "camera", "--from", str(tmp_path / "none.png")]) == 2
    err = capsys.readouterr().err
    assert "none.png: no such file or folder" in err and "Traceback" not in err


def test_an_unplugged_camera_is_a_clear_message_and_its_own_exit_code(tmp_path: Path, capsys) -> None:
    config = tmp_path / "companion.toml"
    config.write_text("[camera]\nsource = 9\nretry_seconds = 0.01\n[web]\nenabled = false\n", encoding="utf-8")
    assert main(["-c", str(config), "calibrate", "camera", "--once"]) == 2
    err = capsys.readouterr().err
    assert "no picture from the camera: camera 9: cannot open" in err and "ls /dev/video" in err


def test_the_simulated_camera_is_checked_live_as_the_table_would_use_it(tmp_path: Path, capsys) -> None:
    assert main(["calibrate", "camera", "--frames", "2", "--json", "--preview", str(tmp_path / "p.png")]) == 0
    seen = json.loads(capsys.readouterr().out)
    assert seen["source"] == "sim" and seen["ok"] and seen["mat"]["registered"]
    assert cv2.imread(str(tmp_path / "p.png")) is not None


def test_without_paper_in_view_only_darkness_is_judged() -> None:
    """A dark, blurred-looking, tinted table with nothing on it says nothing of the lamp or the focus."""
    table = Light((20.0, 40.0, 60.0), edge_px=9.0, paper=False)
    assert [i.seen.split(":")[0] for i in table.issues()] == ["Too dark"]
    assert "no card or mat in view, and the lightest thing reads 60" in table.problems()[0]
    lit = Light((150.0, 160.0, 170.0), edge_px=9.0, paper=False)
    assert lit.issues() == []


def test_the_checker_measures_a_card_on_the_mat_at_its_true_size() -> None:
    rendered = render_scene(_scene())
    check = CameraChecker(CameraSettings(), (63.0, 88.0)).check(rendered.image)
    truth = rendered.truths[0].corners
    long_side = (np.hypot(*(truth[2] - truth[1])) + np.hypot(*(truth[3] - truth[0]))) / 2
    assert check.card_px == pytest.approx(long_side, rel=0.1)
