"""The simulated table's hardware, for any game: the emulated Pico on a pty, gpiozero's mock pins, and a camera
that films the simulated world, all handed to the same runtime a real table uses."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace

from gpiozero.pins.mock import MockFactory

from companion.config import Config
from companion.devices.settings import SIM_PORT
from companion.games.decks import load_deck
from companion.runtime import Running, live_table
from companion.sim.pico import SimulatedPico
from companion.sim.render import write_reference_folder
from companion.sim.scene_camera import World, WorldCamera
from companion.table.session import TableSession
from companion.vision.calibrate import catalog_from_folder
from companion.vision.catalog import Catalog, CatalogError
from companion.vision.sources import FrameSource


def simulated_catalog(config: Config, deck_name: str) -> Catalog:
    """Calibrate the simulated camera as a user would: one picture per face in a folder, then `--from`."""
    folder = config.resolve("var/sim-cards") / deck_name
    deck = load_deck(deck_name)
    write_reference_folder(deck, str(folder))
    return catalog_from_folder(deck, folder)


@dataclass
class SimulatedTable:
    live: Running
    pico: SimulatedPico
    factory: MockFactory


@contextmanager
def simulated_table(
    config: Config, session: TableSession, world: World, deck_name: str, seed: int
) -> Iterator[SimulatedTable]:
    """The live table around ``session`` with the simulator at its ends, for as long as the block lasts."""
    if config.serial.port != SIM_PORT:
        raise SystemExit('the simulated table needs the emulated Pico: set [serial] port = "sim"')
    source = FrameSource("simulated camera", lambda: WorldCamera(world), live=True)
    catalog = simulated_catalog(config, deck_name)

    def catalogs(deck: str) -> Catalog:
        if deck != deck_name:
            raise CatalogError(f"the simulated table shows only {deck_name} cards")
        return catalog

    config = replace(config, camera=replace(config.camera, deck=deck_name))
    factory = MockFactory()
    try:
        with SimulatedPico(pads=6, realtime=True, seed=seed) as pico, live_table(
            config, session, (source, catalogs), pin_factory=factory, serial_path=pico.port
        ) as live:
            live.devices.link.wait_connected(5)
            yield SimulatedTable(live, pico, factory)
    finally:
        factory.reset()
