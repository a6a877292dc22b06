"""Crazy Corgi's table: every card is face up, so the camera can follow the whole game (rulings CC-18 to CC-22).

The zones (``hardware/README.md``, "Crazy Corgi"): ``centre`` is the draw zone, ``discard`` the discard pile and
``seat-N/kennel-K`` Kennel K of the player sitting at ``seat-N`` (the Crazy Corgi mat, or drawn zones).

- A card coming to rest in the draw zone is a reveal by whoever draws now: the drawer, or in a Baseball the player
  whose card it is (CC-18).
- A card arriving in a player's Kennel is a placement, and says more when the game waits for a choice: a drawn
  card moved into the drawer's own Kennel is their stop, into another player's Kennel after a bust the recipient;
  a Corgi from the discard pile during Bones is the pick, an opponent's top card during Fleas the steal (CC-19).
- A Kennel cleared while its owner holds a card that fits nowhere is the forced discard; a completed set is
  discarded by the rules as it scores, so clearing it records nothing (CC-20).
- The choices no card shows — the bust's recipient, a Wild's declared value, the Fleas target, Bones' pick, the
  Bowl's stop and "stop drawing" — are prompts to the player who makes them (CC-21).
- A card the camera cannot name is a question for the referee, never a guess; new cards landing in the draw zone
  in one frame are put in order by the referee; a card already recorded is matched, never recorded twice (CC-22).
"""

from __future__ import annotations

import re
from collections import Counter, deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.games.actions import Action
from companion.games.crazy_corgi.actions import (
    DeclareWild,
    DiscardKennel,
    Give,
    Place,
    Reveal,
    Steal,
    Stop,
    TakeBones,
)
from companion.games.crazy_corgi.sets import KENNELS, card_name, deck, is_card, names
from companion.games.crazy_corgi.state import CrazyState, Phase
from companion.table.adapters.base import TableAdapter
from companion.table.observations import CardGone, CardSeen, CardUnreadable, ZoneCleared
from companion.table.prompts import Option

if TYPE_CHECKING:
    from companion.table.live import LiveTable

CENTRE = "centre"  # the draw zone
DISCARD = "discard"
KENNEL_ZONE = re.compile(r"(?P<seat>.+)/kennel-(?P<kennel>[1-9])")  # ``seat-2/kennel-3``
DECISIONS = ("give", "fleas", "bones", "declare", "stop")


@dataclass(frozen=True)
class _Sighting:
    """What the camera reported in one zone, waiting to be read: a card arriving, gone (``gone``), or the whole
    zone cleared (``face`` empty)."""

    zone: str
    face: str
    frame: int
    gone: bool = False


class CrazyCorgiAdapter(TableAdapter):
    game = "crazy-corgi"

    def __init__(self, table: LiveTable) -> None:
        super().__init__(table)
        self.waiting: deque[_Sighting] = deque()  # read one at a time, each against the state the last one left
        self.lying: dict[str, list[str]] = {}  # zone -> the cards the camera sees there now, oldest first
        self.gone: dict[str, Counter[str]] = {}  # Kennel zone -> its recorded cards the camera saw leave
        self.unordered: list[_Sighting] = []  # new cards that landed in the draw zone together
        self.unordered_after = 0  # how many moves the game had when they landed
        self.scored_said = 0  # sets already announced

    # ------------------------------------------------------------------------------------ inputs
    def observe(self, observation: Any, t: float) -> None:
        match observation:
            case CardSeen(zone=zone, face=face, frame=frame) if self._watched(zone):
                for other, faces in self.lying.items():  # a card moved on is no longer where it lay, even if the
                    if other != zone and face in faces:  # camera took it for covered there (a new card on its spot)
                        faces.remove(face)
                        break
                self.lying.setdefault(zone, []).append(face)
                self.waiting.append(_Sighting(zone, face, frame))
            case CardUnreadable(zone=zone, best=best):
                self._unreadable(zone, best)
            case CardGone(zone=zone, face=face, frame=frame):
                if face in self.lying.get(zone, []):
                    self.lying[zone].remove(face)
                self.table.withdraw_objection(zone, face)
                if KENNEL_ZONE.fullmatch(zone):
                    self.waiting.append(_Sighting(zone, face, frame, gone=True))
            case ZoneCleared(zone=zone, frame=frame):
                self.lying.pop(zone, None)
                self.table.withdraw_objection(zone)
                self.table.session.prompts.withdraw(f"unreadable:{zone}", "the card was taken away")
                if KENNEL_ZONE.fullmatch(zone):
                    self.waiting.append(_Sighting(zone, "", frame))

    @staticmethod
    def _watched(zone: str) -> bool:
        return zone in (CENTRE, DISCARD) or KENNEL_ZONE.fullmatch(zone) is not None

    def tick(self, t: float) -> None:
        """Read what the camera reported, in order. A sighting that implies a choice first (a stop, a recipient,
        a Bones pick, a steal, a forced discard) is read again once that choice is recorded."""
        while self.waiting and not self.unordered:
            state = self._state()
            if state is None:
                self.waiting.clear()
                return
            sighting = self.waiting[0]
            if sighting.zone == CENTRE and self._ask_order(state, sighting):
                return
            before = self._moves()
            again = self._read(state, sighting)
            if not again or self._moves() == before:
                self.waiting.popleft()
            if self.table.objection is not None:
                self.waiting.clear()  # nothing after a refused card counts until the cards are put right
                return

    def changed(self, t: float) -> None:
        """Ask each choice the game now waits for; withdraw the ones it no longer waits for."""
        state = self._state()
        prompts = self.table.session.prompts
        asked = set()
        if state is not None:
            self._ordered(state)
            self._announce_sets(state)
            for about, seat, question, options in self._decisions(state):
                if options:
                    prompts.ask(about, question, options, seat=seat)
                    asked.add(about)
        for prompt in prompts.open():
            if prompt.about in DECISIONS and prompt.about not in asked:
                prompts.withdraw(prompt.about, "the game has moved on")

    # ------------------------------------------------------------------------------------ reading the cards
    def _state(self) -> CrazyState | None:
        _game_id, status, state = self.table.session.current()
        return state if isinstance(state, CrazyState) and status == "playing" else None

    def _moves(self) -> int:
        game = self.table.session.game
        return len(game.moves) if game else 0

    def _kennel(self, zone: str) -> tuple[int, int] | None:
        """(seat, Kennel 0-2) of a Kennel zone at a place where a player sits."""
        match = KENNEL_ZONE.fullmatch(zone)
        if match is None or not 1 <= int(match["kennel"]) <= KENNELS:
            return None
        seat = self.table.seat_at(match["seat"])
        return None if seat is None else (seat, int(match["kennel"]) - 1)

    def _propose(self, action: Action, zone: str, face: str, seat: int | None, question: str) -> None:
        self.table.propose([action], source=f"camera ({zone})", zone=zone, face=face, seat=seat, question=question)

    def _read(self, state: CrazyState, sighting: _Sighting) -> bool:
        """Propose what one sighting means; ``True`` if it is to be read again after the move it proposed."""
        if sighting.zone == CENTRE:
            self._reveal(state, sighting)
            return False
        where = self._kennel(sighting.zone)
        if where is None:
            return False  # the discard pile, or a place where nobody sits: nothing to record
        seat, k = where
        if not sighting.face:
            return self._cleared(state, seat, k, sighting.zone)
        if sighting.gone:
            return self._left(state, seat, k, sighting)
        return self._arrived(state, seat, k, sighting)

    def _revealer(self, state: CrazyState) -> int:
        return state.baseball[0] if state.current is Phase.BASEBALL else state.turn

    def _new_reveal(self, state: CrazyState, face: str) -> bool:
        """Whether a card in the draw zone is a card not yet revealed (not one recorded and seen again)."""
        face_up = Counter([*state.drawn, *state.to_place])
        return face in state.deck and self.lying.get(CENTRE, []).count(face) > face_up[face]

    def _reveal(self, state: CrazyState, sighting: _Sighting) -> None:
        face = sighting.face
        in_kennel = any(face in kennel for seat in state.kennels for kennel in seat)
        if not self._new_reveal(state, face) and not in_kennel:
            return  # already recorded (the draw zone seen again, typed while the camera was out, a restart)
        seat = self._revealer(state)
        self._propose(Reveal(seat, face), CENTRE, face, seat, f"{state.players[seat]} revealed the {card_name(face)}")

    def _arrived(self, state: CrazyState, seat: int, k: int, sighting: _Sighting) -> bool:
        zone, face = sighting.zone, sighting.face
        kennel = state.kennels[seat][k]
        gone = self.gone.setdefault(zone, Counter())
        if self.lying.get(zone, []).count(face) <= kennel.count(face):
            gone[face] = max(0, gone[face] - 1)
            self.table.withdraw_objection(zone, "")  # a cleared Kennel objected to is back
            return False  # a card already recorded there, seen again
        if kennel and all(gone[c] >= n for c, n in Counter(kennel).items()):
            return self._cleared(state, seat, k, zone)  # its cards left before this one arrived
        first = self._implied(state, seat, face)
        action = first or Place(seat, face, k)
        self._propose(action, zone, face, seat, f"{state.players[seat]} put the {card_name(face)} in Kennel {k + 1}")
        return first is not None

    def _implied(self, state: CrazyState, seat: int, face: str) -> Action | None:
        """The choice a card arriving in ``seat``'s Kennel shows was made, before it can be placed."""
        phase, drawer = state.current, state.turn
        if phase is Phase.DRAW and seat == drawer and face in state.drawn:
            return Stop(seat)  # the drawer starts placing what they drew: they stopped
        if phase is Phase.GIVE and seat != drawer and face in state.drawn:
            return Give(drawer, seat)  # the bust's cards go to the player placing them
        if phase is Phase.BONES and seat == drawer and face in state.discard:
            return TakeBones(seat, face)
        if phase is Phase.FLEAS and seat == drawer:
            return self._steal_of(state, face)
        return None

    def _steal_of(self, state: CrazyState, face: str) -> Action | None:
        for target, kennels in enumerate(state.kennels):
            for k, kennel in enumerate(kennels):
                if target != state.turn and kennel and kennel[-1] == face:
                    return Steal(state.turn, target, k)
        return None

    def _left(self, state: CrazyState, seat: int, k: int, sighting: _Sighting) -> bool:
        """A recorded card left a Kennel: during Fleas, the drawer took an opponent's top card."""
        kennel = state.kennels[seat][k]
        if state.current is Phase.FLEAS and seat != state.turn and kennel and kennel[-1] == sighting.face:
            self._propose(Steal(state.turn, seat, k), sighting.zone, sighting.face, state.turn,
                          f"Fleas: {state.players[state.turn]} stole the {card_name(sighting.face)}")
        elif sighting.face in kennel:
            self.gone.setdefault(sighting.zone, Counter())[sighting.face] += 1
        return False

    def _cleared(self, state: CrazyState, seat: int, k: int, zone: str) -> bool:
        """A Kennel emptied: the forced discard while its owner places a card that fits nowhere."""
        self.gone.pop(zone, None)
        if not state.kennels[seat][k]:
            return False  # a scored set (the rules discarded it), or a Kennel stolen empty
        name = state.players[seat]
        if state.current is Phase.PLACE and state.placer == seat:
            self._propose(DiscardKennel(seat, k), zone, "", seat, f"{name} discarded Kennel {k + 1}")
            return True
        from companion.table.live import Objection  # the live table imports the adapters: import it when needed

        self.table.object(Objection(seat, zone, "", f"{name}'s Kennel {k + 1} was cleared, but the "
                                    f"{names(state.kennels[seat][k])} are still in play: put them back."))
        return False

    # ------------------------------------------------------------------------------------ questions
    def _ask_order(self, state: CrazyState, first: _Sighting) -> bool:
        """New cards that landed in the draw zone in one frame: the referee says which was revealed first."""
        batch = [s for s in self.waiting if s.zone == CENTRE and s.frame == first.frame and not s.gone
                 and self._new_reveal(state, s.face)]
        if len(batch) < 2 or state.current not in (Phase.DRAW, Phase.BASEBALL):
            return False
        ruleset = self.table.session.game.ruleset  # type: ignore[union-attr]
        seat = self._revealer(state)
        options = [Option(f"The {card_name(s.face)}", Reveal(seat, s.face)) for s in batch]
        options = [o for o in options if ruleset.legal(state, o.action) is None]
        if len(options) < 2:  # the deck order is known (or none fits): read them in turn, the legal one first
            first_up = [s for s in batch if options and s.face == options[0].action.card]  # type: ignore[attr-defined]
            for sighting in first_up[:1]:
                self.waiting.remove(sighting)
                self.waiting.appendleft(sighting)
            return False
        self.unordered, self.unordered_after = batch, self._moves()
        self.waiting = deque(s for s in self.waiting if s not in batch)
        question = (f"{len(batch)} cards landed in the draw zone at once ({names([s.face for s in batch])}): "
                    f"which did {state.players[seat]} reveal first?")
        self.table.ask("order", question, options, seat=None)
        return True

    def _ordered(self, state: CrazyState) -> None:
        """The referee named the card revealed first: the rest are read next, in turn."""
        game = self.table.session.game
        if not self.unordered or not game or self._moves() <= self.unordered_after:
            return
        last = game.moves[-1].event.payload
        rest = list(self.unordered)
        for sighting in rest:
            if last.get("type") == Reveal.type and sighting.face == last.get("card"):
                rest.remove(sighting)
                break
        self.unordered = []
        self.waiting.extendleft(reversed(rest))
        self.table.session.prompts.withdraw("order", "answered")

    def _unreadable(self, zone: str, best: str) -> None:
        """A card the camera cannot name: the referee says which it is (from the cards it can be)."""
        state = self._state()
        if state is None:
            return
        ruleset = self.table.session.game.ruleset  # type: ignore[union-attr]
        options: list[Option] = []
        what = ""
        where = self._kennel(zone)
        if zone == CENTRE and state.current in (Phase.DRAW, Phase.BASEBALL):
            seat = self._revealer(state)
            options = [Option(card_name(c), Reveal(seat, c)) for c in sorted(set(state.deck))]
            what = f"the card {state.players[seat]} revealed"
        elif where is not None and state.current is Phase.PLACE and state.placer == where[0]:
            seat, k = where
            options = [Option(card_name(c), Place(seat, c, k)) for c in sorted(set(state.to_place))]
            what = f"the card {state.players[seat]} put in Kennel {k + 1}"
        legal = [o for o in options if ruleset.legal(state, o.action) is None]
        if legal:
            like = card_name(best) if is_card(best) else best
            self.table.ask(f"unreadable:{zone}", f"The camera cannot read {what} (it looks a little like the "
                           f"{like}): which card is it?", legal, seat=None)

    def _decisions(self, s: CrazyState) -> list[tuple[str, int, str, list[Option]]]:
        """The choices the game waits for that no card shows: (about, seat, question, options)."""
        who, phase = s.players, s.current
        ruleset = self.table.session.game.ruleset  # type: ignore[union-attr]
        found: list[tuple[str, int, str, list[Option]]] = []
        if phase is Phase.GIVE:
            options = [Option(who[q], Give(s.turn, q)) for q in range(len(who)) if q != s.turn]
            found.append(("give", s.turn, f"{who[s.turn]} busted: who gets the {names(s.drawn)}?", options))
        elif phase is Phase.FLEAS:
            options = [Option(f"The {card_name(s.kennels[t][k][-1])} from {who[t]}'s Kennel {k + 1}",
                              Steal(s.turn, t, k))
                       for t in range(len(who)) if t != s.turn for k in range(KENNELS) if s.kennels[t][k]]
            found.append(("fleas", s.turn, f"Fleas: {who[s.turn]}, which card do you steal?", options))
        elif phase is Phase.BONES:
            corgis = sorted({c for c in s.discard if ruleset.legal(s, TakeBones(s.turn, c)) is None})
            options = [Option("Nothing", TakeBones(s.turn, None)),
                       *(Option(f"The {card_name(c)}", TakeBones(s.turn, c)) for c in corgis)]
            found.append(("bones", s.turn, f"Bones: {who[s.turn]}, which Corgi do you take from the discard pile?",
                          options))
        elif phase is Phase.DECLARE and s.placer is not None and s.declaring is not None:
            corgis = [f.id for f in deck() if f.kind == "corgi"]
            options = [Option(card_name(c), DeclareWild(s.placer, c)) for c in corgis]
            found.append(("declare", s.placer, f"{who[s.placer]} completed Kennel {s.declaring + 1}: what does the "
                          "Wild stand for?", options))
        elif phase is Phase.DRAW and ruleset.legal(s, Stop(s.turn)) is None:
            keep = f"keep the {names(s.drawn)}" if s.drawn else "take no card"
            question = (f"Bowl: {who[s.turn]} peeked at the top card. Stop now and {keep}?" if s.bowl_offer
                        else f"{who[s.turn]}: stop drawing and {keep}? (Or reveal another card.)")
            found.append(("stop", s.turn, question, [Option("Stop", Stop(s.turn))]))
        return [(about, seat, question, [o for o in options if ruleset.legal(s, o.action) is None])
                for about, seat, question, options in found]

    def _announce_sets(self, state: CrazyState) -> None:
        """Say each set as it scores: the player takes their point markers."""
        for scored in state.scored[self.scored_said:]:
            self.table.say(f"{state.players[scored.seat]} scores {scored.score.describe()}.")
        self.scored_said = len(state.scored)

    # ------------------------------------------------------------------------------------ view
    def live_key(self, t: float) -> tuple[Any, ...]:
        return tuple((zone, tuple(faces)) for zone, faces in sorted(self.lying.items()))

    def view(self) -> dict[str, Any]:
        """The draw zone and each Kennel with cards, as the camera sees them (the rules' Kennels are on the
        scoreboard): the page shows the cards, so a player can check what the table took them for."""
        state = self._state()
        piles = []
        for zone, faces in sorted(self.lying.items()):
            where = self._kennel(zone)
            if where is not None and faces and state is not None:
                piles.append({"label": f"{state.players[where[0]]}, Kennel {where[1] + 1}", "zone": zone,
                              "cards": list(faces)})
        return {"centre": list(self.lying.get(CENTRE, [])), "piles": piles}
