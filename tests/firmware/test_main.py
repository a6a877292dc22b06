"""firmware/main.py boots the real app under the unix MicroPython, on a scripted board standing in for hw.py."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.firmware.support import FIRMWARE, tool

HERE = Path(__file__).parent

FAKE_HW = """
import sys
import protocol
from fakeboard import FakeBoard


class Board(FakeBoard):
    loops = 0

    def idle(self):
        Board.loops += 1
        self.advance(1000)
        if Board.loops % 12 == 0:
            self.conversion(0, 4242)
        if Board.loops == 100:
            kinds = [protocol.parse(w[:-1])[0] for w in self.out]
            print(kinds[0], kinds.count(protocol.SAMPLE), self.fed)
            sys.exit(0)
"""


@pytest.mark.timeout(60)
def test_main_boots_the_firmware_and_streams(tmp_path: Path) -> None:
    (tmp_path / "hw.py").write_text(FAKE_HW)
    main = tmp_path / "main.py"  # run from beside the fake hw.py: a script's own folder comes first on the path
    main.write_text((FIRMWARE / "main.py").read_text())
    env = dict(os.environ, MICROPYPATH=f"{FIRMWARE}:{HERE}")
    result = subprocess.run([str(tool("micropython")), str(main)], capture_output=True, text=True,
                            env=env, timeout=30, check=False)
    assert result.returncode == 0, result.stderr
    info, samples, fed = map(int, result.stdout.split())
    assert info == 0x05  # INFO announces the boot
    assert samples >= 8 and fed >= 99  # samples streamed, watchdog fed every loop
