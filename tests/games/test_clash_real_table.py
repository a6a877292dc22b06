"""Every random full-information game, watched from a real table: the referee records only what shows (face-up
cards, who goes first, looks that happened, the card a pick turned up), answers the extra questions hidden hands
raise (a parry nobody can rule out, a Mage with nothing to burn), and must see the same table at every step."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.actions import Action, Reshuffle
from companion.games.base import GameSetup
from companion.games.clash_of_corgis import ClashOfCorgis
from companion.games.clash_of_corgis.actions import (
    Activate,
    Deal,
    Discard,
    Guess,
    Heal,
    Parry,
    Pick,
    Reveal,
    RevealCard,
    Save,
    Shuffle,
)

RULES = ClashOfCorgis()
MAX_ACTIONS = 3_000
PRIVATE = ("hands", "deck_order", "foes_order", "to_move")


def public(view: dict[str, Any]) -> dict[str, Any]:
    """What the table shows: no hands, no deck order, no face of a face-down card."""
    shown = {k: v for k, v in view.items() if k not in PRIVATE}
    if "tables" in shown:
        shown["tables"] = [{slot: {**cell, "card": None if cell["position"] == "hidden" else cell["card"]}
                            for slot, cell in table.items()} for table in shown["tables"]]
    return shown


def hidden_card(state: Any, seat: int, slot: str) -> str | None:
    cell = state.tables[seat].get(slot)
    return cell.card if cell is not None and cell.position.value == "hidden" else None


def seen(before: Any, action: Action, after: Any) -> Action:
    """``action`` as the table records it: chance events without what nobody saw, faces where they show."""
    match action:
        case Deal():
            return Deal(first=after.first)
        case Reshuffle():
            return Reshuffle(None)
        case Shuffle():
            return Shuffle()
        case Pick() if hasattr(before, "exposed"):  # Original: the card the Archer exposed
            target = before.pending.target
            return Pick(card=(set(after.exposed[target]) - set(before.exposed[target])).pop())
        case Pick() if hasattr(before, "tables"):  # Capture: the card now face up in the exposed row
            owner = before.pending.owner
            return Pick(card=after.tables[owner][f"exposed-{before.pending.column}"].card)
        case Pick():  # Treasure Island: only a discarded card shows
            return Pick(card=after.discard[-1] if len(after.discard) > len(before.discard) else None)
        case Heal(player=p, card=c):
            return Heal(p, c if c in before.exposed[p] else None)
        case Activate(player=p, slot=slot) if slot != "hand":
            return dataclasses.replace(action, card=hidden_card(before, p, slot))
        case RevealCard(slot=slot) if slot != "hand":
            return dataclasses.replace(action, card=hidden_card(before, before.pending.owner, slot))
        case Guess():
            return dataclasses.replace(action, card=hidden_card(before, before.pending.owner, before.pending.slots[0]))
        case Save(player=p, slot=slot) if slot not in (None, "hand"):
            return dataclasses.replace(action, card=before.tables[p][slot].card)
    return action


def answer_hidden_questions(table: Any, full_before: Any, full_after: Any) -> Any:
    """What the real table must still record before it is where the full game is (Capture asks nothing more)."""
    if hasattr(table, "tables"):
        return table
    for _ in range(5):
        phase = table.phase.value
        if phase == full_after.phase.value and phase not in ("reveal",):
            return table
        p = table.pending
        if phase == "parry" and full_after.phase.value != "parry":
            table = RULES.apply(table, Parry(p.target, None))  # nobody could rule out a Samurai
        elif phase == "discard" and full_after.phase.value != "discard":
            table = RULES.apply(table, Discard(p.player, None))  # "nothing to burn"
        elif phase == "reveal" and table.battle is not None:
            fight = full_after.foes if full_after.phase.value == "wind" else list(full_after.last_fight.foes)
            table = RULES.apply(table, Reveal(tuple(c for c in fight if c not in table.foes)))
        elif phase == "reveal":  # the Berserker's victim shows the hand
            table = RULES.apply(table, Reveal(tuple(full_before.hands[p.target])))
        else:
            return table
    return table


@pytest.mark.parametrize("variant", sorted(RULES.variants))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_a_real_table_sees_the_same_game(variant, data, seed):
    game = RULES.game_rules(variant)
    n = data.draw(st.integers(game.min_players, game.max_players), label="players")
    names = tuple(f"P{i}" for i in range(n))
    full = RULES.setup(GameSetup("clash-of-corgis", names, variant, full_information=True))
    table = RULES.setup(GameSetup("clash-of-corgis", names, variant, full_information=False))
    rng = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        if RULES.outcome(full) is not None:
            break
        action = RULES.chance(full, rng) or rng.choice(RULES.legal_actions(full))
        after = RULES.apply(full, action)
        table = answer_hidden_questions(table, full, full)
        table = RULES.apply(table, seen(full, action, after))
        table = answer_hidden_questions(table, full, after)
        assert public(RULES.view(table)) == public(RULES.view(after)), action
        full = after
    assert RULES.outcome(table) == RULES.outcome(full) is not None
