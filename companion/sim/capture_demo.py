"""Capture the Illusionist on the simulated table: bots (``ClashBot`` decides) turn cards face up in the grids,
put hand cards in the exposed row and turn cards sideways for the rendered camera and the real recogniser to
read; the table adapter turns what it sees into moves, and the bots answer the table's questions (a private look,
the Assassin's selection and rank, the cards to shuffle, a save) on their phones. The referee types only what
the camera and the table could not settle. The players then put their cards as the rules say (rested, revealed,
shuffled face down): a card turned face down is picked up first, as cards to shuffle are, or, when it goes back
face down in its own place, sometimes just turned over where it lies."""

from __future__ import annotations

import random
import threading
import time
from dataclasses import replace
from typing import Any

from companion.games.actions import Action
from companion.games.base import GameSetup
from companion.games.clash_of_corgis.actions import Activate, Guess, Rest, RevealCard, Save
from companion.games.clash_of_corgis.capture_state import HAND, CaptureState, Position, column_of, row_of
from companion.games.clash_of_corgis.rules import ClashOfCorgis
from companion.sim.capture_world import DECK, MAT, SEAT_ZONES, VARIANT, CaptureWorld
from companion.sim.clash_bots import ClashBot
from companion.sim.table_bots import CameraGame, CameraRun, TableBots, play_in_world
from companion.sim.worlds import plan_world
from companion.table.adapters.clash_of_corgis.capture import table_column
from companion.table.session import TableSession

RULES = ClashOfCorgis()
PICKED_UP_FRAMES = 4  # cards to turn face down are held up this many frames more than the camera's forget_frames
TURNED_OVER_SHARE = 0.5  # of the cards going face down in their own place, those turned over where they lie


class CaptureBots(TableBots[Any]):
    """Plays both seats: cards are moved on the table for the camera, choices answered on the phones."""

    rules = RULES

    def __init__(self, session: TableSession, world: CaptureWorld, *, world_seed: int, rng: random.Random,
                 pace: float = 1.0, forget_frames: int = 30) -> None:
        super().__init__(session, world, world_seed=world_seed, rng=rng, pace=pace)
        self.table_world = world
        self.picked_up_frames = forget_frames + PICKED_UP_FRAMES  # so that the camera sees them gone
        self.players = [ClashBot(seat, random.Random(rng.getrandbits(32))) for seat in (0, 1)]

    def play(self, stop: threading.Event, poll_s: float = 0.05) -> None:
        """Act until the game ends, the referee replaces it, or ``stop`` is set."""
        while self.playing(stop):
            truth = self._follow_or_stand_up()
            if truth is None:
                break
            self._tidy(truth, stop)
            seats = RULES.to_move(truth)
            action = self.players[seats[0]].choose(RULES, truth) if seats else None
            if action is not None:
                stop.wait(self.rng.uniform(0.1, 0.3) * self.pace)
                self._act(truth, action, stop)
            stop.wait(poll_s)
        self.close()

    # ------------------------------------------------------------------------------------ the table
    def _own(self, truth: CaptureState, seat: int, slot: str) -> str:
        """A rules slot as the player's own place on the mat (columns from their left)."""
        return f"{row_of(slot)}-{table_column(column_of(slot), seat, truth.first)}"

    def _as_recorded(self, truth: CaptureState, action: Action) -> Action:
        """The action as a real table records it: the face a hidden card showed when it turned up."""
        p = truth.pending
        if isinstance(action, Activate) and action.slot != HAND:
            cell = truth.tables[action.player][action.slot]
            return replace(action, card=cell.card) if cell.position is Position.HIDDEN else action
        if isinstance(action, RevealCard) and action.slot != HAND and p is not None:
            return replace(action, card=truth.tables[p.owner][action.slot].card)
        if isinstance(action, Guess) and p is not None:
            return replace(action, card=truth.tables[p.owner][p.slots[0]].card)
        if isinstance(action, Save) and action.slot not in (None, HAND):
            cell = truth.tables[action.player][str(action.slot)]
            return replace(action, card=cell.card) if cell.position is Position.HIDDEN else action
        return action

    def _act(self, truth: CaptureState, action: Action, stop: threading.Event) -> None:
        """Move the cards as the action says and wait for the camera to record it, or answer the table's question;
        what the table does not record, the referee types."""
        world, p = self.table_world, truth.pending
        recorded = self._as_recorded(truth, action)
        landed = time.monotonic()
        if isinstance(action, Activate) and action.slot == HAND:
            world.put(action.player, self._own(truth, action.player, f"exposed-{action.column}"), str(action.card),
                      up=True)
        elif isinstance(action, Activate):
            cell = truth.tables[action.player][action.slot]
            own = self._own(truth, action.player, action.slot)
            world.turn_up(action.player, own) if cell.position is Position.HIDDEN else world.rest(action.player, own)
        elif isinstance(action, RevealCard) and p is not None:
            if action.slot == HAND:
                card = action.card or self._picked(truth, action)
                world.put(p.owner, self._own(truth, p.owner, f"exposed-{action.column}"), card, up=True)
            else:
                world.turn_up(p.owner, self._own(truth, p.owner, action.slot))
        elif isinstance(action, Rest) and p is not None:
            world.rest(p.owner, self._own(truth, p.owner, action.slot))
        elif isinstance(action, Save) and action.slot not in (None, HAND) and recorded != action:
            world.turn_up(action.player, self._own(truth, action.player, str(action.slot)))  # the blind discard
        else:
            if isinstance(action, Guess) and p is not None:
                world.turn_up(p.owner, self._own(truth, p.owner, p.slots[0]))  # the selected card is revealed
            self._by_phone(truth, action.player, recorded, stop)  # type: ignore[attr-defined]
            return
        self._by_camera(recorded, landed, stop)

    def _picked(self, truth: CaptureState, action: Action) -> str:
        """The card the world's next random pick takes from the opponent's hand (the truth's next chance)."""
        chances = self.chances
        after = self._deal(RULES.apply(truth, action))
        self.chances = chances
        p = truth.pending
        assert p is not None and isinstance(action, RevealCard)
        return str(after.tables[p.owner][f"exposed-{action.column}"].card)

    def _tidy(self, truth: CaptureState, stop: threading.Event) -> None:
        """Lay the cards as the rules now hold them: rested sideways, revealed upright, cards out of play away,
        and cards turned face down (shuffled) picked up first and put back face down, or turned over where they lie
        when they stay in their place. The bots then wait until the camera has reported gone every face-up card
        turned down or taken, as a player's turn gives a real camera ample frames to: a card turned up again before
        then is no new sighting, and its reveal goes unreported (seed 25's Illusionist)."""
        world = self.table_world
        down: list[tuple[int, str, str]] = []
        hidden: list[str] = []  # the zones where a face-up card was turned face down or taken
        for seat in (0, 1):
            want = {self._own(truth, seat, slot): cell for slot, cell in truth.tables[seat].items()}
            lying = world.faces(seat)
            for slot, card in lying.items():
                cell = want.get(slot)
                if cell is not None and cell.card == card.face and card.up and cell.position is Position.HIDDEN \
                        and self.rng.random() < TURNED_OVER_SHARE:
                    world.turn_down(seat, slot)
                    hidden.append(world.zone(seat, slot))
                elif cell is None or cell.card != card.face or (card.up and cell.position is Position.HIDDEN):
                    world.take(seat, slot)
                    hidden += [world.zone(seat, slot)] if card.up else []
            for slot, cell in want.items():
                card = lying.get(slot)
                if card is None or card.face != cell.card or (card.up and cell.position is Position.HIDDEN):
                    down.append((seat, slot, str(cell.card))) if cell.position is Position.HIDDEN else world.put(
                        seat, slot, str(cell.card), up=True, rested=cell.position is Position.RESTED)
                elif card.up and card.rested != (cell.position is Position.RESTED):
                    world.rest(seat, slot, cell.position is Position.RESTED)
        if down or hidden:
            self._wait_frames(self.picked_up_frames, stop)
            self._until(lambda: not set(hidden) & set(self._view().get("seen", {})), stop)
            for seat, slot, face in down:
                world.put(seat, slot, face)

    def _wait_frames(self, frames: int, stop: threading.Event) -> None:
        until = self.table_world.frames + frames
        while self.table_world.frames < until and not stop.is_set():
            stop.wait(0.05)

    def lay_out(self) -> None:
        """A resumed game's cards, as they lie now (the camera films on while they are laid)."""
        truth = self._follow_or_stand_up()
        if truth is not None:
            self._tidy(truth, threading.Event())


def play_capture_by_camera(run: CameraRun) -> CameraGame:
    """Bots play one game of Capture the Illusionist on the simulated table, every card read by the camera. A game
    still in play in the log, whose world is known, is resumed with its cards as they lie."""
    plan = plan_world(run.config, run.session, DECK, run.players[:2], run.rng)
    world = CaptureWorld(seed=plan.seed)
    chosen = {"first_player": run.rng.randrange(2), **run.options}  # the world and the table agree who starts
    setup = GameSetup(DECK, plan.players, VARIANT, chosen, seats=SEAT_ZONES)
    return play_in_world(run, world, plan, setup, mat=MAT, team=lambda config: CaptureBots(
        run.session, world, world_seed=plan.seed, rng=run.rng, pace=run.pace,
        forget_frames=config.camera.forget_frames))
