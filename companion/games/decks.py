"""Decks as data: the distinct faces of each game's cards, their attributes and how many copies exist.

One spec serves the rules (what a card *is*) and the recogniser (which faces it must tell apart), so a table
whose physical deck differs only needs an edited spec file, never new code. Specs are TOML; a ``[[faces]]``
group either names one face or expands the cartesian product of its ``each`` lists::

    [[faces]]
    id = "{color}-{number}"     # formatted with the face's attributes and kind
    kind = "corgi"              # or a list inside ``each``
    copies = 1
    each = { number = [1, 2, 3], color = ["red", "blue"] }
    attributes = { fur = "fawn" }   # optional fixed attributes
"""

from __future__ import annotations

import itertools
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path, PurePath
from typing import Any

from companion.games.toml_files import read_toml

AttributeValue = str | int
FACE_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


class DeckError(ValueError):
    """A deck spec that cannot be used, saying which face or key is wrong."""


@dataclass(frozen=True)
class Face:
    """One distinct printed face; ``copies`` identical cards of it are in the deck."""

    id: str
    kind: str
    attributes: Mapping[str, AttributeValue] = field(default_factory=dict)
    copies: int = 1

    def __hash__(self) -> int:  # attributes are a dict; the id already identifies the face within its deck
        return hash((self.id, self.kind))

    def __getitem__(self, name: str) -> AttributeValue:
        return self.attributes[name]

    def get(self, name: str, default: AttributeValue | None = None) -> AttributeValue | None:
        return self.attributes.get(name, default)


@dataclass(frozen=True)
class Deck:
    """A named deck: its distinct faces in spec order."""

    name: str
    title: str
    faces: tuple[Face, ...]

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for face in self.faces:
            if face.id in seen:
                raise DeckError(f"deck {self.name}: face id {face.id!r} appears twice")
            seen.add(face.id)

    def __iter__(self) -> Iterator[Face]:
        return iter(self.faces)

    def __len__(self) -> int:
        return len(self.faces)

    def __contains__(self, face_id: object) -> bool:
        return any(f.id == face_id for f in self.faces)

    def face(self, face_id: str) -> Face:
        for f in self.faces:
            if f.id == face_id:
                return f
        raise KeyError(f"deck {self.name} has no face {face_id!r}")

    def cards(self) -> list[str]:
        """Every physical card as a face id, copies repeated: what a shuffle deals from."""
        return [f.id for f in self.faces for _ in range(f.copies)]

    @property
    def size(self) -> int:
        return sum(f.copies for f in self.faces)


def deck_names() -> list[str]:
    """The decks shipped with Tableside."""
    folder = resources.files("companion.games").joinpath("decks")
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))


def load_deck(name: str) -> Deck:
    """A packaged deck by name (``corgi-pileup``, ``crazy-corgi``, ``squirrels``, ``clash-of-corgis``, ``pigzup``).

    Only a registered name opens a file: a name is never joined into a path, so ``../x`` reads nothing."""
    if name not in deck_names():
        raise DeckError(f"no deck named {name[:40]!r}; known decks: {', '.join(deck_names())}")
    spec = resources.files("companion.games").joinpath("decks", f"{name}.toml")
    return parse_deck(tomllib.loads(spec.read_text(encoding="utf-8")), where=name)


def registered_deck(option: object) -> str:
    """The registered deck that a game's ``deck`` option names; ``DeckError`` for anything else.

    Games stored before decks were chosen by name may hold the path of a shipped spec
    (``companion/games/decks/pigzup.toml``): its file name picks the same shipped deck and the file itself is never
    read, so a stored game depends on nothing outside the package. A path to any other file names no deck."""
    if not isinstance(option, str):
        raise DeckError(f"a deck is chosen by name ({', '.join(deck_names())}), not {type(option).__name__}")
    if option in deck_names():
        return option
    stem = PurePath(option).name.removesuffix(".toml")
    if ("/" in option or option.endswith(".toml")) and stem in deck_names():
        return stem
    raise DeckError(f"no deck named {option[:40]!r}; decks are chosen by name: {', '.join(deck_names())}")


def load_deck_file(path: str | Path) -> Deck:
    """A user's deck spec file (same format as the packaged ones)."""
    return parse_deck(read_toml(path, DeckError, "no such deck spec"), where=str(path))


def deck_from_ids(name: str, face_ids: list[str]) -> Deck:
    """A spec-less deck, one copy per face: what a folder of face images defines on its own."""
    return Deck(name, name, tuple(Face(_check_id(i, name), "card") for i in face_ids))


def parse_deck(raw: Mapping[str, Any], where: str) -> Deck:
    """Build a deck from a parsed spec; every error names the spec and the group."""
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise DeckError(f"{where}: 'name' (text) is required")
    groups = raw.get("faces")
    if not isinstance(groups, list) or not groups:
        raise DeckError(f"{where}: at least one [[faces]] group is required")
    faces = [face for i, group in enumerate(groups) for face in _expand(group, f"{where}: faces[{i}]")]
    return Deck(name=name, title=str(raw.get("title", name)), faces=tuple(faces))


def _expand(group: Mapping[str, Any], where: str) -> Iterator[Face]:
    unknown = set(group) - {"id", "kind", "copies", "each", "attributes"}
    if unknown:
        raise DeckError(f"{where}: unknown keys {sorted(unknown)}")
    copies = group.get("copies", 1)
    if not isinstance(copies, int) or isinstance(copies, bool) or copies < 1:
        raise DeckError(f"{where}: copies must be a whole number ≥ 1, got {copies!r}")
    template = group.get("id")
    if not isinstance(template, str):
        raise DeckError(f"{where}: 'id' (text, may use {{attribute}} fields) is required")
    each: Mapping[str, list[AttributeValue]] = group.get("each", {})
    fixed: Mapping[str, AttributeValue] = group.get("attributes", {})
    for key, values in each.items():
        if not isinstance(values, list) or not values:
            raise DeckError(f"{where}: each.{key} must be a non-empty list")
    keys = list(each)
    for combo in itertools.product(*(each[k] for k in keys)):
        values = dict(fixed) | dict(zip(keys, combo, strict=True))
        kind = str(values.pop("kind", group.get("kind", "card")))
        try:
            kind = kind.format(**values)
            face_id = template.format(kind=kind, **values)
        except KeyError as exc:
            raise DeckError(f"{where}: template uses {exc}, which is not an attribute") from None
        yield Face(_check_id(face_id, where), kind, values, copies)


def _check_id(face_id: str, where: str) -> str:
    if not FACE_ID.match(face_id):
        raise DeckError(f"{where}: face id {face_id!r} must be lower-case letters, digits, '-' or '_'")
    return face_id


def pigzup_colors(face: Face) -> frozenset[AttributeValue]:
    """The colours printed on a PigzUp! card, whichever slot they are in."""
    return frozenset(v for k, v in face.attributes.items() if k.startswith("color"))


def matches(a: Face, b: Face) -> bool:
    """PigzUp!: two cards match when their numbers are equal and they share at least one colour (any slot)."""
    return a.get("number") == b.get("number") and bool(pigzup_colors(a) & pigzup_colors(b))
