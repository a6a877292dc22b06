"""`companion games` lists Squirrels and `companion replay squirrels FILE` replays a live-table sample game."""

from __future__ import annotations

import json
from pathlib import Path

from companion.cli import main

SAMPLE = Path(__file__).parent / "samples" / "squirrels-live.jsonl"


def test_games_lists_squirrels(capsys):
    assert main(["games"]) == 0
    assert "squirrels: Squirrels: The Card Game, 2-8 players" in capsys.readouterr().out


def test_replay_of_a_live_table_game_with_an_undo_and_the_end_of_round_reveal(capsys):
    assert main(["replay", "squirrels", str(SAMPLE)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["status"] == "finished" and report["violations"] == []
    state = report["state"]
    assert state["round_scores"] == [[0, 56]] and state["safe"] == 0
    assert [p["cards_left"] for p in state["players"]] == [0, 12]  # Ben: 8 in hand, 4 Blind cards
    assert state["pile_top"] == "one 5" and state["discarded"] + state["unused"] + 1 + 12 == 162
    assert report["outcome"]["winners"] == ["Ann"] and report["findings"] == []
    assert report["scoreboard"]["phase"] == "Game over after 1 round"


def test_a_refused_line_in_a_squirrels_replay_is_reported_and_play_carries_on(tmp_path, capsys):
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    lines.insert(5, json.dumps({"type": "play", "player": 0, "cards": ["4"]}))  # Ann again: not her turn
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines), encoding="utf-8")
    assert main(["replay", "squirrels", str(path)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert [(v["line"], v["violation"]["message"]) for v in report["violations"]] == [
        (6, "It is Ben's turn, not Ann's.")
    ]
    assert report["status"] == "finished" and report["state"]["round_scores"] == [[0, 56]]
