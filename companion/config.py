"""Load and validate ``companion.toml``.

Every section is a plain dataclass owned by the layer that uses it; this module only knows how to fill
dataclasses from TOML and to say exactly which key is wrong and why. A config that loads is a config the
rest of the program can trust.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import socket
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.devices.settings import ButtonSettings, SerialSettings
from companion.games.toml_files import read_toml
from companion.service.settings import ServiceSettings
from companion.table.backup import BackupSettings
from companion.table.pigzup_judge import JudgeSettings
from companion.table.race_files import TraceRetention
from companion.vision.settings import CameraSettings
from companion.web.settings import WebSettings


class ConfigError(ValueError):
    """A config file that cannot be used, with the key that is wrong and what to do about it."""


@dataclass(frozen=True)
class TableSettings:
    """Where games are stored and how the simulated table behaves."""

    database: str = "var/tableside.sqlite3"
    traces: str = "var/traces"  # every PigzUp! match's judge trace, for `companion judge --trace`
    traces_keep_games: int = 30  # the traces of this many newest games are kept (the oldest games' go first) ...
    traces_max_mb: float = 100.0  # ... while they fit in this many MB; the game being played keeps all of its own
    seed: int | None = None
    voice: str = "espeak-ng"  # the command that speaks the table's sentences; "" for a silent table

    def __post_init__(self) -> None:
        self.keep_traces()  # a retention that cannot be is refused with the file, not at the first race

    def keep_traces(self) -> TraceRetention:
        return TraceRetention(self.traces_keep_games, self.traces_max_mb)


@dataclass(frozen=True)
class Config:
    """The whole configuration; every section has working defaults for the simulated table."""

    table: TableSettings = field(default_factory=TableSettings)
    web: WebSettings = field(default_factory=WebSettings)
    serial: SerialSettings = field(default_factory=SerialSettings)
    buttons: ButtonSettings = field(default_factory=ButtonSettings)
    camera: CameraSettings = field(default_factory=CameraSettings)
    judge: JudgeSettings = field(default_factory=JudgeSettings)
    backup: BackupSettings = field(default_factory=BackupSettings)
    service: ServiceSettings = field(default_factory=ServiceSettings)
    path: Path | None = None

    def resolve(self, relative: str) -> Path:
        """A path from the config, taken relative to the config file's folder.

        Without a config file (the simulated table, run from anywhere) the files it reads ship with the package
        (``companion/defaults/``: the emulated pads' calibration) and everything it writes (the game log, traces,
        the simulated camera's cards) goes to the user's data folder, never into the working folder.
        """
        p = Path(relative).expanduser()
        if p.is_absolute():
            return p
        if self.path is not None:
            return self.path.parent / p
        shipped = SHIPPED_DEFAULTS / p
        return shipped if shipped.exists() else user_data_dir() / p


SHIPPED_DEFAULTS = Path(__file__).parent / "defaults"


def user_data_dir() -> Path:
    """Where the simulated table keeps its data without a config file: ``$XDG_DATA_HOME/tableside``."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "tableside"


def load_config(path: str | Path | None) -> Config:
    """Read and validate a config file; ``None`` gives the defaults (the simulated table)."""
    if path is None:
        return Config()
    path = Path(path)
    raw = read_toml(path, ConfigError, "no such config file")
    sections = {name: hint for name, hint in typing.get_type_hints(Config).items() if name != "path"}
    _reject_unknown(raw, sections, where="")
    values: dict[str, Any] = {}
    for name, value in raw.items():
        if not isinstance(value, dict):
            raise ConfigError(f"[{name}] must be a table (a [{name}] section), not a single value")
        values[name] = build_section(sections[name], value, where=name)
    config = Config(**values, path=path.resolve())
    check_surroundings(config, host_given="host" in raw.get("web", {}))
    return config


def check_surroundings(config: Config, *, host_given: bool) -> None:
    """What the table writes can be written, and ``[web] host`` is an address of this machine: found now, in one
    line naming the key, not as a traceback (or a wrong guess) in the middle of starting up."""
    written = [("table.database", config.table.database, False), ("table.traces", config.table.traces, True)]
    if config.web.enabled:
        written.append(("web.secret_key_file", config.web.secret_key_file, False))
    for key, relative, is_folder in written:
        target = config.resolve(relative)
        problem = why_unwritable(target, is_folder)
        if problem:
            raise ConfigError(f"{key}: cannot write {target}: {problem}")
    if host_given:
        check_host(config.web.host)


def why_unwritable(target: Path, is_folder: bool = False) -> str | None:
    """Why the file (or folder) ``target`` could not be created or rewritten, without creating anything; ``None``
    when it can. The folders it needs may be missing: the first of them that exists must be a writable folder."""
    if target.exists():
        if target.is_dir() != is_folder:
            return "it is a file, not a folder" if is_folder else "it is a folder, not a file"
        if not os.access(target, os.W_OK | (os.X_OK if is_folder else 0)):
            return "it is read-only"
        if is_folder:
            return None
    folder = target.parent  # a file's folder must be writable even if the file exists: SQLite keeps its journal there
    while not folder.exists() and not folder.is_symlink():
        folder = folder.parent
    if not folder.is_dir():
        return f"{folder} is a file, not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {folder} is read-only"
    return None


def check_host(host: str) -> None:
    """``host`` must be an address this machine can listen on (binding port 0 tries it without taking a port)."""
    try:
        family, kind, _, _, address = socket.getaddrinfo(host, 0, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
        with socket.socket(family, kind) as probe:
            probe.bind(address)
    except (OSError, UnicodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise ConfigError(
            f"web.host: cannot listen on {host!r} ({reason}): use 127.0.0.1 for this machine only, 0.0.0.0 for "
            "phones on its network, or one of its own addresses"
        ) from None


def build_section(cls: Any, raw: dict[str, Any], where: str) -> Any:
    """Fill the dataclass ``cls`` from a TOML table, naming the offending key on any error."""
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    _reject_unknown(raw, fields, where)
    values = {name: _coerce(hints[name], value, f"{where}.{name}") for name, value in raw.items()}
    try:
        return cls(**values)
    except (ValueError, TypeError) as exc:
        raise ConfigError(f"[{where}] {exc}") from None


def _reject_unknown(raw: dict[str, Any], known: dict[str, Any], where: str) -> None:
    for key in raw:
        if key not in known:
            close = difflib.get_close_matches(key, list(known), n=1)
            hint = f"; did you mean '{close[0]}'?" if close else f"; known keys: {', '.join(sorted(known))}"
            place = f"{where}.{key}" if where else key
            raise ConfigError(f"{place}: unknown key{hint}")


def _coerce(hint: Any, value: Any, key: str) -> Any:
    """Check ``value`` against the type hint; TOML arrays become tuples so settings stay hashable."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        for option in options:
            try:
                return _coerce(option, value, key)
            except ConfigError:
                continue
        raise ConfigError(f"{key}: expected {_describe(hint)}, got {value!r}")
    if origin is tuple:
        if not isinstance(value, list):
            raise ConfigError(f"{key}: expected a list, got {value!r}")
        (item,) = typing.get_args(hint)[:1]
        return tuple(_coerce(item, v, f"{key}[{i}]") for i, v in enumerate(value))
    if origin is dict:
        if not isinstance(value, dict):
            raise ConfigError(f"{key}: expected a table, got {value!r}")
        _, item = typing.get_args(hint)
        return {k: _coerce(item, v, f"{key}.{k}") for k, v in value.items()}
    if dataclasses.is_dataclass(hint):
        if not isinstance(value, dict):
            raise ConfigError(f"{key}: expected a table, got {value!r}")
        return build_section(hint, value, key)
    if hint is type(None):
        raise ConfigError(f"{key}: no value")
    if hint is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if hint is int and isinstance(value, bool):
        raise ConfigError(f"{key}: expected a whole number, got {value!r}")
    if not isinstance(value, hint):
        raise ConfigError(f"{key}: expected {_describe(hint)}, got {value!r}")
    return value


def _describe(hint: Any) -> str:
    names = {int: "a whole number", float: "a number", str: "text", bool: "true or false"}
    args = [a for a in typing.get_args(hint) if a is not type(None)] or [hint]
    return " or ".join(names.get(a, getattr(a, "__name__", str(a))) for a in args)
