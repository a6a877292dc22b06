"""Clash of Corgis' table, the Original game's part (``__init__.py`` picks the part for the variant in play).

Rulings CO-14..CO-18 (``docs/rulings.md``):
- The cards coming to rest in the centre together — within a few camera frames, or more while they could still
  be the start of a bigger combo — are one combo, never cards to put in order (CO-14): a player
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
from companion.games.clash_of_corgis.original import SUIT_EFFECTS, OriginalRules, rank_value
from companion.games.clash_of_corgis.original_state import OriginalState, Phase
from companion.games.clash_of_corgis.rules import ClashOfCorgis
from companion.table.adapters.clash_of_corgis.common import CENTRE, ClashPart, Decision
from companion.table.observations import CardGone, CardSeen, CardUnreadable, ZoneCleared
from companion.table.prompts import Option

if TYPE_CHECKING:
    from companion.table.live import LiveTable

SHOWN_FOR_FRAMES = 300  # a card seen at a seat this recently (20 s at 15 fps) then in the centre came from that seat
# Cards put down together may come to rest frames apart (a card not named in one recognition is named in a later
# one). Counted in the camera's frames, not seconds: a loaded machine reads fewer frames a second, not fewer cards
# a frame. The centre is read once no card has come to rest there for TOGETHER_FRAMES frames, or for LATE_FRAMES
# while its cards could still be the start of a bigger combo: long enough for the camera's next full look at a
# still table (RECHECK_FRAMES in ``companion/vision/stillness.py``) and the frames that make a card steady.
TOGETHER_FRAMES = 2
LATE_FRAMES = 20
DECISIONS = ("pass", "effect-card", "monk", "archer", "parry", "oracle", "heal", "burn")
EXPOSURES = (Phase.PARRY, Phase.EXPOSE, Phase.PICK)  # the phases in which a card turned up at a seat means a move


@dataclass(frozen=True)
class _Landing:
    zone: str
    face: str
    frame: int  # the adapter's count of the camera's frames when it came to rest


class OriginalTable(ClashPart):
    state_type = OriginalState
    decisions = DECISIONS

    def __init__(self, table: LiveTable) -> None:
        super().__init__(table)
        self.landed: list[_Landing] = []  # cards come to rest, waiting to be read, in order
        self.refused: list[_Landing] = []  # the centre's cards the rules refused, still lying there unrecorded
        self.shown: dict[str, tuple[int, int]] = {}  # face -> (seat, frame) of a card shown at a seat
        self.centre: list[str] = []  # the cards lying in the centre now, as the camera sees them
        self.at_seat: dict[int, list[str]] = {}  # the face-up cards in front of each seat now
        self.choosing: int | None = None  # the move count when a combo's effect card was asked

    # ------------------------------------------------------------------------------------ inputs
    def observe(self, observation: Any, t: float) -> None:
        match observation:
            case CardSeen(zone=zone, face=face) if self._lying(zone) is not None:
                self._lying(zone).append(face)  # type: ignore[union-attr]
                self.landed.append(_Landing(zone, face, self.frame))
            case CardUnreadable(zone=zone):
                self._unreadable(zone)
            case CardGone(zone=zone, face=face):
                lying = self._lying(zone) or []
                if face in lying:
                    lying.remove(face)
                self.refused = [c for c in self.refused if c.face != face or c.zone != zone]
                if zone == CENTRE and self.choosing is not None:
                    self.choosing = None  # the combo whose effect card was asked is taken back
                    self.table.session.prompts.withdraw("effect-card", "the cards were taken back")
                self.table.withdraw_objection(zone, face)
            case ZoneCleared(zone=zone):
                lying = self._lying(zone)
                if lying is not None:
                    lying.clear()  # the centre: the round's pile gathered (the rules have ended the round)
                self.refused = [c for c in self.refused if c.zone != zone]
                self.table.withdraw_objection(zone)
                self.table.session.prompts.withdraw(f"unreadable:{zone}", "the card was taken away")

    def tick(self, t: float) -> None:
        """Read what came to rest — a seat's cards by frame, the centre's a combo of the cards put down together —
        each against the state the last one left."""
        while self.landed and self.choosing is None:
            state = self._state()
            if state is None:
                self.landed.clear()
                return
            first = self.landed[0]
            if first.zone == CENTRE:
                batch = [c for c in self.landed if c.zone == CENTRE]  # nothing is recorded while a combo waits
                if not self._settled(state, [*self.refused, *batch]):
                    return  # more of the combo may still come to rest
            else:
                batch = [c for c in self.landed if c.zone == first.zone and c.frame == first.frame]
            self.landed = [c for c in self.landed if c not in batch]
            if first.zone == CENTRE:
                self._combo(state, [*self.refused, *batch])
            else:
                for landing in batch:
                    self._at_seat(landing)
            if self.table.objection is not None:
                self.landed.clear()  # nothing after a refused card counts until the cards are put right
                return

    def changed(self, t: float) -> None:
        """Ask each choice the game now waits for; withdraw the ones it no longer waits for."""
        state = self._state()
        game = self.table.session.game
        if self.choosing is not None and (game is None or len(game.moves) != self.choosing):
            self.choosing = None  # the effect card was chosen (or the referee moved the game on)
        self._ask(state, self._decisions(state) if state is not None else [],
                  {"effect-card"} if self.choosing is not None else ())

    # ------------------------------------------------------------------------------------ readings
    def _lying(self, zone: str) -> list[str] | None:
        """The cards the camera sees lying in ``zone`` now (``None``: a zone this game does not read)."""
        if zone == CENTRE:
            return self.centre
        seat = self._seat(zone)
        return None if seat is None else self.at_seat.setdefault(seat, [])

    def _rules(self) -> OriginalRules:
        return ClashOfCorgis.game_rules("original")  # type: ignore[return-value]

    def _settled(self, s: OriginalState, batch: list[_Landing]) -> bool:
        """Whether the cards come to rest in the centre are the whole of what was put down (CO-14): no card has
        come since for a couple of frames, or, while they could still be the start of a bigger combo, for long
        enough that a card put down with them would have been read."""
        quiet = self.frame - batch[-1].frame
        if quiet < TOGETHER_FRAMES:
            return False
        faces = self._new(s, tuple(c.face for c in batch))
        return quiet >= LATE_FRAMES or not faces or not self._may_grow(s, faces, self._who(s, faces)[0])

    def _may_grow(self, s: OriginalState, faces: tuple[str, ...], seat: int) -> bool:
        """Whether ``faces`` and cards of their rank not yet face up would be a combo the rules allow ``seat`` to
        play now: a lone card leading a round may be a double's first, a card beating a triple a triple's."""
        if s.phase is not Phase.PLAY:
            return False  # the Oracle's discard, the Mage's burnt card: one card
        public = s.public_cards()
        rank = rank_value(faces[0])
        mates = sorted((c for c in cards.all_cards() if c not in public and c not in faces and rank_value(c) == rank),
                       key=lambda c: cards.suit(c) != s.bard_suit)  # a card of the Bard's suit may be among them
        ruleset = self._ruleset()
        return any(ruleset.legal(s, Play(seat, faces + tuple(mates[:n]))) is None for n in range(1, len(mates) + 1))

    @staticmethod
    def _new(s: OriginalState, faces: tuple[str, ...]) -> tuple[str, ...]:
        """The cards not already in the middle or the discard pile (those were recorded some other way: CO-18)."""
        return tuple(f for f in faces if f not in s.pile and f not in s.discard)

    def _combo(self, state: OriginalState, batch: list[_Landing]) -> None:
        """Read the centre's unrecorded cards as one combo (CO-14). Cards the rules refuse stay the start of the
        next reading while they lie there: a combo's card the camera names late (frames after the others, on a crowded
        pile) joins the first ones, as the player meant, and the objection to a lone card gives way to the combo."""
        self._centre(state, tuple(c.face for c in batch))
        objection = self.table.objection
        self.refused = batch if objection is not None and objection.zone == CENTRE else []

    def _centre(self, state: OriginalState, faces: tuple[str, ...]) -> None:
        """Cards landing together in the centre: one combo, or the Oracle's discard, or the Mage's burnt card."""
        faces = self._new(state, faces)
        if not faces:
            return
        seat, source = self._who(state, faces)
        for face in faces:
            self.shown.pop(face, None)
        reading = self._reading(state, CENTRE, faces, seat)
        if isinstance(reading, Play) and self._effect_asked(state, reading):
            return
        if reading is not None:
            self.table.propose([reading], source=source, zone=CENTRE, face=",".join(faces), seat=seat,
                               question=f"What did {state.players[seat]} put in the centre?")

    def _at_seat(self, landing: _Landing) -> None:
        state = self._state()
        seat = self._seat(landing.zone)
        if state is None or seat is None or landing.face in state.exposed[seat]:
            return  # already recorded as exposed (CO-18)
        reading = self._reading(state, landing.zone, (landing.face,), seat)
        if reading is None:
            self.shown[landing.face] = (seat, landing.frame)  # shown before it is pushed into the centre
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

    def _who(self, s: OriginalState, faces: tuple[str, ...]) -> tuple[int, str]:
        """The seat a combo came from: the owner of an exposed card, the seat it was shown at, else the turn."""
        for seat, exposed in enumerate(s.exposed):
            if faces[0] in exposed:
                return seat, f"camera (from {s.players[seat]}'s exposed hand)"
        shown = {self.shown.get(f, (None, 0)) for f in faces}
        seats = {seat for seat, when in shown if seat is not None and self.frame - when <= SHOWN_FOR_FRAMES}
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
        """A question for the referee (CO-17): the card as each move it could be where it lies."""
        state = self._state()
        turn = self._ruleset().to_move(state) if state is not None else ()
        owner = turn[0] if turn and zone == CENTRE else self._seat(zone)
        if state is None or owner is None or not turn:
            return
        where = "in the centre" if zone == CENTRE else f"in front of {state.players[owner]}"
        self._ask_unreadable(state, zone, where, lambda c: self._reading(state, zone, (c,), owner))

    # ------------------------------------------------------------------------------------ choices
    def _decisions(self, s: OriginalState) -> list[Decision]:
        """The choices the game waits for that no card shows."""
        names, p, rules = s.players, s.pending, self._rules()
        found: list[Decision] = []
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
        return found

    # ------------------------------------------------------------------------------------ view
    def live_key(self, t: float) -> tuple[Any, ...]:
        return (tuple(self.centre), tuple((seat, tuple(c)) for seat, c in sorted(self.at_seat.items())))

    def view(self) -> dict[str, Any]:
        """The cards lying in the centre, and each player's exposed hand, as the camera sees them now."""
        state = self._state()
        piles = [{"label": f"{state.players[seat]}'s exposed hand", "zone": None, "cards": list(faces)}
                 for seat, faces in sorted(self.at_seat.items()) if faces and state is not None]
        return {"centre": list(self.centre), "piles": piles}
