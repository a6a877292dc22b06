"""Crazy Corgi bots: whole bot games end with a winner, and the bots play better than chance."""

from __future__ import annotations

import random

import pytest

from companion.games.base import GameSetup
from companion.games.crazy_corgi.actions import Place, Reveal, Stop
from companion.sim.bots import RandomBot, next_bot_move
from companion.sim.crazy_corgi_bots import CrazyCorgiBot
from tests.games.crazy_helpers import CC, GIULIO, MARTINA, place, play, reveal, start


def play_out(bots, seed: int, players: int):
    rng = random.Random(seed)
    setup = GameSetup("crazy-corgi", tuple(f"P{i}" for i in range(players)), full_information=True,
                      options={"first_player": seed % players})
    state = CC.setup(setup)
    while CC.outcome(state) is None:
        state = CC.apply(state, CC.chance(state, rng) or next_bot_move(CC, state, bots))
    return state


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_bot_games_finish_with_a_winner_on_five_points(players):
    for seed in range(3):
        bots = [CrazyCorgiBot(i, random.Random(seed * 10 + i)) for i in range(players)]
        state = play_out(bots, seed, players)
        outcome = CC.outcome(state)
        assert outcome.winners and all(state.points[w] >= 5 for w in outcome.winners)


def test_a_bot_beats_a_random_player_most_of_the_time():
    wins = 0
    for seed in range(30):
        bots = [CrazyCorgiBot(0, random.Random(seed)), RandomBot(1, random.Random(seed + 100))]
        wins += CC.outcome(play_out(bots, seed, 2)).winners == (0,)
    assert wins >= 20


def test_after_a_bowl_the_bot_stops_if_the_peek_would_bust():
    bot = CrazyCorgiBot(GIULIO, random.Random(1), nerve=1.0)
    for peek, expected in (("blue-3-black", Stop(GIULIO)), ("blue-4-black", Reveal(GIULIO, "blue-4-black"))):
        state = reveal(start(top=["red-3-fawn", "event-bowl", peek]), ["red-3-fawn", "event-bowl"])
        assert bot.choose(CC, state) == expected


def test_a_bot_completes_the_set_worth_most():
    # Martina's choice: the red 4 completes the red Kennel for 2 points where the yellow 5 would make 1.
    kennels = [["red-2-black", "red-3-fawn", "red-4-fawn", "red-1-black"], ["blue-1-fawn"], ["green-1-fawn"]]
    cards = ["yellow-5-black", "red-4-black"]
    state = play(reveal(start(top=cards, kennels={MARTINA: kennels}, first_player=1), cards), Stop(MARTINA))
    assert CrazyCorgiBot(MARTINA, random.Random(2)).choose(CC, state) == Place(MARTINA, "red-4-black", 0)
    state = place(state, ("red-4-black", 0))
    assert state.points[MARTINA] == 2
