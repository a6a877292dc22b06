"""Backups taken while the simulated table writes, the daily copy and its retention, restore, and export."""

from __future__ import annotations

import csv
import io
import json
import random
import sqlite3
import threading
from datetime import date

import pytest

from companion.cli import main
from companion.games.base import GameSetup
from companion.sim.demo import play_with_bots
from companion.table.backup import BackupError, backup, check, daily, restore
from companion.table.log import EventLog
from companion.table.replay import fold
from companion.table.session import TableSession

PLAYERS = ("Emily", "Peter", "Taylor")


def bots_play(session: TableSession, stop: threading.Event) -> None:
    """The simulated table: bots play Corgi Pileup game after game, every move appended to the log."""
    rng = random.Random(1)
    while not stop.is_set():
        setup = GameSetup("corgi-pileup", PLAYERS, "standard", {}, full_information=True)
        game_id = session.start_game(setup, source="demo")
        play_with_bots(session, game_id, rng, 0.0, stop)


def assert_whole_games(path) -> dict[int, list]:
    """Every game in the copy reads back and folds: its events run 0, 1, 2, ... with none half-written."""
    log = EventLog(path)
    try:
        games = {g.id: log.events(g.id) for g in log.list_games()}
    finally:
        log.close()
    for events in games.values():
        assert [e.seq for e in events] == list(range(len(events)))
        fold(events)
    return games


def test_backups_taken_while_the_table_writes_are_whole_and_restore(tmp_path):
    database = tmp_path / "var" / "tableside.sqlite3"
    log = EventLog(database)
    session = TableSession(log, seed=3)
    changes = threading.Semaphore(0)
    session.subscribe(lambda _snapshot: changes.release())
    stop = threading.Event()
    writer = threading.Thread(target=bots_play, args=(session, stop))
    writer.start()
    copies = []
    try:
        for number in range(4):
            for _ in range(25):  # the table has written more since the last copy
                assert changes.acquire(timeout=30)
            copies.append(backup(database, tmp_path / f"copy-{number}.sqlite3"))
    finally:
        stop.set()
        writer.join(timeout=60)
    assert not writer.is_alive()
    final = {g.id: log.events(g.id) for g in log.list_games()}
    log.close()
    sizes = []
    for report in copies:
        games = assert_whole_games(report.path)
        assert report.events == sum(len(e) for e in games.values())
        for game_id, events in games.items():  # each copy is the log as it stood at one instant
            assert events == final[game_id][: len(events)]
        sizes.append(report.events)
    assert sizes == sorted(sizes) and sizes[0] >= 25

    restored, kept = restore(copies[1].path, database)
    assert kept is not None and kept.exists() and restored.events == copies[1].events
    assert assert_whole_games(database) == assert_whole_games(copies[1].path)
    assert check(kept).events == sum(len(e) for e in final.values())


def test_a_backup_into_a_folder_is_dated_and_never_replaces_the_log_with_itself(tmp_path, db_path, session):
    session.start_game(GameSetup("corgi-pileup", PLAYERS), source="web")
    report = backup(db_path, tmp_path)
    assert report.path.parent == tmp_path and report.path.name.startswith("tableside-")
    assert report.games == 1 and report.events >= 1
    assert not report.path.with_name(report.path.name + "-wal").exists()  # one self-contained file
    assert sqlite3.connect(report.path).execute("PRAGMA journal_mode").fetchone() == ("delete",)
    with pytest.raises(BackupError, match="is the log itself"):
        backup(db_path, db_path)
    with pytest.raises(BackupError, match="no log at"):
        backup(tmp_path / "missing.sqlite3", tmp_path / "x.sqlite3")
    assert not (tmp_path / "missing.sqlite3").exists()


def test_a_backup_that_cannot_be_written_leaves_no_file_behind(tmp_path, db_path, session):
    session.start_game(GameSetup("corgi-pileup", PLAYERS), source="web")
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the folder should be")
    with pytest.raises(BackupError, match="cannot write"):
        backup(db_path, blocked / "copy.sqlite3")
    assert blocked.read_text() == "a file where the folder should be"


def test_daily_copies_keep_the_newest(tmp_path, db_path, session):
    session.start_game(GameSetup("corgi-pileup", PLAYERS), source="web")
    folder = tmp_path / "backups"
    for day in range(1, 6):
        report, removed = daily(db_path, folder, keep=3, today=date(2026, 11, day))
        assert report is not None and report.path.name == f"tableside-2026-11-0{day}.sqlite3"
    again, removed = daily(db_path, folder, keep=3, today=date(2026, 11, 5))
    assert again is None and removed == []
    assert sorted(p.name for p in folder.iterdir()) == [f"tableside-2026-11-0{d}.sqlite3" for d in (3, 4, 5)]


def test_restore_refuses_a_damaged_copy_and_changes_nothing(tmp_path, db_path, session):
    session.start_game(GameSetup("corgi-pileup", PLAYERS), source="web")
    damaged = tmp_path / "damaged.sqlite3"
    damaged.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    before = check(db_path)
    with pytest.raises(BackupError):
        restore(damaged, db_path)
    assert check(db_path) == before


@pytest.fixture
def config_file(tmp_path):
    path = tmp_path / "companion.toml"
    path.write_text('[table]\ndatabase = "t.sqlite3"\n[backup]\nfolder = "copies"\nkeep = 2\n', encoding="utf-8")
    return path


def test_backup_and_restore_commands(capsys, config_file, tmp_path):
    log = EventLog(tmp_path / "t.sqlite3")
    TableSession(log, seed=1).start_game(GameSetup("corgi-pileup", PLAYERS), source="web")
    log.close()
    assert main(["-c", str(config_file), "backup", "--daily"]) == 0
    assert "backed up 1 games" in capsys.readouterr().out
    assert main(["-c", str(config_file), "backup", "--daily"]) == 0
    assert "already there" in capsys.readouterr().out
    (copy,) = (tmp_path / "copies").iterdir()
    assert main(["-c", str(config_file), "restore", str(copy)]) == 0
    out = capsys.readouterr().out
    assert "restored 1 games" in out and "before-restore" in out
    assert main(["-c", str(config_file), "restore", str(tmp_path / "nope.sqlite3")]) == 1
    assert "nothing was changed" in capsys.readouterr().err


def test_log_export_all_as_json_lines_and_csv(capsys, config_file, tmp_path):
    log = EventLog(tmp_path / "t.sqlite3")
    session = TableSession(log, seed=1)
    setup = GameSetup("corgi-pileup", PLAYERS, "standard", {}, full_information=True)
    game_id = session.start_game(setup, source="web")
    play_with_bots(session, game_id, random.Random(2), 0.0, threading.Event())
    session.start_game(GameSetup("pigzup", ("Ann", "Ben")), source="web")
    stored = [(g.id, e.seq) for g in log.list_games() for e in log.events(g.id)]
    log.close()
    assert main(["-c", str(config_file), "log", "export", "--all"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["game_id"], r["seq"]) for r in lines] == stored
    assert lines[0]["kind"] == "start" and lines[0]["payload"]["players"] == list(PLAYERS)
    assert lines[-1]["game"] == "pigzup" and lines[-1]["status"] == "playing"
    assert main(["-c", str(config_file), "log", "export", "--all", "--format", "csv"]) == 0
    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(int(r["game_id"]), int(r["seq"])) for r in table] == stored
    assert json.loads(table[0]["payload"]) == lines[0]["payload"]
    assert table[0]["winners"] == "; ".join(lines[0]["winners"]) != ""
    assert main(["-c", str(config_file), "log", "export"]) == 2
    assert "or --all" in capsys.readouterr().err


def test_a_backup_opens_the_log_without_creating_one(tmp_path):
    with pytest.raises(BackupError):
        check(tmp_path / "absent.sqlite3")
    assert not (tmp_path / "absent.sqlite3").exists()
    sqlite3.connect(tmp_path / "empty.sqlite3").close()
    with pytest.raises(BackupError, match="damaged or not a Tableside log"):
        check(tmp_path / "empty.sqlite3")


@pytest.mark.parametrize("quick", [False, True], ids=["integrity_check", "quick_check"])
def test_both_checks_find_a_damaged_page(tmp_path, quick):
    """The device panel's quick check (every few minutes) finds a damaged page as the doctor's full check does."""
    path = tmp_path / "tableside.sqlite3"
    log = EventLog(path)
    log.create_game(GameSetup("corgi-pileup", ("Ann", "Ben")), 1.0, "test")
    log.close()
    assert check(path, quick=quick).events == 1
    data = bytearray(path.read_bytes())
    data[4096 + 8 : 4096 + 400] = b"\xa5" * 392  # the second page, where the games are
    path.write_bytes(bytes(data))
    with pytest.raises(BackupError, match="damaged"):
        check(path, quick=quick)
