"""The simulated Clash of Corgis table as the camera sees it, on the Clash mat (A2: a party's two cards lie side by
side): the centre (Original's combos, Treasure Island's foes), the discard pile, and at each seat the player's
place (exposed hand or party) and loot pile. Hands and the deck are the world's secret: only the bots know them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.sim.corgi_world import CardWorld, Placed, seats_for
from companion.vision.mat import CENTRE, DISCARD, SMALLEST_MAT, mat_layout

DECK = "clash-of-corgis"
MAT = SMALLEST_MAT[DECK]  # a party's two cards lie side by side only on A2
FRAME = (1280, 720)  # the A2 mat's cards need the pixels, as Crazy Corgi's
# Where cards lie in a zone, (along, across) its long side in mm from its middle, across counted away from the
# centre of the mat. Cards put down together lie apart, 74 mm between centres in a row and 98 mm between rows
# (touching cards read as one), and clear of the discard pile beside the centre: a party's two side by side, the
# foes or a combo's cards in two rows. A place's later cards (an exposed hand's third...) lie over the first ones,
# each read as it comes to rest on top.
PLACE_SLOTS = ((-37.0, 20.0), (37.0, 20.0), (0.0, 24.0), (-30.0, 28.0), (30.0, 28.0))
FOE_SLOTS = ((-37.0, -49.0), (37.0, -49.0), (0.0, 49.0))  # the foes, or a hand shown, in the centre
COMBOS = {1: ((0.0, 0.0),), 2: ((-37.0, 0.0), (37.0, 0.0)), 3: FOE_SLOTS,  # a combo's cards
          4: ((-37.0, -49.0), (37.0, -49.0), (-37.0, 49.0), (37.0, 49.0)),
          5: ((-37.0, -49.0), (37.0, -49.0), (-37.0, 49.0), (37.0, 49.0), (0.0, 0.0))}
SHOWN = {CENTRE: 8, DISCARD: 2}  # how many of a pile's top cards are drawn (the others lie hidden under them)
PILE_SHOWN = 2  # a loot pile's
PILE_AWAY_MM = 20.0  # a loot pile lies toward its player, clear of the centre's cards


class ClashWorld(CardWorld):
    """Cards lying face up by zone. ``foes`` lays the centre out in three places (Treasure Island's foes) rather
    than as combos on top of one another (Original)."""

    deck = DECK

    def __init__(self, players: int, seed: int, *, foes: bool) -> None:
        super().__init__(seed, mat=MAT, frame=FRAME, game=DECK)
        self.seat_zones = seats_for(players)
        self.foes = foes
        self.piles: dict[str, list[Placed]] = {}
        self.slot: dict[str, int] = {}  # face -> its place in a zone laid out in places
        self.taken_at: dict[str, int] = {}  # face -> the frame it was taken off the table (to a hand, the deck)
        layout = mat_layout(MAT, DECK)
        self.along_x = {z.name: z.x1 - z.x0 >= z.y1 - z.y0 for z in layout.zones}
        middle = (layout.width / 2, layout.height / 2)  # which way is away from the centre, from each zone
        self.away = {z.name: 1.0 if (z.y0 + z.y1 if self.along_x[z.name] else z.x0 + z.x1) / 2
                     >= middle[1 if self.along_x[z.name] else 0] else -1.0 for z in layout.zones}
        for name in [z.name for z in layout.zones if "/" in z.name]:  # a loot pile: as its player's place
            seat = name.split("/")[0]
            self.along_x[name], self.away[name] = self.along_x[seat], self.away[seat]

    def lying(self) -> list[Placed]:
        shown = [pile[-SHOWN.get(zone, PILE_SHOWN if "/" in zone else len(pile)):]
                 for zone, pile in self.piles.items()]
        return [p for pile in shown for p in pile]

    # ------------------------------------------------------------------------------------ what players do
    def put(self, moves: Sequence[tuple[str, str]]) -> None:
        """Cards put down, each in its zone (taken from wherever they lay, or from a hand), all in one frame."""
        with self.lock:
            self._put(moves)

    def arrange(self, layout: Mapping[str, Sequence[str]]) -> None:
        """Every card where ``layout`` (zone -> faces) has it, in one frame: cards already in their zone stay as
        they lie, the others are put down there; cards it leaves out go back to a hand or off the table."""
        with self.lock:
            wanted = {face: zone for zone, faces in layout.items() for face in faces}
            where = {p.face: zone for zone, pile in self.piles.items() for p in pile}
            for face in set(where) - set(wanted):
                self._take(face)
                self.taken_at[face] = self.frames
            self._put([(face, zone) for face, zone in wanted.items() if where.get(face) != zone])

    def faces(self, zone: str) -> list[str]:
        with self.lock:
            return [p.face for p in self.piles.get(zone, [])]

    def last_taken(self, faces: Sequence[str]) -> int | None:
        """The last frame at which one of ``faces``, coming back onto the table, was taken off it (``None``: none
        was); each is then on the table again."""
        with self.lock:
            taken = [self.taken_at.pop(face) for face in faces if face in self.taken_at]
            return max(taken, default=None)

    # ------------------------------------------------------------------------------------ where cards lie
    def _put(self, moves: Sequence[tuple[str, str]]) -> None:
        for face, _zone in moves:
            self._take(face)
        combo = [face for face, zone in moves if zone == CENTRE]
        for face, zone in moves:
            if zone == CENTRE and not self.foes:
                dx, dy = COMBOS[len(combo)][combo.index(face)]
                placed = self._at(zone, face, dx, dy)
            elif zone == CENTRE or ("/" not in zone and zone != DISCARD):
                placed = self._in_place(zone, face, FOE_SLOTS if zone == CENTRE else PLACE_SLOTS)
            else:
                placed = self._at(zone, face, *self._offset(zone, 0.0, PILE_AWAY_MM if "/" in zone else 0.0))
            self.piles.setdefault(zone, []).append(placed)

    def _in_place(self, zone: str, face: str, slots: Sequence[tuple[float, float]]) -> Placed:
        """``face`` in the first free place of ``zone`` (past the last place, on the places again, a little lower)."""
        taken = {self.slot[p.face] for p in self.piles.get(zone, []) if p.face in self.slot}
        k = next(i for i in range(len(taken) + 1) if i not in taken)
        self.slot[face] = k
        along, across = slots[k % len(slots)]
        return self._at(zone, face, *self._offset(zone, along, across + 10.0 * (k // len(slots))))

    def _offset(self, zone: str, along: float, across: float) -> tuple[float, float]:
        """(dx, dy) on the table of a point ``along`` the zone's long side and ``across`` it, away from the middle."""
        across *= self.away[zone]
        return (along, across) if self.along_x[zone] else (across, along)

    def _take(self, face: str) -> None:
        for pile in self.piles.values():
            for placed in pile:
                if placed.face == face:
                    pile.remove(placed)
                    self.slot.pop(face, None)
                    return
