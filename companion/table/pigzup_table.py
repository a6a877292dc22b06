"""A PigzUp! table at work: the camera's flips, the pads, the buttons and the judge, around one session.

Every input goes into one queue and one thread handles them in order, so the judge needs no locks and the
session is only ever written from here (and by the referee, whose changes arrive here as a notification).
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from companion.games.base import RuleViolation
from companion.games.pigzup.actions import Flip
from companion.games.pigzup.state import PigzState
from companion.table.observations import ButtonPress, PadReading, pile_label
from companion.table.pigzup_judge import JudgeSettings, MatchJudge, Notice, Output, Verdict
from companion.table.session import TableSession

log = logging.getLogger(__name__)


class Announcer(Protocol):
    """Lights and sounds at the table (LEDs per seat, the buzzer): implemented by the devices layer."""

    def announce(self, kind: str, seats: tuple[int, ...]) -> None: ...


@dataclass(frozen=True)
class CardFlipped:
    """The camera saw a card come to rest face up in a zone (``seat-N`` for a player's pile)."""

    zone: str
    face: str
    t: float


@dataclass(frozen=True)
class _SessionChanged:
    t: float


@dataclass(frozen=True)
class _Stop:
    pass


class PigzUpTable:
    """Turns observations into actions and verdicts for the session's current PigzUp! game."""

    def __init__(
        self,
        session: TableSession,
        judge: JudgeSettings,
        seat_of_zone: Callable[[str, int], int | None],
        *,
        announcer: Announcer | None = None,
        traces: Path | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.session = session
        self.settings = judge
        self.seat_of_zone = seat_of_zone  # (zone name, number of players) -> seat, from the mat's layout
        self.announcer = announcer
        self.on_call: Callable[[tuple[int, ...]], None] | None = None  # e.g. tare the racers' pads
        self.traces = traces
        self.clock = clock
        self.judge: MatchJudge | None = None
        self.notices: deque[Notice] = deque(maxlen=8)
        self.last_verdict: Verdict | None = None
        self.verdicts: list[Verdict] = []
        self._match: tuple[int | None, int] | None = None  # (game id, match number) of the race called last
        self._notices_seen = 0
        self._shown: tuple[Any, ...] = ()
        self._shown_at = 0.0
        self._inbox: queue.Queue[Any] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._unsubscribe = session.subscribe(lambda _snapshot: self._inbox.put(_SessionChanged(self.clock())))
        session.add_view("match", self.view)

    # ------------------------------------------------------------------------------------ inputs (any thread)
    def card_flipped(self, zone: str, face: str, t: float | None = None) -> None:
        self._inbox.put(CardFlipped(zone, face, self.clock() if t is None else t))

    def pad(self, reading: PadReading) -> None:
        self._inbox.put(reading)

    def press(self, press: ButtonPress) -> None:
        self._inbox.put(press)

    # ------------------------------------------------------------------------------------ the loop
    def start(self) -> PigzUpTable:
        self._inbox.put(_SessionChanged(self.clock()))  # pick up a game already in play (a restart)
        self._thread = threading.Thread(target=self._run, name="pigzup-table", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._unsubscribe()
        if self._thread is not None:
            self._inbox.put(_Stop())
            self._thread.join(timeout=5)
            self._thread = None

    def drain(self) -> None:
        """Handle everything queued so far on the calling thread (tests and single-threaded tools)."""
        while True:
            try:
                item = self._inbox.get_nowait()
            except queue.Empty:
                self._refresh_view()
                return
            self.handle(item)

    def _run(self) -> None:
        while True:
            try:
                item = self._inbox.get(timeout=0.1)
            except queue.Empty:
                item = None
            if isinstance(item, _Stop):
                return
            try:
                if item is not None:
                    self.handle(item)
                if self.judge is not None:
                    self._outputs(self.judge.tick(self.clock()))
                self._refresh_view()
            except Exception:
                log.exception("the PigzUp! table loop failed on %r; carrying on", item)

    def handle(self, item: Any) -> None:
        if isinstance(item, _SessionChanged):
            self._sync_judge(item.t)  # only the session starts or settles a race: pad readings need no lock
        elif isinstance(item, CardFlipped):
            self._flip(item)
        elif isinstance(item, PadReading) and self.judge is not None:
            self._outputs(self.judge.reading(item))
        elif isinstance(item, ButtonPress) and self.judge is not None:
            self._outputs(self.judge.press(item))

    # ------------------------------------------------------------------------------------ decisions
    def _state(self) -> PigzState | None:
        state = self.session.state
        return state if isinstance(state, PigzState) else None

    def _sync_judge(self, t: float) -> None:
        """Keep the judge on the session's race: a new match is called, one settled elsewhere is dropped."""
        game_id, status, state = self.session.current()
        if not isinstance(state, PigzState) or status != "playing":
            self.judge = None
            return
        if self.judge is None or self.judge.players != state.players:
            self.judge = MatchJudge(self.settings, state.players)
        race, match = state.race, (game_id, len(state.results))
        if race is None:
            if self.judge.race is not None:
                self.judge.cancel(t)  # the referee settled it
            return
        if self._match != match:
            self.judge.cancel(t)  # a race left open in an abandoned game gives way
            self._match = match
            if self.on_call is not None:
                self.on_call(race.racers)
            self._outputs(self.judge.call(race.racers, race.piggies, t))

    def _flip(self, seen: CardFlipped) -> None:
        state = self._state()
        seat = self.seat_of_zone(seen.zone, len(state.players)) if state else None
        if seat is None:
            return  # only the players' own piles matter in PigzUp!
        result = self.session.submit(Flip(seat, seen.face), source="camera")
        if isinstance(result, RuleViolation):
            log.info("camera flip refused: %s", result.message)
        self._sync_judge(seen.t)

    def _outputs(self, outputs: list[Output]) -> None:
        for output in outputs:
            if isinstance(output, Notice):
                self.notices.append(output)
                self._notices_seen += 1
                self._announce(output.kind, output.seats)
            else:
                self._verdict(output)

    def _verdict(self, verdict: Verdict) -> None:
        """Lights first (the players are waiting), then the log, then the match's trace file."""
        self.last_verdict = verdict
        self.verdicts.append(verdict)
        if verdict.referee_needed:
            self._announce("referee", ())
        else:
            won = verdict.winner is not None
            self._announce("winner" if won else "void", (verdict.winner,) if verdict.winner is not None else ())
            result = self.session.submit(verdict.action(), source="judge")
            if isinstance(result, RuleViolation):
                log.warning("the judge's verdict was refused: %s", result.message)
        self._save_trace()

    def _announce(self, kind: str, seats: tuple[int, ...]) -> None:
        if self.announcer is not None:
            self.announcer.announce(kind, seats)

    def _save_trace(self) -> None:
        if self.traces is None or self.judge is None:
            return
        self.traces.mkdir(parents=True, exist_ok=True)
        assert self._match is not None
        game_id, number = self._match
        path = self.traces / f"game-{game_id}-match-{number}.jsonl"
        path.write_text("".join(json.dumps(e) + "\n" for e in self.judge.trace), encoding="utf-8")

    # ------------------------------------------------------------------------------------ view
    def _refresh_view(self, countdown_s: float = 0.25) -> None:
        """Push the live match to the status page when it changed, and a few times a second during a hold."""
        judge = self.judge
        race = judge.race if judge is not None else None
        pads = tuple(judge.pads.get(seat) for seat in race.racers) if judge is not None and race else ()
        key = (id(race), pads, race.holder if race else None, len(self.verdicts), self._notices_seen)
        now = self.clock()
        if key != self._shown or (race is not None and race.holder is not None and now - self._shown_at >= countdown_s):
            self._shown, self._shown_at = key, now
            self.session.refresh()

    def view(self) -> dict[str, Any]:
        """The live match for the status page: who races, the pads, the hold countdown, the last verdict."""
        state, judge = self._state(), self.judge
        view: dict[str, Any] = {
            "notices": [n.text for n in self.notices],
            "last_verdict": self.last_verdict.to_json() if self.last_verdict else None,
            "stats": self.session.game.ruleset.stats(state) if state and self.session.game else [],
            "race": None,
        }
        if state is None or judge is None or judge.race is None:
            return view
        race = judge.race
        pads = []
        for seat in race.racers:
            pile, count = judge.pads.get(seat, (None, 0))
            pads.append({"seat": seat, "name": state.players[seat],
                         "pile": pile_label(pile, count) if pile else "no reading", "count": count})
        holding = None
        if race.holder is not None:
            holding = {"seat": race.holder, "name": state.players[race.holder],
                       "remaining_s": round(max(0.0, race.deadline - self.clock()), 2)}
        view["race"] = {"racers": [state.players[s] for s in race.racers], "piggies": race.piggies,
                        "style": state.style.value if state.style else None, "pads": pads, "holding": holding}
        return view
