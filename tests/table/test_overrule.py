"""Overruling an earlier decision (issue 17): the move is replaced and what followed is replayed; moves the rules
no longer allow are named first and undone only on confirmation. Nothing is deleted from the log."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.base import GameSetup, IllegalMove, RuleViolation
from companion.games.pigzup.actions import Flip, MatchVerdict
from companion.games.registry import GAMES
from companion.table.log import EventLog
from companion.table.replay import fold
from companion.table.session import TableSession, WouldUndo

PIGZUP = GAMES["pigzup"]


@pytest.fixture
def table(tmp_path: Path) -> TableSession:
    return TableSession(EventLog(tmp_path / "log.sqlite3"), seed=7)


def race_to_verdict(table: TableSession) -> tuple[int, tuple[int, int]]:
    """Play a full-information PigzUp! game to its first race; the judge names the first racer. Returns the
    verdict's seq and the racers."""
    table.start_game(GameSetup("pigzup", ("Ann", "Ben"), full_information=True), source="test")
    while True:
        action = PIGZUP.legal_actions(table.state)[0]
        if isinstance(action, MatchVerdict):
            racers = table.state.race.racers
            return table.submit(MatchVerdict(racers[0], "judge"), source="judge").seq, racers
        table.submit(action, source="camera")


def test_an_old_verdict_is_overruled_and_the_moves_after_it_are_replayed(table: TableSession) -> None:
    # A real table: the camera reports whatever card was turned, so later flips still fit after the change.
    table.start_game(GameSetup("pigzup", ("Ann", "Ben")), source="test")
    table.submit(Flip(0, "3-pink-blue"), source="camera")
    table.submit(Flip(1, "3-blue-green"), source="camera")  # a match: Ann and Ben race
    verdict = table.submit(MatchVerdict(0, "Ann's pile stood"), source="judge")
    later = [table.submit(Flip(seat, face), source="camera")
             for seat, face in ((0, "2-pink-pink"), (1, "4-green-green"))]
    assert table.state.results[-1].winner == 0

    # Void: both take their cards back, and Ann (after Ben, who turned the matching card) still flips next.
    result = table.overrule(verdict.seq, {"type": "verdict", "winner": None, "reason": "both piles wobbled"},
                            source="web")

    assert not isinstance(result, RuleViolation)
    assert table.state.results[-1].winner is None
    moves = [m.event for m in table.game.moves]
    assert [e.payload for e in moves[-2:]] == [e.payload for e in later]  # replayed, in order, with their sources
    assert [e.source for e in moves[-3:]] == ["web", "camera", "camera"]
    events = table.log.events(table.game_id)
    undo = next(e for e in events if e.kind == "undo")
    assert undo.payload["overrules"] == verdict.seq and verdict.seq in undo.payload["revokes"]
    assert fold(events).state.results[-1].winner is None  # the log replays to the same table after a restart


def test_moves_the_change_would_undo_are_named_and_need_confirming(table: TableSession) -> None:
    verdict_seq, (_, second) = race_to_verdict(table)
    later = [table.submit(PIGZUP.legal_actions(table.state)[0], source="camera") for _ in range(2)]
    before = table.log.events(table.game_id)

    refused = table.overrule(verdict_seq, {"type": "verdict", "winner": second}, source="web")

    assert isinstance(refused, WouldUndo)  # the flips were of cards that now lie elsewhere
    assert [m["seq"] for m in refused.moves] == [e.seq for e in later]
    assert "undoes 2 later moves" in refused.message and "Confirm" in refused.message
    assert table.log.events(table.game_id) == before  # asking changed nothing

    accepted = table.overrule(verdict_seq, {"type": "verdict", "winner": second}, source="web", confirm=True)
    assert not isinstance(accepted, RuleViolation)
    assert table.state.results[-1].winner == second
    assert all(m.event.seq not in {e.seq for e in later} for m in table.game.moves)


@pytest.mark.parametrize("seq, code", [(999, "no-such-move"), (0, "no-such-move"), (1, "chance-move")])
def test_only_a_live_decision_can_be_overruled(table: TableSession, seq: int, code: str) -> None:
    race_to_verdict(table)
    result = table.overrule(seq, {"type": "verdict", "winner": None}, source="web")
    assert isinstance(result, IllegalMove) and result.code == code


def test_an_overrule_the_rules_refuse_changes_nothing(table: TableSession) -> None:
    verdict_seq, _ = race_to_verdict(table)
    before = table.log.events(table.game_id)
    result = table.overrule(verdict_seq, {"type": "flip", "player": 0, "card": "2-pink-pink"}, source="web")
    assert isinstance(result, RuleViolation)
    assert table.log.events(table.game_id) == before
