"""Fixtures shared across test folders."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from typing import Any

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C reaches the children the tests start, as a terminal's or systemd's would. A test runner started in
    the background by a shell (``pytest &``, a CI step's helper) has SIGINT ignored, every child inherits that, and
    a table told to stop by Ctrl-C would never hear it."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Modules holding long (``slow``) tests run first, each module kept together (module fixtures are built
    once): `make test` spreads the suite over the CPUs, and a long test started last would keep every other
    worker waiting for it."""
    long_modules = {getattr(item, "module", None) for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: getattr(item, "module", None) not in long_modules)


@pytest.fixture(scope="session")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Debian's Chromium driven by Playwright, for the browser tests (``.ci/install-browser`` installs it)."""
    from tests.web.clients import launch_chromium

    try:
        yield from launch_chromium(tmp_path_factory.mktemp("browser-home"))
    except FileNotFoundError as exc:
        pytest.fail(str(exc))


@pytest.fixture
def page(chromium: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh browser page (viewport from ``request.param`` when parametrised indirectly); the test fails on any
    script error or blocked asset in its console. Refused requests (a 400, a wrong PIN) are expected there."""
    viewport = getattr(request, "param", None) or {"width": 1024, "height": 800}
    context = chromium.new_context(viewport=viewport)
    context.set_default_timeout(5000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console",
        lambda msg: errors.append(msg.text)
        if msg.type == "error" and not msg.text.startswith("Failed to load resource")
        else None,
    )
    yield page
    context.close()
    assert not errors, f"errors in the browser console: {errors}"
