"""Tableside companion."""

from importlib.metadata import PackageNotFoundError, version


def host_version() -> str:
    """The installed package's version (what a race's trace names as the host's), or "unknown" for a source
    tree run without installing."""
    try:
        return version("tableside")
    except PackageNotFoundError:
        return "unknown"
