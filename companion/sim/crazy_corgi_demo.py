"""Crazy Corgi on the simulated table: bots (``CrazyCorgiBot`` decides) turn cards face up in the draw zone and
put them in their Kennels for the rendered camera and the real recogniser to read; the table adapter turns what it
sees into moves, and the bots answer the table's questions (stop, the bust's recipient, Bones, Fleas, a Wild) on
their phones. The referee types only what the camera and the table could not settle."""

from __future__ import annotations

import random
import threading
import time
from collections import Counter

from companion.games.actions import Action
from companion.games.base import GameSetup
from companion.games.crazy_corgi import CrazyCorgi
from companion.games.crazy_corgi.actions import DiscardKennel, Place, Reveal
from companion.games.crazy_corgi.state import CrazyState
from companion.sim.corgi_world import seats_for
from companion.sim.crazy_corgi_bots import CrazyCorgiBot
from companion.sim.crazy_corgi_world import DECK, MAT, CrazyWorld
from companion.sim.table_bots import CameraGame, CameraRun, TableBots, play_in_world
from companion.sim.worlds import plan_world
from companion.table.session import TableSession

RULES = CrazyCorgi()


class CrazyCorgiBots(TableBots[CrazyState]):
    """Plays every seat: cards are moved on the table for the camera, choices answered on the phones."""

    rules = RULES

    def __init__(self, session: TableSession, world: CrazyWorld, *, world_seed: int, rng: random.Random,
                 pace: float = 1.0) -> None:
        super().__init__(session, world, world_seed=world_seed, rng=rng, pace=pace)
        self.table_world = world
        self.players = [CrazyCorgiBot(seat, random.Random(rng.getrandbits(32)))
                        for seat in range(len(session.game.setup.players))]  # type: ignore[union-attr]

    def play(self, stop: threading.Event, poll_s: float = 0.05) -> None:
        """Act until the game ends, the referee replaces it, or ``stop`` is set."""
        while self.playing(stop):
            truth = self._follow_or_stand_up()
            if truth is None:
                break
            self._tidy(truth)
            (seat,) = RULES.to_move(truth) or (None,)
            action = self.players[seat].choose(RULES, truth) if seat is not None else None
            if action is not None:
                stop.wait(self.rng.uniform(0.2, 0.5) * self.pace)
                self._act(truth, action, stop)
            stop.wait(poll_s)
        self.close()

    def _act(self, truth: CrazyState, action: Action, stop: threading.Event) -> None:
        """Move the cards as the action says and wait for the camera to record it, or answer the table's question;
        what the table does not record, the referee types."""
        world = self.table_world
        landed = time.monotonic()
        if isinstance(action, Reveal):
            world.reveal(action.card)
        elif isinstance(action, Place):
            world.place(action.card, action.player, action.kennel)
        elif isinstance(action, DiscardKennel):
            world.clear_kennel(action.player, action.kennel)
        else:
            self._by_phone(truth, action.player, action, stop)  # type: ignore[attr-defined]
            return
        self._by_camera(action, landed, stop)

    def _tidy(self, truth: CrazyState) -> None:
        """Carry to the discard pile what the rules have discarded (resolved Events, a Wilds' bust, scored
        Kennels); a reshuffled discard pile becomes the deck again."""
        world = self.table_world
        held = Counter([*truth.drawn, *truth.to_place, *([truth.event] if truth.event else [])])
        held.update(c for seat in truth.kennels for kennel in seat for c in kennel)
        where = world.faces()
        lying = [f for zone, faces in where.items() if zone != "discard" for f in faces]
        done = {f for f in lying if f in truth.discard and held[f] < lying.count(f)}
        if done:
            world.to_discard(sorted(done))
        if where["discard"] and not truth.discard:
            world.reshuffled()

    def lay_out(self) -> None:
        """A resumed game's cards, as they lay when the process stopped."""
        truth = self._follow_or_stand_up()
        if truth is None:
            return
        for seat, kennels in enumerate(truth.kennels):
            for k, kennel in enumerate(kennels):
                for card in kennel:
                    self.table_world.place(card, seat, k)
        for card in [*truth.drawn, *truth.to_place]:
            self.table_world.reveal(card)


def play_crazy_corgi_by_camera(run: CameraRun) -> CameraGame:
    """Bots play one game of Crazy Corgi on the simulated table, every card read by the camera. A game still in
    play in the log, whose world is known, is resumed with its cards as they were."""
    plan = plan_world(run.config, run.session, DECK, run.players, run.rng)
    world = CrazyWorld(len(plan.players), seed=plan.seed)
    setup = GameSetup(DECK, plan.players, run.variant, run.options, seats=seats_for(len(plan.players)))
    return play_in_world(run, world, plan, setup, mat=MAT, team=lambda _config: CrazyCorgiBots(
        run.session, world, world_seed=plan.seed, rng=run.rng, pace=run.pace))
