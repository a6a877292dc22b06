"""The table session: the one writer of a table's games.

Cameras, pads, buttons, bots and the web page all ``submit``; the session asks the ruleset, appends the event,
records any chance event (a deal) that follows, and tells subscribers. A refused submission returns the
``RuleViolation`` and changes nothing.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from companion.games.actions import Action, action_schema
from companion.games.base import DecisionRequired, GameSetup, IllegalMove, RuleViolation
from companion.games.registry import get_game
from companion.table.log import Event, EventLog
from companion.table.prompts import PromptBoard
from companion.table.replay import Folded, Move, fold, live_events

log = logging.getLogger(__name__)

Snapshot = dict[str, Any]
RECENT_MOVES = 20


class WouldUndo(DecisionRequired):
    """An overrule that the later moves no longer fit: ``moves`` (seq and words) would be undone with it."""

    def __init__(self, moves: list[dict[str, Any]]) -> None:
        listed = "; ".join(f"#{m['seq']} {m['text'].rstrip('.')}" for m in moves)
        super().__init__("overrule-undoes", f"The rules no longer allow what followed: overruling this undoes "
                         f"{len(moves)} later {'move' if len(moves) == 1 else 'moves'} ({listed}). Confirm to "
                         "overrule anyway.")
        self.moves = moves


class TableSession:
    """Holds the current game of one table: after a restart, the latest game in the log."""

    def __init__(
        self,
        log: EventLog,
        *,
        seed: int | None = None,
        clock: Callable[[], float] = time.time,
        auto_chance: bool = True,
    ) -> None:
        self.log = log
        self._clock = clock
        self._rng = random.Random(seed)
        self._auto_chance = auto_chance
        self._lock = threading.RLock()
        self._subscribers: list[Callable[[Snapshot], None]] = []
        self._refusals: deque[dict[str, str]] = deque(maxlen=5)
        self._devices: dict[str, Callable[[], dict[str, Any]]] = {}
        self._views: dict[str, Callable[[], dict[str, Any]]] = {}
        self._events: list[Event] = []
        self._game: Folded | None = None
        # What the last undo revoked: re-entering that move replays the same deals instead of shuffling anew.
        self._redo: list[dict[str, Any]] = []
        self._summary: tuple[int, str, tuple[str, ...]] | None = None  # the games row as last written
        self.prompts = PromptBoard(self, clock)  # the questions the table has put to the players
        latest = log.latest_game()  # the table comes back exactly where it was, finished or not
        if latest is not None:
            self._resume(latest)

    def _resume(self, game_id: int) -> None:
        """Pick up the stored game; one that no longer replays (a game or deck this version lacks) is left in the
        log untouched, and the table starts with no game and a warning saying why."""
        events = self.log.events(game_id)
        try:
            self._game = fold(events)
        except (RuleViolation, ValueError, KeyError) as exc:
            reason = exc.message if isinstance(exc, RuleViolation) else str(exc)
            log.error("game %s cannot be replayed (%s); the table starts without it", game_id, reason)
            self._refusals.append({"kind": "resume", "code": "cannot-replay", "source": "log",
                                   "message": f"Game {game_id} is kept in the log but cannot be resumed: {reason}"})
            return
        self._events = events
        if self._status() == "playing":
            self._run_chance()  # a power cut between a move and the deal it calls for: deal now
        self._sync_summary()  # a power cut may have come between the last event and its summary

    # ------------------------------------------------------------------------------------ queries
    @property
    def game_id(self) -> int | None:
        return self._events[0].game_id if self._events else None

    @property
    def state(self) -> Any:
        """The current game's state (read-only by convention: rulesets never mutate a state they are given)."""
        return self._game.state if self._game else None

    @property
    def game(self) -> Folded | None:
        return self._game

    def status(self) -> str:
        with self._lock:
            return self._status()

    def current(self) -> tuple[int | None, str, Any]:
        """The game's id, status and state read together (another thread may be starting a new game)."""
        with self._lock:
            return self.game_id, self._status(), self.state

    def _status(self) -> str:
        if self._game is None:
            return "idle"
        if self._game.ended is not None:
            return "abandoned"
        return "finished" if self._game.ruleset.outcome(self._game.state) else "playing"

    # ------------------------------------------------------------------------------------ commands
    def start_game(self, setup: GameSetup, source: str) -> int:
        """Start a new game (abandoning one still in play); raises ``RuleViolation`` for a bad setup."""
        with self._lock:
            ruleset = get_game(setup.game)
            state = ruleset.setup(setup)
            if self._status() == "playing":
                self.end_game(source, "A new game was started.")
            self.prompts.withdraw(reason="a new game was started")
            self._refusals.clear()  # the last game's refusals are no warning about this one
            start = self.log.create_game(setup, self._clock(), source)
            self._events = [start]
            self._redo = []
            self._game = Folded(ruleset, setup, state)
            self._run_chance()
            self._changed()
            return start.game_id

    def submit(self, action: Action | Mapping[str, Any] | str, source: str) -> Event | RuleViolation:
        """Apply and record ``action``; on refusal return the violation and leave everything as it was."""
        with self._lock:
            try:
                game = self._playing()
                decoded = game.ruleset.decode(action)
                new_state = game.ruleset.apply(game.state, decoded)
            except RuleViolation as violation:
                self._refusals.append({**violation.to_json(), "source": source})
                self._notify()  # the refusal shows as a warning; nothing was recorded
                return violation
            text = game.ruleset.describe(game.state, decoded)
            event = self._append(source, "action", decoded.to_json())
            game.state = new_state
            game.moves.append(Move(event, text))
            redone = self._redo[1:] if self._redo[:1] == [event.payload] else []
            self._redo = []
            self._run_chance(redone)
            self._changed()
            return event

    def undo(self, source: str) -> Event | RuleViolation:
        """Take back the last move (with the deals it caused), or the last ``end``; recorded, never deleted."""
        with self._lock:
            revokes = self._last_move()
            if isinstance(revokes, RuleViolation):
                return revokes
            revoked = {e.seq: e.payload for e in self._events if e.seq in revokes}
            self._redo = [revoked[seq] for seq in sorted(revoked)]
            event = self._append(source, "undo", {"type": "undo", "revokes": sorted(revokes)})
            self._game = fold(self._events)
            self._changed()
            return event

    def correct(self, action: Action | Mapping[str, Any] | str, source: str) -> Event | RuleViolation:
        """Replace the last move with ``action`` (the camera misread a card): an undo and the corrected move,
        both or neither. A finished game's final move can be corrected; an ended game must be reopened first."""
        with self._lock:
            revokes = self._last_move()
            if isinstance(revokes, RuleViolation):
                return revokes
            assert self._game is not None
            if self._game.ended is not None:
                return IllegalMove("ended", "This game was ended: undo the end first, then correct the move.")
            ruleset = self._game.ruleset
            before = fold(e for e in self._events if e.seq not in revokes)
            try:
                ruleset.apply(before.state, ruleset.decode(action))
            except RuleViolation as violation:
                return violation
            self.undo(source)
            self._redo = []  # a corrected move is a different move: its deals are new
            return self.submit(action, source)

    def overrule(self, seq: int, action: Action | Mapping[str, Any] | str, source: str, *,
                 confirm: bool = False) -> Event | RuleViolation:
        """Replace the earlier move ``seq`` (a verdict the referee overrules) with ``action``, and replay every live
        move after it. When the rules refuse one of them, it and all after it would be undone: that is a
        ``WouldUndo`` refusal naming them, unless ``confirm``. Recorded as one undo (``overrules``: ``seq``), the
        new move, then the later moves again with their own sources, so the log keeps what was first decided."""
        with self._lock:
            game = self._game
            if game is None:
                return IllegalMove("no-game", "No game has been started.")
            if game.ended is not None:
                return IllegalMove("ended", "This game was ended: undo the end first, then overrule the move.")
            live = live_events(self._events)
            target = next((e for e in live if e.seq == seq and e.kind == "action"), None)
            if target is None:
                return IllegalMove("no-such-move", f"Move #{seq} is not one of this game's moves (was it undone?).")
            if self._is_chance(target):
                return IllegalMove("chance-move", "A shuffle or a deal is not a decision to overrule.")
            ruleset = game.ruleset
            try:
                decoded = ruleset.decode(action)
                state = ruleset.apply(fold(e for e in self._events if e.seq < seq).state, decoded)
            except RuleViolation as violation:
                return violation
            later = [e for e in live if e.seq > seq]
            kept = 0
            for event in later:
                try:
                    state = ruleset.apply(state, ruleset.decode(event.payload))
                except RuleViolation:
                    break
                kept += 1
            texts = {m.event.seq: m.text for m in game.moves}
            dropped = [{"seq": e.seq, "text": texts.get(e.seq, e.payload.get("type", ""))} for e in later[kept:]]
            if dropped and not confirm:
                return WouldUndo(dropped)
            self._append(source, "undo", {"type": "undo", "revokes": [seq] + [e.seq for e in later],
                                          "overrules": seq})
            event = self._append(source, "action", decoded.to_json())
            for again in later[:kept]:
                self._append(again.source, "action", again.payload)
            self._redo = []
            self._game = fold(self._events)
            self._run_chance()
            self._changed()
            return event

    def end_game(self, source: str, reason: str = "Ended by the referee.") -> Event | RuleViolation:
        """Close the current game early; undo reopens it."""
        with self._lock:
            try:
                self._playing()
            except RuleViolation as violation:
                return violation
            event = self._append(source, "end", {"type": "end", "reason": reason})
            assert self._game is not None
            self._game.ended = event
            self._changed()
            return event

    def subscribe(self, callback: Callable[[Snapshot], None]) -> Callable[[], None]:
        """Call ``callback(snapshot)`` after every change; returns the function that unsubscribes."""
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

    def add_device(self, name: str, health: Callable[[], dict[str, Any]]) -> None:
        """Show a device's health (serial link, camera, buttons) in every snapshot."""
        with self._lock:
            self._devices[name] = health

    def add_view(self, name: str, view: Callable[[], dict[str, Any]]) -> None:
        """Show live data that changes between moves (a PigzUp! race) in every snapshot, under ``live``."""
        with self._lock:
            self._views[name] = view

    def refresh(self) -> None:
        """Tell subscribers that a live view changed (no event is recorded)."""
        with self._lock:
            self._notify()

    # ------------------------------------------------------------------------------------ views
    def snapshot(self) -> Snapshot:
        """Everything the status page shows, as JSON-ready data."""
        with self._lock:
            devices = {name: _health(name, check) for name, check in self._devices.items()}
            live = {name: _live(name, view) for name, view in self._views.items()}
            warnings = list(self._refusals)
            game = self._game
            if game is None:
                return {"seq": 0, "game_id": None, "status": "idle", "warnings": warnings, "devices": devices,
                        "live": live, "prompts": []}
            ruleset, setup = game.ruleset, game.setup
            outcome = ruleset.outcome(game.state)
            findings = [f.to_json() for f in ruleset.findings(game.state)]
            return {
                "seq": self._events[-1].seq,
                "game_id": self.game_id,
                "game": ruleset.name,
                "title": ruleset.title,
                "variant": setup.variant,
                "status": self._status(),
                "players": list(setup.players),
                "scoreboard": ruleset.scoreboard(game.state).to_json(),
                "recent": [
                    {"seq": m.event.seq, "ts": m.event.ts, "source": m.event.source, "text": m.text}
                    for m in game.moves[-RECENT_MOVES:]
                ],
                "warnings": findings + warnings,
                "outcome": outcome.to_json(setup.players) if outcome else None,
                "ended": game.ended.payload["reason"] if game.ended else None,
                "actions": [action_schema(cls) for cls in ruleset.action_types if not cls.chance],
                "stats": ruleset.stats(game.state),
                "devices": devices,
                "live": live,
                "prompts": self.prompts.view(),
            }

    # ------------------------------------------------------------------------------------ internals
    def _last_move(self) -> list[int] | RuleViolation:
        """The seqs an undo would revoke: the last live move with the chance events that followed it."""
        if self._game is None:
            return IllegalMove("no-game", "No game has been started.")
        revokes: list[int] = []
        for event in reversed(live_events(self._events)[1:]):
            revokes.append(event.seq)
            if not self._is_chance(event):
                return revokes
        return IllegalMove("nothing-to-undo", "Nothing has been played yet: there is nothing to undo.")

    def _playing(self) -> Folded:
        if self._game is None:
            raise IllegalMove("no-game", "No game is running: start one first.")
        status = self._status()
        if status != "playing":
            raise IllegalMove("game-over", f"This game is {status}: start a new one (or undo).")
        return self._game

    def _is_chance(self, event: Event) -> bool:
        assert self._game is not None
        return event.kind == "action" and self._game.ruleset.decode(event.payload).chance

    def _append(self, source: str, kind: str, payload: dict[str, Any]) -> Event:
        assert self._events
        event = self.log.append(self._events[0].game_id, self._clock(), source, kind, payload)
        self._events.append(event)
        return event

    def _run_chance(self, redone: list[dict[str, Any]] | None = None) -> None:
        """Record the shuffles and deals the game now needs: the undone ones again on a redo, else new ones
        seeded from the session's generator."""
        game = self._game
        redone = list(redone or [])
        while self._auto_chance and game is not None:
            action = game.ruleset.chance(game.state, self._rng)
            if action is None:
                return
            if redone and redone[0]["type"] == action.type:
                action = game.ruleset.decode(redone.pop(0))
            new_state = game.ruleset.apply(game.state, action)
            text = game.ruleset.describe(game.state, action)
            event = self._append("chance", "action", action.to_json())
            game.state = new_state
            game.moves.append(Move(event, text))

    def _changed(self) -> None:
        self._sync_summary()
        self._notify()

    def _sync_summary(self) -> None:
        """Keep the game's summary row in step with its events; written only when it changes."""
        game = self._game
        if game is not None and self._events:
            status = self._status()
            outcome = game.ruleset.outcome(game.state)
            winners = [game.setup.players[w] for w in outcome.winners] if outcome else []
            summary = (self._events[0].game_id, status, tuple(winners))
            if summary != self._summary:
                ended_at = self._events[-1].ts if status != "playing" else None
                self.log.set_status(self._events[0].game_id, status, ended_at, winners)
                self._summary = summary

    def _notify(self) -> None:
        if not self._subscribers:  # a snapshot costs about a millisecond: a replay has no one to tell
            return
        snapshot = self.snapshot()
        for callback in list(self._subscribers):
            try:
                callback(snapshot)
            except Exception:
                log.exception("a session subscriber failed; the session carries on")


def _health(name: str, check: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """A device's health; a check that fails is itself a fault to show, never a reason to lose the snapshot."""
    try:
        return check()
    except Exception as exc:
        log.exception("the %s health check failed", name)
        return {"ok": False, "message": f"{name}: health check failed ({exc})"}


def _live(name: str, view: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """A live view; one that fails is shown as such, never a reason to lose the snapshot (or the table)."""
    try:
        return view()
    except Exception as exc:
        log.exception("the %s live view failed", name)
        return {"error": f"{name}: this view failed ({exc})"}
