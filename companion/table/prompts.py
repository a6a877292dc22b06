"""The table asks instead of guessing: open questions put to the players' phones, and their answers.

A prompt offers the legal readings of something the cards alone do not settle (a 1's value, a 6's target, a
card the camera cannot name). Each option is an action; answering submits it through the session like any
other move, with the prompt named as its source. A prompt that is a player's own choice (``seat`` set) may be
answered by anyone at the table without the PIN; every other prompt is the referee's. Every prompt is
recorded in the log's ``prompts`` table when it is asked, answered or withdrawn.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.games.actions import Action
from companion.games.base import IllegalMove, RuleViolation

if TYPE_CHECKING:
    from companion.table.log import Event
    from companion.table.session import TableSession


@dataclass(frozen=True)
class Option:
    """One possible answer: the words on the button, and the move it records."""

    label: str
    action: Action


@dataclass(frozen=True)
class Prompt:
    id: int
    about: str  # what it settles, e.g. "six-target" or "unreadable:centre": asking again replaces it
    question: str
    options: tuple[Option, ...]
    seat: int | None  # whose own choice it is (answered without the PIN); None: the referee decides

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "about": self.about,
            "question": self.question,
            "seat": self.seat,
            "options": [{"label": o.label, "action": o.action.to_json()} for o in self.options],
        }


class PromptBoard:
    """The open prompts of one table's current game. Thread-safe: the table asks, the phones answer."""

    def __init__(self, session: TableSession, clock: Callable[[], float]) -> None:
        self.session = session
        self._clock = clock
        self._lock = threading.Lock()
        self._open: dict[int, Prompt] = {}
        self._ids = itertools.count(1)

    def ask(self, about: str, question: str, options: Sequence[Option], *, seat: int | None) -> Prompt:
        """Put a question to the table; the same question already open is left as it is."""
        with self._lock:
            for prompt in self._open.values():
                if prompt.about == about and prompt.question == question and prompt.options == tuple(options):
                    return prompt
            self._withdraw(lambda p: p.about == about, "asked again")
            prompt = Prompt(next(self._ids), about, question, tuple(options), seat)
            self._open[prompt.id] = prompt
            self._record(prompt.id, "asked", prompt.to_json())
        self.session.refresh()
        return prompt

    def withdraw(self, about: str | None = None, reason: str = "no longer needed") -> None:
        """Close the open prompts about ``about`` (all of them with ``None``) without an answer."""
        with self._lock:
            closed = self._withdraw(lambda p: about is None or p.about == about, reason)
        if closed:
            self.session.refresh()

    def answer(self, prompt_id: int, option: int, *, by: str, referee: bool) -> Event | RuleViolation:
        """Record the chosen option's move; a player may answer only their own choice, the referee any.

        The prompt is taken off the board before the move is submitted (never holding the board's lock while
        the session works: the session reads the board for its snapshots), and put back if the move is refused.
        """
        with self._lock:
            prompt = self._open.get(prompt_id)
            if prompt is None:
                return IllegalMove("no-prompt", "That question has already been answered or is no longer asked.")
            if prompt.seat is None and not referee:
                return IllegalMove("referee-only", "Only the referee can answer this: enter the referee PIN.")
            if not 0 <= option < len(prompt.options):
                return IllegalMove("no-option", f"Choose one of the {len(prompt.options)} answers offered.")
            del self._open[prompt.id]
        chosen = prompt.options[option]
        result = self.session.submit(chosen.action, source=f"prompt {prompt.id}: {by}")
        with self._lock:
            if isinstance(result, RuleViolation):
                self._open[prompt.id] = prompt
                return result
            self._record(prompt.id, "answered", {"option": option, "label": chosen.label, "by": by,
                                                 "seq": result.seq})
        self.session.refresh()
        return result

    def open(self) -> list[Prompt]:
        with self._lock:
            return list(self._open.values())

    def view(self) -> list[dict[str, Any]]:
        return [p.to_json() for p in self.open()]

    def _withdraw(self, which: Callable[[Prompt], bool], reason: str) -> int:
        closed = [p for p in self._open.values() if which(p)]
        for prompt in closed:
            del self._open[prompt.id]
            self._record(prompt.id, "withdrawn", {"reason": reason})
        return len(closed)

    def _record(self, prompt_id: int, kind: str, payload: dict[str, Any]) -> None:
        game_id = self.session.game_id
        if game_id is not None:
            self.session.log.record_prompt(game_id, prompt_id, self._clock(), kind, payload)
