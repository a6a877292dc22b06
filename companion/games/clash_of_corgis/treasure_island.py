"""Clash of Corgis — Treasure Island (``../shared/rulebooks/clash-of-corgis.txt``, "Treasure Island").

"Be the first player to win 10 points (known as loot)." Each turn: draw to 3, build a party of up to two
(activating the card played), fight 1-3 foes from the deck, and retire the party. Rulings are "Ruling TI-n"
(``docs/rulings.md``).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, ClassVar

from companion.games.actions import Action, Reshuffle
from companion.games.base import (
    Cards,
    GameSetup,
    IllegalMove,
    MalformedAction,
    Outcome,
    Scoreboard,
    ScoreRow,
)
from companion.games.clash_of_corgis import cards
from companion.games.clash_of_corgis.actions import (
    Build,
    Deal,
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
from companion.games.clash_of_corgis.dealing import chance_deal, deal_to
from companion.games.clash_of_corgis.effects import (
    BONUSES,
    TREASURE_ISLAND,
    ActiveEffect,
    Role,
    card_name,
    names,
    role,
)
from companion.games.clash_of_corgis.hands import may_hold, picked_card, take_hidden
from companion.games.clash_of_corgis.looks import oracle_take
from companion.games.clash_of_corgis.treasure_state import Battle, FightResult, Phase, TreasureState
from companion.games.clash_of_corgis.variant import Move, VariantRules, check_seat

HAND_SIZE = 3  # "deal 3 cards to each player's hand" / "Draw from the deck until you have 3 cards"
PARTY_SIZE = 2  # "You can have a maximum of 2 cards in your party."
TARGET_LOOT = 10  # "Be the first player to win 10 points (known as loot)."
MAX_FOES = 3  # "You may declare and take 1, 2, or 3 cards from the top of the deck"
LOOKS = (Role.FIGHTER, Role.MAGE, Role.ARCHER)  # "Select a card from their hand and look at it privately."


def ti_rank(card: str) -> int:
    """"The Ace and Wild are treated as a rank of 10." """
    return cards.number(card) or 10


def bonus_of(party: list[str]) -> str | None:
    """"when two cards in their party both share the same rank (known as a double bonus) or same suit" (an Ace
    and a Wild are not a double; two Aces or two Wilds are)."""
    if len(party) < PARTY_SIZE:
        return None
    a, b = party
    if cards.suit(a) == cards.suit(b):
        return cards.suit(a)
    same = cards.number(a) == cards.number(b) if cards.number(a) else cards.kind(a) == cards.kind(b)
    return "double" if same else None


def party_total(party: list[str], bonus: str | None) -> int:
    ranks = sorted(ti_rank(c) for c in party)
    if bonus == "water":
        ranks[0] = 10  # "Increase the rank of a card in your party to 10." (Ruling TI-6: the lower one)
    total = sum(ranks)
    if bonus == "void":
        total += 10  # "Increase the total rank of your party by 10."
    if bonus == "double":
        total *= 2  # "Multiply the sum of the rank of your party by 2."
    return total


def foes_total(foes: list[str], bonus: str | None) -> int:
    ranks = sorted(ti_rank(c) for c in foes)
    if bonus == "fire" and ranks:
        ranks[-1] = 0  # "Reduce the rank of a foe to 0." (Ruling TI-6: the highest)
    return sum(ranks)


def look_finds(effect: Role, card: str, effect_card: str) -> bool:
    """What the Fighter, Mage or Archer looks for in the card it selected."""
    if effect is Role.FIGHTER:
        return ti_rank(card) < 5  # "If that card is lower than 5"
    if effect is Role.MAGE:
        return cards.suit(card) == cards.suit(effect_card)  # "If that card is the same suit as this card"
    return ti_rank(card) > 7  # Archer: "If that card is higher than 7"


LOOK_WORDS = {Role.FIGHTER: "is lower than 5", Role.MAGE: "matches the Mage's suit", Role.ARCHER: "is higher than 7"}


class TreasureIslandRules(VariantRules[TreasureState]):
    title: ClassVar[str] = "Clash of Corgis (Treasure Island)"
    description: ClassVar[str] = "Treasure Island, 2-5 players: build a party, fight foes; first to 10 loot."
    # Ruling TI-9: two to five players.
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5

    # ----------------------------------------------------------------------------------------- setup
    def setup(self, setup: GameSetup) -> TreasureState:
        self.check_options(setup)
        n = len(setup.players)
        full = setup.full_information
        return TreasureState(setup=setup, hand_counts=[0] * n, parties=[[] for _ in range(n)],
                             loot=[[] for _ in range(n)], hands=[[] for _ in range(n)] if full else None,
                             deck=list(cards.all_cards()) if full else None)

    def chance(self, state: TreasureState, rng: random.Random) -> Action | None:
        seed = rng.getrandbits(32) if state.full_information else None
        if state.phase is Phase.DEAL:
            return chance_deal(state.setup.options, len(state.players), state.full_information, rng)
        if state.phase is Phase.RESHUFFLE:
            return Reshuffle(seed)
        if state.phase is Phase.PICK and state.full_information:
            return Pick(seed=seed)
        return None

    # ----------------------------------------------------------------------------------------- apply
    def moves(self) -> dict[type[Action], Move]:
        return {
            Deal: ((Phase.DEAL,), self._deal), Reshuffle: ((Phase.RESHUFFLE,), self._reshuffle),
            Pick: ((Phase.PICK,), self._pick), Reveal: ((Phase.REVEAL,), self._reveal),
            Build: ((Phase.BUILD,), self._build), Fight: ((Phase.FIGHT,), self._fight),
            PassTurn: ((Phase.FIGHT,), self._pass), Target: ((Phase.TARGET,), self._target),
            Parry: ((Phase.PARRY,), self._parry), Discard: ((Phase.CHOOSE, Phase.WIND), self._discard),
            OracleLook: ((Phase.ORACLE,), self._oracle), Retire: ((Phase.RETIRE,), self._retire),
        }

    def settle(self, s: TreasureState) -> None:
        # "If the deck runs out of cards (at any time during the game), the current turn's player must immediately
        # shuffle all of the cards in the discard pile and form a new deck."
        if s.phase not in (Phase.OVER, Phase.RESHUFFLE) and not s.deck_count and s.discard:
            s.resume, s.resume_phase, s.phase = None, s.phase, Phase.RESHUFFLE

    def _deal(self, s: TreasureState, action: Deal) -> None:
        # "Shuffle the deck and deal 3 cards to each player's hand. ... Randomly pick a player to go first."
        s.first = deal_to(s, action, HAND_SIZE)
        self._start_turn(s, s.first)

    def _reshuffle(self, s: TreasureState, action: Reshuffle) -> None:
        if (action.seed is None) == s.full_information:
            need = "a seed" if s.full_information else "no seed"
            raise MalformedAction("bad-seed", f"In this game a reshuffle needs {need}.")
        pile, s.discard = s.discard, []
        s.deck_count = len(pile)
        if s.full_information:
            s.deck = sorted(pile)
            random.Random(action.seed).shuffle(s.deck)
        assert s.resume_phase is not None
        s.phase, resume = s.resume_phase, s.resume
        s.resume = s.resume_phase = None
        if resume is not None:
            {"refill": self._refill, "bard": self._bard_draw, "foes": self._take_foes,
             "oracle": self._oracle_look}[resume](s)

    # --- the deck and hands --------------------------------------------------------------------------------
    def _deck_ready(self, s: TreasureState, resume: str) -> bool | None:
        """Whether a card can be taken from the deck: ``None`` while the discard pile is reshuffled into a new
        deck (then ``resume`` carries on), ``False`` when there is no card left anywhere (Ruling TI-8)."""
        if s.deck_count:
            return True
        if s.discard:
            s.resume, s.resume_phase, s.phase = resume, s.phase, Phase.RESHUFFLE
            return None
        return False

    def _take_top(self, s: TreasureState) -> str | None:
        s.deck_count -= 1
        return s.deck.pop(0) if s.deck is not None else None

    def _draw(self, s: TreasureState, seat: int) -> None:
        card = self._take_top(s)
        if s.hands is not None and card is not None:
            s.hands[seat].append(card)
        s.hand_counts[seat] += 1

    def _gain_loot(self, s: TreasureState, seat: int, loot: list[str]) -> bool:
        """Add ``loot``; ``True`` if that wins (Ruling TI-7: the game ends the moment a player has 10 loot)."""
        s.loot[seat].extend(loot)
        if len(s.loot[seat]) >= TARGET_LOOT:
            s.result = Outcome((seat,), f"First to {TARGET_LOOT} loot")
            s.phase, s.pending, s.battle = Phase.OVER, None, None
            return True
        return False

    # --- the turn ------------------------------------------------------------------------------------------
    def _start_turn(self, s: TreasureState, seat: int) -> None:
        s.turn, s.wild_copy, s.pending = seat, None, None
        s.turns += 1
        self._refill(s)

    def _refill(self, s: TreasureState) -> None:
        # Phase 1: "Draw from the deck until you have 3 cards in your hand."
        while s.hand_counts[s.turn] < HAND_SIZE:
            ready = self._deck_ready(s, "refill")
            if ready is None:
                return
            if not ready:
                break
            self._draw(s, s.turn)
        s.phase = Phase.BUILD

    def _build(self, s: TreasureState, action: Build) -> None:
        # Phase 2: "Play up to one card from your hand face-up to table area directly in front of you. ... If you
        # already have 2 cards in your party, you may replace a card in your party ... After playing a card,
        # activate its effect, if possible"
        seat, party = action.player, s.parties[action.player]
        if action.card is None:
            if action.replace is not None:
                raise MalformedAction("nothing-to-build", "Name the card that replaces the party card.")
            return self._to_fight(s)
        if action.replace is not None:
            if action.replace not in party:
                raise IllegalMove("not-in-party", f"{card_name(cards.check_card(action.replace))} is not in "
                                  f"{s.players[seat]}'s party.")
            if len(party) < PARTY_SIZE:
                raise IllegalMove("party-not-full", "Replace a party card only when the party is full: there is room "
                                  "for this card beside it.")
        elif len(party) >= PARTY_SIZE:
            raise IllegalMove("party-full", "You can have a maximum of 2 cards in your party: name the party card "
                              "this one replaces.")
        take_hidden(s, seat, action.card)
        if action.replace is not None:
            party.remove(action.replace)
            s.discard.append(action.replace)
        party.append(action.card)
        self._activate(s, seat, action.card)

    def _activate(self, s: TreasureState, seat: int, card: str) -> None:
        effect = role(card)
        if effect is Role.ILLUSIONIST:
            # "Copy a card effect in your party for this turn only." (Ruling TI-5)
            others = [c for c in s.parties[seat] if c != card]
            effect = role(others[0]) if others else Role.ILLUSIONIST
            if effect in (Role.ILLUSIONIST, Role.SAMURAI):
                return self._to_fight(s)
            s.wild_copy = effect
        s.pending = ActiveEffect(effect, seat, card)
        if effect is Role.ORACLE:
            return self._oracle_look(s)
        if effect is Role.BARD:
            return self._bard_draw(s)
        if effect in (Role.HEALER, Role.SAMURAI) or not self._targets(s, seat, effect):
            return self._to_fight(s)  # the Healer acts when the party retires; the Samurai only parries
        s.phase = Phase.TARGET

    def _oracle_look(self, s: TreasureState) -> None:
        ready = self._deck_ready(s, "oracle")
        if ready is None:
            return
        if ready:
            s.phase = Phase.ORACLE
        else:
            self._to_fight(s)  # no card left anywhere to look at

    def _bard_draw(self, s: TreasureState) -> None:
        # "Draw a card. Then, you may retake your 'Build your Party' phase."
        ready = self._deck_ready(s, "bard")
        if ready is None:
            return
        if ready:
            self._draw(s, s.turn)
        s.pending, s.phase = None, Phase.BUILD

    def _targets(self, s: TreasureState, seat: int, effect: Role) -> list[int]:
        """Ruling TI-2: "any player" is any other player for whom the effect is possible."""
        others = [p for p in range(len(s.players)) if p != seat]
        if effect in (Role.MONK, Role.ASSASSIN):
            return [p for p in others if s.parties[p]]  # a fight needs a party; the Assassin discards from it
        return [p for p in others if s.hand_counts[p]]  # the others select a card from the hand

    def _target(self, s: TreasureState, action: Target) -> None:
        assert s.pending is not None
        check_seat(s.players, action.target, "target")
        if action.target not in self._targets(s, action.player, s.pending.role):
            need = "a party" if s.pending.role in (Role.MONK, Role.ASSASSIN) else "a card in hand"
            raise IllegalMove("bad-target", f"The {s.pending.role.title} targets another player with {need}.")
        s.pending = replace(s.pending, target=action.target)
        if may_hold(s, action.target, cards.is_ace):
            s.phase = Phase.PARRY
        else:
            self._resolve(s)

    def _parry(self, s: TreasureState, action: Parry) -> None:
        if action.card is None:
            if action.replace is not None:
                raise MalformedAction("no-parry", "Name the Samurai that parries.")
            return self._resolve(s)
        card = cards.check_card(action.card)
        if not cards.is_ace(card):
            raise IllegalMove("not-a-samurai", f"Only a Samurai (an Ace) can parry, not {card_name(card)}.")
        seat, party = action.player, s.parties[action.player]
        if action.replace is not None and action.replace not in party:
            raise IllegalMove("not-in-party", f"{action.replace!r} is not in {s.players[seat]}'s party.")
        if action.replace is not None and len(party) < PARTY_SIZE:
            raise IllegalMove("party-not-full", "There is room in the party: the Samurai joins it.")
        take_hidden(s, seat, card)
        # "you must play this card to your party. If you have a full party, you may replace a card in your party
        # or discard this card instead."
        if action.replace is not None:
            party.remove(action.replace)
            s.discard.append(action.replace)
        if len(party) < PARTY_SIZE:
            party.append(card)
        else:
            s.discard.append(card)
        self._to_fight(s)  # the effect is cancelled

    def _resolve(self, s: TreasureState) -> None:
        p = s.pending
        assert p is not None and p.target is not None
        if p.role is Role.MONK:
            # "They must fight 3 foes right now, if possible." (Ruling TI-2: a whole fight, retiring included.)
            s.battle = Battle(p.target, MAX_FOES, forced=True)
            return self._take_foes(s)
        if p.role in LOOKS:
            s.phase = Phase.PICK
        elif p.role is Role.BERSERKER:
            # "That player must reveal their hand to all players and discard their highest ranked card."
            if s.hands is None:
                s.phase = Phase.REVEAL
            else:
                self._intimidate(s, list(s.hands[p.target]))
        elif len(s.parties[p.target]) == 1:
            self._discard_party_card(s, p.target, s.parties[p.target][0])  # Assassin: the only card
        else:
            s.phase = Phase.CHOOSE  # Assassin: "Discard any card in their party"

    def _intimidate(self, s: TreasureState, hand: list[str]) -> None:
        assert s.pending is not None and s.pending.target is not None
        highest = max(ti_rank(c) for c in hand)
        tied = [c for c in hand if ti_rank(c) == highest]
        if len(tied) == 1:
            take_hidden(s, s.pending.target, tied[0])
            s.discard.append(tied[0])
            return self._to_fight(s)
        s.revealed = hand  # "If there is a tie, you can choose which card is discarded instead."
        s.phase = Phase.CHOOSE

    def _discard_party_card(self, s: TreasureState, seat: int, card: str) -> None:
        s.parties[seat].remove(card)
        s.discard.append(card)
        self._to_fight(s)

    def _discard(self, s: TreasureState, action: Discard) -> None:
        if s.phase is Phase.WIND:
            return self._wind(s, action)
        p = s.pending
        assert p is not None and p.target is not None
        if action.card is None:
            raise MalformedAction("choose-a-card", "Choose the card to discard.")
        card = cards.check_card(action.card)
        if p.role is Role.ASSASSIN:
            if card not in s.parties[p.target]:
                raise IllegalMove("not-in-party", f"{card_name(card)} is not in {s.players[p.target]}'s party.")
            return self._discard_party_card(s, p.target, card)
        highest = max(ti_rank(c) for c in s.revealed)
        if card not in s.revealed or ti_rank(card) != highest:
            raise IllegalMove("not-highest", f"The Berserker discards one of the highest cards revealed: "
                              f"{names([c for c in s.revealed if ti_rank(c) == highest])}.")
        take_hidden(s, p.target, card)
        s.discard.append(card)
        s.revealed = []
        self._to_fight(s)

    def _pick(self, s: TreasureState, action: Pick) -> None:
        # "Select a card from their hand and look at it privately. If that card is ..., steal one loot from their
        # loot pile, if possible. Otherwise, the selected card gets discarded." (Ruling TI-3)
        p = s.pending
        assert p is not None and p.target is not None
        s.looks += 1
        card = picked_card(s.hands, p.target, action, s.players[p.target])
        if card is None or look_finds(p.role, card, p.card):
            if card is not None and s.hands is None:
                raise IllegalMove("look-kept", f"{card_name(card)} {LOOK_WORDS[p.role]}: the {p.role.title} steals "
                                  "a loot instead and the card stays hidden.")
            if s.loot[p.target] and self._gain_loot(s, p.player, [s.loot[p.target].pop()]):
                return
            return self._to_fight(s)
        take_hidden(s, p.target, card)
        s.discard.append(card)
        self._to_fight(s)

    def _reveal(self, s: TreasureState, action: Reveal) -> None:
        shown = [cards.check_card(c) for c in action.cards]
        seen = s.public_cards()
        if len(set(shown)) != len(shown) or any(c in seen for c in shown):
            raise IllegalMove("card-seen", "Each card shown must be a different card not already face up.")
        if s.battle is not None:
            if len(shown) != s.foes_hidden:
                raise MalformedAction("foe-count", f"Show the {s.foes_hidden} foe(s) just taken.")
            s.foes.extend(shown)
            s.foes_hidden = 0
            return self._flip(s)
        p = s.pending
        assert p is not None and p.target is not None
        if len(shown) != s.hand_counts[p.target]:
            raise MalformedAction("hand-count", f"{s.players[p.target]} reveals all {s.hand_counts[p.target]} cards.")
        self._intimidate(s, shown)

    def _oracle(self, s: TreasureState, action: OracleLook) -> None:
        # "Privately look at the top card of the deck. If it is the same suit as this card, take it as loot.
        # Otherwise, place it back on the top of the deck."
        assert s.pending is not None
        s.looks += 1
        card = oracle_take(s.deck, action.card, {cards.suit(s.pending.card)}, s.public_cards(), "taken as loot")
        if card is not None:
            s.deck_count -= 1
            if self._gain_loot(s, action.player, [card]):
                return
        self._to_fight(s)

    # --- fights ---------------------------------------------------------------------------------------------
    def _to_fight(self, s: TreasureState) -> None:
        """On to Phase 3: "To fight, you must have at least 1 card in your party." """
        s.pending, s.revealed = None, []
        if s.battle is not None:
            return  # a fight is already under way (the Monk's)
        if s.parties[s.turn]:
            s.phase = Phase.FIGHT
        else:
            self._end_turn(s)

    def _pass(self, s: TreasureState, action: PassTurn) -> None:
        self._end_turn(s)  # Ruling TI-1: fighting is optional, and the party stays if there was no fight

    def _fight(self, s: TreasureState, action: Fight) -> None:
        if not 1 <= action.foes <= MAX_FOES:
            raise IllegalMove("foe-count", "You may declare and take 1, 2, or 3 foes.")
        if action.foes > s.deck_count + len(s.discard):
            raise IllegalMove("not-enough-cards", f"There are only {s.deck_count + len(s.discard)} cards to fight.")
        s.battle = Battle(action.player, action.foes)
        self._take_foes(s)

    def _take_foes(self, s: TreasureState) -> None:
        # "declare and take 1, 2, or 3 cards from the top of the deck ... and lay the cards face-down in the middle"
        b = s.battle
        assert b is not None
        while s.foes_taken() < b.wanted:
            ready = self._deck_ready(s, "foes")
            if ready is None:
                return
            if not ready:
                break  # Ruling TI-8: no card left anywhere; fight those taken
            card = self._take_top(s)
            s.foes_hidden += 1  # "lay the cards face-down in the middle of the table"
            if card is not None:
                s.foes.append(card)
        if not s.deck_count and s.discard:
            # The deck ran out with the foes still face down: "the current turn's player must immediately shuffle"
            # before they are flipped (and before the fight's cards reach the discard pile).
            s.resume, s.resume_phase, s.phase = "foes", s.phase, Phase.RESHUFFLE
            return
        if s.foes_hidden and s.hands is None:
            s.phase = Phase.REVEAL  # "Flip the foes face-up for all players to see." (the table shows them)
        elif not s.foes or not s.parties[b.seat]:
            self._after_battle(s)  # nothing to fight, or nobody to fight with: "if possible"
        else:
            self._flip(s)

    def _flip(self, s: TreasureState) -> None:
        b = s.battle
        assert b is not None
        s.foes_hidden = 0  # "Flip the foes face-up for all players to see."
        if bonus_of(s.parties[b.seat]) == "wind" and not b.wind_done and (s.deck_count or s.discard):
            s.phase = Phase.WIND  # "You may choose 1 foe to discard and replace with a new foe"
        else:
            self._decide(s)

    def _wind(self, s: TreasureState, action: Discard) -> None:
        b = s.battle
        assert b is not None
        if action.card is None:
            return self._decide(s)
        if action.card not in s.foes:
            raise IllegalMove("not-a-foe", f"{action.card!r} is not one of the foes.")
        s.foes.remove(action.card)
        s.discard.append(action.card)
        s.battle = replace(b, wanted=len(s.foes) + 1, wind_done=True)
        self._take_foes(s)

    def _decide(self, s: TreasureState) -> None:
        # Phase 3b: "compare the total sum of the rank of your party to the total sum of the rank of the foes"
        b = s.battle
        assert b is not None
        party = s.parties[b.seat]
        bonus = bonus_of(party)
        ours, theirs = party_total(party, bonus), foes_total(s.foes, bonus)
        won = ours > theirs  # "Lose: ... equal to or lower than"
        s.last_fight = FightResult(b.seat, tuple(party), tuple(s.foes), ours, theirs, won, bonus)
        foes, s.foes = s.foes, []
        if won:
            if self._gain_loot(s, b.seat, foes):  # "take the foes and place them as loot"
                return
        else:
            s.discard.extend(foes)  # "discard the foes (as they have escaped with the loot)"
        # Phase 3c: "Discard all cards in your party to the discard pile." — unless a Healer or the Earth bonus
        # lets the fighter keep some.
        if self.keep_options(s):
            s.phase = Phase.RETIRE
        else:
            self._retire_party(s, ())

    def keep_options(self, s: TreasureState) -> list[tuple[str, ...]]:
        """What the fighter may keep as the party retires (the table asks it): none when it must all go."""
        b, fight = s.battle, s.last_fight
        assert b is not None and fight is not None
        party = s.parties[b.seat]
        options: list[tuple[str, ...]] = []
        # Earth: "If you lose a fight, you may keep your party on the table"
        if fight.bonus == "earth" and not fight.won:
            options.append(tuple(party))
        # Healer: "you may keep one card on the table (except for another Healer)" (Ruling TI-4: itself is fine;
        # Ruling TI-5: a Wild copying the Healer this turn is one too).
        healers = [c for c in party if role(c) is Role.HEALER or (
            cards.is_wild(c) and s.wild_copy is Role.HEALER and b.seat == s.turn and not b.forced)]
        if healers:
            options += [(c,) for c in party]
        return options

    def _retire(self, s: TreasureState, action: Retire) -> None:
        keep = tuple(action.keep)
        if keep and sorted(keep) not in [sorted(option) for option in self.keep_options(s)]:
            raise IllegalMove("cannot-keep", "Retire your party: keep one card with a Healer, or the whole party "
                              "with the Earth bonus after a lost fight; the rest is discarded.")
        self._retire_party(s, keep)

    def _retire_party(self, s: TreasureState, keep: tuple[str, ...]) -> None:
        b = s.battle
        assert b is not None
        party = s.parties[b.seat]
        s.discard.extend(c for c in party if c not in keep)
        s.parties[b.seat] = [c for c in party if c in keep]
        self._after_battle(s)

    def _after_battle(self, s: TreasureState) -> None:
        b = s.battle
        assert b is not None
        s.battle = None
        if b.forced:
            self._to_fight(s)  # back to the Monk's player, on to their own Phase 3
        else:
            self._end_turn(s)

    def _end_turn(self, s: TreasureState) -> None:
        s.pending = None
        self._start_turn(s, (s.turn + 1) % len(s.players))

    # ----------------------------------------------------------------------------------------- queries
    def legal_actions(self, state: TreasureState) -> list[Action]:
        s = state
        if s.hands is None or s.deck is None:
            raise ValueError("Legal moves are only known when the hands are (full-information play).")
        p, b = s.pending, s.battle
        if s.phase is Phase.BUILD:
            party = s.parties[s.turn]
            moves: list[Action] = [Build(s.turn, None)]
            for card in s.hands[s.turn]:
                if len(party) < PARTY_SIZE:
                    moves.append(Build(s.turn, card))
                else:
                    moves += [Build(s.turn, card, old) for old in party]
            return moves
        if s.phase is Phase.FIGHT:
            return [PassTurn(s.turn)] + [Fight(s.turn, k) for k in range(1, MAX_FOES + 1)
                                         if k <= s.deck_count + len(s.discard)]
        if s.phase is Phase.TARGET and p is not None:
            return [Target(p.player, t) for t in self._targets(s, p.player, p.role)]
        if s.phase is Phase.PARRY and p is not None and p.target is not None:
            party = s.parties[p.target]
            moves = [Parry(p.target, None)]
            for ace in (c for c in s.hands[p.target] if cards.is_ace(c)):
                moves.append(Parry(p.target, ace))
                if len(party) == PARTY_SIZE:
                    moves += [Parry(p.target, ace, old) for old in party]
            return moves
        if s.phase is Phase.CHOOSE and p is not None and p.target is not None:
            if p.role is Role.ASSASSIN:
                return [Discard(p.player, c) for c in s.parties[p.target]]
            top = max(ti_rank(c) for c in s.revealed)
            return [Discard(p.player, c) for c in s.revealed if ti_rank(c) == top]
        if s.phase is Phase.ORACLE and p is not None:
            top = s.deck[0]
            return [OracleLook(p.player, top if cards.suit(top) == cards.suit(p.card) else None)]
        if s.phase is Phase.WIND and b is not None:
            return [Discard(b.seat, None)] + [Discard(b.seat, f) for f in s.foes]
        if s.phase is Phase.RETIRE and b is not None:
            return [Retire(b.seat, ())] + [Retire(b.seat, keep) for keep in self.keep_options(s)]
        return []

    def to_move(self, state: TreasureState) -> tuple[int, ...]:
        s, p, b = state, state.pending, state.battle
        if s.phase in (Phase.BUILD, Phase.FIGHT):
            return (s.turn,)
        if s.phase in (Phase.WIND, Phase.RETIRE) and b is not None:
            return (b.seat,)
        if p is not None and s.phase in (Phase.TARGET, Phase.CHOOSE, Phase.ORACLE):
            return (p.player,)
        if p is not None and p.target is not None and s.phase is Phase.PARRY:
            return (p.target,)
        if s.phase is Phase.PICK and p is not None and not s.full_information:
            return (p.player,)  # the player who looked says what happened
        if s.phase is Phase.REVEAL:
            return (b.seat,) if b is not None else (p.target,) if p is not None and p.target is not None else ()
        return ()

    def outcome(self, state: TreasureState) -> Outcome | None:
        return state.result

    # ----------------------------------------------------------------------------------------- words
    def prompt(self, s: TreasureState) -> str:
        n, p, b = s.players, s.pending, s.battle
        if s.phase is Phase.DEAL:
            return f"Shuffle and deal {HAND_SIZE} cards to each player; pick who goes first."
        if s.phase is Phase.OVER:
            return "The game is over."
        if s.phase is Phase.RESHUFFLE:
            return f"The deck ran out: {n[s.turn]} shuffles the discard pile into a new deck."
        if s.phase is Phase.BUILD:
            return f"{n[s.turn]}: play up to one card to your party (2 at most; a third replaces one)."
        if s.phase is Phase.FIGHT:
            return f"{n[s.turn]}: fight 1, 2 or 3 foes, or end the turn."
        if s.phase is Phase.WIND and b is not None:
            return f"{n[b.seat]}'s Wind bonus: replace one foe with a new one from the deck, or keep them."
        if s.phase is Phase.RETIRE and b is not None:
            return f"{n[b.seat]} retires the party: keep what the Healer or the Earth bonus allows."
        if s.phase is Phase.REVEAL:
            if b is not None:
                return f"Flip the {s.foes_hidden} foe(s) face up."
            assert p is not None and p.target is not None
            return f"{n[p.target]} reveals their hand (Berserker)."
        assert p is not None
        effect = f"{n[p.player]}'s {p.role.title} ({TREASURE_ISLAND[p.role].name})"
        target = n[p.target] if p.target is not None else ""
        return {
            Phase.TARGET: f"{effect}: choose a player to target.",
            Phase.PARRY: f"{effect} targets {target}: parry with a Samurai (Ace), or let it be.",
            Phase.PICK: f"{effect}: select a card from {target}'s hand and look at it privately.",
            Phase.CHOOSE: f"{effect}: choose which of {target}'s cards is discarded.",
            Phase.ORACLE: f"{effect}: look at the top card of the deck; take it as loot if its suit matches.",
        }[s.phase]

    def scoreboard(self, state: TreasureState) -> Scoreboard:
        s = state
        waiting = set(self.to_move(s))
        rows = []
        for seat, name in enumerate(s.players):
            bonus = bonus_of(s.parties[seat])
            bonus_name = BONUSES[bonus].name if bonus else ""
            cells = (len(s.loot[seat]), s.hand_counts[seat], Cards(names(s.parties[seat]), s.parties[seat]), bonus_name)
            rows.append(ScoreRow(seat, name, cells, active=seat in waiting))
        if s.phase is Phase.OVER:
            phase = f"Game over after {s.turns} turns"
        elif s.phase is Phase.DEAL:
            phase = "Before the deal"
        else:
            foes = f" · foes: {names(s.foes_face_up())}" if s.foes_face_up() else ""
            phase = f"Turn {s.turns}: {s.players[s.turn]} · deck {s.deck_count} · discard {len(s.discard)}{foes}"
        return Scoreboard(phase, self.prompt(s), ("Loot", "Hand", "Party", "Bonus"), tuple(rows))

    def view(self, state: TreasureState) -> dict[str, Any]:
        s, p, f = state, state.pending, state.last_fight
        view: dict[str, Any] = {
            "phase": s.phase.value,
            "turn": s.turn,
            "first": s.first,
            "to_move": list(self.to_move(s)),
            "hand_counts": list(s.hand_counts),
            "parties": [list(x) for x in s.parties],
            "loot": [list(x) for x in s.loot],
            "deck": s.deck_count,
            "discard": list(s.discard),
            "foes": s.foes_face_up(),
            "foes_face_down": s.foes_hidden,
            "fight": None if s.battle is None else {
                "player": s.battle.seat, "foes": s.battle.wanted, "forced": s.battle.forced},
            "pending": None if p is None else {"effect": p.role.title, "text": TREASURE_ISLAND[p.role].text,
                                               "player": p.player, "card": p.card, "target": p.target},
            "last_fight": None if f is None else {
                "player": f.seat, "party": list(f.party), "foes": list(f.foes), "party_total": f.party_total,
                "foes_total": f.foes_total, "won": f.won, "bonus": f.bonus},
            "private_looks": s.looks,
        }
        if s.hands is not None:
            view["hands"] = [sorted(h) for h in s.hands]
            view["deck_order"] = list(s.deck or [])
            view["foes_order"] = list(s.foes)
        return view

    def describe(self, state: TreasureState, action: Action) -> str:
        n, p = state.players, state.pending
        match action:
            case Deal():
                return f"{HAND_SIZE} cards dealt to each player."
            case Reshuffle():
                return f"{n[state.turn]} shuffled the discard pile into a new deck."
            case Build(player=seat, card=None):
                return f"{n[seat]} built nothing."
            case Build(player=seat, card=c, replace=None):
                return f"{n[seat]} added {card_name(c)} to the party."
            case Build(player=seat, card=c, replace=old):
                return f"{n[seat]} replaced {card_name(old)} with {card_name(c)}."
            case Fight(player=seat, foes=k):
                return f"{n[seat]} fights {k} foe(s)."
            case PassTurn(player=seat):
                return f"{n[seat]} does not fight."
            case Target(player=seat, target=t):
                return f"{n[seat]} targets {n[t]}."
            case Parry(player=seat, card=None):
                return f"{n[seat]} does not parry."
            case Parry(player=seat, card=c):
                return f"{n[seat]} parries with {card_name(c)}."
            case Pick(card=c):
                role_ = p.role.title if p else "effect"
                return f"The {role_} looked at a card" + (f": {card_name(c)}." if c else ".")
            case Reveal(cards=shown):
                return f"Shown: {names(shown)}."
            case Discard(card=None):
                return "The foes stay as they are."
            case Discard(player=seat, card=c):
                return f"{n[seat]} discards {card_name(c)}."
            case OracleLook(player=seat, card=None):
                return f"{n[seat]}'s Oracle looked at the top card and put it back."
            case OracleLook(player=seat, card=c):
                return f"{n[seat]}'s Oracle took {card_name(c)} as loot."
            case Retire(player=seat, keep=keep):
                return f"{n[seat]} retired the party" + (f", keeping {names(keep)}." if keep else ".")
        return action.type
