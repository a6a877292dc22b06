"""Each PigzUp! verdict in the history links to its race's picture, served from the race's trace."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np

from companion.games.base import GameSetup
from companion.games.pigzup.actions import MatchVerdict
from companion.table.race_files import TraceRetention, prune_traces
from companion.web.app import create_app

STOOD = Path(__file__).parents[1] / "table" / "fixtures" / "race-stood.jsonl"


def a_race_judged(table, tmp_path: Path) -> tuple[int, Path]:
    """A PigzUp! game whose first match Ben won, its race's trace kept: the game's id and the traces folder."""
    game_id = table.start_game(GameSetup("pigzup", ("Ann", "Ben")), source="test")
    table.submit({"type": "flip", "player": 0, "card": "3-pink-blue"}, "camera")
    table.submit({"type": "flip", "player": 1, "card": "3-green-pink"}, "camera")
    table.submit(MatchVerdict(1, "Ben's pile of 3 stood 0.6 s after the shout."), "judge")
    traces = tmp_path / "traces"
    traces.mkdir()
    shutil.copy(STOOD, traces / f"game-{game_id}-match-0.jsonl")
    return game_id, traces


def test_a_verdict_links_to_its_race_drawn_from_the_trace(table, settings, tmp_path):
    game_id, traces = a_race_judged(table, tmp_path)
    app = create_app(table, settings, traces=traces)
    try:
        client = app.test_client()
        page = client.get(f"/history/{game_id}").get_data(as_text=True)
        link = f'/history/{game_id}/race/0.png'
        assert f'<a href="{link}">the race, drawn</a>' in page
        assert page.count("the race, drawn") == 1  # the verdict only, not the flips
        response = client.get(link)
        assert response.status_code == 200 and response.mimetype == "image/png"
        image = cv2.imdecode(np.frombuffer(response.data, np.uint8), cv2.IMREAD_COLOR)
        assert image is not None and image.shape[1] == 1000
    finally:
        app.extensions["tableside"].broadcaster.close()


def test_a_race_never_recorded_is_a_404_in_words(table, settings, tmp_path):
    game_id = table.start_game(GameSetup("pigzup", ("Ann", "Ben")), source="test")
    (tmp_path / "traces").mkdir()
    (tmp_path / "traces" / f"game-{game_id}-match-1.jsonl").write_bytes(b"\xff\xfe not a trace")
    app = create_app(table, settings, traces=tmp_path / "traces")
    try:
        client = app.test_client()
        missing = client.get(f"/history/{game_id}/race/0.png")
        assert missing.status_code == 404
        assert "No race 1 of game 1 is recorded on this table: there is nothing to draw." in missing.get_data(
            as_text=True)
        assert "cannot be drawn: line 1: Not text" in client.get(f"/history/{game_id}/race/1.png").get_data(
            as_text=True)
        for bad in ("-1", "x", "1.5", "99999999999999999999999"):
            assert client.get(f"/history/{game_id}/race/{bad}.png").status_code == 404
        assert client.get("/history/99999999999999999999999/race/0.png").status_code == 404
        assert "the race, drawn" not in client.get(f"/history/{game_id}").get_data(as_text=True)
    finally:
        app.extensions["tableside"].broadcaster.close()


def test_without_a_traces_folder_nothing_is_linked_or_drawn(app, table):
    game_id = table.start_game(GameSetup("pigzup", ("Ann", "Ben")), source="test")
    assert app.test_client().get(f"/history/{game_id}/race/0.png").status_code == 404


def test_a_pruned_race_says_so_in_the_history_and_in_its_404(table, settings, tmp_path):
    game_id, traces = a_race_judged(table, tmp_path)
    (traces / "game-99-match-0.jsonl").write_text("a newer game's race\n")  # game 1 is now the older one
    assert prune_traces(traces, TraceRetention(games=1)) == [game_id]
    app = create_app(table, settings, traces=traces)
    try:
        client = app.test_client()
        page = client.get(f"/history/{game_id}").get_data(as_text=True)
        assert "the race, drawn" not in page
        assert page.count("the race's picture was pruned with older games") == 1  # the verdict only
        gone = client.get(f"/history/{game_id}/race/0.png")
        assert gone.status_code == 404 and "traces of older games are pruned" in gone.get_data(as_text=True)
    finally:
        app.extensions["tableside"].broadcaster.close()
