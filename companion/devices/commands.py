"""Device sub-commands: ``companion pads`` (live pile states) and ``companion calibrate pads``.

Both talk to the Pico through the real serial link, on the port the command line's ends open (``sim``: the
firmware emulator on a pseudo-terminal), so they behave the same against the emulator as against ``/dev/ttyACM0``.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from companion.devices.calibrate import CalibrationRefused, Wizard
from companion.devices.calibration import CalibrationProfile, ProfileError
from companion.devices.link import LinkDown, SerialLink
from companion.devices.pads import PadMonitor, TareRefused
from companion.devices.pile import PileEvent
from companion.ends import Ends, NoEmulator

CONNECT_TIMEOUT_S = 5.0


class CommandError(RuntimeError):
    """A device command that cannot go on, with a message for the person at the table."""


def register(groups: Any) -> None:
    """Add the device commands to the ``companion`` parser."""
    pads = groups.root.add_parser("pads", help="live pile state of every pad (port 'sim' = the emulated Pico)")
    stop = pads.add_mutually_exclusive_group()
    stop.add_argument("--seconds", type=float, metavar="N", help="stop after N seconds (default: Ctrl-C)")
    stop.add_argument("--once", action="store_true", help="print every pad's state once and stop")
    pads.add_argument("--tare", action="store_true", help="tare every pad first (they must be empty and still)")
    pads.add_argument("--demo", action="store_true",
                      help="with port 'sim' and no emulator running: the emulated players build and topple piles")
    pads.set_defaults(run=run_pads)

    cal = groups.calibrate.add_parser("pads", help="tare, reference weight and piggies → calibration profile")
    cal.add_argument("--pad", type=int, action="append", metavar="N",
                     help="calibrate pad N (from 1; repeat for several; default: every pad the Pico reports)")
    cal.add_argument("--reference-grams", type=float, default=100.0, metavar="G",
                     help="the known reference weight in grams (default 100)")
    cal.add_argument("--piggies", type=int, default=8, metavar="N", help="how many piggies to weigh (default 8)")
    cal.add_argument("--samples", type=int, default=80, metavar="N", help="readings per measurement (80 = 1 s)")
    cal.add_argument("--settle", type=float, default=0.5, metavar="S",
                     help="seconds to wait after Enter, hands off, before reading (default 0.5)")
    cal.add_argument("--output", metavar="FILE", help="where to write the profile (default: [serial] calibration)")
    cal.set_defaults(run=run_calibrate)


@contextlib.contextmanager
def connect(ends: Ends, config: Any, pads: int, demo: bool = False) -> Iterator[SerialLink]:
    with ends.serial_port(config.serial.port, pads=pads, demo=demo) as path, \
            SerialLink(path, config.serial.baudrate) as link:
        if not link.wait_connected(CONNECT_TIMEOUT_S):
            raise CommandError(f"cannot reach the Pico on {config.serial.port}: {link.health().last_error}")
        yield link


def run_pads(args: argparse.Namespace, config: Any) -> int:
    try:
        profile = CalibrationProfile.load(config.resolve(config.serial.calibration))
    except ProfileError as exc:
        print(f"companion pads: {exc}", file=sys.stderr)
        return 2
    try:
        with connect(args.ends, config, len(profile.pads), demo=args.demo) as link:
            return _monitor(args, link, profile, sys.stdout, config.serial.tare_samples)
    except (CommandError, TareRefused, NoEmulator) as exc:
        print(f"companion pads: {exc}", file=sys.stderr)
        return 1


def _monitor(args: argparse.Namespace, link: SerialLink, profile: CalibrationProfile, out: TextIO,
             tare_samples: int) -> int:
    try:
        pads = link.info(timeout=2.0).pads
    except LinkDown:
        pads = len(profile.pads)
    live = out.isatty()

    def show(event: PileEvent, _host_s: float) -> None:
        if not live:
            detail = f"  ({event.detail})" if event.detail else ""
            out.write(f"{event.t_us / 1e6:10.3f} s  pad {event.pad + 1}  {event.label:<10} {event.grams:7.1f} g"
                      f"{detail}\n")

    monitor = PadMonitor(link, profile, show, pads=pads)
    if args.tare:
        zeros = monitor.tare(samples=tare_samples)
        out.write(f"tared {len(zeros)} pads\n")
    duration = 2 * profile.thresholds.settle_ms / 1000 + 0.4 if args.once else args.seconds
    end = None if duration is None else time.monotonic() + duration
    drawn = 0
    try:
        while end is None or time.monotonic() < end:
            time.sleep(0.25 if end is None else max(0.0, min(0.25, end - time.monotonic())))
            monitor.poll()
            if live:
                drawn = _draw(out, monitor, link, drawn, live)
    except KeyboardInterrupt:
        out.write("\n")
    finally:
        monitor.close()
    if not live:
        _draw(out, monitor, link, 0, live)
    return 0


def _draw(out: TextIO, monitor: PadMonitor, link: SerialLink, drawn: int, live: bool) -> int:
    """The pads table and link health; on a terminal it redraws itself in place."""
    h = link.health()
    lines = [f"{'pad':>3}  {'state':<10} {'grams':>7}  for"]
    for view in monitor.snapshot():
        since = "" if view.for_s is None else f"{view.for_s:.1f} s"
        lines.append(f"{view.pad + 1:>3}  {view.label:<10} {view.grams:7.1f}  {since}")
    age = "never" if h.last_frame_age_s is None else f"{h.last_frame_age_s:.2f} s ago"
    lines.append(f"link {h.port}: {'connected' if h.connected else 'DISCONNECTED'}, {h.frames_per_s:.0f} frames/s, "
                 f"{h.bad_frames} bad, {h.seq_gaps} gaps, last frame {age}")
    if drawn:
        out.write(f"\x1b[{drawn}A")
    clear = "\x1b[2K" if live else ""
    out.write("".join(f"{clear}{line}\n" for line in lines))
    out.flush()
    return len(lines)


def run_calibrate(args: argparse.Namespace, config: Any) -> int:
    path = Path(args.output) if args.output else config.resolve(config.serial.calibration)
    try:
        base = CalibrationProfile.load(path) if path.exists() else None
    except ProfileError as exc:
        print(f"companion calibrate pads: {exc}\n(move it away to start from scratch)", file=sys.stderr)
        return 2
    if args.samples < 10 or args.piggies < 2 or args.reference_grams <= 0:
        print("companion calibrate pads: use --samples 10 or more, --piggies 2 or more and a reference weight "
              "above 0 g", file=sys.stderr)
        return 2
    try:
        with connect(args.ends, config, len(base.pads) if base else 6) as link:
            info = link.info(timeout=2.0)
            chosen = [n - 1 for n in args.pad] if args.pad else list(range(info.pads))
            if any(not 0 <= pad < info.pads for pad in chosen):
                raise CommandError(f"the Pico has pads 1 to {info.pads}")
            start = base or CalibrationProfile.default(info.pads)
            helper = args.ends.calibration_helper(config.serial.port)
            if helper:
                print("(emulated Pico: a helper puts each weight on the pad when you press Enter)")
            wizard = Wizard(link, start, samples=args.samples, settle_s=args.settle, on_step=helper)
            try:
                profile = wizard.run(chosen, args.reference_grams, args.piggies)
            finally:
                wizard.close()
    except CalibrationRefused as exc:
        print(f"\ncalibration refused: {exc}\nNothing was written.", file=sys.stderr)
        return 1
    except (CommandError, LinkDown, NoEmulator) as exc:
        print(f"companion calibrate pads: {exc}\nNothing was written.", file=sys.stderr)
        return 1
    except EOFError:
        print("\ncalibration abandoned: nothing was written.", file=sys.stderr)
        return 1
    profile.save(path)
    print(f"piggy {profile.piggy_g:.2f} g ± {profile.piggy_spread_g:.2f} g; counts are exact up to "
          f"{profile.max_piggies} piggies (±{profile.tolerance_g(profile.max_piggies):.1f} g)")
    print(f"wrote {path}")
    return 0
