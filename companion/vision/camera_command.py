"""``companion calibrate camera``: a live check of what the camera sees, with advice, while the camera is set up.

It reads the configured camera (the one the table uses) for a few seconds, or pictures (``--from`` a file or a
folder), and judges each frame with ``camera_check``: mat found, light level, colour cast, focus, a card's size.
On a terminal the check refreshes in place, so the camera can be moved and the lamp turned until it says good
enough. Exit code: 0 good enough, 1 not (the last frame's problems printed), 2 no picture at all.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from companion.config import Config
from companion.vision.calibrate import IMAGE_SUFFIXES
from companion.vision.camera_check import CameraCheck, CameraChecker, deck_card_mm
from companion.vision.live import table_zones
from companion.vision.mat import MatLayout
from companion.vision.pictures import ImageRefused, read_image
from companion.vision.sources import FrameSource, open_source
from companion.vision.zones import ZonesError

NO_PICTURE = 2
CAMERA_ADVICE = "is it plugged in (ls /dev/video*), and does [camera] source name it?"


def add_parser(calibrate: argparse._SubParsersAction) -> None:
    cam = calibrate.add_parser("camera", help="check the camera sees well enough: mat, light, colour, focus, "
                               "card size, with advice")
    cam.add_argument("--seconds", type=float, default=5.0, help="how long to watch the camera (default 5)")
    cam.add_argument("--frames", type=int, help="stop after this many frames")
    cam.add_argument("--once", action="store_true", help="one frame")
    cam.add_argument("--from", dest="pictures", metavar="PATH", help="check a picture, a folder of them or a video")
    cam.add_argument("--json", action="store_true", help="one JSON object per check, for scripts")
    cam.add_argument("--preview", metavar="FILE", help="write the last frame with the mat's zones drawn")
    cam.set_defaults(run=calibrate_camera)


def calibrate_camera(args: argparse.Namespace, config: Config) -> int:
    settings = config.camera
    try:
        zones = list(table_zones(settings, config.resolve)[0]) if settings.mat == "none" else []
    except ZonesError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 1
    checker = CameraChecker(settings, deck_card_mm(settings, config.resolve))
    if args.pictures:
        return _check_pictures(Path(args.pictures), checker, args)
    source = args.ends.camera(settings)
    frames = args.frames or (1 if args.once else None)
    last = _watch(source, checker, frames, args)
    source.close()
    if last is None:
        print(f"companion: no picture from the camera: {source.status.message}; {CAMERA_ADVICE}", file=sys.stderr)
        return NO_PICTURE
    frame, check = last
    _finish(check, frame, args, source.name, checker.layout)
    if settings.mat == "none" and not args.json:
        print("  zones    " + (", ".join(zones) if zones else
                               "none drawn: every card is in zone 'table' (draw them: companion calibrate zones)"))
    return 0 if check.ok else 1


def _watch(source: FrameSource, checker: CameraChecker, frames: int | None,
           args: argparse.Namespace) -> tuple[np.ndarray, CameraCheck] | None:
    """Check frames until ``frames`` are done (else ``args.seconds`` have passed), showing each on a terminal."""
    live = sys.stdout.isatty() and not args.json
    deadline = time.monotonic() + args.seconds
    last, shown = None, 0
    try:
        for count, frame in enumerate(source.frames(max_failures=2), 1):
            last = frame, checker.check(frame)
            if live:
                lines = [f"{source.name}, frame {count} (Ctrl-C stops)", *last[1].lines()]
                print((f"\x1b[{shown}F\x1b[J" if shown else "") + "\n".join(lines), flush=True)
                shown = len(lines)
            if count >= (frames or count + 1) or (frames is None and time.monotonic() >= deadline):
                break
    except KeyboardInterrupt:  # stopped early: the last frame's verdict still stands
        pass
    if live and shown:
        print(f"\x1b[{shown}F\x1b[J", end="", flush=True)  # the final report replaces the live one
    return last


def _check_pictures(path: Path, checker: CameraChecker, args: argparse.Namespace) -> int:
    """Each picture judged on its own; the exit code is the worst."""
    if not path.exists():
        print(f"companion: {path}: no such file or folder", file=sys.stderr)
        return NO_PICTURE
    status, seen = 0, False
    for name, frame in _pictures(path):
        seen = True
        if frame is None:
            status = max(status, NO_PICTURE)
            continue
        check = checker.check(frame)
        _finish(check, frame, args, name, checker.layout)
        status = max(status, 0 if check.ok else 1)
    if not seen:
        print(f"companion: {path}: no pictures there", file=sys.stderr)
        return NO_PICTURE
    return status


def _pictures(path: Path) -> Iterator[tuple[str, np.ndarray | None]]:
    """(name, picture) for an image, each image in a folder, or each frame of a video (None: unreadable)."""
    files = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES) if path.is_dir() else [path]
    if not path.is_dir() and path.suffix.lower() not in IMAGE_SUFFIXES:
        video = open_source(str(path))
        yield from ((f"{path} frame {k}", f) for k, f in enumerate(video.frames(), 1))
        return
    for file in files:
        try:
            yield str(file), read_image(str(file))
        except ImageRefused as refused:
            print(f"companion: {refused}", file=sys.stderr)
            yield str(file), None


def _finish(check: CameraCheck, frame: np.ndarray, args: argparse.Namespace, name: str,
            layout: MatLayout | None) -> None:
    """Print the check (text or JSON) and write the preview if asked."""
    if args.json:
        print(json.dumps({"source": name, **check.as_json()}), flush=True)
    else:
        print("\n".join([name, *check.lines()]), flush=True)
    if args.preview:
        cv2.imwrite(args.preview, _preview(frame, check, layout))
        if not args.json:
            print(f"  preview  {args.preview}")


def _preview(frame: np.ndarray, check: CameraCheck, layout: MatLayout | None) -> np.ndarray:
    """The frame with the mat's zones drawn where the mat was found."""
    out = frame.copy()
    if layout is None or check.hom is None:
        return out
    inverse = np.linalg.inv(check.hom)
    for zone in layout.zones:
        box = np.array([(zone.x0, zone.y0), (zone.x1, zone.y0), (zone.x1, zone.y1), (zone.x0, zone.y1)])
        pts = cv2.perspectiveTransform(box.reshape(-1, 1, 2).astype(np.float64), inverse).astype(np.int32)
        cv2.polylines(out, [pts], True, (0, 255, 255), 2, cv2.LINE_AA)
        cv2.putText(out, zone.name, tuple(int(v) for v in pts[0, 0] + 8), 0, 0.6, (0, 255, 255), 2)
    return out
