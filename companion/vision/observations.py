"""What the camera tells the table. The observation types themselves live in the table layer, which consumes
them (``companion.table.observations``); this module keeps the camera's own vocabulary."""

from __future__ import annotations

from dataclasses import dataclass

UNKNOWN = "unknown"


@dataclass(frozen=True)
class CameraStatus:
    """The camera's health, for the status page: ``ok`` False while it is unplugged or unreadable."""

    ok: bool
    message: str
