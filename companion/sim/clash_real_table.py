"""A full-information game of Clash of Corgis as a real table records it: what the referee sees of each move (no
seeds, no hidden faces; the card a pick or a flip shows) and the questions hidden hands add (a parry nobody can
rule out, a Mage with nothing to burn, the foes flipped, a hand the Berserker has revealed). The camera bots play
the full game and bring the table's record along with it; the real-table property test checks the two agree."""

from __future__ import annotations

import dataclasses
from typing import Any

from companion.games.actions import Action, Reshuffle
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

PRIVATE = ("hands", "deck_order", "foes_order", "to_move")


def public(view: dict[str, Any]) -> dict[str, Any]:
    """What the table shows of a game's view: no hands, no deck order, no face of a face-down card."""
    shown = {k: v for k, v in view.items() if k not in PRIVATE}
    if "tables" in shown:
        shown["tables"] = [{slot: {**cell, "card": None if cell["position"] == "hidden" else cell["card"]}
                            for slot, cell in table.items()} for table in shown["tables"]]
    return shown


def _hidden_card(state: Any, seat: int, slot: str) -> str | None:
    cell = state.tables[seat].get(slot)
    return cell.card if cell is not None and cell.position.value == "hidden" else None


def seen(before: Any, action: Action, after: Any) -> Action:
    """``action`` of the full game (from ``before`` to ``after``) as the table records it: chance events without
    what nobody saw, faces where they show."""
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
            return dataclasses.replace(action, card=_hidden_card(before, p, slot))
        case RevealCard(slot=slot) if slot != "hand":
            return dataclasses.replace(action, card=_hidden_card(before, before.pending.owner, slot))
        case Guess():
            return dataclasses.replace(action, card=_hidden_card(before, before.pending.owner,
                                                                 before.pending.slots[0]))
        case Save(player=p, slot=slot) if slot not in (None, "hand"):
            return dataclasses.replace(action, card=before.tables[p][slot].card)
    return action


def hidden_answer(table: Any, full_before: Any, full_after: Any) -> Action | None:
    """What the real table (``table``) must still record before it is where the full game is (``full_after``,
    reached from ``full_before``); ``None`` when nothing (Capture asks nothing more)."""
    if hasattr(table, "tables"):
        return None
    phase = table.phase.value
    if phase == full_after.phase.value and phase != "reveal":
        return None
    p = table.pending
    if phase == "parry" and full_after.phase.value != "parry":
        return Parry(p.target, None)  # nobody could rule out a Samurai
    if phase == "discard" and full_after.phase.value != "discard":
        return Discard(p.player, None)  # "nothing to burn"
    if phase == "reveal" and table.battle is not None:
        # The session shuffles the table's deck the moment it runs out, so the table may wait for foes the full
        # game takes only after its own shuffle: none to flip yet (its last fight's foes are an earlier fight's).
        if full_after.phase.value == "reshuffle":
            return None
        fight = full_after.foes if full_after.phase.value == "wind" else list(full_after.last_fight.foes)
        return Reveal(tuple(c for c in fight if c not in table.foes))
    if phase == "reveal":  # the Berserker's victim shows the hand
        return Reveal(tuple(full_before.hands[p.target]))
    return None
