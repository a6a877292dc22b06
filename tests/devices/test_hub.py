"""The device hub wires pads, buttons and feedback from settings, against the emulator and MockFactory."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion.devices.buttons import Press
from companion.devices.calibration import CalibrationProfile
from companion.devices.hub import DeviceHub
from companion.devices.pile import PileEvent
from companion.devices.settings import ButtonSettings, SerialSettings
from companion.sim.pico import SimulatedPico, serial_port
from companion.table.observations import PadReading, PileState
from tests.devices.support import pump
from tests.waiting import PATIENCE

PROFILE = CalibrationProfile.load(Path(__file__).parents[2] / "calibration" / "pads.toml")


@pytest.mark.timeout(30)
def test_hub_reports_piles_presses_and_status() -> None:
    factory = MockFactory()
    piles: list[PileEvent] = []
    presses: list[Press] = []
    readings: list[PadReading] = []
    try:
        with SimulatedPico(pads=6, seed=4) as pico, serial_port("sim") as path:
            assert path == pico.port  # `sim` selects the running emulator
            with DeviceHub(path, SerialSettings(), ButtonSettings(), PROFILE, on_pile=lambda e, _h: piles.append(e),
                           on_reading=readings.append, on_press=presses.append, pin_factory=factory) as hub:
                assert hub.link.wait_connected(PATIENCE)
                pico.pads[2].place(2)
                pump(pico, hub.link, 1.5)
                factory.pin(ButtonSettings().seat_buttons[2]).drive_low()
                hub.feedback.light(2)
                assert factory.pin(ButtonSettings().seat_leds[2]).state
                status = hub.status()
                factory.pin(ButtonSettings().seat_buttons[2]).drive_high()
        assert [e.label for e in piles if e.pad == 2][-1] == "stable(2)"
        assert [p.seat for p in presses] == [2]
        assert status.link.connected and status.seats == 6 and status.recent_presses == presses
        assert status.pads[2].label == "stable(2)" and status.pads[0].label == "empty"
        # Every sample of every pad reaches the judge's feed, in host time order.
        assert {r.seat for r in readings} == set(range(6))
        pad2 = [r for r in readings if r.seat == 2 and isinstance(r, PadReading)]  # not its vibration edges
        assert len(pad2) > 60 and (pad2[-1].state, pad2[-1].count) == (PileState.STABLE, 2)
        assert all(a.t <= b.t for a, b in pairwise(readings))
    finally:
        factory.reset()
