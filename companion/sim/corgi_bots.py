"""Bot players for the simulated Corgi Pileup table. They hold real (secret) hands, put cards face up into the
centre for the camera to read, answer the table's questions on their "phones" (the same prompt answers a phone
posts), collect tricks, and now and then play out of turn, which the table must catch. The referee's session
learns the cards only through the camera; what the camera misses, the referee types, and that is counted."""

from __future__ import annotations

import random
import threading
import time

from companion.games.actions import Action
from companion.games.corgi_pileup import CorgiPileup
from companion.games.corgi_pileup.actions import Play, SixDiscard
from companion.games.corgi_pileup.state import CorgiState, Phase
from companion.sim.corgi_world import CorgiWorld
from companion.sim.table_bots import TableBots
from companion.table.session import TableSession

RULES = CorgiPileup()
SHOW_FRAMES = 10  # how long a player shows a card at their own place before pushing it in, in camera frames


def sensible_move(state: CorgiState, seat: int, rng: random.Random) -> Action:
    """A plain strategy: keep high cards for the final trick, shed low ones; choices picked at random."""
    mine = [a for a in RULES.legal_actions(state) if getattr(a, "player", None) == seat]
    plays = [a for a in mine if isinstance(a, Play | SixDiscard)]
    if not plays:
        return rng.choice(mine)
    final = state.hand_counts[seat] == 1 or (state.hands is not None and len(state.hands[seat]) == 1)
    return max(plays, key=lambda a: a.card) if final else min(plays, key=lambda a: a.card)


class CorgiBots(TableBots[CorgiState]):
    """Plays every seat of the simulated table, following what the referee's session records."""

    rules = RULES

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
        super().__init__(session, world, world_seed=world_seed, rng=rng, pace=pace, grace_frames=grace_frames)
        self.world: CorgiWorld = world
        self.mischief = mischief  # chance, each trick, that someone plays out of turn
        self.caught = 0  # out-of-turn plays the table flagged
        self.misbehaved = 0  # out-of-turn plays tried
        self._mischief_trick: tuple[int, int] | None = None

    # ------------------------------------------------------------------------------------ the loop
    def play(self, stop: threading.Event, poll_s: float = 0.05) -> None:
        """Act until the game ends, the referee replaces it, or ``stop`` is set."""
        while self.playing(stop):
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
        self.close()

    # ------------------------------------------------------------------------------------ acting at the table
    def _place(self, truth: CorgiState, stop: threading.Event) -> None:
        (seat,) = RULES.to_move(truth)
        action = sensible_move(truth, seat, self.rng)
        stop.wait(self.rng.uniform(0.4, 0.9) * self.pace)
        self.world.reach(seat)
        stop.wait(0.2 * self.pace)
        landed = time.monotonic()
        self.world.play(str(action.card))  # type: ignore[attr-defined]
        self._by_camera(action, landed, stop)

    def _answer(self, truth: CorgiState, stop: threading.Event) -> None:
        """Answer the table's question on the player's phone, as the page does."""
        seat = RULES.to_move(truth)[0]
        action = self.rng.choice([a for a in RULES.legal_actions(truth) if getattr(a, "player", None) == seat])
        stop.wait(self.rng.uniform(0.3, 0.8) * self.pace)
        self._by_phone(truth, seat, action, stop)

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
