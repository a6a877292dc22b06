"""Every firmware file compiles with mpy-cross: syntax and the MicroPython subset, as the Pico will see them."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.firmware.support import FIRMWARE, tool

SOURCES = sorted(FIRMWARE.glob("*.py"))


def test_the_firmware_has_its_modules() -> None:
    assert {p.name for p in SOURCES} >= {"main.py", "app.py", "hw.py", "protocol.py", "filters.py", "hx711_pio.py"}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_compiles_with_mpy_cross(source: Path, tmp_path: Path) -> None:
    out = tmp_path / source.with_suffix(".mpy").name
    result = subprocess.run(
        [str(tool("mpy-cross")), "-o", str(out), str(source)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert out.stat().st_size > 0
