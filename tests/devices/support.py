"""Helpers for the device tests: a listener that records, and waiting for the link to catch up."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.devices import protocol as p
from companion.devices.link import SerialLink
from companion.sim.pico import SimulatedPico
from tests.waiting import wait_until


@dataclass
class Collector:
    """A link listener that keeps everything it is given."""

    received: list[tuple[p.Message, int | None, float]] = field(default_factory=list)

    def __call__(self, message: p.Message, device_us: int | None, host_s: float) -> None:
        self.received.append((message, device_us, host_s))

    def of(self, kind: type[p.Message]) -> list[tuple[p.Message, int | None, float]]:
        return [r for r in self.received if isinstance(r[0], kind)]


def pump(pico: SimulatedPico, link: SerialLink, seconds: float) -> None:
    """Advance the emulator and wait until the link has read every frame it sent."""
    pico.advance(seconds)
    assert wait_until(lambda: link.health().last_seq == pico.last_seq), link.health()
