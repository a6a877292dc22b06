"""Readiness and watchdog messages reach systemd's notification socket (a real datagram socket here)."""

from __future__ import annotations

import os
import socket

import pytest

from companion.service import notify


@pytest.fixture
def systemd(tmp_path, monkeypatch):
    """A socket where systemd would listen, named in NOTIFY_SOCKET as systemd names it for a Type=notify unit."""
    path = tmp_path / "notify.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(path))
    listener.settimeout(10)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield listener
    listener.close()


def received(listener: socket.socket) -> str:
    return listener.recv(4096).decode()


def test_ready_watchdog_and_stopping_are_sent(systemd):
    assert notify.ready("the table is running: 4 pads, camera 1280x720")
    assert received(systemd) == "READY=1\nSTATUS=the table is running: 4 pads, camera 1280x720"
    assert notify.watchdog()
    assert received(systemd) == "WATCHDOG=1"
    assert notify.status("waiting for the Pico on /dev/tableside-pico")
    assert received(systemd) == "STATUS=waiting for the Pico on /dev/tableside-pico"
    assert notify.stopping()
    assert received(systemd).startswith("STOPPING=1\n")


def test_outside_systemd_nothing_is_sent_and_nothing_fails(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    assert not notify.ready()
    assert notify.watchdog_interval_s() is None
    with notify.Watchdog() as dog:
        assert dog.interval_s is None


def test_the_watchdog_pings_at_half_the_interval_while_healthy(systemd, monkeypatch):
    monkeypatch.setenv("WATCHDOG_USEC", "200000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    with notify.Watchdog() as dog:
        assert dog.interval_s == 0.2
        assert [received(systemd) for _ in range(3)] == ["WATCHDOG=1"] * 3


def test_an_unhealthy_table_gets_no_ping(systemd, monkeypatch):
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    checks = iter([True, False])

    def broken() -> bool:
        raise RuntimeError("the session does not answer")

    assert notify.Watchdog(lambda: next(checks)).beat()
    assert received(systemd) == "WATCHDOG=1"
    assert not notify.Watchdog(lambda: next(checks)).beat()
    assert not notify.Watchdog(broken).beat()


def test_a_watchdog_meant_for_another_process_is_ignored(monkeypatch):
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid() + 1))
    assert notify.watchdog_interval_s() is None
