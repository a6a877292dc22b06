"""Copies of the event log that are safe to take while the table plays: ``companion backup``, the daily copy
and ``companion restore``.

SQLite's online backup API copies the database page by page inside one read transaction: in WAL mode the table
keeps appending meanwhile, and the copy is the log as it stood at one instant (never half an event). Every copy
is written beside its destination under a temporary name, checked with ``PRAGMA integrity_check`` and only
then renamed into place, so a full card or a pulled plug never leaves a broken file under a backup's name.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

from companion.table.schema import SCHEMA_VERSION, version

DAILY_PREFIX = "tableside-"
DAILY_GLOB = f"{DAILY_PREFIX}????-??-??.sqlite3"


class BackupError(RuntimeError):
    """A backup or restore that cannot be done, with what to do about it; nothing was changed."""


@dataclass(frozen=True)
class BackupSettings:
    """The daily copy (the ``[backup]`` section): ``folder`` relative to the config file, ``keep`` the number of
    daily copies kept (the oldest go first). ``companion service install`` runs it from a systemd timer."""

    folder: str = "var/backups"
    keep: int = 14

    def __post_init__(self) -> None:
        if self.keep < 1:
            raise ValueError(f"keep: at least 1 daily copy, not {self.keep}")


@dataclass(frozen=True)
class BackupReport:
    path: Path
    games: int
    events: int
    size_bytes: int

    def describe(self) -> str:
        return f"{self.games} games ({self.events} events, {self.size_bytes / 1024:.0f} kB) in {self.path}"


@contextlib.contextmanager
def _open_existing(path: Path) -> Iterator[sqlite3.Connection]:
    """A connection to a log that must already exist (``mode=rw`` never creates an empty one)."""
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True, isolation_level=None)
    except sqlite3.OperationalError as exc:
        raise BackupError(f"cannot open the log {path}: {exc}") from None
    try:
        yield db
    finally:
        db.close()


def check(path: Path, *, quick: bool = False) -> BackupReport:
    """Integrity, schema version and size of a log or a copy of one; raises :class:`BackupError` if unusable.

    ``quick`` runs ``PRAGMA quick_check``: every page and row read, but the indexes not matched against their
    tables (``benchmarks/bench_log_check.py``: lighter on a big log); for a check repeated while the table plays."""
    with _open_existing(path) as db:
        try:
            problems = [row[0] for row in db.execute("PRAGMA quick_check" if quick else "PRAGMA integrity_check")]
            if problems != ["ok"]:
                raise BackupError(f"{path} is damaged: {'; '.join(problems[:3])}")
            found = version(db)
            if found > SCHEMA_VERSION:
                raise BackupError(f"{path} was written by a newer Tableside (schema {found}, this one reads up "
                                  f"to {SCHEMA_VERSION})")
            (games,) = db.execute("SELECT COUNT(*) FROM games").fetchone()
            (events,) = db.execute("SELECT COUNT(*) FROM events").fetchone()
        except sqlite3.DatabaseError as exc:
            raise BackupError(f"{path} is damaged or not a Tableside log ({exc})") from None
    return BackupReport(path, games, events, path.stat().st_size)


def copy_log(source: Path, dest: Path) -> BackupReport:
    """Copy the log ``source`` (live or not) to the file ``dest``, checked, replacing it atomically."""
    if dest.exists() and dest.resolve() == source.resolve():
        raise BackupError(f"{dest} is the log itself: give another file or folder")
    if not source.exists():
        raise BackupError(f"there is no log at {source} yet: nothing to back up")
    partial = dest.with_name(f".{dest.name}.partial")
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        partial.unlink(missing_ok=True)
        with _open_existing(source) as src:
            out = sqlite3.connect(partial)
            try:
                src.backup(out)
                out.execute("PRAGMA journal_mode=DELETE")  # a copy is one self-contained file
            finally:
                out.close()
        report = check(partial)
        os.replace(partial, dest)
    except (sqlite3.Error, OSError, BackupError) as exc:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        if isinstance(exc, BackupError):
            raise
        raise BackupError(f"cannot write {dest}: {exc}") from None
    return BackupReport(dest, report.games, report.events, report.size_bytes)


def backup(source: Path, dest: Path, now: datetime | None = None) -> BackupReport:
    """``companion backup DEST``: into the file ``DEST``, or a dated file when ``DEST`` is a folder."""
    if dest.is_dir():
        dest = dest / f"{DAILY_PREFIX}{(now or datetime.now()).strftime('%Y-%m-%d-%H%M%S')}.sqlite3"
    return copy_log(source, dest)


def daily(source: Path, folder: Path, keep: int, today: date | None = None) -> tuple[BackupReport | None, list[Path]]:
    """Today's copy in ``folder`` (unless it is already there), then the oldest removed beyond ``keep``.
    Returns the new copy (``None`` if today's existed) and the copies removed."""
    target = folder / f"{DAILY_PREFIX}{(today or date.today()).isoformat()}.sqlite3"
    report = None if target.exists() else copy_log(source, target)
    copies = sorted(folder.glob(DAILY_GLOB))
    removed = copies[: max(0, len(copies) - keep)]
    for old in removed:
        old.unlink()
    return report, removed


def restore(copy: Path, database: Path, now: datetime | None = None) -> tuple[BackupReport, Path | None]:
    """Put a checked copy back as the log; the log it replaces is kept beside it. Run with the table stopped.
    Returns the restored log's report and where the replaced log was kept (``None`` if there was none)."""
    check(copy)
    kept = None
    if database.exists():  # moved aside as it is, damaged or not, with its write-ahead log
        stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
        kept = database.with_name(f"{database.stem}.before-restore-{stamp}{database.suffix}")
        for suffix in ("", "-wal"):
            with contextlib.suppress(FileNotFoundError):
                os.replace(f"{database}{suffix}", f"{kept}{suffix}")
        Path(f"{database}-shm").unlink(missing_ok=True)
    with _open_existing(copy) as src:
        out = sqlite3.connect(database, isolation_level=None)
        try:
            src.backup(out)
            out.execute("PRAGMA journal_mode=WAL")
        except sqlite3.Error as exc:
            raise BackupError(f"cannot write {database}: {exc}") from None
        finally:
            out.close()
    return check(database), kept
