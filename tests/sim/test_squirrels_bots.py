"""The Squirrels bots play sensibly: whole games end with a winner, they beat random play, and they never peek."""

from __future__ import annotations

import random
import threading

import pytest

from companion.games.base import GameSetup
from companion.games.squirrels import Squirrels
from companion.games.squirrels.actions import Blind, Layout, Pickup, Play
from companion.sim.bots import RandomBot, next_bot_move
from companion.sim.squirrels_bots import SquirrelsBot, bots_for
from companion.sim.squirrels_demo import SquirrelsBots
from companion.sim.squirrels_world import SquirrelsWorld
from tests.games.squirrels_helpers import arrange, dealt

RULES = Squirrels()


def play_out(bots, players: int, rounds: int, seed: int):
    rng = random.Random(seed)
    names = tuple(f"P{i}" for i in range(players))
    state = RULES.setup(GameSetup("squirrels", names, options={"rounds": rounds}, full_information=True))
    while RULES.outcome(state) is None:
        state = RULES.apply(state, RULES.chance(state, rng) or next_bot_move(RULES, state, bots))
    return state


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 2), (6, 3)])
def test_bot_games_finish_with_a_winner(players, seed):
    state = play_out(bots_for(players, seed), players, rounds=2, seed=seed)
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.winners
    assert len(state.round_scores) == 2


def test_a_bot_beats_random_players():
    wins = 0
    for seed in range(6):
        bots = [SquirrelsBot(0, random.Random(seed)), RandomBot(1, random.Random(seed + 100)),
                RandomBot(2, random.Random(seed + 200))]
        wins += 0 in RULES.outcome(play_out(bots, 3, rounds=1, seed=seed)).winners
    assert wins >= 5


def test_it_clears_with_the_fourth_card_and_picks_up_only_when_it_must():
    state = dealt([["8", "8", "3", "9"], [], [], []])
    state = arrange(state, hands={0: ["8", "3", "9"]}, pile=[("9", 9), ("8", 8), ("8", 8), ("8", 8)])
    bot = SquirrelsBot(0, random.Random(1))
    assert bot.choose(RULES, state) == Play(0, ("8",))
    stuck = arrange(state, hands={0: ["9"]}, stacks={0: [[], [], [], []]}, pile=[("3", 3)])
    assert bot.choose(RULES, stuck) == Pickup(0)


@pytest.mark.parametrize("blind", ["1", "10", "wild"])
def test_whether_it_flips_a_blind_card_does_not_depend_on_the_hidden_card(blind):
    state = dealt([["9"], [], [], []])
    state = arrange(state, hands={0: ["9"]}, stacks={0: [[blind], [], [], []]}, pile=[("8", 8)])
    choice = SquirrelsBot(0, random.Random(2)).choose(RULES, state)
    assert isinstance(choice, Blind) and choice.stack == 0
    if blind == "wild":
        assert choice.value is not None and choice.value <= 8  # never declared higher than the top: no pickup


def test_a_skip_card_set_where_a_spent_one_lay_waits_until_the_camera_has_seen_that_one_go(camera_session) -> None:
    """The camera takes a Skip card put back in its place within ``forget_frames`` for the same card (as a card a
    hand passed over): the simulated players wait that long, as ruling SQ-16 says the referee would otherwise type
    the new one."""
    camera_session.start_game(GameSetup("squirrels", ("Ana", "Ben")), source="test")
    world = SquirrelsWorld(2, seed=1)
    bots = SquirrelsBots(camera_session, world, world_seed=1, rng=random.Random(1), forget_frames=8)
    stop = threading.Event()

    def film() -> None:  # the camera's reads, without drawing them
        while not stop.wait(0.001):
            world.scene()

    filming = threading.Thread(target=film)
    filming.start()
    try:
        bots._spot_forgotten(1, stop)  # no Skip card was taken from before Ben: nothing to wait for
        world.set_skip(1)
        world.remove_skip(1)
        bots.skip_taken[1] = taken = world.frames
        bots._spot_forgotten(1, stop)
        assert world.frames >= taken + 8 + 2
    finally:
        stop.set()
        filming.join()
        bots.close()


@pytest.mark.parametrize("players", [2, 3])
def test_the_referee_typing_a_move_the_camera_missed_keeps_the_moves_before_it(camera_session, players) -> None:
    """The referee's entry undoes only what the table recorded after the moves the bots followed: the stack tops
    laid out (the world dealt them, the bots do not replay them) do not shift that count onto the last good move."""
    camera_session.start_game(GameSetup("squirrels", ("Ana", "Ben", "Cai")[:players]), source="test")
    bots = SquirrelsBots(camera_session, SquirrelsWorld(players, seed=1), world_seed=1, rng=random.Random(1))
    try:
        truth = bots._follow()
        for seat, stacks in enumerate(truth.stacks):
            camera_session.submit(Layout(seat, tuple(st.top or "" for st in stacks)), source="camera")
        truth = bots._follow()
        first = bots.players[truth.current].choose(RULES, truth)
        camera_session.submit(first, source="camera")
        truth = bots._follow()
        missed = bots.players[truth.current].choose(RULES, truth)
        bots._type(missed, "the camera did not report it")

        assert (bots.typed, bots.wrong) == (1, 0)
        assert [m.event.payload for m in bots._table_moves()][-2:] == [first.to_json(), missed.to_json()]
    finally:
        bots.close()
