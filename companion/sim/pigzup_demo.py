"""The PigzUp! table, simulated: bots flip real (rendered) cards, stack piggies on the emulated Pico's pads and
press mock GPIO buttons, and the referee sees all of it only through the real camera pipeline, serial link,
GPIO and judge."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.base import GameSetup
from companion.sim.pigzup_bots import PigzBots, Skill
from companion.sim.pigzup_world import DECK, PigzWorld
from companion.sim.table import simulated_table
from companion.sim.table_bots import CameraRun
from companion.sim.worlds import plan_world
from companion.table.session import TableSession


@dataclass(frozen=True)
class SimulatedGame:
    game_id: int
    camera_misses: int  # flips the referee had to enter because the camera did not report them


def play_simulated(run: CameraRun, *, skills: list[Skill] | None = None) -> SimulatedGame:
    """Bots play one game of PigzUp! on the simulated table, start to finish (``skills``: each bot's, else drawn).
    A PigzUp! game still in play in the log, whose world is known, is resumed: its stacks and face-up piles rebuilt
    from the moves recorded."""
    config, session = run.config, run.session
    plan = plan_world(config, session, "pigzup", run.players, run.rng)
    world = PigzWorld(len(plan.players), seed=plan.seed)
    with simulated_table(config, session, world, DECK, run.rng.getrandbits(16)) as table:
        table.live.devices.pads.tare()  # the emulated pads start empty, also after a restart
        setup = GameSetup("pigzup", plan.players, run.variant, {"first_player": 0, **run.options})
        game_id = plan.begin(config, session, setup)
        settled = replay_world(world, session) if plan.resumed else 0
        bots = PigzBots(session, world, table.pico, table.factory, config.buttons.seat_buttons, rng=run.rng,
                        pace=run.pace, skills=skills, settled=settled)
        bots.play(run.stop)
        return SimulatedGame(game_id, bots.misses)


def replay_world(world: PigzWorld, session: TableSession) -> int:
    """Put the world's cards where the recorded moves left them (flips, and each settled match); returns how
    many matches were settled."""
    game = session.game
    assert game is not None
    state = game.ruleset.setup(game.setup)
    for move in game.moves:
        after = game.ruleset.apply(state, game.ruleset.decode(move.event.payload))
        if move.event.payload["type"] == "flip":
            world.flip(move.event.payload["player"])
        for result in after.results[len(state.results):]:
            world.settle(result.winner, result.race.racers)
        state = after
    return len(state.results)
