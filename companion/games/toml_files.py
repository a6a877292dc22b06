"""Reading the project's TOML files (deck specs, the config, calibration profiles) with one kind of error, and
writing the ones it writes (calibration profiles, drawn zones) so that a half-written file is never read.

It lives in the rules core, the innermost layer, so every layer can use it.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any


def read_toml(path: str | Path, error: type[Exception], missing: str) -> dict[str, Any]:
    """The file's contents; a missing file raises ``error("<path>: <missing>")``, bad TOML says where it is bad."""
    path = Path(path)
    if path.is_dir():
        raise error(f"{path}: is a folder, not a TOML file")
    if path.exists() and not path.is_file():  # a pipe or a device (/dev/zero) could be read forever
        raise error(f"{path}: not a regular file")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(f"{path}: {missing}") from None
    except OSError as exc:
        raise error(f"{path}: cannot read it ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not a text file (byte {exc.start + 1} is not UTF-8)") from None
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{path}: not valid TOML: {exc}") from None


def write_toml(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (folders made as needed): a half-written file must never be what
    the next start reads, and a failed write leaves the old file as it was."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(path)
