"""Putting ``firmware/`` onto the Pico with ``mpremote`` (MicroPython's own tool), then checking it answers.

The running firmware ignores Ctrl-C (binary frames may hold ``0x03``), so ``mpremote`` can only stop it in the
1.5 s after boot (``firmware/main.py``). A Pico that speaks the protocol is therefore sent RESET first, and one
``mpremote`` run copies the files (``main.py`` last, so a half-copied set never boots), prints their SHA-256 on
the board for comparison, and resets it. The board then boots the new firmware, which announces itself in its
INFO frame: protocol and firmware version must both be this checkout's.
"""

from __future__ import annotations

import ast
import hashlib
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from companion.devices import protocol as p
from companion.devices.link import LinkDown, SerialLink

FIRMWARE_DIR = Path(__file__).resolve().parents[2] / "firmware"
INSTALL_MICROPYTHON = "docs/install.md, 'MicroPython on the Pico'"
PORT_TIMEOUT_S = 5.0
HANDSHAKE_TIMEOUT_S = 5.0
BOOT_WINDOW_S = 1.6  # firmware/main.py's Ctrl-C window: the host's first frame must not land in the REPL
MPREMOTE_TIMEOUT_S = 120.0


class FlashError(RuntimeError):
    """The firmware could not be put on the Pico or checked, with what to do about it."""


@dataclass(frozen=True)
class Flashed:
    files: tuple[str, ...]
    info: p.Info


def firmware_version(folder: Path = FIRMWARE_DIR) -> str:
    """The version the firmware in this checkout reports (``VERSION`` in ``firmware/app.py``). Read once per
    version of the file: the live doctor asks on every run of its checks, from its own thread, and CPython 3.11's
    parser keeps its AST depth count per interpreter, so two threads parsing at once can fail with "AST
    constructor recursion depth mismatch" (python/cpython#106905; it failed a doctor test in CI)."""
    app = folder / "app.py"
    return _version_in(app, app.stat().st_mtime_ns)


@lru_cache(maxsize=4)
def _version_in(app: Path, _mtime_ns: int) -> str:
    """``firmware_version`` of ``app`` as it was at ``_mtime_ns`` (a file an upgrade rewrites is read again)."""
    tree = ast.parse(app.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "VERSION" for t in node.targets):
            return str(ast.literal_eval(node.value))
    raise FlashError(f"{app} sets no VERSION")


def firmware_files(folder: Path = FIRMWARE_DIR) -> list[str]:
    """The files to copy, ``main.py`` last."""
    if not folder.is_dir():
        raise FlashError(f"there is no firmware folder at {folder}: flash from a clone of the repository")
    return sorted((f.name for f in folder.glob("*.py")), key=lambda name: (name == "main.py", name))


def mpremote() -> str:
    """The ``mpremote`` on PATH, else the one installed beside this Python (the virtualenv's)."""
    found = shutil.which("mpremote") or shutil.which("mpremote", path=str(Path(sys.executable).parent))
    if found is None:
        raise FlashError("mpremote is not installed: .venv/bin/pip install mpremote")
    return found


def handshake(port: str, timeout: float = HANDSHAKE_TIMEOUT_S) -> p.Info:
    """The INFO of the firmware on ``port``: raises :class:`LinkDown` if nothing there speaks the protocol."""
    with SerialLink(port) as link:
        if not link.wait_connected(timeout):
            raise LinkDown(f"cannot open {port}: {link.health().last_error}")
        return link.info(timeout=timeout)


def check_versions(info: p.Info, expected: str) -> None:
    if info.proto != p.PROTOCOL_VERSION:
        raise FlashError(f"the Pico speaks protocol {info.proto}, this Tableside speaks {p.PROTOCOL_VERSION}: "
                         "flash the firmware: companion firmware flash")
    if info.version != expected:
        raise FlashError(f"the Pico runs firmware {info.version}, this checkout's is {expected}: "
                         "flash the firmware: companion firmware flash")


def _wait_for(port: str, timeout: float) -> bool:
    """A Pico that resets leaves USB and comes back: wait for its port to be there again."""
    deadline = time.monotonic() + timeout
    while not Path(port).exists():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _stop_firmware(port: str) -> bool:
    """RESET a Pico running our firmware, so that mpremote meets it in its boot window. False if it did not
    answer (a fresh MicroPython, or something else)."""
    try:
        with SerialLink(port) as link:
            if not link.wait_connected(1.0):
                return False
            link.info(timeout=1.0)
            link.request(p.Reset, (p.Ack,), timeout=1.0)
    except LinkDown:
        return False
    return True


def _failure(port: str, output: str, was_running: bool) -> FlashError:
    if "failed to access" in output or "no device" in output or "disconnected" in output:
        return FlashError(f"no Pico on {port}: is it plugged in? (give --port, e.g. /dev/ttyACM0)")
    if "raw repl" in output:
        if was_running:
            return FlashError(f"the Pico on {port} rebooted but mpremote missed its 1.5 s window: run it again")
        return FlashError(f"the device on {port} does not answer as MicroPython: install MicroPython on the Pico "
                          f"first ({INSTALL_MICROPYTHON}), then run this again")
    return FlashError(f"mpremote failed: {output.strip().splitlines()[-1] if output.strip() else 'no output'}")


def flash(port: str, folder: Path = FIRMWARE_DIR, say: Callable[[str], None] = print) -> Flashed:
    """Copy, verify, reset and handshake; raises :class:`FlashError` with the reason and the fix."""
    files = firmware_files(folder)
    expected = firmware_version(folder)
    tool = mpremote()
    if not Path(port).exists():
        raise FlashError(f"no Pico on {port}: is it plugged in? (give --port, e.g. /dev/ttyACM0)")
    was_running = _stop_firmware(port)
    if was_running:
        say(f"the Pico on {port} runs Tableside's firmware: reset it to copy the new one")
        if not _wait_for(port, PORT_TIMEOUT_S):
            raise FlashError(f"the Pico did not come back on {port} after its reset: replug it and run again")
    command = [tool, "connect", port, "fs", "cp", *files, ":", "+", "fs", "sha256sum",
               *(f":{f}" for f in files), "+", "reset"]
    say("$ " + " ".join(command))
    try:
        run = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=MPREMOTE_TIMEOUT_S,
                             check=False)
    except subprocess.TimeoutExpired:
        raise FlashError(f"mpremote did not finish within {MPREMOTE_TIMEOUT_S:g} s: replug the Pico, run it "
                         "again") from None
    if run.returncode != 0:
        raise _failure(port, run.stdout + run.stderr, was_running)
    _verify(folder, files, run.stdout)
    say(f"copied and verified {len(files)} files; the Pico is restarting")
    if not _wait_for(port, PORT_TIMEOUT_S):
        raise FlashError(f"the Pico did not come back on {port} after the copy: replug it")
    time.sleep(BOOT_WINDOW_S)
    try:
        info = handshake(port)
    except LinkDown as exc:
        raise FlashError(f"the new firmware does not answer on {port} ({exc}): replug the Pico; if it stays "
                         "silent, run `mpremote connect PORT repl` to see its error") from None
    check_versions(info, expected)
    return Flashed(tuple(files), info)


def _verify(folder: Path, files: list[str], output: str) -> None:
    """The board's SHA-256 of each file (mpremote prints them in order) against the local files'."""
    digests = [line.strip() for line in output.splitlines() if len(line.strip()) == 64
               and all(c in "0123456789abcdef" for c in line.strip())]
    local = [hashlib.sha256((folder / f).read_bytes()).hexdigest() for f in files]
    if len(digests) != len(files):
        raise FlashError(f"mpremote printed {len(digests)} checksums for {len(files)} files: run it again")
    wrong = [f for f, theirs, ours in zip(files, digests, local, strict=True) if theirs != ours]
    if wrong:
        raise FlashError(f"{', '.join(wrong)} differ on the Pico after the copy: run it again (a bad cable?)")
