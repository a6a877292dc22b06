"""Squirrels on the simulated table: bots (``SquirrelsBot`` decides) lay out their stacks, put cards on the pile,
lift stack tops, flip Blind cards, set Skip cards before a player and take the pile away, for the rendered camera
and the real recogniser to read; the table adapter turns what it sees into moves, and the bots answer the table's
questions (a Wild's value, a Push's target, hand or Blind card, the end of a Blind turn) on their phones. At each
round's end they spread their remaining cards for the camera, a few at a time. The referee types only what the
camera and the table could not settle."""

from __future__ import annotations

import random
import threading
import time
from dataclasses import replace
from functools import partial
from typing import Any

from companion.config import Config
from companion.games.actions import Action
from companion.games.base import GameSetup
from companion.games.squirrels import Squirrels
from companion.games.squirrels.actions import Blind, Deal, Layout, Pickup, Play, Push, Reveal, Skip
from companion.games.squirrels.state import Phase, SquirrelsState
from companion.sim.squirrels_bots import SquirrelsBot
from companion.sim.squirrels_world import DECK, SquirrelsWorld
from companion.sim.table_bots import CameraGame, CameraRun, TableBots, play_in_world
from companion.sim.worlds import plan_world
from companion.table.adapters.squirrels import COVER_LOOK_FRAMES, TOGETHER_FRAMES, stacks_label
from companion.table.session import TableSession
from companion.vision.zones import save_zones

RULES = Squirrels()
HIDDEN = (Deal.type, Layout.type, Reveal.type)  # moves the full-information game has no use for (see ``_moves``)
SHOW = 4  # cards a player spreads at once at the round's end
# The referee waits for the table to record a move as long as at any game (60 frames), and the frames the table
# itself may wait for a play's late cards before it reads the pile (rulings SQ-18, SQ-20).
GRACE_FRAMES = 60 + COVER_LOOK_FRAMES


def first_blind(state: SquirrelsState, action: Action) -> bool:
    """Whether ``action`` is no Blind card, or the leftmost one: the table cannot tell Blind stacks apart (each
    holds one unknown card) and records the leftmost (ruling SQ-14), so the bots flip that one."""
    if not isinstance(action, Blind):
        return True
    return action.stack == next(i for i, st in enumerate(state.stacks[action.player]) if st.blind)


def canonical(state: SquirrelsState, action: Action) -> Action:
    """The same move as the table records it: stack tops of one face from the leftmost stacks showing it (the
    table cannot tell them apart, and the cards below are unknown to the player too)."""
    if not isinstance(action, Play) or not action.stacks:
        return action
    tops = [st.top for st in state.stacks[action.player]]
    chosen: list[int] = []
    for face in sorted(tops[i] or "" for i in action.stacks):
        chosen.append(next(i for i, top in enumerate(tops) if top == face and i not in chosen))
    return replace(action, stacks=tuple(sorted(chosen)))


class SquirrelsBots(TableBots[SquirrelsState]):
    """Plays every seat: cards are moved on the table for the camera, choices answered on the phones."""

    rules = RULES

    def __init__(self, session: TableSession, world: SquirrelsWorld, *, world_seed: int, rng: random.Random,
                 pace: float = 1.0, forget_frames: int = 30, steady_frames: int = 3) -> None:
        super().__init__(session, world, world_seed=world_seed, rng=rng, pace=pace, grace_frames=GRACE_FRAMES)
        self.table_world = world
        self.players = [SquirrelsBot(seat, random.Random(rng.getrandbits(32)))
                        for seat in range(len(session.game.setup.players))]  # type: ignore[union-attr]
        self.forget_frames = forget_frames  # frames the camera takes to report a card gone
        self.steady_frames = steady_frames  # frames it takes to report a card seen
        self.camera_moves = 0  # moves the camera's cards recorded with no typing
        self.leftovers: dict[int, list[list[str]]] = {}  # round -> each player's cards at its end
        self.skip_taken: dict[int, int] = {}  # seat -> the world's frame its last Skip card was taken away at

    # ------------------------------------------------------------------------------------ following the game
    def _left_out(self, payload: dict[str, Any]) -> bool:
        """The full-information game replays neither the live deal, the stack tops seen (the world dealt them) nor
        the cards shown at a round's end (the bots hold them); the drawn starter, yes. The referee's entry
        (``_type``) counts the moves it keeps by these, as the bots follow them."""
        return payload.get("type") in HIDDEN

    def _deal(self, state: SquirrelsState) -> SquirrelsState:
        """The world's shuffle, once the session has drawn who starts; each round's remaining cards kept for the
        spread at its end (a full-information game scores at once and deals the next)."""
        if state.hands is not None and len(state.round_scores) not in self.leftovers and state.round_scores:
            self.leftovers[len(state.round_scores)] = [
                [*state.hands[p], *(c for st in state.stacks[p] for c in (st.top, *st.down) if c is not None)]
                for p in range(len(state.players))
            ]
        return super()._deal(state) if state.phase is Phase.DEAL else state

    # ------------------------------------------------------------------------------------ the loop
    def play(self, stop: threading.Event, poll_s: float = 0.05) -> None:
        """Act until the game ends, the referee replaces it, or ``stop`` is set."""
        while self.playing(stop):
            truth = self._follow_or_stand_up()
            live = self.session.state
            if truth is None or not isinstance(live, SquirrelsState):
                break
            if live.phase is Phase.LAYOUT and truth.round == live.round:
                self._lay_out(truth, live, stop)
            elif live.phase is Phase.REVEAL:
                self._reveal(live, stop)
            elif live.phase in (Phase.PLAY, Phase.BLIND_FOLLOW) and truth.current == live.current:
                self._tidy(truth, stop)
                action = self.players[truth.current].choose(RULES, truth, partial(first_blind, truth))
                if action is not None:
                    stop.wait(self.rng.uniform(0.2, 0.5) * self.pace)
                    self._act(truth, canonical(truth, action), stop)
            stop.wait(poll_s)
        self.close()

    def _wait_frames(self, frames: int, stop: threading.Event) -> None:
        start = self.world.frames
        self._until(lambda: self.world.frames - start >= frames, stop)

    # ------------------------------------------------------------------------------------ a round's start and end
    def _lay_out(self, truth: SquirrelsState, live: SquirrelsState, stop: threading.Event) -> None:
        """Each player still to lay out deals their stacks: the face-down cards, then the tops one by one, left to
        right (the table takes them in the order it sees them)."""
        world = self.table_world
        for seat in RULES.to_move(live):
            before = self._all_moves()
            world.gather(seat)
            for i, stack in enumerate(truth.stacks[seat]):
                world.lay_top(seat, i, stack.top or "")
                self._until(lambda n=i + 1, who=live.players[seat]: self._laid(who) >= n, stop)  # seen: the next
            tops = tuple(st.top or "" for st in truth.stacks[seat])
            self._settle(truth, Layout(seat, tops), before, stop, followed=False)

    def _reveal(self, live: SquirrelsState, stop: threading.Event) -> None:
        """The round is over: the pile and the Skip cards leave the table, and each player who still has cards
        spreads them at their place, a few at a time, for the camera."""
        world = self.table_world
        if world.pile_faces():
            self._clear_pile(stop)
        for seat in world.skipped():
            world.remove_skip(seat)
        cards = self.leftovers.get(live.round)
        for seat in RULES.to_move(live):
            if cards is None:
                return
            before = self._all_moves()
            world.gather(seat)
            for k in range(0, len(cards[seat]), SHOW):
                self._wait_frames(self.forget_frames + 2, stop)  # the last cards' places are forgotten
                world.show(seat, cards[seat][k:k + SHOW])
                self._wait_frames(self.steady_frames + 2, stop)
                world.gather(seat)
            self._settle(live, Reveal(seat, tuple(sorted(cards[seat]))), before, stop, followed=False)

    # ------------------------------------------------------------------------------------ acting at the table
    def _act(self, truth: SquirrelsState, action: Action, stop: threading.Event) -> None:
        """Move the cards as ``action`` says, then answer the table's question if it asks one."""
        world = self.table_world
        self._wait_frames(TOGETHER_FRAMES + 1, stop)  # a player takes longer than that to follow the last one
        before, landed = self._all_moves(), time.monotonic()
        match action:
            case Play(player=p, cards=cards, stacks=stacks):
                self._lift(p, stacks, stop)
                landed = time.monotonic()
                world.land(self.rng.sample(list(cards), len(cards)))
            case Push(player=p, stack=stack):
                self._lift(p, () if stack is None else (stack,), stop)
                landed = time.monotonic()
                world.land(["push"])
            case Skip(player=p, target=target, stack=stack):
                self._lift(p, () if stack is None else (stack,), stop)
                self._spot_forgotten(target, stop)
                landed = time.monotonic()
                world.set_skip(target)
            case Blind(card=card):
                world.flip_blind(card)
            case Pickup():
                world.clear_pile()
        self._settle(truth, action, before, stop, landed=landed)

    def _lift(self, seat: int, stacks: tuple[int, ...], stop: threading.Event) -> None:
        """Stack tops picked up before they are played: the camera reports them gone from the seat first."""
        for stack in stacks:
            self.table_world.lift_top(seat, stack)
        if stacks:
            self._wait_frames(self.forget_frames + 2, stop)

    def _settle(self, truth: SquirrelsState, action: Action, before: list[dict[str, Any]], stop: threading.Event,
                *, followed: bool = True, landed: float | None = None) -> None:
        """Wait for the table to record ``action`` after the moves ``before``, answering its question on the
        player's phone if it asks; what it does not record, the referee types."""
        seat = getattr(action, "player", 0)

        def recorded() -> bool:
            if self._all_moves()[len(before):] == [action.to_json()]:
                return True
            self._answered(truth, seat, action)
            return False

        if self._until(recorded, stop):
            self.camera_moves += 1
            if landed is not None and followed:
                self._shown(action, landed)
        elif stop.is_set():
            return  # the table is being stopped: the move is left as far as it got
        elif followed:
            self._type(action, "the camera or the table did not record it")
        else:
            self.typed += 1
            self.session.submit(action, source="referee")

    def _laid(self, name: str) -> int:
        """How many of ``name``'s stack tops the table has seen laid out."""
        piles = self._view().get("piles", [])
        return next((len(p["cards"]) for p in piles if p["label"] == stacks_label(name)), 0)

    def _all_moves(self) -> list[dict[str, Any]]:
        game = self.session.game
        return [m.event.payload for m in game.moves if m.event.payload.get("type") != Deal.type] if game else []

    def _tidy(self, truth: SquirrelsState, stop: threading.Event) -> None:
        """Take away what the rules took away: a cleared or pushed pile, a Skip card whose turn has passed."""
        world = self.table_world
        for seat in world.skipped():
            if not truth.skips[seat]:
                world.remove_skip(seat)
                self.skip_taken[seat] = world.frames
        if world.pile_faces() and not truth.pile:
            self._clear_pile(stop)

    def _spot_forgotten(self, seat: int, stop: threading.Event) -> None:
        """A Skip card set where a spent one was just taken away waits until the camera has seen that one go: the
        camera takes a card of the same face back in its place within ``forget_frames`` for the same card (a hand
        passing over it), and would never see the new one (ruling SQ-16)."""
        taken = self.skip_taken.pop(seat, None)
        if taken is not None:
            self._wait_frames(taken + self.forget_frames + 2 - self.world.frames, stop)

    def _clear_pile(self, stop: threading.Event) -> None:
        """The pile goes; the next card waits until the camera has seen it go."""
        self.table_world.clear_pile()
        self._until(lambda: not self._view().get("centre"), stop)

    def lay_out(self) -> None:
        """A resumed game's cards, as they lay when the process stopped (the Skip cards left the table)."""
        truth, live = self._follow_or_stand_up(), self.session.state
        if truth is None or not isinstance(live, SquirrelsState) or truth.round != live.round:
            return
        for seat, stacks in enumerate(truth.stacks):
            if live.stacks[seat]:
                for i, stack in enumerate(stacks):
                    if stack.top is not None:
                        self.table_world.lay_top(seat, i, stack.top)
        for card, _value in truth.pile:
            self.table_world.land([card])


def play_squirrels_by_camera(run: CameraRun) -> CameraGame:
    """Bots play one game of Squirrels on the simulated table, every card read by the camera. A game still in
    play in the log, whose world is known, is resumed with its cards as they were."""
    config = run.config
    plan = plan_world(config, run.session, DECK, run.players, run.rng)
    world = SquirrelsWorld(len(plan.players), seed=plan.seed)
    setup = GameSetup(DECK, plan.players, run.variant, run.options, seats=world.seat_zones)
    if world.drawn:  # no mat: the zones drawn once on the camera's picture, as `companion calibrate zones` saves them
        zones_file = config.resolve(f"var/sim-zones/squirrels-{len(plan.players)}.toml")
        zones_file.parent.mkdir(parents=True, exist_ok=True)
        save_zones(zones_file, world.drawn_zones(), world.base.frame)
        run = replace(run, config=replace(config, camera=replace(config.camera, zones_file=str(zones_file), zones={})))

    def team(config: Config) -> SquirrelsBots:
        return SquirrelsBots(run.session, world, world_seed=plan.seed, rng=run.rng, pace=run.pace,
                             forget_frames=config.camera.forget_frames, steady_frames=config.camera.steady_frames)

    return play_in_world(run, world, plan, setup, mat=world.mat, team=team)
