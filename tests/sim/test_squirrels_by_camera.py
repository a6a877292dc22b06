"""A seeded game of Squirrels on the simulated table, refereed from the camera: the stacks laid out, cards put
on the pile (several of one value together, stack tops lifted first), Blind cards flipped, Skip cards set before
a player and the pile taken away are rendered, read by the real recogniser and turned into moves by the table
adapter; the bots answer the table's questions through the prompts a phone answers; the log alone rebuilds the
game, and a restarted table carries the same game on. A short game is refereed whole, over two rounds, to the
lowest total; three players play on a bare table whose zones are drawn on the camera's picture."""

from __future__ import annotations

import random
import threading

import pytest

from companion.sim.squirrels_demo import play_squirrels_by_camera
from companion.sim.table_bots import CameraRun
from companion.table.replay import fold
from companion.table.session import TableSession
from companion.vision.zones import read_zones

CARD_MOVES = ("layout", "play", "push", "skip", "blind", "pickup", "reveal")
MOVES = 12  # the starter, the deal, two layouts and the first plays: a whole game films for many minutes


def play_until(config, session: TableSession, moves: int, seed: int, players: tuple[str, ...] = ("Ana", "Ben")):
    enough = threading.Event()
    session.subscribe(lambda _snap: enough.set() if session.game and len(session.game.moves) >= moves else None)
    return play_squirrels_by_camera(CameraRun(config, session, players, random.Random(seed), enough,
                                              options={"rounds": 1}, pace=0.1))


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


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_a_whole_short_game_is_refereed_from_the_camera_to_the_lowest_total(
        camera_config, camera_log, camera_session) -> None:
    """Two rounds, each player keeping two cards in hand by house rule (SQ-19): each round laid out, played, its
    remaining cards spread for the camera and scored; the next round started by the highest total; the lowest
    total wins."""
    session = camera_session
    game = play_squirrels_by_camera(CameraRun(camera_config, session, ("Ana", "Ben"), random.Random(8),
                                              threading.Event(), options={"rounds": 2, "hand": 2}, pace=0.1))

    assert session.status() == "finished" and game.wrong == 0
    state = session.state
    assert len(state.round_scores) == 2 and all(0 in scores for scores in state.round_scores)  # someone went out
    lowest = tuple(p for p, total in enumerate(state.totals) if total == min(state.totals))
    if len(lowest) == 1:
        assert state.result.winners == lowest
    else:  # equal totals: the final round's score decides (ruling SQ-3)
        assert set(state.result.winners) <= set(lowest) and state.result.tie_break is not None
    events = camera_log.events(game.game_id)
    assert fold(events).state == state
    moves = [e for e in events if e.kind == "action" and e.payload["type"] in CARD_MOVES]
    assert [(m.payload["type"], m.source) for m in moves].count(("layout", "camera")) == 4  # both rounds' stacks
    by_phone = [m for m in moves if m.source.startswith("prompt ")]  # cards seen, a choice answered on a phone
    assert all(m.source.endswith("'s phone") for m in by_phone)
    assert len([m for m in moves if m.source.startswith("camera")]) + len(by_phone) >= 0.95 * len(moves)
    assert [e.payload.get("type") for e in events].count("deal") == 2  # a deal a round


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_three_players_are_refereed_on_a_table_without_the_mat(camera_config, camera_log, camera_session) -> None:
    """No room on the mat for three rows of four stacks: the table is bare, its zones drawn on the camera's
    picture as `companion calibrate zones` saves them, and the stacks are laid out and played through them."""
    game = play_until(camera_config, camera_session, 10, seed=5, players=("Ana", "Ben", "Cai"))

    zones, drawn_on = read_zones(camera_config.resolve("var/sim-zones/squirrels-3.toml"))
    assert set(zones) == {"seat-1", "seat-3", "seat-4", "centre"} and drawn_on == (1280, 720)
    events = camera_log.events(game.game_id)
    moves = [e for e in events if e.kind == "action" and e.payload["type"] in CARD_MOVES]
    assert [(m.payload["type"], m.source) for m in moves[:3]] == [("layout", "camera")] * 3
    assert game.wrong == 0 and len(moves) > 3
    assert len([m for m in moves if m.source.startswith("camera")]) >= 0.9 * len(moves)
