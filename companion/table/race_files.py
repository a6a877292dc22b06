"""Where a PigzUp! race's trace is kept: one JSON-lines file per race, ``game-<id>-match-<n>.jsonl`` under
``[table] traces`` (``n`` counts the game's matches from 0), written once when the race ends; and how long.

A trace is 50-70 kB, so a season of game nights would fill the card: the newest games' traces are kept (see
:class:`TraceRetention`), a game's races together, and a game whose traces went leaves ``game-<id>.pruned`` so the
history says its pictures were pruned rather than dropping the links without a word.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from companion.games.base import MalformedAction
from companion.table.json_lines import parse_entry, read_lines

log = logging.getLogger(__name__)

TRACE_NAME = re.compile(r"game-(\d+)-match-(\d+)\.jsonl")


@dataclass(frozen=True)
class TraceRetention:
    """Which traces stay on the card (``[table] traces_keep_games``, ``traces_max_mb``): every race of the newest
    ``games`` games, as long as they fit in ``max_mb``; the oldest games go first, and the game being played is
    always kept whole."""

    games: int = 30
    max_mb: float = 100.0

    def __post_init__(self) -> None:
        if self.games < 1:
            raise ValueError(f"traces_keep_games: keep the traces of at least 1 game, not {self.games}")
        if not self.max_mb > 0:
            raise ValueError(f"traces_max_mb: a budget above 0 MB, not {self.max_mb}")


def trace_path(traces: Path, game_id: int | None, match: int) -> Path:
    return traces / f"game-{game_id}-match-{match}.jsonl"


def pruned_path(traces: Path, game_id: int) -> Path:
    """The mark a game's traces leave when they are pruned."""
    return traces / f"game-{game_id}.pruned"


def prune_traces(traces: Path, keep: TraceRetention, playing: int | None = None) -> list[int]:
    """Delete the traces of the games ``keep`` does not keep, oldest first, marking each such game; returns their
    ids. Only trace files are touched; ``playing`` (the game at the table) keeps its traces whatever their size.
    A file that cannot be read or removed is logged and left: an old trace left over harms nobody."""
    by_game: dict[int, list[Path]] = {}
    for path in traces.glob("game-*-match-*.jsonl"):
        if found := TRACE_NAME.fullmatch(path.name):
            by_game.setdefault(int(found[1]), []).append(path)
    budget, kept, pruned = keep.max_mb * 1_000_000, 0, []
    try:
        for rank, game_id in enumerate(sorted(by_game, reverse=True)):
            size = sum(path.stat().st_size for path in by_game[game_id])
            if game_id == playing or (not pruned and rank < keep.games and kept + size <= budget):
                kept += size
                continue
            pruned_path(traces, game_id).touch()  # first: a crash halfway still leaves the history's words right
            for path in by_game[game_id]:
                path.unlink(missing_ok=True)
            pruned.append(game_id)
    except OSError as exc:
        log.warning("could not prune the old race traces in %s: %s", traces, exc)
    if pruned:
        log.info("pruned the race traces of %d old games (%s)", len(pruned), keep)
    return sorted(pruned)


EARLIER_LOG = "from-an-earlier-log"
PRUNED_NAME = re.compile(r"game-(\d+)\.pruned")


def set_aside_foreign_traces(traces: Path, started_at: dict[int, float]) -> list[Path]:
    """Move the traces and prune marks no game of this log can have written into ``from-an-earlier-log/``; returns
    where they went. Traces are named by game id, and a fresh log (a new card, a deleted database) numbers its games
    from 1 again: an earlier log's ``game-1-match-0.jsonl`` must not pass for the new game 1's race. A file is
    foreign when its game is not in the log (``started_at``: game id -> start time) or when it was written before
    that game started. Set aside, never deleted: a referee may still want an old race."""
    moved: list[Path] = []
    aside = traces / EARLIER_LOG
    try:
        for path in sorted(traces.glob("game-*")):
            found = TRACE_NAME.fullmatch(path.name) or PRUNED_NAME.fullmatch(path.name)
            if found is None:
                continue
            started = started_at.get(int(found[1]))
            if started is not None and path.stat().st_mtime >= started:
                continue
            aside.mkdir(exist_ok=True)
            target = aside / path.name
            if target.exists():  # a third log's leftovers: keep both, the newer one under a dated name
                target = aside / f"{int(path.stat().st_mtime)}-{path.name}"
            os.replace(path, target)
            moved.append(target)
    except OSError as exc:
        log.warning("could not set aside an earlier log's race traces in %s: %s", traces, exc)
    if moved:
        log.warning("%d race traces in %s belong to no game of this log (an earlier log's): moved to %s",
                    len(moved), traces, aside)
    return moved


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
