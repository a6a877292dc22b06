"""Clash of Corgis (Original, Treasure Island) on the simulated table: bots (``ClashBot`` decides) play the full game
in secret and move its face-up cards for the rendered camera and the real recogniser to read; the table adapter
turns what it sees into moves, and the bots answer the table's questions on their phones. The real table records
each move as ``clash_real_table.seen`` has it, plus what hidden hands make it ask; the referee types only what the
camera and the table could not settle."""

from __future__ import annotations

import logging
import random
import threading
import time
from dataclasses import replace
from typing import Any

from companion.games.actions import Action, Reshuffle
from companion.games.base import GameSetup, RuleViolation
from companion.games.clash_of_corgis import ClashOfCorgis
from companion.games.clash_of_corgis.actions import (
    Build,
    Deal,
    Discard,
    Expose,
    OracleLook,
    Parry,
    Pick,
    Play,
    Reveal,
)
from companion.games.clash_of_corgis.original_state import OriginalState
from companion.games.clash_of_corgis.treasure_island import PARTY_SIZE
from companion.games.clash_of_corgis.treasure_state import TreasureState
from companion.sim.clash_bots import ClashBot
from companion.sim.clash_real_table import hidden_answer, public, seen
from companion.sim.clash_world import DECK, MAT, ClashWorld
from companion.sim.corgi_world import seats_for
from companion.sim.table import simulated_table
from companion.sim.table_bots import CameraGame, CameraRun, TableBots, questions_asked, until_filmed
from companion.table.session import TableSession
from companion.vision.mat import CENTRE, DISCARD, loot_zone

log = logging.getLogger(__name__)

RULES = ClashOfCorgis()
VARIANTS = ("original", "treasure-island")  # Capture the Illusionist is played on its own grids
Step = tuple[Any, Action, Any]  # a move of the full game: the state before, the move, the state after


def same(recorded: Action, meant: Action) -> bool:
    """Whether the table recorded the move meant: a combo's cards, or the cards a reveal shows, in any order (the
    camera sees them together)."""
    if isinstance(recorded, Play) and isinstance(meant, Play):
        effects = {recorded.effect, meant.effect} - {None}
        return recorded.player == meant.player and sorted(recorded.cards) == sorted(meant.cards) and len(effects) < 2
    if isinstance(recorded, Reveal) and isinstance(meant, Reveal):
        return sorted(recorded.cards) == sorted(meant.cards)
    return recorded == meant


def aligned(truth: Any, table: Any) -> Any:
    """The full game with its face-up piles in the order they lie on the table: cards put down together (foes won,
    a combo) are recorded in the order the camera read them, and a steal takes the top of the pile as it lies."""
    piles = ("loot", "parties", "discard", "foes") if isinstance(truth, TreasureState) else ("pile", "discard")
    truth = truth.clone()
    for name in piles:
        ours, theirs = getattr(truth, name), getattr(table, name)
        if name in ("loot", "parties"):
            setattr(truth, name, [list(t) if sorted(t) == sorted(o) else o for o, t in zip(ours, theirs, strict=True)])
        elif sorted(ours) == sorted(theirs):
            setattr(truth, name, list(theirs))
    fight, seen_fight = getattr(truth, "last_fight", None), getattr(table, "last_fight", None)
    if fight is not None and seen_fight is not None and sorted(fight.foes) == sorted(seen_fight.foes):
        truth.last_fight = replace(fight, foes=seen_fight.foes)
    return truth


class ClashCameraBots(TableBots[Any]):
    """Plays every seat of a real-table Clash game: the full game is the bots' secret (``truth``); each of its moves
    is brought to the table as cards moved for the camera or an answer on a phone."""

    rules = RULES

    def __init__(self, session: TableSession, world: ClashWorld, *, world_seed: int, rng: random.Random,
                 pace: float = 1.0, forget_frames: int = 30) -> None:
        super().__init__(session, world, world_seed=world_seed, rng=rng, pace=pace)
        self.table_world = world
        self.forget_frames = forget_frames  # the camera's: how long it keeps the place of a card it no longer sees
        game = session.game
        assert game is not None
        self.players = [ClashBot(seat, random.Random(rng.getrandbits(32))) for seat in range(len(game.setup.players))]
        self.camera_moves = 0  # moves the camera's cards recorded with no typing
        self.answers = 0  # moves answered on the players' phones
        full = GameSetup(game.setup.game, game.setup.players, game.setup.variant, game.setup.options,
                         full_information=True)
        self.truth = self._advance(RULES.setup(full), None)[-1][2]

    # ------------------------------------------------------------------------------------ the secret game
    def _advance(self, state: Any, action: Action | None) -> list[Step]:
        """``action`` and the shuffles, deals and random picks it leads to, each seeded by the world's seed and its
        number alone; the deal's first player is the one the table drew."""
        steps: list[Step] = []
        if action is not None:
            steps.append((state, action, RULES.apply(state, action)))
            state = steps[-1][2]
        while (chance := RULES.chance(state, random.Random(f"{self.world_seed}/{self.chances}"))) is not None:
            if isinstance(chance, Deal):
                chance = replace(chance, first=self.session.state.first)
            steps.append((state, chance, RULES.apply(state, chance)))
            state = steps[-1][2]
            self.chances += 1
        return steps or [(state, action, state)]  # type: ignore[list-item]

    def play(self, stop: threading.Event) -> None:
        """Act until the game ends, the referee replaces it, or ``stop`` is set."""
        while self.playing(stop):
            truth = self.truth
            if RULES.outcome(truth) is not None:
                break
            (seat,) = RULES.to_move(truth) or (None,)
            action = self.players[seat].choose(RULES, truth) if seat is not None else None
            if action is None:
                log.warning("the bots have no move in %s: they stand up", truth.phase)
                break
            stop.wait(self.rng.uniform(0.2, 0.5) * self.pace)
            self._catch_up(truth, truth, stop)
            after = RULES.apply(truth, action)
            recorded = self._bring(seen(truth, action, after), after, stop)
            if isinstance(recorded, Play):
                action = recorded  # the combo's cards in the order the table recorded them
            steps = self._advance(truth, action)
            self.truth = steps[-1][2]
            self._catch_up(truth, steps[0][2], stop)
            for before, act, after in steps[1:]:  # the shuffles, deals and random picks it led to
                self._catch_up(before, before, stop)
                if not isinstance(act, Deal | Reshuffle):  # the table shuffles and deals as it records
                    self._bring(seen(before, act, after), after, stop)
                self._catch_up(before, after, stop)
            recorded_state = self._table_state()
            self.truth = aligned(self.truth, recorded_state)
            self._tidy(self.truth)
            table, ours = public(RULES.view(recorded_state)), public(RULES.view(self.truth))
            if table != ours and self.playing(stop):
                differ = {k: (table.get(k), ours.get(k)) for k in ours if table.get(k) != ours.get(k)}
                log.warning("the table no longer shows the bots' game (%s): they stand up", differ)
                self.wrong += 1
                break
        self.close()

    def _catch_up(self, before: Any, after: Any, stop: threading.Event) -> None:
        """Bring the table the answers its hidden hands need to be where the full game is."""
        for _ in range(6):
            need = hidden_answer(self._table_state(), before, after)
            if need is None or not self.playing(stop):
                return
            self._bring(need, after, stop)

    # ------------------------------------------------------------------------------------ to the table
    def _bring(self, move: Action, after: Any, stop: threading.Event) -> Action | None:
        """Move the cards ``move`` shows and wait for the table to record it (answering its questions); what it
        does not record, or records otherwise, the referee types. The move as the table recorded it, if it did."""
        count = len(self._table_moves())
        landed = time.monotonic()
        self._show(move, after, stop)
        if self._until(lambda: self._answer(move) or len(self._table_moves()) > count, stop):
            event = self._table_moves()[count].event
            recorded = RULES.decode(event.payload)
            if same(recorded, move):
                if event.source.startswith("camera"):
                    self.camera_moves += 1
                    self._shown_at(event.seq, landed)
                else:
                    self.answers += 1
                return recorded
        if self.playing(stop):
            self._type(move, "the camera or the table did not record it", count)
        return None

    def _left_out(self, payload: dict[str, Any]) -> bool:
        """Only the shuffles and deals the table records on its own. A random pick (the Archer's) is a chance event
        too, but the table records it from the card the camera sees."""
        return isinstance(RULES.decode(payload), Deal | Reshuffle)

    def _table_state(self) -> Any:
        """The game as the table has recorded it, read whole (not between a move and the shuffle it calls for)."""
        return self.session.current()[2]

    def _same(self, recorded: Action, meant: Action) -> bool:
        return same(recorded, meant)

    def _answer(self, move: Action) -> bool:
        """Press the answer on the phone of the player the table asks, if one of its options is ``move``."""
        for prompt in self.session.prompts.open():
            for index, option in enumerate(prompt.options):
                if prompt.seat is not None and same(option.action, move):
                    by = f"{self.session.state.players[prompt.seat]}'s phone"
                    result = self.session.prompts.answer(prompt.id, index, by=by, referee=False)
                    return not isinstance(result, RuleViolation)
        return False

    # ------------------------------------------------------------------------------------ the cards
    def _place(self, seat: int) -> str:
        return self.table_world.seat_zones[seat]

    def _show(self, move: Action, after: Any, stop: threading.Event) -> None:
        """Put down the cards by which the table sees ``move`` (nothing for a choice no card shows)."""
        state = self._table_state()
        moves = (self._original(state, move) if isinstance(state, OriginalState)
                 else self._treasure(state, move, after))
        if moves:
            self._forgotten([face for face, _zone in moves], stop)
            self.table_world.put(moves)

    def _forgotten(self, faces: list[str], stop: threading.Event) -> None:
        """Cards coming back onto the table wait until the camera has seen them go. The camera takes a card put
        back in its place within ``forget_frames`` for the same card (a hand passing over it) and never reports it
        again: a foe that had just been fought, reshuffled into the deck at once and turned up again in the same
        place was never seen (Treasure Island seed 17); a real table's shuffle takes longer than that."""
        taken = self.table_world.last_taken(faces)
        if taken is not None:
            until_filmed(self.table_world, taken + self.forget_frames + 2 - self.table_world.frames, lambda: False,
                         stop)

    def _original(self, s: OriginalState, move: Action) -> list[tuple[str, str]]:
        p = s.pending
        match move:
            case Play(cards=cards):
                return [(c, CENTRE) for c in cards]
            case Expose(player=seat, card=card) | Parry(player=seat, card=str(card)) if card not in s.exposed[seat]:
                return [(card, self._place(seat))]
            case Pick(card=str(card)) if p is not None and p.target is not None:
                return [(card, self._place(p.target))]
            case OracleLook(card=str(card)):
                return [(card, CENTRE)]
            case Discard(player=seat, card=str(card)) if card not in s.exposed[seat]:
                return [(card, CENTRE)]  # the Mage's burnt card
        return []

    def _treasure(self, s: TreasureState, move: Action, after: TreasureState) -> list[tuple[str, str]]:
        p = s.pending
        match move:
            case Build(player=seat, card=str(card), replace=old) | Parry(player=seat, card=str(card), replace=old):
                room = len(s.parties[seat]) - (old is not None) < PARTY_SIZE
                return [*([(old, DISCARD)] if old else []), (card, self._place(seat) if room else DISCARD)]
            case Pick(card=str(card)) | Discard(card=str(card)):
                return [(card, DISCARD)]
            case Pick(card=None) if p is not None and p.target is not None:
                stolen = [c for c in s.loot[p.target] if c in after.loot[p.player]]
                return [(c, loot_zone(self._place(p.player))) for c in stolen]
            case Reveal(cards=cards):
                return [(c, CENTRE) for c in cards]  # the foes flipped, or the hand a Berserker has shown
            case OracleLook(player=seat, card=str(card)):
                return [(card, loot_zone(self._place(seat)))]
        return []

    def _tidy(self, truth: Any) -> None:
        """Every face-up card where the rules have it: the round's pile gathered, a fight's foes carried to the loot
        or the discard pile, a party retired, cards a reveal showed back in the hand."""
        if isinstance(truth, OriginalState):
            layout = {CENTRE: truth.pile, **{self._place(s): e for s, e in enumerate(truth.exposed)}}
        else:
            layout = {CENTRE: truth.foes, DISCARD: truth.discard}
            for seat, zone in enumerate(self.table_world.seat_zones[: len(truth.players)]):
                layout[zone], layout[loot_zone(zone)] = truth.parties[seat], truth.loot[seat]
        self.table_world.arrange(layout)


def play_clash_by_camera(run: CameraRun) -> CameraGame:
    """Bots play one game of Clash of Corgis (``original`` — the default — or ``treasure-island``) on the simulated
    table, every face-up card read by the camera. The bots' hands are their secret, so a game left in play is not
    resumed: a new one starts."""
    variant = "original" if run.variant == "standard" else run.variant
    if variant not in VARIANTS:
        raise SystemExit(f"the simulated table plays Clash of Corgis' {' and '.join(VARIANTS)} by camera, "
                         f"not {variant}: try --entry direct")
    session, players = run.session, run.players
    seed = run.rng.getrandbits(32)
    world = ClashWorld(len(players), seed=seed, foes=variant == "treasure-island")
    config = replace(run.config, camera=replace(run.config.camera, mat=MAT))  # the camera finds the world's mat
    with simulated_table(config, session, world, DECK, run.rng.getrandbits(16)):
        setup = GameSetup(DECK, players, variant, run.options, seats=seats_for(len(players)))
        game_id = session.start_game(setup, "demo")
        bots = ClashCameraBots(session, world, world_seed=seed, rng=run.rng, pace=run.pace,
                               forget_frames=config.camera.forget_frames)
        bots.play(run.stop)
        asked = questions_asked(session, game_id)
        return CameraGame(game_id, bots.camera_moves, bots.typed, bots.wrong, 0, 0, asked, bots.landed_to_shown_s,
                          bots.handed_to_shown_s)
