"""Waiting in tests on a busy machine: wait for the thing itself (a line, an exit, a condition), never for a
stretch of time; the cap only bounds a failure, so it is generous. And every child process ends on every path."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

PATIENCE = 60.0  # seconds: the most a test waits for what normally takes milliseconds (a failure's bound)


def wait_until(condition: Callable[[], bool], timeout: float = PATIENCE) -> bool:
    """Whether ``condition()`` became true, checked every couple of milliseconds until ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.002)
    return condition()


@contextmanager
def child_process(argv: Sequence[str], **popen: Any) -> Iterator[subprocess.Popen]:
    """A child process for the ``with`` block; afterwards, however the block ended, it is stopped: Ctrl-C first
    (so it can clean up), then killed if it does not go, and its pipes are closed."""
    process = subprocess.Popen(list(argv), **popen)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(PATIENCE)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                stream.close()


def read_until(stream: Any, marker: str) -> list[str]:
    """Lines from a child's pipe up to and including the first that contains ``marker`` (its readiness line);
    fails if the child closes the pipe first."""
    lines: list[str] = []
    while not lines or marker not in lines[-1]:
        line = stream.readline()
        assert line, f"the child ended before printing {marker!r}: {''.join(lines)}"
        lines.append(line)
    return lines
