"""Status page figures (status page issue). Prints medians; exits 1 when a target is missed.

1. Submit -> browser shows it: the session accepts a move, and Debian's Chromium (Playwright) showing the
   scoreboard notices the change in its DOM (a MutationObserver stamps the time). Target <= 200 ms median.
2. Page weight of ``/``: the HTML and every asset it loads, as served. Target <= 100 KB.
3. Server memory with 20 live clients: resident memory of this process (server, session and clients' sockets)
   before and after 20 Server-Sent Events streams open and all receive one update.
"""

from __future__ import annotations

import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the shared test clients live in tests/web

from companion.games.base import GameSetup
from companion.games.registry import GAMES
from companion.table.log import EventLog
from companion.table.session import TableSession
from companion.web.server import WebServer, start_server
from companion.web.settings import WebSettings
from tests.web.clients import SSEClient, launch_chromium

GAME = "corgi-pileup"
PLAYERS = ("Emily", "Peter", "Taylor", "Amy")
SAMPLES = 40
CLIENTS = 20
LATENCY_TARGET_MS = 200
WEIGHT_TARGET_KB = 100

WATCH_RECENT = """() => {
  window.__changes = [];
  new MutationObserver(() => window.__changes.push(Date.now()))
    .observe(document.getElementById("recent"), {childList: true, subtree: true, characterData: true});
}"""


def play_one(session: TableSession) -> None:
    """One legal move; a new game when this one is over."""
    if session.status() != "playing":
        session.start_game(GameSetup(GAME, PLAYERS, full_information=True), source="bench")
    session.submit(GAMES[GAME].legal_actions(session.state)[0], source="bench")


def latency_ms(server: WebServer, session: TableSession, home: Path) -> list[float]:
    samples = []
    for browser in launch_chromium(home):
        page = browser.new_page(bypass_csp=True)  # Playwright's waiting helpers evaluate strings
        page.goto(server.url)
        page.wait_for_selector('#connection[data-state="live"]')
        page.evaluate(WATCH_RECENT)
        for _ in range(SAMPLES):
            seen = page.evaluate("window.__changes.length")
            submitted = time.time() * 1000
            play_one(session)
            page.wait_for_function("n => window.__changes.length > n", arg=seen, polling="raf")
            samples.append(page.evaluate("n => window.__changes[n]", seen) - submitted)
            time.sleep(0.05)  # moves at the table are seconds apart; do not measure a queue
    return samples


def page_weight(server: WebServer, path: str = "") -> int:
    def get(url: str) -> bytes:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read()

    html = get(server.url + path)
    assets = re.findall(rb'(?:href|src)="(/static/[^"]+)"', html)
    return len(html) + sum(len(get(server.url.rstrip("/") + asset.decode())) for asset in assets)


def rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


def memory_with_clients(server: WebServer, session: TableSession) -> tuple[int, int, int]:
    """Resident memory (KB) before and with the clients, and the process's thread count with them."""
    before = rss_kb()
    clients = [SSEClient.open(server, source=f"127.0.1.{i + 1}") for i in range(CLIENTS)]  # one phone each
    try:
        for client in clients:
            client.next_snapshot()
        play_one(session)
        expected = session.snapshot()["seq"]
        if not all(client.next_snapshot()["seq"] == expected for client in clients):
            raise RuntimeError("a live client missed the update")
        return before, rss_kb(), threading.active_count()
    finally:
        for client in clients:
            client.close()


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        log = EventLog(Path(tmp) / "bench.sqlite3")
        session = TableSession(log, seed=5)
        server = start_server(session, WebSettings(threads=32), host="127.0.0.1", port=0)
        try:
            play_one(session)
            weight = page_weight(server)
            referee_weight = page_weight(server, "referee")
            before, during, threads = memory_with_clients(server, session)
            samples = latency_ms(server, session, Path(tmp) / "browser-home")
        finally:
            server.stop()
            log.close()
    median = statistics.median(samples)
    print(f"submit -> browser shows it: median {median:.1f} ms, p90 {statistics.quantiles(samples, n=10)[-1]:.1f} ms, "
          f"max {max(samples):.1f} ms over {len(samples)} moves (target <= {LATENCY_TARGET_MS} ms)")
    print(f"page weight of /: {weight / 1024:.1f} KB with its assets (target <= {WEIGHT_TARGET_KB} KB); "
          f"/referee: {referee_weight / 1024:.1f} KB")
    print(f"server memory: {before / 1024:.1f} MB RSS idle, {during / 1024:.1f} MB with {CLIENTS} live clients "
          f"(+{(during - before) / 1024:.1f} MB, {threads} threads)")
    return 0 if median <= LATENCY_TARGET_MS and weight <= WEIGHT_TARGET_KB * 1024 else 1


if __name__ == "__main__":
    sys.exit(main())
