"""Can the camera read every Crazy Corgi Kennel on an A3 mat, or does the game need the A2 one? Prints figures;
not a test (hardware/README.md, "Crazy Corgi", gives the decision they support).

For each mat (A3, A2) and camera resolution, seeded tables of the simulated Crazy Corgi world (``CrazyWorld``:
the camera's tilt, light and noise of the demo) with a neat pile of 1-3 random cards in every Kennel of every
player, each frame read by the real recogniser. Per Kennel (1-3 along the seat): the share of frames whose top
card is read in its Kennel (a read), and the readings that name a card not on top of the Kennel they place it in
(wrong: the tracker would need them on three frames running to report one, but they must not happen at all).
Also the recogniser's CPU time per frame. Run: ``python benchmarks/bench_kennels.py [--tables 12]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from companion.games.decks import load_deck
from companion.sim.crazy_corgi_world import DECK, CrazyWorld
from companion.sim.render import write_reference_folder
from companion.sim.scene import render_scene
from companion.vision.calibrate import catalog_from_folder
from companion.vision.catalog import Catalog
from companion.vision.mat import KENNELS, kennel_zone, mat_layout
from companion.vision.observations import UNKNOWN
from companion.vision.pipeline import Recognizer

SETUPS = (("A3", (960, 540)), ("A3", (1280, 720)), ("A3", (1920, 1080)), ("A2", (960, 540)), ("A2", (1280, 720)))
PLAYERS = (4, 6)  # 4: every seat along the long sides; 6: the end seats (short Kennel bands) too


def lay_table(world: CrazyWorld, players: int, rng: random.Random) -> dict[str, str]:
    """A neat pile of 1-3 cards in every Kennel; returns each Kennel zone's top card."""
    faces = [f.id for f in load_deck(DECK) for _ in range(f.copies) if f.kind != "event"]
    rng.shuffle(faces)
    tops = {}
    for seat in range(players):
        for k in range(KENNELS):
            for _ in range(rng.randint(1, 3)):
                face = faces.pop()
                world.place(face, seat, k)
            tops[kennel_zone(world.seat_zones[seat], k)] = face
    return tops


def measure(catalog: Catalog, mat: str, frame: tuple[int, int], players: int, tables: int) -> None:
    recognizer = Recognizer(catalog, mat_layout(mat, DECK))
    read: Counter[int] = Counter()
    seen: Counter[int] = Counter()
    wrong: Counter[str] = Counter()
    times = []
    for seed in range(tables):
        world = CrazyWorld(players, seed, mat=mat, frame=frame)
        tops = lay_table(world, players, random.Random(seed))
        image = render_scene(world.scene()).image
        started = time.process_time()  # CPU, not wall: a shared machine's load would swamp the figure
        found = recognizer.process(image).cards
        times.append(time.process_time() - started)
        named = {(c.zone, c.face) for c in found if c.face != UNKNOWN}
        for zone, face in tops.items():
            k = int(zone[-1])
            seen[k] += 1
            read[k] += (zone, face) in named
        wrong.update(f"{face} in {zone}" for zone, face in named if tops.get(zone) != face)
    shares = "  ".join(f"Kennel {k}: {100 * read[k] / seen[k]:5.1f}%" for k in sorted(seen))
    print(f"{mat} {frame[0]}x{frame[1]}, {players} players: top cards read {shares}; "
          f"wrong readings {sum(wrong.values())}; recogniser {1000 * statistics.median(times):.0f} ms CPU/frame",
          flush=True)
    for what, n in wrong.most_common(3):
        print(f"    wrong: {what} (x{n})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=12, help="seeded tables per mat, resolution and players")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        deck = load_deck(DECK)
        write_reference_folder(deck, tmp)
        catalog = catalog_from_folder(deck, Path(tmp))
        for mat, frame in SETUPS:
            for players in PLAYERS:
                measure(catalog, mat, frame, players, args.tables)
