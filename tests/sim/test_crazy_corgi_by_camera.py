"""A seeded game of Crazy Corgi on the simulated table, refereed from the camera: every reveal and placement is
rendered, read by the real recogniser and turned into a move by the table adapter; the bots answer the table's
questions through the prompts a phone answers; the log alone rebuilds the game."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest

from companion.config import load_config
from companion.sim.crazy_corgi_demo import play_crazy_corgi_by_camera
from companion.table.log import EventLog
from companion.table.replay import fold
from companion.table.session import TableSession

ROOT = Path(__file__).parents[2]
CARD_MOVES = ("reveal", "place", "discard-kennel")


MOVES = 30  # the first turns of a game: a whole one films for many minutes (``companion demo --game crazy-corgi``)


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_first_turns_of_a_crazy_corgi_game_are_refereed_from_the_camera(tmp_path: Path) -> None:
    config_file = tmp_path / "companion.toml"
    config_file.write_text(
        f'[table]\ndatabase = "t.sqlite3"\n[serial]\ncalibration = "{ROOT / "calibration" / "pads.toml"}"\n'
        "[web]\nenabled = false\n[camera]\nforget_frames = 8\n",
        encoding="utf-8",
    )
    config = load_config(config_file)
    log = EventLog(tmp_path / "t.sqlite3")
    session = TableSession(log, seed=5)
    enough = threading.Event()
    session.subscribe(lambda _snap: enough.set() if session.game and len(session.game.moves) >= MOVES else None)
    game = play_crazy_corgi_by_camera(config, session, ("Ana", "Ben"), random.Random(3), enough, pace=0.1)

    events = log.events(game.game_id)
    assert len(events) > MOVES
    assert fold(events).state == session.state
    moves = [e for e in events if e.kind == "action" and e.payload["type"] in CARD_MOVES]
    by_camera = [e for e in moves if e.source.startswith("camera")]
    assert game.wrong == 0, "a misread must be a question, never a wrong entry"
    assert len(by_camera) >= 0.95 * len(moves) and game.camera_plays == len(by_camera)
    choices = [e for e in events if e.kind == "action" and e.payload["type"] not in (*CARD_MOVES, "deal", "reshuffle")]
    assert all(e.source.startswith("prompt ") and e.source.endswith("'s phone") for e in choices)
    log.close()
