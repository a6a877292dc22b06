"""``companion backup`` and ``companion restore``: the event log copied out while the table plays, and back."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from companion.config import Config
from companion.table.backup import BackupError, backup, daily, restore


def run_backup(args: argparse.Namespace, config: Config) -> int:
    source = config.resolve(config.table.database)
    try:
        if args.daily:
            report, removed = daily(source, config.resolve(config.backup.folder), config.backup.keep)
            print(f"backed up {report.describe()}" if report else "today's copy is already there")
            for old in removed:
                print(f"removed {old} (keeping {config.backup.keep})")
        else:
            print(f"backed up {backup(source, Path(args.dest)).describe()}")
    except BackupError as exc:
        print(f"companion backup: {exc}", file=sys.stderr)
        return 1
    return 0


def run_restore(args: argparse.Namespace, config: Config) -> int:
    database = config.resolve(config.table.database)
    try:
        report, kept = restore(Path(args.copy), database)
    except BackupError as exc:
        print(f"companion restore: {exc}; nothing was changed", file=sys.stderr)
        return 1
    print(f"restored {report.describe()}")
    if kept is not None:
        print(f"the log it replaced is kept as {kept}")
    return 0


def register(groups: Any) -> None:
    back = groups.root.add_parser("backup", help="copy the game log (safe while the table plays)")
    where = back.add_mutually_exclusive_group(required=True)
    where.add_argument("dest", nargs="?", metavar="DEST", help="a file, or a folder for a dated copy")
    where.add_argument("--daily", action="store_true",
                       help="today's copy into [backup] folder, keeping the newest [backup] keep")
    back.set_defaults(run=run_backup)

    rest = groups.root.add_parser("restore", help="put a backup back as the game log (stop the table first)")
    rest.add_argument("copy", metavar="BACKUP", help="a file written by `companion backup`")
    rest.set_defaults(run=run_restore)
