"""Corgi Pileup on the simulated table: bots put their cards face up in the centre, the rendered camera and the
real recogniser read every one, the table adapter turns them into plays, and the bots answer the table's
questions as the phones do. The referee types only what the camera and the table could not settle."""

from __future__ import annotations

from companion.games.base import GameSetup
from companion.sim.corgi_bots import CorgiBots
from companion.sim.corgi_world import DECK, CorgiWorld
from companion.sim.table import simulated_table
from companion.sim.table_bots import CameraGame, CameraRun, questions_asked
from companion.sim.worlds import plan_world


def play_corgi_by_camera(run: CameraRun, *, mischief: float = 0.05) -> CameraGame:
    """Bots play one game of Corgi Pileup on the simulated table, every card read by the camera (``mischief``: how
    often a bot plays out of turn). A game of Corgi Pileup still in play in the log, whose world is known, is resumed
    with its cards as they were."""
    config, session = run.config, run.session
    plan = plan_world(config, session, DECK, run.players, run.rng)
    world = CorgiWorld(len(plan.players), seed=plan.seed)
    with simulated_table(config, session, world, DECK, run.rng.getrandbits(16)):
        game_id = plan.begin(config, session, GameSetup(DECK, plan.players, run.variant, run.options))
        for _seat, card in session.state.trick:  # a resumed game's trick still lies in the centre
            world.play(str(card))
        bots = CorgiBots(session, world, world_seed=plan.seed, rng=run.rng, pace=run.pace, mischief=mischief)
        bots.play(run.stop)
        asked = questions_asked(session, game_id)
        return CameraGame(game_id, bots.camera_moves, bots.typed, bots.wrong, bots.caught, bots.misbehaved, asked,
                          bots.landed_to_shown_s, bots.handed_to_shown_s)
