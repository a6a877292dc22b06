"""``companion doctor``: checks everything the config names; exit status 1 when something must be fixed."""

from __future__ import annotations

import argparse
from typing import Any

from companion.config import Config
from companion.devices.doctor import CHECKS, INTERACTIVE, Doctor, Level, Probes, table
from companion.devices.doctor_bench import bench


def run_doctor(args: argparse.Namespace, config: Config, probes: Probes | None = None) -> int:
    chosen = tuple(args.only) if args.only else tuple(c for c in CHECKS if c not in INTERACTIVE or args.interactive)
    findings = Doctor(config, probes or Probes(ends=args.ends)).run(chosen)
    if args.bench:
        findings += bench(config, args.ends)
    print(table(findings))
    failed = [f.check for f in findings if f.level is Level.FAIL]
    print(f"\n{len(failed)} problems: {', '.join(failed)}" if failed else "\neverything the table needs is ready")
    return 1 if failed else 0


def register(groups: Any) -> None:
    doctor = groups.root.add_parser("doctor", help="check the camera, Pico, pads, GPIO, disk, log and web port")
    doctor.add_argument("--only", nargs="+", choices=CHECKS, metavar="CHECK",
                        help=f"just these checks ({', '.join(CHECKS)}), e.g. the Pico after rewiring it")
    doctor.add_argument("--interactive", action="store_true",
                        help="also light each seat's LED and wait for its button to be pressed")
    doctor.add_argument("--bench", action="store_true",
                        help="also time the camera, card recognition and the pad link: will this machine keep up?")
    doctor.set_defaults(run=run_doctor)
