"""Actions: frozen dataclasses with a ``type`` tag and an exact JSON round-trip.

The same JSON is the event-log payload, the ``companion replay`` file format and the web API body, so the
codec is strict: unknown types, missing or extra fields and wrong types are all refused by name.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, ClassVar

SEAT = "seat"
Seat = Annotated[int, SEAT]
"""A player's seat (0 = the first player named at setup): an int on the wire, a player picker in forms."""


@dataclass(frozen=True)
class Action:
    """Base of every action. ``chance`` marks shuffles and deals, which the table records on its own."""

    type: ClassVar[str]
    chance: ClassVar[bool] = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True)
class Deal(Action):
    """Shuffle and deal. ``seed`` fixes the order when the table knows the cards (full-information play);
    ``None`` records a real shuffle that nobody could see."""

    type: ClassVar[str] = "deal"
    chance: ClassVar[bool] = True
    seed: int | None = None


@dataclass(frozen=True)
class Reshuffle(Action):
    """Shuffle a discard pile into a new deck, mid-round."""

    type: ClassVar[str] = "reshuffle"
    chance: ClassVar[bool] = True
    seed: int | None = None


_TYPE_NAMES = {int: "int", str: "str", bool: "bool", float: "float"}


class ActionCodec:
    """Decodes JSON into one game's actions, refusing anything that is not exactly one of them."""

    def __init__(self, action_types: Iterable[type[Action]]) -> None:
        self.types: dict[str, type[Action]] = {}
        self._hints: dict[str, dict[str, Any]] = {}
        for cls in action_types:
            self.types[cls.type] = cls
            hints = typing.get_type_hints(cls)
            self._hints[cls.type] = {f.name: hints[f.name] for f in dataclasses.fields(cls)}

    def decode(self, obj: Mapping[str, Any] | str | Action) -> Action:
        """Raise ``ValueError`` with a plain message for anything that is not a valid action."""
        if isinstance(obj, Action):
            if type(obj) not in self.types.values():
                raise ValueError(f"{obj.type!r} is not an action of this game.")
            return obj
        if isinstance(obj, str):
            try:
                obj = json.loads(obj)
            except json.JSONDecodeError as exc:
                raise ValueError(f"Not valid JSON: {exc.msg} at character {exc.pos}.") from None
        if not isinstance(obj, Mapping):
            raise ValueError("An action must be a JSON object with a 'type'.")
        kind = obj.get("type")
        if not isinstance(kind, str) or kind not in self.types:
            known = ", ".join(sorted(self.types))
            raise ValueError(f"Unknown action type {kind!r}; this game knows: {known}.")
        fields = self._hints[kind]
        extra = sorted(set(obj) - set(fields) - {"type"})
        if extra:
            raise ValueError(f"A {kind!r} action has no field {extra[0]!r}.")
        values = {}
        for name, hint in fields.items():
            if name not in obj:
                default = _default_of(self.types[kind], name)
                if default is dataclasses.MISSING:
                    raise ValueError(f"A {kind!r} action needs '{name}'.")
                values[name] = default
            else:
                values[name] = _check(hint, obj[name], f"{kind}.{name}")
        return self.types[kind](**values)


def _default_of(cls: type, name: str) -> Any:
    for f in dataclasses.fields(cls):
        if f.name == name:
            return f.default
    return dataclasses.MISSING


def _check(hint: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    if origin is Annotated:
        return _check(typing.get_args(hint)[0], value, where)
    if origin in (typing.Union, types.UnionType):
        for option in typing.get_args(hint):
            try:
                return _check(option, value, where)
            except ValueError:
                continue
        raise ValueError(f"'{where}' must be {_describe(hint)}, not {value!r}.")
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise ValueError(f"'{where}' must be a list, not {value!r}.")
        item = typing.get_args(hint)[0]
        return tuple(_check(item, v, where) for v in value)
    if hint is type(None):
        if value is not None:
            raise ValueError(f"'{where}' must be empty.")
        return None
    if hint is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ValueError(f"'{where}' must be a whole number, not {value!r}.")
    if not isinstance(value, hint):
        raise ValueError(f"'{where}' must be {_describe(hint)}, not {value!r}.")
    return value


def _describe(hint: Any) -> str:
    args = typing.get_args(hint) or (hint,)
    return " or ".join("empty" if a is type(None) else _TYPE_NAMES.get(a, str(a)) for a in args)


def action_schema(cls: type[Action]) -> dict[str, Any]:
    """A form description of one action type, for the referee's generated forms and the API docs: each field's
    type is ``int``, ``str``, ``bool``, ``float``, ``seat`` or ``list[...]``, with ``?`` when it may be empty."""
    hints = _field_hints(cls)
    return {
        "type": cls.type,
        "doc": " ".join((cls.__doc__ or "").split()),
        "fields": {f.name: _field_type(hints[f.name]) for f in dataclasses.fields(cls)},
    }


def _field_type(hint: Any) -> str:
    if typing.get_origin(hint) is Annotated:
        return SEAT if SEAT in typing.get_args(hint)[1:] else _field_type(typing.get_args(hint)[0])
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        (inner,) = [a for a in typing.get_args(hint) if a is not type(None)]
        return _field_type(inner) + "?"
    if typing.get_origin(hint) is tuple:
        return f"list[{_field_type(typing.get_args(hint)[0])}]"
    return _TYPE_NAMES.get(hint, "str")


@cache
def _field_hints(cls: type[Action]) -> dict[str, Any]:
    """An action type's resolved annotations: resolving them is slow, and every table snapshot lists the schemas."""
    return typing.get_type_hints(cls, include_extras=True)
