"""``companion firmware flash``: the Pico's firmware from this checkout, copied, verified and greeted."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion.config import Config
from companion.devices.flash import FlashError, flash


def run_flash(args: argparse.Namespace, config: Config) -> int:
    port = args.port or config.serial.port
    if port == "sim":
        print("companion firmware flash: the emulated Pico needs no firmware: give the real one's --port "
              "(e.g. /dev/ttyACM0), or use the Pi's config (-c companion.pi.toml)", file=sys.stderr)
        return 2
    try:
        done = flash(port)
    except FlashError as exc:
        print(f"companion firmware flash: {exc}", file=sys.stderr)
        return 1
    info = done.info
    print(f"the Pico runs firmware {info.version} (protocol {info.proto}, {info.pads} pads at {info.rate} "
          "samples/s)")
    return 0


def register(groups: Any) -> None:
    firmware = groups.root.add_parser("firmware", help="the Pico's firmware")
    actions = firmware.add_subparsers(dest="action", required=True)
    flashing = actions.add_parser("flash", help="copy firmware/ onto the Pico with mpremote, verify, reset, check")
    flashing.add_argument("--port", help="the Pico's serial port (default: [serial] port)")
    flashing.set_defaults(run=run_flash)
