"""``companion demo``: the simulated table — bots play a full game, logged like a real one, shown live on the
status page at the printed URL."""

from __future__ import annotations

import argparse
import random
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from companion.config import Config
from companion.devices.buttons import GpioUnavailable
from companion.devices.calibration import ProfileError
from companion.ends import NoEmulator
from companion.games.base import GameSetup, RuleViolation
from companion.games.registry import get_game
from companion.runtime import run_real_table
from companion.sim.bots import RandomBot, next_bot_move
from companion.sim.camera_bots import CAMERA_BOTS
from companion.sim.table_bots import CameraRun
from companion.table.log import EventLog
from companion.table.session import TableSession
from companion.vision.catalog import CatalogError
from companion.vision.mat import SMALLEST_MAT
from companion.vision.zones import ZonesError
from companion.web.server import start_server

BOT_NAMES = ("Emily", "Peter", "Taylor", "Amy", "Jordan", "Sam", "Riley")


class PlayByPlay:
    """Prints each new move once, as the session reports it (the same feed the status page gets)."""

    def __init__(self) -> None:
        self.printed = 0

    def __call__(self, snapshot: dict[str, Any]) -> None:
        for move in snapshot.get("recent", []):
            if move["seq"] > self.printed:
                # One write with its newline: the session's thread prints while the main thread may print too.
                print(f"  {move['seq']:4d}  {move['text']}\n", end="", flush=True)
                self.printed = move["seq"]


class StatusPageUnavailable(RuntimeError):
    """The status page's port is taken or not ours to use."""


@contextmanager
def status_page(session: TableSession, config: Config) -> Iterator[bool]:
    """Serve the status page while the ``with`` block runs (if ``[web] enabled``); yields whether it is up."""
    if not config.web.enabled:
        yield False
        return
    try:
        server = start_server(session, config.web, secret_key_path=config.resolve(config.web.secret_key_file),
                              traces=config.resolve(config.table.traces))
    except OSError as exc:
        if exc.filename:  # the cookie key file could not be written: not the address
            raise StatusPageUnavailable(f"[web] secret_key_file {exc.filename}: {exc.strerror}") from None
        raise StatusPageUnavailable(
            f"the status page cannot listen on {config.web.host}:{config.web.port} ({exc.strerror}): "
            "is another companion running? Change [web] port, or set enabled = false"
        ) from None
    print(f"Status page: {'  '.join(server.urls)}", flush=True)
    try:
        yield True
    finally:
        server.stop()


def wait_for_interrupt(stop: threading.Event) -> None:
    print("The status page stays up: press Ctrl-C to stop.", flush=True)
    try:
        stop.wait()
    except KeyboardInterrupt:
        print()


def print_result(snapshot: dict[str, Any]) -> None:
    """How the game stands: the scoreboard and the winner, or why there is none (ended, replaced, still on)."""
    print()
    if snapshot.get("game_id") is None:
        print("No game was played.")
        return
    board = snapshot["scoreboard"]
    print(f"{board['phase']}.")
    for row in board["rows"]:
        cells = "  ".join(f"{c}: {v}" for c, v in zip(board["columns"], row["cells"], strict=True) if v != "")
        print(f"  {row['name']:<8} {cells}")
    outcome = snapshot.get("outcome")
    if outcome:
        print(f"Winner: {', '.join(outcome['winners'])} — {outcome['reason']}.")
        if outcome["tie_break"]:
            print(f"  {outcome['tie_break']}")
    elif snapshot.get("ended"):
        print(f"The game was ended: {snapshot['ended']}")
    else:
        print(f"The game is {snapshot['status']}.")
    game_id = snapshot["game_id"]
    print(f"Stored as game {game_id}: `companion log show {game_id}`; replay with `companion log export {game_id}`.")


def play_with_bots(session: TableSession, game_id: int, rng: random.Random, delay: float,
                   stop: threading.Event) -> None:
    """Bots who see their own cards play every move of game ``game_id`` until it has a winner, or the referee
    ends it or starts another (then the bots stand up; the table goes on)."""
    bots: list[RandomBot] = []
    while not stop.is_set() and session.game_id == game_id and session.status() == "playing":
        game = session.game
        assert game is not None
        if len(bots) != len(game.setup.players):
            bots = [RandomBot(seat, random.Random(rng.getrandbits(64))) for seat in range(len(game.setup.players))]
        action = next_bot_move(game.ruleset, game.state, bots)
        if action is None:
            stop.wait(0.2)  # the referee is deciding something: wait for them
            continue
        result = session.submit(action, source=f"bot:{game.setup.players[getattr(action, 'player', 0)]}")
        if isinstance(result, RuleViolation):  # the referee changed the game between our look and our move
            continue
        stop.wait(delay)


def play(args: argparse.Namespace, config: Config, session: TableSession, rng: random.Random,
         stop: threading.Event, serving: bool) -> None:
    """One game on the simulated table: through the camera (and the pads) for the games whose bots can play
    there; the others, or any with ``--entry direct``, by bots entering their moves as a referee would type them."""
    players = BOT_NAMES[: args.players]
    pace = 1 / args.speed
    options = game_options(args)
    camera_bots = CAMERA_BOTS.get(args.game) if args.entry == "camera" else None
    if camera_bots is not None:
        run = CameraRun(config, session, players, rng, stop, args.variant, options, pace)
        print(camera_bots.summary(camera_bots.play(run)))
        return
    game = session.game
    if session.status() == "playing" and game and game.ruleset.name == args.game and game.setup.full_information:
        game_id = session.game_id  # the bots see every hand in the log: they carry on
    else:
        setup = GameSetup(args.game, players, args.variant, options, full_information=True)
        game_id = session.start_game(setup, "demo")
    delay = args.delay if args.delay is not None else (0.6 if serving else 0.0)
    play_with_bots(session, game_id, rng, delay * pace, stop)


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game's options given on the command line (the ruleset says which it takes)."""
    given = {"rounds": args.rounds, "hand": args.hand, "captures": args.captures}
    return {name: value for name, value in given.items() if value is not None}


def table_size(args: argparse.Namespace) -> int | str:
    """How many bots sit down (``--players``, else four, or as many as the camera game's table seats), or why
    the simulated table cannot seat them."""
    camera_bots = CAMERA_BOTS.get(args.game) if args.entry == "camera" else None
    seats = camera_bots.seats if camera_bots is not None else None
    if args.players is None:
        return (camera_bots and camera_bots.players) or min(4, seats or 4)
    if seats is not None and args.players > seats:
        return (f"the simulated {args.game} table seats {seats} players by camera, not {args.players}: "
                f"use --players {seats}, or --entry direct")
    return args.players


def run_demo(args: argparse.Namespace, config: Config) -> int:
    seed = args.seed if args.seed is not None else config.table.seed
    rng = random.Random(seed)
    ruleset = get_game(args.game)
    size = table_size(args)
    if isinstance(size, str):
        print(f"companion demo: {size}", file=sys.stderr)
        return 2
    args.players = size
    players = BOT_NAMES[:size]
    try:
        ruleset.setup(GameSetup(args.game, players, args.variant, game_options(args), full_information=True))
    except RuleViolation as violation:
        print(f"companion demo: {violation.message}", file=sys.stderr)
        return 2
    log = EventLog(config.resolve(config.table.database))
    session = TableSession(log, seed=rng.getrandbits(64))
    stop = threading.Event()
    try:
        with status_page(session, config) as serving:
            session.subscribe(PlayByPlay())
            if config.camera.source != "sim":
                run_real_table(config, session, stop)
                return 0
            if session.status() == "playing":
                print(f"Game {session.game_id} ({session.game.ruleset.title}) was still in play when the table "
                      "stopped: the bots carry it on if they can (the same game, the same table), else it is kept "
                      "as it was, ended, and a new one starts.")
            print(f"Tableside demo: {ruleset.title} ({args.variant}) for {', '.join(players)}; log: {log.path}")
            if args.game in SMALLEST_MAT and args.entry == "camera":
                print(f"{ruleset.title} needs the {SMALLEST_MAT[args.game]} mat: its piles lie too close to read on a "
                      "smaller one (hardware/README.md). The simulated camera films one.")
            play(args, config, session, rng, stop, serving)
            print_result(session.snapshot())
            if serving and args.then == "serve":
                wait_for_interrupt(stop)
    except (ProfileError, CatalogError, ZonesError, GpioUnavailable, StatusPageUnavailable, NoEmulator) as exc:
        print(f"companion demo: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C in the middle of a game: every move is already stored
        print("\nStopped: the game is stored as it was; `companion demo` carries it on.")
    finally:
        stop.set()
        log.close()
    return 0


def register(groups: Any) -> None:
    demo = groups.root.add_parser(
        "demo", help="the table: bots play a full game on the simulated one; a real one waits for the referee"
    )
    demo.add_argument("--game", default="pigzup")
    demo.add_argument("--variant", default="standard")
    demo.add_argument("--players", type=int, choices=range(2, len(BOT_NAMES) + 1), metavar="N",
                      help="how many bots play (default 4, or as many as the game's camera table seats)")
    demo.add_argument("--rounds", type=int, help="rounds to play, for games played over rounds (Squirrels)")
    demo.add_argument("--hand", type=int, help="cards kept in hand at the deal, a house rule for short rounds "
                                               "(Squirrels: 0-8, ruling SQ-19)")
    demo.add_argument("--captures", type=int, help="captures that win, a house rule for a short duel (Clash of "
                                                   "Corgis' Capture the Illusionist: 1 or 2, ruling CI-20)")
    demo.add_argument("--seed", type=int, help="repeat a game exactly (default: config [table] seed, else random)")
    demo.add_argument("--entry", choices=("camera", "direct"), default="camera",
                      help="how the bots' cards reach the table: through the simulated camera (the games in "
                           "companion/sim/camera_bots.py) or entered directly, as a referee types them")
    demo.add_argument("--delay", type=float, help="--entry direct: seconds between moves (0.6 with the status page)")
    demo.add_argument("--speed", type=float, default=1.0, help="how fast the bots think (2 = twice as fast)")
    demo.add_argument("--then", choices=("serve", "exit"), default="serve",
                      help="after the winner: keep the status page up until Ctrl-C (default), or exit")
    demo.set_defaults(run=run_demo)
