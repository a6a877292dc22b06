"""Race traces are pruned as a game night expects: the newest games' traces stay (all of a game's races
together), the oldest games' go first, the game at the table is never touched, and a pruned game is marked so the
history says so."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from companion.config import ConfigError, load_config
from companion.games.base import GameSetup
from companion.table.live import LiveTable
from companion.table.observations import ButtonPress, CardSeen, PadReading, PileState
from companion.table.pigzup_judge import JudgeSettings
from companion.table.race_files import (
    EARLIER_LOG,
    TRACE_NAME,
    TraceRetention,
    prune_traces,
    pruned_path,
    set_aside_foreign_traces,
    trace_path,
)

KB = 1000


def traces_of(folder: Path, games: dict[int, int], kb_each: int = 60) -> None:
    """``games``: game id -> number of races, each trace ``kb_each`` kB."""
    folder.mkdir(parents=True, exist_ok=True)
    for game_id, races in games.items():
        for match in range(races):
            trace_path(folder, game_id, match).write_bytes(b"x" * kb_each * KB)


def kept(folder: Path) -> dict[int, int]:
    games: dict[int, int] = {}
    for path in folder.glob("game-*-match-*.jsonl"):
        if (found := TRACE_NAME.fullmatch(path.name)) is not None:
            games[int(found[1])] = games.get(int(found[1]), 0) + 1
    return games


def test_the_newest_games_are_kept_whole_and_the_oldest_marked(tmp_path):
    traces_of(tmp_path, {1: 3, 2: 1, 3: 4, 4: 2, 5: 5})
    assert prune_traces(tmp_path, TraceRetention(games=3)) == [1, 2]
    assert kept(tmp_path) == {3: 4, 4: 2, 5: 5}
    assert [p.name for p in sorted(tmp_path.glob("*.pruned"))] == ["game-1.pruned", "game-2.pruned"]
    assert prune_traces(tmp_path, TraceRetention(games=3)) == []  # nothing more to do


def test_over_the_budget_the_oldest_games_go_first_but_never_the_game_being_played(tmp_path):
    traces_of(tmp_path, {7: 10, 8: 10, 9: 10})  # 600 kB each
    assert prune_traces(tmp_path, TraceRetention(games=30, max_mb=1.3)) == [7]
    assert kept(tmp_path) == {8: 10, 9: 10}
    assert prune_traces(tmp_path, TraceRetention(games=30, max_mb=0.5), playing=9) == [8]
    assert kept(tmp_path) == {9: 10}  # the game at the table keeps all its races, over the budget or not
    # A smaller game older than one pruned goes too: the oldest always go first.
    traces_of(tmp_path, {2: 1}, kb_each=1)
    assert prune_traces(tmp_path, TraceRetention(games=30, max_mb=0.5), playing=9) == [2]


def test_only_trace_files_are_touched(tmp_path):
    traces_of(tmp_path, {1: 1, 2: 1})
    others = [tmp_path / "game-1-match-1.partial", tmp_path / "notes.txt", tmp_path / "game-x-match-0.jsonl"]
    for other in others:
        other.write_text("keep me")
    prune_traces(tmp_path, TraceRetention(games=1))
    assert kept(tmp_path) == {2: 1} and all(other.read_text() == "keep me" for other in others)
    assert prune_traces(tmp_path / "absent", TraceRetention()) == []  # no folder yet: nothing to prune


def test_the_retention_is_set_in_the_config_file_and_checked(tmp_path):
    config = tmp_path / "companion.toml"
    config.write_text("[table]\ntraces_keep_games = 12\ntraces_max_mb = 40\n")
    assert load_config(config).table.keep_traces() == TraceRetention(games=12, max_mb=40.0)
    assert load_config(None).table.keep_traces() == TraceRetention()
    for bad, words in (("traces_keep_games = 0", "at least 1 game"), ("traces_max_mb = -5", "above 0 MB"),
                       ('traces_keep_games = "all"', "expected a whole number")):
        config.write_text(f"[table]\n{bad}\n")
        with pytest.raises(ConfigError, match=words):
            load_config(config)


def test_a_race_ending_at_the_table_prunes_the_oldest_games(session, tmp_path):
    folder = tmp_path / "traces"
    for _ in range(2):  # two earlier games, with their races' traces
        session.start_game(GameSetup("pigzup", ("Ann", "Ben", "Cat")), source="web")
    traces_of(folder, {1: 2, 2: 2})
    game_id = session.start_game(GameSetup("pigzup", ("Ann", "Ben", "Cat")), source="web")
    now = [0.0]
    live = LiveTable(session, lambda zone, _n: {"seat-1": 0, "seat-3": 1}.get(zone),
                     settings={"pigzup": JudgeSettings(hold_seconds=1.0)}, traces=folder,
                     keep_traces=TraceRetention(games=2), clock=lambda: now[0])
    live.observe(CardSeen("seat-1", "3-pink-blue", 0.9), t=1.0)
    live.observe(CardSeen("seat-3", "3-green-pink", 0.9), t=2.0)
    live.observe(PadReading(1, PileState.STABLE, 3, 2.5, grams=27.0))
    live.observe(ButtonPress(1, 2.5))
    live.observe(PadReading(1, PileState.TOPPLED, 3, 2.8, grams=9.0))  # Ben's pile falls: Ann wins
    now[0] = 3.0
    live.drain()
    assert session.state.results[-1].winner == 0
    assert kept(folder) == {2: 2, game_id: 1}
    assert pruned_path(folder, 1).is_file()
    assert live.view()["match"]["traced"] == {"game_id": game_id, "match": 0}


def test_a_fresh_log_sets_aside_the_traces_an_earlier_log_left_under_the_same_game_ids(session, tmp_path):
    folder = tmp_path / "traces"
    traces_of(folder, {1: 2, 2: 1, 7: 1})  # an earlier log's games 1, 2 and 7 (its card was wiped)
    pruned_path(folder, 5).touch()
    long_ago = time.time() - 3600
    for path in folder.iterdir():
        os.utime(path, (long_ago, long_ago))
    session.start_game(GameSetup("pigzup", ("Ann", "Ben")), source="web")  # this log's game 1, started now
    session.start_game(GameSetup("pigzup", ("Ann", "Ben")), source="web")
    trace_path(folder, 2, 0).write_bytes(b"this log's own race")  # written after game 2 started: it stays
    started = {game.id: game.started_at for game in session.log.list_games()}

    moved = set_aside_foreign_traces(folder, started)

    assert sorted(p.name for p in moved) == ["game-1-match-0.jsonl", "game-1-match-1.jsonl", "game-5.pruned",
                                             "game-7-match-0.jsonl"]
    assert kept(folder) == {2: 1} and trace_path(folder, 2, 0).read_bytes() == b"this log's own race"
    assert all(p.parent == folder / EARLIER_LOG and p.stat().st_size in (0, 60 * KB) for p in moved)
    assert set_aside_foreign_traces(folder, started) == []  # nothing more to do
    traces_of(folder, {7: 1})  # a third log's game 7: the one set aside before is not overwritten
    os.utime(trace_path(folder, 7, 0), (long_ago + 60, long_ago + 60))
    assert len(set_aside_foreign_traces(folder, started)) == 1
    assert len(list((folder / EARLIER_LOG).glob("*game-7-match-0.jsonl"))) == 2
