"""PigzUp! (``../shared/rulebooks/pigzup.txt``), with the die variation.

The rules core sees flips and verdicts. Who won a race is the match judge's business (load cells, tilt and
buttons; ``companion/table/pigzup_judge.py``) or the referee's; the core checks the verdict fits the race and
moves the cards. Rulings are cited as "Ruling PZ-n" (``docs/rulings.md``).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from companion.games.actions import Action, Deal
from companion.games.base import (
    Cards,
    DecisionRequired,
    GameOption,
    GameSetup,
    IllegalMove,
    MalformedAction,
    OptionKind,
    Outcome,
    Ruleset,
    Scoreboard,
    ScoreRow,
)
from companion.games.decks import Deck, DeckError, Face, load_deck, matches, registered_deck
from companion.games.pigzup.actions import Flip, MatchVerdict, RollDie, WrongStyle
from companion.games.pigzup.state import MatchResult, Phase, PigzState, Race, Style
from companion.games.pigzup.stats import reaction_stats

DIE_STYLES = (Style.ONE_HAND, Style.ONE_HAND, Style.FINGERS, Style.FINGERS, Style.EARS, Style.EARS)


def card_name(face: Face) -> str:
    colours = "/".join(str(v) for k, v in face.attributes.items() if k.startswith("color"))
    return f"{face['number']} {colours}"


class PigzUp(Ruleset[PigzState]):
    name: ClassVar[str] = "pigzup"
    title: ClassVar[str] = "PigzUp!"
    variants: ClassVar[dict[str, str]] = {
        "standard": "Flip, match, race to stack the piggies; first out of cards wins.",
        "die": "Using the die: each match must be stacked in the style the die shows.",
    }
    # Ruling PZ-14: up to six pads on the Pico, and at least two players to race.
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    action_types: ClassVar[tuple[type[Action], ...]] = (Deal, RollDie, Flip, MatchVerdict, WrongStyle)
    options: ClassVar[tuple[GameOption, ...]] = (
        GameOption("first_player", "Who flips first (the youngest player)", OptionKind.SEAT, "the first player named"),
        GameOption("deck", "Which deck", OptionKind.CHOICE, "the PigzUp! deck", choices=("pigzup",)),
    )

    def __init__(self) -> None:
        super().__init__()
        self._decks: dict[str, Deck] = {}

    def deck(self, state: PigzState) -> Deck:
        """The game's deck, chosen by name from the registered ones (see ``registered_deck``)."""
        name = registered_deck(state.setup.options.get("deck", "pigzup"))
        if name not in self._decks:
            self._decks[name] = load_deck(name)
        return self._decks[name]

    # ----------------------------------------------------------------------------------------- setup
    def setup(self, setup: GameSetup) -> PigzState:
        self.check_setup(setup)
        self.check_options(setup)
        n = len(setup.players)
        # "Starting with the youngest player": the referee says who that is (Ruling PZ-16).
        first = self.seat_option(setup, "first_player")
        state = PigzState(setup=setup, deck_size=0, die=setup.variant == "die", turn=first)
        try:
            deck = self.deck(state)
        except DeckError as exc:
            raise MalformedAction("bad-option", str(exc)) from None
        if any(not isinstance(face.get("number"), int) for face in deck):
            raise MalformedAction("bad-option", f"Deck {deck.name!r} is not a PigzUp! deck (cards need a number).")
        state.deck_size = deck.size
        state.stack_counts = [0] * n
        state.faceup = [[] for _ in range(n)]
        if setup.full_information:
            state.stacks = [[] for _ in range(n)]
            state.out_of_play = sorted(deck.cards())
        return state

    def chance(self, state: PigzState, rng: random.Random) -> Action | None:
        if state.phase is Phase.DEAL:
            return Deal(rng.getrandbits(32) if state.full_information else None)
        if state.phase is Phase.ROLL:
            return RollDie(rng.getrandbits(32))  # the companion rolls the die, at a real table too
        return None

    # ----------------------------------------------------------------------------------------- apply
    def apply(self, state: PigzState, action: Action) -> PigzState:
        action = self.decode(action)
        if state.phase is Phase.OVER:
            raise IllegalMove("game-over", "The game is over; start a new one.")
        handlers = {
            Deal: (Phase.DEAL, self._deal),
            RollDie: (Phase.ROLL, self._roll),
            Flip: (Phase.FLIP, self._flip),
            MatchVerdict: (Phase.RACE, self._verdict),
            WrongStyle: (Phase.RACE, self._wrong_style),
        }
        phase, handler = handlers[type(action)]
        if state.phase is not phase:
            raise self._not_now(state, action)
        s = state.clone()
        handler(s, action)
        return s

    def _not_now(self, s: PigzState, action: Action) -> DecisionRequired | IllegalMove:
        if s.phase is Phase.RACE:
            assert s.race is not None
            a, b = (s.players[p] for p in s.race.racers)
            # Ruling PZ-9: nobody flips during a race.
            return DecisionRequired("race-on", f"{a} and {b} are racing for {s.race.piggies} piggies: "
                                    "the race needs a verdict first.")
        if s.phase in (Phase.DEAL, Phase.ROLL):
            return DecisionRequired(f"waiting-{s.phase.value}", self._prompt(s))
        return IllegalMove("no-race", f"There is no race to judge: {self._prompt(s)}")

    def _deal(self, s: PigzState, action: Deal) -> None:
        # "Shuffle the entire deck of cards and distribute them evenly amongst the players." Ruling PZ-14: the
        # cards left over when the deck does not divide evenly stay out of play, face down, so all start equal.
        n = len(s.players)
        each = s.deck_size // n
        s.stack_counts = [each] * n
        s.out_of_play_count = s.deck_size - each * n
        if s.stacks is not None:
            if action.seed is None:
                raise MalformedAction("bad-seed", "In this game a deal needs a seed.")
            cards = sorted(self.deck(s).cards())
            random.Random(action.seed).shuffle(cards)
            s.stacks = [cards[i * each : (i + 1) * each] for i in range(n)]
            s.out_of_play = cards[n * each :]
        elif action.seed is not None:
            raise MalformedAction("bad-seed", "In this game a deal needs no seed.")
        s.phase = Phase.ROLL if s.die else Phase.FLIP

    def _roll(self, s: PigzState, action: RollDie) -> None:
        # "The die indicates how to pick up and stack the piggies." (Ruling PZ-15: two faces per style.)
        s.die_face = random.Random(action.seed).randint(1, 6)
        s.style = DIE_STYLES[s.die_face - 1]
        s.phase = Phase.FLIP

    def _flip(self, s: PigzState, action: Flip) -> None:
        self.check_seat(s.players, action.player)
        deck = self.deck(s)
        if action.card not in deck:
            raise MalformedAction("no-such-card", f"{action.card!r} is not a card of the {deck.title} deck.")
        name = s.players[action.player]
        # "Starting with the youngest player and moving clockwise, players flip their top cards" (Ruling PZ-9).
        if action.player != s.turn:
            raise IllegalMove("not-your-turn", f"It is {s.players[s.turn]}'s turn to flip, not {name}'s.")
        face = deck.face(action.card)
        if s.stacks is not None:
            if s.stacks[action.player][0] != action.card:
                raise IllegalMove("not-top-card", f"{card_name(face)} is not {name}'s top card.")
            s.stacks[action.player].pop(0)
        else:
            self._check_unseen(s, action.card, face)
        s.stack_counts[action.player] -= 1
        s.faceup[action.player].append(action.card)
        opponent = self._first_match(s, action.player, face)
        if opponent is not None:
            # "As soon as two players reveal matching cards, they race to stack up the requested number of
            # piggies." "A piggy pile needs to contain as many piggies as the number on the two matching cards."
            top = s.faceup[opponent][-1]
            s.race = Race(action.player, opponent, int(face["number"]), (action.card, top))
            s.phase = Phase.RACE
            return
        if not any(s.stack_counts):
            # "If all players still in play have flipped all their cards and no match was declared, the player
            # with the least amount of cards wins." (Ruling PZ-12: a tie shares the win.)
            fewest = min(len(f) for f in s.faceup)
            winners = tuple(p for p in range(len(s.players)) if len(s.faceup[p]) == fewest)
            s.result = Outcome(winners, f"Everyone has flipped every card: fewest cards wins ({fewest})")
            s.phase = Phase.OVER
            return
        s.turn = self._next_flipper(s, action.player)

    def _check_unseen(self, s: PigzState, card: str, face: Face) -> None:
        """Each face is printed once: a card already face up or discarded cannot be flipped again (a misread)."""
        for seat, pile in enumerate(s.faceup):
            if card in pile:
                where = f"face up in front of {s.players[seat]}"
                raise IllegalMove("card-already-seen", f"{card_name(face)} is already {where}: check that card.")
        if card in s.discard:
            raise IllegalMove("card-already-seen", f"{card_name(face)} is in the discard pile: check that card.")

    def _first_match(self, s: PigzState, flipper: int, face: Face) -> int | None:
        """Ruling PZ-2/3: the new card against the other players' visible top cards; if it matches several, the
        first matching player clockwise from the flipper races (there are only 8 piggies)."""
        deck, n = self.deck(s), len(s.players)
        for step in range(1, n):
            seat = (flipper + step) % n
            if s.faceup[seat] and matches(face, deck.face(s.faceup[seat][-1])):
                return seat
        return None

    def _next_flipper(self, s: PigzState, after: int) -> int:
        """Clockwise, skipping players with nothing left to flip (Ruling PZ-10: they stay in play)."""
        n = len(s.players)
        for step in range(1, n + 1):
            seat = (after + step) % n
            if s.stack_counts[seat]:
                return seat
        raise AssertionError("nobody has a card to flip, yet the game is not over")

    def _verdict(self, s: PigzState, action: MatchVerdict) -> None:
        assert s.race is not None
        race = s.race
        if action.winner is not None and action.winner not in race.racers:
            self.check_seat(s.players, action.winner, "winner")
            a, b = (s.players[p] for p in race.racers)
            raise IllegalMove("not-racing", f"{s.players[action.winner]} is not in this race ({a} vs {b}).")
        s.results.append(MatchResult(race, action.winner, action.reason, action.reaction_ms, action.stacking_ms))
        s.race = None
        if action.winner is None:
            # Ruling PZ-6: a void match (both toppled, nobody finished) — both racers take their cards back.
            for seat in race.racers:
                self._return_under_stack(s, seat)
            s.turn = self._next_flipper(s, race.flipper)
        else:
            loser = race.opponent if action.winner == race.flipper else race.flipper
            # "Whenever you win a match, put your flipped cards in a common discard pile."
            s.discard.extend(s.faceup[action.winner])
            s.faceup[action.winner] = []
            # "Whenever you lose a match, return your flipped cards face down to the bottom of your stack."
            self._return_under_stack(s, loser)
            # "The first player to run out of cards wins the game." (Ruling PZ-11: no cards at all.)
            if s.cards_held(action.winner) == 0:
                s.result = Outcome((action.winner,), "First to run out of cards")
                s.phase = Phase.OVER
                return
            # "the winner of the match resumes play by flipping a card" — or the next player with cards to flip.
            winner = action.winner
            s.turn = winner if s.stack_counts[winner] else self._next_flipper(s, winner)
        s.phase = Phase.ROLL if s.die else Phase.FLIP

    @staticmethod
    def _return_under_stack(s: PigzState, seat: int) -> None:
        # Ruling PZ-13: the face-up pile is turned over as one block, so the cards come back in the order they
        # were first flipped.
        pile = s.faceup[seat]
        s.stack_counts[seat] += len(pile)
        if s.stacks is not None:
            s.stacks[seat].extend(pile)
        s.faceup[seat] = []

    def _wrong_style(self, s: PigzState, action: WrongStyle) -> None:
        assert s.race is not None
        if not s.die:
            raise IllegalMove("no-die", "This game is played without the die: any stacking style is fine.")
        self.check_seat(s.players, action.player)
        if action.player not in s.race.racers:
            raise IllegalMove("not-racing", f"{s.players[action.player]} is not in this race.")
        # "if one player uses the wrong stacking style, the other player automatically wins the match."
        other = s.race.opponent if action.player == s.race.flipper else s.race.flipper
        assert s.style is not None
        reason = f"{s.players[action.player]} did not stack {s.style.value}."
        self._verdict(s, MatchVerdict(other, reason))

    # ----------------------------------------------------------------------------------------- views
    def legal_actions(self, state: PigzState) -> list[Action]:
        s = state
        if s.stacks is None:
            raise ValueError("Legal moves are only known when the stacks are (full-information play).")
        if s.phase is Phase.FLIP:
            return [Flip(s.turn, s.stacks[s.turn][0])]
        if s.phase is Phase.RACE:
            assert s.race is not None
            verdicts: list[Action] = [MatchVerdict(p, "bot verdict") for p in s.race.racers]
            verdicts.append(MatchVerdict(None, "void"))
            if s.die:
                verdicts += [WrongStyle(p) for p in s.race.racers]
            return verdicts
        return []

    def to_move(self, state: PigzState) -> tuple[int, ...]:
        if state.phase is Phase.FLIP:
            return (state.turn,)
        if state.phase is Phase.RACE and state.race is not None:
            return state.race.racers
        return ()

    def _prompt(self, s: PigzState) -> str:
        names = s.players
        if s.phase is Phase.DEAL:
            return "Shuffle the whole deck and deal it evenly."
        if s.phase is Phase.ROLL:
            return f"{names[s.turn]} rolls the die."
        if s.phase is Phase.FLIP:
            style = f" (stack {s.style.value})" if s.style else ""
            return f"{names[s.turn]} to flip{style}."
        if s.phase is Phase.RACE:
            assert s.race is not None
            a, b = (names[p] for p in s.race.racers)
            style = f", {s.style.value}" if s.style else ""
            return f"PIGZUP race: {a} vs {b}, {s.race.piggies} piggies{style}!"
        return "The game is over."

    def scoreboard(self, state: PigzState) -> Scoreboard:
        s, deck = state, self.deck(state)
        waiting = set(self.to_move(s))
        wins = [sum(1 for r in s.results if r.winner == seat) for seat in range(len(s.players))]
        tops = [Cards(card_name(deck.face(pile[-1])), pile[-1:]) if pile else "" for pile in s.faceup]
        rows = tuple(
            ScoreRow(i, name, (s.stack_counts[i], len(s.faceup[i]), tops[i], wins[i]), active=i in waiting)
            for i, name in enumerate(s.players)
        )
        if s.phase is Phase.OVER:
            phase = "Game over"
        elif s.phase is Phase.RACE:
            phase = "Match!"
        else:
            phase = f"Flipping · {len(s.discard)} cards discarded"
        return Scoreboard(phase, self._prompt(s), ("Stack", "Face up", "Top card", "Matches won"), rows)

    def view(self, state: PigzState) -> dict[str, Any]:
        s = state
        view: dict[str, Any] = {
            "phase": s.phase.value,
            "turn": s.turn,
            "stack_counts": list(s.stack_counts),
            "faceup": [list(f) for f in s.faceup],
            "discard": len(s.discard),
            "out_of_play": s.out_of_play_count,
            "race": None if s.race is None else {
                "racers": list(s.race.racers), "piggies": s.race.piggies, "cards": list(s.race.cards)},
            "style": s.style.value if s.style else None,
            "die_face": s.die_face,
            "matches": [
                {"racers": list(r.race.racers), "winner": r.winner, "piggies": r.race.piggies, "reason": r.reason,
                 "reaction_ms": r.reaction_ms, "stacking_ms": r.stacking_ms}
                for r in s.results
            ],
        }
        if s.stacks is not None:
            view["stacks"] = [list(st) for st in s.stacks]
        return view

    def stats(self, state: PigzState) -> list[dict[str, Any]]:
        return reaction_stats(state)

    def outcome(self, state: PigzState) -> Outcome | None:
        return state.result

    def describe(self, state: PigzState, action: Action) -> str:
        names = state.players
        match action:
            case Deal():
                return f"{state.deck_size} cards dealt evenly to {len(names)} players."
            case RollDie(seed=seed):
                face = random.Random(seed).randint(1, 6)
                return f"The die shows {face}: stack {DIE_STYLES[face - 1].value}."
            case Flip(player=p, card=c):
                deck = self.deck(state)
                text = f"{names[p]} flipped {card_name(deck.face(c))}." if c in deck else f"{names[p]} flipped {c}."
                opponent = self._first_match(state, p, deck.face(c)) if c in deck else None
                if opponent is not None:
                    text += f" MATCH with {names[opponent]}: race for {deck.face(c)['number']} piggies!"
                return text
            case MatchVerdict(winner=None, reason=reason):
                return f"No winner: both take their cards back. {reason}".strip()
            case MatchVerdict(winner=w, reason=reason):
                return f"{names[w]} wins the match. {reason}".strip()
            case WrongStyle(player=p):
                return f"{names[p]} used the wrong stacking style and loses the match."
        return action.type
