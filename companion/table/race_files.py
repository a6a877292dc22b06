"""Where a PigzUp! race's trace is kept: one JSON-lines file per race, ``game-<id>-match-<n>.jsonl`` under
``[table] traces`` (``n`` counts the game's matches from 0), written once when the race ends."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any


def trace_path(traces: Path, game_id: int | None, match: int) -> Path:
    return traces / f"game-{game_id}-match-{match}.jsonl"


def write_trace(path: Path, entries: Iterable[dict[str, Any]]) -> None:
    """Write the trace in one go, compact, through a temporary file: a crash mid-write leaves the old one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    partial.write_text("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in entries), encoding="utf-8")
    os.replace(partial, path)
