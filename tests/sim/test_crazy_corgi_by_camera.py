"""A seeded game of Crazy Corgi on the simulated table, refereed from the camera to a winner: every reveal and
placement is rendered, read by the real recogniser and turned into a move by the table adapter; the bots answer
the table's questions through the prompts a phone answers; the log alone rebuilds the game, and `companion replay`
replays its export."""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path

import pytest

from companion.cli import main
from companion.sim.crazy_corgi_demo import play_crazy_corgi_by_camera
from companion.sim.table_bots import CameraRun
from companion.table.commands import export_lines
from companion.table.replay import fold

CARD_MOVES = ("reveal", "place", "discard-kennel")
SHORT = {"starting_points": [4, 4]}  # carried on from paper, a set to go: a whole game films for minutes


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_short_crazy_corgi_game_is_refereed_from_the_camera_to_a_winner_and_replays(
        camera_config, camera_log, camera_session, tmp_path: Path, capsys) -> None:
    config, log, session = camera_config, camera_log, camera_session
    game = play_crazy_corgi_by_camera(CameraRun(config, session, ("Ana", "Ben"), random.Random(3),
                                                 threading.Event(), options=SHORT, pace=0.1))

    outcome = session.snapshot()["outcome"]
    assert session.status() == "finished" and outcome["winners"]
    events = log.events(game.game_id)
    assert fold(events).state == session.state
    moves = [e for e in events if e.kind == "action" and e.payload["type"] in CARD_MOVES]
    by_camera = [e for e in moves if e.source.startswith("camera")]
    assert game.wrong == 0, "a misread must be a question, never a wrong entry"
    assert len(by_camera) >= 0.95 * len(moves) and game.camera_plays == len(by_camera)
    choices = [e for e in events if e.kind == "action" and e.payload["type"] not in (*CARD_MOVES, "deal", "reshuffle")]
    assert all(e.source.startswith("prompt ") and e.source.endswith("'s phone") for e in choices)

    exported = tmp_path / "game.jsonl"
    exported.write_text("\n".join(export_lines(events)), encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", "crazy-corgi", str(exported)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["violations"] == [] and report["outcome"]["winners"] == outcome["winners"]
    assert report["state"]["points"] == session.state.points
    assert report["state"]["kennels"] == session.state.kennels
