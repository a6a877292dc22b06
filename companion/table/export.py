"""Every stored game at once, for a spreadsheet or another program: ``companion log export --all``.

One row per event, with its game's name, variant, status and winners beside it, in JSON lines (payloads as
objects) or CSV (payloads as JSON text, times also in local ISO form for people).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from datetime import datetime
from typing import Any, TextIO

from companion.table.log import EventLog

COLUMNS = ("game_id", "game", "variant", "status", "winners", "seq", "ts", "time", "source", "kind", "payload")
FORMATS = ("jsonl", "csv")


def rows(log: EventLog) -> Iterator[dict[str, Any]]:
    for game in log.list_games():
        for event in log.events(game.id):
            yield {"game_id": game.id, "game": game.game, "variant": game.variant, "status": game.status,
                   "winners": list(game.winners), "seq": event.seq, "ts": event.ts,
                   "time": datetime.fromtimestamp(event.ts).isoformat(timespec="milliseconds"),
                   "source": event.source, "kind": event.kind, "payload": event.payload}


def write(log: EventLog, fmt: str, out: TextIO) -> int:
    """Write every event of every game to ``out`` as ``jsonl`` or ``csv``; returns the number of rows."""
    count = 0
    if fmt == "csv":
        writer = csv.DictWriter(out, COLUMNS, lineterminator="\n")
        writer.writeheader()
        for row in rows(log):
            writer.writerow({**row, "winners": "; ".join(row["winners"]),
                             "payload": json.dumps(row["payload"], separators=(",", ":"))})
            count += 1
    else:
        for row in rows(log):
            out.write(json.dumps(row, separators=(",", ":")) + "\n")
            count += 1
    return count
