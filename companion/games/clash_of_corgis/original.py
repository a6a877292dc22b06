"""Clash of Corgis — Original (``../shared/rulebooks/clash-of-corgis.txt``, "Original").

"Be the first player to get rid of all cards in their hand." Rounds of combos that must match the leading
combo's type and beat its rank; each combo activates one card effect. Each rule quotes the rulebook; what the
book leaves open is a ruling in ``docs/rulings.md``, cited as "Ruling CO-n".
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from functools import cache
from typing import Any, ClassVar

from companion.games.actions import Action
from companion.games.base import (
    Cards,
    GameSetup,
    IllegalMove,
    MalformedAction,
    Marked,
    Outcome,
    Scoreboard,
    ScoreRow,
)
from companion.games.clash_of_corgis import cards
from companion.games.clash_of_corgis.actions import (
    Deal,
    Declare,
    Discard,
    Expose,
    Heal,
    OracleLook,
    Parry,
    PassTurn,
    Pick,
    Play,
    Target,
)
from companion.games.clash_of_corgis.dealing import chance_deal, deal_to
from companion.games.clash_of_corgis.effects import ORIGINAL, Role, card_name, names, role
from companion.games.clash_of_corgis.hands import may_hold, picked_card, take_hidden
from companion.games.clash_of_corgis.looks import oracle_take
from companion.games.clash_of_corgis.original_state import Lead, OriginalState, Pending, Phase
from companion.games.clash_of_corgis.variant import Move, VariantRules, check_seat

HAND_SIZE = 12  # "deal 12 cards to each player's hand"
COMBOS = {1: "single", 2: "double", 3: "triple", 4: "4-of-a-kind", 5: "5-of-a-kind"}
ACE_RANK = 10  # "Cards rank from low-to-high: 1 2 3 4 5 6 7 8 9 A"
SUIT_EFFECTS = (Role.BARD, Role.MAGE)  # the effects that use "this card's suit"


@cache
def rank_value(card: str) -> int | None:
    """A card's rank in Original: 1-9, the Ace 10; ``None`` for the Wild, which copies one."""
    if cards.is_wild(card):
        return None
    return cards.number(card) or ACE_RANK


def rank_label(rank: int) -> str:
    return "A" if rank == ACE_RANK else str(rank)


class OriginalRules(VariantRules[OriginalState]):
    title: ClassVar[str] = "Clash of Corgis (Original)"
    description: ClassVar[str] = "Original, 2-4 players: beat the leading combo, one card effect each; first out wins."
    # Ruling CO-1: 12 cards each from 55 leaves a deck for the Oracle and the Healer with 2 to 4 players.
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4

    # ----------------------------------------------------------------------------------------- setup
    def setup(self, setup: GameSetup) -> OriginalState:
        self.check_options(setup)
        n = len(setup.players)
        return OriginalState(setup=setup, hand_counts=[0] * n, exposed=[[] for _ in range(n)],
                             rounds_won=[0] * n, hands=[[] for _ in range(n)] if setup.full_information else None,
                             deck=list(cards.all_cards()) if setup.full_information else None)

    def chance(self, state: OriginalState, rng: random.Random) -> Action | None:
        if state.phase is Phase.DEAL:
            return chance_deal(state.setup.options, len(state.players), state.full_information, rng)
        if state.phase is Phase.PICK and state.full_information:
            return Pick(seed=rng.getrandbits(32))
        return None  # at a real table the Archer's pick is whatever card the table shows

    # ----------------------------------------------------------------------------------------- apply
    def moves(self) -> dict[type[Action], Move]:
        return {
            Deal: ((Phase.DEAL,), self._deal), Pick: ((Phase.PICK,), self._pick), Play: ((Phase.PLAY,), self._play),
            PassTurn: ((Phase.PLAY,), self._pass), Declare: ((Phase.DECLARE,), self._declare),
            Target: ((Phase.TARGET,), self._target), Parry: ((Phase.PARRY,), self._parry),
            Expose: ((Phase.EXPOSE,), self._expose), OracleLook: ((Phase.ORACLE,), self._oracle),
            Heal: ((Phase.HEAL,), self._heal), Discard: ((Phase.DISCARD,), self._discard),
        }

    def _deal(self, s: OriginalState, action: Deal) -> None:
        # "Shuffle the deck and deal 12 cards to each player's hand. Place aside the remaining cards in the deck
        # face-down at the corner of the table. Randomly pick a player to go first."
        s.first = s.turn = deal_to(s, action, HAND_SIZE)
        s.round = 1
        s.phase = Phase.PLAY

    # --- the cards in a hand -------------------------------------------------------------------------
    def _from_hand(self, s: OriginalState, seat: int, card: str) -> None:
        """Take ``card`` from ``seat``'s hand, exposed or hidden ("The exposed hand is part of a player's hand")."""
        if card in s.exposed[seat]:
            s.exposed[seat].remove(card)
        else:
            take_hidden(s, seat, card)

    def _may_hold(self, s: OriginalState, seat: int, wanted: Callable[[str], bool]) -> bool:
        """Whether ``seat``'s hand, exposed or hidden, holds (or could hold) a card satisfying ``wanted``."""
        return any(wanted(c) for c in s.exposed[seat]) or may_hold(s, seat, wanted)

    # --- combos ----------------------------------------------------------------------------------------
    def combo_problem(self, s: OriginalState, seat: int, played: tuple[str, ...]) -> IllegalMove | None:
        """Why ``played`` cannot be played now (the combo rules, not whether the cards are in the hand)."""
        if not played:
            return IllegalMove("empty-combo", "A combo needs at least one card.")
        if len(set(played)) != len(played):
            return IllegalMove("same-card-twice", "Each card can only be played once.")
        if len(played) > 5:
            return IllegalMove("too-many", "The biggest combo is a 5-of-a-kind.")
        wilds = [c for c in played if cards.is_wild(c)]
        if wilds and len(wilds) != len(played):
            return IllegalMove("wild-mixed", "The Wild can not be used in combination with other non-Wild cards.")
        if not wilds and len({rank_value(c) for c in played}) > 1:
            return IllegalMove("mixed-ranks", f"A combo's cards are all of the same rank, not {names(played)}.")
        if len(played) > 1 and any(c in s.exposed[seat] for c in played):
            return IllegalMove("exposed-single", "Exposed cards can only be played as a Single combination.")
        for card in played:
            if card in s.locked:
                return IllegalMove("pierced", f"{card_name(card)} was exposed by a Fighter: it can not be played "
                                   "this round.")
        beaten = self._beat_problem(s, played)
        if beaten is None and s.bard_suit is not None and all(cards.suit(c) != s.bard_suit for c in played):
            return IllegalMove("bard-suit", f"After your Bard, at least 1 card from your next play must be "
                               f"{s.bard_suit.title()} (or pass).")
        return beaten

    def _beat_problem(self, s: OriginalState, played: tuple[str, ...]) -> IllegalMove | None:
        lead = s.lead
        if lead is None:
            return None  # "play any combo (known as the leading combo)"
        kind = COMBOS[len(lead.cards)]
        # "Matches the same type of combo as the leading combo" (Ruling CO-9: a Wild too).
        if len(played) != len(lead.cards):
            return IllegalMove("wrong-combo", f"The leading combo is a {kind}: beat it with a {kind}, or pass.")
        rank = rank_value(played[0])
        if rank is None:
            return None  # the Wild: "This card can beat any rank."
        if s.low and rank >= lead.rank:
            # Monk: "If you said low, the next play must be lower ranked to beat this play."
            return IllegalMove("not-lower", f"The Monk said low: a {kind} can only be beaten by a lower {kind} "
                               f"(below {rank_label(lead.rank)}).")
        if not s.low and rank <= lead.rank:
            # "Has a higher card rank than the leading combo's card rank"
            return IllegalMove("not-higher", f"A {kind} can only be beaten by a higher {kind} "
                               f"(above {rank_label(lead.rank)}).")
        return None

    def combo_value(self, s: OriginalState, played: tuple[str, ...]) -> tuple[int, Role | None]:
        """The new leading combo's rank and the effect it activates."""
        rank = rank_value(played[0])
        if rank is None:
            # "Once played, this card copies the rank and the effect of the previous leading combo. If played first
            # in a round, the rank becomes 0 and has no effect."
            return (s.lead.rank, s.lead.role) if s.lead else (0, None)
        effect = role(played[0])
        # The Samurai's Parry is activated "while in your hand", never by playing it.
        return rank, None if effect is Role.SAMURAI else effect

    def _play(self, s: OriginalState, action: Play) -> None:
        seat, played = action.player, action.cards
        for card in played:
            cards.check_card(card)
        problem = self.combo_problem(s, seat, played)
        if problem:
            raise problem
        effect_card = action.effect if action.effect is not None else played[0]
        if effect_card not in played:
            raise MalformedAction("effect-not-played", "The effect activated is one of the cards played.")
        for card in played:
            self._from_hand(s, seat, card)
        rank, effect = self.combo_value(s, played)
        s.pile.extend(played)
        s.lead = Lead(seat, played, rank, effect, effect_card)
        s.low, s.bard_suit, s.passed = False, None, []
        # Ruling CO-11: the last card wins at once; its effect is not activated.
        if s.hand_size(seat) == 0:
            return self._win(s, seat)
        self._activate(s)

    def _win(self, s: OriginalState, seat: int) -> None:
        # "Play continues, round after round, until a player gets rid of all cards in their hand. That player
        # is the winner."
        s.result = Outcome((seat,), "First to get rid of every card in their hand")
        s.pending = None
        s.phase = Phase.OVER

    # --- effects -----------------------------------------------------------------------------------------
    def _activate(self, s: OriginalState) -> None:
        """"Once a player has played a combo, that player activates one card effect of the card(s) played, if
        possible" (Ruling CO-4: the player names the card; its suit is the one that counts)."""
        assert s.lead is not None
        seat, effect, card = s.lead.owner, s.lead.role, s.lead.effect_card
        nxt = (seat + 1) % len(s.players)
        pending = Pending(effect, seat, card, target=nxt) if effect else None
        if effect is Role.ORACLE and s.deck_count:
            s.pending, s.phase = pending, Phase.ORACLE
        elif effect is Role.BARD:
            # "Play your turn again, but if you do, at least 1 card from your next play must match this card's
            # suit." (Ruling CO-3: declining is a pass that does not count towards ending the round.)
            s.bard_suit, s.turn, s.phase = cards.suit(card), seat, Phase.PLAY
        elif effect is Role.HEALER and s.deck_count:
            # "Draw 1 card. Then, return 1 card from your hand to the bottom of the deck." (Ruling CO-10)
            if s.hands is not None and s.deck is not None:
                s.hands[seat].append(s.deck.pop(0))
            s.hand_counts[seat] += 1
            s.deck_count -= 1
            s.pending, s.phase = pending, Phase.HEAL
        elif effect is Role.MONK:
            s.pending, s.phase = pending, Phase.DECLARE  # "Target the next player. Declare high or low."
        elif effect in (Role.FIGHTER, Role.ASSASSIN):
            assert pending is not None
            self._aim(s, pending)  # "Target the next player."
        elif effect is Role.MAGE and self._may_hold(s, seat, lambda c: cards.suit(c) == cards.suit(card)):
            s.pending, s.phase = pending, Phase.DISCARD  # "Discard 1 card from your hand that matches this suit."
        elif effect is Role.ARCHER and self._archer_targets(s, seat):
            s.pending, s.phase = pending, Phase.TARGET  # "Target any player."
        else:
            # Berserker: it works while its combo leads (see ``_pass``); the rest: not possible now.
            self._next_turn(s)

    def _archer_targets(self, s: OriginalState, seat: int) -> list[int]:
        """Ruling CO-12: "any player" is any other player with a hidden card to pick."""
        return [p for p in range(len(s.players)) if p != seat and s.hand_counts[p]]

    def _aim(self, s: OriginalState, pending: Pending) -> None:
        """An effect that targets a player: the target may parry it with a Samurai (Ruling CO-8), if they can."""
        s.pending = pending
        assert pending.target is not None
        if self._may_hold(s, pending.target, cards.is_ace):
            s.phase = Phase.PARRY
        else:
            self._resolve(s)

    def _resolve(self, s: OriginalState) -> None:
        p = s.pending
        assert p is not None and p.target is not None
        if p.role is Role.MONK:
            s.low = p.low
            self._next_turn(s)
        elif p.role is Role.FIGHTER and s.hand_counts[p.target]:
            s.phase = Phase.EXPOSE  # "Force them to expose a card from their hand." (Ruling CO-5: their choice)
        elif p.role is Role.ARCHER:
            s.phase = Phase.PICK  # "Randomly select a card from that player's hand and expose it."
        else:
            if p.role is Role.ASSASSIN:
                s.skip = p.target  # "Skip their turn."
            self._next_turn(s)

    def _declare(self, s: OriginalState, action: Declare) -> None:
        assert s.pending is not None
        self._aim(s, Pending(s.pending.role, s.pending.player, s.pending.card, s.pending.target, action.low))

    def _target(self, s: OriginalState, action: Target) -> None:
        check_seat(s.players, action.target, "target")
        if action.target not in self._archer_targets(s, action.player):
            raise IllegalMove("bad-target", "The Archer targets another player with a card in their hidden hand.")
        assert s.pending is not None
        self._aim(s, Pending(s.pending.role, s.pending.player, s.pending.card, action.target))

    def _parry(self, s: OriginalState, action: Parry) -> None:
        if action.replace is not None:
            raise MalformedAction("no-party", "Original has no party: a parry only exposes the Samurai.")
        if action.card is None:
            return self._resolve(s)
        card = cards.check_card(action.card)
        if not cards.is_ace(card):
            raise IllegalMove("not-a-samurai", f"Only a Samurai (an Ace) can parry, not {card_name(card)}.")
        # "you may activate this card while in your hand ... If played this way, you must expose this card."
        # Ruling CO-8: an exposed Ace is in the hand too, and parries where it lies.
        if card not in s.exposed[action.player]:
            take_hidden(s, action.player, card)
            s.exposed[action.player].append(card)
        self._next_turn(s)  # the effect is cancelled

    def _pick(self, s: OriginalState, action: Pick) -> None:
        assert s.pending is not None and s.pending.target is not None
        target = s.pending.target
        card = picked_card(s.hands, target, action, s.players[target])
        if card is None:
            raise MalformedAction("bad-pick", "Record the card the Archer's pick exposed.")
        take_hidden(s, target, card)
        s.exposed[target].append(card)
        self._next_turn(s)

    def _expose(self, s: OriginalState, action: Expose) -> None:
        p = s.pending
        assert p is not None and p.target is not None
        card = cards.check_card(action.card)
        take_hidden(s, action.player, card)
        s.exposed[action.player].append(card)
        if p.role is Role.FIGHTER:
            s.locked.append(card)  # "That card can not be played this round."
            self._next_turn(s)
        else:
            s.pending = None
            self._advance(s, p.target)  # the Berserker's victim passed: play goes on from them

    def _oracle(self, s: OriginalState, action: OracleLook) -> None:
        # "Privately view the top card of the deck. If the suit of that card matches a suit from a card in this
        # combo, discard it to win the round. Otherwise, return it to the top of the deck." (Ruling CO-9: a
        # Wild's combo has the Wilds' suits.)
        assert s.lead is not None
        s.looks += 1
        suits = {cards.suit(c) for c in s.lead.cards}
        card = oracle_take(s.deck, action.card, suits, s.public_cards(), "discarded and wins the round")
        if card is None:
            return self._next_turn(s)
        s.deck_count -= 1
        s.discard.append(card)
        self._end_round(s)

    def _heal(self, s: OriginalState, action: Heal) -> None:
        seat = action.player
        if action.card is not None:
            self._from_hand(s, seat, cards.check_card(action.card))
            if s.deck is not None:
                s.deck.append(action.card)
        elif s.hands is not None:
            raise MalformedAction("heal-card", "Say which card goes back to the bottom of the deck.")
        else:
            s.hand_counts[seat] -= 1  # a hidden card, face down under the deck
        s.deck_count += 1
        self._next_turn(s)

    def _discard(self, s: OriginalState, action: Discard) -> None:
        assert s.pending is not None
        seat, colour = action.player, cards.suit(s.pending.card)
        if action.card is None:
            if s.hands is not None and self._may_hold(s, seat, lambda c: cards.suit(c) == colour):
                raise IllegalMove("must-burn", f"The Mage's Burn discards a {colour.title()} card from your hand, "
                                  "if possible: you have one.")
            return self._next_turn(s)
        card = cards.check_card(action.card)
        if cards.suit(card) != colour:
            raise IllegalMove("wrong-suit", f"The Mage burns a card that matches its suit ({colour.title()}), "
                              f"not {card_name(card)}.")
        self._from_hand(s, seat, card)  # Ruling CO-10: an exposed card may be burnt
        s.discard.append(card)
        if s.hand_size(seat) == 0:
            return self._win(s, seat)
        self._next_turn(s)

    # --- turns and rounds --------------------------------------------------------------------------------
    def _pass(self, s: OriginalState, action: PassTurn) -> None:
        seat = action.player
        if s.lead is None:
            raise IllegalMove("must-lead", "You start this round: play any combo (a round can not open with a pass).")
        if seat == s.lead.owner:
            s.bard_suit = None  # the Bard's extra turn declined (Ruling CO-3)
            return self._advance(s, seat)
        s.passed.append(seat)
        # Berserker: "If a player chooses to pass on their turn while this card is part of a leading combo, that
        # player must expose a card of their choosing."
        if s.lead.role is Role.BERSERKER and s.hand_counts[seat]:
            s.pending = Pending(Role.BERSERKER, s.lead.owner, s.lead.effect_card, target=seat)
            s.phase = Phase.EXPOSE
            return
        self._advance(s, seat)

    def _next_turn(self, s: OriginalState) -> None:
        assert s.lead is not None
        s.pending = None
        self._advance(s, s.lead.owner)

    def _advance(self, s: OriginalState, after: int) -> None:
        """Clockwise from ``after``. "A round ends when a player plays a leading combo in which afterwards, all
        other players, on their turn, 'Pass' in succession": the turn coming back to the leading combo's player
        ends the round (Ruling CO-2: a pass does not lock a player out; CO-7: a skipped turn is passed)."""
        assert s.lead is not None
        n, seat = len(s.players), after
        for _ in range(n):
            seat = (seat + 1) % n
            if seat == s.lead.owner:
                return self._end_round(s)
            if seat == s.skip:
                s.skip = None
                s.passed.append(seat)
                continue
            s.turn, s.phase = seat, Phase.PLAY
            return
        raise AssertionError("the turn never came back to the leading combo's player")

    def _end_round(self, s: OriginalState) -> None:
        # "The player of this unbeaten leading combo gathers the pile of cards from the middle of the table, sets
        # them aside in a pile at the corner of the table, and starts a new round." ("Discard Pile: ... where
        # cards are sent to from the middle of the table after a round ends.")
        assert s.lead is not None
        owner = s.lead.owner
        s.discard.extend(s.pile)
        s.rounds_won[owner] += 1
        s.pile, s.locked, s.passed = [], [], []
        s.lead, s.low, s.bard_suit, s.skip, s.pending = None, False, None, None, None
        s.turn, s.phase = owner, Phase.PLAY
        s.round += 1

    # ----------------------------------------------------------------------------------------- queries
    def legal_actions(self, state: OriginalState) -> list[Action]:
        s = state
        if s.hands is None or s.deck is None:
            raise ValueError("Legal moves are only known when the hands are (full-information play).")
        p = s.pending
        if s.phase is Phase.PLAY:
            return self._plays(s)
        if s.phase is Phase.DECLARE:
            return [Declare(p.player, False), Declare(p.player, True)] if p else []
        if s.phase is Phase.TARGET and p is not None:
            return [Target(p.player, t) for t in self._archer_targets(s, p.player)]
        if s.phase is Phase.PARRY and p is not None and p.target is not None:
            hand = s.hands[p.target] + s.exposed[p.target]
            return [Parry(p.target, None)] + [Parry(p.target, c) for c in hand if cards.is_ace(c)]
        if s.phase is Phase.EXPOSE and p is not None and p.target is not None:
            return [Expose(p.target, c) for c in s.hands[p.target]]
        if s.phase is Phase.ORACLE and p is not None and s.lead is not None:
            top = s.deck[0]
            matches = cards.suit(top) in {cards.suit(c) for c in s.lead.cards}
            return [OracleLook(p.player, top if matches else None)]
        if s.phase is Phase.HEAL and p is not None:
            return [Heal(p.player, c) for c in s.hands[p.player] + s.exposed[p.player]]
        if s.phase is Phase.DISCARD and p is not None:
            colour = cards.suit(p.card)
            return [Discard(p.player, c) for c in s.hands[p.player] + s.exposed[p.player]
                    if cards.suit(c) == colour] or [Discard(p.player, None)]
        return []

    def _plays(self, s: OriginalState) -> list[Action]:
        assert s.hands is not None
        seat = s.turn
        moves: list[Action] = [PassTurn(seat)] if s.lead is not None else []
        by_rank: dict[Any, list[str]] = {}
        for card in sorted(s.hands[seat]):
            by_rank.setdefault(rank_value(card), []).append(card)
        sizes = [len(s.lead.cards)] if s.lead else range(1, 6)
        candidates = [combo for group in by_rank.values() for k in sizes
                      for combo in itertools.combinations(group, k)]
        candidates += [(c,) for c in s.exposed[seat] if s.lead is None or len(s.lead.cards) == 1]
        for combo in candidates:
            if self.combo_problem(s, seat, combo) is not None:
                continue
            _, effect = self.combo_value(s, combo)
            if effect in SUIT_EFFECTS and len({cards.suit(c) for c in combo}) > 1:
                moves += [Play(seat, combo, c) for c in combo]
            else:
                moves.append(Play(seat, combo))
        return moves

    def to_move(self, state: OriginalState) -> tuple[int, ...]:
        s, p = state, state.pending
        if s.phase is Phase.PLAY:
            return (s.turn,)
        if p is not None and s.phase in (Phase.DECLARE, Phase.TARGET, Phase.ORACLE, Phase.HEAL, Phase.DISCARD):
            return (p.player,)
        if p is not None and p.target is not None and (
                s.phase in (Phase.PARRY, Phase.EXPOSE) or (s.phase is Phase.PICK and not s.full_information)):
            return (p.target,)
        return ()

    def outcome(self, state: OriginalState) -> Outcome | None:
        return state.result

    # ----------------------------------------------------------------------------------------- words
    def lead_words(self, s: OriginalState) -> str:
        if s.lead is None:
            return "no leading combo"
        lead = s.lead
        kind = COMBOS[len(lead.cards)]
        effect = f", {lead.role.title}" if lead.role else ""
        return f"{s.players[lead.owner]}'s {kind} of {rank_label(lead.rank)}{effect} ({names(lead.cards)})"

    def prompt(self, s: OriginalState) -> str:
        names_ = s.players
        p = s.pending
        if s.phase is Phase.DEAL:
            return f"Shuffle and deal {HAND_SIZE} cards to each player; pick who goes first."
        if s.phase is Phase.OVER:
            return "The game is over."
        if s.phase is Phase.PLAY:
            who = names_[s.turn]
            if s.lead is None:
                return f"{who} starts round {s.round}: play any combo."
            if s.bard_suit is not None:
                return f"{who}'s Bard: play again with a {s.bard_suit.title()} card in it, or pass."
            kind = COMBOS[len(s.lead.cards)]
            way = "lower" if s.low else "higher"
            return f"{who} to beat {self.lead_words(s)} with a {way} {kind}, or pass."
        assert p is not None
        player, target = names_[p.player], names_[p.target] if p.target is not None else ""
        return {
            Phase.DECLARE: f"{player}'s Monk: declare high or low for {target}'s play.",
            Phase.TARGET: f"{player}'s Archer: choose a player to target.",
            Phase.PARRY: f"{player}'s {p.role.title} targets {target}: parry with a Samurai (Ace), or let it be.",
            Phase.PICK: f"Archer: pick a card at random from {target}'s hand and expose it.",
            Phase.EXPOSE: f"{target} must expose a card of their choosing "
                          f"({'Fighter: it can not be played this round' if p.role is Role.FIGHTER else 'Berserker'}).",
            Phase.ORACLE: f"{player}'s Oracle: look at the top card of the deck; discard it if its suit matches.",
            Phase.HEAL: f"{player}'s Healer drew a card: return one card to the bottom of the deck.",
            Phase.DISCARD: f"{player}'s Mage: discard a {cards.suit(p.card).title()} card from your hand.",
        }[s.phase]

    def scoreboard(self, state: OriginalState) -> Scoreboard:
        s = state
        waiting = set(self.to_move(s))
        rows = []
        for seat, name in enumerate(s.players):
            if s.lead is not None and s.lead.owner == seat:
                this_round = "leading"
            elif seat in s.passed:
                this_round = "passed"
            else:
                this_round = ""
            exposed = Cards(", ".join(card_name(c) + (" (pierced)" if c in s.locked else "") for c in s.exposed[seat]),
                            [Marked(c, "pierced") if c in s.locked else c for c in s.exposed[seat]])
            rows.append(ScoreRow(seat, name, (s.hand_size(seat), exposed, s.rounds_won[seat], this_round),
                                 active=seat in waiting))
        if s.phase is Phase.OVER:
            phase = f"Game over in round {s.round}"
        elif s.phase is Phase.DEAL:
            phase = "Before the deal"
        else:
            low = " · Monk: low" if s.low else ""
            phase = f"Round {s.round} · leading: {self.lead_words(s)}{low} · deck {s.deck_count}"
        return Scoreboard(phase, self.prompt(s), ("Cards", "Exposed", "Rounds won", "This round"), tuple(rows))

    def view(self, state: OriginalState) -> dict[str, Any]:
        s = state
        p = s.pending
        view: dict[str, Any] = {
            "phase": s.phase.value,
            "round": s.round,
            "first": s.first,
            "turn": s.turn,
            "to_move": list(self.to_move(s)),
            "lead": None if s.lead is None else {
                "player": s.lead.owner, "cards": list(s.lead.cards), "rank": s.lead.rank,
                "effect": s.lead.role.title if s.lead.role else None, "effect_card": s.lead.effect_card},
            "monk_low": s.low,
            "bard_suit": s.bard_suit,
            "skip": s.skip,
            "pending": None if p is None else {
                "effect": p.role.title, "text": ORIGINAL[p.role].text, "player": p.player, "card": p.card,
                "target": p.target, "low": p.low},
            "pile": list(s.pile),
            "passed": list(s.passed),
            "hand_counts": [s.hand_size(seat) for seat in range(len(s.players))],
            "exposed": [list(e) for e in s.exposed],
            "pierced": list(s.locked),
            "deck": s.deck_count,
            "discard": list(s.discard),
            "rounds_won": list(s.rounds_won),
            "oracle_looks": s.looks,
        }
        if s.hands is not None:
            view["hands"] = [sorted(h) for h in s.hands]
            view["deck_order"] = list(s.deck or [])
        return view

    def describe(self, state: OriginalState, action: Action) -> str:
        names_ = state.players
        p = state.pending
        match action:
            case Deal():
                return f"{HAND_SIZE} cards dealt to each player."
            case Play(player=seat, cards=played):
                verb = "led" if state.lead is None else "beat with"
                kind = COMBOS.get(len(played), "combo")
                return f"{names_[seat]} {verb} a {kind}: {names(played)}."
            case PassTurn(player=seat):
                if state.lead is not None and state.lead.owner == seat:
                    return f"{names_[seat]} declined the Bard's extra turn."
                return f"{names_[seat]} passed."
            case Declare(player=seat, low=low):
                return f"{names_[seat]}'s Monk: {'low' if low else 'high'}."
            case Target(player=seat, target=t):
                return f"{names_[seat]}'s Archer targets {names_[t]}."
            case Parry(player=seat, card=None):
                return f"{names_[seat]} does not parry."
            case Parry(player=seat, card=c):
                return f"{names_[seat]} parries with {card_name(c)}."
            case Pick(card=c):
                who = names_[p.target] if p and p.target is not None else "?"
                return f"The Archer's pick exposes {card_name(c) if c else 'a card'} from {who}'s hand."
            case Expose(player=seat, card=c):
                return f"{names_[seat]} exposed {card_name(c)}."
            case OracleLook(player=seat, card=None):
                return f"{names_[seat]}'s Oracle looked at the top card and put it back."
            case OracleLook(player=seat, card=c):
                return f"{names_[seat]}'s Oracle discarded {card_name(c)} from the deck and wins the round."
            case Heal(player=seat, card=c):
                what = card_name(c) if c else "a card"
                return f"{names_[seat]}'s Healer drew a card and returned {what} under the deck."
            case Discard(player=seat, card=None):
                return f"{names_[seat]}'s Mage had nothing to burn."
            case Discard(player=seat, card=c):
                return f"{names_[seat]}'s Mage burnt {card_name(c)}."
        return action.type
