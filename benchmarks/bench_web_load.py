"""Page load under crowding (issue 16): with N idle sockets and M live-update clients open on loopback, how long
``GET /`` takes, median and p95. Prints figures; exits 1 when a page load fails or the median exceeds the target.
Last, the server's memory before and after a burst of simultaneous wrong PINs.

An idle socket connects and sends nothing: all of them come from one address (a hostile guest's phone, or one
that went to sleep mid-request). A live client opens ``/api/events`` and reads its first event, as the
scoreboard does, each from its own address (a table of phones); the page loads come from yet another. Every
load has a time limit, so a locked-up server shows as failures here rather than a benchmark that never ends.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the shared test clients live in tests/web

from flask.testing import FlaskClient

from companion.table.log import EventLog
from companion.table.session import TableSession
from companion.web.app import create_app
from companion.web.auth import hash_pin
from companion.web.server import WebServer, start_server
from companion.web.settings import WebSettings
from tests.web.clients import SSEClient

LOAD_TIMEOUT_S = 5.0
PIN_GUESSES = 100
GIVE_UP_AFTER = 3  # failed loads in a row: the server is locked up, the remaining samples would only wait
TARGET_MEDIAN_MS = 250
CROWDS = ((0, 0), (100, 0), (0, 100), (100, 100), (500, 100))  # 500: past the connection limit


HOSTILE_PHONE = "127.0.1.1"


def idle_socket(server: WebServer) -> socket.socket:
    return socket.create_connection((server.host, server.port), timeout=LOAD_TIMEOUT_S,
                                    source_address=(HOSTILE_PHONE, 0))


def live_client(server: WebServer, phone: int) -> SSEClient | None:
    """A scoreboard's stream; a refused one (503) is closed by the server, as the browser then polls."""
    try:
        client = SSEClient.open(server, timeout=LOAD_TIMEOUT_S, source=f"127.0.2.{phone + 1}")
        if client.response.status == 200:
            client.next_snapshot()
    except OSError:
        return None
    return client


def page_loads(server: WebServer, samples: int) -> tuple[list[float], int]:
    """Milliseconds per successful ``GET /`` and how many failed (timed out or refused)."""
    times, failures = [], 0
    for _ in range(samples):
        if failures >= GIVE_UP_AFTER and not times:
            return times, samples - len(times)
        began = time.perf_counter()
        try:
            with urllib.request.urlopen(server.url, timeout=LOAD_TIMEOUT_S) as response:
                response.read()
            times.append((time.perf_counter() - began) * 1000)
        except (OSError, urllib.error.URLError):
            failures += 1
    return times, failures


def measure(server: WebServer, idle: int, live: int, samples: int) -> tuple[list[float], int, int]:
    """Page loads with the crowd open, and how many of the live clients are streaming."""
    with ExitStack() as crowd:
        for _ in range(idle):
            crowd.enter_context(idle_socket(server))
        streaming = 0
        for phone in range(live):
            client = live_client(server, phone)
            if client is None:
                break  # the server no longer answers: more clients would each wait out the time limit
            crowd.callback(client.close)
            streaming += client.response.status == 200
        times, failures = page_loads(server, samples)
    return times, failures, streaming


def rss_mb() -> float:
    status = Path("/proc/self/status").read_text().splitlines()
    return int(next(line for line in status if line.startswith("VmRSS:")).split()[1]) / 1024


def pin_burst_memory(guesses: int) -> tuple[float, float]:
    """Resident memory (MB) before and after ``guesses`` simultaneous wrong PINs, each from its own address."""
    app = create_app(TableSession(EventLog(":memory:")), WebSettings(pin_hash=hash_pin("2468")))
    browsers = []
    for i in range(guesses):
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = f"10.0.{i // 250}.{i % 250}"
        browsers.append((client, client.get("/api/referee").json["csrf_token"]))
    before, ready = rss_mb(), threading.Barrier(guesses)

    def guess(client: FlaskClient, token: str) -> None:
        ready.wait()
        client.post("/api/referee/unlock", json={"pin": "0000"}, headers={"X-CSRF-Token": token})

    threads = [threading.Thread(target=guess, args=browser) for browser in browsers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    app.extensions["tableside"].broadcaster.close()
    return before, rss_mb()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=20, help="page loads per crowd")
    args = parser.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        log = EventLog(Path(tmp) / "bench.sqlite3")
        settings = WebSettings()  # the simulator config's [web] section uses the defaults
        for idle, live in CROWDS:
            server = start_server(TableSession(log, seed=5), settings, host="127.0.0.1", port=0)
            try:
                times, failures, streaming = measure(server, idle, live, args.samples)
            finally:
                server.stop()
            if times:
                median, p95 = statistics.median(times), statistics.quantiles(times, n=20, method="inclusive")[-1]
                figures = f"median {median:.1f} ms, p95 {p95:.1f} ms"
            else:
                median, figures = float("inf"), "no page loaded"
            print(f"{idle:3d} idle sockets, {live:3d} live clients ({streaming} streaming): GET / {figures}, "
                  f"{failures} of {args.samples} failed (limit {LOAD_TIMEOUT_S:.0f} s each)")
            ok = ok and not failures and median <= TARGET_MEDIAN_MS
        log.close()
    before, after = pin_burst_memory(PIN_GUESSES)
    print(f"{PIN_GUESSES} simultaneous wrong PINs from as many addresses: {before:.0f} MB RSS before, "
          f"{after:.0f} MB after")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
