"""A seeded game of Corgi Pileup on the simulated table, refereed from the camera: every card is rendered,
read by the real recogniser and turned into a play by the table adapter; the bots answer the table's questions
through the prompts a phone answers; out-of-turn plays are caught; the log alone rebuilds the game."""

from __future__ import annotations

import random
import threading

import pytest

from companion.sim.corgi_demo import play_corgi_by_camera
from companion.sim.table_bots import CameraRun
from companion.table.replay import fold
from tests.sim.conftest import timed_both_ways


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_camera_refereed_game_reaches_a_winner_with_every_card_read(
        camera_config, camera_log, camera_session) -> None:
    config, log, session = camera_config, camera_log, camera_session
    # Scores carried on from paper (13 each) make it a one- or two-round game.
    game = play_corgi_by_camera(CameraRun(config, session, ("Ana", "Ben", "Cai"), random.Random(3), threading.Event(),
                                          options={"starting_scores": [13, 13, 13]}, pace=0.15), mischief=0.4)

    assert session.status() == "finished"
    assert session.game.ruleset.outcome(session.state).winners
    events = log.events(game.game_id)
    assert fold(events).state == session.state
    plays = [e for e in events if e.kind == "action" and e.payload["type"] in ("play", "six-discard")]
    by_camera = [e for e in plays if e.source.startswith("camera")]
    assert game.wrong == 0, "a misread must be a question, never a wrong entry"
    assert len(by_camera) >= 0.95 * len(plays) and game.camera_plays == len(by_camera)
    assert timed_both_ways(game)
    assert game.misbehaved >= 1 and game.caught == game.misbehaved
    choices = [e for e in events if e.kind == "action" and e.payload["type"] in ("six-target", "choose-leader",
                                                                                  "score-one")]
    assert all(e.source.startswith("prompt ") and e.source.endswith("'s phone") for e in choices)
    assert game.prompts >= len(choices)
