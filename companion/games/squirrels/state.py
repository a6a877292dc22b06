"""Squirrels' state: what the referee sees (pile, stack tops, Skip cards, counts) and, in full-information
play, what everyone holds."""

from __future__ import annotations

import copy
import enum
from dataclasses import dataclass, field

from companion.games.base import Finding, GameState, Outcome

STACKS = 4  # "Each player makes 4 stacks in front of them"
HAND = 8  # "The remaining 8 cards are held by the player in their hands."
DEALT = 20  # "Stacks of 20 cards are dealt face down and given to each player."
STACKED = DEALT - HAND  # four stacks of three
FOUR = 4  # "Once four cards in the pile have the same value ... The entire pile is cleared"


class Phase(enum.Enum):
    STARTER = "starter"
    DEAL = "deal"
    LAYOUT = "layout"
    PLAY = "play"
    BLIND_FOLLOW = "blind-follow"
    REVEAL = "reveal"
    OVER = "over"


@dataclass(frozen=True)
class Stack:
    """One stack: its face-up top (``None`` once played) over its face-down cards, bottom first. Face-down cards
    are face ids in full-information play and ``None`` (unknown) at a live table."""

    top: str | None
    down: tuple[str | None, ...]

    @property
    def blind(self) -> bool:
        """"The last remaining face down card in a stack is called a Blind Card.\""""
        return self.top is None and len(self.down) == 1

    @property
    def count(self) -> int:
        return (self.top is not None) + len(self.down)


@dataclass
class SquirrelsState(GameState):
    rounds: int
    phase: Phase = Phase.STARTER
    round: int = 0
    candidates: tuple[int, ...] = ()  # who the starter is drawn among
    starter: int | None = None
    current: int = 0
    hand_counts: list[int] = field(default_factory=list)
    hands: list[list[str]] | None = None  # full-information play only
    stacks: list[list[Stack]] = field(default_factory=list)
    pile: list[tuple[str, int]] = field(default_factory=list)  # (card, value it counts as), bottom first
    discard: list[str] = field(default_factory=list)  # out of play this round: cleared piles, Push and Skip cards
    unused: list[str] | None = None  # "The remaining cards are not used": known in full-information play
    unused_count: int = 0
    skips: list[bool] = field(default_factory=list)  # a Skip card lies in front of this seat
    safe: int | None = None  # the first player out this round
    owed: list[bool] = field(default_factory=list)  # once someone is out: who still has a final turn
    follow_value: int | None = None  # the Blind card's value, while its owner may add matching cards
    revealed: dict[int, tuple[str, ...]] = field(default_factory=dict)  # live round end: cards shown
    known: list[dict[str, int]] = field(default_factory=list)  # live: cards seen entering a hand, not played since
    round_scores: list[list[int]] = field(default_factory=list)
    round_safe: list[int | None] = field(default_factory=list)
    audit: list[Finding] = field(default_factory=list)
    result: Outcome | None = None

    @property
    def full_information(self) -> bool:
        return self.setup.full_information

    @property
    def hand_size(self) -> int:
        """Cards each player holds after the deal: the rulebook's 8, or fewer by house rule (ruling SQ-19)."""
        return int(self.setup.options.get("hand", HAND))

    @property
    def dealt(self) -> int:
        """Cards dealt to each player: the four stacks and the hand."""
        return STACKED + self.hand_size

    @property
    def totals(self) -> list[int]:
        return [sum(scores[p] for scores in self.round_scores) for p in range(len(self.players))]

    def cards_left(self, seat: int) -> int:
        return self.hand_counts[seat] + sum(stack.count for stack in self.stacks[seat])

    def top_run(self) -> tuple[int, int] | None:
        """The pile's top value and how many cards of it lie on top, or ``None`` on an open table. Cards only go
        onto equal or lower ones, so cards of one value are always together."""
        if not self.pile:
            return None
        value = self.pile[-1][1]
        run = 0
        for _, v in reversed(self.pile):
            if v != value:
                break
            run += 1
        return value, run

    def clone(self) -> SquirrelsState:
        """A copy that shares nothing mutable: ``apply`` works on it so a refusal leaves the original intact."""
        new = copy.copy(self)
        new.hand_counts = list(self.hand_counts)
        new.hands = [list(h) for h in self.hands] if self.hands is not None else None
        new.stacks = [list(s) for s in self.stacks]
        new.pile = list(self.pile)
        new.discard = list(self.discard)
        new.unused = list(self.unused) if self.unused is not None else None
        new.skips = list(self.skips)
        new.owed = list(self.owed)
        new.revealed = dict(self.revealed)
        new.known = [dict(k) for k in self.known]
        new.round_scores = [list(r) for r in self.round_scores]
        new.round_safe = list(self.round_safe)
        new.audit = list(self.audit)
        return new

    def all_cards(self) -> list[str]:
        """Every card the state accounts for (full-information play, after the first deal): always all 162."""
        assert self.hands is not None and self.unused is not None
        cards = list(self.unused) + self.discard + [card for card, _ in self.pile] + ["skip"] * sum(self.skips)
        for seat, hand in enumerate(self.hands):
            cards += hand
            for stack in self.stacks[seat]:
                cards += [c for c in (stack.top, *stack.down) if c is not None]
        return sorted(cards)
