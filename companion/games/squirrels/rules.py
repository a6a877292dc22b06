"""Squirrels: The Card Game (``../shared/rulebooks/squirrels.txt``).

Each rule below quotes the rulebook sentence it implements; the rulings for what the book leaves open are in
``docs/rulings.md`` (cited here as "Ruling SQ-n"). At a live table hands are hidden: the referee records what
lands face up and keeps exact counts of every hand; full-information play (bots, tests, replays) knows them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
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
    Spot,
)
from companion.games.squirrels import moves
from companion.games.squirrels.actions import Blind, Deal, Done, Layout, Pickup, Play, Push, Reveal, Skip, Starter
from companion.games.squirrels.audit import check_reveal
from companion.games.squirrels.cards import (
    FULL_DECK,
    NUMBER,
    NUMBERS,
    article,
    check_card,
    count_of,
    kind,
    name,
    over_supply,
    points,
)
from companion.games.squirrels.state import FOUR, HAND, STACKS, Phase, SquirrelsState, Stack

ORDINAL = ("first", "second", "third", "fourth")
DEFAULT_ROUNDS = 3  # "A game consists of three rounds. However, players can agree to a different number."
PHASES: dict[type[Action], tuple[Phase, ...]] = {
    Starter: (Phase.STARTER,),
    Deal: (Phase.DEAL,),
    Layout: (Phase.LAYOUT,),
    Play: (Phase.PLAY, Phase.BLIND_FOLLOW),
    Push: (Phase.PLAY,),
    Skip: (Phase.PLAY,),
    Blind: (Phase.PLAY,),
    Pickup: (Phase.PLAY,),
    Done: (Phase.PLAY, Phase.BLIND_FOLLOW),
    Reveal: (Phase.REVEAL,),
}


class Squirrels(Ruleset[SquirrelsState]):
    name: ClassVar[str] = "squirrels"
    title: ClassVar[str] = "Squirrels: The Card Game"
    variants: ClassVar[dict[str, str]] = {
        "standard": "Shed your hand and stacks over several rounds (option rounds, default 3); lowest total wins.",
    }
    # Ruling SQ-8: 20 cards each from 162 is enough for eight players.
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    action_types: ClassVar[tuple[type[Action], ...]] = (
        Starter,
        Deal,
        Layout,
        Play,
        Push,
        Skip,
        Blind,
        Pickup,
        Done,
        Reveal,
    )
    options: ClassVar[tuple[GameOption, ...]] = (
        GameOption("rounds", "How many rounds", OptionKind.NUMBER, f"{DEFAULT_ROUNDS} rounds", low=1, high=20),
        GameOption("first_player", "Who starts the first round", OptionKind.SEAT, "drawn at the table"),
        # House rule (ruling SQ-19): a short round for a quick game, the four stacks dealt as usual.
        GameOption("hand", "Cards held in hand (house rule: fewer for short rounds)", OptionKind.NUMBER,
                   f"{HAND}, as the rulebook deals", low=0, high=HAND),
    )

    # ----------------------------------------------------------------------------------------- setup
    def setup(self, setup: GameSetup) -> SquirrelsState:
        self.check_setup(setup)
        n = len(setup.players)
        self.check_options(setup)
        rounds = setup.options.get("rounds", DEFAULT_ROUNDS)
        if not _whole(rounds) or rounds < 1:
            raise MalformedAction("bad-option", "rounds must be a whole number of rounds, at least 1.")
        first = setup.options.get("first_player")
        if first is not None and (not _whole(first) or not 0 <= first < n):
            raise MalformedAction("bad-option", f"first_player must be a seat from 0 to {n - 1}.")
        hand = setup.options.get("hand", HAND)
        if not _whole(hand) or not 0 <= hand <= HAND:
            raise MalformedAction("bad-option", f"hand must be a whole number of cards from 0 to {HAND}.")
        state = SquirrelsState(setup=setup, rounds=rounds, hand_counts=[0] * n, stacks=[[] for _ in range(n)],
                               skips=[False] * n, owed=[False] * n)
        self._begin_round(state)
        return state

    def _begin_round(self, s: SquirrelsState) -> None:
        s.round += 1
        if s.round == 1:
            # "Players use a random method to determine who starts the game." (the table may have decided already)
            first = s.setup.options.get("first_player")
            s.candidates = (first,) if first is not None else tuple(range(len(s.players)))
        else:
            # "In subsequent rounds, the player with the highest total score starts. If there is a tie, use a
            # random method to determine who starts." (Ruling SQ-4)
            totals = s.totals
            s.candidates = tuple(p for p, t in enumerate(totals) if t == max(totals))
        if len(s.candidates) == 1:
            s.starter, s.phase = s.candidates[0], Phase.DEAL
        else:
            s.starter, s.phase = None, Phase.STARTER

    def chance(self, state: SquirrelsState, rng: random.Random) -> Action | None:
        if state.phase is Phase.STARTER:
            return Starter(seed=rng.getrandbits(32))
        if state.phase is Phase.DEAL:
            return Deal(seed=rng.getrandbits(32)) if state.full_information else Deal()
        return None

    # ----------------------------------------------------------------------------------------- apply
    def apply(self, state: SquirrelsState, action: Action) -> SquirrelsState:
        action = self.decode(action)
        if state.phase is Phase.OVER:
            raise IllegalMove("game-over", "The game is over; start a new one.")
        player = getattr(action, "player", None)
        if player is not None:
            self.check_seat(state.players, player, "player")
        if state.phase not in PHASES[type(action)]:
            if state.phase in (Phase.STARTER, Phase.DEAL):
                raise DecisionRequired("deal-first", "The cards must be shuffled and dealt first.")
            raise DecisionRequired(f"waiting-{state.phase.value}", self._prompt(state))
        if isinstance(action, Play | Push | Skip | Blind | Pickup | Done):
            self._check_turn(state, action)
        s = state.clone()
        handler = {
            Starter: self._starter,
            Deal: self._deal,
            Layout: self._layout,
            Play: self._play,
            Push: self._push,
            Skip: self._skip,
            Blind: self._blind,
            Pickup: self._pickup,
            Done: self._done,
            Reveal: self._reveal,
        }[type(action)]
        handler(s, action)
        return s

    def _check_turn(self, s: SquirrelsState, action: Any) -> None:
        p = action.player
        if p != s.current:
            raise IllegalMove("not-your-turn", f"It is {s.players[s.current]}'s turn, not {s.players[p]}'s.")

    # ----------------------------------------------------------------------------------------- the deal
    def _starter(self, s: SquirrelsState, action: Starter) -> None:
        if (action.seed is None) == (action.seat is None):
            raise MalformedAction("bad-starter", "A starter is drawn with a seed, or named as a seat: one of them.")
        if action.seed is not None:
            seat = self._drawn(s, action.seed)
        else:
            assert action.seat is not None
            self.check_seat(s.players, action.seat, "starter")
            seat = action.seat
        if seat not in s.candidates:
            who = ", ".join(s.players[p] for p in s.candidates)
            raise IllegalMove("not-a-candidate", f"The starter is one of {who} (the highest total).")
        s.starter, s.phase = seat, Phase.DEAL

    @staticmethod
    def _drawn(s: SquirrelsState, seed: int) -> int:
        return s.candidates[random.Random(seed).randrange(len(s.candidates))]

    def _deal(self, s: SquirrelsState, action: Deal) -> None:
        # "The two decks are shuffled together. Stacks of 20 cards are dealt face down and given to each player."
        n = len(s.players)
        explicit = action.hands is not None or action.stacks is not None
        if not s.full_information:
            if action.seed is not None or explicit:
                raise MalformedAction(
                    "bad-deal", "At a live table the deal is a real shuffle: record it without a seed or cards "
                    "(each player's stack tops follow as a layout)."
                )
            s.stacks = [[] for _ in range(n)]
            s.phase = Phase.LAYOUT
        else:
            if (action.seed is not None) == explicit or (explicit and (action.hands is None or action.stacks is None)):
                raise MalformedAction(
                    "bad-deal", "In full-information play a deal needs a seed, or every hand and every stack."
                )
            if action.seed is not None:
                deck = list(FULL_DECK)
                random.Random(action.seed).shuffle(deck)
                packets = [deck[p * s.dealt:(p + 1) * s.dealt] for p in range(n)]
                # "Each player makes 4 stacks ... by dealing two cards face down and the top card face up."
                stacks = [[packet[3 * i:3 * i + 3] for i in range(STACKS)] for packet in packets]
                hands = [packet[3 * STACKS:] for packet in packets]
            else:
                assert action.hands is not None and action.stacks is not None
                hands, stacks = self._explicit_deal(n, s.hand_size, action.hands, action.stacks)
            dealt = Counter(c for hand in hands for c in hand) + Counter(c for st in stacks for x in st for c in x)
            s.unused = sorted((Counter(FULL_DECK) - dealt).elements())
            s.hands = [sorted(hand) for hand in hands]
            s.stacks = [[Stack(three[2], (three[0], three[1])) for three in player] for player in stacks]
            s.phase = Phase.PLAY
        # "The remaining 8 cards are held by the player in their hands." "The remaining cards are not used".
        s.hand_counts = [s.hand_size] * n
        s.unused_count = len(FULL_DECK) - s.dealt * n
        s.pile, s.discard, s.revealed = [], [], {}
        s.known = [{} for _ in range(n)]
        s.skips, s.owed = [False] * n, [False] * n
        s.safe = s.follow_value = None
        assert s.starter is not None
        s.current = s.starter

    def _explicit_deal(
        self, n: int, size: int, hands: Sequence[Sequence[str]], stacks: Sequence[Sequence[Sequence[str]]]
    ) -> tuple[list[list[str]], list[list[list[str]]]]:
        shape = f"{n} hands of {size} cards and {n} sets of {STACKS} stacks of 3 cards (bottom first)"
        if (
            len(hands) != n
            or len(stacks) != n
            or any(len(hand) != size for hand in hands)
            or any(len(player) != STACKS or any(len(three) != 3 for three in player) for player in stacks)
        ):
            raise MalformedAction("bad-deal", f"An explicit deal lists {shape}.")
        cards = [check_card(c) for hand in hands for c in hand] + [
            check_card(c) for player in stacks for three in player for c in three
        ]
        extra = over_supply(Counter(cards))
        if extra:
            raise MalformedAction("bad-deal", f"That deal has more {name(extra)} cards than the deck holds.")
        return [list(h) for h in hands], [[list(three) for three in player] for player in stacks]

    def _layout(self, s: SquirrelsState, action: Layout) -> None:
        p = action.player
        if len(action.tops) != STACKS:
            raise MalformedAction("bad-layout", f"A layout shows the {STACKS} face-up stack tops.")
        tops = [check_card(c) for c in action.tops]
        if s.stacks[p]:
            raise IllegalMove("already-laid-out", f"{s.players[p]}'s stacks are already laid out.")
        s.stacks[p] = [Stack(top, (None, None)) for top in tops]
        self._check_supply(s)
        if all(s.stacks):
            s.phase = Phase.PLAY

    # ----------------------------------------------------------------------------------------- actions
    def _play(self, s: SquirrelsState, action: Play) -> None:
        p = action.player
        cards = [check_card(c) for c in action.cards]
        if not cards:
            raise MalformedAction("no-cards", "A play needs at least one card.")
        kinds = {kind(c) for c in cards}
        if kinds & {"push", "skip"}:
            raise MalformedAction(
                "not-a-pile-card", "Push and Skip cards do not go on the pile: record a push or a skip, with a target."
            )
        if "squirrel" in kinds:
            if len(cards) > 1:
                raise IllegalMove(
                    "one-squirrel", "Play Squirrel cards one at a time: each clears the pile and gives another Action."
                )
            if s.phase is Phase.BLIND_FOLLOW:
                raise IllegalMove("blind-follow", self._prompt(s))
            if action.value is not None:
                raise MalformedAction("value-without-wild", "Only a Wild takes a declared value.")
            self._take(s, p, cards, action.stacks)
            self._squirrel(s, p, cards[0])
            return
        value = self._value_of(cards, action.value)
        if s.phase is Phase.BLIND_FOLLOW and value != s.follow_value:
            raise IllegalMove("blind-follow", self._prompt(s))
        top = s.top_run()
        # "the new cards ... MUST either match or be below the value of the card they are placed on top of."
        if top is not None and value > top[0]:
            raise IllegalMove(
                "too-high", f"The top of the pile is {article(top[0])}: play {article(top[0])} or lower, "
                "or pick up the pile."
            )
        run = top[1] if top is not None and top[0] == value else 0
        # Ruling SQ-1: "Once four cards in the pile have the same value, no other cards can be placed on top."
        if run + len(cards) > FOUR:
            on_top = f"with {count_of(run, value)} on top" if run else "on an open table"
            raise IllegalMove(
                "more-than-four", f"Four {value}s clear the pile: {on_top}, play at most {FOUR - run} more."
            )
        self._take(s, p, cards, action.stacks)
        self._end_action(s, p, again=self._land(s, [(c, value) for c in cards]))

    def _push(self, s: SquirrelsState, action: Push) -> None:
        p = action.player
        if s.pile and action.target is None and not self.targets(s, p, "push"):
            safe = s.players[s.safe] if s.safe is not None else "everyone"
            raise IllegalMove("nobody-to-push-to", f"{safe} is safe: there is nobody to push the pile to.")
        self._take(s, p, ["push"], _one(action.stack))
        self._push_pile(s, p, action.target)
        s.discard.append("push")  # "The Push Card is discarded, and your turn is over."
        self._end_action(s, p, again=False)

    def _skip(self, s: SquirrelsState, action: Skip) -> None:
        p = action.player
        self._take(s, p, ["skip"], _one(action.stack))
        self._place_skip(s, p, action.target)
        self._end_action(s, p, again=False)

    def _blind(self, s: SquirrelsState, action: Blind) -> None:
        p, i = action.player, action.stack
        stack = s.stacks[p][self._stack_index(i)]
        where = f"{s.players[p]}'s {ORDINAL[i]} stack"
        if stack.top is not None:
            raise IllegalMove("top-first", f"{where} still shows {article(stack.top)}: its Blind card is under it.")
        if not stack.blind:
            raise IllegalMove("empty-stack", f"{where} is empty.")
        card = check_card(action.card)
        if stack.down[0] is not None and stack.down[0] != card:
            raise IllegalMove("wrong-blind", f"That Blind card is {article(stack.down[0])}, not {article(card)}.")
        k = kind(card)
        if action.value is not None and k != "wild":
            raise MalformedAction("value-without-wild", "Only a Wild takes a declared value.")
        if action.target is not None and k not in ("push", "skip"):
            raise MalformedAction("target-without-push", "Only a Push or a Skip card takes a target.")
        # "When a Blind Card is played, it is flipped over and placed in the center area." "Only one at a time."
        s.stacks[p][i] = Stack(None, ())
        # "A Blind Card that is not a Number Card follows the effects of that type of card."
        if k == "squirrel":
            self._squirrel(s, p, card)
        elif k == "push":
            # Ruling SQ-5: with nobody to push to, a Blind Push is discarded and the pile stays.
            if not (s.pile and action.target is None and not self.targets(s, p, "push")):
                self._push_pile(s, p, action.target)
            s.discard.append(card)
            self._end_action(s, p, again=False)
        elif k == "skip":
            if action.target is None and not self.targets(s, p, "skip"):
                s.discard.append(card)  # Ruling SQ-5: nobody can be skipped, so the Blind Skip is discarded
            else:
                self._place_skip(s, p, action.target)
            self._end_action(s, p, again=False)
        else:
            self._blind_number(s, p, card, self._value_of([card], action.value))
        self._check_supply(s)

    def _blind_number(self, s: SquirrelsState, p: int, card: str, value: int) -> None:
        top = s.top_run()
        if top is not None and value > top[0]:
            # "If the value of the Blind Card is greater than the top Number Card in the center pile, you must pick
            # up the entire pile of cards ... Your turn is over." It is on the pile by then (Ruling SQ-2).
            s.pile.append((card, value))
            self._pick_up(s, p)
            self._end_action(s, p, again=False)
        elif self._land(s, [(card, value)]):
            self._end_action(s, p, again=True)
        elif s.cards_left(p) == 0:
            self._end_action(s, p, again=False)
        else:
            # "you can also place on top of the Blind Card any of your active Number Cards that match it."
            s.phase, s.follow_value = Phase.BLIND_FOLLOW, value

    def _pickup(self, s: SquirrelsState, action: Pickup) -> None:
        # "If there is an open table with NO cards in the center to pick up, the player must take an Action".
        if not s.pile:
            raise IllegalMove("open-table", "The table is open: there is nothing to pick up, so play a card.")
        self._pick_up(s, action.player)
        self._end_action(s, action.player, again=False)

    def _done(self, s: SquirrelsState, action: Done) -> None:
        p = action.player
        if s.phase is Phase.PLAY:
            top = s.top_run()
            if top is not None:
                raise IllegalMove(
                    "play-or-pick-up", f"The top of the pile is {article(top[0])}: play a card or pick up the pile."
                )
            if not self.stuck(s, p):
                raise IllegalMove("must-play", "The table is open: take an Action by playing a card.")
        self._end_turn(s)

    def _reveal(self, s: SquirrelsState, action: Reveal) -> None:
        p = action.player
        if p not in self._pending_reveals(s):
            raise IllegalMove("nothing-to-show", f"{s.players[p]} has no cards to show.")
        cards = tuple(check_card(c) for c in action.cards)
        tops = Counter(st.top for st in s.stacks[p] if st.top is not None)
        missing = tops - Counter(cards)
        if missing:
            shown = ", ".join(name(c) for c in sorted(missing.elements()))
            raise IllegalMove("show-stack-tops", f"{s.players[p]}'s stacks still show {shown}: include them.")
        s.audit.extend(check_reveal(s, p, cards))
        s.revealed[p] = cards
        self._check_supply(s)
        if not self._pending_reveals(s):
            self._score_round(s)

    # ----------------------------------------------------------------------------------------- moving cards
    def _take(self, s: SquirrelsState, p: int, cards: Sequence[str], stacks: Sequence[int]) -> None:
        """Take ``cards`` from ``p``'s stack tops named in ``stacks`` and the rest from the hand."""
        if len(set(stacks)) != len(stacks):
            raise MalformedAction("same-stack", "Each stack gives only its face-up top card.")
        tops = []
        for i in stacks:
            top = s.stacks[p][self._stack_index(i)].top
            if top is None:
                raise IllegalMove("no-stack-top", f"{s.players[p]}'s {ORDINAL[i]} stack has no face-up card.")
            tops.append(top)
        from_hand = list(cards)
        for top in tops:
            if top not in from_hand:
                raise IllegalMove("stack-top-differs", "A stack named in the play shows a card not among the cards.")
            from_hand.remove(top)
        if s.hands is not None:
            hand = s.hands[p]
            for card in from_hand:
                if card not in hand:
                    raise IllegalMove("not-in-hand", f"{s.players[p]} has no {name(card)} in hand.")
                hand.remove(card)
        else:
            if len(from_hand) > s.hand_counts[p]:
                raise IllegalMove("too-few-in-hand", f"{s.players[p]} has only {s.hand_counts[p]} cards in hand.")
            known = s.known[p]
            for card in from_hand:  # one of those seen going in may have come out again
                if known.get(card, 0) > 0:
                    known[card] -= 1
        s.hand_counts[p] -= len(from_hand)
        for i in stacks:
            # "After you play a face up card from the top of one of your stacks, you pick up the first face down
            # card that was below it and place it in your hand."
            stack = s.stacks[p][i]
            below = stack.down[-1]
            s.stacks[p][i] = Stack(None, stack.down[:-1])
            s.hand_counts[p] += 1
            if s.hands is not None:
                assert below is not None
                s.hands[p].append(below)

    def _land(self, s: SquirrelsState, entries: list[tuple[str, int]]) -> bool:
        """Put cards on the pile; whether four of a value cleared it."""
        s.pile.extend(entries)
        self._check_supply(s)
        top = s.top_run()
        assert top is not None
        if top[1] < FOUR:
            return False
        # "The entire pile is cleared and discarded from the game. The player who initiated this by placing the
        # fourth card takes another Action as if their turn just started."
        self._clear(s)
        return True

    def _squirrel(self, s: SquirrelsState, p: int, card: str) -> None:
        # "Any cards in the center pile, including the Squirrel Card, are immediately cleared and discarded. The
        # player who initiated this by placing the Squirrel Card takes another Action".
        s.pile.append((card, 0))
        self._check_supply(s)
        self._clear(s)
        self._end_action(s, p, again=True)

    def _clear(self, s: SquirrelsState) -> None:
        s.discard.extend(card for card, _ in s.pile)
        s.pile = []

    def _pick_up(self, s: SquirrelsState, p: int) -> None:
        """The whole pile goes into ``p``'s hand ("placed in their hands with any other cards")."""
        s.hand_counts[p] += len(s.pile)
        if s.hands is not None:
            s.hands[p].extend(card for card, _ in s.pile)
            s.hands[p].sort()
        else:
            for card, _ in s.pile:  # seen going in: they must be shown at the round's end unless played since
                s.known[p][card] = s.known[p].get(card, 0) + 1
        s.pile = []

    def _push_pile(self, s: SquirrelsState, p: int, target: int | None) -> None:
        # "any cards in the center pile are immediately 'pushed' to a player of your choice." / "A Push Card can
        # still be used even if there are no cards in the center. The Push Card is simply discarded".
        if not s.pile:
            if target is not None:
                raise IllegalMove("nothing-to-push", "The table is open: the Push card is simply discarded, no target.")
            return
        if target is None:
            raise DecisionRequired("push-target", "Who gets the pile? Name the player to push it to.")
        self._check_target(s, p, target, "push")
        self._pick_up(s, target)

    def _place_skip(self, s: SquirrelsState, p: int, target: int | None) -> None:
        # "When you play a Skip Card, it is placed in front of a player of your choice. Your turn is over."
        if target is None:
            raise DecisionRequired("skip-target", "Who is skipped? Name the player to place the Skip card before.")
        self._check_target(s, p, target, "skip")
        s.skips[target] = True

    def _check_target(self, s: SquirrelsState, p: int, target: int, what: str) -> None:
        self.check_seat(s.players, target, "target")
        card = "Push" if what == "push" else "Skip"
        if target == p:
            raise IllegalMove("not-yourself", f"A {card} goes to another player, not to yourself.")  # Ruling SQ-5
        if target == s.safe:
            # "No cards can be pushed to them, or Skip Cards placed in front of them."
            raise IllegalMove("target-safe", f"{s.players[target]} is safe: no cards can be pushed to them, "
                              "or Skip cards placed in front of them.")
        if what == "skip" and s.skips[target]:
            # "A player can only have one Skip Card in front of them."
            raise IllegalMove("already-skipped", f"{s.players[target]} already has a Skip card in front of them.")

    def targets(self, s: SquirrelsState, p: int, what: str) -> list[int]:
        """Who ``p`` may push the pile to or skip (``what``: "push" or "skip")."""
        return [
            q for q in range(len(s.players))
            if q not in (p, s.safe) and not (what == "skip" and s.skips[q])
        ]

    def stuck(self, s: SquirrelsState, p: int) -> bool:
        """On an open table, whether ``p`` can take no Action at all: only Skip cards left and nobody to skip
        (Ruling SQ-9). At a live table the hand is the player's word; the stacks are seen."""
        stacks_ok = all(st.top in (None, "skip") and not st.blind for st in s.stacks[p])
        hand_ok = s.hands is None or all(c == "skip" for c in s.hands[p])
        return stacks_ok and hand_ok and not self.targets(s, p, "skip")

    def _stack_index(self, i: int) -> int:
        if not 0 <= i < STACKS:
            raise MalformedAction("no-such-stack", f"Stacks are numbered 0 to {STACKS - 1}, not {i}.")
        return i

    @staticmethod
    def _value_of(cards: Sequence[str], declared: int | None) -> int:
        """The value a play counts as: its Number cards', or the Wilds' declared value."""
        numbers = {NUMBER[c] for c in cards if c in NUMBER}
        if len(numbers) > 1:
            raise IllegalMove(
                "one-value", "Cards played together must have the same value: three 5s, not two 5s and a 4."
            )
        if any(kind(c) == "wild" for c in cards):
            # "A Wild Card can be the value of any Number Card. The player must declare the number value".
            if declared is None:
                raise DecisionRequired("declare-wild", "A Wild needs a declared value: which number (1-10) is it?")
            if declared not in NUMBERS:
                raise MalformedAction("bad-value", f"A Wild is declared as a number from 1 to 10, not {declared}.")
            if numbers and declared not in numbers:
                (n,) = numbers
                raise IllegalMove("one-value", f"Played with {n}s, the Wild must be declared as {article(n)}.")
            return declared
        if declared is not None and declared not in numbers:
            raise MalformedAction("value-without-wild", "Only a Wild takes a declared value.")
        (value,) = numbers
        return value

    def _check_supply(self, s: SquirrelsState) -> None:
        """At a live table: more copies of a card face up than the deck holds is a misread; refuse it."""
        if s.full_information:
            return
        seen = Counter(c for c, _ in s.pile) + Counter(s.discard) + Counter({"skip": sum(s.skips)})
        seen += Counter(st.top for stacks in s.stacks for st in stacks if st.top is not None)
        seen += Counter(c for cards in s.revealed.values() for c in cards)
        extra = over_supply(seen)
        if extra is not None:
            raise IllegalMove("no-such-copy", f"That would be more {name(extra)} cards than the deck holds: "
                              "check that card.")

    # ----------------------------------------------------------------------------------------- turns and rounds
    def _end_action(self, s: SquirrelsState, p: int, again: bool) -> None:
        """After an Action: the first player out is safe; another Action (after a clear) if cards are left."""
        if s.cards_left(p) == 0 and s.safe is None:
            # "The first player to discard all their cards triggers the end of the round. ... is now 'safe.'
            # Continuing in a clockwise manner, each player gets one more chance".
            s.safe = p
            s.owed = [q != p for q in range(len(s.players))]
        if again and s.cards_left(p) > 0:
            s.phase = Phase.PLAY
        else:
            self._end_turn(s)

    def _end_turn(self, s: SquirrelsState) -> None:
        s.phase, s.follow_value = Phase.PLAY, None
        seat = s.current
        if s.safe is not None:
            s.owed[seat] = False
        while True:
            if s.safe is not None and not any(s.owed):
                self._end_round(s)
                return
            seat = (seat + 1) % len(s.players)  # "Play rotates clockwise."
            if s.safe is not None and (not s.owed[seat] or s.cards_left(seat) == 0):
                s.owed[seat] = False  # nothing left to discard: a final turn with no cards passes at once
                continue
            if s.skips[seat]:
                # "The player with a Skip Card in front of them loses their next turn." "When their turn passes,
                # the Skip Card is immediately removed and discarded from the game." A final turn too.
                s.skips[seat] = False
                s.discard.append("skip")
                if s.safe is not None:
                    s.owed[seat] = False
                continue
            s.current = seat
            return

    def _end_round(self, s: SquirrelsState) -> None:
        # Skip cards still lying in front of players (Ruling SQ-7) leave the table with the round.
        s.discard.extend("skip" for skipped in s.skips if skipped)
        s.skips = [False] * len(s.players)
        if s.full_information or not self._pending_reveals(s):
            self._score_round(s)
        else:
            s.phase = Phase.REVEAL

    def _pending_reveals(self, s: SquirrelsState) -> list[int]:
        return [
            p for p in range(len(s.players)) if p != s.safe and s.cards_left(p) > 0 and p not in s.revealed
        ]

    def _score_round(self, s: SquirrelsState) -> None:
        scores = []
        for p in range(len(s.players)):
            if p == s.safe:
                scores.append(0)  # "The first player who discards all their cards receives 0 points"
                continue
            # "This includes all Active cards and any remaining cards in their stacks."
            if s.hands is not None:
                cards = s.hands[p] + [c for st in s.stacks[p] for c in (st.top, *st.down) if c is not None]
            else:
                cards = list(s.revealed.get(p, ()))
            scores.append(sum(points(c) for c in cards))
        s.round_scores.append(scores)
        s.round_safe.append(s.safe)
        if s.round == s.rounds:
            s.result = self._decide(s)
            s.phase = Phase.OVER
        else:
            self._begin_round(s)

    def _decide(self, s: SquirrelsState) -> Outcome:
        # "After the final round of the game, the player with the lowest TOTAL score wins."
        totals = s.totals
        best = min(totals)
        tied = [p for p, t in enumerate(totals) if t == best]
        reason = f"Lowest total ({best})"
        if len(tied) == 1:
            return Outcome((tied[0],), reason)
        # "In the event of a tie between players at the end of the game, the one who had the lowest score in the
        # final round wins. If they both have the same score in the final round, the game is a tie." The first
        # player out "is always considered to have the lowest score in that round" (Ruling SQ-3).
        last, safe = s.round_scores[-1], s.round_safe[-1]
        key = {p: (last[p], p != safe) for p in tied}
        winners = tuple(p for p in tied if key[p] == min(key.values()))
        scores = ", ".join(f"{s.players[p]} {last[p]}" for p in tied)
        if len(winners) > 1:
            return Outcome(winners, reason, f"Tie on {best}, and the same final-round score ({scores}): a tie.")
        if safe in tied and len({last[p] for p in tied}) < len(tied):
            return Outcome(winners, reason, f"Tie on {best}: {s.players[safe]} went out first in the final round.")
        return Outcome(winners, reason, f"Tie on {best}: the lowest final-round score wins ({scores}).")

    # ----------------------------------------------------------------------------------------- views
    def legal_actions(self, state: SquirrelsState) -> list[Action]:
        if not state.full_information:
            raise ValueError("Legal moves are only known when the hands are (full-information play).")
        return moves.candidates(self, state)  # exact by construction (the property tests check every one)

    def to_move(self, state: SquirrelsState) -> tuple[int, ...]:
        s = state
        if s.phase in (Phase.PLAY, Phase.BLIND_FOLLOW):
            return (s.current,)
        if s.phase is Phase.LAYOUT:
            return tuple(p for p, stacks in enumerate(s.stacks) if not stacks)
        if s.phase is Phase.REVEAL:
            return tuple(self._pending_reveals(s))
        return ()

    def pile_words(self, s: SquirrelsState) -> str:
        """The pile's top as the book says it aloud: "three 7s" (or "open table")."""
        top = s.top_run()
        return "open table" if top is None else count_of(top[1], top[0])

    def pile_summary(self, s: SquirrelsState) -> str:
        """The pile's top and size, for the page: "three 7s (9 cards)"."""
        n = len(s.pile)
        return self.pile_words(s) + (f" ({n} card{'s' if n != 1 else ''})" if n else "")

    def _prompt(self, s: SquirrelsState) -> str:
        names = s.players
        if s.phase is Phase.STARTER:
            return "Draw who starts: " + ", ".join(names[p] for p in s.candidates) + "."
        if s.phase is Phase.DEAL:
            return f"Shuffle and deal {s.dealt} cards to each player."
        if s.phase is Phase.LAYOUT:
            return "Lay out four stacks each: " + ", ".join(names[p] for p in self.to_move(s)) + " still to do."
        if s.phase is Phase.REVEAL:
            return "Round over: " + ", ".join(names[p] for p in self.to_move(s)) + " to show their cards."
        if s.phase is Phase.OVER:
            return "The game is over."
        who = names[s.current]
        if s.phase is Phase.BLIND_FOLLOW:
            return f"{who} flipped a Blind {s.follow_value}: add matching {s.follow_value}s, or end the turn."
        top = s.top_run()
        final = " (final turn)" if s.safe is not None else ""
        if top is None:
            return f"{who} to play{final}: the table is open, play any card."
        return f"{who} to play{final}: {count_of(top[1], top[0])} on top; play {article(top[0])} or lower, " \
               "or pick up the pile."

    def scoreboard(self, state: SquirrelsState) -> Scoreboard:
        s = state
        waiting = set(self.to_move(s))
        totals = s.totals

        def status(p: int) -> str:
            return "safe" if p == s.safe else "skipped" if s.skips[p] else ""

        def tops(p: int) -> Cards:
            """Each stack's face-up top; a stack without one is face down (or gone)."""
            text = " ".join(name(st.top) if st.top else "▢" if st.count else "·" for st in s.stacks[p])
            return Cards(text, [st.top or (Spot.DOWN if st.count else Spot.EMPTY) for st in s.stacks[p]])

        rows = tuple(
            ScoreRow(
                seat=p,
                name=name_,
                cells=(
                    totals[p],
                    " · ".join(str(r[p]) for r in s.round_scores),
                    s.cards_left(p),
                    s.hand_counts[p],
                    tops(p),
                    status(p),
                ),
                active=p in waiting,
            )
            for p, name_ in enumerate(s.players)
        )
        if s.phase is Phase.OVER:
            phase = f"Game over after {s.rounds} round" + ("s" if s.rounds != 1 else "")
        else:
            phase = f"Round {s.round} of {s.rounds} · pile: {self.pile_summary(s)}"
        columns = ("Total", "Rounds", "Cards", "Hand", "Stacks", "Status")
        return Scoreboard(phase, self._prompt(s), columns, rows)

    def view(self, state: SquirrelsState) -> dict[str, Any]:
        s = state
        view: dict[str, Any] = {
            "phase": s.phase.value,
            "round": s.round,
            "rounds": s.rounds,
            "starter": s.starter,
            "to_move": list(self.to_move(s)),
            "pile": [{"card": c, "value": v} for c, v in s.pile],
            "pile_top": self.pile_words(s),
            "pile_count": len(s.pile),
            "turn": s.current if s.phase in (Phase.PLAY, Phase.BLIND_FOLLOW) else None,
            "skipped": [p for p, skipped in enumerate(s.skips) if skipped],
            "discarded": len(s.discard),
            "unused": s.unused_count,
            "safe": s.safe,
            "follow_value": s.follow_value,
            "players": [
                {
                    "seat": p,
                    "hand": s.hand_counts[p],
                    "stacks": [{"top": st.top, "face_down": len(st.down)} for st in s.stacks[p]],
                    "skip": s.skips[p],
                    "final_turn_owed": s.owed[p],
                    "cards_left": s.cards_left(p),
                }
                for p in range(len(s.players))
            ],
            "totals": s.totals,
            "round_scores": [list(r) for r in s.round_scores],
            "revealed": {str(p): list(c) for p, c in s.revealed.items()},
        }
        if s.hands is not None:
            view["hands"] = [list(h) for h in s.hands]
            view["face_down"] = [[list(st.down) for st in stacks] for stacks in s.stacks]
        return view

    def outcome(self, state: SquirrelsState) -> Outcome | None:
        return state.result

    def findings(self, state: SquirrelsState) -> tuple:
        return tuple(state.audit)

    def describe(self, state: SquirrelsState, action: Action) -> str:
        names = state.players
        match action:
            case Starter():
                seat = action.seat if action.seed is None else self._drawn(state, action.seed)
                return f"{names[seat]} starts round {state.round}." if seat is not None else "starter"
            case Deal():
                return f"Round {state.round}: {state.dealt} cards dealt to each player."
            case Layout(player=p, tops=tops):
                return f"{names[p]} laid out stacks showing {', '.join(name(c) for c in tops)}."
            case Play(player=p, cards=cards, stacks=stacks, value=value):
                what = "a Squirrel" if kind(cards[0]) == "squirrel" else self._cards_words(cards, value)
                source = f" ({len(stacks)} from stacks)" if stacks else ""
                return f"{names[p]} played {what}{source}."
            case Push(player=p, target=t, stack=stack):
                source = "" if stack is None else " from a stack"
                if t is None:
                    return f"{names[p]} played a Push{source}."
                return f"{names[p]} pushed the pile to {names[t]}{source}."
            case Skip(player=p, target=t, stack=stack):
                return f"{names[p]} skipped {names[t]}{'' if stack is None else ' from a stack'}."
            case Blind(player=p, card=card, value=value):
                shown = f"a Wild as {value}" if value is not None else article(card)
                return f"{names[p]} flipped a Blind card: {shown}."
            case Pickup(player=p):
                return f"{names[p]} picked up the pile ({len(state.pile)} cards)."
            case Done(player=p):
                return f"{names[p]} ended their turn."
            case Reveal(player=p, cards=cards):
                return f"{names[p]} showed {len(cards)} cards ({sum(points(c) for c in cards)} points)."
        return action.type

    @staticmethod
    def _cards_words(cards: Sequence[str], value: int | None) -> str:
        wilds = sum(kind(c) == "wild" for c in cards)
        (v,) = {NUMBER.get(c, value) for c in cards}
        assert v is not None
        text = count_of(len(cards), v)
        return text + (f" ({wilds} Wild)" if wilds else "")


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _one(stack: int | None) -> tuple[int, ...]:
    return () if stack is None else (stack,)
