"""Clash of Corgis' table, the Treasure Island part: parties, loot piles, foes and the discard pile are face up, so
the camera follows them; the hands and the deck are not (rulings TI-11..TI-15, ``docs/rulings.md``).

The zones (``hardware/README.md``, "Clash of Corgis"): ``seat-N`` is the party of the player at that seat ("table
area directly in front of you"), ``seat-N/loot`` their loot pile, ``centre`` the foes, ``discard`` the discard pile.

- A card from the hand arriving in a party is the build (or the Samurai's parry); when the party is full, the card
  it replaces is the party card that left (TI-11).
- The foes flipped face up in the centre are the fight's reveal, whole once all of them show; a hand the Berserker
  makes its player reveal is shown at their place or in the centre (TI-12).
- A card arriving in the discard pile while an effect waits is what it discards (the looked-at card that failed the
  test, the Assassin's or the Berserker's pick, the Wind bonus's foe); a loot card moving to the looker's loot pile
  is the steal; the top card of the deck arriving in a loot pile is the Oracle's loot (TI-13).
- What no card shows — building nothing, fighting (and how many foes) or not, the target, letting an effect be, the
  Oracle's card going back, a look that keeps the card with no loot to steal, keeping the foes, what a Healer or the
  Earth bonus keeps — is asked on the phone of the player who decides (TI-14).
- A card the camera cannot name is a question for the referee; a card arriving where the rules already put it (the
  foes carried to a loot pile, a retired party discarded, cards typed while the camera was out) records nothing
  (TI-15).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.games.actions import Action
from companion.games.clash_of_corgis import cards
from companion.games.clash_of_corgis.actions import (
    Build,
    Discard,
    Fight,
    OracleLook,
    Parry,
    PassTurn,
    Pick,
    Retire,
    Reveal,
    Target,
)
from companion.games.clash_of_corgis.effects import card_name, names
from companion.games.clash_of_corgis.treasure_island import MAX_FOES, PARTY_SIZE, TreasureIslandRules
from companion.games.clash_of_corgis.treasure_state import Phase, TreasureState
from companion.table.adapters.clash_of_corgis.common import CENTRE, DISCARD, ClashPart, Decision
from companion.table.observations import CardGone, CardSeen, CardUnreadable, ZoneCleared
from companion.table.prompts import Option
from companion.vision.mat import LOOT

if TYPE_CHECKING:
    from companion.table.live import LiveTable

DECISIONS = ("build", "fight", "target", "parry", "oracle", "pick", "wind", "retire")
REPLACED_WAIT_S = 3.0  # how long a card put in a full party waits for the card it replaces to leave, before asking
RULES = TreasureIslandRules()


@dataclass(frozen=True)
class _Sighting:
    zone: str
    face: str
    t: float


class TreasureIslandTable(ClashPart):
    state_type = TreasureState
    decisions = DECISIONS

    def __init__(self, table: LiveTable) -> None:
        super().__init__(table)
        self.waiting: deque[_Sighting] = deque()  # cards come to rest, read one at a time, in order
        self.lying: dict[str, list[str]] = {}  # zone -> the cards the camera sees there now, oldest first
        self.shown: list[str] = []  # cards of a reveal seen so far (the foes, a Berserker's victim's hand)

    # ------------------------------------------------------------------------------------ inputs
    def observe(self, observation: Any, t: float) -> None:
        match observation:
            case CardSeen(zone=zone, face=face) if self._where(zone) is not None:
                for faces in self.lying.values():  # a card moved on is no longer where it lay
                    if face in faces:
                        faces.remove(face)
                self.lying.setdefault(zone, []).append(face)
                self.waiting.append(_Sighting(zone, face, t))
            case CardUnreadable(zone=zone):
                self._unreadable(zone)
            case CardGone(zone=zone, face=face):
                if face in self.lying.get(zone, []):
                    self.lying[zone].remove(face)
                self.table.withdraw_objection(zone, face)
            case ZoneCleared(zone=zone):
                self.lying.pop(zone, None)  # the discard pile reshuffled, a loot pile or a party taken away
                self.table.withdraw_objection(zone)
                self.table.session.prompts.withdraw(f"unreadable:{zone}", "the card was taken away")

    def tick(self, t: float) -> None:
        """Read what came to rest, one card at a time, each against the state the last one left."""
        while self.waiting:
            state = self._state()
            if state is None:
                self.waiting.clear()
                return
            sighting = self.waiting[0]
            reading = self._reading(state, sighting, t, self.shown)
            if reading is None:
                return  # a card in a full party waits a moment for the card it replaces to leave
            self.waiting.popleft()
            if reading:
                seat, _ = self._where(sighting.zone) or (None, "")
                self.table.propose(reading, source="camera", zone=sighting.zone, face=sighting.face, seat=seat,
                                   question=f"What does {card_name(sighting.face)} mean there?")
            if self.table.objection is not None:
                self.waiting.clear()  # nothing after a refused card counts until the cards are put right
                return

    def changed(self, t: float) -> None:
        state = self._state()
        if state is None or state.phase is not Phase.REVEAL:
            self.shown = []
        self._ask(state, self._decisions(state) if state is not None else [])

    # ------------------------------------------------------------------------------------ readings
    def _where(self, zone: str) -> tuple[int | None, str] | None:
        """``(seat, "party" | "loot")`` for a player's zones, ``(None, zone)`` for the centre and the discard pile;
        ``None`` for a zone this game does not read."""
        if zone in (CENTRE, DISCARD):
            return None, zone
        base, _, part = zone.partition("/")
        seat = self.table.seat_at(base)
        if seat is None or part not in ("", LOOT):
            return None
        return seat, part or "party"

    def _reading(self, s: TreasureState, sighting: _Sighting, t: float, shown: list[str]) -> list[Action] | None:
        """The moves a card coming to rest may be (empty: it says nothing new); ``None``: wait and read it again.
        ``shown`` collects the cards of a reveal until all of them show."""
        face, (seat, place) = sighting.face, self._where(sighting.zone) or (None, "")
        p, b = s.pending, s.battle
        if self._already_there(s, seat, place, face):
            return []  # TI-15: where the rules already put it
        public = face in s.public_cards()
        if place == "party" and seat is not None:
            if s.phase is Phase.REVEAL and b is None and p is not None and p.target == seat and not public:
                return self._reveal(face, s.hand_counts[seat], shown)
            if s.phase is Phase.PARRY and p is not None and p.target == seat and cards.is_ace(face):
                return self._into_party(s, seat, sighting, t, lambda old: Parry(seat, face, old))
            return self._into_party(s, seat, sighting, t, lambda old: Build(seat, face, old))
        if place == LOOT and seat is not None and p is not None:
            if s.phase is Phase.ORACLE and p.player == seat and not public:
                return [OracleLook(seat, face)]
            if s.phase is Phase.PICK and p.player == seat and p.target is not None and face in s.loot[p.target]:
                return [Pick(card=None)]  # the look found its card: a loot stolen (TI-3)
        if place == CENTRE and s.phase is Phase.FIGHT and not public:
            return None  # foes flipped before the fight is declared wait for the declaration
        if place == CENTRE and s.phase is Phase.REVEAL and not public:
            if b is not None:
                return self._reveal(face, s.foes_hidden, shown)
            if p is not None and p.target is not None:
                return self._reveal(face, s.hand_counts[p.target], shown)  # the Berserker's victim's hand
        if place == DISCARD:
            return self._discarded(s, face, public)
        return []

    def _already_there(self, s: TreasureState, seat: int | None, place: str, face: str) -> bool:
        if seat is not None:
            return face in (s.parties[seat] if place == "party" else s.loot[seat])
        return face in (s.discard if place == DISCARD else s.foes)

    def _into_party(self, s: TreasureState, seat: int, sighting: _Sighting, t: float,
                    move: Any) -> list[Action] | None:
        """A card put in ``seat``'s party: with room, ``move(None)``; in a full party, ``move(old)`` for the party card
        that left (all of them, asked, once it has waited long enough for one to leave)."""
        party = s.parties[seat]
        if len(party) < PARTY_SIZE:
            return [move(None)]
        left = [c for c in party if c not in self.lying.get(sighting.zone, [])]
        if len(left) == 1:
            return [move(left[0])]
        if t - sighting.t < REPLACED_WAIT_S:
            return None
        return [move(old) for old in party]

    @staticmethod
    def _reveal(face: str, count: int, shown: list[str]) -> list[Action]:
        """A card of a reveal, added to ``shown``: recorded whole once all ``count`` cards show (TI-12)."""
        if face not in shown:
            shown.append(face)
        if len(shown) < count:
            return []
        revealed = tuple(shown)
        shown.clear()
        return [Reveal(revealed)]

    def _discarded(self, s: TreasureState, face: str, public: bool) -> list[Action]:
        """A card arriving in the discard pile while an effect or a bonus waits for a discard (TI-13)."""
        p, b = s.pending, s.battle
        if s.phase is Phase.PICK and p is not None and not public:
            return [Pick(card=face)]  # the looked-at card failed the test
        if s.phase is Phase.CHOOSE and p is not None:
            return [Discard(p.player, face)]
        if s.phase is Phase.WIND and b is not None and face in s.foes:
            return [Discard(b.seat, face)]
        if s.phase is Phase.PARRY and p is not None and p.target is not None and cards.is_ace(face) and not public:
            return [Parry(p.target, face)]  # a full party: the Samurai is discarded instead
        return []

    def _unreadable(self, zone: str) -> None:
        """A question for the referee (TI-15): the card as each move it could be where it lies."""
        state, where = self._state(), self._where(zone)
        if state is None or where is None:
            return
        seat, place = where
        label = {CENTRE: "in the centre", DISCARD: "on the discard pile", LOOT: "on a loot pile"}.get(place)
        text = label or f"in {state.players[seat]}'s party"  # type: ignore[index]

        def reading(card: str) -> Action | None:
            found = self._reading(state, _Sighting(zone, card, 0.0), REPLACED_WAIT_S, list(self.shown)) or []
            return found[0] if len(found) == 1 else None

        self._ask_unreadable(state, zone, text, reading)

    # ------------------------------------------------------------------------------------ choices
    def _decisions(self, s: TreasureState) -> list[Decision]:
        """The choices the game waits for that no card shows (TI-14)."""
        n, p, b, turn = s.players, s.pending, s.battle, s.turn
        prompt = RULES.prompt(s)
        if s.phase is Phase.BUILD:
            return [("build", turn, f"{prompt} (Put a card in your party.)",
                     [Option("Build nothing", Build(turn, None))])]
        if s.phase is Phase.FIGHT:
            options = [Option(f"Fight {k} foe{'s' if k > 1 else ''}", Fight(turn, k)) for k in range(1, MAX_FOES + 1)]
            return [("fight", turn, prompt, [*options, Option("End the turn without a fight", PassTurn(turn))])]
        if s.phase is Phase.WIND and b is not None:
            return [("wind", b.seat, f"{prompt} (Put the foe on the discard pile.)",
                     [Option("Keep the foes", Discard(b.seat, None))])]
        if s.phase is Phase.RETIRE and b is not None:
            keeps = [Retire(b.seat, ())] + [Retire(b.seat, k) for k in RULES.keep_options(s)]
            return [("retire", b.seat, prompt,
                     [Option(f"Keep {names(r.keep)}" if r.keep else "Discard the whole party", r) for r in keeps])]
        if p is None:
            return []
        if s.phase is Phase.TARGET:
            return [("target", p.player, prompt, [Option(n[q], Target(p.player, q)) for q in range(len(n))])]
        if s.phase is Phase.PARRY and p.target is not None:
            return [("parry", p.target, f"{prompt} (Put a Samurai in your party.)",
                     [Option("Let it be", Parry(p.target, None))])]
        if s.phase is Phase.ORACLE:
            return [("oracle", p.player, f"{prompt} (Put a matching card on your loot pile.)",
                     [Option("It did not match: back on top", OracleLook(p.player, None))])]
        if s.phase is Phase.PICK:
            return [("pick", p.player, f"{prompt} (Discard it if it fails.)",
                     [Option("It passed: the card stays in the hand", Pick(card=None))])]
        return []

    # ------------------------------------------------------------------------------------ view
    def live_key(self, t: float) -> tuple[Any, ...]:
        return tuple((zone, tuple(faces)) for zone, faces in sorted(self.lying.items()))

    def view(self) -> dict[str, Any]:
        """The foes in the centre, each player's party and loot pile and the discard pile, as the camera sees them."""
        state = self._state()
        piles = []
        for zone, faces in sorted(self.lying.items()):
            seat, place = self._where(zone) or (None, "")
            if faces and state is not None and seat is not None:
                piles.append({"label": f"{state.players[seat]}'s {place}", "zone": zone, "cards": list(faces)})
        if self.lying.get(DISCARD):
            piles.append({"label": "Discard pile", "zone": DISCARD, "cards": list(self.lying[DISCARD])})
        return {"centre": list(self.lying.get(CENTRE, [])), "piles": piles}
