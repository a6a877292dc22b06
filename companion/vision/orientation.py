"""Which way a card lies: upright (its long side pointing at the player whose zone it is in) or turned sideways.

Capture the Illusionist's rested cards are "face-up and horizontal". The angle is measured on the mat, where a
zone knows which way its player faces (``Zone.axis``), so the camera's tilt and roll do not skew it; without a
mat it is measured in the frame against its drawn zone's upright direction (``zones.upright_axes``).
"""

from __future__ import annotations

import math

import numpy as np

from companion.table.observations import Orientation

SIDEWAYS_FROM = 45.0  # degrees between a card's long side and its zone's upright direction


def long_axis(corners: np.ndarray) -> float:
    """The direction (degrees, 0-180) of a quad's long sides: the mean of its two longer opposite sides."""
    c = np.asarray(corners, dtype=np.float64)
    down = (c[3] + c[2] - c[0] - c[1]) / 2  # the top-to-bottom sides
    across = (c[1] + c[2] - c[0] - c[3]) / 2  # the left-to-right sides
    dx, dy = down if np.hypot(*down) >= np.hypot(*across) else across
    return math.degrees(math.atan2(dy, dx)) % 180.0


def turn_from(axis: float, upright: float) -> float:
    """How far (degrees, 0-90) a long side at ``axis`` is turned from the ``upright`` direction."""
    d = abs(axis - upright) % 180.0
    return min(d, 180.0 - d)


def orientation_of(turn: float) -> Orientation:
    return Orientation.SIDEWAYS if turn >= SIDEWAYS_FROM else Orientation.UPRIGHT
