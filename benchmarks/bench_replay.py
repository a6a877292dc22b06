"""`companion replay` on big files (issue 16): lines per second and peak memory. Prints figures; not a test.

The file is a setup line and then a repeating mix of what a bad file holds: moves the rules refuse, lines that
are not JSON, binary junk. The replay streams the file and lists only the first refusals, so its peak memory
should not grow with the file: the two sizes below should show about the same figure.

    .venv/bin/python benchmarks/bench_replay.py [MB ...]     (default: 2 10)
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

SETUP = json.dumps({"type": "setup", "game": "corgi-pileup", "players": ["Ann", "Ben"]})
MIX = (
    json.dumps({"type": "play", "player": 1, "card": 5}),  # not Ben's turn: refused by the rules
    "this is not json",
    "\x00\xff junk".encode("latin-1").decode("utf-8", "replace"),
    json.dumps({"type": "play", "player": 0, "card": 99}),  # no such card
)
RUNS = 3


def write_file(path: Path, megabytes: int) -> int:
    block = "\n".join(MIX) + "\n"
    repeats = megabytes * 1_000_000 // len(block.encode())
    with path.open("w", encoding="utf-8") as out:
        out.write(SETUP + "\n")
        for _ in range(repeats):
            out.write(block)
    return 1 + repeats * len(MIX)


CHILD = """
import resource, sys, time
from companion.table.commands import replay_lines
from companion.table.json_lines import read_lines
t0 = time.perf_counter()
with open(sys.argv[1], "rb") as stream:
    replay_lines("corgi-pileup", read_lines(stream))
print(time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def replay_once(path: Path) -> tuple[float, int]:
    """Seconds the replay took (start-up excluded) and the peak resident memory (KB) of its own process."""
    done = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, check=True)
    seconds, kilobytes = done.stdout.split()
    return float(seconds), int(kilobytes)


def main(sizes: list[int]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for megabytes in sizes:
            path = Path(tmp) / f"{megabytes}mb.jsonl"
            lines = write_file(path, megabytes)
            runs = [replay_once(path) for _ in range(RUNS)]
            seconds = statistics.median(t for t, _ in runs)
            peak = max(kb for _, kb in runs)
            print(f"{megabytes:4d} MB, {lines:9,d} lines: {seconds:6.1f} s median, "
                  f"{lines / seconds:8,.0f} lines/s, peak memory {peak / 1024:.0f} MB")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [2, 10])
