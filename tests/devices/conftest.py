"""Fixtures for the device tests: an emulated Pico on a real pty and the real serial link reading it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.devices.link import SerialLink
from companion.sim.pico import SimulatedPico
from tests.devices.support import Collector
from tests.waiting import PATIENCE


@pytest.fixture
def pico() -> Iterator[SimulatedPico]:
    with SimulatedPico(pads=6, seed=7) as emulator:
        yield emulator


@pytest.fixture
def link(pico: SimulatedPico) -> Iterator[SerialLink]:
    with SerialLink(pico.port, backoff_s=(0.01, 0.05)) as serial_link:
        assert serial_link.wait_connected(PATIENCE)
        yield serial_link


@pytest.fixture
def collector(link: SerialLink) -> Collector:
    c = Collector()
    link.add_listener(c)
    return c
