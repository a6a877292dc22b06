"""Paths and tools shared by the firmware checks."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
VECTORS = ROOT / "tests" / "vectors" / "protocol.json"
BIN = ROOT / ".venv" / "bin"


def tool(name: str) -> Path:
    """A tool from the project's virtualenv; the test is skipped, with the reason, if it is not installed."""
    path = BIN / name
    if not path.exists():
        pytest.skip(f"{path} is missing: run `make test` once to install the dev tools")
    return path
