"""The firmware's protocol, filters and main loop run under a real MicroPython against the shared vectors."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.firmware.support import FIRMWARE, VECTORS, tool

HERE = Path(__file__).parent
CHECKS = (
    "crc16",
    "cobs",
    "frames",
    "invalid frames",
    "deframer resyncs after garbage",
    "signed24",
    "glitch values are the host's",
    "median3",
    "clock survives the ticks wrap",
    "boot sends INFO then a heartbeat",
    "samples are median filtered, timestamped and sequenced",
    "readings that waited in the FIFO keep their spacing",
    "a silent HX711 becomes a fault and recovers",
    "tilt edges are debounced and keep the first edge time",
    "host commands",
    "tare-raw averages the next n readings",
    "reset acknowledges first",
    "the status LED blinks slowly when well and fast on a fault",
    "frames the USB port refused are counted",
)


@pytest.fixture(scope="module")
def report() -> dict[str, str]:
    env = dict(os.environ, MICROPYPATH=f"{FIRMWARE}:{HERE}")
    result = subprocess.run(
        [str(tool("micropython")), str(HERE / "mp_checks.py"), str(VECTORS)],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )
    assert result.stderr == "", result.stderr
    lines = {}
    for line in result.stdout.splitlines():
        status, _, rest = line.partition(" ")
        name, _, why = rest.partition(":")
        lines[name] = f"{status}{':' + why if why else ''}"
    return lines


@pytest.mark.timeout(90)
@pytest.mark.parametrize("check", CHECKS)
def test_firmware_check_passes_under_micropython(report: dict[str, str], check: str) -> None:
    assert report.get(check) == "ok", report.get(check, "did not run")
