"""Helpers for the device tests: a listener that records, and waiting for the link to catch up."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from companion.devices import protocol as p
from companion.devices.link import SerialLink
from companion.sim.pico import SimulatedPico


@dataclass
class Collector:
    """A link listener that keeps everything it is given."""

    received: list[tuple[p.Message, int | None, float]] = field(default_factory=list)

    def __call__(self, message: p.Message, device_us: int | None, host_s: float) -> None:
        self.received.append((message, device_us, host_s))

    def of(self, kind: type[p.Message]) -> list[tuple[p.Message, int | None, float]]:
        return [r for r in self.received if isinstance(r[0], kind)]


def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.002)
    return condition()


def pump(pico: SimulatedPico, link: SerialLink, seconds: float) -> None:
    """Advance the emulator and wait until the link has read every frame it sent."""
    pico.advance(seconds)
    assert wait_until(lambda: link.health().last_seq == pico.last_seq), link.health()
