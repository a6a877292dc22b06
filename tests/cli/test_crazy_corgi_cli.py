"""`companion games` lists Crazy Corgi and `companion replay crazy-corgi FILE` replays a game recorded at a table."""

from __future__ import annotations

import json
from pathlib import Path

from companion.cli import main

GAME = Path(__file__).resolve().parents[1] / "vectors" / "crazy-corgi-game.jsonl"


def test_games_lists_crazy_corgi(capsys):
    assert main(["games"]) == 0
    assert "crazy-corgi: Crazy Corgi, 2-6 players" in capsys.readouterr().out


def test_replay_of_a_table_game_reaches_its_winner(capsys):
    # A three-player game as the table records it: unseen shuffle, each revealed card as read, a misread reveal
    # taken back with an undo, Bones, Fleas, busts given away and forced Kennel discards.
    assert main(["replay", "crazy-corgi", str(GAME)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["status"] == "finished" and report["violations"] == []
    assert report["outcome"]["winners"] == ["Noa"] and report["outcome"]["reason"] == "Reached 5 points"
    state = report["state"]
    assert state["points"] == [1, 2, 5] == [sum(s["points"] for s in state["scored"] if s["player"] == p)
                                            for p in range(3)]
    assert "deck_order" not in state  # at the table nobody knows the deck order
    assert report["scoreboard"]["columns"] == ["Points", "Kennel 1", "Kennel 2", "Kennel 3", "Markers"]


def test_a_misread_card_is_refused_and_named(capsys, tmp_path):
    lines = GAME.read_text(encoding="utf-8").splitlines()[:3]
    seen = json.loads(lines[2])["card"]
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join([*lines, json.dumps({"type": "reveal", "player": 1, "card": seen})]), encoding="utf-8")
    assert main(["replay", "crazy-corgi", str(path)]) == 1
    (violation,) = json.loads(capsys.readouterr().out)["violations"]
    assert violation["line"] == 4 and violation["violation"]["code"] == "card-already-seen"
