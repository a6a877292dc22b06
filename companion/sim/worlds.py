"""The simulated worlds' seeds, by stored game: a restarted demo rebuilds the table it was playing (the same
hands, the same stacks) and the bots carry on where the killed process stopped."""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass
from pathlib import Path

from companion.config import Config
from companion.games.base import GameSetup
from companion.table.session import TableSession


@dataclass(frozen=True)
class WorldPlan:
    """The world a simulated game is played in: a new one, or the stored game's, rebuilt after a restart."""

    seed: int
    players: tuple[str, ...]
    resumed: bool

    def begin(self, config: Config, session: TableSession, setup: GameSetup) -> int:
        """The game's id: the resumed one, or ``setup`` started now with its world remembered."""
        if self.resumed:
            assert session.game_id is not None
            return session.game_id
        game_id = session.start_game(setup, "demo")
        remember_world(config, game_id, self.seed)
        return game_id


def plan_world(config: Config, session: TableSession, game: str, players: tuple[str, ...],
               rng: random.Random) -> WorldPlan:
    """Resume the stored game of ``game`` still in play if its world is known, else plan a new one."""
    seed = world_to_resume(config, session, game)
    if seed is None or session.game is None:
        return WorldPlan(rng.getrandbits(32), players, resumed=False)
    return WorldPlan(seed, session.game.setup.players, resumed=True)


def _world_file(config: Config) -> Path:
    return config.resolve(config.table.database).with_name("sim-worlds.json")


def remember_world(config: Config, game_id: int, seed: int) -> None:
    """Write the seed of game ``game_id``'s world beside the log (atomically: a kill leaves the old file)."""
    path = _world_file(config)
    worlds = _read(path)
    worlds[str(game_id)] = seed
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(worlds), encoding="utf-8")
    os.replace(temporary, path)


def world_to_resume(config: Config, session: TableSession, game: str) -> int | None:
    """The world seed of the stored game still in play, if it is a game of ``game`` whose world is known."""
    folded = session.game
    if session.status() != "playing" or folded is None or folded.ruleset.name != game:
        return None
    seed = _read(_world_file(config)).get(str(session.game_id))
    return seed if isinstance(seed, int) else None


def _read(path: Path) -> dict[str, object]:
    try:
        worlds = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # none yet, or unreadable: no world can be resumed, nothing else is lost
    return worlds if isinstance(worlds, dict) else {}
