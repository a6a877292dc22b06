"""What every game's property tests share: random legal games step by step, and the replay-and-undo check."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from companion.games.actions import Action
from companion.games.base import GameSetup, Ruleset
from companion.table.log import EventLog
from companion.table.replay import fold
from companion.table.session import TableSession


def random_steps(ruleset: Ruleset, setup: GameSetup, seed: int, max_actions: int) -> Iterator[tuple[Any, Action, Any]]:
    """A random legal game (full information; chance events seeded from ``seed``) as (before, action, after)
    steps, to its end: a game still going after ``max_actions`` fails the test."""
    rng = random.Random(seed)
    state = ruleset.setup(setup)
    for _ in range(max_actions):
        if ruleset.outcome(state) is not None:
            return
        action = ruleset.chance(state, rng) or rng.choice(ruleset.legal_actions(state))
        after = ruleset.apply(state, action)
        yield state, action, after
        state = after
    raise AssertionError("the game never ended")


def check_replay_and_undo(ruleset: Ruleset, setup: GameSetup, seed: int, max_actions: int) -> None:
    """Play random legal moves to the end, taking one back and making it again now and then (the state must be
    exactly as before); then the stored log must fold to the same state and a fresh session must resume it."""
    rng = random.Random(seed)
    log = EventLog(":memory:")
    session = TableSession(log, seed=seed)
    session.start_game(setup, "test")
    for _ in range(max_actions):
        if session.status() != "playing":
            break
        action = rng.choice(ruleset.legal_actions(session.state))
        if rng.random() < 0.1:
            before = session.state
            session.submit(action, "test")
            session.undo("test")
            assert session.state == before
        session.submit(action, "test")
    assert session.status() == "finished"
    replayed = fold(log.events(session.game_id))
    assert replayed.state == session.state
    assert TableSession(log).snapshot() == session.snapshot() | {"warnings": []}
