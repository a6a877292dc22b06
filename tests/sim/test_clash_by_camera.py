"""Seeded games of Clash of Corgis (Original, Treasure Island) on the simulated table, refereed from the camera:
every face-up card is rendered, read by the real recogniser and turned into a move by the table adapter; the bots
answer the table's questions on their phones; the log alone rebuilds the game."""

from __future__ import annotations

import random
import threading

import pytest

from companion.sim.clash_demo import play_clash_by_camera
from companion.sim.table_bots import CameraRun
from companion.table.replay import fold
from tests.sim.conftest import timed_both_ways

MOVES = 16  # the first turns of a game: a whole one films for many minutes (``companion demo --game clash-of-corgis``)
CARD_MOVES = ("play", "expose", "build", "reveal", "pick", "oracle", "discard", "parry")


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("variant", ["original", "treasure-island"])
def test_the_first_turns_of_a_clash_game_are_refereed_from_the_camera(
        camera_config, camera_log, camera_session, variant) -> None:
    config, log, session = camera_config, camera_log, camera_session
    enough = threading.Event()
    session.subscribe(lambda _snap: enough.set() if session.game and len(session.game.moves) >= MOVES else None)
    game = play_clash_by_camera(CameraRun(config, session, ("Ana", "Ben", "Cai"), random.Random(4), enough,
                                          variant=variant, pace=0.1))

    events = log.events(game.game_id)
    assert len(events) > MOVES
    assert fold(events).state == session.state
    assert game.wrong == 0, "a misread must be a question, never a wrong entry"
    assert game.typed == 0 and game.camera_plays >= 5
    assert timed_both_ways(game)
    by_camera = [e for e in events if e.source.startswith("camera")]
    assert len(by_camera) == game.camera_plays and all(e.payload["type"] in CARD_MOVES for e in by_camera)
    choices = [e for e in events if e.kind == "action" and not e.source.startswith(("camera", "chance"))]
    assert all(e.source.startswith("prompt ") and e.source.endswith("'s phone") for e in choices)
