"""A seeded game of Crazy Corgi on the simulated table, refereed from the camera: every reveal and placement is
rendered, read by the real recogniser and turned into a move by the table adapter; the bots answer the table's
questions through the prompts a phone answers; the log alone rebuilds the game."""

from __future__ import annotations

import random
import threading

import pytest

from companion.sim.crazy_corgi_demo import play_crazy_corgi_by_camera
from companion.table.replay import fold

CARD_MOVES = ("reveal", "place", "discard-kennel")


MOVES = 30  # the first turns of a game: a whole one films for many minutes (``companion demo --game crazy-corgi``)


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_first_turns_of_a_crazy_corgi_game_are_refereed_from_the_camera(
        camera_config, camera_log, camera_session) -> None:
    config, log, session = camera_config, camera_log, camera_session
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
