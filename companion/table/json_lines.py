"""Reading JSON-lines files a person may hand the table (replay files, race traces) safely: a line at a time,
bounded in length and nesting, each bad line refused in words."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, BinaryIO

from companion.games.base import MalformedAction

MAX_LINE_BYTES = 64 * 1024  # an action is a short JSON object; a longer line is refused unread
MAX_DEPTH = 32  # actions nest a few levels; deeper is not an action (and would exhaust Python's stack)


def read_lines(stream: BinaryIO) -> Iterator[bytes | None]:
    """The stream's lines one at a time (the file is never read whole); a line over ``MAX_LINE_BYTES`` comes
    out as ``None`` and its rest is skipped in bounded reads."""
    while line := stream.readline(MAX_LINE_BYTES + 1):
        if len(line) <= MAX_LINE_BYTES:
            yield line
            continue
        while line and not line.endswith(b"\n"):
            line = stream.readline(MAX_LINE_BYTES)
        yield None


def parse_entry(line: bytes | None) -> Any:
    """One replay line as JSON; raises ``MalformedAction`` saying what is wrong with it."""
    if line is None:
        raise MalformedAction("malformed", f"The line is longer than {MAX_LINE_BYTES // 1024} KiB.")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedAction("malformed", f"Not text: byte {exc.start + 1} is not UTF-8.") from None
    too_deep = MalformedAction("malformed", f"Nested more than {MAX_DEPTH} levels deep.")
    try:
        entry = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MalformedAction("malformed", f"Not valid JSON: {exc.msg}.") from None
    except RecursionError:  # nested deeper than the parser goes
        raise too_deep from None
    if text.count("[") + text.count("{") > MAX_DEPTH and _depth(entry) > MAX_DEPTH:
        raise too_deep
    return entry


def _depth(value: Any) -> int:
    """How deeply ``value``'s lists and objects nest, counted without recursion."""
    deepest, pending = 0, [(value, 1)]
    while pending:
        item, level = pending.pop()
        deepest = max(deepest, level)
        if level <= MAX_DEPTH and isinstance(item, dict | list):
            pending.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest
