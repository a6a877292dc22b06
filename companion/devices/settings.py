"""Settings for the Pico serial link and the GPIO buttons (the ``[serial]`` and ``[buttons]`` sections)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SerialSettings:
    """Where the Pico is: a device path such as ``/dev/ttyACM0``, or ``sim`` for the firmware emulator."""

    port: str = "sim"
    baudrate: int = 115200
    calibration: str = "calibration/pads.toml"


@dataclass(frozen=True)
class ButtonSettings:
    """The GPIO pin factory (``mock`` off the Pi, ``lgpio`` on it) and the pins of each seat."""

    pin_factory: str = "mock"
    seat_buttons: tuple[int, ...] = ()
    seat_leds: tuple[int, ...] = ()
    buzzer: int | None = None
