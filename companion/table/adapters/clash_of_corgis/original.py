"""Clash of Corgis' table for the Original game.

Rulings CO-14..CO-18 (``docs/rulings.md``):
- The cards landing in the centre in one frame are one combo, never cards to put in order (CO-14): a player
  plays "their card(s) on top of the leading combo", and "the card(s) played become the new leading combo". It
  is the combo of the owner of an exposed card, of the seat it was shown at first, else of whoever's turn it
  is; the log's source says which.
- A card turned face up in front of a seat (its ``seat-N`` zone: "the exposed hand area, which is directly in
  front of each player") is an exposure, read by what the game waits for: the Samurai's parry, a card exposed
  by a Fighter or a Berserker, the Archer's random pick (CO-15). During the Oracle's look or the Mage's Burn,
  a card put in the centre is the Oracle's discard or the burnt card.
- A pass and every choice the cards do not show — a Monk's high or low, the Archer's target, not parrying, the
  Healer's returned card, nothing to burn, which card's effect a combo of mixed suits activates — are prompts to
  the player who decides (CO-16).
- A card the camera cannot name is a question for the referee, never a guess (CO-17).
- Every card is unique: a card already recorded (typed while the camera was out, before a restart) is matched
  when the camera sees it, never recorded twice (CO-18). A cleared centre is the round's pile gathered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.games.actions import Action
from companion.games.clash_of_corgis import cards
from companion.games.clash_of_corgis.actions import (
    Declare,
    Discard,
    Expose,
    Heal,
    OracleLook,
    Parry,
    PassTurn,
    Pick,
    Play,
    Target,
)
from companion.games.clash_of_corgis.effects import card_name
from companion.games.clash_of_corgis.original import SUIT_EFFECTS, OriginalRules
from companion.games.clash_of_corgis.original_state import OriginalState, Phase
from companion.games.clash_of_corgis.rules import ClashOfCorgis
from companion.table.adapters.base import TableAdapter
from companion.table.observations import CardGone, CardSeen, CardUnreadable, ZoneCleared
from companion.table.prompts import Option

if TYPE_CHECKING:
    from companion.table.live import LiveTable

CENTRE = "centre"
SHOWN_FOR_S = 20.0  # a card seen at a seat this recently and then in the centre came from that seat
DECISIONS = ("pass", "effect-card", "monk", "archer", "parry", "oracle", "heal", "burn")
EXPOSURES = (Phase.PARRY, Phase.EXPOSE, Phase.PICK)  # the phases in which a card turned up at a seat means a move


@dataclass(frozen=True)
class _Landing:
    zone: str
    face: str
    frame: int
    t: float


class OriginalAdapter(TableAdapter):
    game = "clash-of-corgis"

    def __init__(self, table: LiveTable) -> None:
        super().__init__(table)
        self.landed: list[_Landing] = []  # cards come to rest, waiting to be read, in order
        self.shown: dict[str, tuple[int, float]] = {}  # face -> (seat, time) of a card shown at a seat
        self.centre: list[str] = []  # the cards lying in the centre now, as the camera sees them
        self.at_seat: dict[int, list[str]] = {}  # the face-up cards in front of each seat now
        self.choosing: int | None = None  # the move count when a combo's effect card was asked

    # ------------------------------------------------------------------------------------ inputs
    def observe(self, observation: Any, t: float) -> None:
        if not isinstance(self.table.session.state, OriginalState):
            return  # Treasure Island and Capture: the referee enters the moves
        match observation:
            case CardSeen(zone=zone, face=face, frame=frame) if self._lying(zone) is not None:
                self._lying(zone).append(face)  # type: ignore[union-attr]
                self.landed.append(_Landing(zone, face, frame, t))
            case CardUnreadable(zone=zone):
                self._unreadable(zone)
            case CardGone(zone=zone, face=face):
                lying = self._lying(zone) or []
                if face in lying:
                    lying.remove(face)
                if zone == CENTRE and self.choosing is not None:
                    self.choosing = None  # the combo whose effect card was asked is taken back
                    self.table.session.prompts.withdraw("effect-card", "the cards were taken back")
                self.table.withdraw_objection(zone, face)
            case ZoneCleared(zone=zone):
                lying = self._lying(zone)
                if lying is not None:
                    lying.clear()  # the centre: the round's pile gathered (the rules have ended the round)
                self.table.withdraw_objection(zone)
                self.table.session.prompts.withdraw(f"unreadable:{zone}", "the card was taken away")

    def tick(self, t: float) -> None:
        """Read what came to rest, one zone's frame at a time, each against the state the last one left."""
        while self.landed and self.choosing is None:
            state = self._state()
            if state is None:
                self.landed.clear()
                return
            first = self.landed[0]
            batch = [c for c in self.landed if (c.zone, c.frame) == (first.zone, first.frame)]
            self.landed = [c for c in self.landed if c not in batch]
            if first.zone == CENTRE:
                self._centre(state, tuple(c.face for c in batch), t)
            else:
                for landing in batch:
                    self._at_seat(landing, t)
            if self.table.objection is not None:
                self.landed.clear()  # nothing after a refused card counts until the cards are put right
                return

    def changed(self, t: float) -> None:
        """Ask each choice the game now waits for; withdraw the ones it no longer waits for."""
        state = self._state()
        game = self.table.session.game
        if self.choosing is not None and (game is None or len(game.moves) != self.choosing):
            self.choosing = None  # the effect card was chosen (or the referee moved the game on)
        asked = {"effect-card"} if self.choosing is not None else set()
        if state is not None:
            for about, seat, question, options in self._decisions(state):
                if options:
                    self.table.ask(about, question, options, seat=seat)
                    asked.add(about)
        prompts = self.table.session.prompts
        for prompt in prompts.open():
            if prompt.about in DECISIONS and prompt.about not in asked:
                prompts.withdraw(prompt.about, "the game has moved on")

    # ------------------------------------------------------------------------------------ readings
    def _state(self) -> OriginalState | None:
        _game_id, status, state = self.table.session.current()
        return state if isinstance(state, OriginalState) and status == "playing" else None

    def _seat(self, zone: str) -> int | None:
        return None if zone == CENTRE else self.table.seat_at(zone)

    def _lying(self, zone: str) -> list[str] | None:
        """The cards the camera sees lying in ``zone`` now (``None``: a zone this game does not read)."""
        if zone == CENTRE:
            return self.centre
        seat = self._seat(zone)
        return None if seat is None else self.at_seat.setdefault(seat, [])

    def _ruleset(self) -> ClashOfCorgis:
        return self.table.session.game.ruleset  # type: ignore[union-attr,return-value]

    def _rules(self) -> OriginalRules:
        return ClashOfCorgis.game_rules("original")  # type: ignore[return-value]

    def _centre(self, state: OriginalState, faces: tuple[str, ...], t: float) -> None:
        """Cards landing together in the centre: one combo, or the Oracle's discard, or the Mage's burnt card."""
        faces = tuple(f for f in faces if f not in state.pile and f not in state.discard)  # CO-18
        if not faces:
            return
        seat, source = self._who(state, faces, t)
        reading = self._reading(state, CENTRE, faces, seat)
        if isinstance(reading, Play) and self._effect_asked(state, reading):
            return
        if reading is not None:
            self.table.propose([reading], source=source, zone=CENTRE, face=",".join(faces), seat=seat,
                               question=f"What did {state.players[seat]} put in the centre?")

    def _at_seat(self, landing: _Landing, t: float) -> None:
        state = self._state()
        seat = self._seat(landing.zone)
        if state is None or seat is None or landing.face in state.exposed[seat]:
            return  # already recorded as exposed (CO-18)
        reading = self._reading(state, landing.zone, (landing.face,), seat)
        if reading is None:
            self.shown[landing.face] = (seat, t)  # shown before it is pushed into the centre
            return
        self.table.propose([reading], source="camera", zone=landing.zone, face=landing.face, seat=seat,
                           question=f"What did {state.players[seat]} turn face up?")

    def _reading(self, s: OriginalState, zone: str, faces: tuple[str, ...], seat: int) -> Action | None:
        """What ``faces`` coming to rest in ``zone`` (the centre, or the place of ``seat``) mean now; ``None``
        for a card shown at a seat while the game waits for no exposure from it."""
        p = s.pending
        if zone != CENTRE:
            if s.phase not in EXPOSURES or p is None or p.target != seat:
                return None
            if s.phase is Phase.PARRY:
                return Parry(seat, faces[0])
            return Expose(seat, faces[0]) if s.phase is Phase.EXPOSE else Pick(card=faces[0])
        if p is not None and s.phase is Phase.ORACLE and len(faces) == 1:
            return OracleLook(p.player, faces[0])
        if p is not None and s.phase is Phase.DISCARD and len(faces) == 1:
            return Discard(p.player, faces[0])
        return Play(seat, faces)

    def _who(self, s: OriginalState, faces: tuple[str, ...], t: float) -> tuple[int, str]:
        """The seat a combo came from: the owner of an exposed card, the seat it was shown at, else the turn."""
        for seat, exposed in enumerate(s.exposed):
            if faces[0] in exposed:
                return seat, f"camera (from {s.players[seat]}'s exposed hand)"
        shown = {self.shown.pop(f, (None, 0.0)) for f in faces}
        seats = {seat for seat, when in shown if seat is not None and t - when <= SHOWN_FOR_S}
        if len(seats) == 1:
            (seat,) = seats
            return seat, f"camera (from {s.players[seat]}'s place)"
        (turn,) = self._ruleset().to_move(s) or (s.turn,)
        return turn, "camera (whose turn it was)"

    def _effect_asked(self, s: OriginalState, play: Play) -> bool:
        """A legal combo of several suits whose effect uses "this card's suit" (Bard, Mage): its player says
        which card's effect is activated (Ruling CO-4)."""
        _rank, effect = self._rules().combo_value(s, play.cards)
        suits = {cards.suit(c) for c in play.cards}
        if effect not in SUIT_EFFECTS or len(suits) < 2 or self._ruleset().legal(s, play) is not None:
            return False
        options = [Option(card_name(c), Play(play.player, play.cards, c)) for c in play.cards]
        self.table.ask("effect-card", f"{s.players[play.player]}, your combo's cards differ in suit: which card's "
                       f"{effect.title} effect is activated?", options, seat=play.player)
        self.choosing = len(self.table.session.game.moves)  # type: ignore[union-attr]
        return True

    def _unreadable(self, zone: str) -> None:
        """A question for the referee: which card it is, as the moves it could be (never the camera's guess)."""
        state = self._state()
        ruleset = self._ruleset()
        seat = ruleset.to_move(state) if state is not None else ()
        owner = seat[0] if seat and zone == CENTRE else self._seat(zone)
        if state is None or owner is None or not seat:
            return
        public = state.public_cards()
        readings = [self._reading(state, zone, (c,), owner) for c in cards.all_cards() if c not in public]
        options = [Option(ruleset.describe(state, a), a) for a in readings
                   if a is not None and ruleset.legal(state, a) is None]
        if options:
            where = "in the centre" if zone == CENTRE else f"in front of {state.players[owner]}"
            self.table.ask(f"unreadable:{zone}", f"The camera cannot read the card {where}: which card is it?",
                           options, seat=None)

    # ------------------------------------------------------------------------------------ choices
    def _decisions(self, s: OriginalState) -> list[tuple[str, int, str, list[Option]]]:
        """The choices the game waits for that no card shows: (about, seat, question, legal options)."""
        names, p, rules, ruleset = s.players, s.pending, self._rules(), self._ruleset()
        found: list[tuple[str, int, str, list[Option]]] = []
        if s.phase is Phase.PLAY and s.lead is not None and self.choosing is None:
            who = s.turn
            label = "Decline the Bard's extra turn" if s.lead.owner == who else "Pass"
            found.append(("pass", who, f"{names[who]}: {rules.prompt(s)}", [Option(label, PassTurn(who))]))
        elif p is not None and s.phase is Phase.DECLARE:
            found.append(("monk", p.player, rules.prompt(s),
                          [Option("High", Declare(p.player, False)), Option("Low", Declare(p.player, True))]))
        elif p is not None and s.phase is Phase.TARGET:
            found.append(("archer", p.player, rules.prompt(s),
                          [Option(names[q], Target(p.player, q)) for q in range(len(names))]))
        elif p is not None and p.target is not None and s.phase is Phase.PARRY:
            # An exposed Samurai parries where it lies (Ruling CO-8): the camera sees nothing new.
            options = [Option("Let it be", Parry(p.target, None))]
            options += [Option(f"Parry with the exposed {card_name(c)}", Parry(p.target, c))
                        for c in s.exposed[p.target] if cards.is_ace(c)]
            found.append(("parry", p.target, rules.prompt(s) + " (Turn a hidden Samurai face up at your place.)",
                          options))
        elif p is not None and s.phase is Phase.ORACLE:
            found.append(("oracle", p.player, rules.prompt(s) + " (Put a matching card face up in the centre.)",
                          [Option("It did not match: back on top", OracleLook(p.player, None))]))
        elif p is not None and s.phase is Phase.HEAL:
            options = [Option("A card from my hidden hand", Heal(p.player, None))]
            options += [Option(f"My exposed {card_name(c)}", Heal(p.player, c)) for c in s.exposed[p.player]]
            found.append(("heal", p.player, rules.prompt(s), options))
        elif p is not None and s.phase is Phase.DISCARD:
            options = [Option("Nothing to burn", Discard(p.player, None))]
            options += [Option(f"My exposed {card_name(c)}", Discard(p.player, c)) for c in s.exposed[p.player]]
            found.append(("burn", p.player, rules.prompt(s) + " (Put a hidden card face up in the centre.)",
                          options))
        return [(about, seat, question, [o for o in options if ruleset.legal(s, o.action) is None])
                for about, seat, question, options in found]

    # ------------------------------------------------------------------------------------ view
    def live_key(self, t: float) -> tuple[Any, ...]:
        return (tuple(self.centre), tuple((seat, tuple(c)) for seat, c in sorted(self.at_seat.items())))

    def view(self) -> dict[str, Any]:
        """The cards lying in the centre and in front of each seat now, as the camera sees them."""
        return {"centre": list(self.centre), "exposed": {str(seat): list(c) for seat, c in self.at_seat.items()}}
