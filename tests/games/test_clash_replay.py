"""`companion games` lists Clash of Corgis with its variants, and `companion replay clash-of-corgis FILE` replays
the sample game of each variant (tests/games/data/clash-*.jsonl)."""

from __future__ import annotations

from pathlib import Path

from companion.cli import main
from companion.games.clash_of_corgis import ClashOfCorgis
from companion.table.commands import replay_lines

DATA = Path(__file__).parent / "data"


def test_games_lists_clash_of_corgis_with_its_variants(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "clash-of-corgis: Clash of Corgis" in out
    for variant in ClashOfCorgis.variants:
        assert f"--variant {variant}" in out


def test_the_original_example_round_replays_from_its_file(capsys):
    path = DATA / "clash-original-example.jsonl"
    report = replay_lines("clash-of-corgis", path.read_text(encoding="utf-8").splitlines())
    assert report["violations"] == []
    assert report["state"]["rounds_won"] == [1, 0, 0, 0]
    assert report["state"]["discard"] == ["earth-1", "fire-7", "water-9", "earth-ace"]
    assert report["scoreboard"]["prompt"] == "P1 starts round 2: play any combo."
    assert main(["replay", "clash-of-corgis", str(path)]) == 0
    assert '"oracle_looks": 1' in capsys.readouterr().out


def test_a_replayed_refusal_names_the_rule(tmp_path):
    lines = (DATA / "clash-original-example.jsonl").read_text(encoding="utf-8").splitlines()[:4]
    lines.append('{"type": "play", "player": 1, "cards": ["fire-1"]}')
    report = replay_lines("clash-of-corgis", lines)
    (violation,) = report["violations"]
    assert violation["violation"]["message"] == "A single can only be beaten by a higher single (above 1)."


def test_the_treasure_island_example_fight_replays_from_its_file():
    path = DATA / "clash-treasure-island-example.jsonl"
    report = replay_lines("clash-of-corgis", path.read_text(encoding="utf-8").splitlines())
    assert report["violations"] == []
    fight = report["state"]["last_fight"]
    assert (fight["party_total"], fight["foes_total"], fight["won"]) == (16, 11, True)
    assert report["state"]["loot"] == [["wind-ace", "void-1"], []]
    assert report["scoreboard"]["rows"][0]["cells"][0] == 2


def test_the_capture_example_replays_from_its_file():
    # A capture at a real table: Insight recorded, the Monk reveals the Illusionist, no save, the recorded
    # re-set-up; then the Archer's pick reveals the other Illusionist and the Ace from the hand saves it.
    path = DATA / "clash-capture-example.jsonl"
    report = replay_lines("clash-of-corgis", path.read_text(encoding="utf-8").splitlines())
    assert report["violations"] == []
    state = report["state"]
    assert state["captures"] == [1, 0] and state["out"] == [["fire-ace"], []] and state["private_looks"] == [1, 0]
    assert state["tables"][0]["front-4"] == {"card": "fire-4", "position": "rested"}
    assert state["tables"][1]["exposed-2"] == {"card": "water-7", "position": "rested"}
    assert state["hand_counts"] == [2, 2]  # the Illusionist back in the hand, the Ace out
