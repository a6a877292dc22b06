"""Nothing the referee does, at any moment, knocks the table over, and neither does a kill at any point.

`companion demo` runs as its own process (the simulated table, status page on). A referee client unlocks with the
PIN and presses every control — start, end, undo, correct, enter a move, overrule a verdict, lock — at random
moments of a game; the status page must answer throughout and the process must live. Then the process is killed
with SIGKILL at a random point and started again: it resumes the stored game and carries on.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.table.log import EventLog

ROOT = Path(__file__).parents[2]
PIN = "1234"
PIN_HASH = "scrypt$16384$8$1$2ba1oTK-04WvnsgXZj05nQ$LxpJOgsurjecJWucjGI8blr0CHi0w8cVhrJBBOtnLzY"


@dataclass
class Demo:
    process: subprocess.Popen[str]
    url: str

    def alive(self) -> bool:
        return self.process.poll() is None

    def said(self) -> str:
        """What the process printed since the status page came up (for a failure's message)."""
        assert self.process.stdout is not None
        return self.process.stdout.read() or ""


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "companion.toml"
    path.write_text(
        f'[table]\ndatabase = "t.sqlite3"\nvoice = ""\n[serial]\ncalibration = "{ROOT / "calibration" / "pads.toml"}"\n'
        f'[web]\nport = 0\nsecret_key_file = "key"\npin_hash = "{PIN_HASH}"\n[camera]\nforget_frames = 8\n'
        "[judge]\nhold_seconds = 0.6\n",
        encoding="utf-8",
    )
    return path


@pytest.fixture
def demos() -> Iterator[list[Demo]]:
    """Every demo process a test starts, stopped on every path."""
    started: list[Demo] = []
    yield started
    for demo in started:
        if demo.alive():
            demo.process.kill()
        demo.process.wait()


def start_demo(demos: list[Demo], config: Path, *args: str) -> Demo:
    """``companion demo`` in its own process; returns once it prints the status page's address."""
    process = subprocess.Popen([sys.executable, "-m", "companion", "-c", str(config), "demo", *args],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    demo = Demo(process, "")
    demos.append(demo)
    assert process.stdout is not None
    printed = []
    for line in process.stdout:
        printed.append(line)
        if line.startswith("Status page:"):
            demo.url = line.split()[-1]
            os.set_blocking(process.stdout.fileno(), False)  # the play-by-play goes on; we no longer read it
            return demo
    raise AssertionError(f"the demo stopped before serving the status page (exit {process.wait()}): "
                         f"{''.join(printed)[-3000:]}")


class Referee:
    """A phone with the referee PIN: cookies and the CSRF token, as the page's JavaScript keeps them."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.csrf = ""
        self.csrf = self.get("/api/referee")[1]["csrf_token"]

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url.rstrip("/") + path, data=data, method=method,
                                         headers={"Content-Type": "application/json", "X-CSRF-Token": self.csrf})
        try:
            with self.opener.open(request, timeout=30) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as refused:
            status, raw = refused.code, refused.read()
        payload = json.loads(raw) if raw.startswith((b"{", b"[")) else raw.decode(errors="replace")
        if isinstance(payload, dict) and "csrf_token" in payload:
            self.csrf = payload["csrf_token"]
        return status, payload

    def get(self, path: str) -> tuple[int, Any]:
        return self.request("GET", path)

    def post(self, path: str, body: Any = None) -> tuple[int, Any]:
        return self.request("POST", path, body if body is not None else {})


def moves_for(game: str, rng: random.Random) -> dict[str, Any]:
    """A move the referee might type: often refused, sometimes taken, never a crash."""
    if game == "pigzup":
        return rng.choice([
            {"type": "flip", "player": rng.randrange(3), "card": f"{rng.randint(1, 4)}-pink-blue"},
            {"type": "verdict", "winner": rng.choice([None, 0, 1, 2]), "reason": "the referee overrules"},
            {"type": "roll", "face": rng.randint(1, 6)},
        ])
    return rng.choice([
        {"type": "play", "player": rng.randrange(3), "card": rng.randint(1, 10)},
        {"type": "six-target", "player": rng.randrange(3), "target": rng.randrange(3)},
        {"type": "score-one", "player": rng.randrange(3), "value": rng.randint(0, 10)},
    ])


def press_every_control(demo: Demo, game: str, rng: random.Random, presses: int) -> set[str]:
    """Random referee controls at random moments; the page answers every time, the process never dies."""
    referee = Referee(demo.url)
    assert referee.post("/api/referee/unlock", {"pin": PIN})[0] == 200
    pressed = set()
    for _ in range(presses):
        control = rng.choice(["undo", "undo", "action", "correct", "end", "start", "lock", "answer"])
        if control == "action":
            status, _ = referee.post("/api/referee/action", moves_for(game, rng))
        elif control == "correct":
            status, _ = referee.post("/api/referee/correct", moves_for(game, rng))
        elif control == "start":
            other = rng.choice(["corgi-pileup", "pigzup"])
            status, _ = referee.post("/api/referee/start", {"game": other, "players": ["Ann", "Ben", "Cat"]})
        elif control == "lock":
            assert referee.post("/api/referee/lock")[0] == 200
            status, _ = referee.post("/api/referee/undo")
            assert status == 401, "a locked page must refuse the referee's controls"
            status, _ = referee.post("/api/referee/unlock", {"pin": PIN})
        elif control == "answer":
            prompts = referee.get("/api/prompts")[1]["prompts"]
            status = referee.post(f"/api/prompts/{prompts[0]['id']}", {"option": 0})[0] if prompts else 200
        else:
            status, _ = referee.post(f"/api/referee/{control}", {"reason": "the referee's test"})
        assert status < 500, (control, status)
        pressed.add(control)
        assert demo.alive(), f"the table fell over after {control}: {demo.said()[-3000:]}"
        page, _ = referee.get("/")
        state_status, state = referee.get("/api/state")
        assert page == 200 and state_status == 200 and "status" in state
        time.sleep(rng.uniform(0.05, 0.4))
    return pressed


def stored(config: Path) -> tuple[int, int, str]:
    """The log as a killed demo left it: its last game, that game's last seq and its status."""
    log = EventLog(config.parent / "t.sqlite3")
    try:
        game_id = log.latest_game()
        assert game_id is not None, "the demo stored no game"
        return game_id, log.events(game_id)[-1].seq, log.game(game_id).status
    finally:
        log.close()


def wait_for(check: Any, what: str, timeout: float = 240.0) -> Any:
    """Poll ``check`` until it returns something true (the table moves at its own pace)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = check()
        if result:
            return result
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize(("game", "entry"), [("corgi-pileup", "direct"), ("corgi-pileup", "camera"),
                                             ("pigzup", "camera")])
def test_every_referee_control_at_any_moment_leaves_the_table_standing(config, demos, game, entry) -> None:
    rng = random.Random(f"{game}/{entry}")
    demo = start_demo(demos, config, "--game", game, "--entry", entry, "--players", "3", "--seed", "4",
                      "--speed", "4", "--delay", "0.05", "--then", "serve")
    pressed = press_every_control(demo, game, rng, presses=30)
    assert {"undo", "end", "start", "correct", "action", "lock"} <= pressed
    demo.process.send_signal(signal.SIGINT)  # Ctrl-C stops it cleanly, whatever the game came to
    assert demo.process.wait(timeout=60) == 0


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize(("game", "entry"), [("corgi-pileup", "direct"), ("corgi-pileup", "camera"),
                                             ("pigzup", "camera")])
def test_a_kill_at_any_point_resumes_the_stored_game_and_carries_on(config, demos, game, entry) -> None:
    rng = random.Random(f"kill/{game}/{entry}")
    args = ("--game", game, "--entry", entry, "--players", "3", "--seed", "7", "--speed", "4", "--delay", "0.05",
            "--then", "serve")
    for _kill in range(2):
        demo = start_demo(demos, config, *args)
        referee = Referee(demo.url)
        first = referee.get("/api/state")[1]
        target = first["seq"] + rng.randint(1, 12)
        state = wait_for(lambda r=referee, t=target: ((s := r.get("/api/state")[1])["seq"] >= t
                                                      or s.get("outcome")) and s, "moves")
        demo.process.send_signal(signal.SIGKILL)
        demo.process.wait()
        game_id, seq, status = stored(config)  # the log, not the last read: moves may have come between
        assert game_id == state["game_id"]
        again = start_demo(demos, config, *args)
        referee = Referee(again.url)
        resumed = referee.get("/api/state")[1]
        if status != "playing":  # killed after the last move: that game stays as it ended (a new one may follow)
            assert resumed["game_id"] >= game_id and again.alive()
        else:
            assert resumed["game_id"] == game_id and resumed["seq"] >= seq, "the game was not resumed"
            try:  # past the kill's point, not the first read's: the bots may end the game before that read
                wait_for(lambda r=referee, s=seq: r.get("/api/state")[1]["seq"] > s, "the bots to carry on")
            except AssertionError as stuck:
                raise AssertionError(f"{stuck}; the resumed demo said: {again.said()[-3000:]}") from None
            assert again.alive()
        again.process.kill()
        again.process.wait()
