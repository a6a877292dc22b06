"""Vision sub-commands: ``companion cards recognize|watch`` and ``companion calibrate cards|camera|zones``."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.config import Config, why_unwritable
from companion.games.decks import DeckError
from companion.vision import camera_command
from companion.vision.calibrate import catalog_from_folder, guided_capture, resolve_deck
from companion.vision.catalog import POKER_MM, Catalog, CatalogError, load_catalog
from companion.vision.live import recognizer_for, tracker_for
from companion.vision.mat import GRID_GAMES, KENNEL_GAMES, LOOT_GAMES, mat_layout
from companion.vision.observations import UNKNOWN
from companion.vision.pictures import ImageRefused, read_image
from companion.vision.pipeline import CardFound, card_finder
from companion.vision.seats import table_zone_names
from companion.vision.zones import DEFAULT_ZONES_FILE, ZonesError, toml_string
from companion.vision.zones_page import ZonesDrawing, create_zones_app
from companion.web.server import serve


def register(groups: Any) -> None:
    """Add the vision commands to the ``companion`` parser."""
    cards = groups.root.add_parser("cards", help="recognise cards in pictures or from the camera")
    sub = cards.add_subparsers(dest="cards_command", required=True, metavar="ACTION")
    rec = sub.add_parser("recognize", help="print the cards in each image as JSON")
    rec.add_argument("--catalog", required=True, help="catalogue folder, or a deck name under [camera] catalog")
    rec.add_argument("images", nargs="+", metavar="IMAGE")
    rec.add_argument("--annotate", metavar="OUT", help="write the frame with outlines and labels (file or folder)")
    rec.set_defaults(run=recognize)
    watch = sub.add_parser("watch", help="print a CardSeen line each time a card comes to rest face up")
    watch.add_argument("--catalog", help="catalogue folder or deck name (default: [camera] deck)")
    watch.add_argument("--frames", type=int, help="stop after this many frames")
    watch.set_defaults(run=watch_cards)

    cal = groups.calibrate.add_parser("cards", help="build a card catalogue: one reference per distinct face")
    cal.add_argument("--deck", help="deck name or spec file (default: from the folder, else [camera] deck)")
    cal.add_argument("--from", dest="source", metavar="DIR", help="folder of face images named <face id>.png")
    cal.add_argument("--out", help="catalogue folder (default: [camera] catalog / deck name)")
    cal.add_argument("--preview", default="calibration-preview.png", help="guided capture: last crop written here")
    cal.set_defaults(run=calibrate_cards)
    camera_command.add_parser(groups.calibrate)
    zones = groups.calibrate.add_parser(
        "zones", help="no mat: draw the table zones once, in a browser, on a picture from the camera"
    )
    zones.add_argument("--image", metavar="FILE", help="draw on this picture (default: one from [camera] source)")
    zones.add_argument("--players", type=int, default=4, choices=range(2, 7), metavar="N",
                       help="seat zones for a table of N players, 2-6 (default 4), plus the centre")
    zones.add_argument("--game", choices=sorted(KENNEL_GAMES | LOOT_GAMES),
                       help="the zones of that game's mat (crazy-corgi: three Kennels per seat and a discard pile; "
                            "clash-of-corgis: each seat's loot pile and a discard pile)")
    zones.add_argument("--variant", choices=sorted({variant for _game, variant in GRID_GAMES}),
                       help="the zones of that variant's mat (with --game clash-of-corgis, capture: the two players' "
                            "grids, twelve places each, whatever --players says)")
    zones.add_argument("--out", metavar="FILE", help=f"default: [camera] zones_file, else {DEFAULT_ZONES_FILE}")
    zones.add_argument("--port", type=_port, help="the drawing page's port (default: [web] port; 0 picks one)")
    zones.set_defaults(run=calibrate_zones)


def _fail(message: str) -> int:
    print(f"companion: {message}", file=sys.stderr)
    return 1


def _port(text: str) -> int:
    port = int(text) if text.isdigit() else -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number 0-65535, not {text!r}")
    return port


def _catalog(name: str | None, config: Config) -> Catalog:
    settings = config.camera
    path = Path(name) if name else None
    if path is None or not path.exists():
        path = config.resolve(settings.catalog) / (name or settings.deck)
    return load_catalog(path)


def annotate(frame: np.ndarray, cards: list[CardFound]) -> np.ndarray:
    """The frame with each card outlined (green known, orange unknown) and labelled."""
    out = frame.copy()
    for card in cards:
        colour = (0, 200, 0) if card.face != "unknown" else (0, 140, 255)
        pts = card.corners.astype(np.int32)
        cv2.polylines(out, [pts], True, colour, 2, cv2.LINE_AA)
        cv2.circle(out, tuple(int(v) for v in pts[0]), 4, colour, -1)
        label = f"{card.face} {card.confidence:.2f} {card.zone}"
        x, y = (int(v) for v in card.centre)
        cv2.putText(out, label, (x - 40, y), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(out, label, (x - 40, y), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (255, 255, 255), 1, cv2.LINE_AA)
    return out


def recognize(args: argparse.Namespace, config: Config) -> int:
    try:
        recognizer = recognizer_for(_catalog(args.catalog, config), config.camera, config.resolve)
    except (CatalogError, DeckError, ZonesError) as exc:
        return _fail(str(exc))
    status = 0
    out = Path(args.annotate) if args.annotate else None
    many = len(args.images) > 1 or (out is not None and not out.suffix)
    for image in args.images:
        try:
            frame = read_image(image)
        except ImageRefused as refused:
            print(f"companion: {refused}", file=sys.stderr)
            status = 1
            continue
        result = recognizer.process(frame)
        mat = recognizer.locator is not None
        seen = {"image": image, "mat": ("registered" if result.registered else "not found") if mat else "none"}
        light = result.light.as_json() if result.light else {}
        print(json.dumps({**seen, "light": light, "cards": [c.as_json() for c in result.cards]}))
        for problem in light.get("problems", []):
            print(f"companion: {image}: {problem}", file=sys.stderr)
        if out is not None:
            target = out / f"{Path(image).stem}.png" if many else out
            written = write_image(target, annotate(frame, result.cards))
            if written is not None:
                return _fail(f"--annotate: cannot write {target}: {written}")
    return status


def write_image(target: Path, image: np.ndarray) -> str | None:
    """Write ``image`` (format from the name's suffix), making folders as needed; ``None``, or why it failed."""
    problem = why_unwritable(target)
    if problem:
        return problem
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        return None if cv2.imwrite(str(target), image) else "OpenCV could not write it"
    except OSError as exc:
        return exc.strerror or str(exc)
    except cv2.error:
        return f"no picture format is called {target.suffix or '(no suffix)'}; use .png or .jpg"


def watch_cards(args: argparse.Namespace, config: Config) -> int:
    settings = config.camera
    try:
        recognizer = recognizer_for(_catalog(args.catalog, config), settings, config.resolve)
    except (CatalogError, DeckError, ZonesError) as exc:
        return _fail(str(exc))
    source = args.ends.camera(settings, recognizer.catalog.deck.name)
    tracker = tracker_for(settings)
    last_status = None
    for count, frame in enumerate(source.frames(), 1):
        for seen in tracker.update(recognizer.process(frame).cards):
            print(json.dumps({"event": type(seen).__name__, **asdict(seen)}), flush=True)
        if source.status != last_status:
            last_status = source.status
            print(f"camera: {source.status.message}", file=sys.stderr)
        if args.frames and count >= args.frames:
            break
    if not source.status.ok:
        print(f"camera: {source.status.message}", file=sys.stderr)
    return 0


def _progress(done: int, total: int, face: str) -> None:
    width = 30
    bar = "#" * (width * done // total) + "-" * (width - width * done // total)
    print(f"\r[{bar}] {done}/{total} {face:<24}", end="" if done < total else "\n", file=sys.stderr, flush=True)


def calibrate_cards(args: argparse.Namespace, config: Config) -> int:
    settings = config.camera
    folder = Path(args.source) if args.source else None
    try:
        deck, spec = resolve_deck(args.deck or (None if folder else settings.deck), folder)
        if folder is not None:
            catalog = catalog_from_folder(deck, folder, _progress, settings.card_size)
        else:
            source = args.ends.camera(settings, deck.name)
            print(f"Show each face alone under the camera; the crop is written to {args.preview}", file=sys.stderr)
            layout = None if settings.mat == "none" else mat_layout(settings.mat)
            size = settings.card_size or POKER_MM
            find = card_finder(layout, size)
            frames = source.frames(max_failures=3)
            catalog = guided_capture(deck, frames, Path(args.preview), progress=_progress, find=find, card_mm=size)
    except (CatalogError, DeckError) as exc:
        return _fail(str(exc))
    out = Path(args.out) if args.out else config.resolve(settings.catalog) / deck.name
    catalog.save(out, spec)
    sheet = out / "contact-sheet.png"
    cv2.imwrite(str(sheet), catalog.contact_sheet())
    if settings.card_size:
        how = "[camera] card_mm"
    else:
        how = "measured from the pictures" if folder is not None else "poker size: set [camera] card_mm if not"
    _summary(catalog, out.resolve(), sheet.resolve(), how)
    return 0


def _summary(catalog: Catalog, out: Path, sheet: Path, how: str) -> None:
    """What calibration learnt, and what to look at: the faces, the size, the closest faces, any confusions."""
    width, height = catalog.card_mm
    print(f"catalogue of {len(catalog)} faces for {catalog.deck.name} written to {out}")
    print(f"  card size {width:g} x {height:g} mm ({how})")
    pairs = ", ".join(f"{a} / {b}" for a, b, _ in catalog.closest_pairs())
    if pairs:
        print(f"  closest faces: {pairs}")
    print(f"  every face learnt, to look over: {sheet}")
    for face, other in catalog.confusions():
        told = "not named with confidence" if other == UNKNOWN else f"taken for {other}"
        print(f"warning: {face} is {told} even from its own picture; retake it, or the camera will ask about it")


def calibrate_zones(args: argparse.Namespace, config: Config) -> int:
    """Serve the drawing page until zones are saved (exit 0) or Ctrl-C (exit 1, nothing written)."""
    settings = config.camera
    if args.variant is not None and (args.game, args.variant) not in GRID_GAMES:
        games = ", ".join(f"--game {game} --variant {variant}" for game, variant in sorted(GRID_GAMES))
        return _fail(f"--variant {args.variant} has no zones of its own for --game {args.game}: use {games}")
    if args.image:
        try:
            frame = read_image(args.image)
        except ImageRefused as refused:
            return _fail(str(refused))
    else:
        source = args.ends.camera(settings)
        frame = next(source.frames(max_failures=2), None)
        source.close()
        if frame is None:
            return _fail(f"no picture from the camera: {source.status.message}")
    out = Path(args.out) if args.out else config.resolve(settings.zones_file or DEFAULT_ZONES_FILE)
    drawing = ZonesDrawing(frame, table_zone_names(args.players, args.game, args.variant), out)
    host, port = config.web.host, (config.web.port if args.port is None else args.port)
    try:
        server = serve(create_zones_app(drawing), host, port)
    except OSError as exc:
        return _fail(f"cannot listen on {host}:{port} ({exc.strerror}): is the status page running? Try --port")
    try:
        players = 2 if (args.game, args.variant) in GRID_GAMES else args.players
        print(f"Zones for {players} players: {', '.join(drawing.names)}. Open in a browser and click each "
              "zone's corners:")
        for url in server.urls:
            print(f"  {url}{drawing.token}/")
        print("Ctrl-C stops without writing anything.", flush=True)
        while not drawing.done.wait(0.5):  # a timed wait: Ctrl-C is seen even while blocked here
            pass
    except KeyboardInterrupt:
        if not drawing.done.is_set():  # not if the zones were saved in the same instant
            print("\nstopped: no zones written", file=sys.stderr)
            return 1
    finally:
        server.stop()
    _report_zones(drawing, config)
    return 0


def _report_zones(drawing: ZonesDrawing, config: Config) -> None:
    """What was written, and the lines that make the config use it."""
    saved = drawing.saved or {}
    width, height = drawing.frame_size
    print(f"zones {', '.join(saved)} written to {drawing.out} (for {width}x{height} pictures)")
    missing = [name for name in drawing.names if name not in saved]
    if missing:
        print(f"not drawn: {', '.join(missing)} (a card there is in zone 'table')")
    folder = (config.path.parent if config.path else Path.cwd()).resolve()
    target = drawing.out.resolve()
    shown = target.relative_to(folder) if target.is_relative_to(folder) else target
    print(f"In the config's [camera] section ({config.path or 'the config file'}):")
    print('  mat = "none"')
    print(f"  zones_file = {toml_string(shown.as_posix())}")
