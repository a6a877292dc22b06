"""What the benchmarks share: a config for a simulated table in a scratch folder, and a whole demo game run as a
process and measured (wall time to a winner, CPU, peak RSS). Imported by the bench scripts; not a benchmark."""

from __future__ import annotations

import resource
import subprocess
import sys
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


def bench_demo(folder: Path, game: str, players: int = 3, variant: str = "standard") -> None:
    """``companion demo --game GAME`` to a winner with the status page on: wall time, CPU % and peak RSS."""
    config = config_file(folder, '[web]\nport = 0\nsecret_key_file = "key"\n', name="demo.toml")
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "companion", "-c", str(config), "demo", "--game", game, "--seed", "2",
                           "--players", str(players), "--variant", variant, "--then", "exit"],
                          capture_output=True, text=True, check=True)
    wall = time.monotonic() - started
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    winner = next(line for line in done.stdout.splitlines() if line.startswith("Winner:"))
    print(f"simulated {game} table, {players} bots, status page on: {wall:.0f} s to a winner ({winner}); "
          f"CPU {100 * (usage.ru_utime + usage.ru_stime) / wall:.0f}% of one core; "
          f"peak RSS {usage.ru_maxrss / 1024:.0f} MB (target <= 250 MB)")
