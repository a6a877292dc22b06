"""``companion service install|uninstall|status``: the table as a systemd service that starts at boot.

``--dry-run`` prints exactly the files and commands and changes nothing. ``--root DIR`` writes into a system
image mounted at ``DIR`` (an SD card prepared on another machine): the units are enabled offline with
``systemctl --root`` and take effect at its next boot.
"""

from __future__ import annotations

import argparse
import grp
import os
import pwd
import shutil
import subprocess
import sys
from pathlib import Path, PurePosixPath
from typing import Any

from companion.config import Config
from companion.service.units import (
    ENABLED,
    PATHS,
    SERVICE,
    InstallFile,
    Target,
    needed_groups,
    plan,
    port_advice,
)


class ServiceError(RuntimeError):
    """An install that cannot go ahead, with what to do about it; nothing was written."""


def _root(args: argparse.Namespace) -> Path:
    return Path(args.root or "/")


def _on_disk(root: Path, file: InstallFile | PurePosixPath) -> Path:
    path = file.path if isinstance(file, InstallFile) else file
    return root / path.relative_to("/")


def existing_groups(root: Path) -> set[str]:
    """The groups of the system at ``root`` (``/etc/group`` of an image; the running system's otherwise)."""
    if root == Path("/"):
        return {g.gr_name for g in grp.getgrall()}
    try:
        lines = (root / "etc" / "group").read_text(encoding="utf-8").splitlines()
    except OSError:
        return set()
    return {line.split(":", 1)[0] for line in lines if ":" in line}


def target_for(args: argparse.Namespace, config: Config) -> tuple[Target, list[str]]:
    """Who runs the table, from what, in which groups; and the warnings a person should act on."""
    if config.path is None:
        raise ServiceError("give the table's config: companion -c companion.pi.toml service install")
    user = args.user or config.service.user or pwd.getpwuid(config.path.stat().st_uid).pw_name
    if user == "root":
        raise ServiceError("the table runs as a normal user, not root: give --user NAME (or [service] user)")
    known = existing_groups(_root(args))
    wanted = needed_groups(config)
    groups = tuple(g for g in wanted if g in known)
    warnings = [f"group {g} does not exist here: its devices will be out of the table's reach"
                for g in wanted if g not in known]
    advice = port_advice(config)
    if advice:
        warnings.append(advice)
    return Target(Path(sys.executable), config.path, user, groups), warnings


def _commands(args: argparse.Namespace, install: bool) -> list[list[str]]:
    if args.root:
        verb = "enable" if install else "disable"
        return [["systemctl", f"--root={args.root}", verb, *ENABLED]]
    if install:
        return [["systemctl", "daemon-reload"], ["systemctl", "enable", "--now", *ENABLED],
                ["udevadm", "control", "--reload-rules"], ["udevadm", "trigger", "--subsystem-match=tty"]]
    return [["systemctl", "disable", "--now", *ENABLED], ["systemctl", "daemon-reload"],
            ["udevadm", "control", "--reload-rules"]]


def _run(commands: list[list[str]]) -> int:
    for command in commands:
        print("$ " + " ".join(command), flush=True)
        if shutil.which(command[0]) is None:
            print(f"companion service: {command[0]} is not on this system (is it a Raspberry Pi OS?)",
                  file=sys.stderr)
            return 1
        if subprocess.run(command, check=False).returncode != 0:
            print(f"companion service: `{' '.join(command)}` failed (see above)", file=sys.stderr)
            return 1
    return 0


def _writable(root: Path, files: list[InstallFile]) -> None:
    for file in files:
        folder = _on_disk(root, file).parent
        while not folder.exists():
            folder = folder.parent
        if not os.access(folder, os.W_OK):
            raise ServiceError(f"cannot write {_on_disk(root, file)}: run it as root, e.g. "
                               f"sudo {sys.executable} -m companion -c CONFIG service install")


def run_install(args: argparse.Namespace, config: Config) -> int:
    try:
        target, warnings = target_for(args, config)
        files = plan(config, target)
        root = _root(args)
        commands = _commands(args, install=True)
        if args.dry_run:
            for file in files:
                print(f"# {_on_disk(root, file)}\n{file.text}")
            print("\n".join("$ " + " ".join(c) for c in commands))
        else:
            _writable(root, files)
    except ServiceError as exc:
        print(f"companion service install: {exc}", file=sys.stderr)
        return 2
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if args.dry_run:
        return 0
    for file in files:
        path = _on_disk(root, file)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(file.text, encoding="utf-8")
        print(f"wrote {path}")
    code = _run(commands)
    if code == 0:
        print(f"installed: the table starts at boot as {target.user}; `journalctl -u {SERVICE} -f` follows it")
    return code


def run_uninstall(args: argparse.Namespace, config: Config) -> int:
    root = _root(args)
    files = [path for path in PATHS if _on_disk(root, path).exists()]
    commands = _commands(args, install=False)
    if args.dry_run:
        print("\n".join("$ " + " ".join(c) for c in commands))
        print("\n".join(f"remove {_on_disk(root, f)}" for f in files))
        return 0
    code = _run(commands)  # stop first, then remove what it ran from
    for file in files:
        _on_disk(root, file).unlink()
        print(f"removed {_on_disk(root, file)}")
    return code


def run_status(args: argparse.Namespace, config: Config) -> int:
    """Each installed file against what the config generates now, then what systemd says."""
    try:
        target, _ = target_for(args, config)
    except ServiceError as exc:
        print(f"companion service status: {exc}", file=sys.stderr)
        return 2
    root = _root(args)
    current = True
    for file in plan(config, target):
        path = _on_disk(root, file)
        if not path.exists():
            state, current = "not installed: companion service install", False
        elif path.read_text(encoding="utf-8") != file.text:
            state, current = "differs from the config: companion service install writes it again", False
        else:
            state = "up to date"
        print(f"{path}: {state}")
    if not args.root and shutil.which("systemctl"):
        subprocess.run(["systemctl", "--no-pager", "status", SERVICE], check=False)
    return 0 if current else 1


def register(groups: Any) -> None:
    service = groups.root.add_parser("service", help="run the table at boot as a systemd service")
    actions = service.add_subparsers(dest="action", required=True)
    for name, run, text in (("install", run_install, "write the unit, timer and udev rule; enable and start"),
                            ("uninstall", run_uninstall, "stop, disable and remove them"),
                            ("status", run_status, "are the files installed and current; is the table running")):
        action = actions.add_parser(name, help=text)
        action.add_argument("--root", metavar="DIR", help="a system image mounted at DIR instead of this system")
        if name != "status":
            action.add_argument("--dry-run", action="store_true", help="print what it would do; change nothing")
        if name != "uninstall":
            action.add_argument("--user", help="who runs the table (default: [service] user, else the config's owner)")
        action.set_defaults(run=run)
