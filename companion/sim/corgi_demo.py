"""Corgi Pileup on the simulated table: bots put their cards face up in the centre, the rendered camera and the
real recogniser read every one, the table adapter turns them into plays, and the bots answer the table's
questions as the phones do. The referee types only what the camera and the table could not settle."""

from __future__ import annotations

import random
import threading
from typing import Any

from companion.config import Config
from companion.games.base import GameSetup
from companion.sim.corgi_bots import CorgiBots
from companion.sim.corgi_world import DECK, CorgiWorld
from companion.sim.table import simulated_table
from companion.sim.table_bots import CameraGame, questions_asked
from companion.sim.worlds import plan_world
from companion.table.session import TableSession


def play_corgi_by_camera(
    config: Config,
    session: TableSession,
    players: tuple[str, ...],
    rng: random.Random,
    stop: threading.Event,
    *,
    variant: str = "standard",
    options: dict[str, Any] | None = None,
    pace: float = 1.0,
    mischief: float = 0.05,
) -> CameraGame:
    """Bots play one game of Corgi Pileup on the simulated table, every card read by the camera. A game of Corgi
    Pileup still in play in the log, whose world is known, is resumed with its cards as they were."""
    plan = plan_world(config, session, DECK, players, rng)
    world = CorgiWorld(len(plan.players), seed=plan.seed)
    with simulated_table(config, session, world, DECK, rng.getrandbits(16)):
        game_id = plan.begin(config, session, GameSetup(DECK, plan.players, variant, options or {}))
        for _seat, card in session.state.trick:  # a resumed game's trick still lies in the centre
            world.play(str(card))
        bots = CorgiBots(session, world, world_seed=plan.seed, rng=rng, pace=pace, mischief=mischief)
        bots.play(stop)
        asked = questions_asked(session, game_id)
        return CameraGame(game_id, bots.camera_plays, bots.typed, bots.wrong, bots.caught, bots.misbehaved, asked,
                          bots.landed_to_shown_s, bots.handed_to_shown_s)
