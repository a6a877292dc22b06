"""Bot players for the simulated Corgi Pileup table. They hold real (secret) hands, put cards face up into the
centre for the camera to read, answer the table's questions on their "phones" (the same prompt answers a phone
posts), collect tricks, and now and then play out of turn, which the table must catch. The referee's session
learns the cards only through the camera; what the camera misses, the referee types, and that is counted."""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.games.actions import Action
from companion.games.base import GameSetup, RuleViolation
from companion.games.corgi_pileup import CorgiPileup
from companion.games.corgi_pileup.actions import Play, SixDiscard
from companion.games.corgi_pileup.state import CorgiState, Phase
from companion.sim.corgi_world import CorgiWorld
from companion.table.session import TableSession

log = logging.getLogger(__name__)

RULES = CorgiPileup()
GIVE_UP_S = 120.0  # a camera that films nothing at all (unplugged) is given up on after this long
SHOW_FRAMES = 10  # how long a player shows a card at their own place before pushing it in, in camera frames


def sensible_move(state: CorgiState, seat: int, rng: random.Random) -> Action:
    """A plain strategy: keep high cards for the final trick, shed low ones; choices picked at random."""
    mine = [a for a in RULES.legal_actions(state) if getattr(a, "player", None) == seat]
    plays = [a for a in mine if isinstance(a, Play | SixDiscard)]
    if not plays:
        return rng.choice(mine)
    final = state.hand_counts[seat] == 1 or (state.hands is not None and len(state.hands[seat]) == 1)
    return max(plays, key=lambda a: a.card) if final else min(plays, key=lambda a: a.card)


class CorgiBots:
    """Plays every seat of the simulated table, following what the referee's session records."""

    def __init__(
        self,
        session: TableSession,
        world: CorgiWorld,
        *,
        world_seed: int,
        rng: random.Random,
        pace: float = 1.0,
        mischief: float = 0.05,
        grace_frames: int = 60,
    ) -> None:
        self.session = session
        self.world = world
        self.rng = rng
        self.pace = pace
        self.mischief = mischief  # chance, each trick, that someone plays out of turn
        self.grace_frames = grace_frames  # how long the bots wait for the table to record what they did
        self.game_id = session.game_id
        self.world_seed = world_seed  # the world's k-th shuffle of the game is seeded from it and k alone
        self.truth: CorgiState | None = None
        self.followed: list[dict[str, Any]] = []
        self.chances = 0  # shuffles and deals the truth has had
        self.typed = 0  # moves the referee had to type because the camera or the table did not record them
        self.wrong = 0  # moves the table recorded differently from what was played (the referee undid them)
        self.caught = 0  # out-of-turn plays the table flagged
        self.misbehaved = 0  # out-of-turn plays tried
        self.camera_plays = 0
        self._mischief_trick: tuple[int, int] | None = None
        self.landed_to_shown_s: list[float] = []  # a card put down -> the session tells the status page
        self._told_at: dict[int, float] = {}
        self._unsubscribe = session.subscribe(lambda snap: self._told_at.setdefault(snap["seq"], time.monotonic()))

    # ------------------------------------------------------------------------------------ the loop
    def play(self, stop: threading.Event, poll_s: float = 0.05) -> None:
        """Act until the game ends, the referee replaces it, or ``stop`` is set."""
        while not stop.is_set() and self.session.game_id == self.game_id and self.session.status() == "playing":
            truth = self._follow_or_stand_up()
            if truth is None:
                break
            if self.world.middle and not truth.trick and truth.phase is not Phase.SIX_DISCARD:
                self._collect(stop)
            elif truth.phase in (Phase.PLAY, Phase.SIX_DISCARD):
                self._maybe_misbehave(truth, stop)
                self._place(truth, stop)
            elif truth.phase in (Phase.SIX_TARGET, Phase.CHOOSE_LEADER, Phase.SCORE_ONES):
                self._answer(truth, stop)
            stop.wait(poll_s)
        self._unsubscribe()

    # ------------------------------------------------------------------------------------ the secret game
    def _follow(self) -> CorgiState:
        """The full-information game the world plays, brought up to the moves the session has recorded."""
        game = self.session.game
        moves = self._moves()
        if self.truth is None or moves[: len(self.followed)] != self.followed:  # a new start, or an undo
            setup = game.setup if game else GameSetup(RULES.name, ())
            full = GameSetup(setup.game, setup.players, setup.variant, setup.options, full_information=True)
            self.chances, self.followed = 0, []
            self.truth = self._deal(RULES.setup(full))
        for payload in moves[len(self.followed):]:
            self.truth = self._deal(RULES.apply(self.truth, RULES.decode(payload)))
            self.followed.append(payload)
        return self.truth

    def _follow_or_stand_up(self) -> CorgiState | None:
        """The game as the bots hold it; ``None`` when the table's record has a card no bot holds (the referee
        typed something else): the bots stand up and the referee plays on by hand."""
        try:
            return self._follow()
        except RuleViolation as violation:
            self.wrong += 1
            log.warning("the table's record no longer matches the bots' cards (%s): the bots stand up",
                        violation.message)
            return None

    def _deal(self, state: CorgiState) -> CorgiState:
        """Shuffles and deals as the world makes them: the k-th of the game always from the same seed, so a
        referee's undo and redo, or a restart, deal the same cards again."""
        while True:
            chance = RULES.chance(state, random.Random(f"{self.world_seed}/{self.chances}"))
            if chance is None:
                return state
            state = RULES.apply(state, chance)
            self.chances += 1

    def _moves(self) -> list[dict[str, Any]]:
        """The session's recorded moves of this game, without its (hidden) shuffles and deals."""
        game = self.session.game
        return [m.event.payload for m in game.moves if not RULES.decode(m.event.payload).chance] if game else []

    # ------------------------------------------------------------------------------------ acting at the table
    def _place(self, truth: CorgiState, stop: threading.Event) -> None:
        (seat,) = RULES.to_move(truth)
        action = sensible_move(truth, seat, self.rng)
        stop.wait(self.rng.uniform(0.4, 0.9) * self.pace)
        self.world.reach(seat)
        stop.wait(0.2 * self.pace)
        landed = time.monotonic()
        self.world.play(str(action.card))  # type: ignore[attr-defined]
        if self._recorded(action, stop):
            self.camera_plays += 1
            moves = self.session.game.moves if self.session.game else []
            seq = next(m.event.seq for m in reversed(moves) if m.event.payload == action.to_json())
            self.landed_to_shown_s.append(self._told_at.get(seq, time.monotonic()) - landed)
        else:
            self._type(action, "the camera did not report it")

    def _answer(self, truth: CorgiState, stop: threading.Event) -> None:
        """Answer the table's question on the player's phone, as the page does."""
        seat = RULES.to_move(truth)[0]
        action = self.rng.choice([a for a in RULES.legal_actions(truth) if getattr(a, "player", None) == seat])
        stop.wait(self.rng.uniform(0.3, 0.8) * self.pace)
        if self._until(lambda: self._answered(truth, seat, action), stop) and self._recorded(action, stop):
            return
        self._type(action, "the table did not ask")

    def _answered(self, truth: CorgiState, seat: int, action: Action) -> bool:
        """Press the answer on the player's phone if the table is asking it."""
        for prompt in self.session.prompts.open():
            offered = [option.action for option in prompt.options]
            if prompt.seat == seat and action in offered:
                phone = f"{truth.players[seat]}'s phone"
                return not isinstance(self.session.prompts.answer(prompt.id, offered.index(action), by=phone,
                                                                  referee=False), RuleViolation)
        return False

    def _collect(self, stop: threading.Event) -> None:
        """The trick's winner takes the cards away; the next card waits until the camera has seen them go."""
        stop.wait(0.6 * self.pace)
        self.world.collect()
        self._until(lambda: not self._view().get("centre"), stop)

    def _maybe_misbehave(self, truth: CorgiState, stop: threading.Event) -> None:
        """Once in a while a player who is not to move shows a card and pushes it in; the table must object."""
        trick = (truth.round, truth.trick_no)
        if truth.phase is not Phase.PLAY or trick == self._mischief_trick or self.rng.random() >= self.mischief:
            return
        self._mischief_trick = trick
        (turn,) = RULES.to_move(truth)
        others = [s for s in range(len(truth.players)) if s != turn and truth.hands and truth.hands[s]]
        if not others:
            return
        seat = self.rng.choice(others)
        face = str(self.rng.choice(truth.hands[seat]))  # type: ignore[index]
        self.misbehaved += 1
        shown_at = self.world.frames
        self.world.show(seat, face)
        # Held there long enough for the camera to see it (in frames: a busy machine films slower).
        self._until(lambda: self.world.frames - shown_at >= SHOW_FRAMES, stop)
        self.world.push_in(face)
        if self._until(lambda: self._view().get("objection") is not None, stop):
            self.caught += 1
        self.world.take_back(face)
        self._until(lambda: self._view().get("objection") is None, stop)

    # ------------------------------------------------------------------------------------ waiting on the table
    def _recorded(self, action: Action, stop: threading.Event) -> bool:
        count = len(self.followed)
        return self._until(lambda: self._moves()[count:] == [action.to_json()], stop)

    def _type(self, action: Action, why: str) -> None:
        """The referee enters the move by hand, as at a real table, first undoing anything recorded wrongly."""
        while len(self._moves()) > len(self.followed):
            self.wrong += 1
            log.warning("the table recorded %s wrongly; the referee undoes it", self._moves()[-1])
            self.session.undo(source="referee")
        self.typed += 1
        log.warning("the referee types %s: %s", action.to_json(), why)
        result = self.session.submit(action, source="referee")
        if isinstance(result, RuleViolation):
            log.warning("the referee's entry was refused: %s", result.message)

    def _view(self) -> dict[str, Any]:
        return self.session.snapshot().get("live", {}).get("table", {})

    def _until(self, done: Callable[[], bool], stop: threading.Event) -> bool:
        """Wait for ``done`` for as long as the camera takes to film ``grace_frames`` frames (a busy machine
        films slower, and the bots wait in the camera's time), and never more than ``GIVE_UP_S``."""
        frames, deadline = self.world.frames + self.grace_frames, time.monotonic() + GIVE_UP_S
        while self.world.frames < frames and time.monotonic() < deadline and not stop.is_set():
            if done():
                return True
            stop.wait(0.05)
        return done()
