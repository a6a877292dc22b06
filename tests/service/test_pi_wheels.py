"""Every runtime dependency installs on 64-bit Raspberry Pi OS (Bookworm: aarch64, CPython 3.11, glibc 2.36)
without a compiler: pip finds a wheel for each one, and its own dependencies, for that platform. A dependency
published only as source must build into a pure-Python (``none-any``) wheel.

It asks the package registry, so it is skipped (saying so) where the registry cannot be reached.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
PI_PLATFORMS = [f"manylinux_2_{minor}_aarch64" for minor in range(36, 16, -1)] + ["manylinux2014_aarch64"]
SOURCE_ONLY = {"sdnotify"}  # pure Python, published as source only
UNREACHABLE = ("NewConnectionError", "Failed to establish a new connection", "Temporary failure in name resolution",
               "Network is unreachable", "ConnectTimeout", "Max retries exceeded", "Could not fetch URL")


def runtime_requirements() -> list[str]:
    """The project's dependencies and its ``pi`` extra, without their markers (they name the Pi itself)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"]["pi"]]
    return [r.split(";")[0].strip() for r in wanted]


def name(requirement: str) -> str:
    return re.split(r"[<>=!~\[ ]", requirement, maxsplit=1)[0].lower()


def pip(*args: str) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([sys.executable, "-m", "pip", *args, "--retries", "1", "--timeout", "30",
                             "--disable-pip-version-check"], capture_output=True, text=True, check=False)
    if result.returncode != 0 and any(marker in result.stdout + result.stderr for marker in UNREACHABLE):
        pytest.skip("the package registry cannot be reached from here: the Pi's wheels were not checked")
    return result


@pytest.mark.slow
def test_every_runtime_dependency_has_a_wheel_for_the_pi(tmp_path):
    requirements = runtime_requirements()
    assert {"numpy", "opencv-python-headless", "lgpio", "sdnotify"} <= {name(r) for r in requirements}
    binary = [r for r in requirements if name(r) not in SOURCE_ONLY]
    platforms = [arg for platform in PI_PLATFORMS for arg in ("--platform", platform)]
    result = pip("download", "--only-binary=:all:", *platforms, "--python-version", "3.11", "--implementation",
                 "cp", "--dest", str(tmp_path / "wheels"), *binary)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    wheels = [w.name for w in (tmp_path / "wheels").iterdir()]
    assert all(w.endswith(".whl") for w in wheels), wheels
    assert {name(r).replace("-", "_") for r in binary} <= {w.split("-")[0].lower() for w in wheels}
    native = [w for w in wheels if not w.endswith("-none-any.whl")]
    assert native and all("aarch64" in w for w in native), native


@pytest.mark.slow
def test_a_dependency_published_as_source_only_is_pure_python(tmp_path):
    for requirement in (r for r in runtime_requirements() if name(r) in SOURCE_ONLY):
        result = pip("wheel", "--no-deps", "--no-binary=:all:", "--no-cache-dir", "--wheel-dir",
                     str(tmp_path), requirement)
        assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    built = sorted(w.name for w in tmp_path.iterdir())
    assert len(built) == len(SOURCE_ONLY) and all(w.endswith("-none-any.whl") for w in built), built
