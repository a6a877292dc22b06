"""Settings for the overhead camera (the ``[camera]`` section)."""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_FPS = 15.0  # the most frames recognised per second when the camera is left at its own rate ([camera] fps 0)


@dataclass(frozen=True)
class CameraMode:
    """What a camera is asked for; it may give something else (the nearest mode it has)."""

    width: int
    height: int
    fps: int  # 0: the camera's own rate

    def __str__(self) -> str:
        return f"{self.width}x{self.height}" + (f" at {self.fps} frames/s" if self.fps else "")


@dataclass(frozen=True)
class CameraSettings:
    """The frame source: ``sim`` (the synthetic camera), a camera index, a URL, a video file or a folder.

    Without a mat the zones are those of ``zones_file`` plus the inline ``zones``; an inline zone replaces a drawn
    one of the same name, so one zone can be corrected by hand without drawing them all again.
    """

    source: str | int = "sim"
    catalog: str = "calibration/cards"  # folder of catalogues, one sub-folder per deck
    deck: str = "corgi-pileup"  # the deck the simulated camera shows, and the default catalogue
    mat: str = "A3"  # the printed mat ("A3", "A2") or "none" to use ``zones_file`` and ``zones``
    card_mm: tuple[float, ...] = ()  # card width, height (mm); empty: the size calibration measured
    width: int = 1280  # the picture size asked of a camera (a camera index, or the simulated one); the budget
    height: int = 720  # for recognition grows with the pixels: docs/install.md, Performance
    fps: int = 15  # frames per second asked of a camera; 0: its own rate
    steady_frames: int = 3  # frames a face must be seen before it is reported
    forget_frames: int = 30  # frames a card may stay hidden (a hand over it) before it is forgotten
    min_confidence: float = 0.5
    retry_seconds: float = 2.0  # between attempts to reopen an unplugged camera
    zones_file: str = ""  # no mat: zones drawn with `companion calibrate zones` (relative to the config file)
    zones: dict[str, tuple[float, ...]] = field(default_factory=dict)  # no mat: name -> x1, y1, x2, y2, ... px

    def __post_init__(self) -> None:
        if self.width < 160 or self.height < 120 or self.fps < 0:
            raise ValueError("camera.width and camera.height must be at least 160 x 120, camera.fps 0 or more")
        if self.mat not in {"A3", "A2", "none"}:
            raise ValueError(f"camera.mat must be A3, A2 or none, not {self.mat!r}")
        if self.card_mm and (len(self.card_mm) != 2 or min(self.card_mm) <= 0):
            raise ValueError("camera.card_mm must be [width, height] in mm")
        for name, pts in self.zones.items():
            if len(pts) < 6 or len(pts) % 2:
                raise ValueError(f"camera.zones.{name} must list at least three x, y corner pairs")

    def __hash__(self) -> int:
        return hash((self.source, self.catalog, self.deck, self.mat))

    @property
    def mode(self) -> CameraMode:
        return CameraMode(self.width, self.height, self.fps)

    @property
    def frame_rate(self) -> float:
        """The frames recognised per second when the machine keeps up: the rate asked, else ``MAX_FPS``."""
        return float(self.fps or MAX_FPS)

    @property
    def card_size(self) -> tuple[float, float] | None:
        """``card_mm`` as (width, height), or None when the catalogue's measured size applies."""
        return (self.card_mm[0], self.card_mm[1]) if self.card_mm else None
