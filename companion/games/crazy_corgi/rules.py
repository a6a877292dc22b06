"""Crazy Corgi (``../shared/rulebooks/crazy-corgi.txt``).

Each rule below quotes the rulebook sentence it implements; the rulings for what the book leaves open are in
``docs/rulings.md`` (cited here as "Ruling CC-n"). Every card movement is one action, as the camera sees it: a
card revealed in the draw zone, a card arriving in a Kennel, a Kennel cleared.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from companion.games.actions import Action, Deal, Reshuffle
from companion.games.base import (
    DecisionRequired,
    GameOption,
    GameSetup,
    IllegalMove,
    MalformedAction,
    OptionKind,
    Outcome,
    Ruleset,
    RuleViolation,
    Scoreboard,
    ScoreRow,
)
from companion.games.crazy_corgi.actions import (
    DeckOrder,
    DeclareWild,
    DiscardKennel,
    Give,
    Place,
    Reveal,
    Steal,
    Stop,
    TakeBones,
)
from companion.games.crazy_corgi.sets import (
    KENNELS,
    SET_SIZE,
    best_score,
    card_name,
    deck,
    face,
    fits,
    is_card,
    is_corgi,
    is_event,
    is_wild,
    names,
    possible_kinds,
    why_not,
)
from companion.games.crazy_corgi.state import (
    COLLAR_DRAWS,
    MAX_DRAW,
    MIN_DRAW,
    WIN_POINTS,
    After,
    CrazyState,
    Phase,
    ScoredSet,
)

WILD_MODES = ("best", "declare")
EVENT_EFFECTS = {
    "baseball": "Everyone, in turn, draws a card and places it in their Kennels.",
    "bones": "They may take a Corgi from the discard pile into their Kennels.",
    "fleas": "They steal the top card of an opponent's Kennel.",
    "collar": "They must draw two more cards.",
    "bowl": "They peek at the top card, then may stop at once.",
}
LARGE_MARKER = 3  # "12 Small point markers (1 VP)", "6 Large point markers (3 VP)"
LARGE_MARKERS_IN_THE_BOX = 6


class CrazyCorgi(Ruleset[CrazyState]):
    name: ClassVar[str] = "crazy-corgi"
    title: ClassVar[str] = "Crazy Corgi"
    variants: ClassVar[dict[str, str]] = {
        "standard": "Draw 2 to 4 cards without repeating a number, build sets in three Kennels; first to 5 wins.",
    }
    # Ruling CC-14: the 30 points of markers cover six players (five on 4 and a winner on 7 is 27; seven is 31).
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    action_types: ClassVar[tuple[type[Action], ...]] = (
        Deal,
        Reshuffle,
        DeckOrder,
        Reveal,
        Stop,
        Give,
        Place,
        DiscardKennel,
        DeclareWild,
        TakeBones,
        Steal,
    )
    options: ClassVar[tuple[GameOption, ...]] = (
        GameOption("first_player", "Who starts (the youngest player)", OptionKind.SEAT, "the first player named"),
        GameOption("wilds", "Wilds at the end", OptionKind.CHOICE, "each Wild scores at its best",
                   choices=WILD_MODES),
        GameOption("starting_points", "Points carried on from paper", OptionKind.SCORES, "everyone starts on 0",
                   low=0, high=WIN_POINTS - 1),
    )

    def __init__(self) -> None:
        super().__init__()
        self._handlers = self._handler_table()

    # ----------------------------------------------------------------------------------------- setup
    def setup(self, setup: GameSetup) -> CrazyState:
        self.check_setup(setup)
        self.check_options(setup)
        n = len(setup.players)
        # "The youngest player will be the starting player": the referee names the seat (Ruling CC-15).
        first = self.seat_option(setup, "first_player")
        # Ruling CC-17: Wilds score at their best unless the table wants them declared.
        wilds = setup.options.get("wilds", "best")
        if wilds not in WILD_MODES:
            raise MalformedAction("bad-option", f"wilds must be one of {', '.join(WILD_MODES)}, not {wilds!r}.")
        return CrazyState(
            setup=setup,
            declare_wilds=wilds == "declare",
            full_information=setup.full_information,
            turn=first,
            deck=sorted(deck().cards()),
            kennels=[[[] for _ in range(KENNELS)] for _ in range(n)],
            # A game carried on from paper starts from the points of the markers each player holds (Ruling CC-23).
            points=self.scores_option(setup, "starting_points", WIN_POINTS - 1),
        )

    def chance(self, state: CrazyState, rng: random.Random) -> Action | None:
        seed = rng.getrandbits(32) if state.full_information else None
        if state.current is Phase.SHUFFLE:
            return Deal(seed)
        if state.current is Phase.RESHUFFLE:
            return Reshuffle(seed)
        return None

    # ----------------------------------------------------------------------------------------- apply
    def apply(self, state: CrazyState, action: Action) -> CrazyState:
        action = self.decode(action)
        if state.phase is Phase.OVER:
            raise IllegalMove("game-over", "The game is over; start a new one.")
        phases, handler = self._handlers[type(action)]
        if state.current not in phases:
            raise self._not_now(state)
        s = state.clone()
        handler(s, action)
        return s

    def _handler_table(self) -> dict[type[Action], tuple[tuple[Phase, ...], Callable[[CrazyState, Any], None]]]:
        """Each action: the phases it may come in, and the method that applies it."""
        return {
            Deal: ((Phase.SHUFFLE,), self._shuffle),
            Reshuffle: ((Phase.RESHUFFLE,), self._shuffle),
            DeckOrder: ((Phase.SHUFFLE, Phase.RESHUFFLE), self._shuffle),
            Reveal: ((Phase.DRAW, Phase.BASEBALL), self._reveal),
            Stop: ((Phase.DRAW,), self._stop),
            Give: ((Phase.GIVE,), self._give),
            Place: ((Phase.PLACE,), self._place),
            DiscardKennel: ((Phase.PLACE,), self._discard_kennel),
            DeclareWild: ((Phase.DECLARE,), self._declare),
            TakeBones: ((Phase.BONES,), self._bones),
            Steal: ((Phase.FLEAS,), self._fleas),
        }

    def _not_now(self, s: CrazyState) -> RuleViolation:
        shuffling = s.current in (Phase.SHUFFLE, Phase.RESHUFFLE)
        return DecisionRequired("shuffle-first" if shuffling else f"waiting-{s.current.value}", self._prompt(s))

    def _seat(self, s: CrazyState, seat: int, what: str) -> None:
        if not 0 <= seat < len(s.players):
            last = len(s.players) - 1
            raise MalformedAction("no-such-seat", f"There is no seat {seat} ({what}); seats are 0-{last}.")

    def _only(self, s: CrazyState, seat: int, expected: int, doing: str) -> None:
        self._seat(s, seat, "player")
        if seat != expected:
            who = s.players
            raise IllegalMove("not-your-turn", f"It is {who[expected]}'s turn to {doing}, not {who[seat]}'s.")

    @staticmethod
    def _card(card: str) -> None:
        if not is_card(card):
            raise MalformedAction("no-such-card", f"{card!r} is not a Crazy Corgi card.")

    @staticmethod
    def _kennel(kennel: int) -> None:
        if not 0 <= kennel < KENNELS:
            raise MalformedAction("no-such-kennel", f"Kennels are numbered 0 to {KENNELS - 1}, not {kennel}.")

    # ----------------------------------------------------------------------------------------- the deck
    def _shuffle(self, s: CrazyState, action: Deal | Reshuffle | DeckOrder) -> None:
        # "Shuffle the deck of cards" / "If the deck is exhausted before a player reaches 5 points, reshuffle the
        # discard pile to form a new deck." (Ruling CC-12: when a card is next needed.)
        pile = sorted(s.deck if s.phase is Phase.SHUFFLE else s.discard)
        if isinstance(action, DeckOrder):
            if not s.full_information:
                raise MalformedAction("deck-order-unknown", "At the table nobody knows the deck order: shuffle "
                                      "without one.")
            if sorted(action.cards) != pile:
                raise MalformedAction("bad-deck-order", f"The deck order must hold exactly the {len(pile)} cards "
                                      "being shuffled, each once.")
            order = list(action.cards)
        else:
            if (action.seed is None) == s.full_information:
                need = "a seed" if s.full_information else "no seed"
                raise MalformedAction("bad-seed", f"In this game a {action.type} needs {need}.")
            order = pile
            if action.seed is not None:
                random.Random(action.seed).shuffle(order)
        s.deck = order
        if s.phase is Phase.SHUFFLE:
            s.turn_no = 1
            s.phase = Phase.DRAW
        else:
            s.discard = []

    def _take(self, s: CrazyState, card: str) -> None:
        """The revealed card leaves the deck: the top card when the order is known, else any unseen card."""
        if s.full_information:
            if s.deck[0] != card:
                top = card_name(s.deck[0])
                raise IllegalMove("not-top-card", f"The top card of the deck is the {top}, not the {card_name(card)}.")
            s.deck.pop(0)
            return
        if card not in s.deck:
            raise IllegalMove("card-already-seen", f"The {card_name(card)} is {self._where(s, card)}: check that card.")
        s.deck.remove(card)

    @staticmethod
    def _where(s: CrazyState, card: str) -> str:
        for seat, kennels in enumerate(s.kennels):
            for k, kennel in enumerate(kennels):
                if card in kennel:
                    return f"in {s.players[seat]}'s Kennel {k + 1}"
        if card in s.discard:
            return "in the discard pile"
        return "already face up"

    # ----------------------------------------------------------------------------------------- drawing
    def _reveal(self, s: CrazyState, action: Reveal) -> None:
        revealer = s.baseball[0] if s.phase is Phase.BASEBALL else s.turn
        self._only(s, action.player, revealer, "draw")
        self._card(action.card)
        if not s.corgis_left():
            raise IllegalMove("nothing-to-draw", "No Corgi or Wild card is left in the deck or the discard pile: "
                              "stop drawing.")
        self._take(s, action.card)
        s.bowl_offer = False
        card = action.card
        resolving = s.phase is Phase.BASEBALL or s.collar_left > 0
        if is_event(card):
            # "Event cards will never cause another Event card to activate. If anyone draws another Event card
            # while resolving an event, ignore and replace it with another card" (Ruling CC-9: it is discarded).
            if resolving:
                s.discard.append(card)
                self._go_on_drawing(s)
            else:
                self._resolve_event(s, card)
            return
        if s.phase is Phase.BASEBALL:
            # "All players take a card from the top of the deck, and immediately place it into their Kennels."
            self._to_placement(s, action.player, [card], After.BASEBALL)
            return
        s.drawn.append(card)
        if s.collar_left:
            s.collar_left -= 1
        if self._busted(s, card):
            return
        self._go_on_drawing(s)

    def _busted(self, s: CrazyState, card: str) -> bool:
        # "you will 'bust' if you reveal both Wild cards during the Draw phase. In this case, all the cards revealed
        # this turn are discarded instead of given to another player."
        if sum(is_wild(c) for c in s.drawn) == 2:
            s.discard.extend(s.drawn)
            s.drawn = []
            self._end_event(s)
            self._next_turn(s)
            return True
        # "As soon as you reveal a card with a number that has already been revealed, you have 'busted'" (Ruling
        # CC-1: a Wild has no number while it is drawn, so only a Corgi repeats one).
        numbers = [face(c)["number"] for c in s.drawn if is_corgi(c)]
        if is_corgi(card) and numbers.count(face(card)["number"]) > 1:
            s.collar_left = 0
            self._end_event(s)
            others = [p for p in range(len(s.players)) if p != s.turn]
            if len(others) == 1:  # nobody to choose between: the cards go to the only opponent
                self._give_to(s, others[0])
            else:
                s.phase = Phase.GIVE
            return True
        return False

    def _go_on_drawing(self, s: CrazyState) -> None:
        """Back to the drawer's draw (after a card, an Event, or a Bones/Fleas/Baseball placement)."""
        if s.phase is Phase.BASEBALL:
            return  # the same player draws again for their ignored Event
        s.phase = Phase.DRAW
        if s.collar_left and not s.corgis_left():
            s.collar_left = 0  # nothing left that could be drawn: the Collar's draws lapse
        if not s.collar_left:
            self._end_event(s)
            # "to a maximum of 4 cards": the fourth ends the draw (Ruling CC-10: so do a Collar's extra cards).
            if len(s.drawn) >= MAX_DRAW:
                self._keep_drawn(s)

    def _end_event(self, s: CrazyState) -> None:
        # "Discard the Event card after it is resolved".
        if s.event is not None:
            s.discard.append(s.event)
            s.event = None

    def _resolve_event(self, s: CrazyState, card: str) -> None:
        # "When you reveal an Event Card, resolve the Event immediately. Event cards are not counted toward the
        # number of cards you have drawn this turn."
        s.event = card
        event = face(card)["event"]
        if event == "baseball":
            # Ruling CC-4: in turn order from the drawer, each draws and places before the next draws.
            n = len(s.players)
            s.baseball = [(s.turn + i) % n for i in range(n)]
            self._next_baseball(s)
        elif event == "bones":
            # "You may choose a Corgi card (non Wild) from the discard pile" (Ruling CC-5: none there, no effect).
            if any(is_corgi(c) for c in s.discard):
                s.phase = Phase.BONES
            else:
                self._go_on_drawing(s)
        elif event == "fleas":
            # "Immediately steal a visible card ... from an opponent's Kennel" (Rulings CC-2, CC-5).
            if self._flea_targets(s):
                s.phase = Phase.FLEAS
            else:
                self._go_on_drawing(s)
        elif event == "collar":
            # "You are forced to draw two more cards from the deck. You may still 'bust' as normal."
            s.collar_left = COLLAR_DRAWS
            self._go_on_drawing(s)
        else:
            # Bowl: "Take a peek at the top card of the deck and decide whether to stop drawing cards immediately.
            # (You might end up with only 0-1 cards this turn.)" The peek is unseen; the stop is the action.
            self._end_event(s)
            s.bowl_offer = True
            self._go_on_drawing(s)

    def _stop(self, s: CrazyState, action: Stop) -> None:
        self._only(s, action.player, s.turn, "draw")
        refusal = self._stop_refusal(s)
        if refusal is not None:
            raise refusal
        self._keep_drawn(s)

    @staticmethod
    def _stop_refusal(s: CrazyState) -> IllegalMove | None:
        if s.collar_left:
            more = "card" if s.collar_left == 1 else f"{s.collar_left} cards"
            return IllegalMove("collar", f"The Collar forces you to draw {more} more before you may stop.")
        # "you must reveal at least 2 cards" — except right after a Bowl (Ruling CC-11), or with nothing to draw.
        if len(s.drawn) < MIN_DRAW and not s.bowl_offer and s.corgis_left():
            return IllegalMove("draw-two", f"Reveal at least {MIN_DRAW} cards before stopping "
                               f"({len(s.drawn)} revealed so far).")
        return None

    def _keep_drawn(self, s: CrazyState) -> None:
        # "If you don't want to draw cards anymore, you keep the cards you have revealed, and proceed to the
        # Placement phase."
        cards, s.drawn, s.bowl_offer = s.drawn, [], False
        self._to_placement(s, s.turn, cards, After.END_TURN)

    def _give(self, s: CrazyState, action: Give) -> None:
        self._only(s, action.player, s.turn, "give the cards")
        self._seat(s, action.to, "recipient")
        # "You must now give all the cards revealed so far ... to another player of your choice."
        if action.to == action.player:
            raise IllegalMove("give-to-another", "A bust gives the revealed cards to another player, not yourself.")
        self._give_to(s, action.to)

    def _give_to(self, s: CrazyState, seat: int) -> None:
        # "This player will then carry out the Placement phase instead of you." (Ruling CC-8: the draw zone's cards.)
        cards, s.drawn = s.drawn, []
        self._to_placement(s, seat, cards, After.END_TURN)

    def _next_turn(self, s: CrazyState) -> None:
        # "players each taking 1 turn after the other clockwise" (Ruling CC-6: after a bust too, from the drawer).
        s.turn = (s.turn + 1) % len(s.players)
        s.turn_no += 1
        s.phase = Phase.DRAW
        s.collar_left, s.bowl_offer = 0, False
        if not s.corgis_left():
            # Ruling CC-16: every Corgi and Wild sits in a Kennel, so nobody can ever draw again.
            self._most_points(s, "No card is left to draw")

    def _most_points(self, s: CrazyState, why: str) -> None:
        """End the game with the most points winning, tied players sharing the victory."""
        best = max(s.points)
        winners = tuple(p for p, pts in enumerate(s.points) if pts == best)
        shared = ": a shared victory" if len(winners) > 1 else ""
        self._finish(s, winners, f"{why}; {best} points is the most{shared}")

    # ----------------------------------------------------------------------------------------- events
    def _next_baseball(self, s: CrazyState) -> None:
        if s.baseball and s.corgis_left():
            s.phase = Phase.BASEBALL
            return
        s.baseball = []
        # Ruling CC-4/CC-7: the Baseball ends when everyone has placed; then whoever has the most points at or
        # above 5 wins ("In case of a tie (due to the Baseball event), all tied players share a combined victory.")
        if max(s.points) >= WIN_POINTS:
            self._most_points(s, "Reached 5 points in a Baseball")
            return
        s.phase = Phase.DRAW
        self._go_on_drawing(s)

    def _bones(self, s: CrazyState, action: TakeBones) -> None:
        self._only(s, action.player, s.turn, "choose")
        if action.card is None:
            self._go_on_drawing(s)
            return
        self._card(action.card)
        if not is_corgi(action.card):
            raise IllegalMove("bones-corgi-only", "Bones takes a Corgi card (not a Wild or an Event).")
        if action.card not in s.discard:
            raise IllegalMove("not-in-discard", f"The {card_name(action.card)} is not in the discard pile.")
        # "and immediately add it to your Kennels."
        s.discard.remove(action.card)
        self._to_placement(s, s.turn, [action.card], After.DRAW)

    def _flea_targets(self, s: CrazyState) -> list[tuple[int, int]]:
        """(seat, Kennel) of every opponent Kennel with a card to steal: its uncovered top card (Ruling CC-2)."""
        return [(seat, k) for seat in range(len(s.players)) if seat != s.turn
                for k in range(KENNELS) if s.kennels[seat][k]]

    def _fleas(self, s: CrazyState, action: Steal) -> None:
        self._only(s, action.player, s.turn, "choose")
        self._seat(s, action.target, "target")
        self._kennel(action.kennel)
        if action.target == action.player:
            raise IllegalMove("fleas-opponent", "Fleas steal from an opponent's Kennel, not your own.")
        kennel = s.kennels[action.target][action.kennel]
        if not kennel:
            raise IllegalMove("empty-kennel", f"{s.players[action.target]}'s Kennel {action.kennel + 1} is empty.")
        # "Immediately steal a visible card (a card not covered by others) ... and place it into your Kennels."
        card = kennel.pop()
        self._to_placement(s, s.turn, [card], After.DRAW)

    # ----------------------------------------------------------------------------------------- placement
    def _to_placement(self, s: CrazyState, seat: int, cards: list[str], after: After) -> None:
        s.placer, s.to_place, s.after = seat, list(cards), after
        s.phase = Phase.PLACE
        if not cards:
            self._placed_all(s)

    def _place(self, s: CrazyState, action: Place) -> None:
        assert s.placer is not None
        self._only(s, action.player, s.placer, "place cards")
        self._card(action.card)
        self._kennel(action.kennel)
        if action.card not in s.to_place:
            waiting = names(s.to_place)
            raise IllegalMove("not-to-place", f"The {card_name(action.card)} is not waiting to be placed "
                              f"({s.players[s.placer]} is placing: {waiting}).")
        # Ruling CC-3: after a forced discard, the card that fit nowhere starts the new set in the emptied Kennel.
        if s.fresh_kennel is not None and (action.kennel != s.fresh_kennel or action.card not in s.misfits):
            raise IllegalMove("start-the-emptied-kennel", f"Kennel {s.fresh_kennel + 1} was emptied for the "
                              f"{names(s.misfits)}: place it there to start a new set.")
        kennel = s.kennels[action.player][action.kennel]
        # "If you cannot place a card without creating an invalid combination, you must discard all the cards from
        # one of your Kennels and start a new one."
        if not fits(kennel, action.card):
            raise IllegalMove("breaks-the-set", why_not(kennel, action.card))
        s.to_place.remove(action.card)
        s.fresh_kennel, s.misfits = None, []
        kennel.append(action.card)
        if len(kennel) == SET_SIZE:
            if s.declare_wilds and any(is_wild(c) for c in kennel):
                # "You can decide on what it is when you complete a set."
                s.phase, s.declaring, s.declared = Phase.DECLARE, action.kennel, []
                return
            self._score(s, action.player, action.kennel, ())
        self._placed_one(s)

    def _placed_one(self, s: CrazyState) -> None:
        if s.phase is Phase.OVER:
            return
        if s.to_place:
            s.phase = Phase.PLACE
        else:
            self._placed_all(s)

    def _placed_all(self, s: CrazyState) -> None:
        s.placer = None
        if s.after is After.END_TURN:
            self._next_turn(s)
        elif s.after is After.BASEBALL:
            s.baseball.pop(0)
            self._next_baseball(s)
        else:
            self._go_on_drawing(s)

    def _discard_kennel(self, s: CrazyState, action: DiscardKennel) -> None:
        assert s.placer is not None
        self._only(s, action.player, s.placer, "place cards")
        self._kennel(action.kennel)
        kennels = s.kennels[action.player]
        # "If it is not possible to legally place a card in any Kennel, then you must discard all the cards in one
        # of your Kennels and start a new set." (Ruling CC-3: only then.)
        misfits = sorted({c for c in s.to_place if not any(fits(k, c) for k in kennels)})
        if not misfits:
            raise IllegalMove("no-misfit", "Every card still to place fits one of your Kennels: a Kennel is "
                              "discarded only when a card fits none.")
        s.discard.extend(kennels[action.kennel])
        kennels[action.kennel] = []
        s.fresh_kennel, s.misfits = action.kennel, misfits

    def _declare(self, s: CrazyState, action: DeclareWild) -> None:
        assert s.placer is not None and s.declaring is not None
        self._only(s, action.player, s.placer, "declare the Wild")
        self._card(action.card)
        if not is_corgi(action.card):
            raise IllegalMove("declare-a-corgi", "A Wild is declared as a Corgi: a colour, a number and a fur.")
        kennel = s.kennels[s.placer][s.declaring]
        corgis = [c for c in kennel if is_corgi(c)]
        if not possible_kinds([*corgis, *s.declared, action.card]):
            raise IllegalMove("declared-no-set", f"As a {card_name(action.card)} the Wild would leave "
                              f"{names(corgis)} no valid set.")
        s.declared.append(action.card)
        if len(s.declared) == sum(is_wild(c) for c in kennel):
            self._score(s, s.placer, s.declaring, tuple(s.declared))
            s.declaring, s.declared = None, []
            self._placed_one(s)

    def _score(self, s: CrazyState, seat: int, k: int, declared: tuple[str, ...]) -> None:
        # "When you complete a valid set in one of your Kennels, immediately take the corresponding number of point
        # markers and discard all the cards in that Kennel."
        cards = s.kennels[seat][k]
        as_declared = [c for c in cards if not is_wild(c)] + list(declared)
        score = best_score(as_declared if declared else cards)
        assert score is not None
        s.scored.append(ScoredSet(seat, tuple(cards), declared, score))
        s.points[seat] += score.points
        s.discard.extend(cards)
        s.kennels[seat][k] = []
        # "When a player reaches 5 points or more, the game ends and they win immediately." (Ruling CC-4: a
        # Baseball is finished first.)
        if s.points[seat] >= WIN_POINTS and s.after is not After.BASEBALL:
            self._finish(s, (seat,), f"Reached {s.points[seat]} points")

    @staticmethod
    def _finish(s: CrazyState, winners: tuple[int, ...], reason: str) -> None:
        s.result = Outcome(winners, reason)
        s.phase = Phase.OVER

    # ----------------------------------------------------------------------------------------- menus
    def legal_actions(self, state: CrazyState) -> list[Action]:
        s = state
        if not s.full_information:
            raise ValueError("Legal moves are only known when the deck order is (full-information play).")
        phase = s.current
        if phase is Phase.DRAW:
            return self._draw_options(s)
        if phase is Phase.BASEBALL:
            return [Reveal(s.baseball[0], s.deck[0])]
        if phase is Phase.GIVE:
            return [Give(s.turn, p) for p in range(len(s.players)) if p != s.turn]
        if phase is Phase.PLACE:
            return self._place_options(s)
        if phase is Phase.DECLARE:
            return self._declare_options(s)
        if phase is Phase.BONES:
            corgis = sorted({c for c in s.discard if is_corgi(c)})
            return [TakeBones(s.turn, None), *(TakeBones(s.turn, c) for c in corgis)]
        if phase is Phase.FLEAS:
            return [Steal(s.turn, seat, k) for seat, k in self._flea_targets(s)]
        return []

    def _draw_options(self, s: CrazyState) -> list[Action]:
        options: list[Action] = []
        if s.corgis_left():
            options.append(Reveal(s.turn, s.deck[0]))
        if self._stop_refusal(s) is None:
            options.append(Stop(s.turn))
        return options

    def _place_options(self, s: CrazyState) -> list[Action]:
        assert s.placer is not None
        seat, kennels = s.placer, s.kennels[s.placer]
        if s.fresh_kennel is not None:
            return [Place(seat, c, s.fresh_kennel) for c in s.misfits]
        cards = sorted(set(s.to_place))
        options: list[Action] = [Place(seat, c, k) for c in cards for k in range(KENNELS) if fits(kennels[k], c)]
        if any(not any(fits(k, c) for k in kennels) for c in cards):
            options += [DiscardKennel(seat, k) for k in range(KENNELS)]
        return options

    def _declare_options(self, s: CrazyState) -> list[Action]:
        assert s.placer is not None and s.declaring is not None
        corgis = [c for c in s.kennels[s.placer][s.declaring] if is_corgi(c)] + s.declared
        return [DeclareWild(s.placer, f.id) for f in deck() if f.kind == "corgi" and possible_kinds([*corgis, f.id])]

    def to_move(self, state: CrazyState) -> tuple[int, ...]:
        s = state
        phase = s.current
        if phase in (Phase.DRAW, Phase.GIVE, Phase.BONES, Phase.FLEAS):
            return (s.turn,)
        if phase is Phase.BASEBALL:
            return (s.baseball[0],)
        if phase in (Phase.PLACE, Phase.DECLARE) and s.placer is not None:
            return (s.placer,)
        return ()

    # ----------------------------------------------------------------------------------------- views
    def _prompt(self, s: CrazyState) -> str:
        who = s.players
        phase = s.current
        if phase is Phase.SHUFFLE:
            return "Shuffle the deck and put it in the middle of the table."
        if phase is Phase.RESHUFFLE:
            return "The deck is empty: shuffle the discard pile into a new deck."
        if phase is Phase.DRAW:
            return self._draw_prompt(s)
        if phase is Phase.GIVE:
            return f"{who[s.turn]} busted: give the {len(s.drawn)} revealed cards to another player."
        if phase is Phase.BASEBALL:
            return f"Baseball: {who[s.baseball[0]]} draws a card and places it in their Kennels."
        if phase is Phase.BONES:
            return f"Bones: {who[s.turn]} may take a Corgi card from the discard pile into their Kennels."
        if phase is Phase.FLEAS:
            return f"Fleas: {who[s.turn]} steals the top card of an opponent's Kennel."
        if phase is Phase.PLACE:
            assert s.placer is not None
            if s.fresh_kennel is not None:
                return f"{who[s.placer]}: start Kennel {s.fresh_kennel + 1} with the {names(s.misfits)}."
            return f"{who[s.placer]} places the {names(s.to_place)} in their Kennels."
        if phase is Phase.DECLARE:
            assert s.placer is not None and s.declaring is not None
            return f"{who[s.placer]} completed Kennel {s.declaring + 1}: declare what its Wild stands for."
        return "The game is over."

    def _draw_prompt(self, s: CrazyState) -> str:
        name = s.players[s.turn]
        if s.collar_left:
            return f"Collar: {name} must draw {s.collar_left} more card{'s' if s.collar_left > 1 else ''}."
        if s.bowl_offer:
            return f"Bowl: {name} peeks at the top card, then stops or draws on."
        if len(s.drawn) < MIN_DRAW and s.corgis_left():
            return f"{name} reveals a card ({len(s.drawn)} of at least {MIN_DRAW})."
        return f"{name} reveals another card or stops ({len(s.drawn)} of at most {MAX_DRAW})."

    @staticmethod
    def markers(points: Sequence[int]) -> list[str]:
        """The point markers each player should hold, from the box's 6 large (3) and 12 small (1).

        Large markers go one at a time to whoever holds the most points in small ones, so the box never runs
        short: at most 27 points are out (Ruling CC-14), and once the six large ones are out the rest is at most
        9 small ones.
        """
        large = [0] * len(points)
        for _ in range(LARGE_MARKERS_IN_THE_BOX):
            in_small = [p - LARGE_MARKER * n for p, n in zip(points, large, strict=True)]
            seat = max(range(len(points)), key=in_small.__getitem__)  # a tie: the first seat
            if in_small[seat] < LARGE_MARKER:
                break
            large[seat] += 1
        return [
            " + ".join([f"{n} large"] * bool(n) + [f"{p - LARGE_MARKER * n} small"] * bool(p - LARGE_MARKER * n))
            or "none"
            for p, n in zip(points, large, strict=True)
        ]

    def scoreboard(self, state: CrazyState) -> Scoreboard:
        s = state
        waiting = set(self.to_move(s))
        markers = self.markers(s.points)
        rows = tuple(
            ScoreRow(
                seat=i,
                name=name,
                cells=(s.points[i], *(names(k) if k else "" for k in s.kennels[i]), markers[i]),
                active=i in waiting,
            )
            for i, name in enumerate(s.players)
        )
        if s.phase is Phase.OVER:
            phase = f"Game over after turn {s.turn_no}"
        elif s.phase is Phase.SHUFFLE:
            phase = "Before the first shuffle"
        else:
            zone = f" · drawn: {names(s.drawn)}" if s.drawn else ""
            phase = f"Turn {s.turn_no} · {s.players[s.turn]} draws{zone}"
        columns = ("Points", *(f"Kennel {k + 1}" for k in range(KENNELS)), "Markers")
        return Scoreboard(phase, self._prompt(s), columns, rows)

    def view(self, state: CrazyState) -> dict[str, Any]:
        s = state
        view: dict[str, Any] = {
            "phase": s.current.value,
            "turn": s.turn,
            "turn_number": s.turn_no,
            "points": list(s.points),
            "kennels": [[list(k) for k in seat] for seat in s.kennels],
            "drawn": list(s.drawn),
            "event": s.event,
            "collar_draws_left": s.collar_left,
            "bowl_stop_allowed": s.bowl_offer,
            "placer": s.placer,
            "to_place": list(s.to_place),
            "fresh_kennel": s.fresh_kennel,
            "baseball_to_draw": list(s.baseball),
            "declaring_kennel": s.declaring,
            "discard": list(s.discard),
            "deck": len(s.deck),
            "scored": [
                {"player": x.seat, "cards": list(x.cards), "declared": list(x.declared), "set": x.score.kind.value,
                 "fur": x.score.fur, "points": x.score.points}
                for x in s.scored
            ],
            "to_move": list(self.to_move(s)),
        }
        if s.full_information:
            view["deck_order"] = list(s.deck)
        return view

    def outcome(self, state: CrazyState) -> Outcome | None:
        return state.result

    def describe(self, state: CrazyState, action: Action) -> str:
        who = state.players
        match action:
            case Deal() | DeckOrder() if state.phase is Phase.SHUFFLE:
                return "The deck was shuffled."
            case Reshuffle() | DeckOrder():
                return f"The deck ran out: the discard pile ({len(state.discard)} cards) was shuffled into a new deck."
            case Reveal(player=p, card=c) if is_card(c):
                return self._describe_reveal(state, p, c)
            case Stop(player=p):
                return f"{who[p]} stops and keeps {len(state.drawn)} card{'s' * (len(state.drawn) != 1)}."
            case Give(player=p, to=q):
                return f"{who[p]} gives the revealed cards to {who[q]}."
            case Place(player=p, card=c, kennel=k) if is_card(c):
                return self._describe_place(state, p, c, k)
            case DiscardKennel(player=p, kennel=k):
                return f"{who[p]} cannot place a card: Kennel {k + 1} is discarded."
            case DeclareWild(player=p, card=c) if is_card(c):
                return f"{who[p]} declares the Wild a {card_name(c)}."
            case TakeBones(player=p, card=None):
                return f"Bones: {who[p]} takes nothing from the discard pile."
            case TakeBones(player=p, card=c) if is_card(c):
                return f"Bones: {who[p]} takes the {card_name(c)} from the discard pile."
            case Steal(player=p, target=t, kennel=k) if 0 <= t < len(who) and 0 <= k < KENNELS:
                top = state.kennels[t][k]
                card = f"the {card_name(top[-1])}" if top else "a card"
                return f"Fleas: {who[p]} steals {card} from {who[t]}'s Kennel {k + 1}."
        return action.type

    def _describe_reveal(self, s: CrazyState, seat: int, card: str) -> str:
        text = f"{s.players[seat]} reveals the {card_name(card)}."
        if is_event(card) and (s.phase is Phase.BASEBALL or s.collar_left):
            return text + " An Event while resolving an Event: discarded, draw another."
        if is_event(card):
            return f"{text} {EVENT_EFFECTS[str(face(card)['event'])]}"
        if is_corgi(card) and s.phase is Phase.DRAW and any(
            is_corgi(c) and face(c)["number"] == face(card)["number"] for c in s.drawn
        ):
            return text + f" Bust: a second {face(card)['number']}!"
        if is_wild(card) and s.phase is Phase.DRAW and any(is_wild(c) for c in s.drawn):
            return text + " Bust: both Wilds! The revealed cards are discarded."
        return text

    def _describe_place(self, s: CrazyState, seat: int, card: str, k: int) -> str:
        text = f"{s.players[seat]} places the {card_name(card)} in Kennel {k + 1}."
        kennel = s.kennels[seat][k] if 0 <= k < KENNELS else []
        if len(kennel) == 4 and fits(kennel, card) and not (s.declare_wilds and any(map(is_wild, [*kennel, card]))):
            score = best_score([*kennel, card])
            assert score is not None
            text += f" Set complete: {score.describe()}."
        return text
