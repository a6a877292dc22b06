"""The menu of moves in full-information play: every distinct Action the player to move can take.

Each move is built legal (values no higher than the top, at most four of a value, allowed targets), so the menu is
cheap; the property tests apply every one to check. Moves differ only in what matters: which value, how many
cards from the hand, which stack tops, which declared value or target.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from companion.games.actions import Action
from companion.games.squirrels.actions import Blind, Done, Pickup, Play, Push, Skip
from companion.games.squirrels.cards import NUMBERS, kind
from companion.games.squirrels.state import FOUR, Phase, SquirrelsState

if TYPE_CHECKING:
    from companion.games.squirrels.rules import Squirrels


def candidates(rules: Squirrels, s: SquirrelsState) -> list[Action]:
    """Every legal move of the player to move (none outside their turn)."""
    p = s.current
    if s.phase is Phase.BLIND_FOLLOW:
        assert s.follow_value is not None
        return [*_plays_of(s, p, s.follow_value), Done(p)]
    if s.phase is not Phase.PLAY:
        return []
    assert s.hands is not None
    out: list[Action] = []
    top = s.top_run()
    if top is not None:
        out.append(Pickup(p))
    for value in NUMBERS if top is None else range(1, top[0] + 1):
        out.extend(_plays_of(s, p, value))
    hand = Counter(s.hands[p])
    tops = {i: st.top for i, st in enumerate(s.stacks[p]) if st.top is not None}
    sources = {card: [None] * (hand[card] > 0) + [i for i, t in tops.items() if t == card] for card in ("push", "skip")}
    squirrels = sorted({c for c in hand if kind(c) == "squirrel"})[:1]
    out += [Play(p, (c,)) for c in squirrels]
    out += [Play(p, (t,), (i,)) for i, t in tops.items() if kind(t) == "squirrel"]
    push_targets = rules.targets(s, p, "push") if s.pile else [None]
    out += [Push(p, t, i) for i in sources["push"] for t in push_targets]
    out += [Skip(p, t, i) for i in sources["skip"] for t in rules.targets(s, p, "skip")]
    out.extend(_blinds(rules, s, p))
    if top is None and rules.stuck(s, p):
        out.append(Done(p))
    return out


def _plays_of(s: SquirrelsState, p: int, value: int) -> Iterator[Play]:
    """Every play of ``value``: up to four cards, from the hand and the stack tops, Wilds declared as it."""
    assert s.hands is not None
    top = s.top_run()
    room = FOUR - (top[1] if top is not None and top[0] == value else 0)
    card = str(value)
    hand = Counter(s.hands[p])
    tops = [(i, st.top) for i, st in enumerate(s.stacks[p]) if st.top in (card, "wild")]
    for k in range(len(tops) + 1):
        for chosen in itertools.combinations(tops, k):
            stacks = tuple(i for i, _ in chosen)
            from_tops = [t for _, t in chosen]
            for numbers in range(min(hand[card], room) + 1):
                for wilds in range(min(hand["wild"], room) + 1):
                    cards = (*from_tops, *[card] * numbers, *["wild"] * wilds)
                    if not 0 < len(cards) <= room:
                        continue
                    declared = value if "wild" in cards else None
                    yield Play(p, tuple(sorted(cards)), stacks, declared)


def _blinds(rules: Squirrels, s: SquirrelsState, p: int) -> Iterator[Blind]:
    for i, st in enumerate(s.stacks[p]):
        if not st.blind:
            continue
        card = st.down[0]
        assert card is not None
        k = kind(card)
        if k == "wild":
            yield from (Blind(p, i, card, value=v) for v in NUMBERS)
        elif k in ("push", "skip"):
            targets: list[int | None] = list(rules.targets(s, p, k)) if (k == "skip" or s.pile) else []
            yield from (Blind(p, i, card, target=t) for t in targets or [None])
        else:
            yield Blind(p, i, card)
