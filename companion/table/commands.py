"""Table sub-commands: ``games``, ``replay``, ``log``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from companion.config import Config
from companion.games.base import GameSetup, MalformedAction, RuleViolation
from companion.games.registry import GAMES, get_game
from companion.table import export
from companion.table.log import Event, EventLog
from companion.table.pigzup_judge import read_trace, replay_trace
from companion.table.replay import fold
from companion.table.session import TableSession


def run_games(args: argparse.Namespace, config: Config) -> int:
    for ruleset in GAMES.values():
        print(f"{ruleset.name}: {ruleset.title}, {ruleset.min_players}-{ruleset.max_players} players")
        for variant, description in ruleset.variants.items():
            print(f"  --variant {variant:<20} {description}")
    return 0


def replay_lines(game: str, lines: Iterable[str]) -> dict[str, Any]:
    """Apply a JSON-lines game (a setup line, then actions, undos and ends) and report the result as JSON."""
    ruleset = get_game(game)
    session = TableSession(EventLog(":memory:"), auto_chance=False)
    violations: list[dict[str, Any]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as exc:
            violations.append(_refused(number, line, MalformedAction("malformed", f"Not valid JSON: {exc.msg}.")))
            continue
        kind = entry.get("type") if isinstance(entry, dict) else None
        try:
            if kind == "setup":
                setup = GameSetup.from_json(entry)
                if setup.game != ruleset.name:
                    raise MalformedAction("wrong-game", f"This file is a {setup.game} game, not {ruleset.name}.")
                session.start_game(setup, source="replay")
                continue
        except RuleViolation as violation:
            violations.append(_refused(number, entry, violation))
            continue
        if kind == "undo":
            result = session.undo("replay")
        elif kind == "end":
            result = session.end_game("replay", str(entry.get("reason", "Ended.")))
        else:
            result = session.submit(entry, "replay")
        if isinstance(result, RuleViolation):
            violations.append(_refused(number, entry, result))
    game_state = session.game
    if game_state is None:
        raise MalformedAction("no-setup", 'The file has no setup line: the first line must be {"type": "setup", ...}.')
    snapshot = session.snapshot()
    return {
        "game": ruleset.name,
        "setup": game_state.setup.to_json(),
        "status": snapshot["status"],
        "state": ruleset.view(game_state.state),
        "scoreboard": snapshot["scoreboard"],
        "outcome": snapshot["outcome"],
        "findings": [f.to_json() for f in ruleset.findings(game_state.state)],
        "violations": violations,
    }


def _refused(line: int, entry: Any, violation: RuleViolation) -> dict[str, Any]:
    return {"line": line, "entry": entry, "violation": violation.to_json()}


def run_replay(args: argparse.Namespace, config: Config) -> int:
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
        report = replay_lines(args.game, text.splitlines())
    except OSError as exc:
        print(f"companion replay: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    except RuleViolation as violation:
        print(f"companion replay: {violation.message}", file=sys.stderr)
        return 2
    print(json.dumps(report, indent=2))
    return 1 if report["violations"] else 0


def export_lines(events: Iterable[Event]) -> list[str]:
    """A stored game as a replay file: the setup, then every event's payload, undos and ends included."""
    lines = []
    for event in events:
        payload = {"type": "setup", **event.payload} if event.kind == "start" else event.payload
        lines.append(json.dumps(payload, separators=(",", ":")))
    return lines


def _when(ts: float | None) -> str:
    return datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M") if ts else "-"


def run_log(args: argparse.Namespace, config: Config) -> int:
    log = EventLog(config.resolve(config.table.database))
    try:
        if args.action == "list":
            for g in log.list_games():
                winners = ", ".join(g.winners) or "-"
                print(f"{g.id:4d}  {_when(g.started_at)}  {g.game}/{g.variant:<10} {g.status:<9} "
                      f"winner: {winners:<10} players: {', '.join(g.players)}")
            return 0
        if args.action == "export" and args.all:
            export.write(log, args.format, sys.stdout)
            return 0
        if args.game_id is None:
            print("companion log export: give a game's number (`companion log` lists them), or --all",
                  file=sys.stderr)
            return 2
        try:
            summary = log.game(args.game_id)
            events = log.events(args.game_id)
        except KeyError as exc:
            print(f"companion log: {exc.args[0]}", file=sys.stderr)
            return 2
        if args.action == "export":
            print("\n".join(export_lines(events)))
            return 0
        replayed = True
        try:
            folded = fold(events)
            stats = folded.ruleset.stats(folded.state)
        except (RuleViolation, ValueError, KeyError) as exc:
            # Still shown: the log is the record even when this version cannot replay it.
            print(f"companion log: game {args.game_id} cannot be replayed ({exc}); its events follow",
                  file=sys.stderr)
            replayed, stats = False, []
        report = {"game": summary.to_json(), "stats": stats, "events": [e.to_json() for e in events]}
        print(json.dumps(report, indent=2))
        return 0 if replayed else 1
    finally:
        log.close()


def run_judge(args: argparse.Namespace, config: Config) -> int:
    """Replay a recorded match trace through the judge; print its verdicts beside the recorded ones."""
    try:
        entries = read_trace(Path(args.trace).read_text(encoding="utf-8").splitlines())
        verdicts = [v.to_json() for v in replay_trace(entries)]
    except OSError as exc:
        print(f"companion judge: cannot read {args.trace}: {exc.strerror}", file=sys.stderr)
        return 2
    except (ValueError, KeyError, TypeError) as exc:
        print(f"companion judge: {args.trace} is not a match trace: {exc}", file=sys.stderr)
        return 2
    recorded = [{k: v for k, v in e.items() if k != "kind"} for e in entries if e["kind"] == "verdict"]
    print(json.dumps({"verdicts": verdicts, "recorded": recorded, "same": verdicts == recorded}, indent=2))
    return 0 if verdicts == recorded else 1


def register(groups: Any) -> None:
    games = groups.root.add_parser("games", help="list the games and their variants")
    games.set_defaults(run=run_games)

    replay = groups.root.add_parser("replay", help="apply a JSON-lines file of actions and print the result")
    replay.add_argument("game", help="the game's name, as `companion games` lists it")
    replay.add_argument("file", help="JSON lines (docs/events.md); - reads standard input")
    replay.set_defaults(run=run_replay)

    judge = groups.root.add_parser("judge", help="replay a recorded PigzUp! match trace through the judge")
    judge.add_argument("--trace", required=True, metavar="FILE", help="a trace written by the table (JSON lines)")
    judge.set_defaults(run=run_judge)

    log = groups.root.add_parser("log", help="list, show or export stored games")
    log_sub = log.add_subparsers(dest="action")
    log.set_defaults(run=run_log, action="list")
    log_sub.add_parser("list", help="every stored game (the default)")
    log_sub.add_parser("show", help="one game's events as JSON").add_argument("game_id", type=int)
    exporting = log_sub.add_parser("export", help="one game as a replay file, or --all games as rows")
    exporting.add_argument("game_id", type=int, nargs="?")
    exporting.add_argument("--all", action="store_true", help="every event of every game, one row each")
    exporting.add_argument("--format", choices=export.FORMATS, default="jsonl", help="with --all (default jsonl)")
