"""PadMonitor.poll: a Pico that just connected (no frame yet) is not a lost link."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from companion.devices.calibration import CalibrationProfile
from companion.devices.pads import PadMonitor

PROFILE = CalibrationProfile.load(Path(__file__).parents[2] / "calibration" / "pads.toml")


class LinkHealthOnly:
    """Just the part of SerialLink that poll() reads, in the moment between connecting and the first frame."""

    def __init__(self, connected: bool, age: float | None) -> None:
        self.state = SimpleNamespace(connected=connected, last_frame_age_s=age)

    def add_listener(self, listener: object) -> None:
        pass

    def health(self) -> SimpleNamespace:
        return self.state


def test_no_frame_yet_is_not_a_fault_but_silence_is() -> None:
    events = []
    link = LinkHealthOnly(connected=True, age=None)
    monitor = PadMonitor(link, PROFILE, lambda event, _t: events.append(event))  # type: ignore[arg-type]
    monitor.poll()
    assert events == []
    for estimator in monitor.estimators:  # tared: the pads are trusted from here on
        estimator.set_zero(estimator.cal.offset_counts)
    link.state.last_frame_age_s = 3.0
    monitor.poll()
    assert {e.detail for e in events} == {"no frames for 3.0 s"}
