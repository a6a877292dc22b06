"""Settings for the overhead camera (the ``[camera]`` section)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CameraSettings:
    """The frame source: ``sim`` (the synthetic camera), a camera index, a URL, a video file or a folder."""

    source: str | int = "sim"
    catalog: str = "calibration/cards"
