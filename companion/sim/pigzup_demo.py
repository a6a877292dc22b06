"""The PigzUp! table, simulated: bots flip real (rendered) cards, stack piggies on the emulated Pico's pads and
press mock GPIO buttons, and the referee sees all of it only through the real camera pipeline, serial link,
GPIO and judge."""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass

from companion.config import Config
from companion.games.base import GameSetup
from companion.sim.pigzup_bots import PigzBots, Skill
from companion.sim.pigzup_world import DECK, PigzWorld
from companion.sim.table import simulated_table
from companion.table.session import TableSession


@dataclass(frozen=True)
class SimulatedGame:
    game_id: int
    camera_misses: int  # flips the referee had to enter because the camera did not report them


def play_simulated(
    config: Config,
    session: TableSession,
    players: tuple[str, ...],
    rng: random.Random,
    stop: threading.Event,
    *,
    variant: str = "standard",
    pace: float = 1.0,
    skills: list[Skill] | None = None,
) -> SimulatedGame:
    """Bots play one game of PigzUp! on the simulated table, start to finish."""
    world = PigzWorld(len(players), seed=rng.getrandbits(32))
    with simulated_table(config, session, world, DECK, rng.getrandbits(16)) as table:
        table.live.devices.pads.tare()
        game_id = session.start_game(GameSetup("pigzup", players, variant, {"first_player": 0}), "demo")
        bots = PigzBots(session, world, table.pico, table.factory, config.buttons.seat_buttons, rng=rng, pace=pace,
                        skills=skills)
        bots.play(stop)
        return SimulatedGame(game_id, bots.misses)
