"""Table sub-commands (``demo``, ``games``, ``replay``, ``log``)."""

from __future__ import annotations

from typing import Any


def register(groups: Any) -> None:
    """Add the table commands to the ``companion`` parser."""
