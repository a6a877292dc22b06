"""Clash of Corgis — Capture the Illusionist (``../shared/rulebooks/clash-of-corgis.txt``).

"Capture the opponent's Wild (Illusionist) card two times." Two players, eleven cards of a suit each: two rows
of four face down and three in hand. Each turn: Insight (a private look), Activate a Card, Cooldown. A card's
position (hidden, revealed, rested) is state. Rulings are "Ruling CI-n" (``docs/rulings.md``).
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from typing import Any, ClassVar

from companion.games.actions import Action
from companion.games.base import (
    GameSetup,
    IllegalMove,
    MalformedAction,
    Outcome,
    Scoreboard,
    ScoreRow,
)
from companion.games.clash_of_corgis import cards
from companion.games.clash_of_corgis.actions import (
    Activate,
    Deal,
    Guess,
    Insight,
    Pick,
    Rearrange,
    Rest,
    RevealCard,
    Save,
    Select,
    Shuffle,
)
from companion.games.clash_of_corgis.capture_state import (
    COLUMNS,
    EXPOSED,
    GRID_SLOTS,
    HAND,
    CaptureState,
    Cell,
    Pending,
    Phase,
    Position,
    Shuffling,
    Threat,
    column_of,
    row_of,
)
from companion.games.clash_of_corgis.dealing import first_player_option
from companion.games.clash_of_corgis.effects import CAPTURE, Role, card_name, role
from companion.games.clash_of_corgis.hands import picked_card
from companion.games.clash_of_corgis.variant import Move, VariantRules

CAPTURES_TO_WIN = 2  # "Capture the opponent's Wild (Illusionist) card two times."
# House rule (ruling CI-20): a short duel, won by the first capture (the option ``captures``: 1 or 2).
CAPTURES_OPTION = range(1, CAPTURES_TO_WIN + 1)
HAND_SIZE = 3  # "Then take the remaining 3 cards and add them to your hand."
CHAINS = (Role.ORACLE, Role.BARD, Role.HEALER)  # "Then, activate another card."
RANKS = (*(str(n) for n in range(1, 10)), "A", "Wild")  # "1 2 3 4 5 6 7 8 9 A (Ace) and Wild"
SETUP_PLACES = GRID_SLOTS + (HAND,) * HAND_SIZE  # the deal order of a player's 11 cards


class CaptureRules(VariantRules[CaptureState]):
    title: ClassVar[str] = "Clash of Corgis (Capture the Illusionist)"
    description: ClassVar[str] = "Capture the Illusionist, 2 players: a duel of hidden cards; capture the Wild twice."
    min_players: ClassVar[int] = 2  # "a 2-player card game"
    max_players: ClassVar[int] = 2
    options: ClassVar[frozenset[str]] = frozenset({"first_player", "suits", "captures"})

    # ----------------------------------------------------------------------------------------- setup
    def setup(self, setup: GameSetup) -> CaptureState:
        self.check_options(setup)
        # "Each player takes 11 cards of the same suit": the players' suits (default Fire and Water).
        suits = setup.options.get("suits", ["fire", "water"])
        if not isinstance(suits, list) or len(suits) != 2 or len(set(suits)) != 2 or not set(suits) <= set(cards.SUITS):
            raise MalformedAction("bad-option", f"suits must name two different suits of {', '.join(cards.SUITS)}.")
        if setup.options.get("captures", CAPTURES_TO_WIN) not in CAPTURES_OPTION:
            raise MalformedAction("bad-option", f"captures must be 1 (a short duel, a house rule) or {CAPTURES_TO_WIN} "
                                  "(the rulebook's).")
        return CaptureState(setup=setup, suits=tuple(suits), tables=[{}, {}], hand_counts=[0, 0], out=[[], []],
                            captures=[0, 0], looks=[0, 0], hands=[[], []] if setup.full_information else None)

    def chance(self, state: CaptureState, rng: random.Random) -> Action | None:
        full = state.full_information
        if state.phase is Phase.DEAL:
            first = first_player_option(state.setup.options, 2)
            return Deal(seed=rng.getrandbits(32) if full else None, first=rng.randrange(2) if first is None else first)
        if state.phase is Phase.SHUFFLE:
            return Shuffle(seed=rng.getrandbits(32) if full else None)  # at a real table nobody sees the layout
        if state.phase is Phase.PICK and full:
            return Pick(seed=rng.getrandbits(32))
        return None  # a real table shows the picked card

    # ----------------------------------------------------------------------------------------- apply
    def moves(self) -> dict[type[Action], Move]:
        return {
            Deal: ((Phase.DEAL,), self._deal), Shuffle: ((Phase.SHUFFLE,), self._shuffle),
            Pick: ((Phase.PICK,), self._pick), Insight: ((Phase.ACTIVATE, Phase.LOOK), self._insight),
            Activate: ((Phase.ACTIVATE,), self._activate), RevealCard: ((Phase.REVEAL,), self._reveal_card),
            Rest: ((Phase.REST,), self._rest), Rearrange: ((Phase.GATHER,), self._rearrange),
            Select: ((Phase.SELECT,), self._select), Guess: ((Phase.GUESS,), self._guess),
            Save: ((Phase.SAVE,), self._save),
        }

    # --- setup and shuffles ---------------------------------------------------------------------------------
    def _deal(self, s: CaptureState, action: Deal) -> None:
        # "Each player takes 11 cards of the same suit from the deck, places the remaining cards aside, and
        # shuffles their 11 cards face-down. Take 8 cards ... 2 rows of 4 ... Then take the remaining 3 cards and
        # add them to your hand." "Randomly pick a player to go first."
        named = first_player_option(s.setup.options, 2)
        first = action.first if action.first is not None else named
        if named is not None and first != named:
            raise MalformedAction("bad-deal", f"The setup names seat {named} to go first (the previous game's loser).")
        if action.deck is not None:
            raise MalformedAction("bad-deal", "Capture the Illusionist has no deck: give each player's 11 cards.")
        rng = random.Random(action.seed)
        if not s.full_information:
            if action.seed is not None or action.hands is not None:
                raise MalformedAction("bad-deal", "The cards are hidden in this game: a deal records only who goes "
                                      "first.")
        elif action.hands is None and action.seed is None:
            raise MalformedAction("bad-deal", "In this game a deal needs a seed or each player's 11 cards.")
        for seat in (0, 1):
            if s.full_information:
                if action.hands is not None:
                    if len(action.hands) != 2:
                        raise MalformedAction("bad-deal", "Give both players' cards.")
                    order = self._check_order(s, seat, list(action.hands[seat]))
                else:
                    order = sorted(cards.suit_cards(s.suits[seat]))
                    rng.shuffle(order)
            else:
                order = [None] * len(SETUP_PLACES)
            self._lay_out(s, seat, order)
        if first is None:
            if not s.full_information or action.hands is not None:
                raise MalformedAction("bad-deal", "Say who goes first: the deal needs 'first'.")
            first = rng.randrange(2)
        if first not in (0, 1):
            raise MalformedAction("no-such-seat", "There is no such seat; seats are 0-1.")
        s.first = first
        self._start_turn(s, first)

    def _check_order(self, s: CaptureState, seat: int, order: list[str]) -> list[str]:
        """Explicit cards for a player's places: exactly their 11 cards (front 1-4, back 1-4, then 3 in hand)."""
        if sorted(order) != sorted(cards.suit_cards(s.suits[seat])):
            raise MalformedAction("bad-deal", f"{s.players[seat]}'s cards are the 11 {s.suits[seat].title()} cards, "
                                  "each once: front row 1-4, back row 1-4, then the 3 in hand.")
        return order

    def _lay_out(self, s: CaptureState, seat: int, order: list[str | None]) -> None:
        table = {slot: Cell(card, Position.HIDDEN) for slot, card in zip(GRID_SLOTS, order, strict=False)}
        s.tables[seat] = table
        s.hand_counts[seat] = HAND_SIZE
        if s.hands is not None:
            s.hands[seat] = [c for c in order[len(GRID_SLOTS):] if c is not None]
        s.out[seat] = []

    def _shuffle(self, s: CaptureState, action: Shuffle) -> None:
        shuffling = s.shuffling
        assert shuffling is not None
        seat = shuffling.seat
        if not s.full_information:
            if action.seed is not None or action.order is not None:
                raise MalformedAction("bad-shuffle", "Nobody sees a face-down shuffle: record it with no seed.")
            order: list[str | None] = [None] * len(shuffling.places)
        elif action.order is not None:
            if sorted(action.order) != sorted(c for c in shuffling.cards if c):
                raise MalformedAction("bad-shuffle", "The order must list exactly the cards shuffled.")
            order = list(action.order)
        elif action.seed is not None:
            order = sorted(c for c in shuffling.cards if c)
            random.Random(action.seed).shuffle(order)
        else:
            raise MalformedAction("bad-shuffle", "In this game a shuffle needs a seed or the order.")
        if shuffling.then == "resetup":
            self._lay_out(s, seat, order)  # "follow the same steps in the initial setup of the game"
        else:
            # "re-arrange them in a hidden position, so that the placement of cards are the same as before". A face-up
            # card's place in the exposed hand row is in the hand once hidden: "A card in the Exposed Hand Row that
            # changes to Hidden, is moved to the player's hand."
            for place in shuffling.places:
                if place != HAND:
                    del s.tables[seat][place]
            if s.hands is not None:
                for card in shuffling.cards:
                    if card in s.hands[seat]:
                        s.hands[seat].remove(card)
            s.hand_counts[seat] -= sum(1 for p in shuffling.places if p == HAND)
            for place, card in zip(shuffling.places, order, strict=True):
                if row_of(place) in (EXPOSED, HAND):
                    s.hand_counts[seat] += 1
                    if s.hands is not None and card is not None:
                        s.hands[seat].append(card)
                else:
                    s.tables[seat][place] = Cell(card, Position.HIDDEN)
        s.shuffling = None
        {"resetup": self._after_reveal, "heal": self._chain_on, "wild": self._effect_done}[shuffling.then](s)

    # --- the turn ---------------------------------------------------------------------------------------------
    def _start_turn(self, s: CaptureState, seat: int) -> None:
        s.turn, s.turns = seat, s.turns + 1
        s.activated, s.insight_used, s.chain, s.pending = [], False, False, None
        s.phase = Phase.ACTIVATE
        if not self._activatable(s, seat):
            self._end_turn(s)  # nothing that is not rested: the turn passes (Ruling CI-10)

    def _activatable(self, s: CaptureState, seat: int) -> list[str]:
        """Slots (and ``hand``) of cards ``seat`` may activate: "not rested", and not already this turn."""
        slots = [slot for slot, cell in s.tables[seat].items()
                 if cell.position is not Position.RESTED and (cell.card is None or cell.card not in s.activated)]
        return slots + ([HAND] if s.hand_counts[seat] else [])

    def _end_turn(self, s: CaptureState) -> None:
        # Cooldown: "Change the position of all of your rested cards to revealed, except for the card(s) you
        # activated this turn."
        table = s.tables[s.turn]
        for slot, cell in list(table.items()):
            if cell.position is Position.RESTED and cell.card not in s.activated:
                table[slot] = Cell(cell.card, Position.REVEALED)
        self._start_turn(s, 1 - s.turn)

    def _insight(self, s: CaptureState, action: Insight) -> None:
        # Insight: "You may privately look at a hidden card on the table belonging to you." (also the Oracle's)
        if s.phase is Phase.ACTIVATE and (s.insight_used or s.chain):
            raise IllegalMove("insight-used", "Insight comes once, at the start of your turn: activate a card.")
        self._hidden_slot(s, action.player, action.slot, GRID_SLOTS)
        s.looks[action.player] += 1
        if s.phase is Phase.LOOK:
            return self._chain_on(s)
        s.insight_used = True

    def _hidden_slot(self, s: CaptureState, seat: int, slot: str, allowed: tuple[str, ...] | list[str]) -> Cell:
        cell = s.tables[seat].get(slot)
        if slot not in allowed or cell is None or cell.position is not Position.HIDDEN:
            raise IllegalMove("not-hidden", f"There is no hidden card of {s.players[seat]} at {slot} to choose here.")
        return cell

    def _face(self, s: CaptureState, seat: int, cell: Cell | None, shown: str | None) -> str:
        """The face of a card turned up: known in full-information play, else the one the table shows."""
        if cell is not None and cell.card is not None:
            if shown is not None and shown != cell.card:
                raise IllegalMove("wrong-card", f"That card is {card_name(cell.card)}, not {card_name(shown)}.")
            return cell.card
        if shown is None:
            raise MalformedAction("card-needed", "Say which card was turned face up.")
        cards.check_card(shown)
        if cards.suit(shown) != s.suits[seat] or shown in s.known(seat):
            raise IllegalMove("card-seen", f"{card_name(shown)} can not be a hidden card of {s.players[seat]}: "
                              "check that card.")
        return shown

    def _from_hand(self, s: CaptureState, seat: int, card: str | None, column: int | None, shown_by: int) -> str:
        """A hand card face up into the exposed hand row at ``column`` (chosen by whoever reveals it)."""
        if column not in COLUMNS:
            raise MalformedAction("column-needed", f"{s.players[shown_by]} chooses the exposed-row column (1-4).")
        slot = f"{EXPOSED}-{column}"
        if slot in s.tables[seat]:
            raise IllegalMove("column-taken", f"Column {column} of {s.players[seat]}'s exposed hand row is taken.")
        if s.hands is not None:
            if card not in s.hands[seat]:
                raise IllegalMove("not-in-hand", f"{s.players[seat]} has no such card in hand.")
            s.hands[seat].remove(card)
        else:
            card = self._face(s, seat, None, card)
        assert card is not None
        s.hand_counts[seat] -= 1
        s.tables[seat][slot] = Cell(card, Position.REVEALED)
        return slot

    def _activate(self, s: CaptureState, action: Activate) -> None:
        # Activate a Card: "Select a card (that you wish to activate) from your hand or table that is not rested.
        # If that card is from your hand, place it face-up (revealed) into your Exposed Hand Row. If that card is a
        # hidden card on the table, flip it face-up (revealed) in its same location on the table."
        seat = action.player
        if action.slot == HAND:
            if action.card is None:
                raise MalformedAction("card-needed", "Say which card from the hand is activated.")
            if action.card in s.activated:
                raise IllegalMove("already-activated", "Activate another card.")
            slot = self._from_hand(s, seat, action.card, action.column, seat)
        else:
            slot = action.slot
            cell = s.tables[seat].get(slot)
            if cell is None:
                raise IllegalMove("no-card", f"{s.players[seat]} has no card at {slot}.")
            if cell.position is Position.RESTED:
                assert cell.card is not None  # a rested card is face up
                raise IllegalMove("rested", f"{card_name(cell.card)} is rested: cards in this position can not be "
                                  "activated.")
            card = self._face(s, seat, cell, action.card)
            if card in s.activated:
                raise IllegalMove("already-activated", "That card was activated this turn: activate another card.")
            s.tables[seat][slot] = Cell(card, Position.REVEALED)
        card = s.tables[seat][slot].card
        assert card is not None
        s.activated.append(card)
        s.chain = False
        self._effect(s, seat, card, slot)

    # --- effects ------------------------------------------------------------------------------------------------
    def _effect(self, s: CaptureState, seat: int, card: str, slot: str) -> None:
        """"Then, activate that card's effect, if possible"."""
        effect, other = role(card), 1 - seat
        p = Pending(effect, seat, card, chooser=seat, owner=other)
        opp = s.tables[other]
        hidden = [x for x, c in opp.items() if c.position is Position.HIDDEN]
        if effect is Role.ORACLE:  # "Privately look at one of your hidden cards in your front row or back row."
            return self._ask(s, replace(p, owner=seat, slots=tuple(s.slots_where(seat, Position.HIDDEN))), Phase.LOOK)
        if effect is Role.BARD:  # "Select one of your opponent's revealed cards and change it to rested."
            return self._ask(s, replace(p, slots=tuple(s.slots_where(other, Position.REVEALED))), Phase.REST)
        if effect is Role.HEALER:  # "Shuffle one of your face-up cards (except this card) ..."
            face_up = [x for x, c in s.tables[seat].items() if c.position is not Position.HIDDEN and c.card != card]
            return self._ask(s, replace(p, owner=seat, slots=tuple(face_up)), Phase.GATHER)
        if effect is Role.MONK:  # "Reveal one of your opponent's hidden cards in their front row."
            return self._ask(s, replace(p, slots=tuple(x for x in hidden if row_of(x) == "front")), Phase.REVEAL)
        if effect is Role.FIGHTER:  # "... in their front row or back row in the same column as this card."
            return self._ask(s, replace(p, slots=tuple(x for x in hidden if column_of(x) == column_of(slot))),
                             Phase.REVEAL)
        if effect is Role.MAGE:  # "Reveal one of your opponent's hidden cards in their back row."
            return self._ask(s, replace(p, slots=tuple(x for x in hidden if row_of(x) == "back")), Phase.REVEAL)
        if effect is Role.ARCHER:  # "Reveal one of your opponent's hidden cards in their hand."
            return self._ask(s, replace(p, slots=(HAND,) if s.hand_counts[other] else ()), Phase.REVEAL)
        if effect is Role.BERSERKER:
            # "Your opponent must reveal one of their hidden cards in a row that is furthest to you." (Ruling CI-6)
            back = tuple(x for x in hidden if row_of(x) == "back")
            row = back or tuple(x for x in hidden if row_of(x) == "front")
            if not row:
                return self._rest_revealed(s, p)
            return self._ask(s, replace(p, chooser=other, slots=row), Phase.REVEAL)
        if effect is Role.ASSASSIN:  # "Your opponent must select one of their hidden cards in their front/back row."
            return self._ask(s, replace(p, chooser=other, slots=tuple(hidden)), Phase.SELECT)
        if effect is Role.SAMURAI:  # "Your opponent must reveal one of their hidden cards of their choice."
            hand = (HAND,) if s.hand_counts[other] else ()
            return self._ask(s, replace(p, chooser=other, slots=tuple(hidden) + hand), Phase.REVEAL)
        # The Wild: "Reveal one of your opponent's hidden cards in their front row, back row, or in their hand."
        hand = (HAND,) if s.hand_counts[other] else ()
        if not hidden and not hand:
            return self._wild_rearrange(s, replace(p, resolved=True))
        return self._ask(s, replace(p, slots=tuple(hidden) + hand), Phase.REVEAL)

    def _ask(self, s: CaptureState, p: Pending, phase: Phase) -> None:
        s.pending = p
        if not p.slots:
            return self._effect_done(s, resolved=False)
        s.phase = phase

    def _effect_done(self, s: CaptureState, resolved: bool | None = None) -> None:
        """The effect is over: its card is rested — or stays revealed when the effect could not be resolved ("When
        a card's effect can not be resolved, its position remains Revealed") — then the turn ends."""
        p = s.pending
        assert p is not None
        done = p.resolved if resolved is None else resolved
        for slot, cell in s.tables[p.player].items():
            if cell.card == p.card and cell.position is Position.REVEALED and done:
                s.tables[p.player][slot] = Cell(p.card, Position.RESTED)
        s.pending = None
        if done and p.role in CHAINS and self._activatable(s, p.player):
            s.chain, s.phase = True, Phase.ACTIVATE  # "Then, activate another card." (Ruling CI-5)
            return
        self._end_turn(s)

    def _chain_on(self, s: CaptureState) -> None:
        self._effect_done(s, resolved=True)

    def _rest(self, s: CaptureState, action: Rest) -> None:
        p = s.pending
        assert p is not None
        if action.slot not in p.slots:
            raise IllegalMove("not-revealed", f"The Bard rests one of {s.players[p.owner]}'s revealed cards.")
        cell = s.tables[p.owner][action.slot]
        s.tables[p.owner][action.slot] = Cell(cell.card, Position.RESTED)
        self._chain_on(s)

    def _rearrange(self, s: CaptureState, action: Rearrange) -> None:
        p = s.pending
        assert p is not None
        seat, chosen = action.player, list(action.slots)
        if p.role is Role.HEALER:
            # "Shuffle one of your face-up cards (except this card) along with up to two of your hidden cards"
            if not chosen or chosen[0] not in p.slots:
                raise IllegalMove("face-up-first", "The Healer shuffles one of your face-up cards (not itself) first.")
            self._gather(s, seat, chosen[:1], chosen[1:], "heal")
        else:
            # The Wild: "shuffle this card along with up to two other hidden card(s)"
            home = [x for x, c in s.tables[seat].items() if c.card == p.card]
            self._gather(s, seat, home, chosen, "wild")

    def _gather(self, s: CaptureState, seat: int, face_up: list[str], hidden: list[str], then: str) -> None:
        if len(hidden) > 2 or len(set(hidden)) != len(hidden):
            raise IllegalMove("too-many", "Up to two of your hidden cards on the table go with it (Ruling CI-8).")
        for slot in hidden:
            self._hidden_slot(s, seat, slot, GRID_SLOTS)
        places = tuple(face_up + hidden)
        s.shuffling = Shuffling(seat, places, tuple(s.tables[seat][x].card for x in places), then)
        s.phase = Phase.SHUFFLE

    def _wild_rearrange(self, s: CaptureState, p: Pending) -> None:
        s.pending = replace(p, chooser=p.player, owner=p.player, slots=tuple(s.slots_where(p.player, Position.HIDDEN,
                                                                                            ("front", "back"))))
        s.phase = Phase.GATHER

    # --- revealing ------------------------------------------------------------------------------------------------
    def _reveal_card(self, s: CaptureState, action: RevealCard) -> None:
        p = s.pending
        assert p is not None
        if action.slot not in p.slots:
            raise IllegalMove("not-allowed", f"The {p.role.title} reveals one of: {', '.join(p.slots)}.")
        if action.slot == HAND:
            if p.chooser != p.owner:
                # A card from the opponent's hand, taken blind (Ruling CI-11): the revealer chooses the column.
                if action.column not in COLUMNS or f"{EXPOSED}-{action.column}" in s.tables[p.owner]:
                    raise MalformedAction("column-needed", "Choose a free column (1-4) of the exposed hand row.")
                s.pending, s.phase = replace(p, column=action.column), Phase.PICK
                return
            slot = self._from_hand(s, p.owner, action.card, action.column, p.chooser)
            return self._revealed(s, p.owner, slot, HAND)
        cell = s.tables[p.owner][action.slot]
        card = self._face(s, p.owner, cell, action.card)
        s.tables[p.owner][action.slot] = Cell(card, Position.REVEALED)
        self._revealed(s, p.owner, action.slot, action.slot)

    def _pick(self, s: CaptureState, action: Pick) -> None:
        p = s.pending
        assert p is not None and p.column is not None
        card = picked_card(s.hands, p.owner, action, s.players[p.owner])
        slot = self._from_hand(s, p.owner, card, p.column, p.chooser)
        self._revealed(s, p.owner, slot, HAND)

    def _revealed(self, s: CaptureState, seat: int, slot: str, home: str) -> None:
        """A card of ``seat`` is face up at ``slot`` by an effect of the turn's player: the Illusionist may be
        captured (Ruling CI-9: even when its owner revealed it for the opponent's Ace)."""
        p = s.pending
        assert p is not None
        s.pending = replace(p, resolved=True)
        card = s.tables[seat][slot].card
        if seat != s.turn and card is not None and cards.is_wild(card):
            s.threat = Threat(seat, slot, home)
            s.phase = Phase.SAVE
            return
        self._after_reveal(s)

    def _save(self, s: CaptureState, action: Save) -> None:
        # "you may discard your Ace from your hand or the table (regardless of its position) ... If you do not know
        # where your Ace is ..., you may make one attempt to select one of your hidden cards, and without peeking
        # at the face of the card, discard it." (Ruling CI-4: a hidden card named is that one attempt.)
        threat = s.threat
        assert threat is not None
        seat = threat.seat
        if action.slot is None:
            return self._capture(s)
        if action.slot == HAND:
            if action.card is None or not cards.is_ace(action.card):
                raise IllegalMove("not-an-ace", "A save from the hand discards the Ace.")
            if s.hands is not None:
                if action.card not in s.hands[seat]:
                    raise IllegalMove("not-in-hand", f"{s.players[seat]} has no Ace in hand.")
                s.hands[seat].remove(action.card)
            else:
                self._face(s, seat, None, action.card)
            s.hand_counts[seat] -= 1
            return self._saved(s, action.card)
        cell = s.tables[seat].get(action.slot)
        if cell is None or action.slot == threat.slot:
            raise IllegalMove("no-card", f"{s.players[seat]} has no card to discard at {action.slot}.")
        card = self._face(s, seat, cell, action.card)
        if cell.position is not Position.HIDDEN and not cards.is_ace(card):
            raise IllegalMove("not-an-ace", f"{card_name(card)} is face up and not the Ace: that saves nothing.")
        del s.tables[seat][action.slot]
        if cards.is_ace(card):
            return self._saved(s, card)
        s.out[seat].append(card)
        self._capture(s)  # "Otherwise, you must immediately take all 11 of your original starting cards"

    def _saved(self, s: CaptureState, ace: str) -> None:
        # "(and place it somehwere outside of the main playing area)" ... "return your Illusionist back to its
        # original hidden position" (Ruling CI-3: after any save).
        threat = s.threat
        assert threat is not None
        seat = threat.seat
        s.out[seat].append(ace)
        wild = s.tables[seat].pop(threat.slot).card
        if threat.home == HAND:
            s.hand_counts[seat] += 1
            if s.hands is not None and wild is not None:
                s.hands[seat].append(wild)
        else:
            s.tables[seat][threat.home] = Cell(None if s.hands is None else wild, Position.HIDDEN)
        s.threat = None
        self._after_reveal(s)

    def _capture(self, s: CaptureState) -> None:
        threat = s.threat
        assert threat is not None
        seat, captor = threat.seat, 1 - threat.seat
        s.threat = None
        s.captures[captor] += 1
        wins = s.setup.options.get("captures", CAPTURES_TO_WIN)
        if s.captures[captor] >= wins:
            s.result = Outcome((captor,), f"Captured the Illusionist {wins} time{'s' if wins > 1 else ''}")
            s.phase, s.pending = Phase.OVER, None
            return
        # "your opponent must immediately take all 11 of their original starting cards and follow the same steps
        # in the initial setup of the game" (Ruling CI-12: a recorded chance event).
        held = [c.card for c in s.tables[seat].values()] + (s.hands[seat] if s.hands is not None else [])
        everything = tuple(held + s.out[seat]) if s.hands is not None else (None,) * len(SETUP_PLACES)
        s.shuffling = Shuffling(seat, SETUP_PLACES, everything, "resetup")
        s.phase = Phase.SHUFFLE

    def _after_reveal(self, s: CaptureState) -> None:
        p = s.pending
        assert p is not None
        if p.role is Role.BERSERKER:
            return self._rest_revealed(s, p)
        if p.role is Role.ASSASSIN:
            return self._assassin_again(s, p)
        if p.role is Role.ILLUSIONIST:
            return self._wild_rearrange(s, p)
        self._effect_done(s)

    def _rest_revealed(self, s: CaptureState, p: Pending) -> None:
        # "Then, change all of your opponent's revealed card(s) to rested."
        table = s.tables[p.owner]
        for slot in s.slots_where(p.owner, Position.REVEALED):
            table[slot] = Cell(table[slot].card, Position.RESTED)
        s.pending = p
        self._effect_done(s, resolved=True)

    # --- the Assassin ----------------------------------------------------------------------------------------------
    def _select(self, s: CaptureState, action: Select) -> None:
        p = s.pending
        assert p is not None
        self._hidden_slot(s, p.owner, action.slot, p.slots)
        s.pending = replace(p, slots=(action.slot,), chooser=p.player)
        s.phase = Phase.GUESS

    def _guess(self, s: CaptureState, action: Guess) -> None:
        # "Declare any card rank and reveal the selected card. If the card rank you declared is the revealed card,
        # activate this card's effect again."
        p = s.pending
        assert p is not None
        if action.rank not in RANKS:
            raise MalformedAction("bad-rank", f"Declare a rank: {', '.join(RANKS)}.")
        (slot,) = p.slots
        card = self._face(s, p.owner, s.tables[p.owner][slot], action.card)
        s.tables[p.owner][slot] = Cell(card, Position.REVEALED)
        s.pending = replace(p, guess=action.rank if cards.label(card) == action.rank else None)
        self._revealed(s, p.owner, slot, slot)

    def _assassin_again(self, s: CaptureState, p: Pending) -> None:
        hidden = tuple(s.slots_where(p.owner, Position.HIDDEN, ("front", "back")))
        if p.guess is not None and hidden:  # Ruling CI-7: as often as the guess is right
            s.pending = replace(p, chooser=p.owner, slots=hidden, guess=None)
            s.phase = Phase.SELECT
            return
        self._effect_done(s, resolved=True)

    # ----------------------------------------------------------------------------------------- queries
    def legal_actions(self, state: CaptureState) -> list[Action]:
        s, p = state, state.pending
        if s.hands is None:
            raise ValueError("Legal moves are only known when the cards are (full-information play).")
        if s.phase is Phase.ACTIVATE:
            seat = s.turn
            free = [c for c in COLUMNS if f"{EXPOSED}-{c}" not in s.tables[seat]]
            moves: list[Action] = []
            if not s.insight_used and not s.chain:
                moves += [Insight(seat, x) for x in s.slots_where(seat, Position.HIDDEN, ("front", "back"))]
            for slot in self._activatable(s, seat):
                if slot != HAND:
                    moves.append(Activate(seat, slot))
            moves += [Activate(seat, HAND, c, col) for c in s.hands[seat] if c not in s.activated for col in free[:1]]
            return moves
        if p is None:
            if s.phase is Phase.SAVE and s.threat is not None:
                return self._saves(s)
            return []
        if s.phase is Phase.LOOK:
            return [Insight(p.player, x) for x in p.slots]
        if s.phase is Phase.REST:
            return [Rest(p.player, x) for x in p.slots]
        if s.phase is Phase.GATHER:
            hidden = s.slots_where(p.player, Position.HIDDEN, ("front", "back"))
            extra = [combo for k in range(3) for combo in itertools.combinations(hidden[:4], k)]
            if p.role is Role.HEALER:
                return [Rearrange(p.player, (f, *e)) for f in p.slots for e in extra]
            return [Rearrange(p.player, e) for e in extra]
        if s.phase is Phase.REVEAL:
            free = [c for c in COLUMNS if f"{EXPOSED}-{c}" not in s.tables[p.owner]]
            moves = []
            for slot in p.slots:
                if slot != HAND:
                    moves.append(RevealCard(p.chooser, slot))
                elif p.chooser == p.owner:
                    moves += [RevealCard(p.chooser, HAND, c, free[0]) for c in s.hands[p.owner]]
                else:
                    moves.append(RevealCard(p.chooser, HAND, None, free[0]))
            return moves
        if s.phase is Phase.SELECT:
            return [Select(p.chooser, x) for x in p.slots]
        if s.phase is Phase.GUESS:
            return [Guess(p.player, r) for r in RANKS]
        if s.phase is Phase.SAVE and s.threat is not None:
            return self._saves(s)
        return []

    def _saves(self, s: CaptureState) -> list[Action]:
        assert s.threat is not None and s.hands is not None
        seat = s.threat.seat
        moves: list[Action] = [Save(seat, None)]
        moves += [Save(seat, HAND, c) for c in s.hands[seat] if cards.is_ace(c)]
        for slot, cell in s.tables[seat].items():
            if slot != s.threat.slot and (cell.position is Position.HIDDEN or cards.is_ace(cell.card or "")):
                moves.append(Save(seat, slot))
        return moves

    def to_move(self, state: CaptureState) -> tuple[int, ...]:
        s, p = state, state.pending
        if s.phase is Phase.ACTIVATE:
            return (s.turn,)
        if s.phase is Phase.SAVE and s.threat is not None:
            return (s.threat.seat,)
        if p is None:
            return ()
        if s.phase in (Phase.LOOK, Phase.REST, Phase.GATHER, Phase.GUESS):
            return (p.player,)
        if s.phase in (Phase.REVEAL, Phase.SELECT):
            return (p.chooser,)
        if s.phase is Phase.PICK and not s.full_information:
            return (p.owner,)  # the table shows the card taken from the hand
        return ()

    def outcome(self, state: CaptureState) -> Outcome | None:
        return state.result

    # ----------------------------------------------------------------------------------------- words
    def prompt(self, s: CaptureState) -> str:
        n, p = s.players, s.pending
        if s.phase is Phase.DEAL:
            return "Each player shuffles their 11 cards: 2 rows of 4 face down, 3 in hand; pick who goes first."
        if s.phase is Phase.OVER:
            return "The game is over."
        if s.phase is Phase.ACTIVATE:
            if s.chain:
                return f"{n[s.turn]}: activate another card."
            look = "" if s.insight_used else "Insight (look at a hidden card of yours), then "
            return f"{n[s.turn]}: {look}activate a card that is not rested."
        if s.phase is Phase.SAVE and s.threat is not None:
            return (f"{n[s.threat.seat]}'s Illusionist is revealed: discard the Ace to save it (or one hidden card "
                    "blind), or it is captured.")
        if s.phase is Phase.SHUFFLE and s.shuffling is not None:
            return f"{n[s.shuffling.seat]} shuffles {len(s.shuffling.places)} cards face down into their places."
        assert p is not None
        effect = f"{n[p.player]}'s {p.role.title} ({CAPTURE[p.role].name})"
        return {
            Phase.LOOK: f"{effect}: look at one of your hidden cards.",
            Phase.REST: f"{effect}: rest one of {n[p.owner]}'s revealed cards.",
            Phase.GATHER: f"{effect}: choose the cards to shuffle face down.",
            Phase.REVEAL: f"{effect}: {n[p.chooser]} reveals a hidden card ({', '.join(p.slots)}).",
            Phase.SELECT: f"{effect}: {n[p.chooser]} selects one of their hidden cards.",
            Phase.GUESS: f"{effect}: declare a rank, then reveal the selected card.",
            Phase.PICK: f"{effect}: take a card at random from {n[p.owner]}'s hand and reveal it.",
        }[s.phase]

    def _cells(self, s: CaptureState, seat: int) -> dict[str, dict[str, Any]]:
        return {slot: {"card": cell.card if cell.position is not Position.HIDDEN or s.hands is not None else None,
                       "position": cell.position.value} for slot, cell in sorted(s.tables[seat].items())}

    def scoreboard(self, state: CaptureState) -> Scoreboard:
        s = state
        waiting = set(self.to_move(s))
        rows = []
        for seat, name in enumerate(s.players):
            table = s.tables[seat] if s.tables else {}
            count = {pos: sum(1 for c in table.values() if c.position is pos) for pos in Position}
            rows.append(ScoreRow(seat, name, (s.captures[seat], s.suits[seat].title(), count[Position.HIDDEN],
                                              count[Position.REVEALED], count[Position.RESTED], s.hand_counts[seat]),
                                 active=seat in waiting))
        phase = "Game over" if s.phase is Phase.OVER else f"Turn {s.turns}: {s.players[s.turn]}"
        return Scoreboard(phase, self.prompt(s), ("Captures", "Suit", "Hidden", "Revealed", "Rested", "Hand"),
                          tuple(rows))

    def view(self, state: CaptureState) -> dict[str, Any]:
        s, p = state, state.pending
        view: dict[str, Any] = {
            "phase": s.phase.value,
            "turn": s.turn,
            "first": s.first,
            "to_move": list(self.to_move(s)),
            "suits": list(s.suits),
            "tables": [self._cells(s, seat) for seat in (0, 1)] if s.tables else [],
            "hand_counts": list(s.hand_counts),
            "out": [list(o) for o in s.out],
            "captures": list(s.captures),
            "activated": list(s.activated),
            "pending": None if p is None else {"effect": p.role.title, "text": CAPTURE[p.role].text,
                                               "player": p.player, "card": p.card, "chooser": p.chooser,
                                               "slots": list(p.slots)},
            "illusionist_revealed": None if s.threat is None else {"player": s.threat.seat, "slot": s.threat.slot},
            "private_looks": list(s.looks),
        }
        if s.hands is not None:
            view["hands"] = [sorted(h) for h in s.hands]
        return view

    def describe(self, state: CaptureState, action: Action) -> str:
        n = state.players
        match action:
            case Deal():
                return "Each player laid out 8 cards face down and took 3 in hand."
            case Shuffle():
                return "Cards shuffled face down into their places."
            case Pick(card=c):
                return f"A card was taken from the hand: {card_name(c)}." if c else "A card was taken from the hand."
            case Insight(player=seat, slot=slot):
                return f"{n[seat]} looked privately at their card at {slot}."
            case Activate(player=seat, slot=slot, card=c):
                what = card_name(c) if c else f"the card at {slot}"
                return f"{n[seat]} activated {what}."
            case RevealCard(player=seat, slot=slot):
                return f"{n[seat]} revealed the card at {slot}."
            case Rest(player=seat, slot=slot):
                return f"{n[seat]}'s Bard rested the card at {slot}."
            case Rearrange(player=seat, slots=slots):
                return f"{n[seat]} gathers {', '.join(slots) or 'no other card'} to shuffle face down."
            case Select(player=seat, slot=slot):
                return f"{n[seat]} selected their card at {slot}."
            case Guess(player=seat, rank=rank):
                return f"{n[seat]} declared {rank}."
            case Save(player=seat, slot=None):
                return f"{n[seat]} does not save the Illusionist."
            case Save(player=seat, slot=slot):
                return f"{n[seat]} discards the card at {slot} to save the Illusionist."
        return action.type
