"""The card-effect vocabulary the three games share: each rank is a class of corgi (1 Oracle ... Wild
Illusionist) whose effect each game words its own way. The rulebook's text of every effect is kept here, once,
so the prompts quote it and the tests check that every effect the book lists is implemented.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from companion.games.clash_of_corgis import cards


class Role(enum.Enum):
    """The class printed on a card, from its rank."""

    ORACLE = 1
    BARD = 2
    HEALER = 3
    MONK = 4
    FIGHTER = 5
    MAGE = 6
    ARCHER = 7
    BERSERKER = 8
    ASSASSIN = 9
    SAMURAI = "ace"
    ILLUSIONIST = "wild"

    @property
    def title(self) -> str:
        return self.name.title()


def role(card: str) -> Role:
    n = cards.number(card)
    return Role(n if n is not None else cards.kind(card))


@dataclass(frozen=True)
class Effect:
    """One effect as the rulebook prints it: "7 Archer (Deadeye): Target any player. ..."."""

    name: str
    text: str


# Original: "Card Effects".
ORIGINAL: dict[Role, Effect] = {
    Role.ORACLE: Effect("Chance", "Privately view the top card of the deck. If the suit of that card matches a suit "
                        "from a card in this combo, discard it to win the round. Otherwise, return it to the top of "
                        "the deck."),
    Role.BARD: Effect("Sing", "Play your turn again, but if you do, at least 1 card from your next play must match "
                      "this card's suit."),
    Role.HEALER: Effect("Heal", "Draw 1 card. Then, return 1 card from your hand to the bottom of the deck."),
    Role.MONK: Effect("Mix-Up", "Target the next player. Declare high or low. If you said low, the next play must be "
                      "lower ranked to beat this play. If you said high, the next play must be higher ranked (as "
                      "usual)."),
    Role.FIGHTER: Effect("Pierce", "Target the next player. Force them to expose a card from their hand. That card "
                         "can not be played this round."),
    Role.MAGE: Effect("Burn", "Discard 1 card from your hand that matches this card's suit."),
    Role.ARCHER: Effect("Deadeye", "Target any player. Randomly select a card from that player's hand and expose it."),
    Role.BERSERKER: Effect("Panic", "If a player chooses to pass on their turn while this card is part of a leading "
                           "combo, that player must expose a card of their choosing."),
    Role.ASSASSIN: Effect("K.O.", "Target the next player. Skip their turn."),
    Role.SAMURAI: Effect("Parry", "During another player's turn, you may activate this card while in your hand to "
                         "cancel a card's effect that targets you as a player. If played this way, you must expose "
                         "this card."),
    Role.ILLUSIONIST: Effect("Illusion", "This card can beat any rank. Once played, this card copies the rank and the "
                             "effect of the previous leading combo. If played first in a round, the rank becomes 0 "
                             "and has no effect. The Wild can not be used in combination with other non-Wild cards."),
}


# Treasure Island: "Card Effects".
TREASURE_ISLAND: dict[Role, Effect] = {
    Role.ORACLE: Effect("Future Sight", "Privately look at the top card of the deck. If it is the same suit as this "
                        "card, take it as loot. Otherwise, place it back on the top of the deck."),
    Role.BARD: Effect("Inspiration", "Draw a card. Then, you may retake your 'Build your Party' phase."),
    Role.HEALER: Effect("Heal", "During the 'Retire your Party' phase, you may keep one card on the table (except "
                        "for another Healer)."),
    Role.MONK: Effect("Negotiation", "Target any player. They must fight 3 foes right now, if possible."),
    Role.FIGHTER: Effect("Piercing Lance", "Target any player. Select a card from their hand and look at it "
                         "privately. If that card is lower than 5, steal one loot from their loot pile, if possible. "
                         "Otherwise, the selected card gets discarded."),
    Role.MAGE: Effect("Elemental Stun", "Target any player. Select a card from their hand and look at it privately. "
                      "If that card is the same suit as this card, steal one loot from their loot pile, if possible. "
                      "Otherwise, the selected card gets discarded."),
    Role.ARCHER: Effect("Piercing Arrow", "Target any player. Select a card from their hand and look at it privately. "
                        "If that card is higher than 7, steal one loot from their loot pile, if possible. Otherwise, "
                        "the selected card gets discarded."),
    Role.BERSERKER: Effect("Intimidation", "Target any player. That player must reveal their hand to all players and "
                           "discard their highest ranked card. If there is a tie, you can choose which card is "
                           "discarded instead."),
    Role.ASSASSIN: Effect("Elimination", "Target any player. Discard any card in their party, if possible."),
    Role.SAMURAI: Effect("Parry", "During another player's turn, you may activate this card while in your hand to "
                         "cancel a card's effect that targets you as a player. If played this way, you must play this "
                         "card to your party. If you have a full party, you may replace a card in your party or "
                         "discard this card instead."),
    Role.ILLUSIONIST: Effect("Copycat", "Copy a card effect in your party for this turn only."),
}

# Treasure Island: "Bonus Effects", by the suit both party cards share, or "double" for a shared rank.
BONUSES: dict[str, Effect] = {
    "earth": Effect("Earth Bonus", "If you lose a fight, you may keep your party on the table (instead of "
                    "discarding them) during the 'Retire your Party' phase."),
    "water": Effect("Water Bonus", "Increase the rank of a card in your party to 10."),
    "fire": Effect("Fire Bonus", "Reduce the rank of a foe to 0."),
    "wind": Effect("Wind Bonus", "You may choose 1 foe to discard and replace with a new foe from the top of the "
                   "deck."),
    "void": Effect("Void Bonus", "Increase the total rank of your party by 10."),
    "double": Effect("Double Bonus", "Multiply the sum of the rank of your party by 2. (A party with an Ace and a "
                     "Wild do not get a Double Bonus, but a party with 2 Aces or 2 Wild cards will.)"),
}


# Capture the Illusionist: "Card Effects".
CAPTURE: dict[Role, Effect] = {
    Role.ORACLE: Effect("Future Insight", "Privately look at one of your hidden cards in your front row or back "
                        "row. Then, activate another card."),
    Role.BARD: Effect("Divine Music", "Select one of your opponent's revealed cards and change it to rested. Then, "
                      "activate another card."),
    Role.HEALER: Effect("Graceful Heal", "Shuffle one of your face-up cards (except this card) along with up to two "
                        "of your hidden cards and re-arrange them in a hidden position, so that the placement of cards "
                        "are the same as before. Then, activate another card."),
    Role.MONK: Effect("Furious Fist", "Reveal one of your opponent's hidden cards in their front row."),
    Role.FIGHTER: Effect("Piercing Lance", "Reveal one of your opponent's hidden cards in their front row or back "
                         "row in the same column as this card."),
    Role.MAGE: Effect("Magic Attack", "Reveal one of your opponent's hidden cards in their back row."),
    Role.ARCHER: Effect("Piercing Arrow", "Reveal one of your opponent's hidden cards in their hand."),
    Role.BERSERKER: Effect("Shattering Roar", "Your opponent must reveal one of their hidden cards in a row that is "
                           "furthest to you. Then, change all of your opponent's revealed card(s) to rested."),
    Role.ASSASSIN: Effect("Targeted Strike", "Your opponent must select one of their hidden cards in their front row "
                          "or back row. Delcare any card rank and reveal the selected card. If the card rank you "
                          "declared is the revealed card, activate this card's effect again."),
    Role.SAMURAI: Effect("Honorable Strike", "Your opponent must reveal one of their hidden cards of their choice."),
    Role.ILLUSIONIST: Effect("Grand Illusion", "Reveal one of your opponent's hidden cards in their front row, back "
                             "row, or in their hand. Then, shuffle this card along with up to two other hidden card(s) "
                             "and rearrange them in a hidden position, so that the placement of cards are the same as "
                             "before."),
}


@dataclass(frozen=True)
class ActiveEffect:
    """An effect being resolved: whose, from which card (its suit may matter; for a Wild's copy, the Wild), and
    aimed at whom."""

    role: Role
    player: int
    card: str
    target: int | None = None


def card_name(card: str) -> str:
    """A card in words: "Fire 7 (Archer)", "Void A (Samurai)", "Earth Wild (Illusionist)"."""
    return f"{cards.suit(card).title()} {cards.label(card)} ({role(card).title})"


def names(card_ids: tuple[str, ...] | list[str]) -> str:
    return ", ".join(card_name(c) for c in card_ids)
