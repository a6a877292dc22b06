"""The contract every game's ruleset keeps, and the value types the table and the status page read.

A ruleset is pure: ``apply(state, action)`` returns a new state or raises ``RuleViolation`` and never touches
the old one, so a refused move changes nothing and any game can be replayed from its actions alone.
"""

from __future__ import annotations

import enum
import random
import reprlib
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from companion.games.actions import Action, ActionCodec


class ViolationKind(enum.Enum):
    """Why a submission was refused: it made no sense, it broke a rule, or someone must decide first."""

    MALFORMED = "malformed"
    ILLEGAL = "illegal"
    NEEDS_DECISION = "needs-decision"


class RuleViolation(Exception):
    """A refused action, with a stable ``code`` for programs and a ``message`` a player understands."""

    kind: ClassVar[ViolationKind] = ViolationKind.ILLEGAL

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind.value, "code": self.code, "message": self.message}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RuleViolation) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash((self.kind, self.code, self.message))


class MalformedAction(RuleViolation):
    """The input is not an action of this game at all (bad JSON, unknown type, a card that does not exist)."""

    kind = ViolationKind.MALFORMED


class IllegalMove(RuleViolation):
    """A well-formed action that the rules forbid right now."""

    kind = ViolationKind.ILLEGAL


class DecisionRequired(RuleViolation):
    """The game is waiting for a player's decision (a 6's target, a 1's value, ...) before anything else."""

    kind = ViolationKind.NEEDS_DECISION


MAX_NAME_LENGTH = 24  # fits a phone's scoreboard column; long enough for "Grandma Rosalind" and a surname
# Marks that reorder the text around them (right-to-left overrides and isolates): a name could make the rest of
# a line read backwards. Emoji joiners and other format marks stay allowed.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def clean_text(text: str, what: str, max_length: int) -> str:
    """``text`` trimmed, spaces inside it collapsed and in Unicode's composed form; a refusal saying what is
    wrong when it is empty, too long, or holds control characters, direction overrides or broken characters."""
    code = "bad-" + what.replace(" ", "-")
    if not _encodable(text) or any(unicodedata.category(c) in ("Cc", "Zl", "Zp") or c in BIDI_CONTROLS
                                   for c in text):
        raise MalformedAction(code, f"The {what} {_shown(text)} holds control or direction characters; "
                              "type it again with letters, digits, spaces and punctuation.")
    cleaned = " ".join(unicodedata.normalize("NFC", text).split())
    if not cleaned:
        raise MalformedAction(code, f"The {what} is empty.")
    if len(cleaned) > max_length:
        raise MalformedAction(code, f"The {what} {cleaned[:MAX_NAME_LENGTH]!r}… is too long: at most "
                              f"{max_length} characters, not {len(cleaned)}.")
    return cleaned


def clean_name(name: str) -> str:
    """A player's name as it is stored and shown (see ``clean_text``)."""
    return clean_text(name, "player name", MAX_NAME_LENGTH)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False  # a lone surrogate from JSON's \ud800: half a character
    return True


def _shown(text: str) -> str:
    """A bounded quotation of hostile text for a message, its invisible characters spelled out."""
    return ascii(text[:MAX_NAME_LENGTH]) + ("…" if len(text) > MAX_NAME_LENGTH else "")


@dataclass(frozen=True)
class GameSetup:
    """Everything needed to start a game: it is the first entry of every game's log.

    Player names are cleaned here, the one place every setup passes (the web, the command line, the simulator and
    the replay of the log): see ``clean_name``; a name that cannot be cleaned refuses the setup.
    """

    game: str
    players: tuple[str, ...]
    variant: str = "standard"
    options: Mapping[str, Any] = field(default_factory=dict)
    full_information: bool = False
    seats: tuple[str, ...] = ()  # the table zone each player sits at, in seat order; empty: the mat's usual plan

    def __post_init__(self) -> None:
        if not isinstance(self.players, tuple | list) or not all(isinstance(p, str) for p in self.players):
            raise MalformedAction("bad-setup", "Players must be a list of names.")
        object.__setattr__(self, "players", tuple(clean_name(p) for p in self.players))

    def to_json(self) -> dict[str, Any]:
        setup = {
            "game": self.game,
            "variant": self.variant,
            "players": list(self.players),
            "options": dict(self.options),
            "full_information": self.full_information,
        }
        return {**setup, "seats": list(self.seats)} if self.seats else setup

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> GameSetup:
        try:
            players = obj["players"]
            if not isinstance(players, list):
                raise MalformedAction("bad-setup", "Players must be a list of names.")
            options = obj.get("options", {})
            if not isinstance(options, dict):
                raise MalformedAction("bad-setup", "Options must be an object.")
            full_information = obj.get("full_information", False)
            if not isinstance(full_information, bool):  # "no" and 0 are not false to bool(), so ask for the word
                raise MalformedAction(
                    "bad-setup", f"full_information must be true or false, not {reprlib.repr(full_information)}."
                )
            seats = obj.get("seats", [])
            if not isinstance(seats, list) or not all(isinstance(z, str) and z for z in seats):
                raise MalformedAction("bad-setup", "Seats must list the zone each player sits at, e.g. \"seat-1\".")
            if seats and (len(seats) != len(players) or len(set(seats)) != len(seats)):
                raise MalformedAction("bad-setup", "Give each player a different seat zone, one per player.")
            return cls(
                game=str(obj["game"]),
                players=tuple(players),
                variant=str(obj.get("variant", "standard")),
                options=options,
                full_information=full_information,
                seats=tuple(seats),
            )
        except KeyError as exc:
            raise MalformedAction("bad-setup", f"A game setup needs '{exc.args[0]}'.") from None


@dataclass
class GameState:
    """What every game's state starts from: its setup, and so the players by seat."""

    setup: GameSetup

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winners (seats), why, and the tie-break that decided it, if one did."""

    winners: tuple[int, ...]
    reason: str
    tie_break: str | None = None

    def to_json(self, players: Sequence[str]) -> dict[str, Any]:
        return {
            "winners": [players[w] for w in self.winners],
            "winner_seats": list(self.winners),
            "reason": self.reason,
            "tie_break": self.tie_break,
        }


@dataclass(frozen=True)
class Finding:
    """An audit finding: something that broke the rules but could only be seen later (a false claim)."""

    code: str
    message: str
    player: int
    round: int | None = None  # where the broken rule was played, when the game counts rounds and tricks
    trick: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "player": self.player, "round": self.round,
                "trick": self.trick}


class Spot(enum.Enum):
    """A place in a :class:`Cards` cell with no face to draw."""

    DOWN = "down"  # a card lying face down
    EMPTY = "empty"  # a place where a pile lies when there is one (an emptied stack)


@dataclass(frozen=True)
class Marked:
    """A face in a :class:`Cards` cell drawn with a word beside it: a state of the card the players must see at a
    glance (a card a Fighter pierced can not be played this round)."""

    face: str
    mark: str


Face = str | Spot | Marked


class Cards(str):
    """A scoreboard cell that names cards: its text everywhere (a terminal, a screen reader, a test) and, beside
    it, what a page draws as cards: face ids of the game's deck, a :class:`Spot` or a :class:`Marked` face, in
    the order they lie."""

    faces: tuple[Face, ...]

    def __new__(cls, text: str, faces: Sequence[Face] = ()) -> Cards:
        cell = super().__new__(cls, text)
        cell.faces = tuple(faces)
        return cell

    def __getnewargs__(self) -> tuple[str, tuple[Face, ...]]:  # a copy or a pickle keeps the faces
        return str(self), self.faces

    def faces_json(self) -> list[str | dict[str, Any]]:
        """The faces as the status page's card entries: a face id, ``{"down": true}`` / ``{"empty": true}``, or
        ``{"face": id, "mark": word}``."""
        return [_face_json(face) for face in self.faces]


def _face_json(face: Face) -> str | dict[str, Any]:
    if isinstance(face, Marked):
        return {"face": face.face, "mark": face.mark}
    return face if isinstance(face, str) else {face.value: True}


@dataclass(frozen=True)
class ScoreRow:
    seat: int
    name: str
    cells: tuple[Any, ...]
    active: bool = False


@dataclass(frozen=True)
class Scoreboard:
    """A game-agnostic view of the table: the status page renders any game from this alone."""

    phase: str
    prompt: str
    columns: tuple[str, ...]
    rows: tuple[ScoreRow, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "prompt": self.prompt,
            "columns": list(self.columns),
            "rows": [
                {"seat": r.seat, "name": r.name, "cells": list(r.cells), "active": r.active,
                 "faces": [c.faces_json() if isinstance(c, Cards) and c.faces else None for c in r.cells]}
                for r in self.rows
            ],
        }


class OptionKind(enum.StrEnum):
    """How a setup option is chosen on the referee's start form."""

    SEAT = "seat"  # one of the players
    NUMBER = "number"  # a whole number from ``low`` to ``high``
    CHOICE = "choice"  # one of ``choices``
    CHOICES = "choices"  # ``count`` different ones of ``choices``
    SCORES = "scores"  # a whole number from ``low`` to ``high`` for each player, in seat order


@dataclass(frozen=True)
class GameOption:
    """One setup option a ruleset takes, in words: the start form is generated from these (nobody types JSON).

    Left unset, the option is not sent and the rules decide as ``unset`` says. ``variants`` limits it to those
    variants (empty: all of them)."""

    name: str
    label: str
    kind: OptionKind
    unset: str
    choices: tuple[str, ...] = ()
    low: int = 0
    high: int = 0
    count: int = 1
    variants: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "kind": self.kind.value, "unset": self.unset,
                "choices": list(self.choices), "low": self.low, "high": self.high, "count": self.count,
                "variants": list(self.variants)}


S = TypeVar("S")


class Ruleset(ABC, Generic[S]):
    """One game. Variants are named options of the same ruleset, never copies of it."""

    name: ClassVar[str]
    title: ClassVar[str]
    variants: ClassVar[Mapping[str, str]]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    action_types: ClassVar[tuple[type[Action], ...]]
    options: ClassVar[tuple[GameOption, ...]] = ()  # what a setup's ``options`` may hold

    def __init__(self) -> None:
        self.codec = ActionCodec(self.action_types)

    def decode(self, obj: Mapping[str, Any] | str | Action) -> Action:
        """An action from its JSON (text or parsed) or itself; raises ``MalformedAction``."""
        try:
            return self.codec.decode(obj)
        except ValueError as exc:
            raise MalformedAction("malformed", str(exc)) from None

    def check_setup(self, setup: GameSetup) -> None:
        """Refuse a setup this game cannot be played with, in words the referee understands."""
        if setup.game != self.name:
            raise MalformedAction("wrong-game", f"This setup is for {setup.game!r}, not {self.name!r}.")
        if setup.variant not in self.variants:
            known = ", ".join(self.variants)
            raise MalformedAction("unknown-variant", f"{self.title} has no variant {setup.variant!r} ({known}).")
        if not self.min_players <= len(setup.players) <= self.max_players:
            raise MalformedAction(
                "player-count",
                f"{self.title} is for {self.min_players} to {self.max_players} players, not {len(setup.players)}.",
            )
        if len({p.casefold() for p in setup.players}) != len(setup.players):
            raise MalformedAction("duplicate-player", "Each player needs a different name.")

    @staticmethod
    def check_seat(players: Sequence[str], seat: int, what: str = "player") -> None:
        """Refuse a seat that is not at this table, saying what it was given for."""
        if not 0 <= seat < len(players):
            last = len(players) - 1
            raise MalformedAction("no-such-seat", f"There is no seat {seat} ({what}); seats are 0-{last}.")

    def check_options(self, setup: GameSetup) -> None:
        """Refuse an option this game does not declare (``options``), by name."""
        unknown = set(setup.options) - {option.name for option in self.options}
        if unknown:
            raise MalformedAction("bad-option", f"{self.title} has no option {sorted(unknown)[0]!r}.")

    @staticmethod
    def seat_option(setup: GameSetup, name: str) -> int:
        """A seat given as an option (who starts, who leads first): default seat 0."""
        last = len(setup.players) - 1
        seat = setup.options.get(name, 0)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= last:
            raise MalformedAction("bad-option", f"{name} must be a seat from 0 to {last}.")
        return seat

    @staticmethod
    def scores_option(setup: GameSetup, name: str, top: int) -> list[int]:
        """Each player's score to start from, given as an option (a game carried on from paper): default 0."""
        n = len(setup.players)
        scores = setup.options.get(name, [0] * n)
        if (
            not isinstance(scores, list)
            or len(scores) != n
            or not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s <= top for s in scores)
        ):
            raise MalformedAction("bad-option", f"{name} must list {n} scores from 0 to {top}.")
        return list(scores)

    @abstractmethod
    def setup(self, setup: GameSetup) -> S:
        """The state before the first chance event (usually: waiting for the deal)."""

    @abstractmethod
    def apply(self, state: S, action: Action) -> S:
        """The state after ``action``; raises ``RuleViolation`` and leaves ``state`` untouched on refusal."""

    @abstractmethod
    def chance(self, state: S, rng: random.Random) -> Action | None:
        """The chance action (shuffle, deal) the table must record next, seeded from ``rng``; else ``None``."""

    @abstractmethod
    def legal_actions(self, state: S) -> list[Action]:
        """Every legal non-chance action (full-information games only): the bots' and fuzzers' menu."""

    @abstractmethod
    def to_move(self, state: S) -> tuple[int, ...]:
        """The seats whose action the game is waiting for."""

    @abstractmethod
    def scoreboard(self, state: S) -> Scoreboard: ...

    @abstractmethod
    def view(self, state: S) -> dict[str, Any]:
        """The state as JSON: what an observer at the table knows (and the hands, in full-information play)."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None: ...

    def findings(self, state: S) -> tuple[Finding, ...]:
        """Audit findings so far, oldest first (games with nothing hidden to audit have none)."""
        return ()

    @abstractmethod
    def describe(self, state: S, action: Action) -> str:
        """``action`` in plain words, given the state it was applied to (for the play-by-play)."""

    def stats(self, state: S) -> list[dict[str, Any]]:
        """Per-player statistics beyond the score (PigzUp!'s reaction times); none by default."""
        return []

    def legal(self, state: S, action: Action) -> RuleViolation | None:
        """Why ``action`` would be refused, or ``None`` if it is legal."""
        try:
            self.apply(state, action)
        except RuleViolation as violation:
            return violation
        return None
