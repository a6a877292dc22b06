"""Zones drawn by hand for a table without the mat: the file, its checks, the drawing page, the command, and a
card found in a drawn zone (config -> zones file -> Recognizer -> CardFound.zone)."""

from __future__ import annotations

import http.client
import json
import signal
import subprocess
import sys
import threading
import tomllib
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from flask.testing import FlaskClient

from companion.cli import main
from companion.config import Config, load_config
from companion.sim.scene import Card, Scene, mat_to_table, render_scene
from companion.vision import commands
from companion.vision.catalog import Catalog
from companion.vision.live import card_watcher, recognizer_for, table_zones
from companion.vision.mat import mat_layout
from companion.vision.seats import table_zone_names
from companion.vision.sources import FrameSource
from companion.vision.zones import ZonesError, load_zones, save_zones, toml_string, validate_zones
from companion.vision.zones_page import EXTENSION, ZonesDrawing, create_zones_app
from companion.web.server import WebServer
from tests.waiting import PATIENCE, child_process, read_until, wait_until

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
    zones, drawn_on = table_zones(config.camera, config.resolve)
    assert drawn_on == FRAME
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


def _seat_3_around_the_card(tmp_path: Path, table_picture) -> Config:
    """A config whose zones file (drawn on 1280x720 pictures) puts the pictured card in seat-3."""
    _, (x, y) = table_picture
    save_zones(tmp_path / "zones.toml", {"seat-3": square(x, y, 90)}, FRAME)
    return load_config(write_config(tmp_path, 'mat = "none"\nzones_file = "zones.toml"'))


def test_zones_follow_the_camera_to_another_resolution_of_the_same_view(
    tmp_path: Path, catalogs, table_picture
) -> None:
    picture, _ = table_picture
    config = _seat_3_around_the_card(tmp_path, table_picture)
    recognizer = recognizer_for(catalogs["corgi-pileup"], config.camera, config.resolve)
    bigger = cv2.resize(cv2.imread(str(picture)), (1920, 1080), interpolation=cv2.INTER_LINEAR)
    assert [(c.face, c.zone) for c in recognizer.process(bigger).cards] == [("4", "seat-3")]


class StillCamera:
    """A ``cv2.VideoCapture`` stand-in that shows one picture for ever."""

    def __init__(self, picture: np.ndarray) -> None:
        self.picture = picture

    def isOpened(self) -> bool:  # OpenCV's name
        return True

    def read(self) -> tuple[bool, np.ndarray]:
        return True, self.picture.copy()

    def release(self) -> None:
        pass


def test_zones_drawn_on_another_view_are_refused_and_shown_as_the_cameras_problem(
    tmp_path: Path, catalogs, table_picture
) -> None:
    picture, _ = table_picture
    config = _seat_3_around_the_card(tmp_path, table_picture)
    square_frame = cv2.imread(str(picture))[:, :720]
    recognizer = recognizer_for(catalogs["corgi-pileup"], config.camera, config.resolve)
    with pytest.raises(ZonesError, match="drawn on 1280x720 pictures but the camera now gives 720x720"):
        recognizer.process(square_frame)

    source = FrameSource("camera", lambda: StillCamera(square_frame), live=True)
    watcher = card_watcher(source, catalogs["corgi-pileup"], config.camera, lambda seen, t: None, config.resolve)
    watcher.start()
    try:
        wait_until(lambda: "720x720" in watcher.health()["message"])
        health = watcher.health()
    finally:
        watcher.stop()
    assert health["ok"] is False and "720x720" in health["message"] and "calibrate zones" in health["message"]


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
    assert main(["-c", str(config), "calibrate", "camera", "--frames", "3"]) in (0, 1)
    assert "zones    seat-1, centre" in capsys.readouterr().out
    assert main(["-c", str(write_config(tmp_path, 'mat = "none"')), "calibrate", "camera", "--once"]) in (0, 1)
    assert "none drawn: every card is in zone 'table'" in capsys.readouterr().out


# ----------------------------------------------------------------------------------------- the page


@pytest.fixture
def drawing(tmp_path: Path) -> ZonesDrawing:
    frame = np.zeros((FRAME[1], FRAME[0], 3), np.uint8)
    cv2.rectangle(frame, (100, 100), (300, 250), (255, 255, 255), -1)
    return ZonesDrawing(frame, ["seat-1", "seat-4", "centre"], tmp_path / "calibration" / "zones.toml")


@pytest.fixture
def client(drawing: ZonesDrawing) -> FlaskClient:
    return create_zones_app(drawing).test_client()


def test_every_request_needs_the_token(client: FlaskClient, drawing: ZonesDrawing) -> None:
    for path in ("/", "/frame.jpg", "/static/zones.js", "/wrong-token/", f"/{drawing.token[:-1]}/frame.jpg",
                 f"/x{drawing.token}/"):
        response = client.get(path)
        assert response.status_code == 403, path
        assert "secret address that `companion calibrate zones` printed" in response.text
    response = client.post("/zones", json={"zones": {"seat-1": SQUARE}})
    assert response.status_code == 403
    assert not drawing.out.exists()


def test_the_page_offers_the_zones_and_shows_the_picture(client: FlaskClient, drawing: ZonesDrawing) -> None:
    page = client.get(f"/{drawing.token}/")
    assert page.status_code == 200
    assert 'width="1280" height="720"' in page.text
    assert [b.split('"')[0] for b in page.text.split('data-zone="')[1:]] == drawing.names
    assert f"/{drawing.token}/static/zones.js" in page.text
    assert "http" not in page.text.replace("http-equiv", "")  # nothing from a CDN
    assert page.headers["Referrer-Policy"] == "no-referrer"
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    frame = client.get(f"/{drawing.token}/frame.jpg")
    assert frame.mimetype == "image/jpeg"
    picture = cv2.imdecode(np.frombuffer(frame.data, np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape == (720, 1280, 3) and picture[175, 200].mean() > 200 and picture[500, 900].mean() < 30
    assert client.get(f"/{drawing.token}/static/zones.js").status_code == 200
    assert client.get(f"/{drawing.token}").status_code == 308  # to the page, still behind the token


def test_posting_good_zones_writes_the_file(client: FlaskClient, drawing: ZonesDrawing) -> None:
    response = client.post(f"/{drawing.token}/zones", json={"zones": {"centre": TRIANGLE, "seat-1": SQUARE}})
    assert response.status_code == 200
    assert response.json["ok"] is True
    assert f"Saved seat-1, centre to {drawing.out}" in response.json["message"]
    assert drawing.done.is_set()
    assert list(load_zones(drawing.out)) == ["seat-1", "centre"]  # in the page's order
    np.testing.assert_array_equal(load_zones(drawing.out)["seat-1"].ravel(), SQUARE)
    assert drawing.saved is not None and list(drawing.saved) == ["seat-1", "centre"]


@pytest.mark.parametrize(("body", "message"), [
    ("{not json", "send JSON like"),
    ("[1, 2]", "send JSON like"),
    ('{"seat-1": [1, 2, 3, 4, 5, 6]}', "send JSON like"),
    ('{"zones": {}}', "no zones drawn"),
    ('{"zones": {"seat-1": [100, 100, 300, 100]}}', "zone 'seat-1' has 2 corners"),
    ('{"zones": {"seat-1": [100, 100, 300, 100, 1300, 250]}}', "zone 'seat-1' has a corner (1300, 250) outside"),
    ('{"zones": {"seat-2": [100, 100, 300, 100, 300, 250]}}', "unknown zone 'seat-2'"),
    ('{"zones": {"centre": [100, 100, 300, 100, 300, 250], "seat-1": [1, 1, NaN, 5, 9, 9]}}', "zone 'seat-1' must"),
])
def test_bad_posts_are_refused_in_words_and_write_nothing(client: FlaskClient, drawing: ZonesDrawing, body: str,
                                                          message: str) -> None:
    response = client.post(f"/{drawing.token}/zones", data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.json["message"].startswith("Not saved: ")
    assert message in response.json["message"]
    assert not drawing.out.exists() and not drawing.out.parent.exists()
    assert not drawing.done.is_set()


# ----------------------------------------------------------------------------------------- the command


@pytest.fixture
def picture_file(tmp_path: Path, drawing: ZonesDrawing) -> Path:
    path = tmp_path / "still.png"
    cv2.imwrite(str(path), drawing.frame)
    return path


SERVED = threading.Event()  # set once the command under test is serving its page


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[WebServer]:
    """The command's server, once it is up (the command itself prints the URL; tests read it here)."""
    servers: list[WebServer] = []
    real = commands.serve

    def spy(*args: Any, **kwargs: Any) -> WebServer:
        servers.append(real(*args, **kwargs))
        SERVED.set()
        return servers[-1]

    SERVED.clear()

    monkeypatch.setattr(commands, "serve", spy)
    return servers


def when_served(servers: list[WebServer], then: Callable[[WebServer, str], None]) -> threading.Thread:
    """On another thread: wait for the command's server, then ``then(server, page path)``. If that fails, the
    command is stopped with Ctrl-C rather than left waiting for a browser."""
    main_thread = threading.main_thread().ident
    assert main_thread is not None

    def run() -> None:
        try:
            assert SERVED.wait(PATIENCE), "the command never served its page"
            then(servers[0], f"/{servers[0].app.extensions[EXTENSION].token}/")
        except BaseException:
            signal.pthread_kill(main_thread, signal.SIGINT)
            raise

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def request(server: WebServer, method: str, path: str, body: Any = None) -> tuple[int, dict[str, Any] | str]:
    connection = http.client.HTTPConnection(server.host, server.port, timeout=5)
    try:
        data = None if body is None else json.dumps(body)
        connection.request(method, path, data, {"Content-Type": "application/json"} if data else {})
        response = connection.getresponse()
        text = response.read().decode()
        return response.status, json.loads(text) if response.getheader("Content-Type") == "application/json" else text
    finally:
        connection.close()


def test_calibrate_zones_serves_the_page_and_writes_what_is_posted(
    tmp_path: Path, picture_file: Path, served: list[WebServer], capsys
) -> None:
    answers: list[tuple[int, Any]] = []

    def draw(server: WebServer, page: str) -> None:
        answers.append(request(server, "GET", "/"))
        answers.append(request(server, "POST", page + "zones", {"zones": {"seat-1": SQUARE[:4]}}))
        answers.append(request(server, "POST", page + "zones", {"zones": {"seat-1": SQUARE, "centre": TRIANGLE}}))

    config = write_config(tmp_path, 'mat = "none"')
    thread = when_served(served, draw)
    args = ["-c", str(config), "calibrate", "zones", "--image", str(picture_file), "--players", "2", "--port", "0"]
    assert main(args) == 0
    thread.join(PATIENCE)
    assert [status for status, _ in answers] == [403, 400, 200]
    assert "Saved seat-1, centre" in answers[2][1]["message"]
    out = tmp_path / "calibration" / "zones.toml"
    assert list(load_zones(out)) == ["seat-1", "centre"]
    printed = capsys.readouterr().out
    page = f"http://127.0.0.1:{served[0].port}/{served[0].app.extensions[EXTENSION].token}/"
    assert "Zones for 2 players: seat-1, seat-4, centre. Open in a browser" in printed
    assert f"  {page}\n" in printed
    assert f"zones seat-1, centre written to {out}" in printed
    assert "not drawn: seat-4" in printed
    assert '  mat = "none"\n  zones_file = "calibration/zones.toml"\n' in printed
    assert not served[0].running


def test_ctrl_c_stops_calibrate_zones_without_writing(tmp_path: Path, picture_file: Path) -> None:
    """A real Ctrl-C to a real process, sent once it says it is waiting for one (not after some time)."""
    out = tmp_path / "zones.toml"
    argv = [sys.executable, "-m", "companion", "calibrate", "zones", "--image", str(picture_file), "--port", "0",
            "--out", str(out)]
    with child_process(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as command:
        printed = read_until(command.stdout, "Ctrl-C stops without writing anything.")
        (page,) = [line.strip() for line in printed if line.startswith("  http://")]
        with urllib.request.urlopen(page, timeout=PATIENCE) as response:
            assert response.status == 200
        command.send_signal(signal.SIGINT)
        assert command.wait(PATIENCE) == 1
        assert command.stderr.read().strip() == "stopped: no zones written"
    assert not out.exists()


def test_calibrate_zones_explains_what_stops_it(tmp_path: Path, picture_file: Path, served: list[WebServer],
                                                capsys) -> None:
    (tmp_path / "bad.png").write_bytes(b"not a picture")
    assert main(["calibrate", "zones", "--image", str(tmp_path / "bad.png"), "--port", "0"]) == 1
    assert "bad.png: not a readable image" in capsys.readouterr().err
    config = write_config(tmp_path, 'source = "nowhere.mp4"')
    assert main(["-c", str(config), "calibrate", "zones", "--port", "0"]) == 1
    assert "no picture from the camera: nowhere.mp4" in capsys.readouterr().err
    blocker = commands.serve(create_zones_app(ZonesDrawing(np.zeros((8, 8, 3), np.uint8), ["a"], tmp_path)),
                             "127.0.0.1", 0)
    try:
        args = ["calibrate", "zones", "--image", str(picture_file), "--port", str(blocker.port)]
        assert main(args) == 1
        assert f"cannot listen on 127.0.0.1:{blocker.port}" in capsys.readouterr().err
    finally:
        blocker.stop()
    with pytest.raises(SystemExit):
        main(["calibrate", "zones", "--port", "70000"])
    assert "a port is a number 0-65535" in capsys.readouterr().err
    assert not (tmp_path / "calibration").exists()


def test_calibrate_zones_takes_a_frame_from_the_camera(tmp_path: Path, served: list[WebServer], capsys) -> None:
    def draw(server: WebServer, page: str) -> None:
        status, frame = request(server, "GET", page)
        assert status == 200 and 'width="1280" height="720"' in frame
        request(server, "POST", page + "zones", {"zones": {"seat-3": TRIANGLE}})

    thread = when_served(served, draw)
    out = tmp_path / "z.toml"
    assert main(["calibrate", "zones", "--players", "3", "--port", "0", "--out", str(out)]) == 0  # the sim camera
    thread.join(PATIENCE)
    assert list(load_zones(out)) == ["seat-3"]
    assert f"zones_file = {toml_string(str(out.resolve()))}" in capsys.readouterr().out


def test_capture_draws_both_players_grids_named_as_on_its_mat(tmp_path: Path, served: list[WebServer],
                                                               capsys) -> None:
    names = table_zone_names(2, "clash-of-corgis", "capture")
    assert names == [z.name for z in mat_layout("A2", "clash-of-corgis", "capture").zones]
    assert names[:5] == ["seat-2/exposed-1", "seat-2/exposed-2", "seat-2/exposed-3", "seat-2/exposed-4",
                         "seat-2/back-1"] and names[-1] == "seat-5/front-4" and len(names) == 24

    def draw(server: WebServer, page: str) -> None:
        request(server, "POST", page + "zones", {"zones": {"seat-5/front-4": TRIANGLE}})

    thread = when_served(served, draw)
    out = tmp_path / "z.toml"
    args = ["calibrate", "zones", "--game", "clash-of-corgis", "--variant", "capture", "--port", "0", "--out"]
    assert main([*args, str(out)]) == 0  # the sim camera
    thread.join(PATIENCE)
    assert list(load_zones(out)) == ["seat-5/front-4"]
    assert "Zones for 2 players: seat-2/exposed-1, " in capsys.readouterr().out
    assert main(["calibrate", "zones", "--game", "crazy-corgi", "--variant", "capture", "--port", "0"]) == 1
    assert "use --game clash-of-corgis --variant capture" in capsys.readouterr().err


# ----------------------------------------------------------------------------------------- in a browser


@pytest.mark.browser
def test_zones_are_drawn_by_clicking_corners_in_a_browser(page: Any, drawing: ZonesDrawing) -> None:
    from playwright.sync_api import expect

    server = commands.serve(create_zones_app(drawing), "127.0.0.1", 0)
    try:
        page.goto(f"{server.url}{drawing.token}/")
        expect(page.locator("#zone-name")).to_have_text("seat-1")
        canvas = page.locator("#frame")
        box = canvas.bounding_box()
        assert box is not None
        scale = box["width"] / FRAME[0]

        def click(x: float, y: float) -> None:
            canvas.click(position={"x": x * scale, "y": y * scale})

        for x, y in [(100, 100), (300, 100), (300, 250), (700, 700), (100, 250)]:
            click(x, y)
        expect(page.locator("#corners")).to_have_text("5")
        page.get_by_role("button", name="Undo point").click()
        page.get_by_role("button", name="Undo point").click()
        click(100, 250)
        page.get_by_role("button", name="Next zone").click()
        expect(page.locator("#zone-name")).to_have_text("seat-4")
        click(900, 100)
        click(1000, 100)
        page.get_by_role("button", name="Save").click()
        expect(page.locator("#status")).to_have_text("Not saved: zone 'seat-4' has 2 corners; a zone needs 3 to 100.")
        expect(page.locator("#status")).to_have_attribute("data-kind", "bad")
        assert not drawing.out.exists()
        page.get_by_role("button", name="Clear zone").click()
        expect(page.locator("#corners")).to_have_text("0")
        page.get_by_role("button", name="centre").click()
        for x, y in [(500, 400), (700, 400), (600, 600)]:
            click(x, y)
        expect(page.get_by_role("button", name="seat-1 (4)")).to_be_visible()
        page.get_by_role("button", name="Save").click()
        expect(page.locator("#status")).to_contain_text(f"Saved seat-1, centre to {drawing.out}")
        expect(page.get_by_role("button", name="Save")).to_be_disabled()
    finally:
        server.stop()
    zones = load_zones(drawing.out)
    assert list(zones) == ["seat-1", "centre"]
    np.testing.assert_allclose(zones["seat-1"].ravel(), SQUARE, atol=2)
    np.testing.assert_allclose(zones["centre"].ravel(), TRIANGLE, atol=2)


def test_on_the_mat_a_crazy_corgi_card_is_named_in_the_kennel_where_its_centre_lies(tmp_path: Path, catalogs) -> None:
    """The recogniser for Crazy Corgi's deck reads the mat's Kennel variant; another deck's reads the seats."""
    ox, oy = mat_to_table(Scene(mat="A3"))
    cards = (Card("crazy-corgi", "red-2-fawn", ox + 180, oy + 245, 0),
             Card("crazy-corgi", "wild", ox + 180, oy + 150, 0))
    picture = render_scene(Scene(cards=cards, mat="A3")).image
    config = load_config(write_config(tmp_path, 'mat = "A3"'))
    found = recognizer_for(catalogs["crazy-corgi"], config.camera, config.resolve).process(picture).cards
    assert sorted((c.face, c.zone) for c in found) == [("red-2-fawn", "seat-1/kennel-3"), ("wild", "centre")]
    plain = Scene(cards=(Card("corgi-pileup", "4", ox + 180, oy + 245, 0),), mat="A3")
    found = recognizer_for(catalogs["corgi-pileup"], config.camera, config.resolve).process(
        render_scene(plain).image).cards
    assert [(c.face, c.zone) for c in found] == [("4", "seat-1")]
