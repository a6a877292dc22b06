"""A game refereed from the camera (`--game`, any game in the simulator's CAMERA_BOTS). Prints medians; not a test.

1. Over N seeded simulated games (default 30; a short game per seed, see GAMES), every card rendered and read by
   the real recogniser: the share of moves recorded with no typing (target >= 99%), moves recorded wrongly (target
   0: a misread must become a question), questions asked per game, out-of-turn plays caught, and the time from a
   card put down to the status page being told (median, target <= 300 ms).
2. The whole simulated table (`companion demo --game GAME`, status page on): CPU % and peak RSS (target <= 250 MB).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from simulated_table import bench_demo, config_file

from companion.config import load_config
from companion.sim.camera_bots import CAMERA_BOTS
from companion.table.log import EventLog
from companion.table.session import TableSession

PLAYERS = ("Ana", "Ben", "Cai", "Dee", "Eve", "Fay")


@dataclass(frozen=True)
class BenchGame:
    """How one game is benchmarked: a short game per seed (a game is a round or two, not a whole evening)."""

    players: int = 3
    variant: str = "standard"
    options: dict[str, Any] = field(default_factory=dict)
    knobs: dict[str, Any] = field(default_factory=dict)  # the game's own bots' settings (e.g. how often they cheat)
    variant_options: dict[str, dict[str, Any]] = field(default_factory=dict)  # a variant's own, over ``options``


GAMES: dict[str, BenchGame] = {
    "corgi-pileup": BenchGame(options={"starting_scores": [12, 12, 12]}, knobs={"mischief": 0.2}),
    "crazy-corgi": BenchGame(options={"starting_points": [3, 3, 3]}),  # two points to go: a set or two each
    "squirrels": BenchGame(players=2, options={"rounds": 1}),  # on the A2 mat; --players 3 or 4: zones drawn
    # --variant treasure-island, or capture --players 2: a short duel, the first capture wins (ruling CI-20)
    "clash-of-corgis": BenchGame(variant="original", variant_options={"capture": {"captures": 1}}),
}


def bench_games(folder: Path, name: str, games: int, bench: BenchGame) -> None:
    config = load_config(config_file(folder, "[web]\nenabled = false\n"))
    play = CAMERA_BOTS[name].play
    camera = typed = wrong = asked = caught = tried = 0
    latencies: list[float] = []
    started = time.monotonic()
    for seed in range(games):
        log = EventLog(folder / f"game-{seed}.sqlite3")
        game = play(config, TableSession(log, seed=seed), PLAYERS[: bench.players], random.Random(seed),
                    threading.Event(), variant=bench.variant, options=bench.options, pace=0.3, **bench.knobs)
        log.close()
        camera, typed, wrong, asked = camera + game.camera_plays, typed + game.typed, wrong + game.wrong, \
            asked + game.prompts
        caught, tried = caught + game.caught, tried + game.misbehaved
        latencies += game.landed_to_shown_s
        print(f"  game {seed}: {game.camera_plays} cards read, {game.typed} typed, {game.wrong} wrong, "
              f"{game.prompts} questions, {game.caught}/{game.misbehaved} out-of-turn caught, card -> page median "
              f"{1000 * statistics.median(game.landed_to_shown_s or [0.0]):.0f} ms", flush=True)
    plays = camera + typed
    print(f"{name} ({bench.variant}): {games} games by camera in {time.monotonic() - started:.0f} s: "
          f"{100 * camera / plays:.2f}% of {plays} moves recorded with no typing (target >= 99%); "
          f"{wrong} recorded wrongly (target 0); "
          f"{asked / games:.1f} questions per game; {caught} of {tried} out-of-turn plays caught")
    print(f"card put down -> status page told: median {1000 * statistics.median(latencies):.0f} ms, "
          f"p95 {1000 * statistics.quantiles(latencies, n=20)[-1]:.0f} ms over {len(latencies)} cards "
          "(target <= 300 ms)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="corgi-pileup")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--variant", help="the game's variant (default: the one in GAMES)")
    parser.add_argument("--players", type=int, help="how many bots (default: as in GAMES)")
    parser.add_argument("--no-demo", action="store_true", help="skip the whole-demo CPU/RSS figure")
    args = parser.parse_args()
    chosen = GAMES[args.game]
    chosen = replace(chosen, variant=args.variant or chosen.variant, players=args.players or chosen.players)
    chosen = replace(chosen, options={**chosen.options, **chosen.variant_options.get(chosen.variant, {})})
    with tempfile.TemporaryDirectory() as tmp:
        bench_games(Path(tmp), args.game, args.games, chosen)
        if not args.no_demo:
            extra = tuple(arg for name in ("rounds", "captures") if name in chosen.options
                          for arg in (f"--{name}", str(chosen.options[name])))
            bench_demo(Path(tmp), args.game, chosen.players, chosen.variant, extra)
