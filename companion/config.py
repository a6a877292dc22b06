"""Load and validate ``companion.toml``.

Every section is a plain dataclass owned by the layer that uses it; this module only knows how to fill
dataclasses from TOML and to say exactly which key is wrong and why. A config that loads is a config the
rest of the program can trust.
"""

from __future__ import annotations

import dataclasses
import difflib
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
from companion.vision.settings import CameraSettings
from companion.web.settings import WebSettings


class ConfigError(ValueError):
    """A config file that cannot be used, with the key that is wrong and what to do about it."""


@dataclass(frozen=True)
class TableSettings:
    """Where games are stored and how the simulated table behaves."""

    database: str = "var/tableside.sqlite3"
    traces: str = "var/traces"  # every PigzUp! match's judge trace, for `companion judge --trace`
    seed: int | None = None
    voice: str = "espeak-ng"  # the command that speaks the table's sentences; "" for a silent table


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
        """A path from the config, taken relative to the config file's folder (or the working folder)."""
        p = Path(relative).expanduser()
        if p.is_absolute() or self.path is None:
            return p
        return self.path.parent / p


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
    return Config(**values, path=path.resolve())


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
