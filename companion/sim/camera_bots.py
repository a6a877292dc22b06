"""Which games the simulator's bots can play through the rendered camera, and how each tells its story.

A game joins by adding its bots here (a function that plays one game on the simulated table and returns what
happened, and the sentence the demo prints about it); every other game is played by bots entering moves directly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.sim.capture_demo import play_capture_by_camera
from companion.sim.clash_demo import play_clash_by_camera
from companion.sim.corgi_demo import play_corgi_by_camera
from companion.sim.crazy_corgi_demo import play_crazy_corgi_by_camera
from companion.sim.pigzup_demo import SimulatedGame, play_simulated
from companion.sim.squirrels_demo import play_squirrels_by_camera
from companion.sim.table_bots import CameraGame, CameraRun


@dataclass(frozen=True)
class CameraBots:
    """``play(run, **knobs)`` plays the game a ``CameraRun`` describes to its end (``knobs``: the game's own bots'
    settings);
    ``seats``: the most players its simulated table seats (``None``: as many as the game allows); ``players``: how
    many sit down when the demo is not told (``None``: four, or as many as it seats)."""

    play: Callable[..., Any]
    summary: Callable[[Any], str]
    seats: int | None = None
    players: int | None = None


def _pigzup(played: SimulatedGame) -> str:
    if played.camera_misses:
        return f"(the referee entered {played.camera_misses} flips the camera did not report)"
    return "(the camera reported every flip)"


def _corgi(game: CameraGame) -> str:
    return (f"(the camera read {game.camera_plays} cards; the referee typed {game.typed}; the table caught "
            f"{game.caught} out-of-turn plays and asked {game.prompts} questions)")


def _moves_and_questions(game: CameraGame) -> str:
    return (f"(the camera recorded {game.camera_plays} moves from the cards; the referee typed {game.typed}; the "
            f"table asked {game.prompts} questions)")


def _squirrels(game: CameraGame) -> str:
    return (f"(the camera recorded {game.camera_plays} moves from the cards, stack layouts and round-end spreads "
            f"included; the referee typed {game.typed}; the table asked {game.prompts} questions)")


def _play_clash(run: CameraRun) -> CameraGame:
    """Clash of Corgis through the camera: Capture the Illusionist's duel has its own table and bots."""
    return play_capture_by_camera(run) if run.variant == "capture" else play_clash_by_camera(run)


CAMERA_BOTS: dict[str, CameraBots] = {
    "pigzup": CameraBots(play_simulated, _pigzup),
    "corgi-pileup": CameraBots(play_corgi_by_camera, _corgi),
    "crazy-corgi": CameraBots(play_crazy_corgi_by_camera, _moves_and_questions),
    "squirrels": CameraBots(play_squirrels_by_camera, _squirrels, seats=4, players=2),  # 3-4 on drawn zones
    "clash-of-corgis": CameraBots(_play_clash, _moves_and_questions),
}
