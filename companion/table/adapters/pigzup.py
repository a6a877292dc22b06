"""PigzUp!'s table: the camera's flips become moves, a called match starts the judge on the pads and the
buttons, and the judge's verdict is recorded (a pad at fault is the referee's call, never a verdict)."""

from __future__ import annotations

import logging
from collections import deque
from typing import TYPE_CHECKING, Any

from companion.games.base import RuleViolation
from companion.games.pigzup.actions import Flip
from companion.games.pigzup.state import PigzState
from companion.table.adapters.base import TableAdapter
from companion.table.observations import (
    ButtonEdge,
    ButtonPress,
    CardSeen,
    PadReading,
    PadsTared,
    PadVibration,
    PileState,
    pile_label,
)
from companion.table.pigzup_judge import JudgeSettings, MatchJudge, Notice, Output, Verdict
from companion.table.race_files import prune_traces, trace_path, write_trace

if TYPE_CHECKING:
    from companion.table.live import LiveTable

log = logging.getLogger(__name__)

COUNTDOWN_S = 0.25  # how often the hold countdown is pushed to the status page
TRAIL = 40  # the readings per pad the status page draws as a sparkline during a race


class PigzUpAdapter(TableAdapter):
    game = "pigzup"

    def __init__(self, table: LiveTable) -> None:
        super().__init__(table)
        self.settings: JudgeSettings = table.settings.get(self.game, JudgeSettings())
        self.judge: MatchJudge | None = None
        self.notices: deque[Notice] = deque(maxlen=8)
        self.last_verdict: Verdict | None = None
        self.verdicts: list[Verdict] = []
        self._match: tuple[int | None, int] | None = None  # (game id, match number) of the race called last
        self._traced: tuple[int | None, int] | None = None  # the last verdict's race, once its trace is written
        self._notices_seen = 0
        self._synced = False  # a race already in play at the first look was resumed after a restart
        self._waiting_for_pads: tuple[int, ...] = ()  # a resumed race's racers whose pads have not spoken yet
        self.trails: dict[int, deque[dict[str, float]]] = {}  # per seat, the race's latest counts (and grams)

    # ------------------------------------------------------------------------------------ inputs
    def observe(self, observation: Any, t: float) -> None:
        if isinstance(observation, PadReading):
            self._trail(observation)
        if isinstance(observation, CardSeen):
            self._flip(observation, t)
        elif isinstance(observation, PadReading) and self._waiting_for_pads:
            self._resume_when_pads_answer(observation, t)
        elif isinstance(observation, PadReading) and self.judge is not None:
            self._outputs(self.judge.reading(observation))
        elif isinstance(observation, ButtonPress) and self.judge is not None:
            self._outputs(self.judge.press(observation))
        elif self.judge is not None:
            self._evidence(observation)

    def _evidence(self, observation: Any) -> None:
        """What the race's trace keeps beside the judge's inputs, for a referee checking the verdict."""
        judge = self.judge
        assert judge is not None
        if isinstance(observation, PadVibration):
            judge.note({"kind": "vibration", "t": observation.t, "seat": observation.seat,
                        "level": observation.level})
        elif isinstance(observation, ButtonEdge):
            judge.note({"kind": "edge", "t": observation.t, "seat": observation.seat,
                        "down": observation.down, "taken": observation.taken})
        elif isinstance(observation, PadsTared):
            zeros = {str(seat): round(zero, 1) for seat, zero in observation.zeros.items()}
            judge.note({"kind": "tare", "t": observation.t, "zeros": zeros, "refused": observation.refused})

    def changed(self, t: float) -> None:
        """Keep the judge on the session's race: a new match is called, one settled elsewhere is dropped."""
        game_id, status, state = self.table.session.current()
        resumed, self._synced = not self._synced, True
        if not isinstance(state, PigzState) or status != "playing":
            self._cancel(t)  # the game ended with a race open: the referee's, and its trace is kept
            self.judge = None
            return
        if self.judge is None or self.judge.players != state.players:
            self.judge = MatchJudge(self.settings, state.players)
        race, match = state.race, (game_id, len(state.results))
        if race is None or self._match != match:
            self._waiting_for_pads = ()
        if race is None:
            self._cancel(t)  # the referee settled it
            return
        if self._match != match:
            self._cancel(t)  # a race left open in an abandoned game gives way
            self._match = match
            self.trails = {}
            if resumed:
                # A race resumed after a restart is judged once its pads answer again (until then they read
                # as faults), and never tared: its piles may stand on the pads.
                self._waiting_for_pads = race.racers
                return
            if self.table.on_call is not None:
                self.table.on_call(race.racers)
            names = " and ".join(state.players[seat] for seat in race.racers)
            self.table.say(f"Match! {names}, {race.piggies} piggies.")
            self._call(race.racers, race.piggies, t)

    def close(self) -> None:
        """Another game starts: a race still open is the referee's, and its trace is kept."""
        self._cancel(self.table.clock())

    def _cancel(self, t: float) -> None:
        if self.judge is not None and self.judge.cancel(t):
            self._save_trace()

    def _call(self, racers: tuple[int, int], piggies: int, t: float) -> None:
        """Start judging a race, its trace opening with the instruments' context (versions, calibration)."""
        assert self.judge is not None
        outputs = self.judge.call(racers, piggies, t)
        if self.table.trace_context is not None:
            self.judge.note({"kind": "context", "t": t, **self.table.trace_context()})
        self._outputs(outputs)

    def _resume_when_pads_answer(self, reading: PadReading, t: float) -> None:
        """Call the resumed race once every racer's pad sends a reading that is not a fault."""
        if reading.state is not PileState.FAULT:
            self._waiting_for_pads = tuple(seat for seat in self._waiting_for_pads if seat != reading.seat)
        state = self._state()
        if not self._waiting_for_pads and self.judge is not None and state is not None and state.race is not None:
            self._call(state.race.racers, state.race.piggies, t)

    def _trail(self, reading: PadReading) -> None:
        """Keep the race's pads' latest readings for the sparkline (a new race starts new trails)."""
        if self.judge is None or self.judge.race is None or reading.seat not in self.judge.race.racers:
            return
        point = {"count": reading.count}
        grams = getattr(reading, "grams", None)  # sent by pads that report their weight
        if isinstance(grams, int | float):
            point["grams"] = round(grams, 1)
        self.trails.setdefault(reading.seat, deque(maxlen=TRAIL)).append(point)

    def tick(self, t: float) -> None:
        if self.judge is not None:
            self._outputs(self.judge.tick(t))

    # ------------------------------------------------------------------------------------ decisions
    def _state(self) -> PigzState | None:
        state = self.table.session.state
        return state if isinstance(state, PigzState) else None

    def _flip(self, seen: CardSeen, t: float) -> None:
        seat = self.table.seat_at(seen.zone) if self._state() else None
        if seat is None:
            return  # only the players' own piles matter in PigzUp!
        result = self.table.session.submit(Flip(seat, seen.face), source="camera")
        if isinstance(result, RuleViolation):
            log.info("camera flip refused: %s", result.message)
        self.changed(t)

    def _outputs(self, outputs: list[Output]) -> None:
        for output in outputs:
            if isinstance(output, Notice):
                self.notices.append(output)
                self._notices_seen += 1
                self.table.announce(output.kind, output.seats)
            else:
                self._verdict(output)

    def _verdict(self, verdict: Verdict) -> None:
        """Lights first (the players are waiting), then the log, then the match's trace file."""
        self.last_verdict = verdict
        self.verdicts.append(verdict)
        if verdict.referee_needed:
            self.table.announce("referee", ())
        else:
            won = verdict.winner is not None
            self.table.announce("winner" if won else "void", (verdict.winner,) if verdict.winner is not None else ())
            result = self.table.session.submit(verdict.action(), source="judge")
            if isinstance(result, RuleViolation):
                log.warning("the judge's verdict was refused: %s", result.message)
        self.table.say(verdict.reason)
        self._traced = self._match if self._save_trace() else None

    def _save_trace(self) -> bool:
        """One write per race, when it ends (SD-card care), and atomic: a half-written trace never replaces one.
        Whether it was written (a table without a ``[table] traces`` folder keeps none)."""
        traces = self.table.traces
        if traces is None or self.judge is None or self._match is None:
            return False
        game_id, number = self._match
        write_trace(trace_path(traces, game_id, number), self.judge.trace)
        prune_traces(traces, self.table.keep_traces, playing=game_id)
        return True

    # ------------------------------------------------------------------------------------ view
    def live_key(self, t: float) -> tuple[Any, ...]:
        """The race's pads, holder and verdicts; a few times a second during a hold, for the countdown."""
        judge = self.judge
        race = judge.race if judge is not None else None
        pads = tuple(judge.pads.get(seat) for seat in race.racers) if judge is not None and race else ()
        countdown = int(t / COUNTDOWN_S) if race is not None and race.holder is not None else None
        return (id(race), pads, race.holder if race else None, len(self.verdicts), self._notices_seen, countdown,
                self._traced)

    def view(self) -> dict[str, Any]:
        """The live match for the status page: who races, the pads, the hold countdown, the last verdict."""
        state, judge = self._state(), self.judge
        session = self.table.session
        match: dict[str, Any] = {
            "notices": [n.text for n in self.notices],
            "last_verdict": self.last_verdict.to_json() if self.last_verdict else None,
            # The last verdict's race once its trace is on the card: the page links the race's picture.
            "traced": None if self._traced is None else {"game_id": self._traced[0], "match": self._traced[1]},
            "stats": session.game.ruleset.stats(state) if state and session.game else [],
            "race": None,
        }
        # Each player's face-up pile as its top card: the card just flipped, drawn as a card.
        piles = [{"label": f"{name}'s pile", "cards": [faceup[-1]]}
                 for name, faceup in zip(state.players, state.faceup, strict=True) if faceup] if state else []
        if state is None or judge is None or judge.race is None:
            return {"match": match, "piles": piles}
        race = judge.race
        pads = []
        for seat in race.racers:
            pile, count = judge.pads.get(seat, (None, 0))
            pads.append({"seat": seat, "name": state.players[seat],
                         "pile": pile_label(pile, count) if pile else "no reading", "count": count,
                         "state": pile.value if pile else None, "trail": list(self.trails.get(seat, ()))})
        holding = None
        if race.holder is not None:
            holding = {"seat": race.holder, "name": state.players[race.holder],
                       "remaining_s": round(max(0.0, race.deadline - self.table.clock()), 2),
                       "hold_s": self.settings.hold_seconds}
        match["race"] = {"racers": [state.players[s] for s in race.racers], "piggies": race.piggies,
                         "style": state.style.value if state.style else None, "pads": pads, "holding": holding}
        return {"match": match, "piles": piles}
