"""One game's record in plain words, for the history page and ``/api/history/<id>``.

The log holds the seeds of the companion's shuffles in full-information games; a seed rebuilds every hand and
the order of the draw pile, so only the referee sees them (``secrets=True``). Everyone else sees that a deal
happened, and the played cards the table saw.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.base import RuleViolation
from companion.games.registry import GAMES
from companion.table.log import Event, EventLog, GameSummary
from companion.table.replay import fold

LARGEST_GAME_ID = 2**63 - 1  # SQLite's largest integer: a longer number in a URL names no game


@dataclass(frozen=True)
class GameRecord:
    """Every event with ``text`` (plain words) and ``revoked`` (an undo took it back), and the ruleset's
    per-player statistics beyond the score (PigzUp!'s reaction times; empty for most games)."""

    events: list[dict[str, Any]]
    stats: list[dict[str, Any]]


def _fallback_text(event: Event) -> str:
    """Words for events the replay does not describe: setup, undo, end, and revoked actions."""
    payload = event.payload
    if event.kind == "start":
        return f"Game set up for {', '.join(payload.get('players', []))} ({payload.get('variant', 'standard')})"
    if event.kind == "undo" and "overrules" in payload:
        return f"The referee overruled #{payload['overrules']}; what followed was replayed"
    if event.kind == "undo":
        revoked = ", ".join(f"#{seq}" for seq in payload.get("revokes", []))
        return f"Undo {revoked}".strip()
    if event.kind == "end":
        return f"Game ended: {payload.get('reason', 'no reason given')}"
    fields = ", ".join(f"{k} {v}" for k, v in payload.items() if k != "type")
    return f"{payload.get('type', event.kind)}: {fields}" if fields else str(payload.get("type", event.kind))


def logged_game(log: EventLog, game_id: int) -> GameSummary | None:
    """The summary of game ``game_id``, or ``None`` when the log has no such game (however long the number)."""
    if not 0 <= game_id <= LARGEST_GAME_ID:
        return None
    try:
        return log.game(game_id)
    except KeyError:
        return None


def without_secrets(events: Sequence[Event]) -> list[Event]:
    """``events`` with every chance action (shuffle, deal, die roll) reduced to its type: what the players saw."""
    ruleset = GAMES.get(events[0].payload.get("game", "")) if events else None
    chance = {cls.type for cls in ruleset.action_types if cls.chance} if ruleset else set()
    return [
        dataclasses.replace(e, payload={"type": e.payload["type"]})
        if e.kind == "action" and e.payload.get("type") in chance else e
        for e in events
    ]


def game_record(events: Sequence[Event], *, secrets: bool = False) -> GameRecord:
    """The record of ``events``; ``secrets`` (the referee) keeps the chance actions' seeds."""
    try:
        folded = fold(events)
        texts = {move.event.seq: move.text for move in folded.moves}
        stats = folded.ruleset.stats(folded.state)
    except (ValueError, KeyError, RuleViolation):
        texts, stats = {}, []  # a log this version cannot replay is still shown, just less prettily
    revoked = {seq for e in events if e.kind == "undo" for seq in e.payload.get("revokes", [])}
    if not secrets:
        events = without_secrets(events)
    entries = [
        {**e.to_json(), "text": texts.get(e.seq) or _fallback_text(e), "revoked": e.seq in revoked} for e in events
    ]
    return GameRecord(entries, stats)
