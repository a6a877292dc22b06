"""Where a PigzUp! race's trace is kept: one JSON-lines file per race, ``game-<id>-match-<n>.jsonl`` under
``[table] traces`` (``n`` counts the game's matches from 0), written once when the race ends."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any, BinaryIO

from companion.games.base import MalformedAction
from companion.table.json_lines import parse_entry, read_lines


def trace_path(traces: Path, game_id: int | None, match: int) -> Path:
    return traces / f"game-{game_id}-match-{match}.jsonl"


def write_trace(path: Path, entries: Iterable[dict[str, Any]]) -> None:
    """Write the trace in one go, compact, through a temporary file: a crash mid-write leaves the old one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    partial.write_text("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in entries), encoding="utf-8")
    os.replace(partial, path)


def read_match_trace(stream: BinaryIO) -> list[dict[str, Any]]:
    """A judge trace's entries, checked: raises ``ValueError`` naming the first line that is not a trace entry
    (a racer or seat the call does not seat, a trace with no match call)."""
    entries: list[dict[str, Any]] = []
    seats = 0
    for number, line in enumerate(read_lines(stream), start=1):
        if line is not None and not line.strip():
            continue
        try:
            entry = parse_entry(line)
        except MalformedAction as bad:
            raise ValueError(f"line {number}: {bad.message}") from None
        if not isinstance(entry, dict) or not isinstance(entry.get("kind"), str):
            raise ValueError(f"line {number}: an entry is an object with a 'kind'")
        if entry["kind"] == "call":
            players, racers = entry.get("players"), entry.get("racers")
            seats = len(players) if isinstance(players, list) else 0
            if not (isinstance(racers, list) and len(racers) == 2 and len(set(map(str, racers))) == 2):
                raise ValueError(f"line {number}: a match call names two different racers")
            entry_seats = racers
        else:
            entry_seats = [entry["seat"]] if "seat" in entry else []
        for seat in entry_seats:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
                raise ValueError(f"line {number}: seat {seat!r} is not one of the {seats} seats of the match call")
        entries.append(entry)
    if not any(e["kind"] == "call" for e in entries):
        raise ValueError("it has no match call: nothing to judge")
    return entries
