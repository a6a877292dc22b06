"""The simulator at the table's ends: the name ``sim`` opens the firmware emulator's port or the rendered camera;
any other name is handed to the real openers. The ``companion`` command line passes these to its commands."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

from companion.devices.calibrate import Step
from companion.devices.settings import SIM_PORT
from companion.ends import Ends, real_camera
from companion.sim.pico import SimulatedPico, arrange_for_calibration, serial_port
from companion.sim.scene_camera import SimCamera, flip_script
from companion.vision.settings import CameraSettings
from companion.vision.sources import FrameSource


def rendered_camera(settings: CameraSettings, deck: str | None = None) -> FrameSource:
    """``sim``: cards of ``deck`` (default ``[camera] deck``) turned face up on the mat, rendered at the asked
    picture size, as a camera would film them; any other source is the real one."""
    if settings.source != "sim":
        return real_camera(settings)
    scenes, _ = flip_script(deck or settings.deck, seed=0)
    size = (settings.width, settings.height)
    scenes = [replace(scene, frame=size) for scene in scenes]
    return FrameSource("sim", lambda: SimCamera(scenes, loop=True), live=True, retry_seconds=settings.retry_seconds,
                       mode=settings.mode)


def helper_for(port: str) -> Callable[[Step], None] | None:
    """An emulator that a command started for itself has nobody at its pads: a helper puts each weight on."""
    pico = SimulatedPico.current()
    if port != SIM_PORT or pico is None or not pico.unattended:
        return None
    return partial(arrange_for_calibration, pico)


SIMULATOR = Ends(serial_port=serial_port, camera=rendered_camera, calibration_helper=helper_for)
