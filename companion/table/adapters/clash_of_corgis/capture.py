"""Clash of Corgis' table for Capture the Illusionist: two players' grids on Capture's mat, read by the camera.

Each player sits at an end of the mat (``seat-2``, ``seat-5``: ``hardware/README.md``, "Capture the
Illusionist") before a grid of places ``seat-N/front-C``, ``seat-N/back-C`` and ``seat-N/exposed-C`` (C = 1-4
from that player's left). "Hidden", "Revealed" and "Rested" are what the camera sees: face down, face up, and
face up turned sideways ("face-up and horizontal"; ``CardTurned``). Rulings CI-13..CI-18 (``docs/rulings.md``):
- Place numbers (CI-13): the rules number the columns from the first player's left (CI-1), so the second
  player's own column C is the rules' column 5 - C.
- A card turning face up in a place is what the game waits for there (CI-14): the turn's player activating it
  (in the exposed row: a card from the hand), a card revealed by an effect, the Assassin's selected card, a blind
  save's discard turned over, or a card taken from the hand. A card the rules already show face up there is
  matched, never recorded twice; a card the camera cannot name is the referee's question, never a guess.
- A card turned sideways (CI-15): the opponent's revealed card while the Bard waits is the Bard's rest; your own
  revealed card on your turn is its activation where it lies (no card turns up: turning it to rested shows it).
  Every other turn — resting the activated card, the Cooldown, the Berserker — the rules do themselves.
- A private look (Insight, the Oracle's) is the looking player's answer on their phone naming the place, never
  what was seen (CI-16); so are the choices no card shows: the Assassin's target's selection and the declared
  rank, the cards to shuffle, not saving or saving with the Ace (CI-17).
- The declared rank is asked once the selected card shows (the camera sees the reveal; the declaration was said
  aloud before it), and the rules check it against the card (CI-18).
- A card turned face down where it lies (CI-19) follows the rules' hiding (a shuffle into the same places, the
  Illusionist saved back where it was hidden); a card the rules show face up is refused until it shows again.
"""

from __future__ import annotations

import enum
import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.games.actions import Action
from companion.games.clash_of_corgis import cards
from companion.games.clash_of_corgis.actions import (
    Activate,
    Guess,
    Insight,
    Pick,
    Rearrange,
    Rest,
    RevealCard,
    Save,
    Select,
)
from companion.games.clash_of_corgis.capture import RANKS
from companion.games.clash_of_corgis.capture_state import (
    COLUMNS,
    EXPOSED,
    GRID_ROWS,
    HAND,
    CaptureState,
    Phase,
    Position,
    column_of,
    row_of,
)
from companion.games.clash_of_corgis.effects import card_name
from companion.games.clash_of_corgis.rules import ClashOfCorgis
from companion.table.adapters.base import TableAdapter
from companion.table.observations import CardGone, CardSeen, CardTurned, CardUnreadable, Orientation, ZoneCleared
from companion.table.prompts import Option
from companion.vision.mat import GRID_SEATS

if TYPE_CHECKING:
    from companion.table.live import LiveTable

DECISIONS = ("insight", "oracle", "gather", "select", "save", "guess")


def table_column(column: int, seat: int, first: int) -> int:
    """The rules' column of a player's own column C (counted from their left), and back: the same for the first
    player, mirrored (5 - C) for the one facing them (Ruling CI-13)."""
    return column if seat == first else len(COLUMNS) + 1 - column


class _How(enum.Enum):
    UP = "came face up"
    SIDEWAYS = "turned sideways"  # a turn in place (``CardTurned``)
    DOWN = "turned face down"  # where it lay (``CardGone`` with ``face_down``)


@dataclass(frozen=True)
class _Seen:
    zone: str
    face: str
    how: _How


class CaptureAdapter(TableAdapter):
    game = "clash-of-corgis"

    def __init__(self, table: LiveTable) -> None:
        super().__init__(table)
        self.lying: dict[str, tuple[str, Orientation]] = {}  # zone -> the face-up card the camera sees there
        self.landed: list[_Seen] = []  # what came face up or turned, waiting to be read, in order

    # ------------------------------------------------------------------------------------ inputs
    def observe(self, observation: Any, t: float) -> None:
        if self._state() is None:
            return
        match observation:
            case CardSeen(zone=zone, face=face, orientation=orientation) if self._place(zone) is not None:
                self.lying[zone] = (face, orientation)
                self.landed.append(_Seen(zone, face, _How.UP))
            case CardTurned(zone=zone, face=face, orientation=orientation) if self._place(zone) is not None:
                self.lying[zone] = (face, orientation)
                if orientation is Orientation.SIDEWAYS:
                    self.landed.append(_Seen(zone, face, _How.SIDEWAYS))
            case CardUnreadable(zone=zone):
                self._unreadable(zone)
            case CardGone(zone=zone, face=face, face_down=face_down):
                if self.lying.get(zone, ("",))[0] == face:
                    del self.lying[zone]
                self.table.withdraw_objection(zone, face)
                if face_down and self._place(zone) is not None:
                    self.landed.append(_Seen(zone, face, _How.DOWN))
            case ZoneCleared(zone=zone):
                self.lying.pop(zone, None)
                self.table.withdraw_objection(zone)
                self.table.session.prompts.withdraw(f"unreadable:{zone}", "the card was taken away")

    def tick(self, t: float) -> None:
        """Read what came face up or turned, in order, each against the state the last one left."""
        while self.landed:
            seen = self.landed.pop(0)
            state, place = self._state(), self._place(seen.zone)
            if state is None or place is None:
                continue
            seat, slot = place
            {_How.UP: self._face_up, _How.SIDEWAYS: self._turned, _How.DOWN: self._turned_down}[seen.how](
                state, seat, slot, seen)
            if self.table.objection is not None:
                self.landed.clear()  # nothing after a refused card counts until the cards are put right
                return

    def changed(self, t: float) -> None:
        """Ask each choice the game now waits for; withdraw the ones it no longer waits for."""
        state = self._state()
        asked = set()
        self._settled(state)
        if state is not None:
            for about, seat, question, options in self._decisions(state):
                if options:
                    self.table.ask(about, question, options, seat=seat)
                    asked.add(about)
            if state.phase is Phase.GUESS:
                asked.add("guess")  # asked once the selected card shows
        prompts = self.table.session.prompts
        for prompt in prompts.open():
            if prompt.about in DECISIONS and prompt.about not in asked:
                prompts.withdraw(prompt.about, "the game has moved on")

    # ------------------------------------------------------------------------------------ readings
    def _state(self) -> CaptureState | None:
        _game_id, status, state = self.table.session.current()
        return state if isinstance(state, CaptureState) and status == "playing" and state.tables else None

    def _ruleset(self) -> ClashOfCorgis:
        return self.table.session.game.ruleset  # type: ignore[union-attr,return-value]

    def _place(self, zone: str) -> tuple[int, str] | None:
        """The player and the rules' slot (``front-2``) of a grid zone (``seat-5/front-3``); ``None`` elsewhere."""
        state = self._state()
        seat_zone, _, place = zone.partition("/")
        row, _, column = place.rpartition("-")
        if state is None or row not in (*GRID_ROWS, EXPOSED) or not column.isdigit() or int(column) not in COLUMNS:
            return None
        seat = self.table.seat_at(seat_zone)
        if seat is None and seat_zone in GRID_SEATS:
            seat = GRID_SEATS.index(seat_zone)  # the mat's plan: the players at its ends
        if seat is None:
            return None
        return seat, f"{row}-{table_column(int(column), seat, state.first)}"

    def _reading(self, s: CaptureState, seat: int, slot: str, face: str) -> Action | None:
        """What ``face`` coming face up at ``seat``'s ``slot`` means now (Ruling CI-14); ``None``: the declared
        rank, asked instead."""
        p, column = s.pending, column_of(slot)
        exposed = row_of(slot) == EXPOSED
        if s.phase is Phase.REVEAL and p is not None and seat == p.owner:
            if not exposed:
                return RevealCard(p.chooser, slot, face)
            return RevealCard(p.chooser, HAND, face if p.chooser == p.owner else None, column)
        if s.phase is Phase.PICK and p is not None and seat == p.owner:
            return Pick(card=face)
        if s.phase is Phase.GUESS and p is not None and seat == p.owner:
            return None
        if s.phase is Phase.SAVE and s.threat is not None and seat == s.threat.seat:
            return Save(seat, slot, face)
        return Activate(seat, HAND, face, column) if exposed else Activate(seat, slot, face)

    def _face_up(self, s: CaptureState, seat: int, slot: str, seen: _Seen) -> None:
        cell = s.tables[seat].get(slot)
        if cell is not None and cell.card == seen.face and cell.position is not Position.HIDDEN:
            self.table.withdraw_objection(seen.zone, seen.face)  # shown again where it lay, turned down by mistake
            return  # already recorded (CI-14)
        who = s.players[seat]
        reading = self._reading(s, seat, slot, seen.face)
        if reading is None:
            self._ask_guess(s, seen.face)
            return
        self.table.propose([reading], source="camera", zone=seen.zone, face=seen.face, seat=seat,
                           question=f"What did {who} turn face up at {slot}?")
        after = self._state()
        if isinstance(reading, RevealCard) and reading.card is None and after is not None and after.phase is Phase.PICK:
            # the revealer chose the column; the card taken at random from the hand is the one that shows
            self.table.propose([Pick(card=seen.face)], source="camera", zone=seen.zone, face=seen.face, seat=seat,
                               question=f"Which card was taken from {who}'s hand?")

    def _turned(self, s: CaptureState, seat: int, slot: str, seen: _Seen) -> None:
        """A card turned sideways (CI-15): the Bard's rest when it waits for one; on your turn, your own revealed
        card activated where it lies; the rules rest the others themselves."""
        p, cell = s.pending, s.tables[seat].get(slot)
        if s.phase is Phase.REST and p is not None and seat == p.owner:
            self.table.propose([Rest(p.player, slot)], source="camera", zone=seen.zone, face=seen.face,
                               seat=p.player, question=f"Which card did {s.players[p.player]}'s Bard rest?")
        elif s.phase is Phase.ACTIVATE and seat == s.turn and cell is not None and cell.position is Position.REVEALED:
            self.table.propose([Activate(seat, slot)], source="camera", zone=seen.zone, face=seen.face, seat=seat,
                               question=f"Which card did {s.players[seat]} activate?")

    def _turned_down(self, s: CaptureState, seat: int, slot: str, seen: _Seen) -> None:
        """A card turned face down where it lay (CI-19): what the rules hide there (a shuffle back into the same
        places, the Illusionist saved back where it was hidden; an exposed card hidden goes to the hand) follows
        them; a card the rules show face up is refused until it shows again or the rules come to hide it."""
        from companion.table.live import Objection  # the live table imports the adapters: import it when needed

        cell = s.tables[seat].get(slot)
        if cell is None or cell.position is Position.HIDDEN or cell.card != seen.face:
            return
        self.table.object(Objection(seat, seen.zone, seen.face, f"{card_name(seen.face)} at {s.players[seat]}'s "
                                    f"{slot} is {cell.position.value}: turn it face up again. Players are not allowed "
                                    "to re-arrange cards on the table unless a card effect says otherwise."))

    def _settled(self, s: CaptureState | None) -> None:
        """An objection about a grid place where neither the camera nor the rules show a face up card is settled:
        the card turned face down before the choice that hides it was answered (CI-19)."""
        objection = self.table.objection
        if s is None or objection is None or objection.zone in self.lying:
            return
        place = self._place(objection.zone)
        cell = None if place is None else s.tables[place[0]].get(place[1])
        if place is not None and (cell is None or cell.position is Position.HIDDEN):
            self.table.withdraw_objection(objection.zone)

    def _ask_guess(self, s: CaptureState, face: str) -> None:
        """The Assassin's declared rank, once the selected card shows (CI-18)."""
        p = s.pending
        assert p is not None
        options = [Option(f"I declared {rank}", Guess(p.player, rank, face)) for rank in RANKS]
        self.table.ask("guess", f"{s.players[p.player]}: the card shows {card_name(face)}. Which rank did you "
                       "declare before it was revealed?", options, seat=p.player)

    def _unreadable(self, zone: str) -> None:
        """A question for the referee: which card it is, as the moves it could be (never the camera's guess)."""
        state, place = self._state(), self._place(zone)
        if state is None or place is None:
            return
        seat, slot = place
        ruleset = self._ruleset()
        known = state.known(seat)
        readings = [self._reading(state, seat, slot, c) for c in cards.suit_cards(state.suits[seat]) if c not in known]
        options = [Option(ruleset.describe(state, a) + f" ({card_name(a.card)})", a) for a in readings  # type: ignore[attr-defined]
                   if a is not None and ruleset.legal(state, a) is None]
        if options:
            self.table.ask(f"unreadable:{zone}", f"The camera cannot read the card at {state.players[seat]}'s "
                           f"{slot}: which card is it?", options, seat=None)

    # ------------------------------------------------------------------------------------ choices
    def _decisions(self, s: CaptureState) -> list[tuple[str, int, str, list[Option]]]:
        """The choices the game waits for that no card shows: (about, seat, question, legal options)."""
        names, p, ruleset = s.players, s.pending, self._ruleset()
        prompt = ClashOfCorgis.game_rules("capture").prompt(s)
        found: list[tuple[str, int, str, list[Option]]] = []
        if s.phase is Phase.ACTIVATE and not s.insight_used and not s.chain:
            seat = s.turn
            found.append(("insight", seat, f"{names[seat]}, Insight: which of your hidden cards did you look at? "
                          "(Or just activate a card.)", self._looks(s, seat, GRID_ROWS)))
        elif p is not None and s.phase is Phase.LOOK:
            found.append(("oracle", p.player, prompt + " Which one did you look at?",
                          [Option(f"I looked at my {x}", Insight(p.player, x)) for x in p.slots]))
        elif p is not None and s.phase is Phase.GATHER:
            found.append(("gather", p.player, prompt, self._gathers(s, p.player)))
        elif p is not None and s.phase is Phase.SELECT:
            found.append(("select", p.chooser, prompt + " (Say which; it is turned face up next.)",
                          [Option(f"My {x}", Select(p.chooser, x)) for x in p.slots]))
        elif s.phase is Phase.SAVE and s.threat is not None:
            found.append(("save", s.threat.seat, prompt + " (To discard a hidden card blind, turn it "
                          "face up where it lies.)", self._saves(s, s.threat.seat)))
        return [(about, seat, question, [o for o in options if ruleset.legal(s, o.action) is None])
                for about, seat, question, options in found]

    def _looks(self, s: CaptureState, seat: int, rows: tuple[str, ...]) -> list[Option]:
        return [Option(f"I looked at my {x}", Insight(seat, x)) for x in s.slots_where(seat, Position.HIDDEN, rows)]

    def _gathers(self, s: CaptureState, seat: int) -> list[Option]:
        """The Healer's face-up card and up to two hidden ones, or the Wild's up to two hidden ones."""
        p = s.pending
        assert p is not None
        hidden = s.slots_where(seat, Position.HIDDEN, GRID_ROWS)
        extra = [combo for k in range(3) for combo in itertools.combinations(hidden, k)]
        firsts = [(f,) for f in p.slots] if s.phase is Phase.GATHER and p.slots and p.owner == seat and \
            p.role.title == "Healer" else [()]
        return [Option("Shuffle " + (", ".join((*f, *e)) or "no other card"), Rearrange(seat, (*f, *e)))
                for f in firsts for e in extra]

    def _saves(self, s: CaptureState, seat: int) -> list[Option]:
        options = [Option("Let it be captured", Save(seat, None))]
        ace = next(c for c in cards.suit_cards(s.suits[seat]) if cards.is_ace(c))
        if s.hand_counts[seat] and ace not in s.known(seat):
            options.append(Option(f"Discard {card_name(ace)} from my hand", Save(seat, HAND, ace)))
        options += [Option(f"Discard {card_name(ace)} at {slot}", Save(seat, slot))
                    for slot, cell in s.tables[seat].items() if cell.card == ace]
        return options

    # ------------------------------------------------------------------------------------ view
    def live_key(self, t: float) -> tuple[Any, ...]:
        return tuple(sorted(self.lying.items()))

    def view(self) -> dict[str, Any]:
        """Both grids as the rules hold them (hidden, revealed, rested), each row a pile of the status page's
        table panel, and what the camera sees lying face up in each place."""
        state = self._state()
        seen = {zone: {"face": face, "orientation": o.value} for zone, (face, o) in sorted(self.lying.items())}
        if state is None:
            return {"piles": [], "seen": seen}
        piles = []
        for seat, name in enumerate(state.players):
            for row in (*reversed(GRID_ROWS), EXPOSED):  # front row first, as the opponent's grid faces it
                entries = []
                for column in COLUMNS:
                    cell = state.tables[seat].get(f"{row}-{column}")
                    entries.append({"face": None, "empty": True} if cell is None else {
                        "face": cell.card if cell.position is not Position.HIDDEN else None,
                        "down": cell.position is Position.HIDDEN, "sideways": cell.position is Position.RESTED})
                piles.append({"label": f"{name}: {row} row", "cards": entries})
            captured = f"{state.captures[seat]} capture{'s' if state.captures[seat] != 1 else ''}"
            piles.append({"label": f"{name}: {state.hand_counts[seat]} in hand, {captured}",
                          "cards": [{"face": c} for c in state.out[seat]]})
        return {"piles": piles, "seen": seen}
