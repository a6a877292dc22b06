"""Table sub-commands: ``games``, ``replay``, ``log``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from contextlib import nullcontext
from datetime import datetime
from typing import Any, BinaryIO

from companion.config import Config
from companion.games.base import GameSetup, MalformedAction, Ruleset, RuleViolation
from companion.games.registry import GAMES, get_game
from companion.table import export
from companion.table.log import Event, EventLog
from companion.table.pigzup_judge import replay_trace
from companion.table.replay import fold
from companion.table.session import TableSession


def run_games(args: argparse.Namespace, config: Config) -> int:
    for ruleset in GAMES.values():
        print(f"{ruleset.name}: {ruleset.title}, {ruleset.min_players}-{ruleset.max_players} players")
        for variant, description in ruleset.variants.items():
            print(f"  --variant {variant:<20} {description}")
    return 0


MAX_LINE_BYTES = 64 * 1024  # an action is a short JSON object; a longer line is refused unread
MAX_DEPTH = 32  # actions nest a few levels; deeper is not an action (and would exhaust Python's stack)
MAX_LISTED = 100  # refusals listed in full; the rest are counted, so a garbage file cannot fill the memory
ECHO_CHARS = 200  # how much of an unreadable line the report quotes back


def read_lines(stream: BinaryIO) -> Iterator[bytes | None]:
    """The stream's lines one at a time (the file is never read whole); a line over ``MAX_LINE_BYTES`` comes
    out as ``None`` and its rest is skipped in bounded reads."""
    while line := stream.readline(MAX_LINE_BYTES + 1):
        if len(line) <= MAX_LINE_BYTES:
            yield line
            continue
        while line and not line.endswith(b"\n"):
            line = stream.readline(MAX_LINE_BYTES)
        yield None


def parse_entry(line: bytes | None) -> Any:
    """One replay line as JSON; raises ``MalformedAction`` saying what is wrong with it."""
    if line is None:
        raise MalformedAction("malformed", f"The line is longer than {MAX_LINE_BYTES // 1024} KiB.")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedAction("malformed", f"Not text: byte {exc.start + 1} is not UTF-8.") from None
    too_deep = MalformedAction("malformed", f"Nested more than {MAX_DEPTH} levels deep.")
    try:
        entry = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MalformedAction("malformed", f"Not valid JSON: {exc.msg}.") from None
    except RecursionError:  # nested deeper than the parser goes
        raise too_deep from None
    if text.count("[") + text.count("{") > MAX_DEPTH and _depth(entry) > MAX_DEPTH:
        raise too_deep
    return entry


def _depth(value: Any) -> int:
    """How deeply ``value``'s lists and objects nest, counted without recursion."""
    deepest, pending = 0, [(value, 1)]
    while pending:
        item, level = pending.pop()
        deepest = max(deepest, level)
        if level <= MAX_DEPTH and isinstance(item, dict | list):
            pending.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def _echo(line: bytes | None) -> str:
    """An unreadable line as the report quotes it: the start of it, readable."""
    return "" if line is None else line[:ECHO_CHARS].decode("utf-8", "replace").rstrip("\n")


def replay_lines(game: str, lines: Iterable[bytes | None]) -> dict[str, Any]:
    """Apply a JSON-lines game (a setup line, then actions, undos and ends) and report the result as JSON."""
    ruleset = get_game(game)
    session = TableSession(EventLog(":memory:"), auto_chance=False)
    violations: list[dict[str, Any]] = []
    total = 0
    first_refusal: tuple[int, RuleViolation] | None = None
    setup_refusal: tuple[int, RuleViolation] | None = None
    for number, line in enumerate(lines, start=1):
        if line is not None and not line.strip():
            continue
        entry: Any = _echo(line)
        try:
            entry = parse_entry(line)
            result = _apply(session, ruleset, entry)
        except RuleViolation as violation:
            result = violation
            if isinstance(entry, dict) and entry.get("type") == "setup":
                setup_refusal = setup_refusal or (number, violation)
        if isinstance(result, RuleViolation):
            total += 1
            first_refusal = first_refusal or (number, result)
            if len(violations) < MAX_LISTED:
                violations.append(_refused(number, entry, result))
    game_state = session.game
    if game_state is None:
        raise _no_game(setup_refusal or first_refusal, refused_setup=setup_refusal is not None)
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
        "violations_total": total,
    }


def _apply(session: TableSession, ruleset: Ruleset, entry: Any) -> Any:
    """One replay entry applied to the session: the event recorded, or the ``RuleViolation`` refusing it."""
    kind = entry.get("type") if isinstance(entry, dict) else None
    if kind == "setup":
        setup = GameSetup.from_json(entry)
        if setup.game != ruleset.name:
            raise MalformedAction("wrong-game", f"This file is a {setup.game} game, not {ruleset.name}.")
        return session.start_game(setup, source="replay")
    if kind == "undo":
        return session.undo("replay")
    if kind == "end":
        return session.end_game("replay", str(entry.get("reason", "Ended.")))
    return session.submit(entry, "replay")


def _no_game(refusal: tuple[int, RuleViolation] | None, refused_setup: bool) -> MalformedAction:
    """Why a replay file started no game: its setup line's refusal, else what was wrong with its first line."""
    if refused_setup and refusal:
        return MalformedAction(refusal[1].code, f"The setup on line {refusal[0]} was refused: {refusal[1].message}")
    why = f" (line {refusal[0]}: {refusal[1].message.rstrip('.')})" if refusal else ""
    must = 'the first line must be {"type": "setup", ...}'
    return MalformedAction("no-setup", f"The file has no setup line{why}: {must}.")


def _refused(line: int, entry: Any, violation: RuleViolation) -> dict[str, Any]:
    return {"line": line, "entry": entry, "violation": violation.to_json()}


def run_replay(args: argparse.Namespace, config: Config) -> int:
    try:
        with nullcontext(sys.stdin.buffer) if args.file == "-" else open(args.file, "rb") as stream:
            report = replay_lines(args.game, read_lines(stream))
    except OSError as exc:
        print(f"companion replay: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    except RuleViolation as violation:
        print(f"companion replay: {violation.message}", file=sys.stderr)
        return 2
    print(json.dumps(report, indent=2))
    return 1 if report["violations_total"] else 0


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


def read_match_trace(stream: BinaryIO) -> list[dict[str, Any]]:
    """A judge trace's entries, checked: raises ``ValueError`` naming the first line that is not a trace entry
    (a racer or seat the call does not seat, a trace with no match call)."""
    entries: list[dict[str, Any]] = []
    seats = 0
    for number, line in enumerate(read_lines(stream), start=1):
        if line is not None and not line.strip():
            continue
        try:
            entry = parse_entry(line)
        except MalformedAction as bad:
            raise ValueError(f"line {number}: {bad.message}") from None
        if not isinstance(entry, dict) or not isinstance(entry.get("kind"), str):
            raise ValueError(f"line {number}: an entry is an object with a 'kind'")
        if entry["kind"] == "call":
            players, racers = entry.get("players"), entry.get("racers")
            seats = len(players) if isinstance(players, list) else 0
            if not (isinstance(racers, list) and len(racers) == 2 and len(set(map(str, racers))) == 2):
                raise ValueError(f"line {number}: a match call names two different racers")
            entry_seats = racers
        else:
            entry_seats = [entry["seat"]] if "seat" in entry else []
        for seat in entry_seats:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
                raise ValueError(f"line {number}: seat {seat!r} is not one of the {seats} seats of the match call")
        entries.append(entry)
    if not any(e["kind"] == "call" for e in entries):
        raise ValueError("it has no match call: nothing to judge")
    return entries


def run_judge(args: argparse.Namespace, config: Config) -> int:
    """Replay a recorded match trace through the judge; print its verdicts beside the recorded ones."""
    try:
        with open(args.trace, "rb") as stream:
            entries = read_match_trace(stream)
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


def _game_id(text: str) -> int:
    """A game number as the log numbers them (SQLite's integers end at 2**63 - 1)."""
    number = int(text) if text.isdigit() and len(text) <= 19 else 0
    if not 1 <= number < 2**63:
        raise argparse.ArgumentTypeError(f"a game number is a whole number from 1 (see `companion log`), not {text!r}")
    return number


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
    log_sub.add_parser("show", help="one game's events as JSON").add_argument("game_id", type=_game_id)
    exporting = log_sub.add_parser("export", help="one game as a replay file, or --all games as rows")
    exporting.add_argument("game_id", type=_game_id, nargs="?")
    exporting.add_argument("--all", action="store_true", help="every event of every game, one row each")
    exporting.add_argument("--format", choices=export.FORMATS, default="jsonl", help="with --all (default jsonl)")
