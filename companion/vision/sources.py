"""Frame sources: a camera (index or URL), a video file or a folder of images (the simulator brings its own).

A camera that is unplugged or not there yet is reported through ``status`` and retried every
``retry_seconds``; reading never raises, so the referee keeps running without its eyes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from companion.vision.calibrate import IMAGE_SUFFIXES
from companion.vision.observations import CameraStatus
from companion.vision.settings import CameraMode, CameraSettings


class Capture(Protocol):
    def isOpened(self) -> bool: ...
    def read(self) -> tuple[bool, np.ndarray | None]: ...
    def release(self) -> None: ...


class FrameSource:
    """Frames from anything ``cv2.VideoCapture``-like, reopened after failures when ``live``."""

    def __init__(
        self,
        name: str,
        opener: Callable[[], Capture],
        live: bool,
        retry_seconds: float = 2.0,
        sleep: Callable[[float], None] = time.sleep,
        mode: CameraMode | None = None,
    ) -> None:
        """``mode``: what the camera was asked for, when it can be asked (files and streams come as they are)."""
        self.name = name
        self.mode = mode
        self._opener = opener
        self.live = live
        self.retry_seconds = retry_seconds
        self._sleep = sleep
        self._cap: Capture | None = None
        self.status = CameraStatus(False, f"{name}: not opened yet")

    def read(self) -> np.ndarray | None:
        """The next frame, or None (the status says why: unplugged, or the end of a file)."""
        if self._cap is None or not self._cap.isOpened():
            self._cap = self._opener()
            if not self._cap.isOpened():
                self.status = CameraStatus(False, f"{self.name}: cannot open (unplugged or wrong source?)")
                return None
        ok, frame = self._cap.read()
        if not ok or frame is None:
            self._cap.release()
            self._cap = None
            reason = "stopped delivering frames (unplugged?)" if self.live else "end of input"
            self.status = CameraStatus(False, f"{self.name}: {reason}")
            return None
        self.status = CameraStatus(True, f"{self.name}: ok")
        return frame

    def frames(self, max_failures: int | None = None) -> Iterator[np.ndarray]:
        """Frames until a file ends; for a live camera, retry forever (or ``max_failures`` times)."""
        failures = 0
        while True:
            frame = self.read()
            if frame is not None:
                failures = 0
                yield frame
                continue
            if not self.live:
                return
            failures += 1
            if max_failures is not None and failures > max_failures:
                return
            self._sleep(self.retry_seconds)

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class _Folder:
    """A folder of images as a capture, in name order."""

    def __init__(self, folder: Path) -> None:
        self.files = [p for p in sorted(folder.iterdir()) if p.suffix.lower() in IMAGE_SUFFIXES]
        self.index = 0

    def isOpened(self) -> bool:
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        while self.index < len(self.files):
            img = cv2.imread(str(self.files[self.index]), cv2.IMREAD_COLOR)
            self.index += 1
            if img is not None:
                return True, img
        return False, None

    def release(self) -> None:
        self.index = len(self.files)


def open_source(source: str | int, retry_seconds: float = 2.0, mode: CameraMode | None = None) -> FrameSource:
    """A camera index (asked for ``mode``), a URL (rtsp://, http://), a video file or a folder of images."""
    if isinstance(source, int) or source.isdigit():
        index = int(source)

        def open_camera() -> Capture:
            cap = cv2.VideoCapture(index)
            cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not one queued while the last was recognised
            if mode is not None:
                cap.set(cv2.CAP_PROP_FRAME_WIDTH, mode.width)
                cap.set(cv2.CAP_PROP_FRAME_HEIGHT, mode.height)
                if mode.fps:
                    cap.set(cv2.CAP_PROP_FPS, mode.fps)
            return cap

        return FrameSource(f"camera {index}", open_camera, live=True, retry_seconds=retry_seconds, mode=mode)
    if "://" in source:
        return FrameSource(source, lambda: cv2.VideoCapture(source), live=True, retry_seconds=retry_seconds)
    path = Path(source)
    if path.is_dir():
        return FrameSource(str(path), lambda: _Folder(path), live=False)
    return FrameSource(str(path), lambda: cv2.VideoCapture(str(path)), live=False)


def open_camera(settings: CameraSettings) -> FrameSource:
    """The source ``[camera]`` names, a camera asked for its ``width``, ``height`` and ``fps``."""
    return open_source(settings.source, settings.retry_seconds, settings.mode)
