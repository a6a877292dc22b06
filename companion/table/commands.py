"""Table sub-commands: ``games``, ``replay``, ``log``."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Iterable
from contextlib import nullcontext
from datetime import datetime
from pathlib import Path
from typing import Any

from companion.config import Config
from companion.games.base import GameSetup, MalformedAction, Ruleset, RuleViolation
from companion.games.registry import GAMES, get_game
from companion.table import export, race_plot
from companion.table.json_lines import parse_entry, read_lines
from companion.table.log import Event, EventLog
from companion.table.pigzup_judge import FalseShout, Overrides, replay_trace
from companion.table.race_files import read_match_trace
from companion.table.race_story import explain
from companion.table.replay import fold
from companion.table.replay_steps import ReplayStep, what_it_did
from companion.table.session import TableSession


def run_games(args: argparse.Namespace, config: Config) -> int:
    for ruleset in GAMES.values():
        print(f"{ruleset.name}: {ruleset.title}, {ruleset.min_players}-{ruleset.max_players} players")
        for variant, description in ruleset.variants.items():
            print(f"  --variant {variant:<20} {description}")
    return 0


MAX_LISTED = 100  # refusals listed in full; the rest are counted, so a garbage file cannot fill the memory
ECHO_CHARS = 200  # how much of an unreadable line the report quotes back


def _echo(line: bytes | None) -> str:
    """An unreadable line as the report quotes it: the start of it, readable."""
    return "" if line is None else line[:ECHO_CHARS].decode("utf-8", "replace").rstrip("\n")


def replay_lines(game: str, lines: Iterable[bytes | None],
                 on_step: Callable[[ReplayStep], None] | None = None) -> dict[str, Any]:
    """Apply a JSON-lines game (a setup line, then actions, undos and ends) and report the result as JSON;
    ``on_step`` hears what each line did and sees the game after it (``--steps``)."""
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
        before = session.state
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
        if on_step is not None:
            refusal = result if isinstance(result, RuleViolation) else None
            on_step(ReplayStep(number, what_it_did(session, before, entry, result), refusal, session))
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
            report = replay_lines(args.game, read_lines(stream), _step_printer(args.steps))
    except OSError as exc:
        print(f"companion replay: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    except RuleViolation as violation:
        print(f"companion replay: {violation.message}", file=sys.stderr)
        return 2
    print(json.dumps(report, separators=(",", ":")) if args.steps == "json" else json.dumps(report, indent=2))
    return 1 if report["violations_total"] else 0


def _step_printer(steps: str | None) -> Callable[[ReplayStep], None] | None:
    """``--steps``: each line's effect and the state after it, as text, or as JSON lines (``--steps json``)."""
    if steps is None:
        return None
    return lambda step: print(step.to_json() if steps == "json" else step.to_text())


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
    """Replay a recorded match trace through the judge (with any what-ifs); print its verdicts beside the
    recorded ones, or the race step by step (``--explain``); draw it (``--plot``)."""
    overrides = Overrides(args.hold, args.false_shout)
    try:
        with open(args.trace, "rb") as stream:
            entries = read_match_trace(stream)
        replayed = replay_trace(entries, overrides)
        steps = explain(entries, overrides) if args.explain else []
        picture = race_plot.png(entries, overrides) if args.plot else None
    except OSError as exc:
        print(f"companion judge: cannot read {args.trace}: {exc.strerror}", file=sys.stderr)
        return 2
    except race_plot.NothingToDraw as exc:
        print(f"companion judge: nothing to plot in {args.trace}: {exc}", file=sys.stderr)
        return 2
    except (ValueError, KeyError, TypeError) as exc:
        print(f"companion judge: {args.trace} is not a match trace: {exc}", file=sys.stderr)
        return 2
    if picture is not None:
        try:
            Path(args.plot).write_bytes(picture)
        except OSError as exc:
            print(f"companion judge: cannot write {args.plot}: {exc.strerror}", file=sys.stderr)
            return 2
    verdicts = [v.to_json() for v in replayed]
    recorded = [{k: v for k, v in e.items() if k != "kind"} for e in entries if e["kind"] == "verdict"]
    # Traces written before verdicts had reason codes compare on the fields they have.
    same = len(verdicts) == len(recorded) and all(
        {k: v for k, v in now.items() if k in then} == then for now, then in zip(verdicts, recorded, strict=False)
    )
    if args.explain:
        print("\n".join(str(step) for step in steps))
        if not recorded:
            print("Recorded: no verdict (the race timed out unjudged, or the referee took it over).")
        else:
            now = "with these what-ifs" if any(vars(overrides).values()) else "now"
            print("Recorded: the same verdict." if same else
                  f"Recorded: {recorded[-1]['reason']} — not what the judge gives {now}.")
    else:
        report = {"verdicts": verdicts, "recorded": recorded, "same": same,
                  "overrides": {k: v for k, v in vars(overrides).items() if v is not None}}
        print(json.dumps(report, indent=2))
    return 0 if same else 1


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"a hold time is a number of seconds above 0, not {text!r}")
    return value


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
    replay.add_argument("--steps", nargs="?", const="text", choices=("text", "json"),
                        help="print what each line did and the state after it (json: one JSON object a line, "
                             "the report last)")
    replay.set_defaults(run=run_replay)

    judge = groups.root.add_parser("judge", help="replay a recorded PigzUp! match trace through the judge")
    judge.add_argument("--trace", required=True, metavar="FILE", help="a trace written by the table (JSON lines)")
    judge.add_argument("--hold", type=_seconds, metavar="S", help="what if the hold time had been S seconds")
    judge.add_argument("--false-shout", choices=list(FalseShout), help="what if a false shout had this ruling")
    judge.add_argument("--explain", action="store_true", help="tell the race step by step instead of JSON")
    judge.add_argument("--plot", metavar="OUT.png", help="draw both pads' weights with the shouts and verdict")
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
