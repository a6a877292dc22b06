"""What every team of camera-playing bots shares, whatever the game: they hold the full-information game the world
plays (the referee's session knows only what the camera and the phones tell it), follow what the session records,
answer the table's questions on their "phones", wait in the camera's time, and count what the referee typed."""

from __future__ import annotations

import logging
import random
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from companion.config import Config
from companion.games.actions import Action
from companion.games.base import GameSetup, GameState, Ruleset, RuleViolation
from companion.sim.table import simulated_table
from companion.table.session import TableSession

if TYPE_CHECKING:
    from companion.sim.scene_camera import World
    from companion.sim.worlds import WorldPlan

log = logging.getLogger(__name__)

GIVE_UP_S = 120.0  # a camera that films nothing at all (unplugged) is given up on after this long

S = TypeVar("S", bound=GameState)


@dataclass(frozen=True)
class CameraRun:
    """One game for a game's camera bots to play on the simulated table: the table's config and the referee's
    session, who sits down, the dice, when to stop, the game's variant and options, and the bots' pace (1: a
    person's; smaller is faster)."""

    config: Config
    session: TableSession
    players: tuple[str, ...]
    rng: random.Random
    stop: threading.Event
    variant: str = "standard"
    options: dict[str, Any] = field(default_factory=dict)
    pace: float = 1.0


@dataclass(frozen=True)
class CameraGame:
    """What one game refereed from the camera came to: the figures the demo prints and the benchmarks add up."""

    game_id: int
    camera_plays: int  # cards the camera read and the table recorded with no typing
    typed: int  # moves the referee typed because the camera or the table did not record them
    wrong: int  # moves the table recorded differently from what was played (then undone by the referee)
    caught: int  # out-of-turn plays the table refused
    misbehaved: int  # out-of-turn plays the bots tried
    prompts: int  # questions the table asked
    landed_to_shown_s: list[float]  # for each card the camera read: put down -> on the status page
    # ... less the simulator's drawing of the first frame filmed after it landed: that frame timed from when it was
    # drawn, as a real camera hands a frame over having spent none of the table's CPU (where the bots measure it)
    handed_to_shown_s: list[float] = field(default_factory=list)


def questions_asked(session: TableSession, game_id: int) -> int:
    """How many questions the table asked in game ``game_id`` (the prompts' log)."""
    return sum(1 for line in session.log.prompts(game_id) if line["kind"] == "asked")


class FilmedWorld(Protocol):
    frames: int  # frames the camera has filmed so far: the bots wait in the camera's time
    handovers: deque[tuple[float, float]]  # when each frame's scene was taken and its drawing handed over


def until_filmed(world: FilmedWorld, grace_frames: int, done: Callable[[], bool], stop: threading.Event) -> bool:
    """Wait for ``done`` for as long as the camera takes to film ``grace_frames`` frames (a busy machine films
    slower, and the bots wait in the camera's time), and never more than ``GIVE_UP_S``."""
    frames, deadline = world.frames + grace_frames, time.monotonic() + GIVE_UP_S
    while world.frames < frames and time.monotonic() < deadline and not stop.is_set():
        if done():
            return True
        stop.wait(0.05)
    return done()


class TableBots(Generic[S]):
    """Plays every seat of the simulated table of ``rules``' game, following what the referee's session records."""

    rules: ClassVar[Ruleset[Any]]

    def __init__(self, session: TableSession, world: FilmedWorld, *, world_seed: int, rng: random.Random,
                 pace: float = 1.0, grace_frames: int = 60) -> None:
        self.session = session
        self.world = world
        self.rng = rng
        self.pace = pace
        self.grace_frames = grace_frames  # how long the bots wait for the table to record what they did
        self.game_id = session.game_id
        self.world_seed = world_seed  # the world's k-th shuffle of the game is seeded from it and k alone
        self.truth: S | None = None
        self.followed: list[dict[str, Any]] = []
        self.chances = 0  # shuffles and deals the truth has had
        self.typed = 0  # moves the referee had to type because the camera or the table did not record them
        self.wrong = 0  # moves the table recorded differently from what was played (the referee undid them)
        self.landed_to_shown_s: list[float] = []  # a card put down -> the session tells the status page
        self.handed_to_shown_s: list[float] = []  # the same less the drawing of the first frame that filmed it
        self.camera_moves = 0  # moves the camera's cards recorded with no typing
        self.answers = 0  # choices answered on the players' phones
        self._told_at: dict[int, float] = {}
        self._unsubscribe = session.subscribe(lambda snap: self._told_at.setdefault(snap["seq"], time.monotonic()))

    def playing(self, stop: threading.Event) -> bool:
        return not stop.is_set() and self.session.game_id == self.game_id and self.session.status() == "playing"

    # ------------------------------------------------------------------------------------ the secret game
    def _follow(self) -> S:
        """The full-information game the world plays, brought up to the moves the session has recorded."""
        game = self.session.game
        moves = self._moves()
        if self.truth is None or moves[: len(self.followed)] != self.followed:  # a new start, or an undo
            setup = game.setup if game else GameSetup(self.rules.name, ())
            full = GameSetup(setup.game, setup.players, setup.variant, setup.options, full_information=True)
            self.chances, self.followed = 0, []
            self.truth = self._deal(self.rules.setup(full))
        for payload in moves[len(self.followed):]:
            self.truth = self._deal(self.rules.apply(self.truth, self.rules.decode(payload)))
            self.followed.append(payload)
        return self.truth

    def _follow_or_stand_up(self) -> S | None:
        """The game as the bots hold it; ``None`` when the table's record has a card no bot holds (the referee
        typed something else): the bots stand up and the referee plays on by hand."""
        try:
            return self._follow()
        except RuleViolation as violation:
            self.wrong += 1
            log.warning("the table's record no longer matches the bots' cards (%s): the bots stand up",
                        violation.message)
            return None

    def _deal(self, state: S) -> S:
        """Shuffles and deals as the world makes them: the k-th of the game always from the same seed, so a
        referee's undo and redo, or a restart, deal the same cards again."""
        while True:
            chance = self.rules.chance(state, random.Random(f"{self.world_seed}/{self.chances}"))
            if chance is None:
                return state
            state = self.rules.apply(state, chance)
            self.chances += 1

    def _table_moves(self) -> list[Any]:
        """The session's recorded moves of this game that the bots follow (``_left_out`` says which they don't)."""
        game = self.session.game
        return [m for m in game.moves if not self._left_out(m.event.payload)] if game else []

    def _left_out(self, payload: dict[str, Any]) -> bool:
        """Whether a recorded move is one the bots don't follow: by default the (hidden) shuffles and deals."""
        return self.rules.decode(payload).chance

    def _moves(self) -> list[dict[str, Any]]:
        return [m.event.payload for m in self._table_moves()]

    def _same(self, recorded: Action, meant: Action) -> bool:
        """Whether the table recorded the move meant (a game whose cards may be named in any order says so)."""
        return recorded == meant

    # ------------------------------------------------------------------------------------ the table's answers
    def _answered(self, truth: S, seat: int, action: Action) -> bool:
        """Press the answer on the player's phone if the table is asking it."""
        for prompt in self.session.prompts.open():
            offered = [option.action for option in prompt.options]
            if prompt.seat == seat and action in offered:
                phone = f"{truth.players[seat]}'s phone"
                return not isinstance(self.session.prompts.answer(prompt.id, offered.index(action), by=phone,
                                                                  referee=False), RuleViolation)
        return False

    def _by_phone(self, truth: S, seat: int, action: Action, stop: threading.Event) -> None:
        """A choice no card shows: answered on ``seat``'s phone when the table asks; else the referee types it."""
        if self._until(lambda: self._answered(truth, seat, action), stop) and self._recorded(action, stop):
            self.answers += 1
            return
        self._type(action, "the table did not ask")

    def _by_camera(self, action: Action, landed: float, stop: threading.Event) -> None:
        """Cards moved at ``landed`` for ``action``: recorded from the camera, else typed by the referee."""
        if self._recorded(action, stop):
            self.camera_moves += 1
            self._shown(action, landed)
        else:
            self._type(action, "the camera did not report it")

    def _recorded(self, action: Action, stop: threading.Event) -> bool:
        count = len(self.followed)
        return self._until(lambda: self._moves()[count:] == [action.to_json()], stop)

    def _shown(self, action: Action, landed: float) -> None:
        """How long the card put down at ``landed`` took to reach the status page as ``action``."""
        moves = self.session.game.moves if self.session.game else []
        self._shown_at(next(m.event.seq for m in reversed(moves) if m.event.payload == action.to_json()), landed)

    def _shown_at(self, seq: int, landed: float) -> None:
        """How long the card put down at ``landed`` took to reach the status page as the event ``seq``."""
        shown = self._told_at.get(seq, time.monotonic()) - landed
        self.landed_to_shown_s.append(shown)
        drawing = next(((handed - taken) for taken, handed in self.world.handovers.copy() if taken >= landed), None)
        if drawing is not None:
            self.handed_to_shown_s.append(shown - drawing)

    def _type(self, action: Action, why: str, count: int | None = None) -> None:
        """The referee enters the move by hand, as at a real table, first undoing anything the table recorded
        wrongly after its first ``count`` moves (the moves the bots have followed) — unless the table recorded it
        after all, just as the bots stopped waiting. Only an entry the table records counts as typed (one it
        refuses records nothing, and the bots stand up when the table no longer shows their game)."""
        count = len(self.followed) if count is None else count
        late = self._table_moves()[count:]
        if len(late) == 1 and self._same(self.rules.decode(late[0].event.payload), action):
            log.warning("the table recorded %s late (%s for a while)", action.to_json(), why)
            if late[0].event.source.startswith("camera"):
                self.camera_moves += 1
            else:
                self.answers += 1
            return
        while len(self._table_moves()) > count:
            self.wrong += 1
            log.warning("the table recorded %s wrongly; the referee undoes it", self._moves()[-1])
            self.session.undo(source="referee")
        log.warning("the referee types %s: %s", action.to_json(), why)
        result = self.session.submit(action, source="referee")
        if isinstance(result, RuleViolation):
            log.warning("the referee's entry was refused: %s", result.message)
        else:
            self.typed += 1

    def _view(self) -> dict[str, Any]:
        return self.session.snapshot().get("live", {}).get("table", {})

    def _until(self, done: Callable[[], bool], stop: threading.Event) -> bool:
        return until_filmed(self.world, self.grace_frames, done, stop)

    def close(self) -> None:
        self._unsubscribe()


class Team(Protocol):
    """Camera-playing bots as ``play_in_world`` runs them."""

    camera_moves: int
    typed: int
    wrong: int
    landed_to_shown_s: list[float]
    handed_to_shown_s: list[float]

    def lay_out(self) -> None: ...

    def play(self, stop: threading.Event) -> None: ...


def play_in_world(run: CameraRun, world: World, plan: WorldPlan, setup: GameSetup, *, mat: str,
                  team: Callable[[Config], Team]) -> CameraGame:
    """One game on the simulated table filming ``world`` on the ``mat`` (the camera finds the mat the world lies
    on), played by the bots ``team`` makes: started, or resumed with its cards laid out as they lay."""
    config = replace(run.config, camera=replace(run.config.camera, mat=mat))
    session = run.session
    with simulated_table(config, session, world, setup.game, run.rng.getrandbits(16)):
        game_id = plan.begin(config, session, setup)
        bots = team(config)
        if plan.resumed:
            bots.lay_out()
        bots.play(run.stop)
        return CameraGame(game_id, bots.camera_moves, bots.typed, bots.wrong, 0, 0, questions_asked(session, game_id),
                          bots.landed_to_shown_s, bots.handed_to_shown_s)
