"""Seat buttons and feedback (LEDs, buzzer) on the Pi's GPIO, through gpiozero.

Debounce is ours, not gpiozero's ``bounce_time``: mock pins ignore that, and a press must be stamped at its
first edge, not when the bouncing stops. Every press carries ``time.monotonic_ns()`` from the edge callback,
so two players a fraction of a millisecond apart are still told apart in the right order.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from gpiozero import LED, Button, Buzzer, Factory
from gpiozero.exc import GPIOZeroError

from companion.devices.settings import ButtonSettings


class GpioUnavailable(RuntimeError):
    """The configured pin factory cannot drive pins on this machine, with what to do about it."""


def make_pin_factory(name: str) -> Factory:
    """The gpiozero pin factory called ``name`` (``mock`` works anywhere; the others need a Pi)."""
    try:
        if name == "mock":
            from gpiozero.pins.mock import MockFactory

            return MockFactory()
        if name == "lgpio":
            from gpiozero.pins.lgpio import LGPIOFactory

            return LGPIOFactory()
        if name == "rpigpio":
            from gpiozero.pins.rpigpio import RPiGPIOFactory

            return RPiGPIOFactory()
        if name == "native":
            from gpiozero.pins.native import NativeFactory

            return NativeFactory()
    except (ImportError, RuntimeError, OSError, GPIOZeroError) as exc:
        raise GpioUnavailable(f"GPIO pin factory '{name}' is not usable here ({exc}); on a machine that is not "
                              "a Raspberry Pi set [buttons] pin_factory = \"mock\"") from None
    raise GpioUnavailable(f"unknown GPIO pin factory '{name}'")


@dataclass(frozen=True, slots=True)
class Press:
    """A seat's button went down at ``t_ns`` (``time.monotonic_ns()``)."""

    seat: int
    t_ns: int


@dataclass(frozen=True, slots=True)
class Edge:
    """An edge as gpiozero reported it, before the debounce: ``taken`` if it made a press or a release."""

    seat: int
    down: bool
    t_ns: int
    taken: bool


@dataclass
class _Seat:
    pressed: bool = False
    last_ns: int | None = None  # the last edge we accepted


class SeatButtons:
    """One arcade button per seat; calls ``on_press`` with each debounced :class:`Press`."""

    def __init__(
        self,
        settings: ButtonSettings,
        on_press: Callable[[Press], None] | None = None,
        *,
        on_edge: Callable[[Edge], None] | None = None,
        factory: Factory | None = None,
        clock: Callable[[], int] = time.monotonic_ns,
        history: int = 256,
    ) -> None:
        self.factory = factory or make_pin_factory(settings.pin_factory)
        self._clock = clock
        self._debounce_ns = int(settings.debounce_ms * 1_000_000)
        self._on_press = on_press
        self._on_edge = on_edge  # every edge, chatter included: evidence for a race's trace
        self._lock = threading.Lock()
        self._seats = [_Seat() for _ in settings.seat_buttons]
        self.presses: deque[Press] = deque(maxlen=history)
        self.buttons = [Button(pin, pull_up=True, bounce_time=None, pin_factory=self.factory)
                        for pin in settings.seat_buttons]
        for seat, button in enumerate(self.buttons):
            button.when_pressed = partial(self._edge, seat, True)
            button.when_released = partial(self._edge, seat, False)

    def _edge(self, seat: int, down: bool) -> None:
        """An edge is taken only if the seat's last accepted edge is older than the debounce time: the
        contacts' chatter after a press or release is ignored, and the press keeps its first edge's time."""
        now = self._clock()
        taken, press = self._debounce(seat, down, now)
        if self._on_edge is not None:
            self._on_edge(Edge(seat, down, now, taken))
        if press is not None and self._on_press is not None:
            self._on_press(press)

    def _debounce(self, seat: int, down: bool, now: int) -> tuple[bool, Press | None]:
        """Whether the debounce takes the edge, and the press it makes (a release makes none)."""
        state = self._seats[seat]
        with self._lock:
            if state.last_ns is not None and now - state.last_ns < self._debounce_ns:
                return False, None
            if not down:
                if not state.pressed:
                    return False, None
                state.pressed, state.last_ns = False, now
                return True, None
            state.pressed, state.last_ns = True, now
            press = Press(seat, now)
            self.presses.append(press)
            return True, press

    def close(self) -> None:
        for button in self.buttons:
            button.close()


class Feedback:
    """Seat LEDs and the buzzer: who may shout, who won, and a beep for the referee's verdicts."""

    def __init__(self, settings: ButtonSettings, *, factory: Factory | None = None) -> None:
        self.factory = factory or make_pin_factory(settings.pin_factory)
        self.leds = [LED(pin, pin_factory=self.factory) for pin in settings.seat_leds]
        self.buzzer = None if settings.buzzer is None else Buzzer(settings.buzzer, pin_factory=self.factory)

    def light(self, seat: int, on: bool = True) -> None:
        if seat < len(self.leds):
            (self.leds[seat].on if on else self.leds[seat].off)()

    def blink(self, seat: int, times: int = 3, on_s: float = 0.15, off_s: float = 0.15) -> None:
        """Blink in the background (gpiozero's own thread), e.g. for the winner of a match."""
        if seat < len(self.leds):
            self.leds[seat].blink(on_time=on_s, off_time=off_s, n=times, background=True)

    def beep(self, seconds: float = 0.2, times: int = 1) -> None:
        if self.buzzer is not None:
            self.buzzer.blink(on_time=seconds, off_time=seconds, n=times, background=True)

    def all_off(self) -> None:
        for led in self.leds:
            led.off()
        if self.buzzer is not None:
            self.buzzer.off()

    def close(self) -> None:
        for device in [*self.leds, *([self.buzzer] if self.buzzer else [])]:
            device.close()
