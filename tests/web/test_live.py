"""Live updates through the real waitress server: snapshot on connect, changes, keep-alives, many clients."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.table.session import TableSession
from companion.web.server import WebServer, start_server
from companion.web.settings import WebSettings
from tests.waiting import wait_until
from tests.web.clients import SSEClient
from tests.web.conftest import legal_move, start


@pytest.fixture
def clients() -> Iterator[list[SSEClient]]:
    opened: list[SSEClient] = []
    yield opened
    for client in opened:
        client.close()


def test_snapshot_on_connect_then_changes(server: WebServer, table: TableSession, clients: list[SSEClient]) -> None:
    start(table)
    client = SSEClient.open(server)
    clients.append(client)
    assert client.response.status == 200
    assert client.response.getheader("Content-Type").startswith("text/event-stream")
    first = client.next_event()
    assert first["retry"] == "2000" and first["event"] == "snapshot"
    assert json.loads(first["data"]) == table.snapshot()
    table.submit(legal_move(table), source="camera")
    update = client.next_snapshot()
    assert update == table.snapshot() and update["recent"][-1]["source"] == "camera"


def test_keep_alive_while_nothing_happens(server: WebServer, clients: list[SSEClient]) -> None:
    client = SSEClient.open(server)
    clients.append(client)
    client.next_snapshot()
    assert client.next_event() == {"comment": "keep-alive"}


def test_twenty_clients_all_receive_an_update(server: WebServer, table: TableSession, clients: list[SSEClient]) -> None:
    start(table)
    clients.extend(SSEClient.open(server, source=f"127.0.1.{i + 1}") for i in range(20))  # twenty phones
    for client in clients:
        assert client.next_snapshot()["seq"] == table.snapshot()["seq"]
    table.submit(legal_move(table), source="camera")
    expected = table.snapshot()["seq"]
    assert all(client.next_snapshot()["seq"] == expected for client in clients)


def test_streams_beyond_the_limit_poll_and_posts_still_work(table: TableSession, pin_hash: str,
                                                            clients: list[SSEClient]) -> None:
    settings = WebSettings(pin_hash=pin_hash, threads=10, keepalive_seconds=0.2)  # two streams at most
    running = start_server(table, settings, host="127.0.0.1", port=0)
    try:
        clients.extend(SSEClient.open(running) for _ in range(2))
        for client in clients:
            client.next_snapshot()
        refused = SSEClient.open(running)
        assert refused.response.status == 503
        assert refused.response.getheader("Retry-After") == "2"
        assert json.loads(refused.response.read())["error"] == "too-many-streams"
        refused.close()

        connection = http.client.HTTPConnection(running.host, running.port, timeout=5)
        connection.request("GET", "/api/state")
        assert connection.getresponse().status == 200  # the reserved threads still serve the page
        connection.close()

        clients.pop().close()
        broadcaster = running.app.extensions["tableside"].broadcaster
        assert wait_until(lambda: broadcaster.open_streams == 1)  # a closed phone frees its slot at the next keep-alive
        again = SSEClient.open(running)
        clients.append(again)
        assert again.response.status == 200
    finally:
        running.stop()


def test_stop_ends_open_streams(table: TableSession, settings: WebSettings) -> None:
    running = start_server(table, settings, host="127.0.0.1", port=0)
    client = SSEClient.open(running)
    client.next_snapshot()
    running.stop()
    assert not running.running
    assert client.next_event() == {}  # the stream ended cleanly
    client.close()


def test_urls_name_reachable_hosts(table: TableSession, settings: WebSettings, tmp_path: Path) -> None:
    key = tmp_path / "var" / "web-secret.key"
    running = start_server(table, settings, secret_key_path=key, host="0.0.0.0", port=0)
    try:
        assert running.app.secret_key == key.read_bytes().strip()  # referees stay unlocked across restarts
        assert running.url == f"http://127.0.0.1:{running.port}/"
        assert running.urls[0] == running.url
        assert all(url.endswith(f":{running.port}/") for url in running.urls)
    finally:
        running.stop()


def test_a_device_fault_reaches_the_streams_without_a_move(server: WebServer, table: TableSession,
                                                           clients: list[SSEClient]) -> None:
    health = {"ok": True, "status": "connected"}
    table.add_device("serial", lambda: dict(health))
    client = SSEClient.open(server)
    clients.append(client)
    assert client.next_snapshot()["devices"]["serial"]["ok"] is True
    health.update(ok=False, status="disconnected", message="Pico not found on /dev/ttyACM0 — is the cable in?")
    assert client.next_snapshot()["devices"]["serial"]["message"].startswith("Pico not found")


def test_a_failing_device_probe_does_not_stop_the_watch(server: WebServer, table: TableSession,
                                                        clients: list[SSEClient]) -> None:
    probes = iter([RuntimeError("probe crashed"), {"ok": True, "status": "back"}])

    def health() -> dict[str, object]:
        result = next(probes, {"ok": True, "status": "back"})
        if isinstance(result, Exception):
            raise result
        return result

    client = SSEClient.open(server)
    clients.append(client)
    client.next_snapshot()
    table.add_device("camera", health)
    # The crash is shown as the device's fault (the session reports it), and the watch carries on.
    failed = client.next_snapshot()["devices"]["camera"]
    assert failed == {"ok": False, "message": "camera: health check failed (probe crashed)"}
    assert client.next_snapshot()["devices"]["camera"]["status"] == "back"
