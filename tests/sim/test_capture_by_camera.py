"""A seeded game of Capture the Illusionist on the simulated table, refereed from the camera: every card turned
up, put in the exposed row or turned sideways is rendered, read by the real recogniser and turned into a move by
the table adapter; the bots answer the table's questions on their phones; the log alone rebuilds the game."""

from __future__ import annotations

import random
import threading

import pytest

from companion.sim.capture_demo import play_capture_by_camera
from companion.sim.table_bots import CameraRun
from companion.table.replay import fold
from tests.sim.conftest import timed_both_ways

MOVES = 8  # the first turns of a game (``companion demo --game clash-of-corgis --variant capture`` plays one out)


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_first_turns_of_a_capture_game_are_refereed_from_the_camera(
        camera_config, camera_log, camera_session) -> None:
    config, log, session = camera_config, camera_log, camera_session
    enough = threading.Event()
    session.subscribe(lambda _snap: enough.set() if session.game and len(session.game.moves) >= MOVES else None)
    game = play_capture_by_camera(CameraRun(config, session, ("Ana", "Ben"), random.Random(5), enough, pace=0.1))

    events = log.events(game.game_id)
    assert len(events) > MOVES
    assert fold(events).state == session.state
    assert game.wrong == 0, "a misread must be a question, never a wrong entry"
    by_camera = [e for e in events if e.kind == "action" and e.source.startswith("camera")
                 and e.payload["type"] != "pick"]  # a blind pick from a hand is recorded with its reveal
    assert by_camera and game.camera_plays == len(by_camera)
    assert game.typed == 0, "every move is recorded from the cards or answered on a phone"
    assert timed_both_ways(game)
    choices = [e for e in events if e.kind == "action" and e.source not in ("chance",) and not e.source.startswith(
        "camera")]
    assert all(e.source.startswith("prompt ") and e.source.endswith("'s phone") for e in choices)
