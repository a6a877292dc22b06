"""Web sub-commands: ``companion hash-pin`` turns a referee PIN into the ``[web] pin_hash`` setting."""

from __future__ import annotations

import argparse
import getpass
import sys
from collections.abc import Callable
from typing import Any

from companion.web.auth import hash_pin


def read_pin(prompt: Callable[[str], str] = getpass.getpass) -> str:
    """Ask twice on a terminal (a typo would lock the referee out); read one line from a pipe."""
    if not sys.stdin.isatty():
        return sys.stdin.readline().strip()
    pin = prompt("Referee PIN: ")
    if prompt("Again: ") != pin:
        raise ValueError("The two PINs differ.")
    return pin


def hash_pin_command(args: argparse.Namespace, config: Any) -> int:
    """Print the TOML line to paste into the config's ``[web]`` section."""
    try:
        print(f'pin_hash = "{hash_pin(read_pin())}"')
    except ValueError as exc:
        print(f"companion hash-pin: {exc}", file=sys.stderr)
        return 2
    return 0


def register(groups: Any) -> None:
    """Add the web commands to the ``companion`` parser."""
    parser = groups.root.add_parser("hash-pin", help="hash a referee PIN for the [web] pin_hash setting")
    parser.set_defaults(run=hash_pin_command)
