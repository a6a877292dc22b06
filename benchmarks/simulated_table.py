"""What the benchmarks share: a config for a simulated table in a scratch folder, and a whole demo game run as a
process and measured (wall time to a winner, CPU, peak RSS). Imported by the bench scripts; not a benchmark."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def config_file(folder: Path, extra: str = "", name: str = "companion.toml") -> Path:
    """A config for the simulated table (silent, the repository's pad calibration) plus ``extra`` TOML."""
    path = folder / name
    calibration = ROOT / "calibration" / "pads.toml"
    path.write_text(f'[table]\ndatabase = "t.sqlite3"\nvoice = ""\n[serial]\ncalibration = "{calibration}"\n{extra}',
                    encoding="utf-8")
    return path


def bench_demo(folder: Path, game: str, players: int = 3, variant: str = "standard", extra: tuple[str, ...] = ()
               ) -> None:
    """``companion demo --game GAME`` (and ``extra`` options) to a winner with the status page on: wall time, CPU %
    and peak RSS."""
    config = config_file(folder, '[web]\nport = 0\nsecret_key_file = "key"\n', name="demo.toml")
    started = time.monotonic()
    argv = [sys.executable, "-m", "companion", "-c", str(config), "demo", "--game", game, "--seed", "2", "--players",
            str(players), "--variant", variant, *extra, "--then", "exit"]
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as demo:
        assert demo.stdout is not None
        peak = PeakMemory(demo.pid)
        peak.start()
        printed = demo.stdout.read()
        # This child's own usage: RUSAGE_CHILDREN would also count any process the benchmark's own in-process
        # tables spawned, whose peak RSS is the (large) benchmark's at the fork.
        _pid, status, usage = os.wait4(demo.pid, 0)
        demo.returncode = os.waitstatus_to_exitcode(status)
        peak.join()
    wall = time.monotonic() - started
    winner = next(line for line in printed.splitlines() if line.startswith("Winner:"))
    print(f"simulated {game} table, {players} bots, status page on: {wall:.0f} s to a winner ({winner}); "
          f"CPU {100 * (usage.ru_utime + usage.ru_stime) / wall:.0f}% of one core; "
          f"peak RSS {peak.mb:.0f} MB (target <= 250 MB)")


class PeakMemory(threading.Thread):
    """The peak resident memory of the program process ``pid`` runs (Linux's VmHWM), read until it exits.

    Not ``wait4``'s ru_maxrss: Python starts a child by vfork, and Linux carries the parent's peak into the child's
    ru_maxrss at the exec, so after a benchmark's own games that figure is the benchmark's peak, not the table's
    (293 MB was once quoted so for a Corgi Pileup table that peaks at about 180 MB). VmHWM belongs to the memory of
    the program the child became; it only grows, so its last reading before the exit is the peak.
    """

    def __init__(self, pid: int, every_s: float = 0.05) -> None:
        super().__init__(daemon=True)
        self.status = Path(f"/proc/{pid}/status")
        self.every_s = every_s
        self.mb = 0.0

    def run(self) -> None:
        while True:
            try:
                fields = dict(line.split(":", 1) for line in self.status.read_text().splitlines())
            except OSError:  # gone
                return
            if "VmHWM" not in fields:  # exited: a zombie has no memory left to read
                return
            self.mb = max(self.mb, int(fields["VmHWM"].split()[0]) / 1024)
            time.sleep(self.every_s)
