"""One object for everything at the table except the camera: the pads (through the Pico link), the seat
buttons and the feedback devices, built from the ``[serial]`` and ``[buttons]`` settings.

The table session subscribes with two callbacks and reads :meth:`DeviceHub.status` for the status page.
Callbacks run on the serial reader thread or gpiozero's thread: hand the event to the session's queue there.
Usage, with the emulator or a real Pico alike::

    with serial_port(config.serial.port) as path, DeviceHub(path, config.serial, config.buttons, profile,
                                                            on_pile=..., on_press=...) as devices:
        devices.pads.tare()          # at match start
        devices.feedback.light(0)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gpiozero import Factory

from companion.devices.buttons import Edge, Feedback, Press, SeatButtons
from companion.devices.calibration import CalibrationProfile
from companion.devices.link import LinkHealth, SerialLink
from companion.devices.pads import EventHandler, PadMonitor, PadView, ReadingHandler
from companion.devices.settings import ButtonSettings, SerialSettings


@dataclass(frozen=True)
class DevicesStatus:
    """What the status page shows about the hardware."""

    link: LinkHealth
    pads: list[PadView]
    seats: int
    recent_presses: list[Press]


class DeviceHub:
    def __init__(
        self,
        path: str,
        serial: SerialSettings,
        buttons: ButtonSettings,
        profile: CalibrationProfile,
        *,
        on_pile: EventHandler | None = None,
        on_reading: ReadingHandler | None = None,
        on_press: Callable[[Press], None] | None = None,
        on_edge: Callable[[Edge], None] | None = None,
        pin_factory: Factory | None = None,
    ) -> None:
        self.link = SerialLink(path, serial.baudrate)
        self.pads = PadMonitor(self.link, profile, on_pile, on_reading=on_reading)
        self.buttons = SeatButtons(buttons, on_press, on_edge=on_edge, factory=pin_factory)
        self.feedback = Feedback(buttons, factory=self.buttons.factory)

    def start(self) -> DeviceHub:
        self.link.start()
        return self

    def close(self) -> None:
        self.pads.close()
        self.link.close()
        self.feedback.close()
        self.buttons.close()

    def __enter__(self) -> DeviceHub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def status(self) -> DevicesStatus:
        """A snapshot for the status page; call :meth:`PadMonitor.poll` through it so a lost link shows."""
        self.pads.poll()
        return DevicesStatus(self.link.health(), self.pads.snapshot(), len(self.buttons.buttons),
                             list(self.buttons.presses)[-10:])
