"""The server's limits through real sockets (issue 16): idle and slow clients are closed, refused streams close,
streams end and reconnect, long bodies are refused before they are read, and a crowd does not lock the page."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from companion.config import load_config
from companion.table.session import TableSession
from companion.web.server import WebServer, start_server
from companion.web.settings import WebSettings
from tests.web.clients import SSEClient
from tests.web.conftest import Browser

ROOT = Path(__file__).resolve().parents[2]
WAIT_S = 10.0  # the most any socket read here may take: well above every limit the tests configure


@pytest.fixture
def tight(table: TableSession, pin_hash: str) -> Iterator[WebServer]:
    """A server with one live stream and a one-second idle limit."""
    settings = WebSettings(pin_hash=pin_hash, threads=9, idle_timeout_seconds=1, keepalive_seconds=0.2)
    running = start_server(table, settings, host="127.0.0.1", port=0)
    yield running
    running.stop()


def connect(server: WebServer, source: str = "127.0.0.1") -> socket.socket:
    """A socket from ``source``: another loopback address stands for another phone."""
    return socket.create_connection((server.host, server.port), timeout=WAIT_S, source_address=(source, 0))


def page_loads(server: WebServer) -> bool:
    with connect(server) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return read_until_closed(sock).startswith(b"HTTP/1.1 200")


def read_until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a read timeout fails the test)."""
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    return received


def test_an_idle_socket_is_closed(tight: WebServer) -> None:
    with connect(tight) as sock:
        assert read_until_closed(sock) == b""


def test_a_client_trickling_its_request_is_closed(tight: WebServer) -> None:
    """A byte at a time keeps the idle timer happy; the request as a whole must still arrive in time."""
    with connect(tight) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        sock.settimeout(0.5)
        for _ in range(int(WAIT_S / 0.5)):
            try:
                if sock.recv(1) == b"":
                    return  # closed by the server
            except TimeoutError:
                sock.sendall(b"X")  # one more byte of a header that never ends
        pytest.fail("the server kept a trickling request open")


def test_a_refused_stream_is_answered_and_closed(tight: WebServer) -> None:
    streaming = SSEClient.open(tight)
    try:
        streaming.next_snapshot()
        with connect(tight) as sock:
            sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
            reply = read_until_closed(sock)
        assert reply.startswith(b"HTTP/1.1 503")
        assert b"Retry-After: 2" in reply and b"too-many-streams" in reply
    finally:
        streaming.close()


def test_a_stream_ends_after_its_lifetime_and_frees_its_slot(table: TableSession, pin_hash: str) -> None:
    settings = WebSettings(pin_hash=pin_hash, threads=9, keepalive_seconds=0.1, stream_minutes=0.005)
    running = start_server(table, settings, host="127.0.0.1", port=0)
    try:
        first = SSEClient.open(running)
        assert first.next_event()["event"] == "snapshot"
        while first.next_event():  # keep-alives, then the end of the stream
            pass
        first.close()
        again = SSEClient.open(running)  # the browser's EventSource reconnects by itself
        assert again.response.status == 200 and again.next_snapshot()
        again.close()
    finally:
        running.stop()


def test_a_long_body_is_refused_before_it_is_sent(server: WebServer) -> None:
    """No credentials, a 300 MB Content-Length and no body at all: the answer comes from the headers alone."""
    with connect(server) as sock:
        sock.sendall(b"POST /api/referee/unlock HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 300000000\r\n\r\n")
        reply = read_until_closed(sock)
    assert reply.startswith(b"HTTP/1.1 413")


def test_a_long_chunked_body_is_cut_off(server: WebServer, settings: WebSettings) -> None:
    """No length announced: the body is cut off as soon as it passes the limit (sent in one go, so that the
    server has read it all when it closes, and the answer is not lost to a reset)."""
    chunk = b"x" * 4096
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(settings.max_body_bytes // len(chunk)))
    with connect(server) as sock:
        sock.sendall(b"POST /api/referee/unlock HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                     + chunks + b"1\r\nx\r\n")
        assert read_until_closed(sock).startswith(b"HTTP/1.1 413")


def test_a_long_body_gets_a_json_refusal_from_the_app(visitor: Browser) -> None:
    response = visitor.post("/api/referee/unlock", {"pin": "1" * 20000})
    assert response.status_code == 413 and response.json["error"] == "request-entity-too-large"


def test_the_page_loads_with_many_idle_sockets_and_streams_open(table: TableSession, pin_hash: str) -> None:
    settings = WebSettings(pin_hash=pin_hash, threads=12, keepalive_seconds=0.2)  # four streams
    running = start_server(table, settings, host="127.0.0.1", port=0)
    try:
        with ExitStack() as crowd:
            for i in range(120):  # more than waitress's own default limit of 100 sockets, from six phones
                crowd.enter_context(connect(running, f"127.0.1.{i % 6 + 1}"))
            for i in range(10):
                client = SSEClient.open(running, source=f"127.0.2.{i + 1}")
                crowd.callback(client.close)
            assert page_loads(running)
    finally:
        running.stop()


@pytest.mark.parametrize("name", ["companion.toml", "companion.pi.toml"])
def test_the_example_configs_name_the_limits(name: str) -> None:
    text = (ROOT / name).read_text(encoding="utf-8")
    limits = ("connection_limit", "connections_per_client", "streams_per_client", "idle_timeout_seconds",
              "stream_minutes", "max_body_bytes")
    assert all(f"\n{key} = " in text for key in limits)
    web = load_config(ROOT / name).web
    assert web.server_limits == WebSettings().server_limits
    assert web.streams_per_client == WebSettings().streams_per_client



def test_one_phone_cannot_take_every_socket(server: WebServer, settings: WebSettings) -> None:
    """A phone opening more sockets than its share has the extra ones closed at once; everyone else loads."""
    hostile = "127.0.3.1"
    with ExitStack() as crowd:
        kept = [crowd.enter_context(connect(server, hostile)) for _ in range(settings.connections_per_client)]
        assert page_loads(server)  # the share itself leaves the page reachable
        for _ in range(settings.connection_limit):
            with connect(server, hostile) as extra:
                assert read_until_closed(extra) == b""  # closed by the server straight away
        assert page_loads(server)
        assert len(kept) == settings.connections_per_client


def test_one_phone_cannot_take_every_stream(server: WebServer, settings: WebSettings) -> None:
    with ExitStack() as crowd:
        for _ in range(settings.streams_per_client):
            client = SSEClient.open(server, source="127.0.3.2")
            crowd.callback(client.close)
            assert client.response.status == 200
        refused = SSEClient.open(server, source="127.0.3.2")
        crowd.callback(refused.close)
        assert refused.response.status == 503
        other = SSEClient.open(server, source="127.0.3.3")  # another phone still streams
        crowd.callback(other.close)
        assert other.response.status == 200
