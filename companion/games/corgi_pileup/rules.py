"""Corgi Pileup (``../shared/rulebooks/corgi-pileup.txt``), with the Underdog and Strategic variants.

Each rule below quotes the rulebook sentence it implements; the rulings for what the book leaves open are in
``docs/rulings.md`` (cited here as "Ruling CP-n").
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, ClassVar

from companion.games.actions import Action
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
from companion.games.corgi_pileup.actions import (
    ChooseLeader,
    ChooseSixTarget,
    Deal,
    Play,
    Reshuffle,
    ScoreOne,
    SixDiscard,
)
from companion.games.corgi_pileup.audit import audit_round
from companion.games.corgi_pileup.dealing import (
    FULL_DECK,
    check_card,
    explicit_deal,
    explicit_reshuffle,
    shuffled,
)
from companion.games.corgi_pileup.state import COPIES, TARGET, Claim, CorgiState, HandEvent, Phase, RoundScore

ROUND_LEADERS = ("winner", "table")
"""Option ``round_leader``: who leads a round's first trick. ``winner``: Ruling CP-6 (the last trick's winner, or
whom they named after a 10). ``table``: a house ruling lets the table choose, and each deal names the leader."""


def article(card: int) -> str:
    return f"an {card}" if card == 8 else f"a {card}"


class CorgiPileup(Ruleset[CorgiState]):
    name: ClassVar[str] = "corgi-pileup"
    title: ClassVar[str] = "Corgi Pileup"
    variants: ClassVar[dict[str, str]] = {
        "standard": "Five tricks a round; the highest score wins when someone passes 15.",
        "underdog": "Underdog: the lowest score still on the board wins.",
        "strategic": "Strategic: seven cards and seven tricks a round.",
        "underdog+strategic": "Both variants together.",
    }
    # "7 score markers"; a trick needs at least two players (Ruling CP-10).
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 7
    action_types: ClassVar[tuple[type[Action], ...]] = (
        Deal,
        Reshuffle,
        Play,
        ChooseSixTarget,
        SixDiscard,
        ChooseLeader,
        ScoreOne,
    )
    options: ClassVar[tuple[GameOption, ...]] = (
        GameOption("first_leader", "Who leads the first trick (who most recently pet a dog)", OptionKind.SEAT,
                   "the first player named"),
        GameOption("starting_scores", "Scores carried on from paper", OptionKind.SCORES, "everyone starts on 0",
                   low=0, high=TARGET),
        GameOption("round_leader", "Who leads each new round", OptionKind.CHOICE,
                   "the last round's winner (Ruling CP-6)", choices=ROUND_LEADERS),
    )

    # ----------------------------------------------------------------------------------------- setup
    def setup(self, setup: GameSetup) -> CorgiState:
        self.check_setup(setup)
        n = len(setup.players)
        self.check_options(setup)
        if setup.options.get("round_leader", "winner") not in ROUND_LEADERS:
            raise MalformedAction("bad-option", 'round_leader is "winner" (Ruling CP-6) or "table" (the table '
                                                "chooses who leads each round).")
        # "The player who most recently pet a dog leads the first trick": the referee says who (a seat).
        leader = self.seat_option(setup, "first_leader")
        # A game carried on from paper starts from the scores the markers show (default: everyone on 0).
        scores = self.scores_option(setup, "starting_scores", TARGET)
        state = CorgiState(
            setup=setup,
            # Strategic: "Deal each player 7 cards at the start of each round (instead of 5)."
            hand_size=7 if "strategic" in setup.variant else 5,
            underdog="underdog" in setup.variant,
            scores=list(scores),
            leader=leader,
            hand_counts=[0] * n,
            history=[[] for _ in range(n)],
        )
        if setup.full_information:
            state.hands = [[] for _ in range(n)]
            state.deck = list(FULL_DECK)
        return state

    def chance(self, state: CorgiState, rng: random.Random) -> Action | None:
        seed = rng.getrandbits(32) if state.full_information else None
        if state.phase is Phase.DEAL:
            return Deal(seed)
        if state.phase is Phase.RESHUFFLE:
            return Reshuffle(seed)
        return None

    # ----------------------------------------------------------------------------------------- apply
    def apply(self, state: CorgiState, action: Action) -> CorgiState:
        action = self.decode(action)
        if state.phase is Phase.OVER:
            raise IllegalMove("game-over", "The game is over; start a new one.")
        s = state.clone()
        handler = {
            Deal: self._deal,
            Reshuffle: self._reshuffle,
            Play: self._play,
            ChooseSixTarget: self._six_target,
            SixDiscard: self._six_discard,
            ChooseLeader: self._choose_leader,
            ScoreOne: self._score_one,
        }[type(action)]
        self._expect_phase(s, action)
        handler(s, action)
        return s

    def _expect_phase(self, s: CorgiState, action: Action) -> None:
        wanted = {
            Deal: Phase.DEAL,
            Reshuffle: Phase.RESHUFFLE,
            Play: Phase.PLAY,
            ChooseSixTarget: Phase.SIX_TARGET,
            SixDiscard: Phase.SIX_DISCARD,
            ChooseLeader: Phase.CHOOSE_LEADER,
            ScoreOne: Phase.SCORE_ONES,
        }[type(action)]
        if s.phase is wanted:
            explicit = getattr(action, "deck", None) is not None or getattr(action, "hands", None) is not None
            if action.chance and not explicit and (getattr(action, "seed", None) is None) == s.full_information:
                need = "a seed" if s.full_information else "no seed"
                raise MalformedAction("bad-seed", f"In this game a {action.type} needs {need}.")
            return
        if s.phase in (Phase.DEAL, Phase.RESHUFFLE):
            raise DecisionRequired("shuffle-first", "The cards must be shuffled and dealt first.")
        raise DecisionRequired(f"waiting-{s.phase.value}", self._prompt(s))

    def _deal(self, s: CorgiState, action: Deal) -> None:
        # "Shuffle the deck and deal 5 cards to each player." / "To start a new round, reshuffle the deck".
        n = len(s.players)
        explicit = action.hands is not None or action.deck is not None
        if not s.full_information and explicit:
            raise MalformedAction("bad-deal", "The cards are hidden in this game: a deal records a real shuffle. "
                                              "Start the game with full information to give the cards.")
        if explicit and action.seed is not None:
            raise MalformedAction("bad-deal", "A deal gives a seed or the cards, not both.")
        hands = explicit_deal(action.hands, action.deck, s.players, s.hand_size) if explicit else None
        self._round_leader(s, action.leader)
        s.round += 1
        s.trick_no = 1
        s.trick = []
        s.hand_counts = [s.hand_size] * n
        s.history = [[] for _ in range(n)]
        s.deck_count = len(FULL_DECK) - s.hand_size * n
        if hands is not None:
            s.hands, s.deck = hands
        elif s.full_information:
            assert action.seed is not None
            deck = shuffled(FULL_DECK, action.seed)
            s.hands = [sorted(deck.pop() for _ in range(s.hand_size)) for _ in range(n)]
            s.deck = deck
        s.set_aside = []
        s.phase = Phase.PLAY

    def _reshuffle(self, s: CorgiState, action: Reshuffle) -> None:
        # 6: "If the deck is empty, shuffle the cards from previous tricks to create a new deck." (Ruling CP-3)
        pile = s.set_aside
        s.deck_count = len(pile)
        if action.deck is not None:
            if not s.full_information:
                raise MalformedAction("bad-deal", "The cards are hidden in this game: a reshuffle records a real "
                                                  "shuffle.")
            if action.seed is not None:
                raise MalformedAction("bad-deal", "A reshuffle gives a seed or the deck, not both.")
            s.deck = explicit_reshuffle(action.deck, pile)
        elif s.full_information:
            assert action.seed is not None
            s.deck = shuffled(pile, action.seed)
        s.set_aside = []
        self._draw(s)

    def _play(self, s: CorgiState, action: Play) -> None:
        self.check_seat(s.players, action.player, "player")
        check_card(action.card)
        turn = (s.leader + len(s.trick)) % len(s.players)
        if action.player != turn:
            raise IllegalMove("not-your-turn", f"It is {s.players[turn]}'s turn, not {s.players[action.player]}'s.")
        self._check_card_exists(s, action)
        claim = self._climb_or_claim(s, action)
        if s.hands is not None:
            s.hands[action.player].remove(action.card)
        s.hand_counts[action.player] -= 1
        s.trick.append((action.player, action.card))
        s.history[action.player].append(HandEvent(s.trick_no, "play", action.card, claim))
        # "After everyone has played a card, the 'trick' is over".
        if len(s.trick) == len(s.players):
            self._finish_trick(s)

    def _check_card_exists(self, s: CorgiState, action: Play) -> None:
        name, card = s.players[action.player], action.card
        if s.hands is not None:
            if card not in s.hands[action.player]:
                raise IllegalMove("not-in-hand", f"{name} has no {card} in hand.")
            return
        # The referee cannot see hands, but there are only five of each number: a sixth on the table is a misread.
        on_table = Counter(s.set_aside) + Counter(c for _, c in s.trick)
        if on_table[card] >= COPIES:
            raise IllegalMove(
                "no-such-copy", f"All {COPIES} {card}s are already on the table this round: check that card."
            )

    def _climb_or_claim(self, s: CorgiState, action: Play) -> Claim | None:
        """Check the climb / lowest / highest rule; return the claim a face-down hand makes, if any."""
        if not s.trick:
            return None  # "leads ... by playing any card from their hand"
        highest = max(c for _, c in s.trick)
        # A. "Climb" by playing a card with a number greater than or equal to the highest card played.
        if action.card >= highest:
            return None
        # 3: "Once a 3 has been played into a trick, players may no longer play their lowest card. They must
        # instead climb -or- play their highest card."
        three_in = any(c == 3 for _, c in s.trick)
        claim = Claim.HIGHEST if three_in else Claim.LOWEST
        if s.hands is not None:
            hand = s.hands[action.player]
            required = max(hand) if three_in else min(hand)
            if action.card != required:
                which = "highest" if three_in else "lowest"
                reason = "A 3 is in this trick: climb" if three_in else "Climb"
                raise IllegalMove(
                    f"not-{which}",
                    f"{reason} to {highest} or more, or play your {which} card ({required}).",
                )
        return claim

    def _finish_trick(self, s: CorgiState) -> None:
        # "the highest played card wins the trick. In the case of a tie, the tied card that was played latest in
        # the trick is considered to be higher."
        winner, best = s.trick[0]
        for seat, card in s.trick:
            if card >= best:
                winner, best = seat, card
        cards = [c for _, c in s.trick]
        s.last_trick, s.last_winner = list(s.trick), winner
        ten_in = 10 in cards
        final = s.trick_no == s.hand_size
        # "The winner of the trick takes all the cards from the trick, flips them face down, and sets them aside."
        s.set_aside.extend(cards)
        s.leader = winner
        if final:
            s.final_trick = list(s.trick)
            s.ten_in_final = ten_in
            s.trick = []
            self._end_round(s, winner)
            return
        s.trick = []
        s.trick_no += 1
        # 6: "If a 6 wins a trick, the winner of the trick chooses any player (including themselves) to discard a
        # card ... If a 6 wins the final trick of a round, this card has no effect." (not final here)
        if best == 6:
            s.phase, s.decider = Phase.SIX_TARGET, winner
        # 10: "Whenever a 10 is played into a trick, the winner of the trick may not lead the next trick."
        elif ten_in:
            s.phase, s.decider = Phase.CHOOSE_LEADER, winner
        else:
            s.phase = Phase.PLAY

    def _six_target(self, s: CorgiState, action: ChooseSixTarget) -> None:
        self._decider_only(s, action.player)
        self.check_seat(s.players, action.target, "target")
        s.six_target = action.target
        s.phase = Phase.SIX_DISCARD

    def _six_discard(self, s: CorgiState, action: SixDiscard) -> None:
        assert s.six_target is not None
        if action.player != s.six_target:
            target = s.players[s.six_target]
            raise IllegalMove("not-the-target", f"{target} was chosen to discard, not {s.players[action.player]}.")
        check_card(action.card)
        if s.hands is not None:
            if action.card not in s.hands[action.player]:
                raise IllegalMove("not-in-hand", f"{s.players[action.player]} has no {action.card} in hand.")
            s.hands[action.player].remove(action.card)
        # The discard joins this round's set-aside cards (Ruling CP-2); "then replace it with a card drawn".
        s.set_aside.append(action.card)
        s.hand_counts[action.player] -= 1
        s.history[action.player].append(HandEvent(s.trick_no - 1, "discard", action.card))
        if s.deck_count == 0:
            s.phase = Phase.RESHUFFLE
        else:
            self._draw(s)

    def _draw(self, s: CorgiState) -> None:
        assert s.six_target is not None
        seat = s.six_target
        s.deck_count -= 1
        s.hand_counts[seat] += 1
        drawn = None
        if s.hands is not None and s.deck is not None:
            drawn = s.deck.pop()
            s.hands[seat].append(drawn)
            s.hands[seat].sort()
        s.history[seat].append(HandEvent(s.trick_no - 1, "draw", drawn))
        s.six_target = s.decider = None
        s.phase = Phase.PLAY  # the trick's winner leads, as after any trick

    def _choose_leader(self, s: CorgiState, action: ChooseLeader) -> None:
        self._decider_only(s, action.player)
        self.check_seat(s.players, action.leader, "leader")
        # "The trick winner must instead choose another player to lead the next trick."
        if action.leader == action.player:
            raise IllegalMove("must-choose-another", "A trick with a 10 in it: choose another player to lead.")
        s.leader = action.leader
        s.decider = None
        s.phase = Phase.PLAY if s.trick_no > 1 else Phase.DEAL

    def _round_leader(self, s: CorgiState, named: int | None) -> None:
        """Who leads the round being dealt: the rules' choice (``s.leader``), or where the table chooses
        (option ``round_leader = "table"``), the one the deal names."""
        if named is None:
            return
        self.check_seat(s.players, named, "leader")
        if s.setup.options.get("round_leader", "winner") != "table":
            if named != s.leader:
                raise IllegalMove(
                    "leader-by-the-rules",
                    f"{s.players[s.leader]} leads this round (Ruling CP-6: the winner of the last trick, or whom "
                    'they named after a 10); the option round_leader = "table" lets the table choose.',
                )
            return
        # 10: "the winner of the trick may not lead the next trick" holds whoever chooses (Ruling CP-5).
        if s.ten_in_final and named == s.last_winner:
            raise IllegalMove("must-choose-another",
                              f"A 10 was played into the last trick: {s.players[named]} won it and may not lead.")
        s.leader = named

    def _decider_only(self, s: CorgiState, seat: int) -> None:
        self.check_seat(s.players, seat, "player")
        if seat != s.decider:
            assert s.decider is not None
            raise IllegalMove("not-your-choice", f"{s.players[s.decider]} makes this choice, not {s.players[seat]}.")

    def _end_round(self, s: CorgiState, winner: int) -> None:
        s.audit.extend(audit_round(s.history, s.players, s.round))
        # 1: "If you play a 1 on the final trick of a round, you may score 0 points -or- the value of any played
        # card." (Ruling CP-1: any card of the final trick; every 1 chooses, in any order.)
        s.ones_pending = [seat for seat, card in s.final_trick if card == 1]
        s.one_values = {}
        if s.ones_pending:
            s.phase = Phase.SCORE_ONES
        else:
            self._score_round(s)

    def _score_one(self, s: CorgiState, action: ScoreOne) -> None:
        self.check_seat(s.players, action.player, "player")
        if action.player not in s.ones_pending:
            raise IllegalMove("no-one-to-score", f"{s.players[action.player]} has no 1 waiting to be scored.")
        options = self._one_options(s)
        if action.value not in options:
            allowed = ", ".join(str(v) for v in sorted(options))
            raise IllegalMove("bad-one-value", f"A 1 on the final trick scores one of: {allowed}.")
        s.ones_pending.remove(action.player)
        s.one_values[action.player] = action.value
        if not s.ones_pending:
            self._score_round(s)

    @staticmethod
    def _one_options(s: CorgiState) -> set[int]:
        return {0} | {card for _, card in s.final_trick}

    def _score_round(self, s: CorgiState) -> None:
        # "all players score points equal to the value of their card in the final trick."
        exceeded = []
        points = [0] * len(s.players)
        for seat, card in s.final_trick:
            points[seat] = s.one_values.get(seat, card)
            s.scores[seat] += points[seat]
            # "When any player's score has exceeded 15, their score marker is returned to 0 and the game is over."
            if s.scores[seat] > TARGET:
                s.scores[seat] = 0
                exceeded.append(seat)
        s.rounds.append(RoundScore(s.round, tuple(points), tuple(exceeded), tuple(s.scores)))
        if exceeded:
            s.result = self._decide(s, exceeded)
            s.phase = Phase.OVER
        # Ruling CP-5/6: the final trick's winner leads the next round, unless a 10 makes them name another.
        elif s.ten_in_final:
            s.phase, s.decider = Phase.CHOOSE_LEADER, s.leader
            s.trick_no = 0
        else:
            s.phase = Phase.DEAL

    def _decide(self, s: CorgiState, exceeded: list[int]) -> Outcome:
        seats = range(len(s.players))
        if s.underdog:
            # Underdog: "the player with the lowest score still on the board is the winner" (Ruling CP-9).
            on_board = [p for p in seats if p not in exceeded] or list(seats)
            best = min(s.scores[p] for p in on_board)
            tied = [p for p in on_board if s.scores[p] == best]
            reason = f"Lowest score still on the board ({best})"
        else:
            # "After scoring is complete, the player with the highest score wins."
            best = max(s.scores)
            tied = [p for p in seats if s.scores[p] == best]
            reason = f"Highest score ({best})"
        if len(tied) == 1:
            return Outcome((tied[0],), reason)
        # "the tied player who played the lowest numbered card on the final trick wins. If there is still a tie,
        # the tied card played earliest in the round is considered to be lowest." (Ruling CP-11: printed number)
        order = {seat: (card, i) for i, (seat, card) in enumerate(s.final_trick)}
        winner = min(tied, key=lambda p: order[p])
        cards = ", ".join(f"{s.players[p]} {article(order[p][0])}" for p in sorted(tied, key=lambda p: order[p]))
        same = len({order[p][0] for p in tied}) < len(tied)
        rule = "lowest card on the final trick, the earliest played breaking a tie" if same else "lowest card"
        return Outcome((winner,), reason, f"Tie on {best}: {rule} on the final trick wins ({cards}).")

    # ----------------------------------------------------------------------------------------- views
    def legal_actions(self, state: CorgiState) -> list[Action]:
        s = state
        if s.hands is None:
            raise ValueError("Legal moves are only known when the hands are (full-information play).")
        if s.phase is Phase.PLAY:
            seat = (s.leader + len(s.trick)) % len(s.players)
            candidates: list[Action] = [Play(seat, c) for c in sorted(set(s.hands[seat]))]
        elif s.phase is Phase.SIX_TARGET:
            assert s.decider is not None
            candidates = [ChooseSixTarget(s.decider, t) for t in range(len(s.players))]
        elif s.phase is Phase.SIX_DISCARD:
            assert s.six_target is not None
            candidates = [SixDiscard(s.six_target, c) for c in sorted(set(s.hands[s.six_target]))]
        elif s.phase is Phase.CHOOSE_LEADER:
            assert s.decider is not None
            candidates = [ChooseLeader(s.decider, p) for p in range(len(s.players)) if p != s.decider]
        elif s.phase is Phase.SCORE_ONES:
            candidates = [ScoreOne(p, v) for p in s.ones_pending for v in sorted(self._one_options(s))]
        else:
            return []
        return [a for a in candidates if self.legal(s, a) is None]

    def to_move(self, state: CorgiState) -> tuple[int, ...]:
        s = state
        if s.phase is Phase.PLAY:
            return ((s.leader + len(s.trick)) % len(s.players),)
        if s.phase in (Phase.SIX_TARGET, Phase.CHOOSE_LEADER) and s.decider is not None:
            return (s.decider,)
        if s.phase is Phase.SIX_DISCARD and s.six_target is not None:
            return (s.six_target,)
        if s.phase is Phase.SCORE_ONES:
            return tuple(s.ones_pending)
        return ()

    def _prompt(self, s: CorgiState) -> str:
        names = s.players
        if s.phase is Phase.PLAY:
            seat = self.to_move(s)[0]
            if not s.trick:
                return f"{names[seat]} to lead any card."
            highest = max(c for _, c in s.trick)
            which = "highest" if any(c == 3 for _, c in s.trick) else "lowest"
            return f"{names[seat]} to play: climb to {highest} or more, or play their {which} card."
        if s.phase is Phase.SIX_TARGET:
            assert s.decider is not None
            return f"{names[s.decider]} won with a 6: choose who discards a card and draws a new one."
        if s.phase is Phase.SIX_DISCARD:
            assert s.six_target is not None
            return f"{names[s.six_target]} must discard a card (show it), then draw one."
        if s.phase is Phase.CHOOSE_LEADER:
            assert s.decider is not None
            return f"A 10 was played: {names[s.decider]} must choose another player to lead."
        if s.phase is Phase.SCORE_ONES:
            who = " and ".join(names[p] for p in s.ones_pending)
            values = ", ".join(str(v) for v in sorted(self._one_options(s)))
            return f"{who} played a 1 on the final trick: choose a score ({values})."
        if s.phase is Phase.RESHUFFLE:
            return "The deck is empty: shuffle the cards set aside this round into a new deck."
        if s.phase is Phase.DEAL:
            return f"Shuffle and deal {s.hand_size} cards to each player."
        return "The game is over."

    def scoreboard(self, state: CorgiState) -> Scoreboard:
        s = state
        waiting = set(self.to_move(s))
        in_trick = {seat: Cards(str(card), (str(card),)) for seat, card in s.trick}
        rows = tuple(
            ScoreRow(
                seat=i,
                name=name,
                cells=(s.scores[i], s.hand_counts[i], in_trick.get(i, "")),
                active=i in waiting,
            )
            for i, name in enumerate(s.players)
        )
        if s.phase is Phase.OVER:
            phase = f"Game over after round {s.round}"
        elif s.round == 0:
            phase = "Before the first deal"
        else:
            phase = f"Round {s.round} · trick {max(s.trick_no, 1)} of {s.hand_size}"
        return Scoreboard(phase, self._prompt(s), ("Score", "Cards", "In trick"), rows)

    def view(self, state: CorgiState) -> dict[str, Any]:
        s = state
        view: dict[str, Any] = {
            "phase": s.phase.value,
            "round": s.round,
            "trick_number": s.trick_no,
            "tricks_per_round": s.hand_size,
            "leader": s.leader,
            "scores": list(s.scores),
            "hand_counts": list(s.hand_counts),
            "trick": [{"player": p, "card": c} for p, c in s.trick],
            "set_aside": len(s.set_aside),
            "deck": s.deck_count,
            "final_trick": [{"player": p, "card": c} for p, c in s.final_trick],
            "last_trick": {"cards": [{"player": p, "card": c} for p, c in s.last_trick], "winner": s.last_winner},
            "rounds": [r.to_json() for r in s.rounds],
            "to_move": list(self.to_move(s)),
        }
        if s.hands is not None:
            view["hands"] = [list(h) for h in s.hands]
        return view

    def outcome(self, state: CorgiState) -> Outcome | None:
        return state.result

    def findings(self, state: CorgiState) -> tuple:
        return tuple(state.audit)

    def describe(self, state: CorgiState, action: Action) -> str:
        names = state.players
        match action:
            case Deal():
                return f"Round {state.round + 1}: {state.hand_size} cards dealt to each player."
            case Reshuffle():
                return "The deck ran out: this round's set-aside cards were shuffled into a new deck."
            case Play(player=p, card=c):
                verb = "led" if not state.trick else "played"
                return f"{names[p]} {verb} {article(c)}."
            case ChooseSixTarget(player=p, target=t):
                who = "themselves" if p == t else names[t]
                return f"{names[p]} chose {who} to discard and draw."
            case SixDiscard(player=p, card=c):
                return f"{names[p]} discarded {article(c)} and drew a card."
            case ChooseLeader(player=p, leader=q):
                return f"{names[p]} chose {names[q]} to lead."
            case ScoreOne(player=p, value=v):
                return f"{names[p]}'s 1 scores {v}."
        return action.type
