"""Settings for the Pico serial link and the GPIO buttons (the ``[serial]`` and ``[buttons]`` sections).

The default pins are those of ``hardware/pinmap.toml`` (a test keeps them equal).
"""

from __future__ import annotations

from dataclasses import dataclass

PIN_FACTORIES = ("mock", "lgpio", "rpigpio", "native")
SIM_PORT = "sim"  # the port name of the firmware emulator, which only the simulator can start


@dataclass(frozen=True)
class SerialSettings:
    """Where the Pico is: a device path such as ``/dev/ttyACM0``, or ``sim`` for the firmware emulator."""

    port: str = SIM_PORT
    baudrate: int = 115200
    calibration: str = "calibration/pads.toml"
    tare_samples: int = 16

    def __post_init__(self) -> None:
        if not self.port:
            raise ValueError("port: give a device such as /dev/ttyACM0, or 'sim' for the emulated Pico")
        if not 1 <= self.tare_samples <= 255:
            raise ValueError(f"tare_samples: 1 to 255 readings, not {self.tare_samples}")


@dataclass(frozen=True)
class ButtonSettings:
    """The GPIO pin factory (``mock`` off the Pi, ``lgpio`` on it) and the pins of each seat (BCM numbers)."""

    pin_factory: str = "mock"
    seat_buttons: tuple[int, ...] = (5, 6, 13, 19, 26, 21)
    seat_leds: tuple[int, ...] = (12, 16, 20, 23, 24, 25)
    buzzer: int | None = 18
    debounce_ms: float = 20.0

    def __post_init__(self) -> None:
        if self.pin_factory not in PIN_FACTORIES:
            raise ValueError(f"pin_factory: one of {', '.join(PIN_FACTORIES)}, not {self.pin_factory!r}")
        if self.seat_leds and len(self.seat_leds) != len(self.seat_buttons):
            raise ValueError(f"seat_leds: one LED per seat button ({len(self.seat_buttons)}), "
                             f"got {len(self.seat_leds)}")
        pins = [*self.seat_buttons, *self.seat_leds, *([] if self.buzzer is None else [self.buzzer])]
        taken = sorted({p for p in pins if pins.count(p) > 1})
        if taken:
            raise ValueError(f"GPIO {', '.join(map(str, taken))} used twice: every button, LED and buzzer "
                             "needs its own pin")
        if any(not 0 <= p <= 27 for p in pins):
            raise ValueError("pins are BCM GPIO numbers 0-27")
        if not 0 <= self.debounce_ms <= 500:
            raise ValueError(f"debounce_ms: 0 to 500, not {self.debounce_ms}")
