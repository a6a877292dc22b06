"""Corgi Pileup's table: every card is played face up into the centre, in full view of the camera.

- A card coming to rest in the centre is a play: by the seat it came from when the camera saw it in that
  seat's zone first (a card shown, then pushed in), otherwise by the seat whose turn it is; the log's source
  says which (ruling CP-14). During a 6's discard, a card in the centre is the named player's discard.
- Several cards landing in one frame cannot be put in order by the camera: the referee says which card the
  player to move put down (ruling CP-15).
- A card the camera cannot name is a question for the referee, never a guess.
- The choices the cards do not show — a 6's target, the next leader after a 10, a 1's value on the final
  trick — are prompts to the player who makes them.
- A cleared centre is the trick collected: the page stops showing it. The hands stay hidden: the claim audit
  runs at the round's end, when every card a player held has been played in view.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.games.actions import Action
from companion.games.corgi_pileup.actions import ChooseLeader, ChooseSixTarget, Play, ScoreOne, SixDiscard
from companion.games.corgi_pileup.rules import article
from companion.games.corgi_pileup.state import NUMBERS, CorgiState, Phase
from companion.table.adapters.base import TableAdapter
from companion.table.observations import CardGone, CardSeen, CardUnreadable, ZoneCleared
from companion.table.prompts import Option

if TYPE_CHECKING:
    from companion.table.live import LiveTable

CENTRE = "centre"
SHOWN_FOR_S = 20.0  # a card seen in a seat's zone this recently and then in the centre came from that seat
DECISIONS = ("six-target", "choose-leader", "score-one")


@dataclass(frozen=True)
class _Landing:
    face: str
    frame: int
    t: float


class CorgiPileupAdapter(TableAdapter):
    game = "corgi-pileup"

    def __init__(self, table: LiveTable) -> None:
        super().__init__(table)
        self.shown: dict[str, tuple[int, float]] = {}  # face -> (seat, time) of a card seen in a seat's zone
        self.landed: deque[_Landing] = deque()  # centre cards waiting to be read as plays, in order
        self.on_table: list[str] = []  # the cards lying in the centre now (the trick being played or collected)
        self.unordered: list[_Landing] = []  # cards that landed together, waiting for the referee to order them
        self.unordered_after = 0  # how many moves the game had when they landed
        # The current trick's cards the camera has matched, by face: a card recorded some other way (typed by
        # the referee while the camera was out, or before a restart) is matched when it shows, never replayed.
        self.trick_id: tuple[int, int] = (-1, -1)
        self.matched: Counter[str] = Counter()
        self.said_trick: tuple[int, int] | None = None  # the trick last announced

    # ------------------------------------------------------------------------------------ inputs
    def observe(self, observation: Any, t: float) -> None:
        match observation:
            case CardSeen(zone=zone, face=face, frame=frame) if zone == CENTRE:
                self.on_table.append(face)
                self.landed.append(_Landing(face, frame, t))
            case CardSeen(zone=zone, face=face):
                seat = self._seat(zone)
                if seat is not None:
                    self.shown[face] = (seat, t)
            case CardUnreadable(zone=zone, best=best) if zone == CENTRE or self._seat(zone) is not None:
                self._unreadable(zone, best)
            case CardGone(zone=zone, face=face):
                if zone == CENTRE and face in self.on_table:
                    self.on_table.remove(face)
                self.table.withdraw_objection(zone, face)
            case ZoneCleared(zone=zone):
                if zone == CENTRE:
                    self.on_table.clear()
                self.table.withdraw_objection(zone)
                self.table.session.prompts.withdraw(f"unreadable:{zone}", "the card was taken away")

    def tick(self, t: float) -> None:
        """Read the centre's new cards as plays, one at a time, each against the state the last one left."""
        while self.landed and not self.unordered:
            state = self._state()
            if state is None:
                self.landed.clear()
                return
            self._absorb_recorded(state)
            batch = [c for c in self.landed if c.frame == self.landed[0].frame] if self.landed else []
            if len(batch) > 1 and state.phase is Phase.PLAY:
                self.unordered = batch
                self.unordered_after = len(self.table.session.game.moves)  # type: ignore[union-attr]
                self.landed = deque(c for c in self.landed if c not in batch)
                self._ask_order(state, batch)
                return
            if batch:
                self._play(state, self.landed.popleft(), t)
            if self.table.objection is not None:
                self.landed.clear()  # nothing after a refused card counts until the cards are put right
                return

    def _absorb_recorded(self, state: CorgiState) -> None:
        """Landed cards of the current trick that were recorded some other way are matched, never replayed."""
        self._follow_trick(state)
        recorded = Counter(str(c) for _seat, c in state.trick)
        for landing in list(self.landed):
            if recorded[landing.face] > self.matched[landing.face]:
                self.matched[landing.face] += 1
                self.landed.remove(landing)

    def changed(self, t: float) -> None:
        """Ask each choice the game now waits for; withdraw the ones it no longer waits for."""
        state = self._state()
        prompts = self.table.session.prompts
        asked = set()
        if state is not None:
            self._announce_trick(state)
            self._ordered(state)
            for about, seat, question, options in self._decisions(state):
                prompts.ask(about, question, options, seat=seat)
                asked.add(about)
        for prompt in prompts.open():
            if prompt.about.split(":")[0] in DECISIONS and prompt.about not in asked:
                prompts.withdraw(prompt.about, "the game has moved on")

    # ------------------------------------------------------------------------------------ plays
    def _state(self) -> CorgiState | None:
        _game_id, status, state = self.table.session.current()
        return state if isinstance(state, CorgiState) and status == "playing" else None

    def _seat(self, zone: str) -> int | None:
        return self.table.seat_at(zone) if isinstance(self.table.session.state, CorgiState) else None

    def _play(self, state: CorgiState, landing: _Landing, t: float) -> None:
        card = int(landing.face)
        if state.phase is Phase.SIX_DISCARD and state.six_target is not None:
            seat, source = state.six_target, "camera"
            reading: Action = SixDiscard(seat, card)
        else:
            seat, source = self._who(state, landing.face, t)
            reading = Play(seat, card)
        what = f"{state.players[seat]} played {article(card)}"
        game = self.table.session.game
        before = len(game.moves) if game else 0
        self.table.propose([reading], source=source, zone=CENTRE, face=landing.face, seat=seat, question=what)
        if game and len(game.moves) > before:
            self.matched[landing.face] += 1

    def _announce_trick(self, state: CorgiState) -> None:
        """Say who won each trick as it completes (the winner leads next, or chooses first)."""
        trick = (state.round, state.trick_no)
        said = self.said_trick
        if said is not None and trick[0] == said[0] and trick[1] > said[1] and not state.trick:
            winner = state.decider if state.phase in (Phase.SIX_TARGET, Phase.CHOOSE_LEADER) else state.leader
            if winner is not None and state.phase is not Phase.DEAL:
                self.table.say(f"{state.players[winner]} wins the trick.")
        self.said_trick = trick

    def _mover(self, state: CorgiState) -> int:
        """The player a card put down now belongs to, as the rules say (the leader when no one is to move)."""
        return (self.table.session.game.ruleset.to_move(state) or (state.leader,))[0]  # type: ignore[union-attr]

    def _follow_trick(self, state: CorgiState) -> None:
        if (state.round, state.trick_no) != self.trick_id:
            self.trick_id, self.matched = (state.round, state.trick_no), Counter()

    def _who(self, state: CorgiState, face: str, t: float) -> tuple[int, str]:
        """The seat a centre card came from: seen in a seat's zone first, else whose turn it is."""
        shown = self.shown.pop(face, None)
        if shown is not None and t - shown[1] <= SHOWN_FOR_S:
            seat = shown[0]
            return seat, f"camera (from {state.players[seat]}'s place)"
        return self._mover(state), "camera (whose turn it was)"

    def _ask_order(self, state: CorgiState, batch: list[_Landing]) -> None:
        """Several cards landed at once: the referee says which one the player to move put down."""
        ruleset = self.table.session.game.ruleset  # type: ignore[union-attr]
        turn = self._mover(state)
        faces = sorted({c.face for c in batch}, key=int)
        options = [Option(f"{state.players[turn]} played {article(int(f))}", Play(turn, int(f))) for f in faces]
        question = (f"{len(batch)} cards landed in the centre at once ({', '.join(c.face for c in batch)}): "
                    f"which did {state.players[turn]} play?")
        self.table.ask("order", question, [o for o in options if ruleset.legal(state, o.action) is None], seat=None)

    def _ordered(self, state: CorgiState) -> None:
        """The referee named the card of a batch that was played: the rest are read next, in turn."""
        game = self.table.session.game
        last = game.moves[-1].event.payload if game and game.moves else {}
        if not self.unordered or not game or len(game.moves) <= self.unordered_after or last.get("type") != Play.type:
            return
        rest = list(self.unordered)
        for landing in rest:
            if landing.face == str(last["card"]):
                rest.remove(landing)
                self.matched[landing.face] += 1
                self.unordered = []
                self.landed.extendleft(reversed(rest))
                self.table.session.prompts.withdraw("order", "answered")
                return

    def _unreadable(self, zone: str, best: str) -> None:
        state = self._state()
        if state is None or zone != CENTRE:
            return
        ruleset = self.table.session.game.ruleset  # type: ignore[union-attr]
        seat = self._mover(state)
        make = (lambda n: SixDiscard(seat, n)) if state.phase is Phase.SIX_DISCARD else (lambda n: Play(seat, n))
        options = [Option(f"{state.players[seat]}: {n}", make(n)) for n in NUMBERS]
        legal = [o for o in options if ruleset.legal(state, o.action) is None]
        if legal:
            question = (f"The camera cannot read the card {state.players[seat]} put in the centre "
                        f"(it looks a little like {best}): which card is it?")
            self.table.ask(f"unreadable:{zone}", question, legal, seat=None)

    # ------------------------------------------------------------------------------------ choices
    def _decisions(self, s: CorgiState) -> list[tuple[str, int, str, list[Option]]]:
        """The choices the game waits for that no card shows: (about, seat, question, options)."""
        names = s.players
        ruleset = self.table.session.game.ruleset  # type: ignore[union-attr]
        found: list[tuple[str, int, str, list[Option]]] = []
        if s.phase is Phase.SIX_TARGET and s.decider is not None:
            p = s.decider
            options = [Option("Myself" if q == p else names[q], ChooseSixTarget(p, q)) for q in range(len(names))]
            found.append(("six-target", p, f"{names[p]} won the trick with a 6: who discards a card and draws "
                          "a new one?", options))
        elif s.phase is Phase.CHOOSE_LEADER and s.decider is not None:
            p = s.decider
            options = [Option(names[q], ChooseLeader(p, q)) for q in range(len(names)) if q != p]
            found.append(("choose-leader", p, f"A 10 was in {names[p]}'s trick: {names[p]}, who leads the next "
                          "trick?", options))
        elif s.phase is Phase.SCORE_ONES:
            values = sorted({0} | {card for _seat, card in s.final_trick})
            for p in s.ones_pending:
                options = [Option(str(v), ScoreOne(p, v)) for v in values]
                found.append((f"score-one:{p}", p, f"{names[p]} played a 1 on the final trick: score 0 or the "
                              "value of a card in that trick?", options))
        return [(about, seat, question, [o for o in options if ruleset.legal(s, o.action) is None])
                for about, seat, question, options in found]

    # ------------------------------------------------------------------------------------ view
    def live_key(self, t: float) -> tuple[Any, ...]:
        return (tuple(self.on_table),)

    def view(self) -> dict[str, Any]:
        """The cards lying in the centre now, as the camera sees them."""
        return {"centre": list(self.on_table)}
