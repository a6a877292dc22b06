"""Where the recogniser's accuracy falls: one thing spoilt at a time (light level, colour cast, blur, card size).

For each step of each knob, scenes of our own decks on the A3 mat (and with ``--foreign`` the published decks too)
are rendered with a mild, otherwise clean look (a little sensor noise), recognised, and judged as the vision
benchmarks judge them. Each line gives what ``light.py`` measures on those frames (the paper's grey level, the
colour cast, how many px edges are smeared over; the cards' long side in px from the scene's truth) beside top-1
and confident-wrong, so that the thresholds in ``light.py`` and ``camera_check.py`` (what ``cards recognize``, the
status page and ``companion calibrate camera`` call too dark, too cast, too blurred, too small) are read off
measurements, not guessed. Seeds from 9,000,000 (not the other benchmarks' ranges). Prints figures; it is not
a timed test.
Run: ``python benchmarks/bench_camera_limits.py [--scenes N] [--knob exposure] [--foreign]``.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np

from companion.games.decks import deck_names, load_deck
from companion.sim.judging import card_claimed, report_on
from companion.sim.render import write_reference_folder
from companion.sim.scene import Look, Scene, View, random_scene, render_scene
from companion.vision.calibrate import catalog_from_folder
from companion.vision.catalog import Catalog
from companion.vision.mat import mat_layout
from companion.vision.observations import UNKNOWN
from companion.vision.pipeline import Recognizer

FIRST_SEED = 9_000_000
VISIBLE = 0.8
BASE = Look(noise=2.0, shot_noise=0.3)  # a clean frame from a decent camera


def _warm(c: float) -> Look:
    """A lamp that leaves red ``c`` times blue on white paper (green between), the brightest channel unclipped."""
    return replace(BASE, cast=(1 / c, 1 / c**0.5, 1.0))


def _cool(c: float) -> Look:
    return replace(BASE, cast=(1.0, 1 / c**0.5, 1 / c))


KNOBS: dict[str, tuple[list[float], Callable[[Scene, float], Scene]]] = {
    "exposure": ([0.6, 0.5, 0.45, 0.42, 0.4, 0.38, 0.35, 0.3], lambda s, v: replace(s, look=replace(BASE, exposure=v))),
    "warm": ([1.0, 1.05, 1.1, 1.15, 1.2, 1.25, 1.3, 1.4], lambda s, v: replace(s, look=_warm(v))),
    "cool": ([1.1, 1.2, 1.3, 1.4], lambda s, v: replace(s, look=_cool(v))),
    "blur": ([1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0], lambda s, v: replace(s, look=replace(BASE, blur=v))),
    "zoom": ([0.8, 0.65, 0.55, 0.5, 0.45, 0.4, 0.35], lambda s, v: replace(s, look=BASE, view=replace(s.view, zoom=v))),
    "width": ([960, 800, 720, 640, 560, 480], lambda s, v: replace(s, look=BASE, frame=(int(v), int(v) * 9 // 16))),
}


def own_catalogs(root: Path) -> dict[str, Catalog]:
    out = {}
    for name in deck_names():
        write_reference_folder(load_deck(name), str(root / name))
        out[name] = catalog_from_folder(load_deck(name), root / name)
    return out


def base_scenes(decks: dict[str, list[str]], count: int) -> list[tuple[str, Scene]]:
    """``count`` scenes of 6 scattered cards on the A3 mat, the decks in turn, seen from a moderate tilt."""
    names = list(decks)
    out = []
    for k in range(count):
        rng = np.random.default_rng(FIRST_SEED + k)
        name = names[k % len(names)]
        faces = [(name, str(f)) for f in rng.choice(decks[name], 6, replace=False)]
        scene = random_scene(rng, faces, harsh=False)
        out.append((name, replace(scene, view=View(tilt=float(rng.uniform(0, 25)), azimuth=scene.view.azimuth,
                                                   roll=scene.view.roll, zoom=0.9))))
    return out


def sweep(knob: str, scenes: list[tuple[str, Scene]], recognizers: dict[str, Recognizer]) -> None:
    steps, apply = KNOBS[knob]
    print(f"{knob}:")
    for value in steps:
        c: collections.Counter[str] = collections.Counter()
        levels, casts, edges, lengths = [], [], [], []
        for deck, scene in scenes:
            rendered = render_scene(apply(scene, value))
            result = recognizers[deck].process(rendered.image)
            light = result.light
            assert light is not None
            levels.append(light.level)
            casts.append(light.cast)
            edges.append(light.edge_px)
            for card in result.cards:
                claimed = card_claimed(card, rendered.truths)
                c["reports"] += 1
                c["confident_wrong"] += claimed is not None and card.face not in (UNKNOWN, claimed.face)
            for truth in rendered.truths:
                if truth.visible < VISIBLE:
                    continue
                q = truth.corners
                lengths.append((np.hypot(*(q[2] - q[1])) + np.hypot(*(q[3] - q[0]))) / 2)
                hit = report_on(truth, result.cards)
                c["cards"] += 1
                c["correct"] += hit is not None and hit.face == truth.face
                c["unknown"] += hit is not None and hit.face == UNKNOWN
        n = max(1, c["cards"])
        print(
            f"  {value:7g}  level {statistics.median(levels):5.0f}  cast {statistics.median(casts):4.2f}"
            f"  edges {statistics.median(edges):4.1f} px  card {statistics.median(lengths):4.0f} px"
            f"  | {c['cards']:4d} cards  top-1 {c['correct'] / n:7.2%}  unknown {c['unknown'] / n:6.2%}"
            f"  conf.-wrong {c['confident_wrong'] / max(1, c['reports']):6.2%} of {c['reports']}",
            flush=True,
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes", type=int, default=15, help="scenes per step")
    parser.add_argument("--knob", action="append", choices=list(KNOBS), help="only these (default: all)")
    parser.add_argument("--foreign", action="store_true", help="the published decks instead of our own")
    args = parser.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        if args.foreign:
            from bench_vision_foreign import calibrated

            from companion.sim.foreign_decks import FACE_IDS, DeckUnavailable

            try:
                cats = calibrated(Path(tmp))
            except DeckUnavailable as exc:
                print(f"skipped: the published decks cannot be fetched here: {exc}")
                return 0
            faces = {name: list(FACE_IDS) for name in cats}
        else:
            cats = own_catalogs(Path(tmp))
            faces = {name: [f.id for f in cat.deck] for name, cat in cats.items()}
    recognizers = {name: Recognizer(cat, mat_layout("A3")) for name, cat in cats.items()}
    scenes = base_scenes(faces, args.scenes)
    print(f"{args.scenes} scenes per step, 6 cards each, on the A3 mat, from seed {FIRST_SEED}")
    for knob in args.knob or list(KNOBS):
        sweep(knob, scenes, recognizers)
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
