"""Random legal games, straight through a ruleset or through a table session: what every game's property tests
share."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from companion.games.actions import Action
from companion.games.base import GameSetup, Ruleset
from companion.table.log import EventLog
from companion.table.replay import fold
from companion.table.session import TableSession


def check_log_replay_and_undo(ruleset: Ruleset, setup: GameSetup, seed: int, max_actions: int) -> None:
    """Play random legal moves to the end, now and then submitting one, undoing it and submitting it again: the
    undo must restore the state exactly, and the stored log must replay (and resume) to the same game."""
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


def random_steps(
    ruleset: Ruleset, setup: GameSetup, seed: int, max_actions: int
) -> Iterator[tuple[Any, Action, Any]]:
    """Each (state before, action, state after) of a random legal game, chance actions drawn from a seeded
    generator; the game must end within ``max_actions``."""
    rng = random.Random(seed)
    state = ruleset.setup(setup)
    for _ in range(max_actions):
        if ruleset.outcome(state) is not None:
            return
        action = ruleset.chance(state, rng) or rng.choice(ruleset.legal_actions(state))
        after = ruleset.apply(state, action)
        yield state, action, after
        state = after
    raise AssertionError(f"the game did not end within {max_actions} actions")
