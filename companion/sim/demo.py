"""``companion demo``: bots play a full game on the simulated table, logged like a real one."""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from companion.config import Config
from companion.games.base import GameSetup, RuleViolation
from companion.games.registry import get_game
from companion.sim.bots import RandomBot, next_bot_move
from companion.table.log import EventLog
from companion.table.session import TableSession

BOT_NAMES = ("Emily", "Peter", "Taylor", "Amy", "Jordan", "Sam", "Riley")


class PlayByPlay:
    """Prints each new move once, as the session reports it (the same feed the status page gets)."""

    def __init__(self) -> None:
        self.printed = 0

    def __call__(self, snapshot: dict[str, Any]) -> None:
        for move in snapshot.get("recent", []):
            if move["seq"] > self.printed:
                print(f"  {move['seq']:4d}  {move['text']}", flush=True)
                self.printed = move["seq"]


def run_demo(args: argparse.Namespace, config: Config) -> int:
    seed = args.seed if args.seed is not None else config.table.seed
    rng = random.Random(seed)
    ruleset = get_game(args.game)
    players = BOT_NAMES[: args.players]
    log = EventLog(config.resolve(config.table.database))
    session = TableSession(log, seed=rng.getrandbits(64))
    setup = GameSetup(args.game, players, args.variant, {}, full_information=True)
    print(f"Tableside demo: {ruleset.title} ({args.variant}) for {', '.join(players)}; log: {log.path}")
    session.subscribe(PlayByPlay())
    game_id = session.start_game(setup, source="demo")
    bots = [RandomBot(seat, random.Random(rng.getrandbits(64))) for seat in range(len(players))]
    while session.status() == "playing":
        action = next_bot_move(ruleset, session.state, bots)
        if action is None:
            raise RuntimeError("no bot can move, yet the game is not over")
        result = session.submit(action, source=f"bot:{players[getattr(action, 'player', 0)]}")
        if isinstance(result, RuleViolation):
            raise RuntimeError(f"a bot chose an illegal move: {result.message}")
        time.sleep(args.delay)
    snapshot = session.snapshot()
    print()
    print(f"{snapshot['scoreboard']['phase']}. Final scores:")
    for row in snapshot["scoreboard"]["rows"]:
        print(f"  {row['name']:<8} {row['cells'][0]:>3}")
    outcome = snapshot["outcome"]
    print(f"Winner: {', '.join(outcome['winners'])} — {outcome['reason']}.")
    if outcome["tie_break"]:
        print(f"  {outcome['tie_break']}")
    print(f"Stored as game {game_id}: `companion log show {game_id}`; replay with `companion log export {game_id}`.")
    log.close()
    return 0


def register(groups: Any) -> None:
    demo = groups.root.add_parser("demo", help="bots play a full game on the simulated table")
    demo.add_argument("--game", default="corgi-pileup")
    demo.add_argument("--variant", default="standard")
    demo.add_argument("--players", type=int, default=4, choices=range(2, len(BOT_NAMES) + 1), metavar="N")
    demo.add_argument("--seed", type=int, help="repeat a game exactly (default: config [table] seed, else random)")
    demo.add_argument("--delay", type=float, default=0.0, help="seconds between moves, to watch it live")
    demo.set_defaults(run=run_demo)
