"""Table zones drawn by hand for a table without the printed mat: ``calibration/zones.toml``.

Without the mat's markers the camera cannot work out where the seats are, so someone clicks each zone's corners
once on a picture from the camera (``companion calibrate zones``). The points are frame pixels, which only mean
something for that camera, where it stands and its resolution: the file records the frame size it was drawn on.
Everything that reads or writes zones goes through ``validate_zones``, so a zone the recogniser cannot use (too
few corners, off the picture, crossing itself) is refused with its name before anything depends on it.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from companion.games.toml_files import read_toml, write_toml

DEFAULT_ZONES_FILE = "calibration/zones.toml"
MAX_CORNERS = 100  # far more than anyone clicks; bounds the self-crossing check
REDRAW = "draw the zones with `companion calibrate zones`"


class ZonesError(ValueError):
    """Zones that cannot be used, naming the zone (and the file) and what to do about it."""


def validate_zones(
    zones: Mapping[str, Any], frame_size: tuple[int, int], names: Collection[str] | None = None
) -> dict[str, np.ndarray]:
    """Check zones (name -> flat ``[x1, y1, x2, y2, ...]`` pixels from TOML or JSON, or arrays of x, y rows) and
    return them as Nx2 float32 arrays. ``names``, if given, are the only names accepted (those the page offers)."""
    if not isinstance(zones, Mapping) or not zones:
        raise ZonesError("no zones drawn: a zone needs at least 3 corners")
    width, height = frame_size
    checked = {}
    for name, flat in zones.items():
        if not isinstance(name, str) or not name.strip() or not name.isprintable():
            raise ZonesError(f"zone name {name!r} must be printable text")
        if names is not None and name not in names:
            raise ZonesError(f"unknown zone {name!r}: the zones are {', '.join(names)}")
        where = f"zone {name!r}"
        numbers = flat.ravel().tolist() if isinstance(flat, np.ndarray) else flat
        if not isinstance(numbers, list | tuple) or not all(_is_number(v) for v in numbers):
            raise ZonesError(f"{where} must be a list of x, y numbers")
        if len(numbers) % 2:
            raise ZonesError(f"{where} has an odd count of numbers ({len(numbers)}): each corner is an x, y pair")
        if not 3 <= len(numbers) // 2 <= MAX_CORNERS:
            raise ZonesError(f"{where} has {len(numbers) // 2} corners; a zone needs 3 to {MAX_CORNERS}")
        points = np.array(numbers, np.float64).reshape(-1, 2)
        outside = [(x, y) for x, y in points if not (0 <= x <= width and 0 <= y <= height)]
        if outside:
            x, y = outside[0]
            raise ZonesError(f"{where} has a corner ({x:g}, {y:g}) outside the {width}x{height} picture")
        if _crosses_itself(points):
            raise ZonesError(f"{where} crosses itself: click the corners in order around the zone")
        if abs(_area(points)) < 1.0:
            raise ZonesError(f"{where} has no area: its corners lie on one line")
        checked[name] = points.astype(np.float32)
    return checked


def load_zones(path: str | Path) -> dict[str, np.ndarray]:
    """The zones in a file written by ``save_zones``, checked; any problem names the file and the zone."""
    return read_zones(path)[0]


def read_zones(path: str | Path) -> tuple[dict[str, np.ndarray], tuple[int, int]]:
    """``load_zones`` and the picture size (width, height) the zones were drawn on."""
    path = Path(path)
    try:
        raw = read_toml(path, ZonesError, "no such zones file (see [camera] zones_file)")
    except ZonesError as exc:
        raise ZonesError(f"{exc}; {REDRAW}") from None
    frame = raw.get("frame")
    if not (isinstance(frame, list) and len(frame) == 2 and all(type(v) is int and v > 0 for v in frame)):
        raise ZonesError(f"{path}: frame must be the picture's [width, height] in pixels; {REDRAW}")
    unknown = sorted(set(raw) - {"frame", "zones"})
    if unknown:
        raise ZonesError(f"{path}: unknown key {unknown[0]!r} (the file has only frame and [zones]); {REDRAW}")
    try:
        return validate_zones(raw.get("zones", {}), (frame[0], frame[1])), (frame[0], frame[1])
    except ZonesError as exc:
        raise ZonesError(f"{path}: {exc}; {REDRAW}") from None


def save_zones(path: str | Path, zones: Mapping[str, Any], frame_size: tuple[int, int]) -> None:
    """Check the zones, then write them atomically: a bad zone or a failed write leaves the old file intact."""
    checked = validate_zones(zones, frame_size)
    lines = [
        "# Table zones for a camera without the mat, written by `companion calibrate zones`.",
        "# Each zone is its corners as x, y pixels in a picture of size `frame`: draw them again if the camera",
        "# moves (another resolution of the same view is scaled). Used with [camera] mat = \"none\" and zones_file.",
        f"frame = [{int(frame_size[0])}, {int(frame_size[1])}]",
        "",
        "[zones]",
    ]
    for name, points in checked.items():
        numbers = ", ".join(f"{round(float(v), 1):g}" for v in points.ravel())
        lines.append(f"{toml_string(name)} = [{numbers}]")
    write_toml(path, "\n".join(lines) + "\n")


def fit_to_frame(
    zones: dict[str, np.ndarray], drawn_on: tuple[int, int], frame_size: tuple[int, int]
) -> dict[str, np.ndarray]:
    """Zones drawn on pictures of size ``drawn_on`` for the camera's pictures of ``frame_size``: scaled when only
    the resolution changed (the same view); a different shape is a different view, and is refused."""
    if frame_size == drawn_on:
        return zones
    (dw, dh), (w, h) = drawn_on, frame_size
    if abs(w / h - dw / dh) > 0.01 * dw / dh:
        raise ZonesError(
            f"the zones were drawn on {dw}x{dh} pictures but the camera now gives {w}x{h}, a different view; {REDRAW}"
        )
    scale = np.array([w / dw, h / dh], np.float32)
    return {name: points * scale for name, points in zones.items()}


def upright_axes(zones: Mapping[str, np.ndarray]) -> dict[str, float]:
    """Each drawn zone's upright direction in the picture (degrees, 0-180; x right, y down), as the mat's
    ``Zone.axis``: from the middle of the table towards the player whose zone it is. A player's zones are the ones
    named after their seat (``seat-2``, ``seat-2/front-1``...), and the player sits beyond their middle; the middle of
    the table is the ``centre`` zone's, else the middle of the seats'. A zone of no seat (the centre, a discard
    pile), or a seat in the middle itself (one player's zones drawn alone), keeps the picture's vertical."""
    def middle(points: list[np.ndarray]) -> np.ndarray:
        return np.mean([p.mean(axis=0) for p in points], axis=0)

    seats: dict[str, list[np.ndarray]] = {}
    for name, points in zones.items():
        if name.startswith("seat-"):
            seats.setdefault(name.split("/")[0], []).append(np.asarray(points, np.float64))
    if not seats:
        return dict.fromkeys(zones, 90.0)
    seat_middles = {seat: middle(points) for seat, points in seats.items()}
    table = (middle([np.asarray(zones["centre"], np.float64)]) if "centre" in zones
             else np.mean(list(seat_middles.values()), axis=0))
    axes = {}
    for name in zones:
        dx, dy = seat_middles[name.split("/")[0]] - table if name.startswith("seat-") else (0.0, 0.0)
        axes[name] = math.degrees(math.atan2(dy, dx)) % 180.0 if math.hypot(dx, dy) >= 1.0 else 90.0
    return axes


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string (quotes, backslashes and control characters escaped)."""
    escaped = {'"': '\\"', "\\": "\\\\"}
    return '"' + "".join(escaped.get(c) or (f"\\u{ord(c):04x}" if _is_control(c) else c) for c in text) + '"'


def _is_control(c: str) -> bool:
    return ord(c) < 0x20 or ord(c) == 0x7F


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _area(points: np.ndarray) -> float:
    """Signed area (shoelace)."""
    x, y = points[:, 0], points[:, 1]
    return float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2


def _crosses_itself(points: np.ndarray) -> bool:
    """Whether two edges that share no corner touch: a bow-tie the point-in-zone test would get wrong."""
    n = len(points)
    edges = [(points[i], points[(i + 1) % n]) for i in range(n)]
    for i in range(n):
        for j in range(i + 2, n):
            if i == 0 and j == n - 1:
                continue  # they share corner 0
            if _segments_touch(*edges[i], *edges[j]):
                return True
    return False


def _segments_touch(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> bool:
    def turn(p: np.ndarray, q: np.ndarray, r: np.ndarray) -> float:
        return float((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]))

    def within(p: np.ndarray, q: np.ndarray, r: np.ndarray) -> bool:  # r on the line pq: is it between them?
        return min(p[0], q[0]) <= r[0] <= max(p[0], q[0]) and min(p[1], q[1]) <= r[1] <= max(p[1], q[1])

    d1, d2, d3, d4 = turn(c, d, a), turn(c, d, b), turn(a, b, c), turn(a, b, d)
    if ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4)):
        return True
    return any(
        t == 0 and within(p, q, r) for t, p, q, r in ((d1, c, d, a), (d2, c, d, b), (d3, a, b, c), (d4, a, b, d))
    )
