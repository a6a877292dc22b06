"""Device sub-commands (``companion pads``, ``companion calibrate pads``): see the sensors issue."""

from __future__ import annotations

from typing import Any


def register(groups: Any) -> None:
    """Add the device commands to the ``companion`` parser."""
