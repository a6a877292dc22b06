"""The simulated worlds' seeds, by stored game: a restarted demo rebuilds the table it was playing (the same
hands, the same stacks) and the bots carry on where the killed process stopped."""

from __future__ import annotations

import json
import os
from pathlib import Path

from companion.config import Config
from companion.table.session import TableSession


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
