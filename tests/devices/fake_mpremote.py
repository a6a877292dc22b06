#!/usr/bin/env python3
"""A stand-in for `mpremote` on PATH: records each command line and keeps the "board's" files in a folder.

FAKE_MPREMOTE_LOG: a file that gets one JSON line per run (its arguments and working folder).
FAKE_MPREMOTE_BOARD: the board's filesystem. FAKE_MPREMOTE_MODE: "ok", "no-micropython" (another firmware
answers, as mpremote reports it), "corrupt" (one file arrives damaged).
It understands what `companion firmware flash` runs: connect PORT fs cp FILES : + fs sha256sum :FILES + reset.
"""

import hashlib
import json
import os
import shutil
import sys
from pathlib import Path

args = sys.argv[1:]
with open(os.environ["FAKE_MPREMOTE_LOG"], "a", encoding="utf-8") as log:
    log.write(json.dumps({"argv": args, "cwd": os.getcwd()}) + "\n")
if args[:1] != ["connect"] or not Path(args[1]).exists():
    sys.exit(f"mpremote: failed to access {args[1]} (it may be in use by another program)")
mode = os.environ.get("FAKE_MPREMOTE_MODE", "ok")
if mode == "no-micropython":
    sys.exit("mpremote: could not enter raw repl")
board = Path(os.environ["FAKE_MPREMOTE_BOARD"])
steps, current = [], []
for word in args[2:]:
    if word == "+":
        steps.append(current)
        current = []
    else:
        current.append(word)
steps.append(current)
for step in steps:
    if step[:2] == ["fs", "cp"]:
        *sources, dest = step[2:]
        if dest != ":":
            sys.exit(f"mpremote: the fake copies to the board's root only, not {dest}")
        for source in sources:
            print(f"cp {source} :")
            shutil.copy(source, board / source)
        if mode == "corrupt":
            (board / sources[0]).write_text("# damaged in transit\n")
    elif step[:2] == ["fs", "sha256sum"]:
        for remote in step[2:]:
            print(f"sha256sum {remote}")
            print(hashlib.sha256((board / remote.lstrip(":")).read_bytes()).hexdigest())
    elif step == ["reset"]:
        with (board / ".resets").open("a") as resets:
            resets.write("reset\n")
    else:
        sys.exit(f"mpremote: the fake does not know {step}")
