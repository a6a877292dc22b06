"""Vision sub-commands (``companion cards ...``, ``companion calibrate cards|camera``): see the vision issue."""

from __future__ import annotations

from typing import Any


def register(groups: Any) -> None:
    """Add the vision commands to the ``companion`` parser."""
