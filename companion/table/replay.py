"""State is always the fold of a game's live events: this module is that fold.

An ``undo`` event names the events it revokes; an ``end`` event closes the game early. Replaying a stored
game, resuming after a crash and recomputing after an undo all go through ``fold``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from companion.games.base import GameSetup, Ruleset
from companion.games.registry import get_game
from companion.table.log import Event


@dataclass(frozen=True)
class Move:
    """A live action event with its plain-words description."""

    event: Event
    text: str


@dataclass
class Folded:
    ruleset: Ruleset
    setup: GameSetup
    state: Any
    moves: list[Move] = field(default_factory=list)
    ended: Event | None = None


def live_events(events: Iterable[Event]) -> list[Event]:
    """The events an undo has not revoked, in order (undo events themselves are bookkeeping, not live)."""
    events = list(events)
    revoked = {seq for e in events if e.kind == "undo" for seq in e.payload["revokes"]}
    return [e for e in events if e.seq not in revoked and e.kind != "undo"]


def fold(events: Iterable[Event], after: Callable[[Ruleset, Any], None] | None = None) -> Folded:
    """Rebuild a game from its log: the ``start`` event's setup, then every live action in order (``after`` sees
    the state after each one: the status page's charts follow a game round by round)."""
    live = live_events(events)
    if not live or live[0].kind != "start":
        raise ValueError("A game's log must begin with its start event.")
    setup = GameSetup.from_json(live[0].payload)
    ruleset = get_game(setup.game)
    folded = Folded(ruleset, setup, ruleset.setup(setup))
    for event in live[1:]:
        if event.kind == "end":
            folded.ended = event
            continue
        action = ruleset.decode(event.payload)
        text = ruleset.describe(folded.state, action)
        folded.state = ruleset.apply(folded.state, action)
        folded.moves.append(Move(event, text))
        if after is not None:
            after(ruleset, folded.state)
    return folded
