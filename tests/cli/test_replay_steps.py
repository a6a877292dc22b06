"""``companion replay --steps``: the state after every line; and the report's data for what was only in
messages (the last trick's winner, each round's points and resets, audit findings with their round and trick)."""

from __future__ import annotations

import json
from pathlib import Path

from companion.cli import main

# Emily and Peter, hidden hands, Peter starting on 12: Peter plays a 5 as his lowest card in trick 1 and shows a
# 2 in trick 4 (a broken claim); the final trick's 7 takes him past 15, back to 0, and Emily wins on 4.
ROUND = Path(__file__).parent / "data" / "corgi-round-with-a-reset.jsonl"


def run(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_steps_print_what_each_line_did_and_the_state_after_it(capsys):
    code, out = run(capsys, "replay", "corgi-pileup", str(ROUND), "--steps")
    assert code == 0
    steps, report = out.split("\n{\n", 1)
    blocks = steps.split("\nline ")
    assert len(blocks) == 12  # one per line of the file
    assert blocks[0] == ("line 1: game set up for Emily, Peter (standard).\n"
                         "  Before the first deal: Shuffle and deal 5 cards to each player.\n"
                         "  Emily: Score 0, Cards 0 | Peter: Score 12, Cards 0")
    assert blocks[3] == ("4: Peter played a 5.\n"
                         "  Round 1 · trick 2 of 5: Emily to lead any card.\n"
                         "  Emily: Score 0, Cards 4 | Peter: Score 12, Cards 4")
    assert blocks[11].startswith("12: Peter played a 7.\n  Game over after round 1: The game is over.")
    assert json.loads("{\n" + report)["outcome"]["winners"] == ["Emily"]


def test_json_steps_are_one_object_a_line_with_the_report_last(capsys):
    code, out = run(capsys, "replay", "corgi-pileup", str(ROUND), "--steps", "json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(lines) == 13
    assert [step["line"] for step in lines[:-1]] == list(range(1, 13))
    assert lines[3]["did"] == "Peter played a 5." and lines[3]["refused"] is None
    assert lines[3]["state"]["last_trick"] == {"cards": [{"player": 0, "card": 8}, {"player": 1, "card": 5}],
                                               "winner": 0}
    assert lines[-1]["game"] == "corgi-pileup"


def test_the_report_gives_the_round_the_last_trick_and_the_findings_as_data(capsys):
    _, out = run(capsys, "replay", "corgi-pileup", str(ROUND))
    report = json.loads(out)
    state = report["state"]
    assert state["last_trick"] == {"cards": [{"player": 0, "card": 4}, {"player": 1, "card": 7}], "winner": 1}
    assert state["rounds"] == [{"round": 1, "points": [4, 7], "reset": [1], "scores": [4, 0]}]
    (finding,) = report["findings"]
    assert (finding["code"], finding["player"], finding["round"], finding["trick"]) == ("broken-lowest-claim", 1, 1, 1)


def test_a_refused_line_is_a_step_too(capsys, tmp_path):
    path = tmp_path / "refused.jsonl"
    path.write_text("\n".join([*ROUND.read_text().splitlines()[:3], '{"type": "play", "player": 0, "card": 3}']),
                    encoding="utf-8")
    code, out = run(capsys, "replay", "corgi-pileup", str(path), "--steps", "json")
    step = json.loads(out.splitlines()[3])
    assert code == 1
    assert step["did"] == "refused: It is Peter's turn, not Emily's." and step["refused"]["code"] == "not-your-turn"
