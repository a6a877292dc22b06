"""Reading the project's TOML files (deck specs, the config, calibration profiles) with one kind of error.

It lives in the rules core, the innermost layer, so every layer can use it.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any


def read_toml(path: str | Path, error: type[Exception], missing: str) -> dict[str, Any]:
    """The file's contents; a missing file raises ``error("<path>: <missing>")``, bad TOML says where it is bad."""
    path = Path(path)
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(f"{path}: {missing}") from None
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{path}: not valid TOML: {exc}") from None
