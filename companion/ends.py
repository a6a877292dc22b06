"""Where the table meets its hardware: how a configured serial port name becomes a device to open, and the
``[camera]`` settings a frame source.

The product knows only real devices (:data:`REAL`). The simulator plugs in here, at the ends, the way a user
plugs in a Pico or a camera: the ``companion`` command line hands its commands ends that also understand the
name ``sim`` (the firmware emulator on a pseudo-terminal, the rendered camera), so no product module imports it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol

from companion.devices.calibrate import Step
from companion.devices.settings import SIM_PORT
from companion.vision.settings import CameraSettings
from companion.vision.sources import FrameSource, open_camera


class NoEmulator(RuntimeError):
    """``sim`` named outside the simulator: the product never starts the emulator itself."""


class SerialPorts(Protocol):
    def __call__(self, port: str, *, pads: int = 6, demo: bool = False) -> AbstractContextManager[str]:
        """The device path for the configured port name, for as long as the ``with`` block lasts."""
        ...


class CameraOpener(Protocol):
    def __call__(self, settings: CameraSettings, deck: str | None = None) -> FrameSource:
        """The frame source the settings name (``deck``: the cards a source that draws them should show)."""
        ...


@contextlib.contextmanager
def device_path(port: str, *, pads: int = 6, demo: bool = False) -> Iterator[str]:
    """A real Pico's port is its device path (``pads`` and ``demo`` only mean something to an emulator)."""
    if port == SIM_PORT:
        raise NoEmulator('[serial] port = "sim" names the firmware emulator, which only the simulated table '
                         "starts: give the Pico's device path (/dev/tableside-pico)")
    yield port


def real_camera(settings: CameraSettings, deck: str | None = None) -> FrameSource:
    if settings.source == "sim":
        raise NoEmulator('[camera] source = "sim" names the rendered camera, which only the simulated table '
                         "starts: give the camera's index (0 for /dev/video0), a URL or a file")
    return open_camera(settings)


@dataclass(frozen=True)
class Ends:
    """The openers every command uses; ``calibration_helper`` puts the weights on an emulated pad for a person
    who cannot (None on a real table: the person at the table does it)."""

    serial_port: SerialPorts = device_path
    camera: CameraOpener = real_camera
    calibration_helper: Callable[[str], Callable[[Step], None] | None] = lambda _port: None


REAL = Ends()
