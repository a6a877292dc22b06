"""The PigzUp! table, simulated or real. Simulated (``[camera] source = "sim"``): bots flip real (rendered)
cards, stack piggies on the emulated Pico's pads and press mock GPIO buttons, and the referee sees all of it
only through the real camera pipeline, serial link, GPIO and judge. Real: the same wiring on the hardware,
and the referee starts games from the status page."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass

from gpiozero.pins.mock import MockFactory

from companion.config import Config
from companion.games.base import GameSetup
from companion.games.decks import load_deck
from companion.runtime import live_table
from companion.sim.pico import SIM_PORT, SimulatedPico
from companion.sim.pigzup_bots import PigzBots, Skill
from companion.sim.pigzup_world import DECK, PigzWorld, WorldCamera
from companion.sim.render import write_reference_folder
from companion.table.session import TableSession
from companion.vision.calibrate import catalog_from_folder
from companion.vision.catalog import Catalog, load_catalog
from companion.vision.sources import FrameSource, open_source


def simulated_catalog(config: Config) -> Catalog:
    """Calibrate the simulated camera as a user would: one picture per face in a folder, then `--from`."""
    folder = config.resolve("var/sim-cards") / DECK
    deck = load_deck(DECK)
    write_reference_folder(deck, str(folder))
    return catalog_from_folder(deck, folder)


@contextmanager
def simulated_pico(config: Config, seed: int) -> Iterator[SimulatedPico | None]:
    if config.serial.port != SIM_PORT:
        yield None
        return
    with SimulatedPico(pads=6, realtime=True, seed=seed) as pico:
        yield pico


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
    source = FrameSource("simulated camera", lambda: WorldCamera(world), live=True)
    factory = MockFactory()
    try:
        with ExitStack() as stack:
            pico = stack.enter_context(simulated_pico(config, rng.getrandbits(16)))
            if pico is None:
                raise SystemExit("the simulated table needs the emulated Pico: set [serial] port = \"sim\"")
            camera = (source, simulated_catalog(config))
            live = stack.enter_context(
                live_table(config, session, camera, pin_factory=factory, serial_path=pico.port))
            live.devices.link.wait_connected(5)
            live.devices.pads.tare()
            game_id = session.start_game(GameSetup("pigzup", players, variant, {"first_player": 0}), "demo")
            bots = PigzBots(session, world, pico, factory, config.buttons.seat_buttons, rng=rng, pace=pace,
                            skills=skills)
            bots.play(stop)
            return SimulatedGame(game_id, bots.misses)
    finally:
        factory.reset()


def real_table(config: Config, session: TableSession, stop: threading.Event) -> None:
    """The hardware table: devices and camera run; the referee starts games on the status page."""
    source = open_source(config.camera.source, config.camera.retry_seconds)
    catalog = load_catalog(config.resolve(config.camera.catalog) / DECK)
    with live_table(config, session, (source, catalog)):
        print("Ready: start a game from the status page's referee controls. Ctrl-C stops.", flush=True)
        try:
            stop.wait()
        except KeyboardInterrupt:
            print()
