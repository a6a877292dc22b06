"""Which games the simulator's bots can play through the rendered camera, and how each tells its story.

A game joins by adding its bots here (a function that plays one game on the simulated table and returns what
happened, and the sentence the demo prints about it); every other game is played by bots entering moves directly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.sim.capture_demo import play_capture_by_camera
from companion.sim.corgi_demo import play_corgi_by_camera
from companion.sim.crazy_corgi_demo import play_crazy_corgi_by_camera
from companion.sim.pigzup_demo import SimulatedGame, play_simulated
from companion.sim.table_bots import CameraGame


@dataclass(frozen=True)
class CameraBots:
    """``play(config, session, players, rng, stop, variant=, pace=)`` plays one game to its end."""

    play: Callable[..., Any]
    summary: Callable[[Any], str]


def _pigzup(played: SimulatedGame) -> str:
    if played.camera_misses:
        return f"(the referee entered {played.camera_misses} flips the camera did not report)"
    return "(the camera reported every flip)"


def _corgi(game: CameraGame) -> str:
    return (f"(the camera read {game.camera_plays} cards; the referee typed {game.typed}; the table caught "
            f"{game.caught} out-of-turn plays and asked {game.prompts} questions)")


def _crazy(game: CameraGame) -> str:
    return (f"(the camera recorded {game.camera_plays} moves from the cards; the referee typed {game.typed}; the "
            f"table asked {game.prompts} questions)")


CLASH_BY_CAMERA = {"capture": play_capture_by_camera}  # Clash of Corgis' games played through the camera so far


def _play_clash(*args: Any, variant: str = "original", **kwargs: Any) -> CameraGame:
    """Clash of Corgis through the camera: the bots of the game (variant) in play."""
    if variant not in CLASH_BY_CAMERA:
        raise SystemExit(f"Clash of Corgis by camera plays {', '.join(CLASH_BY_CAMERA)}, not {variant!r}")
    return CLASH_BY_CAMERA[variant](*args, **kwargs)


CAMERA_BOTS: dict[str, CameraBots] = {
    "pigzup": CameraBots(play_simulated, _pigzup),
    "corgi-pileup": CameraBots(play_corgi_by_camera, _corgi),
    "crazy-corgi": CameraBots(play_crazy_corgi_by_camera, _crazy),
    "clash-of-corgis": CameraBots(_play_clash, _crazy),
}
