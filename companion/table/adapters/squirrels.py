"""Squirrels' table: the centre pile, each player's four stacks and the Skip cards, watched from above.

Zones (``hardware/README.md``, "Squirrels"): ``centre`` is the pile; a player's four stacks and the Skip card
placed before them lie in their ``seat-N`` zone. The adapter tells the stacks apart by their face-up tops (the
rules know every top), so the printed mat needs no finer zones; drawn sub-zones ``seat-N/stack-1``..``4`` and
``seat-N/skip`` count as ``seat-N`` and only order a layout's tops.

- Four face-up cards coming to rest at a seat during the layout are that player's stack tops (ruling SQ-11).
- Cards landing on the pile together are one Action of the player to move (SQ-12; a card the camera reports
  turned on the pile is a new card laid across an older one of its face). The pile is read once no card has come
  to rest there for ``TOGETHER_FRAMES`` frames, or for ``LATE_FRAMES`` while the play could still grow (the mover
  holds more cards, four of its value not reached): a card of a play read late joins it, and nothing is recorded
  that it would contradict (SQ-18). A card that is also one of that player's stack tops came from the stack when
  that top is reported leaving the seat (the rules then draw the card below into the hand), from the hand when the
  camera has filmed long enough to have reported it (``forget_frames`` and ``SETTLE_MARGIN`` frames), and the
  player says which when the camera falls far behind (SQ-13).
- A single card landing while the player has a Blind card may be that Blind card flipped: when the hand could
  also have given it, the player says which (SQ-14). A Wild's declared value and a Push's or Skip's target are
  prompts to the player when more than one is allowed; a Skip set down at another seat is aimed at that seat.
- A cleared pile the rules still hold is picked up by the player to move (SQ-15); a pile the rules already
  cleared (four of a value, a Squirrel, a Push) or picked up is just tidied away. A Skip card taken from before a
  player whose turn it cost is tidied away too, never a stack top leaving (SQ-16).
- At a round's end, the cards a player spreads at their place are their remaining cards: once as many are seen
  as the table counted, they are recorded as shown; fewer, and the referee is asked after ``REVEAL_WAIT_S``
  whether that is all (SQ-17). The rules check them against what the table saw go into the hand.
- A card the camera cannot name is a question for the referee, never a guess; a card already recorded some
  other way (typed while the camera was out) is matched when the camera sees it, never recorded twice, even once
  the rules have cleared the pile it went on (SQ-20).
- Cards of the pile reported gone while the pile lies are covered by cards the camera cannot name: a play that
  could grow waits until such cards would be reported, and when some were, the mover says what they played (SQ-20).
  It waits too for the camera's fresh looks at the still pile that find a card laid across older ones
  (``COVER_LOOKS``); a card of its value named while the table waits joins it, never the next Action.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Any

from companion.games.actions import Action
from companion.games.squirrels.actions import Blind, Done, Layout, Pickup, Play, Push, Reveal, Skip
from companion.games.squirrels.cards import NUMBER, NUMBERS, kind, points
from companion.games.squirrels.state import FOUR, STACKS, Phase, SquirrelsState
from companion.table.adapters.base import TableAdapter
from companion.table.observations import (
    CardGone,
    CardSeen,
    CardTurned,
    CardUnreadable,
    ZoneCleared,
)
from companion.table.prompts import Option
from companion.vision.settings import CameraSettings
from companion.vision.stillness import RECHECK_FRAMES

if TYPE_CHECKING:
    from collections.abc import Sequence

    from companion.table.live import LiveTable

CENTRE = "centre"
ORIGIN = "origin"  # the question "from your hand or your stack?" (SQ-13)
SETTLE_MARGIN = 5  # frames beyond the camera's forget_frames by which a stack top played is reported gone (SQ-13)
ASK_AFTER = 2.0  # a wait for a top to leave still open after this many times its length at the camera's frame rate
# is the mover's question: the camera has fallen behind (SQ-13)
END_TURN = "blind-follow"
# Ruling SQ-18: the cards of one play come to rest frames apart (a card not named in one recognition is named in a
# later one). Counted in the camera's frames, not seconds: a loaded machine reads fewer frames a second, not fewer
# cards a frame. The pile is read once no card has come to rest there for TOGETHER_FRAMES frames, or for LATE_FRAMES
# while the play could still grow: the camera's next full look at a still table (RECHECK_FRAMES in
# ``companion/vision/stillness.py``) and the frames that make a card steady.
TOGETHER_FRAMES = 2
LATE_FRAMES = 20
# Ruling SQ-20: a card laid across older pile cards is found only by one of the camera's fresh looks at the still
# table (after every RECHECK_FRAMES still frames), and the bench's seed 17 saw about half of them miss it (named 16,
# 32 or 48 frames after the card beside it). A play that could grow on older cards waits for COVER_LOOKS such looks.
COVER_LOOKS = 3
LOOK_FRAMES = RECHECK_FRAMES + 1  # frames from one fresh look at a still table to the next
COVER_LOOK_FRAMES = COVER_LOOKS * LOOK_FRAMES + TOGETHER_FRAMES
RECORDED_BY_TABLE = ("camera", "prompt ", "chance")  # how moves the referee did not type are sourced
REVEAL_WAIT_S = 60.0  # a spread that stops short of the counted cards this long is the referee's question


def stacks_label(name: str) -> str:
    """The page's name for a player's stack tops (as laid out so far, during the layout)."""
    return f"{name}'s stacks"


@dataclass
class _Landing:
    """Cards that came to rest together: on the pile, or a Skip card at ``target``'s seat."""

    faces: list[str]
    frame: int  # the camera's frame the first of them came to rest in
    t: float
    latest: int = 0  # the frame the last of them came to rest in
    target: int | None = None
    stacks: list[int] = field(default_factory=list)  # the mover's stacks these cards are known to come from
    seq: int | None = None  # the move it was recorded as
    asked: int | None = None  # the moves recorded when the mover was asked where the cards came from (SQ-13)
    unseen: Counter[str] = field(default_factory=Counter)  # its cards reported gone from the pile while it waits


@dataclass(frozen=True)
class _Cleared:
    t: float
    seq: int  # the game's last move when the camera saw the pile taken away


def _pile_cards(payload: dict[str, Any]) -> list[str]:
    """The cards a move put on the pile (a Skip card goes before a player, a pickup takes the pile)."""
    match payload.get("type"):
        case "play":
            return list(payload["cards"])
        case "blind":
            return [payload["card"]]
        case "push":
            return ["push"]
    return []


class SquirrelsAdapter(TableAdapter):
    game = "squirrels"

    def __init__(self, table: LiveTable) -> None:
        super().__init__(table)
        self.queue: deque[_Landing | _Cleared] = deque()  # what the camera saw, read in order in ``tick``
        self.gone: dict[int, Counter[str]] = {}  # seat -> faces that left the seat's zone, not yet explained
        self.laid: dict[int, list[tuple[str, str]]] = {}  # seat -> (place, face) seen during the layout
        self.on_pile: list[str] = []  # the cards lying in the centre now, as the camera sees them
        self.matched: Counter[str] = Counter()  # the rules' pile cards the camera has seen land
        self.owed: Counter[str] = Counter()  # cards recorded on the pile, not seen land, until the pile is taken
        self.hidden = 0  # pile cards gone from sight with the pile still lying, since a play was last read (SQ-20)
        self.turn = 0  # whose turn it was when the game last changed
        self.last: _Landing | None = None  # the last cards read as a play on the pile
        self.skips_laid: Counter[int] = Counter()  # seat -> Skip cards seen set down before it, not yet taken
        self.shown: dict[int, list[str]] = {}  # seat -> cards spread face up there at the round's end
        self.shown_at: dict[int, float] = {}  # seat -> when the last of them was seen
        camera: CameraSettings = table.settings.get("camera", CameraSettings())
        self.settle_frames = camera.forget_frames + SETTLE_MARGIN  # a top played is reported gone by then
        self.ask_after_s = ASK_AFTER * self.settle_frames / camera.frame_rate
        self.cover_frames = max(self.settle_frames, COVER_LOOK_FRAMES)  # a play on older cards waits this long (SQ-20)
        self.followed = self._last_seq()  # the last move of the game this adapter has followed

    # ------------------------------------------------------------------------------------ inputs
    def observe_frame(self, observations: Sequence[Any], t: float) -> None:
        """Ruling SQ-20: cards of the rules' pile reported gone in a frame that does not clear the pile went from
        sight under cards the camera cannot name (nobody takes a card off the pile): the next play read is not sure
        to be whole. Other cards gone are the waiting play's (``_unseen``)."""
        state = self._state()
        cleared = any(isinstance(seen, ZoneCleared) and seen.zone == CENTRE for seen in observations)
        if state is not None and not cleared:
            recorded = Counter(card for card, _value in state.pile)  # not a refused card taken back
            gone = Counter(seen.face for seen in observations if isinstance(seen, CardGone) and seen.zone == CENTRE)
            self.hidden += sum((gone & recorded).values())
            for face in (gone - recorded).elements():
                self._unseen(face)
        super().observe_frame(observations, t)

    def observe(self, observation: Any, t: float) -> None:
        match observation:
            case CardSeen(zone=zone, face=face, frame=frame) | CardTurned(zone=zone, face=face, frame=frame) \
                    if zone == CENTRE:
                # Ruling SQ-12: a card put on the pile across an older one of its face is reported as that card
                # turned where it lies (as a Capture card is turned); nobody turns a card on the pile: a new card.
                self.on_pile.append(face)
                last = self.queue[-1] if self.queue else None
                if isinstance(last, _Landing) and last.unseen[face]:
                    last.unseen[face] -= 1  # one of its cards seen again (SQ-20): no card more
                elif isinstance(last, _Landing) and self._joins(last, face, frame):
                    last.faces.append(face)
                    last.latest = frame
                elif not self._read_late(face, frame):
                    self.queue.append(_Landing([face], frame, t, latest=frame))
            case CardSeen(zone=zone, face=face, frame=frame):
                self._seen_at_seat(zone, face, frame, t)
            case CardUnreadable(zone=zone, best=best) if zone == CENTRE:
                self._unreadable(best)
            case CardGone(zone=zone, face=face):
                seat = self._seat(zone)
                if seat is not None:
                    self._left_seat(seat, zone, face)
                elif zone == CENTRE and face in self.on_pile:
                    self.on_pile.remove(face)
                self.table.withdraw_objection(zone, face)
            case ZoneCleared(zone=zone) if zone == CENTRE:
                self.on_pile.clear()
                self.hidden = 0
                self.queue.append(_Cleared(t, self._last_seq()))
                self.table.withdraw_objection(zone)
                self.table.session.prompts.withdraw(f"unreadable:{zone}", "the card was taken away")

    def _unseen(self, face: str) -> None:
        """Ruling SQ-20: a card of the play still waiting to be read reported gone from the pile went from sight
        (nobody takes a card back off the pile): named again while the play waits, it is that card, not another (a
        card the camera named at some looks and missed at others once made a play of three 1s four)."""
        last = self.queue[-1] if self.queue else None
        if isinstance(last, _Landing) and last.target is None and last.faces.count(face) > last.unseen[face]:
            last.unseen[face] += 1

    def _joins(self, landing: _Landing, face: str, frame: int) -> bool:
        """Ruling SQ-18: a card coming to rest on the pile belongs to the cards waiting to be read there when it came
        with them (fewer than ``TOGETHER_FRAMES`` frames later: a mixed play is refused whole), or while the table
        still waits for more of their play (``_waits``) and it could make that play bigger: a card the table waits
        for is never the next Action."""
        if landing.target is not None:
            return False
        if frame - landing.latest < TOGETHER_FRAMES:
            return True
        state = self._state()
        return state is not None and self._one_value([*landing.faces, face]) and self._waits(state, landing, frame)

    @staticmethod
    def _one_value(faces: list[str]) -> bool:
        """Whether ``faces`` are Number cards of one value and Wilds: one play's cards."""
        if any(kind(f) not in ("number", "wild") for f in faces):
            return False
        return len({NUMBER[f] for f in faces if f in NUMBER}) <= 1

    def _may_grow(self, state: SquirrelsState, landing: _Landing) -> bool:
        """Whether cards put down later could still belong to ``landing``'s play: Numbers of one value (and Wilds),
        short of four of that value with the pile's top, and the mover holds more cards (in hand or face up on a
        stack) than it shows. The referee does not know the hand, so whether it holds one of the value is unknown."""
        if not self._one_value(landing.faces):
            return False
        values = {NUMBER[f] for f in landing.faces if f in NUMBER}
        top = state.top_run()
        run = top[1] if top is not None and values == {top[0]} else 0
        p = state.current
        held = state.hand_counts[p] + sum(1 for st in state.stacks[p] if st.top is not None)
        return run + len(landing.faces) < FOUR and held > len(landing.faces)

    def _whole(self, state: SquirrelsState, landing: _Landing) -> bool:
        """Ruling SQ-18: whether ``landing`` holds all the cards of its play: the table no longer waits for more of
        them (``_waits``), or what the camera saw next has come (other cards, the pile taken away): the play was
        over."""
        if landing.target is not None or landing is not self.queue[-1]:
            return True
        return not self._waits(state, landing, self.frame)

    def _waits(self, state: SquirrelsState, landing: _Landing, frame: int) -> bool:
        """Rulings SQ-18 and SQ-20: whether, at the camera's ``frame``, more cards of ``landing``'s play may still be
        named: none has come to rest with them for fewer than ``TOGETHER_FRAMES`` frames, or for fewer than
        ``LATE_FRAMES`` while the play could still grow. A play that could grow and may go on older cards waits
        ``cover_frames`` after its first card, whatever came since: a card laid across older ones is named only at
        one of the camera's fresh looks at the still table, and the cards it covers are reported gone only after
        ``settle_frames`` (as a stack top played); one too high is refused at once."""
        quiet = frame - landing.latest
        if quiet < TOGETHER_FRAMES:
            return True
        if not self._may_grow(state, landing):
            return False
        top = state.top_run()
        value = next((NUMBER[face] for face in landing.faces if face in NUMBER), 0)
        covering = top is not None and value <= top[0] and frame - landing.frame <= self.cover_frames
        return quiet < LATE_FRAMES or covering

    def _read_late(self, face: str, frame: int) -> bool:
        """Ruling SQ-18: a card of the last play's value (or a Wild) belongs to that play while the table is still
        asking about it: the question is withdrawn and asked again with the card (nobody else can have played
        meanwhile)."""
        last = self.last
        if last is None or self.queue or not self._one_value([*last.faces, face]):
            return False
        about = f"{CENTRE}:{sorted(last.faces)[0]}"
        if not self._open(about):
            return False
        self.table.session.prompts.withdraw(about, "more cards of the same play")
        last.faces.append(face)
        last.latest, last.seq = frame, None
        self.queue.appendleft(last)
        return True

    def _seat(self, zone: str) -> int | None:
        """The seat of a seat zone or of one of its drawn sub-zones (``seat-3/stack-2``)."""
        if not isinstance(self.table.session.state, SquirrelsState):
            return None
        return self.table.seat_at(zone.split("/", maxsplit=1)[0])

    def _seen_at_seat(self, zone: str, face: str, frame: int, t: float) -> None:
        seat = self._seat(zone)
        state = self._state()
        if seat is None or state is None:
            return
        gone = self.gone.get(seat, Counter())
        if state.phase is Phase.LAYOUT and not state.stacks[seat]:
            self._laid_out(state, seat, zone, face)
        elif state.phase is Phase.REVEAL:
            self._spread(state, seat, zone, face, t)
        elif gone[face] > 0:
            gone[face] -= 1  # a stack top uncovered after a hand lay over it: it never left
        elif face == "skip" and state.phase is Phase.PLAY and seat != state.current:
            self.skips_laid[seat] += 1
            self.queue.append(_Landing([face], frame, t, target=seat))

    def _left_seat(self, seat: int, zone: str, face: str) -> None:
        """A card left a seat: a layout card taken back, or one of the stack tops (perhaps on its way to the pile)."""
        state = self._state()
        if state is None or state.phase is Phase.REVEAL:
            return  # at the round's end cards are gathered and spread: only those seen count
        if (zone, face) in self.laid.get(seat, []):
            self.laid[seat].remove((zone, face))
        elif face == "skip" and self.skips_laid[seat] > 0:
            self.skips_laid[seat] -= 1  # Ruling SQ-16: the Skip card set before this player, its turn passed
        elif face in (st.top for st in state.stacks[seat]):
            self.gone.setdefault(seat, Counter())[face] += 1

    def _laid_out(self, state: SquirrelsState, seat: int, zone: str, face: str) -> None:
        """Ruling SQ-11: a player's four face-up stack tops, in the order of their drawn places if any."""
        seen = self.laid.setdefault(seat, [])
        seen.append((zone, face))
        if len(seen) < STACKS:
            return
        tops = tuple(face for _zone, face in sorted(seen, key=lambda z: z[0]))
        if not any("/" in z for z, _face in seen):
            tops = tuple(face for _zone, face in seen)
        del self.laid[seat]
        what = f"{state.players[seat]}'s stacks show {', '.join(tops)}"
        self.table.propose([Layout(seat, tops)], source="camera", zone=zone, face=face, seat=seat, question=what)

    def _spread(self, state: SquirrelsState, seat: int, zone: str, face: str, t: float) -> None:
        """Ruling SQ-17: a card spread at a player's place at the round's end is one of their remaining cards."""
        if seat in state.revealed or seat == state.safe or state.cards_left(seat) == 0:
            return
        shown = self.shown.setdefault(seat, [])
        shown.append(face)
        self.shown_at[seat] = t
        if len(shown) >= state.cards_left(seat):
            self._reveal(state, seat, source="camera", zone=zone)

    def _reveal(self, state: SquirrelsState, seat: int, *, source: str, zone: str) -> None:
        cards = tuple(sorted(self.shown.pop(seat, [])))
        self.shown_at.pop(seat, None)
        self.table.session.prompts.withdraw(f"reveal:{seat}", "the cards were recorded")
        self.table.propose([Reveal(seat, cards)], source=source, zone=zone, face=cards[0] if cards else "",
                           seat=seat, question="")

    def _short_spreads(self, state: SquirrelsState, t: float) -> None:
        """A spread that stopped short of the counted cards: the referee says whether that is all."""
        for seat, cards in self.shown.items():
            if t - self.shown_at[seat] < REVEAL_WAIT_S:
                continue
            name = state.players[seat]
            question = (f"{name} has shown {len(cards)} cards ({sum(points(c) for c in cards)} points), but the "
                        f"table counted {state.cards_left(seat)}: is that all of {name}'s cards?")
            option = Option(f"Record the {len(cards)} cards shown", Reveal(seat, tuple(sorted(cards))))
            self.table.ask(f"reveal:{seat}", question, [option], seat=None)

    # ------------------------------------------------------------------------------------ reading the queue
    def tick(self, t: float) -> None:
        """Read what the camera saw, in order, each against the state the last reading left."""
        state = self._state()
        if state is not None and state.phase is Phase.REVEAL:
            self._short_spreads(state, t)
        if state is not None and state.phase is Phase.PLAY and self.hidden and not self.queue and not self._asking():
            self._unnamed_play(state)
        while self.queue and not self._asking():  # an answer first: it changes what the next cards mean
            state = self._state()
            if state is None:
                self.queue.clear()
                return
            item = self.queue[0]
            if state.phase is Phase.BLIND_FOLLOW and (isinstance(item, _Cleared) or not self._follows(state, item)):
                if not self._end_blind_turn(state):
                    self.queue.clear()
                    return
                continue
            if isinstance(item, _Cleared):
                self.queue.popleft()
                self._cleared(state, item)
                continue
            if isinstance(item, _Landing) and item.asked is not None and \
                    (not self._open(ORIGIN) or self._moves() != item.asked):
                # The mover answered where the cards came from (or the referee typed the move): a question asked
                # again meanwhile, as the answer was being recorded, is for cards already recorded.
                self.table.session.prompts.withdraw(ORIGIN, "the cards were recorded")
                self.queue.popleft()
                continue
            self._absorb_recorded(state, item)
            if not item.faces:
                self.queue.popleft()
                continue
            if not self._whole(state, item):
                return  # more cards of the play may still come to rest (SQ-18)
            origins = self._origins(state, item, t)
            if origins is None or (len(origins) > 1 and self._asked_origin(state, item, origins)):
                return  # a stack top may still be leaving its seat, or the mover is asked where the cards came from
            self.queue.popleft()
            self._play(state, item, origins)
            if self.table.objection is not None:
                # Nothing after a refused card counts until the cards are put right; a taken pile still does.
                self.queue = deque(i for i in self.queue if isinstance(i, _Cleared))
                return

    def _unnamed_play(self, state: SquirrelsState) -> None:
        """Ruling SQ-20: the mover's stack top seen leaving, pile cards gone from sight under cards the camera
        cannot name, and no card named on the pile: the mover says what they played with that top, at once (the
        camera may name those cards late, or never). The cards the answer records are owed (``_follow_moves``)."""
        p, ruleset = state.current, self.table.session.game.ruleset  # type: ignore[union-attr]
        gone = self.gone.get(p, Counter())
        tops = {st.top: i for i, st in reversed(list(enumerate(state.stacks[p]))) if st.top is not None}
        face = next((face for face in gone.elements() if face in tops), None)
        if face is None:
            return
        plays = [(face,) * n for n in range(1, FOUR + 1)] if face in NUMBER else [(face,)]
        readings = [r for cards in plays for r in self._readings(state, p, cards, (tops[face],), None)]
        legal = [r for r in readings if ruleset.legal(state, r) is None]
        if not legal:
            return
        gone[face] -= 1
        self.hidden = 0
        name = state.players[p]
        question = (f"The camera cannot name the cards {name} put on the pile (the {face} from a stack among them): "
                    f"what did {name} play?")
        self.table.ask(f"{CENTRE}:{face}", question, [Option(ruleset.describe(state, r), r) for r in legal], seat=p)

    def _absorb_recorded(self, state: SquirrelsState, landing: _Landing) -> None:
        """Cards already recorded (typed while the camera was out or behind, or answered for before the camera
        named them) are matched, never replayed: cards the camera owes, even once the rules have cleared the pile
        they went on (four of a value), and cards on the rules' pile it has not seen land (typed before a restart)."""
        recorded = Counter(card for card, _value in state.pile)
        for face in list(landing.faces):
            if self.owed[face] > 0:
                self.owed[face] -= 1
            elif recorded[face] <= self.matched[face]:
                continue
            self.matched[face] += 1
            landing.faces.remove(face)

    def _origins(self, state: SquirrelsState, landing: _Landing, t: float) -> list[tuple[int, ...]] | None:
        """Ruling SQ-13: the sets of the mover's stacks the cards may have come from (their tops drawn from); one
        once the camera has settled it, ``None`` while a top may still leave.

        The wait is counted in the camera's frames, as the camera counts them before it reports a card gone: a
        busy machine films fewer frames a second, and a wait in seconds would take a top still leaving for one
        that stays. When the camera has fallen far behind, every set is possible and the mover is asked; the
        camera may still settle it before they answer."""
        p = state.current
        gone = self.gone.setdefault(p, Counter())
        tops = {i: st.top for i, st in enumerate(state.stacks[p]) if st.top is not None}
        landing.stacks = [i for i in landing.stacks if i in tops]  # a top the referee has recorded played since
        need = Counter(landing.faces) - Counter(tops[i] for i in landing.stacks)
        staying: list[int] = []  # tops like a card landed, not (yet) seen leaving
        for face in need.elements():
            free = [i for i, top in tops.items() if top == face and i not in landing.stacks and i not in staying]
            if not free:
                continue
            if gone[face] > 0:
                gone[face] -= 1
                landing.stacks.append(free[0])
            else:
                staying.append(free[0])
        if not staying or self.frame - landing.frame > self.settle_frames:
            # every top seen leaving, or filmed staying for longer than a top played takes to be reported gone
            self.table.session.prompts.withdraw(ORIGIN, "the camera saw where the cards came from")
            return [tuple(sorted(landing.stacks))]
        if t - landing.t < self.ask_after_s:
            return None
        origins: dict[tuple[str, ...], tuple[int, ...]] = {}  # one per different set of faces: equal tops are alike
        for k in range(len(staying) + 1):
            for more in combinations(staying, k):
                faces = tuple(sorted(tops[i] for i in more))
                origins.setdefault(faces, tuple(sorted([*landing.stacks, *more])))
        return list(origins.values())

    def _asked_origin(self, state: SquirrelsState, landing: _Landing, origins: list[tuple[int, ...]]) -> bool:
        """Whether the mover is asked "from your hand or your stack?": the rules allow the cards from more than
        one of ``origins`` (not when the hand holds too few of them, say)."""
        p, faces = state.current, tuple(sorted(landing.faces))
        ruleset = self.table.session.game.ruleset  # type: ignore[union-attr]
        legal = [(stacks, reading) for stacks in origins
                 for reading in self._readings(state, p, faces, stacks, landing.target)
                 if ruleset.legal(state, reading) is None]
        if len({stacks for stacks, _reading in legal}) <= 1:
            return False
        question = (f"{state.players[p]}: did your {', '.join(faces)} come from your hand or your stack? The camera "
                    "cannot yet tell whether your stack's top stayed.")
        self.table.ask(ORIGIN, question, [Option(ruleset.describe(state, a), a) for _s, a in legal], seat=p)
        if landing.asked is None:
            landing.asked = self._moves()
        if landing.target is None:
            self.last = landing  # the answer's cards are these: the camera has seen them land (``_follow_moves``)
        return True

    def _end_blind_turn(self, state: SquirrelsState) -> bool:
        """Nothing matching was added to the Blind card before the next player acted: that turn is over."""
        self.table.propose([Done(state.current)], source="camera (the next player went on)", zone=CENTRE,
                           face="", seat=state.current, question="")
        after = self._state()
        return after is not None and after.phase is not Phase.BLIND_FOLLOW

    @staticmethod
    def _follows(state: SquirrelsState, landing: _Landing) -> bool:
        """After a Blind Number card: only cards of its value may follow."""
        return landing.target is None and all(
            NUMBER.get(face) == state.follow_value or kind(face) == "wild" for face in landing.faces
        )

    def _play(self, state: SquirrelsState, landing: _Landing, origins: list[tuple[int, ...]]) -> None:
        p, faces = state.current, tuple(sorted(landing.faces))
        name = state.players[p]
        question = f"What did {name} do with {', '.join(faces)}?"
        plays = [faces]
        if self.hidden and landing.target is None and self._may_grow(state, landing):
            # Ruling SQ-20: cards on the pile went from the camera's sight, and nobody takes cards off a pile: cards
            # it cannot name lie on them. The play may hold more of its value than the camera named: the mover says.
            number = next((face for face in faces if face in NUMBER), None)
            plays += [tuple(sorted([*faces, *[number] * more])) for more in range(1, FOUR - len(faces) + 1)
                      if number is not None]
            question = (f"The camera may not see all the cards {name} put on the pile (it names {', '.join(faces)}): "
                        f"what did {name} play?")
        self.hidden = 0
        readings = [reading for cards in plays for stacks in origins
                    for reading in self._readings(state, p, cards, stacks, landing.target)]
        game = self.table.session.game
        before = self._moves()
        zone = CENTRE if landing.target is None else f"seat:{landing.target}"
        self.table.propose(readings, source="camera", zone=zone, face=faces[0], seat=p, question=question)
        if landing.target is None:
            self.last = landing
        if game and len(game.moves) > before and landing.target is None:
            self.matched.update(faces)
            landing.seq = game.moves[-1].event.seq

    def _readings(self, state: SquirrelsState, p: int, faces: tuple[str, ...], stacks: tuple[int, ...],
                  target: int | None) -> list[Action]:
        """Everything the cards could mean; the rules keep the legal ones and the table asks when several are."""
        others = range(len(state.players))
        stack = stacks[0] if stacks else None
        kinds = {kind(face) for face in faces}
        if kinds == {"skip"} and len(faces) == 1:
            readings: list[Action] = [Skip(p, q, stack) for q in (others if target is None else (target,))]
        elif kinds == {"push"} and len(faces) == 1:
            readings = [Push(p, q, stack) for q in others] + [Push(p, None, stack)]
        elif "wild" in kinds:
            readings = [Play(p, faces, stacks, v) for v in NUMBERS]
        else:
            readings = [Play(p, faces, stacks)]
        blind = [i for i, st in enumerate(state.stacks[p]) if st.blind]
        if blind and len(faces) == 1 and not stacks and target is None:
            # Ruling SQ-14: a Blind card is flipped into the centre; which Blind stack it was does not matter
            # (each holds one unknown card), so the first stands for all.
            card = faces[0]
            readings += [Blind(p, blind[0], card, value=getattr(r, "value", None), target=getattr(r, "target", None))
                         for r in readings]
        return readings

    def _cleared(self, state: SquirrelsState, cleared: _Cleared) -> None:
        """Ruling SQ-15: the pile taken away while the rules still hold it is the player to move picking it up.
        Cards the referee typed after the camera saw it taken, that the camera saw land after it (read after it, in
        order), were not on it: they stay owed, and a pile of only such cards was not picked up (SQ-20)."""
        self.matched.clear()
        self.owed &= self._typed_after(cleared.seq) & self._landing_after()  # the rest went with the pile
        taken = Counter(card for card, _value in state.pile) - self.owed
        if taken and state.phase is Phase.PLAY:
            p = state.current
            self.table.propose([Pickup(p)], source="camera (the pile was taken)", zone=CENTRE, face="",
                               seat=p, question=f"Did {state.players[p]} pick up the pile?")

    def _typed_after(self, seq: int) -> Counter[str]:
        """The cards moves not read from the camera put on the pile after the game's move ``seq``."""
        game = self.table.session.game
        moves = [m.event for m in game.moves if m.event.seq > seq] if game else []
        return sum((Counter(_pile_cards(m.payload)) for m in moves if not m.source.startswith("camera")), Counter())

    def _landing_after(self) -> Counter[str]:
        """The cards the camera saw land on the pile after the pile taken away that is being read now, before it
        was taken again."""
        faces: Counter[str] = Counter()
        for item in self.queue:
            if isinstance(item, _Cleared):
                break
            if item.target is None:
                faces.update(item.faces)
        return faces

    def _moves(self) -> int:
        game = self.table.session.game
        return len(game.moves) if game else 0

    def _last_seq(self) -> int:
        """The log's number of the game's last live move (a move typed after an undo comes after the undone)."""
        game = self.table.session.game
        return game.moves[-1].event.seq if game and game.moves else -1

    def _open(self, about: str) -> bool:
        return any(prompt.about == about for prompt in self.table.session.prompts.open())

    def _asking(self) -> bool:
        """Whether a question about cards the camera saw is open (a target, a Wild's value, an unreadable card)."""
        about = (f"{CENTRE}:", "seat:", "unreadable:")
        return any(prompt.about.startswith(about) for prompt in self.table.session.prompts.open())

    def _unreadable(self, best: str) -> None:
        """A card the camera cannot name: the referee says which it is (the likely single-card plays)."""
        state = self._state()
        if state is None or state.phase not in (Phase.PLAY, Phase.BLIND_FOLLOW):
            return
        p = state.current
        ruleset = self.table.session.game.ruleset  # type: ignore[union-attr]
        faces = [str(n) for n in NUMBERS]
        options = [Option(f"{state.players[p]}: {face}", Play(p, (face,))) for face in faces]
        legal = [o for o in options if ruleset.legal(state, o.action) is None]
        question = (f"The camera cannot read the card {state.players[p]} put on the pile (it looks a little like "
                    f"{best}): which card is it?")
        self.table.ask(f"unreadable:{CENTRE}", question, legal, seat=None)

    # ------------------------------------------------------------------------------------ following the game
    def _state(self) -> SquirrelsState | None:
        _game_id, status, state = self.table.session.current()
        return state if isinstance(state, SquirrelsState) and status == "playing" else None

    def changed(self, t: float) -> None:
        """Offer the end of the turn after a Blind card; drop prompts and matches the game has moved past."""
        state = self._state()
        prompts = self.table.session.prompts
        typed = self._follow_moves()
        if state is not None and not state.pile:
            self.matched.clear()
        if state is None or state.phase is not Phase.REVEAL:
            self.shown.clear()
            self.shown_at.clear()
        if state is not None and state.current != self.turn:
            # A top seen leaving counts only until its owner's turn is over (a Skip card lifted when a skipped
            # turn passes is not a stack play).
            self.gone.pop(self.turn, None)
            self.turn = state.current
        if state is not None and state.phase is Phase.BLIND_FOLLOW:
            p = state.current
            question = (f"{state.players[p]} flipped a Blind {state.follow_value}: add matching cards, "
                        "or end the turn.")
            prompts.ask(END_TURN, question, [Option("End my turn", Done(p))], seat=p)
        elif any(prompt.about == END_TURN for prompt in prompts.open()):
            prompts.withdraw(END_TURN, "the game has moved on")
        self._withdraw_stale(state, typed)

    def _follow_moves(self) -> bool:
        """The moves recorded since the adapter last looked: whether the referee typed one. Cards such a move put
        on the pile that the camera has not reported are owed (``owed``): the camera may still report them (a card
        across two others is named frames late, or never), and a card it owes is matched, never another play. The
        last cards read from the pile, recorded since by a player's answer or the referee, are the camera's: a
        card of the same face landing later is another card. When the referee took back the move they were read
        as, they are the camera's again for the move typed instead (only the cards it did not name are owed)."""
        game = self.table.session.game
        moves = [m.event for m in game.moves] if game else []
        last = self.last
        if last is not None and last.seq is not None and last.seq not in {move.seq for move in moves}:
            self.matched -= Counter(last.faces)
            last.seq = None
        new = [move for move in moves if move.seq > self.followed]
        self.followed = max(self.followed, self._last_seq())
        for move in new:
            cards = Counter(_pile_cards(move.payload)) if move.kind == "action" else Counter()
            if not cards or move.source.startswith("camera"):
                continue  # a move read from the camera's cards (``_play``) matched them itself
            last, seen = self.last, Counter()
            if last is not None and last.seq is None and Counter(last.faces) <= cards:
                seen, last.seq = Counter(last.faces), move.seq
                self.matched.update(seen)
            self.owed.update(cards - seen)
        return any(not move.source.startswith(RECORDED_BY_TABLE) for move in new)

    def _withdraw_stale(self, state: SquirrelsState | None, typed: bool) -> None:
        """A question about cards the camera saw is withdrawn once none of its answers is allowed any more, or once
        the referee has typed a move meanwhile (it asked about the game before that move, and the referee has
        taken those cards in hand): left open, it would hold up every card after it."""
        game = self.table.session.game
        for prompt in self.table.session.prompts.open():
            if not prompt.about.startswith((f"{CENTRE}:", "seat:", "unreadable:", ORIGIN)) or game is None:
                continue
            if typed:
                self.table.session.prompts.withdraw(prompt.about, "the referee typed a move meanwhile")
            elif state is None or all(game.ruleset.legal(state, o.action) is not None for o in prompt.options):
                self.table.session.prompts.withdraw(prompt.about, "the game has moved on")

    # ------------------------------------------------------------------------------------ view
    def live_key(self, t: float) -> tuple[Any, ...]:
        shown = tuple((seat, tuple(cards)) for seat, cards in self.shown.items())
        return tuple(self.on_pile), shown, tuple((seat, tuple(laid)) for seat, laid in self.laid.items())

    def view(self) -> dict[str, Any]:
        """The cards lying in the centre now, as the camera sees them; each player's stack tops (those seen so far
        during the layout) and a Skip card before them, as the table recorded them; the cards spread at a round's
        end, as they are seen."""
        state = self._state()
        piles: list[dict[str, Any]] = []
        for seat, name in enumerate(state.players if state is not None else ()):
            assert state is not None
            tops = [st.top for st in state.stacks[seat] if st.top is not None]
            tops = tops or [face for _zone, face in self.laid.get(seat, [])]
            if tops:
                piles.append({"label": stacks_label(name), "cards": tops})
            if state.skips[seat]:
                piles.append({"label": f"Skip card before {name}", "cards": ["skip"]})
            if self.shown.get(seat):
                piles.append({"label": f"{name} shows", "cards": list(self.shown[seat])})
        return {"centre": list(self.on_pile), "piles": piles}

    def close(self) -> None:
        self.queue.clear()
