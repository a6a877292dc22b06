"""The live table: one loop for every game, turning what the camera and the devices see into moves.

Every input (a camera frame's observations, a pad reading, a button press, a change of the session by anyone)
goes into one queue and one thread handles them in order. The game being played decides what an observation means,
through its *table adapter* (``companion.table.adapters``); the rules decide whether it is legal:

- exactly one legal reading: it is submitted;
- none: the table says what the rules object to (page, the seat's LED and buzzer, the voice) and records
  nothing until the cards are put right or the referee decides;
- several: the table asks (a prompt on the phones) and waits.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from companion.games.actions import Action
from companion.games.base import RuleViolation
from companion.table.adapters import TableAdapter, adapter_for
from companion.table.prompts import Option
from companion.table.race_files import TraceRetention
from companion.table.session import TableSession

log = logging.getLogger(__name__)

TICK_S = 0.1  # how often the adapter hears the clock when nothing else happens (a PigzUp! hold)


class Announcer(Protocol):
    """Lights and sounds at the table (LEDs per seat, the buzzer): implemented by the devices layer."""

    def announce(self, kind: str, seats: tuple[int, ...]) -> None: ...


class Speaker(Protocol):
    """A voice that says short sentences without delaying anyone (``companion.devices.speech``)."""

    def say(self, text: str) -> None: ...


@dataclass(frozen=True)
class Objection:
    """What the rules object to in what the camera saw: shown until the cards are put right."""

    seat: int | None
    zone: str
    face: str
    message: str


@dataclass(frozen=True)
class _SessionChanged:
    t: float


@dataclass(frozen=True)
class _Observed:
    observation: Any
    t: float


@dataclass(frozen=True)
class _Frame:
    observations: tuple[Any, ...]
    t: float


@dataclass(frozen=True)
class _Stop:
    pass


class LiveTable:
    """The session's current game at the table, whatever the game: its adapter gets every observation."""

    def __init__(
        self,
        session: TableSession,
        seat_of_zone: Callable[[str, int], int | None],
        *,
        settings: Mapping[str, Any] | None = None,
        announcer: Announcer | None = None,
        speaker: Speaker | None = None,
        traces: Path | None = None,
        keep_traces: TraceRetention | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.session = session
        self.seat_of_zone = seat_of_zone  # (zone name, number of players) -> seat, from the mat or drawn zones
        self.settings = dict(settings or {})  # per-game table settings by game name (PigzUp!'s judge), and the
        # camera's under ``camera`` (how many frames it takes to report a card gone)
        self.announcer = announcer
        self.speaker = speaker
        self.traces = traces
        self.keep_traces = keep_traces or TraceRetention()  # pruned to after each race's trace is written
        self.clock = clock
        self.on_call: Callable[[tuple[int, ...]], None] | None = None  # e.g. tare the racers' pads
        self.on_game: Callable[[str | None, str | None], None] | None = None  # another game (and variant) is
        # played: e.g. switch decks, or the mat's layout
        self.trace_context: Callable[[], dict[str, Any]] | None = None  # versions and calibration for a trace
        self.adapter: TableAdapter = TableAdapter(self)
        self.objection: Objection | None = None
        self.said: deque[str] = deque(maxlen=6)
        self._game_id: int | None = None
        self._shown: tuple[Any, ...] = ()
        self._inbox: queue.Queue[Any] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._unsubscribe = session.subscribe(lambda _snapshot: self._inbox.put(_SessionChanged(self.clock())))
        self._inbox.put(_SessionChanged(self.clock()))  # pick up a game already in play (a restart)
        session.add_view("table", self.view)

    # ------------------------------------------------------------------------------------ inputs (any thread)
    def observe(self, observation: Any, t: float | None = None) -> None:
        """A camera observation, a pad reading or a button press, at host time ``t`` (now if not given)."""
        self._inbox.put(_Observed(observation, self.clock() if t is None else t))

    def observe_frame(self, observations: Sequence[Any], t: float | None = None) -> None:
        """The observations one camera frame completed: one input, so the adapter reads them together."""
        self._inbox.put(_Frame(tuple(observations), self.clock() if t is None else t))

    # ------------------------------------------------------------------------------------ the loop
    def start(self) -> LiveTable:
        self._thread = threading.Thread(target=self._run, name="live-table", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._unsubscribe()
        if self._thread is not None:
            self._inbox.put(_Stop())
            self._thread.join(timeout=5)
            self._thread = None

    def alive(self) -> bool:
        """Whether the table's loop is running (the service's watchdog asks)."""
        return self._thread is not None and self._thread.is_alive()

    def drain(self) -> None:
        """Handle everything queued so far on the calling thread (tests and single-threaded tools)."""
        while True:
            try:
                item = self._inbox.get_nowait()
            except queue.Empty:
                self.contained("the clock", lambda: self.adapter.tick(self.clock()))
                if self._inbox.empty():  # the clock may have moved the game on: handle what that queued
                    self._refresh_view()
                    return
                continue
            self._handle(item)

    def _run(self) -> None:
        while True:
            try:
                item = self._inbox.get(timeout=TICK_S)
            except queue.Empty:
                item = None
            if isinstance(item, _Stop):
                return
            if item is not None:
                self._handle(item)
            self.contained("the clock", lambda: self.adapter.tick(self.clock()))
            self._refresh_view()

    def _handle(self, item: Any) -> None:
        if isinstance(item, _SessionChanged):
            self.contained("a change of the game", lambda: self._changed(item.t))
        elif isinstance(item, _Observed):
            self.contained(repr(item.observation), lambda: self.adapter.observe(item.observation, item.t))
        elif isinstance(item, _Frame):
            self.contained(repr(item.observations), lambda: self.adapter.observe_frame(item.observations, item.t))

    def contained(self, what: str, work: Callable[[], None]) -> None:
        """An adapter that fails on one input is reported and the table goes on with the next."""
        try:
            work()
        except Exception as exc:
            log.exception("the table could not handle %s; carrying on", what)
            self.said.append(f"The table could not handle {what}: {exc}. The referee may enter it by hand.")

    def _changed(self, t: float) -> None:
        """A new game gets its own adapter; every change is passed on to the adapter of the game in play."""
        game_id, _status, _state = self.session.current()
        game = self.session.game
        if game_id != self._game_id:
            self.adapter.close()
            self._game_id, self.objection = game_id, None
            self.said.clear()  # a new game starts clean: nothing said about the last one
            name = game.ruleset.name if game else None
            self.adapter = adapter_for(name)(self)
            if self.on_game is not None:
                self.on_game(name, game.setup.variant if game else None)
        self.adapter.changed(t)

    # ------------------------------------------------------------------------------------ for adapters
    def seat_at(self, zone: str) -> int | None:
        """The seat of the player sitting at ``zone``: as the referee placed them at the start, else the mat's
        usual plan for that many players; ``None`` for the centre, an empty place or the table."""
        game = self.session.game
        if game is None:
            return None
        if game.setup.seats:
            return game.setup.seats.index(zone) if zone in game.setup.seats else None
        return self.seat_of_zone(zone, len(game.setup.players))

    def propose(self, readings: Sequence[Action], *, source: str, zone: str, face: str, seat: int | None,
                question: str) -> None:
        """What an observation could mean, as actions: submit the one legal reading, object to none, or ask."""
        ruleset, state = self._ruleset_and_state()
        if ruleset is None:
            return
        verdicts = [(action, ruleset.legal(state, action)) for action in readings]
        legal = [action for action, refusal in verdicts if refusal is None]
        if len(legal) == 1:
            result = self.session.submit(legal[0], source=source)
            if not isinstance(result, RuleViolation):
                self.objection = None
            return
        if not legal:
            self.object(Objection(seat, zone, face, self._objection_message(ruleset, state, verdicts)))
            return
        self.ask(f"{zone}:{face}", question, [Option(ruleset.describe(state, a), a) for a in legal], seat=seat)

    @staticmethod
    def _objection_message(ruleset: Any, state: Any, verdicts: list[tuple[Action, RuleViolation | None]]) -> str:
        """What the camera saw, then why the rules refuse it ("Cai played a 9. It is Ben's turn, not Cai's.")."""
        refused = next(((a, r) for a, r in verdicts if r is not None), None)
        if refused is None:
            return "The rules allow nothing here."
        action, refusal = refused
        try:
            seen = ruleset.describe(state, action)
        except Exception:  # a description written for legal moves may not fit this one: the reason is enough
            log.exception("describing a refused %s failed", action.type)
            return refusal.message
        return f"{seen} {refusal.message}"

    def object(self, objection: Objection) -> None:
        """Tell the table what the rules object to (once); nothing is recorded."""
        if objection == self.objection:
            return
        self.objection = objection
        self.announce("refused", () if objection.seat is None else (objection.seat,))
        self.say(objection.message)

    def withdraw_objection(self, zone: str, face: str | None = None) -> None:
        """The card objected to left its zone: the cards are put right."""
        if self.objection and self.objection.zone == zone and face in (None, self.objection.face):
            self.objection = None

    def ask(self, about: str, question: str, options: Sequence[Option], *, seat: int | None) -> None:
        self.session.prompts.ask(about, question, options, seat=seat)

    def announce(self, kind: str, seats: tuple[int, ...]) -> None:
        if self.announcer is not None:
            self.contained("the lights", lambda: self.announcer.announce(kind, seats))  # type: ignore[union-attr]

    def say(self, text: str) -> None:
        """A short sentence for the table: on the status page, and spoken where a voice is configured."""
        self.said.append(text)
        if self.speaker is not None:
            self.contained("the voice", lambda: self.speaker.say(text))  # type: ignore[union-attr]

    def _ruleset_and_state(self) -> tuple[Any, Any]:
        game_id, status, state = self.session.current()
        game = self.session.game
        if status != "playing" or game is None or game_id != self._game_id:
            return None, None
        return game.ruleset, state

    # ------------------------------------------------------------------------------------ view
    def _refresh_view(self) -> None:
        """Push the table's live view to the status page when it changed (or when the adapter says so)."""
        key = (self.objection, tuple(self.said), self.adapter.live_key(self.clock()))
        if key != self._shown:
            self._shown = key
            self.session.refresh()

    def view(self) -> dict[str, Any]:
        """The live table for the status page: what the rules object to, what was said, the game's own view."""
        objection = self.objection
        return {
            "objection": None if objection is None else {"seat": objection.seat, "zone": objection.zone,
                                                         "message": objection.message},
            "said": list(self.said),
            **self.adapter.view(),
        }
