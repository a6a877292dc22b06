"""A seeded game of Squirrels on the simulated table, refereed from the camera: the stacks laid out, cards put
on the pile (several of one value together, stack tops lifted first), Blind cards flipped, Skip cards set before
a player and the pile taken away are rendered, read by the real recogniser and turned into moves by the table
adapter; the bots answer the table's questions through the prompts a phone answers; the log alone rebuilds the
game, and a restarted table carries the same game on."""

from __future__ import annotations

import random
import threading

import pytest

from companion.sim.squirrels_demo import play_squirrels_by_camera
from companion.table.replay import fold
from companion.table.session import TableSession

CARD_MOVES = ("layout", "play", "push", "skip", "blind", "pickup", "reveal")
MOVES = 12  # the starter, the deal, two layouts and the first plays: a whole game films for many minutes


def play_until(config, session: TableSession, moves: int, seed: int):
    enough = threading.Event()
    session.subscribe(lambda _snap: enough.set() if session.game and len(session.game.moves) >= moves else None)
    return play_squirrels_by_camera(config, session, ("Ana", "Ben"), random.Random(seed), enough,
                                    options={"rounds": 1}, pace=0.1)


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_first_turns_of_a_squirrels_game_are_refereed_from_the_camera(
        camera_config, camera_log, camera_session) -> None:
    config, log, session = camera_config, camera_log, camera_session
    game = play_until(config, session, MOVES, seed=3)

    events = log.events(game.game_id)
    assert len(events) > MOVES
    assert fold(events).state == session.state
    moves = [e for e in events if e.kind == "action" and e.payload["type"] in CARD_MOVES]
    by_camera = [e for e in moves if e.source.startswith("camera")]
    assert game.wrong == 0, "a misread must be a question, never a wrong entry"
    assert [m.payload["type"] for m in moves[:2]] == ["layout", "layout"]
    assert len(by_camera) >= 0.9 * len(moves)
    choices = [e for e in events if e.kind == "action" and e.source.startswith("prompt ")]
    assert all(e.source.endswith("'s phone") for e in choices)

    # The table is restarted: the same game goes on, its cards laid out as they were.
    again = TableSession(log, seed=6)
    assert again.game_id == game.game_id
    more = play_until(config, again, len(session.game.moves) + 2, seed=4)
    assert more.game_id == game.game_id and more.wrong == 0
    assert len(log.events(game.game_id)) > len(events)
