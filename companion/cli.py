"""The ``companion`` command: wires the layers together from a TOML config.

Each layer contributes its own sub-commands through a ``register(groups)`` function, so this module stays a
thin switchboard and a newcomer finds a command next to the code it drives. It is also where the simulator
plugs in: the commands open the Pico and the camera through ``args.ends``, which understand the name ``sim``
(the emulated Pico, the rendered camera), and ``companion demo`` plays the simulated table. No other product
module imports ``companion.sim``.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from companion.config import ConfigError, load_config
from companion.devices import commands as device_commands
from companion.devices import doctor_commands, firmware_commands
from companion.ends import NoEmulator
from companion.service import commands as service_commands
from companion.sim import demo
from companion.sim.ends import SIMULATOR
from companion.table import backup_commands
from companion.table import commands as table_commands
from companion.table.schema import SchemaError
from companion.vision import commands as vision_commands
from companion.web import commands as web_commands


@dataclass(frozen=True)
class CommandGroups:
    """Where a layer adds its sub-commands: at the top level, or under ``companion calibrate``."""

    root: argparse._SubParsersAction
    calibrate: argparse._SubParsersAction


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="Tableside: referee and scorekeeper.")
    parser.add_argument("--config", "-c", metavar="FILE", help="companion.toml (default: the simulated table)")
    root = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    calibrate = root.add_parser("calibrate", help="calibrate pads, cards, the camera or its zones")
    groups = CommandGroups(root=root, calibrate=calibrate.add_subparsers(dest="what", required=True))
    for layer in (table_commands, backup_commands, demo, device_commands, vision_commands, web_commands,
                  service_commands, firmware_commands, doctor_commands):
        layer.register(groups)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.ends = SIMULATOR
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(f"companion: config: {exc}", file=sys.stderr)
        return 2
    try:
        return int(args.run(args, config) or 0)
    except (SchemaError, NoEmulator) as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
    except sqlite3.Error as exc:  # the checks at start-up passed, and then the disk filled or the file went bad
        print(f"companion: the game log {config.resolve(config.table.database)}: {exc}", file=sys.stderr)
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"companion: {where}{exc.strerror or exc}", file=sys.stderr)
    except KeyboardInterrupt:  # Ctrl-C in a command that does not wait for one: stopped, not a traceback
        print("\ncompanion: stopped", file=sys.stderr)
        return 130
    return 2
