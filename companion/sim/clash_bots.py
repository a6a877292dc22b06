"""Bot players for Clash of Corgis, one policy per game: they see the whole table (full-information play) and
choose among the legal moves for their seat the way a careful player would, not uniformly at random."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.games.actions import Action
from companion.games.base import Ruleset
from companion.games.clash_of_corgis import cards
from companion.games.clash_of_corgis.actions import (
    Activate,
    Build,
    Declare,
    Discard,
    Expose,
    Fight,
    Guess,
    Heal,
    Insight,
    Parry,
    PassTurn,
    Play,
    Rearrange,
    Retire,
    RevealCard,
    Save,
    Select,
    Target,
)
from companion.games.clash_of_corgis.capture_state import CaptureState, Position
from companion.games.clash_of_corgis.effects import Role, role
from companion.games.clash_of_corgis.original import rank_value
from companion.games.clash_of_corgis.original_state import OriginalState
from companion.games.clash_of_corgis.treasure_island import bonus_of, party_total, ti_rank
from companion.games.clash_of_corgis.treasure_state import Phase as TreasurePhase
from companion.games.clash_of_corgis.treasure_state import TreasureState

Policy = Callable[[Any, int, list[Action], random.Random], Action]


def _strength(card: str) -> int:
    """How precious a card is to keep in Original: its rank, the Wild above the Ace."""
    value = rank_value(card)
    return 11 if value is None else value


def original_policy(s: OriginalState, seat: int, moves: list[Action], rng: random.Random) -> Action:
    """Shed cards cheaply: lead the biggest combo of low cards, beat with the weakest combo that does, keep Wilds
    and Aces for when an opponent is close to going out, and aim effects at the player nearest to winning."""
    assert s.hands is not None
    others = [p for p in range(len(s.players)) if p != seat]
    danger = min(s.hand_size(p) for p in others) <= 3
    hand = s.hands[seat] + s.exposed[seat]
    group = Counter(rank_value(c) for c in hand)

    def play_cost(move: Play) -> float:
        strength = max(_strength(c) for c in move.cards)
        precious = strength >= 10 and not danger
        return (20 if precious else 0) + strength - 3 * len(move.cards)

    plays = [m for m in moves if isinstance(m, Play)]
    if plays:
        best = min(plays, key=lambda m: (play_cost(m), rng.random()))
        passing = [m for m in moves if isinstance(m, PassTurn)]
        if passing and play_cost(best) >= 20 and s.hand_size(seat) > 2:
            return passing[0]
        return best
    first = moves[0]
    if isinstance(first, PassTurn):
        return first
    if isinstance(first, Declare):
        assert s.lead is not None
        return Declare(seat, s.lead.rank <= 5)  # a low rank is hard to go under
    if isinstance(first, Target):
        return min(moves, key=lambda m: (s.hand_size(getattr(m, "target", seat)), rng.random()))
    if isinstance(first, Parry):
        aces = [m for m in moves if isinstance(m, Parry) and m.card is not None]
        worth = s.pending is not None and s.pending.role in (Role.ASSASSIN, Role.MONK, Role.FIGHTER)
        free = [m for m in aces if m.card in s.exposed[seat]]
        return (free or (aces if worth else []) or [Parry(seat, None)])[0]
    if isinstance(first, Expose | Heal | Discard):
        # Give up a lone low card: a card in a group or a strong card is worth more in the hand.
        def keep_value(move: Action) -> tuple[int, int, float]:
            card = getattr(move, "card", None)
            return (group[rank_value(card)], _strength(card), rng.random()) if card else (0, 0, rng.random())

        return min(moves, key=keep_value)
    return first


FOE_AVERAGE = 6.0  # a foe's expected rank: 1-9 and five Aces and five Wilds at 10
# Now and then any legal move: late in a game the same few strong cards can go round and round (built, fought to a
# tie, reshuffled), and careful players would break the circle too.
EXPLORE = 0.1


def treasure_policy(s: TreasureState, seat: int, moves: list[Action], rng: random.Random) -> Action:
    """Build the strongest party (bonuses count), fight as many foes as it can expect to beat, aim effects at the
    leader in loot, and always parry."""
    if rng.random() < EXPLORE:
        return rng.choice(moves)

    def party_value(party: list[str]) -> float:
        bonus = bonus_of(party)
        value = party_total(party, bonus)
        return value + (FOE_AVERAGE if bonus == "fire" else 3 if bonus in ("wind", "earth") else 0)

    first = moves[0]
    if isinstance(first, Build):
        def built(move: Action) -> float:
            card, old = getattr(move, "card", None), getattr(move, "replace", None)
            party = [c for c in s.parties[seat] if c != old] + ([card] if card else [])
            return party_value(party) + rng.random()

        return max(moves, key=built)
    if isinstance(first, PassTurn):
        total = party_value(s.parties[seat])
        fights = [m for m in moves if isinstance(m, Fight) and total > FOE_AVERAGE * m.foes + 2]
        if fights:
            return max(fights, key=lambda m: m.foes)
        one = [m for m in moves if isinstance(m, Fight) and m.foes == 1]
        # A full party that can not grow stronger fights one foe anyway: waiting would never change the hand.
        return one[0] if one and len(s.parties[seat]) == 2 else first
    if isinstance(first, Target):
        return max(moves, key=lambda m: (len(s.loot[getattr(m, "target", seat)]), rng.random()))
    if isinstance(first, Parry):
        aces = [m for m in moves if isinstance(m, Parry) and m.card is not None]
        return min(aces, key=lambda m: ti_rank(m.replace) if m.replace else 11) if aces else first
    if isinstance(first, Discard):
        if s.phase is TreasurePhase.WIND:
            worst = max(s.foes, key=ti_rank)
            return Discard(seat, worst) if ti_rank(worst) > FOE_AVERAGE else Discard(seat, None)
        return max(moves, key=lambda m: ti_rank(getattr(m, "card", None) or "earth-1"))
    if isinstance(first, Retire):
        return max(moves, key=lambda m: sum(ti_rank(c) for c in getattr(m, "keep", ())))
    return first


REVEALERS = {Role.ILLUSIONIST: 5, Role.ASSASSIN: 4, Role.ARCHER: 4, Role.MONK: 3, Role.FIGHTER: 3, Role.MAGE: 3,
             Role.SAMURAI: 3, Role.BERSERKER: 3, Role.ORACLE: 2, Role.BARD: 1, Role.HEALER: 1}


def capture_policy(s: CaptureState, seat: int, moves: list[Action], rng: random.Random) -> Action:
    """Look first, activate the cards that reveal the opponent's cards, never give away its own Illusionist, and
    save with the Ace when it can. It knows its own cards but never peeks at the opponent's hidden ones."""
    other = 1 - seat

    def own_card(move: Action) -> str | None:
        slot, card = getattr(move, "slot", None), getattr(move, "card", None)
        cell = s.tables[seat].get(slot or "")
        return card or (cell.card if cell else None)

    first = moves[0]
    if isinstance(first, Insight | Activate):
        looks = [m for m in moves if isinstance(m, Insight)]
        if looks and rng.random() < 0.7:
            return rng.choice(looks)
        acts = [m for m in moves if isinstance(m, Activate)] or moves
        return max(acts, key=lambda m: (REVEALERS[role(own_card(m) or "fire-2")], rng.random()))
    if isinstance(first, RevealCard | Select) and getattr(first, "player", None) == seat and s.pending is not None \
            and s.pending.owner == seat:
        safe = [m for m in moves if not cards.is_wild(own_card(m) or "fire-1")]
        return rng.choice(safe or moves)
    if isinstance(first, Guess):
        seen = {cards.label(c.card) for c in s.tables[other].values() if c.card and c.position is not Position.HIDDEN}
        return rng.choice([m for m in moves if getattr(m, "rank", "") not in seen] or moves)
    if isinstance(first, Save):
        aces = [m for m in moves if m.slot is not None and cards.is_ace(own_card(m) or "fire-1")]
        if aces:
            return aces[0]
        blind = [m for m in moves if m.slot not in (None, "hand")
                 and s.tables[seat][str(m.slot)].position is Position.HIDDEN]
        if blind and not any(cards.is_ace(c) for c in s.out[seat]):
            return rng.choice(blind)  # the one blind attempt: the Ace may be there
        return Save(seat, None)
    if isinstance(first, Rearrange):
        hiding = [m for m in moves if any(cards.is_wild(s.tables[seat][x].card or "fire-1") for x in m.slots[:1])]
        return max(hiding or moves, key=lambda m: len(getattr(m, "slots", ())))
    return rng.choice(moves)


POLICIES: dict[str, Policy] = {"original": original_policy, "treasure-island": treasure_policy,
                               "capture": capture_policy}


@dataclass
class ClashBot:
    """A Clash of Corgis player for one seat, with a seeded generator for its tie-breaks."""

    seat: int
    rng: random.Random

    def choose(self, ruleset: Ruleset, state: Any) -> Action | None:
        mine = [a for a in ruleset.legal_actions(state) if getattr(a, "player", None) == self.seat]
        if not mine:
            return None
        return POLICIES[state.setup.variant](state, self.seat, mine, self.rng)
