"""Bot players for the simulated PigzUp! table: they flip in turn, race on the emulated pads and press the
mock GPIO buttons, with varying skill — some topple, some shout early. They only act on the physical world
(cards, piggies, buttons); the referee learns everything through the camera, the Pico link and GPIO."""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from gpiozero import Factory

from companion.games.pigzup.actions import Flip
from companion.games.pigzup.state import Phase, PigzState
from companion.sim.pico import SimulatedPico
from companion.sim.pigzup_world import PigzWorld
from companion.sim.table_bots import until_filmed
from companion.table.session import TableSession

log = logging.getLogger(__name__)

PLACE_S = 0.35  # how long a hand takes to set a piggy down (the emulator's default)
SETTLE_S = 0.5  # a bot shouts this long after letting go of its last piggy, once the pile is still


@dataclass(frozen=True)
class Skill:
    """How a bot stacks: reaction to the call, time per piggy, and its bad habits."""

    reaction_s: float
    per_piggy_s: float
    topple: float  # chance the pile falls during the hold
    early: float  # chance of shouting one piggy short

    @classmethod
    def draw(cls, rng: random.Random) -> Skill:
        return cls(rng.uniform(0.4, 0.8), rng.uniform(0.45, 0.9), rng.uniform(0.05, 0.3), rng.uniform(0.0, 0.12))


class PigzBots:
    """Plays every seat of the simulated table, following what the referee shows (the session's state)."""

    def __init__(
        self,
        session: TableSession,
        world: PigzWorld,
        pico: SimulatedPico,
        factory: Factory,
        button_pins: tuple[int, ...],
        *,
        rng: random.Random,
        pace: float = 1.0,
        grace_frames: int = 60,
        skills: list[Skill] | None = None,
        settled: int = 0,
    ) -> None:
        self.session = session
        self.world = world
        self.pico = pico
        self.factory = factory
        self.button_pins = button_pins
        self.rng = rng
        self.pace = pace  # multiplies the bots' thinking pauses (not the physics)
        self.grace_frames = grace_frames  # how long the bots wait for the camera to report a flip, in its frames
        self.skills = skills or [Skill.draw(rng) for _ in world.piles]
        self.misses = 0  # flips the referee had to enter because the camera did not report them
        self.game_id = session.game_id
        self._raced = -1
        self._settled = settled  # matches already carried out on the table (a resumed game's)
        self._timers: list[threading.Timer] = []

    # ------------------------------------------------------------------------------------ the loop
    def play(self, stop: threading.Event, poll_s: float = 0.05) -> None:
        """Act until the game ends, the referee replaces it, or ``stop`` is set."""
        while not stop.is_set() and self.session.game_id == self.game_id and self.session.status() == "playing":
            state = self.session.state
            if not isinstance(state, PigzState):
                break  # the referee started another game between our two looks
            self._settled = min(self._settled, len(state.results))  # the referee undid a verdict
            if len(state.results) > self._settled:
                self._after_match(state)
            elif state.phase is Phase.FLIP:
                self._flip(state, stop)
            elif state.phase is Phase.RACE and len(state.results) != self._raced:
                self._race(state)
            stop.wait(poll_s)
        self.cancel()

    def cancel(self) -> None:
        for timer in self._timers:
            timer.cancel()

    # ------------------------------------------------------------------------------------ turns
    def _flip(self, state: PigzState, stop: threading.Event) -> None:
        seat = state.turn
        seen = len(state.faceup[seat])
        stop.wait(self.rng.uniform(0.3, 0.8) * self.pace)
        self.world.reach(seat)
        stop.wait(0.15 * self.pace)
        card = self.world.flip(seat)
        self.world.reach(None)
        if card is None:
            return  # nothing left to flip on the table (the referee undid a flip the world had made)
        def recorded() -> bool:  # the flip was recorded, or the referee changed the game meanwhile
            now = self.session.state
            return (not isinstance(now, PigzState) or len(now.faceup[seat]) != seen or now.phase is not Phase.FLIP
                    or len(now.results) != len(state.results))

        if until_filmed(self.world, self.grace_frames, recorded, stop) or stop.is_set():
            return
        # The camera missed it: the referee enters the flip by hand, as at a real table.
        self.misses += 1
        log.warning("the camera did not report %s's flip of %s; the referee enters it", state.players[seat], card)
        self.session.submit(Flip(seat, card), source="referee")

    def _race(self, state: PigzState) -> None:
        assert state.race is not None
        self._raced = len(state.results)
        for seat in state.race.racers:
            self._stack(seat, state.race.piggies)

    def _stack(self, seat: int, piggies: int) -> None:
        """Schedule one racer's whole race on its pad and its button: piggies, the shout, maybe a topple."""
        skill, pad = self.skills[seat], self.pico.pads[seat]
        early = self.rng.random() < skill.early
        count = piggies - 1 if early else piggies
        start = skill.reaction_s + self.rng.uniform(0.0, 0.3)
        with self.pico.lock:
            for k in range(count):
                pad.place(at_s=start + k * skill.per_piggy_s * self.rng.uniform(0.8, 1.2))
            last = start + (count - 1) * skill.per_piggy_s * 1.2
            shout = last + PLACE_S + SETTLE_S + self.rng.uniform(0.0, 0.2)
            if not early and self.rng.random() < skill.topple:
                pad.topple(at_s=shout + self.rng.uniform(0.2, 1.0))
        self._later(shout, self._press, seat)

    def _press(self, seat: int) -> None:
        pin = self.factory.pin(self.button_pins[seat])
        pin.drive_low()
        self._later(0.12, pin.drive_high)

    def _after_match(self, state: PigzState) -> None:
        """Carry the cards as the verdict says and put the piggies back in the middle."""
        result = state.results[self._settled]
        self._settled += 1
        self.cancel()
        self.world.settle(result.winner, result.race.racers)
        with self.pico.lock:
            for pad in self.pico.pads:
                pad.clear(at_s=0.3)
        time.sleep(1.0 * self.pace)

    def _later(self, seconds: float, fn: Callable[..., object], *args: object) -> None:
        timer = threading.Timer(seconds, fn, args)
        timer.daemon = True
        self._timers = [t for t in self._timers if t.is_alive()] + [timer]
        timer.start()
