"""The Squirrels bots play sensibly: whole games end with a winner, they beat random play, and they never peek."""

from __future__ import annotations

import random

import pytest

from companion.games.base import GameSetup
from companion.games.squirrels import Squirrels
from companion.games.squirrels.actions import Blind, Pickup, Play
from companion.sim.bots import RandomBot, next_bot_move
from companion.sim.squirrels_bots import SquirrelsBot, bots_for
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
