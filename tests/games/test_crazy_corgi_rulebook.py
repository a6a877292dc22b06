"""Crazy Corgi: every example of the rulebook, the rules they illustrate, and the refusals in plain words."""

from __future__ import annotations

import random

import pytest

from companion.games.actions import Deal
from companion.games.base import DecisionRequired, GameSetup, IllegalMove, MalformedAction
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
from companion.games.crazy_corgi.sets import SetKind, best_score, deck, possible_kinds
from companion.games.crazy_corgi.state import Phase
from tests.games.crazy_helpers import CC, GIULIO, GM, MARTINA, observed, place, play, refused, reveal, start

MGN = ("Martina", "Giulio", "Noa")


# ------------------------------------------------------------------------------------------ the draw phase
def test_giulio_draws_three_different_numbers_and_keeps_them():
    # "Giulio draws two cards: a red 2 and a yellow 4, both with the fawn fur Corgi. He decides to draw another
    # card: a red 3 with the black fur Corgi. ... He decides to stop and keeps the 3 cards revealed so far."
    state = reveal(start(top=["red-2-fawn", "yellow-4-fawn", "red-3-black"]), ["red-2-fawn"])
    assert refused(state, Stop(GIULIO)).message == "Reveal at least 2 cards before stopping (1 revealed so far)."
    state = reveal(state, ["yellow-4-fawn", "red-3-black"])
    assert CC.scoreboard(state).prompt == "Giulio reveals another card or stops (3 of at most 4)."
    state = play(state, Stop(GIULIO))
    assert (state.phase, state.placer) == (Phase.PLACE, GIULIO)
    assert state.to_place == ["red-2-fawn", "yellow-4-fawn", "red-3-black"]
    state = place(state, ("red-2-fawn", 0), ("red-3-black", 0), ("yellow-4-fawn", 1))
    assert state.kennels[GIULIO] == [["red-2-fawn", "red-3-black"], ["yellow-4-fawn"], []]
    assert (state.phase, state.turn) == (Phase.DRAW, MARTINA)


@pytest.mark.parametrize("fourth", ["green-2-black", "blue-3-fawn", "purple-4-black"])
def test_giulio_would_bust_on_a_2_3_or_4(fourth):
    # "He could take a risk and draw a fourth card, but he would bust if a 2, 3 or 4 is drawn." With two players
    # the only other player receives the cards without being named.
    drawn = ["red-2-fawn", "yellow-4-fawn", "red-3-black", fourth]
    state = reveal(start(top=drawn), drawn)
    assert (state.phase, state.placer, state.to_place) == (Phase.PLACE, MARTINA, drawn)


def test_a_bust_gives_every_revealed_card_to_another_player_of_the_drawers_choice():
    # "you must give all the cards revealed so far (including the one that caused the bust) to another player of
    # your choice. This player will then carry out the Placement phase instead of you."
    state = reveal(start(MGN, top=["red-2-fawn", "blue-2-black"]), ["red-2-fawn", "blue-2-black"])
    assert state.phase is Phase.GIVE and CC.to_move(state) == (0,)
    assert refused(state, Give(0, 0)).message == "A bust gives the revealed cards to another player, not yourself."
    state = play(state, Give(0, 2))
    assert (state.placer, state.to_place) == (2, ["red-2-fawn", "blue-2-black"])
    # Ruling CC-6: once Noa has placed, the turn passes on from the drawer, to Giulio.
    state = place(state, ("red-2-fawn", 0), ("blue-2-black", 0))
    assert (state.phase, state.turn) == (Phase.DRAW, 1)


def test_revealing_both_wilds_busts_and_discards_the_cards():
    # "you will 'bust' if you reveal both Wild cards during the Draw phase. In this case, all the cards revealed
    # this turn are discarded instead of given to another player."
    state = reveal(start(top=["wild", "red-1-fawn", "wild"]), ["wild", "red-1-fawn", "wild"])
    assert state.discard == ["wild", "red-1-fawn", "wild"]
    assert (state.phase, state.turn, state.kennels[GIULIO]) == (Phase.DRAW, MARTINA, [[], [], []])


def test_a_wild_never_busts_by_number():
    # Ruling CC-1: a Wild is no number until its set completes.
    state = reveal(start(top=["red-2-fawn", "wild", "blue-3-fawn"]), ["red-2-fawn", "wild", "blue-3-fawn"])
    assert state.phase is Phase.DRAW and state.drawn == ["red-2-fawn", "wild", "blue-3-fawn"]


def test_the_fourth_card_ends_the_draw():
    # "to a maximum of 4 cards (unless instructed otherwise by an Event card)"
    cards = ["red-1-fawn", "red-2-fawn", "red-3-fawn", "red-4-fawn"]
    state = reveal(start(top=cards), cards)
    assert (state.phase, state.placer, state.to_place) == (Phase.PLACE, GIULIO, cards)


def test_events_do_not_count_towards_the_cards_drawn():
    # "Event cards are not counted toward the number of cards you have drawn this turn."
    state = reveal(start(top=["red-1-fawn", "event-bowl", "blue-2-fawn"]), ["red-1-fawn", "event-bowl"])
    state = reveal(state, ["blue-2-fawn"])
    assert state.drawn == ["red-1-fawn", "blue-2-fawn"] and state.discard == ["event-bowl"]
    assert refused(state, Reveal(GIULIO, "green-5-fawn")).code == "not-top-card"


# ------------------------------------------------------------------------------------------ the Events
def test_martinas_baseball_every_player_draws_and_places_then_she_draws_her_second_card():
    # "Martina draws a baseball card as her second card during her turn. Martina and every other player immediately
    # draw a card and place it in their Kennels. Then, Martina must proceed to draw her second card from the deck."
    top = ["red-3-fawn", "event-baseball", "blue-1-fawn", "green-2-black", "yellow-5-fawn", "purple-4-black"]
    state = reveal(start(MGN, top=top), top[:2])
    assert state.phase is Phase.BASEBALL and CC.to_move(state) == (0,)  # Ruling CC-4: from the drawer, in turn order
    assert refused(state, Reveal(1, "blue-1-fawn")).message == "It is Martina's turn to draw, not Giulio's."
    for seat, card in ((0, "blue-1-fawn"), (1, "green-2-black"), (2, "yellow-5-fawn")):
        state = reveal(state, [card])
        assert (state.placer, state.to_place) == (seat, [card])
        state = place(state, (card, 0))
    assert state.kennels[0][0] == ["blue-1-fawn"] and state.kennels[2][0] == ["yellow-5-fawn"]
    assert (state.phase, state.turn, state.drawn, state.discard) == (Phase.DRAW, 0, ["red-3-fawn"], ["event-baseball"])
    state = reveal(state, ["purple-4-black"])
    assert state.drawn == ["red-3-fawn", "purple-4-black"]


def test_giulios_bones_takes_a_corgi_from_the_discard_pile_then_he_stops():
    # "Giulio draws 2 cards (blue 2, red 5), then draws a bones card as his third card. He looks through the
    # discard pile, and decides to add a green 5 to his Kennels. Then, he decides to stop drawing cards, and place
    # the blue 2 & red 5 in his Kennels."
    top = ["blue-2-fawn", "red-5-fawn", "event-bones"]
    state = reveal(start(top=top, discard=["wild", "green-5-black"]), top)
    assert state.phase is Phase.BONES
    assert refused(state, TakeBones(GIULIO, "wild")).message == "Bones takes a Corgi card (not a Wild or an Event)."
    assert refused(state, TakeBones(GIULIO, "green-5-fawn")).code == "not-in-discard"
    state = play(state, TakeBones(GIULIO, "green-5-black"))
    assert (state.placer, state.to_place, state.discard) == (GIULIO, ["green-5-black"], ["wild"])
    state = place(state, ("green-5-black", 0))
    assert state.phase is Phase.DRAW and state.discard == ["wild", "event-bones"]
    state = place(play(state, Stop(GIULIO)), ("blue-2-fawn", 1), ("red-5-fawn", 0))
    assert state.kennels[GIULIO] == [["green-5-black", "red-5-fawn"], ["blue-2-fawn"], []]


def test_martinas_fleas_steal_the_green_5_from_giulios_kennel():
    # "Martina draws a fleas card. She steals the green 5 from Giulio's Kennel."
    state = start(top=["event-fleas"], kennels={GIULIO: [["blue-1-fawn", "green-5-black"], [], []]}, first_player=1)
    state = reveal(state, ["event-fleas"])
    assert state.phase is Phase.FLEAS and CC.to_move(state) == (MARTINA,)
    assert refused(state, Steal(MARTINA, MARTINA, 0)).code == "fleas-opponent"
    assert refused(state, Steal(MARTINA, GIULIO, 1)).message == "Giulio's Kennel 2 is empty."
    text = "Fleas: Martina steals the green 5 (black) from Giulio's Kennel 1."
    assert CC.describe(state, Steal(MARTINA, GIULIO, 0)) == text
    state = place(play(state, Steal(MARTINA, GIULIO, 0)), ("green-5-black", 2))
    assert state.kennels[GIULIO][0] == ["blue-1-fawn"] and state.kennels[MARTINA][2] == ["green-5-black"]
    assert state.phase is Phase.DRAW and state.turn == MARTINA and state.discard == ["event-fleas"]


def test_only_the_uncovered_card_of_a_kennel_can_be_stolen():
    # Ruling CC-2: Kennel cards overlap; only the last placed is "not covered by others".
    kennel = ["red-1-fawn", "red-2-fawn", "red-3-fawn"]
    state = start(top=["event-fleas"], kennels={GIULIO: [kennel, [], []]}, first_player=1)
    state = play(reveal(state, ["event-fleas"]), Steal(MARTINA, GIULIO, 0))
    assert state.to_place == ["red-3-fawn"] and state.kennels[GIULIO][0] == ["red-1-fawn", "red-2-fawn"]


def test_fleas_with_nothing_to_steal_and_bones_with_no_corgi_do_nothing():
    # Ruling CC-5.
    state = reveal(start(top=["event-fleas", "event-bones"], discard=["wild"]), ["event-fleas"])
    assert state.phase is Phase.DRAW and state.discard == ["wild", "event-fleas"]
    state = reveal(state, ["event-bones"])
    assert state.phase is Phase.DRAW and state.discard == ["wild", "event-fleas", "event-bones"]


def test_bones_may_be_declined():
    # "You may choose a Corgi card".
    state = reveal(start(top=["event-bones"], discard=["red-1-fawn"]), ["event-bones"])
    state = play(state, TakeBones(GIULIO, None))
    assert state.phase is Phase.DRAW and state.discard == ["red-1-fawn", "event-bones"]


def test_giulios_collar_forces_two_more_cards_and_he_collects_all_five():
    # "Giulio has drawn 3 cards (red 1, red 2, yellow 4). He's close to winning and he decides to draw a fourth
    # card. He gets a Collar, so he is now forced to draw 2 more cards. He reveals a green 3 and purple 5, he's so
    # lucky! He collects all 5 cards."
    top = ["red-1-fawn", "red-2-fawn", "yellow-4-fawn", "event-collar", "green-3-black", "purple-5-fawn"]
    state = reveal(start(top=top), top[:4])
    assert refused(state, Stop(GIULIO)).message == "The Collar forces you to draw 2 cards more before you may stop."
    state = reveal(state, top[4:5])
    assert CC.scoreboard(state).prompt == "Collar: Giulio must draw 1 more card."
    state = reveal(state, top[5:])
    assert (state.phase, state.placer) == (Phase.PLACE, GIULIO)
    assert state.to_place == ["red-1-fawn", "red-2-fawn", "yellow-4-fawn", "green-3-black", "purple-5-fawn"]
    assert state.discard == ["event-collar"]


def test_a_collar_can_still_bust():
    # "You may still 'bust' as normal."
    top = ["red-1-fawn", "event-collar", "blue-1-fawn"]
    state = reveal(start(top=top), top)
    assert (state.placer, state.to_place, state.discard) == (MARTINA, ["red-1-fawn", "blue-1-fawn"], ["event-collar"])


def test_after_a_collar_drawing_goes_on_up_to_four_cards():
    # Ruling CC-10: the Collar's two cards are forced; the player may then draw on while under four.
    top = ["event-collar", "red-1-fawn", "red-2-fawn", "red-3-fawn", "red-4-fawn"]
    state = reveal(start(top=top), top[:3])
    assert state.phase is Phase.DRAW and state.drawn == ["red-1-fawn", "red-2-fawn"]
    state = reveal(state, top[3:])
    assert state.phase is Phase.PLACE and len(state.to_place) == 4


def test_martinas_bowl_she_peeks_at_a_red_2_and_stops_with_one_card():
    # "Martina first draws a red 3, then draws a Bowl card. She looks at the top card of the deck. It is a red 2,
    # which does not fit well with her current Kennels, so she decides to stop drawing and only keep the red 3."
    state = reveal(start(top=["red-3-fawn", "event-bowl", "red-2-black"], first_player=1), ["red-3-fawn", "event-bowl"])
    assert state.deck[0] == "red-2-black"  # the peek: full-information play shows it; at the table only she sees it
    assert CC.scoreboard(state).prompt == "Bowl: Martina peeks at the top card, then stops or draws on."
    state = play(state, Stop(MARTINA))
    assert (state.placer, state.to_place) == (MARTINA, ["red-3-fawn"])


def test_a_bowl_allows_stopping_with_no_card_but_drawing_on_restores_the_minimum():
    # "(You might end up with only 0-1 cards this turn.)" Ruling CC-11: only right after the peek.
    state = reveal(start(top=["event-bowl", "red-2-black"]), ["event-bowl"])
    assert (play(state, Stop(GIULIO)).phase, play(state, Stop(GIULIO)).turn) == (Phase.DRAW, MARTINA)
    state = reveal(state, ["red-2-black"])
    assert refused(state, Stop(GIULIO)).code == "draw-two"


def test_an_event_while_resolving_an_event_is_discarded_and_replaced():
    # "Event cards will never cause another Event card to activate. If anyone draws another Event card while
    # resolving an event, ignore and replace it with another card" (Ruling CC-9: onto the discard pile).
    top = ["event-collar", "event-bowl", "red-1-fawn", "event-fleas", "blue-2-fawn"]
    state = reveal(start(top=top), top[:2])
    assert CC.describe(start(top=top), Reveal(GIULIO, "event-collar")) == (
        "Giulio reveals the Collar. They must draw two more cards.")
    assert CC.describe(state, Reveal(GIULIO, "red-1-fawn")) == "Giulio reveals the red 1 (fawn)."
    assert CC.describe(reveal(state, ["red-1-fawn"]), Reveal(GIULIO, "event-fleas")) == (
        "Giulio reveals the Fleas. An Event while resolving an Event: discarded, draw another.")
    assert state.collar_left == 2 and not state.bowl_offer and state.discard == ["event-bowl"]
    state = reveal(state, top[2:])
    assert state.drawn == ["red-1-fawn", "blue-2-fawn"]
    assert state.discard == ["event-bowl", "event-fleas", "event-collar"]
    # In a Baseball too: the same player draws again.
    top = ["event-baseball", "event-bones", "red-1-fawn"]
    state = reveal(start(top=top), top[:2])
    assert state.phase is Phase.BASEBALL and CC.to_move(state) == (GIULIO,) and state.discard == ["event-bones"]
    state = reveal(state, top[2:])
    assert state.to_place == ["red-1-fawn"]


def test_a_bust_gives_only_the_cards_in_the_draw_zone():
    # Ruling CC-8: a Bones card already went into the Kennels; the Event went to the discard pile.
    top = ["red-1-fawn", "event-bones", "blue-1-fawn"]
    state = reveal(start(MGN, top=top, discard=["green-4-fawn"]), top[:2])
    state = place(play(state, TakeBones(0, "green-4-fawn")), ("green-4-fawn", 0))
    state = play(reveal(state, ["blue-1-fawn"]), Give(0, 1))
    assert state.to_place == ["red-1-fawn", "blue-1-fawn"] and state.kennels[0][0] == ["green-4-fawn"]


# ------------------------------------------------------------------------------------------ placement and sets
MARTINA_KENNELS = [["red-2-black", "red-3-fawn", "red-4-fawn"], ["red-2-fawn", "yellow-5-fawn"],
                   ["purple-3-black", "blue-3-black"]]


def test_martina_places_four_cards_scoring_the_red_set():
    # "Martina has 3 Kennels already: one with a red 2, a red 3 and a red 4, one with a red 2 and a yellow 5, and
    # one with a purple 3 and a blue 3. She needs to add 4 cards: red 1, blue 3, red 4 and yellow 5."
    cards = ["red-1-black", "blue-3-fawn", "red-4-black", "yellow-5-black"]
    state = reveal(start(top=cards, kennels={MARTINA: MARTINA_KENNELS}, first_player=1), cards)
    assert (state.placer, state.to_place) == (MARTINA, cards)
    # "She places the red 1 in the first Kennel; she could complete that set with the yellow 5 for 1 point, but
    # instead she decides to place the red 4 in that Kennel, completing the set with 5 cards of the same color and
    # getting 2 points."
    state = place(state, ("red-1-black", 0))
    assert best_score([*state.kennels[MARTINA][0], "yellow-5-black"]).points == 1
    text = CC.describe(state, Place(MARTINA, "red-4-black", 0))
    assert text == "Martina places the red 4 (black) in Kennel 1. Set complete: all the same colour: 2 points."
    state = place(state, ("red-4-black", 0))
    assert state.points[MARTINA] == 2 and state.kennels[MARTINA][0] == []
    assert state.scored[-1].score.kind is SetKind.COLOUR
    assert sorted(state.discard) == sorted(["red-2-black", "red-3-fawn", "red-4-fawn", "red-1-black", "red-4-black"])
    # "Then, she places the yellow 5 in the newly vacated Kennel, the only possible spot for that card."
    assert refused(state, Place(MARTINA, "yellow-5-black", 1)).message == (
        "A Kennel holds one set: the red 2 (fawn) and the yellow 5 (fawn) make it a set of different numbers, "
        "so a yellow 5 (black) cannot go in."
    )
    assert refused(state, Place(MARTINA, "yellow-5-black", 2)).code == "breaks-the-set"
    state = place(state, ("yellow-5-black", 0))
    # "The blue 3 could be placed in either of the other two Kennels, but since she has a fawn Corgi in the second
    # Kennel, Martina decides to place it there, hoping to get the bonus point in a later turn."
    assert CC.legal(state, Place(MARTINA, "blue-3-fawn", 2)) is None
    state = place(state, ("blue-3-fawn", 1))
    assert state.kennels[MARTINA] == [["yellow-5-black"], ["red-2-fawn", "yellow-5-fawn", "blue-3-fawn"],
                                      ["purple-3-black", "blue-3-black"]]
    assert (state.phase, state.turn) == (Phase.DRAW, GIULIO)


def test_a_same_number_kennel_refuses_another_number_in_plain_words():
    twos = [["red-2-fawn", "blue-2-black"], [], []]
    state = reveal(start(top=["red-4-fawn", "green-1-fawn"], kennels={GIULIO: twos}), ["red-4-fawn", "green-1-fawn"])
    state = play(state, Stop(GIULIO))
    violation = refused(state, Place(GIULIO, "red-4-fawn", 0))
    assert isinstance(violation, IllegalMove)
    assert violation.message == ("A Kennel holds one set: the red 2 (fawn) and the blue 2 (black) make it a "
                                 "same-number set, so a red 4 (fawn) cannot go in.")
    assert refused(state, Place(GIULIO, "red-5-fawn", 1)).code == "not-to-place"


@pytest.mark.parametrize(
    ("cards", "points", "kind"),
    [
        (["red-1-fawn", "blue-2-black", "green-3-fawn", "yellow-4-fawn", "purple-5-fawn"], 1, SetKind.NUMBERS),
        (["red-1-fawn", "blue-1-black", "green-1-fawn", "yellow-1-fawn", "purple-1-fawn"], 2, SetKind.NUMBER),
        (["red-1-fawn", "red-1-black", "red-3-fawn", "red-4-fawn", "red-5-fawn"], 2, SetKind.COLOUR),
        (["red-1-fawn", "blue-2-fawn", "green-3-fawn", "yellow-4-fawn", "purple-5-fawn"], 2, SetKind.NUMBERS),
        (["red-1-black", "blue-1-black", "green-1-black", "yellow-1-black", "purple-1-black"], 3, SetKind.NUMBER),
        (["red-1-fawn", "red-2-fawn", "red-3-fawn", "red-4-fawn", "red-5-fawn"], 3, SetKind.COLOUR),
        (["red-1-fawn", "red-2-fawn", "wild", "red-4-fawn", "wild"], 3, SetKind.COLOUR),
    ],
)
def test_points_recap(cards, points, kind):
    # "Points Recap": different numbers 1, same number 2, same colour 2, +1 for one fur; only the higher combination.
    score = best_score(cards)
    assert (score.points, score.kind) == (points, kind)


def test_a_card_that_fits_nowhere_forces_a_whole_kennels_discard_and_starts_it_again():
    # "If it is not possible to legally place a card in any Kennel, then you must discard all the cards in one of
    # your Kennels and start a new set." Ruling CC-3: never voluntarily, and the misfit starts the emptied Kennel.
    kennels = [["red-1-fawn", "blue-1-fawn"], ["yellow-2-fawn", "purple-2-black"], ["blue-4-black", "purple-4-black"]]
    state = play(reveal(start(top=["green-3-fawn", "green-1-black"], kennels={GIULIO: kennels}),
                        ["green-3-fawn", "green-1-black"]), Stop(GIULIO))
    state = place(state, ("green-1-black", 0))
    state = play(state, DiscardKennel(GIULIO, 1))
    assert state.kennels[GIULIO][1] == [] and state.discard == ["yellow-2-fawn", "purple-2-black"]
    assert refused(state, Place(GIULIO, "green-3-fawn", 0)).message == (
        "Kennel 2 was emptied for the green 3 (fawn): place it there to start a new set.")
    state = place(state, ("green-3-fawn", 1))
    assert state.kennels[GIULIO][1] == ["green-3-fawn"] and state.turn == MARTINA


def test_a_kennel_cannot_be_discarded_while_every_card_fits():
    state = play(reveal(start(top=["green-3-fawn", "green-1-black"]), ["green-3-fawn", "green-1-black"]), Stop(GIULIO))
    assert refused(state, DiscardKennel(GIULIO, 0)).code == "no-misfit"


def test_a_partial_kennel_stays_valid_whatever_cards_are_left():
    # Ruling CC-13: the referee judges the combination, not which cards are still to be had.
    fives = ["red-5-fawn", "blue-5-fawn", "green-5-fawn"]
    gone = ["red-5-black", "blue-5-black", "green-5-black", "yellow-5-fawn", "purple-5-fawn", "purple-5-black",
            "wild", "wild"]
    state = play(reveal(start(top=["yellow-5-black", "red-1-fawn"], kennels={GIULIO: [fives, [], []]}, discard=gone),
                        ["yellow-5-black", "red-1-fawn"]), Stop(GIULIO))
    assert place(state, ("yellow-5-black", 0)).kennels[GIULIO][0] == [*fives, "yellow-5-black"]
    assert possible_kinds(fives) == (SetKind.NUMBER,)


# ------------------------------------------------------------------------------------------ the end of the game
def test_reaching_five_points_wins_at_once_even_with_cards_left_to_place():
    # "The game ends immediately when one of the players reaches 5 or more points."
    reds = ["red-1-fawn", "red-2-fawn", "red-3-fawn", "red-4-fawn"]
    state = start(top=["red-5-fawn", "blue-1-black"], kennels={GIULIO: [reds, [], []]}, points=[4, 0])
    state = place(play(reveal(state, ["red-5-fawn", "blue-1-black"]), Stop(GIULIO)), ("red-5-fawn", 0))
    assert CC.outcome(state).winners == (GIULIO,) and CC.outcome(state).reason == "Reached 7 points"
    assert state.to_place == ["blue-1-black"] and state.phase is Phase.OVER
    assert refused(state, Place(GIULIO, "blue-1-black", 1)).message == "The game is over; start a new one."


def _baseball_finish(points: list[int], third: str) -> object:
    """Martina draws a Baseball; Martina and Giulio each complete a Kennel with their card."""
    ones = ["red-1-fawn", "blue-1-fawn", "green-1-fawn", "yellow-1-fawn"]
    twos = ["red-2-black", "blue-2-black", "green-2-black", "yellow-2-black"]
    top = ["event-baseball", "purple-1-fawn", "purple-2-black", third]
    state = start(MGN, top=top, kennels={0: [ones, [], []], 1: [twos, [], []]}, points=points)
    state = reveal(state, ["event-baseball", "purple-1-fawn"])
    state = place(state, ("purple-1-fawn", 0))
    assert state.points[0] == points[0] + 3 and CC.outcome(state) is None  # Ruling CC-4: the Baseball goes on
    state = place(reveal(state, ["purple-2-black"]), ("purple-2-black", 0))
    return place(reveal(state, [third]), (third, 0))


def test_a_tie_in_a_baseball_is_a_shared_victory():
    # "In case of a tie (due to the Baseball event), all tied players share a combined victory."
    state = _baseball_finish([2, 2, 0], "red-3-fawn")
    assert CC.outcome(state).winners == (0, 1)
    assert CC.outcome(state).reason == "Reached 5 points in a Baseball; 5 points is the most: a shared victory"


def test_two_players_passing_five_in_a_baseball_the_most_points_wins():
    # Ruling CC-7.
    assert CC.outcome(_baseball_finish([3, 2, 0], "red-3-fawn")).winners == (0,)


def test_nobody_can_draw_when_every_corgi_is_in_a_kennel_so_the_most_points_win():
    # Ruling CC-16.
    players = ("A", "B", "C", "D", "E", "F")
    by_number = {n: [f.id for f in deck() if f.kind == "corgi" and f["number"] == n] for n in range(1, 6)}
    kennels = [c[i:i + 4] for n in range(1, 6) for c in [by_number[n]] for i in range(0, 10, 4)] + [["wild", "wild"]]
    laid = {seat: kennels[seat * 3:seat * 3 + 3] for seat in range(6)}
    state = start(players, top=["event-bowl"], kennels=laid, points=[1, 3, 0, 3, 0, 0])
    assert refused(state, Reveal(0, "event-bowl")).message == (
        "No Corgi or Wild card is left in the deck or the discard pile: stop drawing.")
    state = play(state, Stop(0))
    outcome = CC.outcome(state)
    assert outcome.winners == (1, 3)
    assert outcome.reason == "No card is left to draw; 3 points is the most: a shared victory"


# ------------------------------------------------------------------------------------------ the deck
def test_the_deck_is_reshuffled_when_a_card_is_next_needed():
    # "If the deck is exhausted before a player reaches 5 points, reshuffle the discard pile" (Ruling CC-12).
    state = start(top=["red-1-fawn", "blue-2-fawn"])
    state.discard, state.deck = state.deck[2:], state.deck[:2]
    state = reveal(state, ["red-1-fawn", "blue-2-fawn"])
    assert state.current is Phase.RESHUFFLE and CC.to_move(state) == ()
    violation = refused(state, Stop(GIULIO))
    assert isinstance(violation, DecisionRequired)
    assert violation.message == "The deck is empty: shuffle the discard pile into a new deck."
    chance = CC.chance(state, random.Random(1))
    pile = sorted(state.discard)
    state = play(state, chance)
    assert sorted(state.deck) == pile and state.discard == [] and state.current is Phase.DRAW


def test_a_bones_revealed_as_the_last_card_still_finds_the_discard_pile():
    state = start(top=["event-bones"])
    state.discard, state.deck = state.deck[1:], state.deck[:1]
    state = reveal(state, ["event-bones"])
    assert state.current is Phase.BONES


# ------------------------------------------------------------------------------------------ setup
def test_two_to_six_players():
    # Ruling CC-14: 12 small and 6 large markers are 30 points; six players need at most 5 x 4 + 7 = 27.
    assert (CC.min_players, CC.max_players) == (2, 6)
    with pytest.raises(MalformedAction, match=r"Crazy Corgi is for 2 to 6 players, not 7\."):
        CC.setup(GameSetup("crazy-corgi", tuple("ABCDEFG")))


def test_the_markers_shown_never_need_more_than_the_box_holds():
    # "12 Small point markers (1 VP)", "6 Large point markers (3 VP)": five players on 4 and a winner on 7 would
    # need seven large markers if each took as many as fit; the scoreboard hands out the box's six.
    assert CC.markers([4, 4, 4, 4, 4, 7]) == ["1 large + 1 small"] * 5 + ["1 large + 4 small"]
    assert CC.markers([7, 6, 0]) == ["2 large + 1 small", "2 large", "none"]
    assert CC.markers([2, 1]) == ["2 small", "1 small"]


def test_the_youngest_player_starts():
    # "The youngest player will be the starting player." (Ruling CC-15: the referee names the seat.)
    state = start(MGN, first_player=2)
    assert CC.to_move(state) == (2,)
    with pytest.raises(MalformedAction, match=r"first_player must be a seat from 0 to 2\."):
        CC.setup(GameSetup("crazy-corgi", MGN, options={"first_player": 3}))


def test_a_game_carried_on_from_paper_starts_from_the_markers_points():
    # Ruling CC-23: each player's markers, 0 to 4 points (5 would have ended the game).
    reds = ["red-1-fawn", "red-2-fawn", "red-3-fawn", "red-4-fawn"]
    state = start(top=["red-5-fawn", "blue-1-black"], kennels={GIULIO: [reds, [], []]}, starting_points=[3, 4])
    assert state.points == [3, 4]
    state = place(play(reveal(state, ["red-5-fawn", "blue-1-black"]), Stop(GIULIO)), ("red-5-fawn", 0))
    assert state.phase is Phase.OVER and state.points == [6, 4]  # 3 + the red set (2 + 1 for the fawn fur)
    with pytest.raises(MalformedAction, match=r"starting_points must list 2 scores from 0 to 4\."):
        CC.setup(GameSetup("crazy-corgi", GM, options={"starting_points": [5, 0]}))


# ------------------------------------------------------------------------------------------ Wilds
def test_wilds_score_at_their_best_by_default():
    reds = ["red-1-fawn", "red-2-fawn", "red-3-fawn", "wild"]
    state = start(top=["wild", "blue-1-black"], kennels={GIULIO: [reds, [], []]})
    state = place(play(reveal(state, ["wild", "blue-1-black"]), Stop(GIULIO)), ("wild", 0))
    assert state.points[GIULIO] == 3 and state.scored[-1].score.fur == "fawn"


def test_declared_wilds_are_scored_as_declared():
    # "You can decide on what it is when you complete a set." (option wilds = "declare")
    reds = ["red-1-fawn", "red-2-fawn", "red-3-fawn", "red-4-fawn"]
    state = start(top=["wild", "blue-1-black"], kennels={GIULIO: [reds, [], []]}, wilds="declare")
    state = place(play(reveal(state, ["wild", "blue-1-black"]), Stop(GIULIO)), ("wild", 0))
    assert state.phase is Phase.DECLARE and CC.to_move(state) == (GIULIO,)
    assert CC.scoreboard(state).prompt == "Giulio completed Kennel 1: declare what its Wild stands for."
    assert refused(state, Place(GIULIO, "blue-1-black", 1)).code == "waiting-declare"
    assert refused(state, DeclareWild(GIULIO, "blue-4-black")).message == (
        "As a blue 4 (black) the Wild would leave red 1 (fawn), red 2 (fawn), red 3 (fawn) and red 4 (fawn) "
        "no valid set."
    )
    assert refused(state, DeclareWild(GIULIO, "event-bowl")).code == "declare-a-corgi"
    state = play(state, DeclareWild(GIULIO, "blue-5-black"))
    assert state.points[GIULIO] == 1 and state.scored[-1].declared == ("blue-5-black",)
    assert state.phase is Phase.PLACE and state.to_place == ["blue-1-black"]


# ------------------------------------------------------------------------------------------ the table's view
def test_at_the_table_any_unseen_card_may_be_revealed_but_not_one_already_in_view():
    state = observed()
    with pytest.raises(ValueError, match="full-information"):
        CC.legal_actions(state)
    state = play(state, Reveal(GIULIO, "red-2-fawn"), Reveal(GIULIO, "blue-3-fawn"), Stop(GIULIO))
    state = place(state, ("red-2-fawn", 0), ("blue-3-fawn", 0))
    violation = refused(state, Reveal(MARTINA, "blue-3-fawn"))
    assert violation.message == "The blue 3 (fawn) is in Giulio's Kennel 1: check that card."
    assert CC.view(state)["deck"] == 55 and "deck_order" not in CC.view(state)
    unshuffled = CC.setup(GameSetup("crazy-corgi", ("A", "B")))
    assert refused(unshuffled, Deal(5)).message == "In this game a deal needs no seed."
    assert refused(unshuffled, DeckOrder(tuple(deck().cards()))).code == "deck-order-unknown"


def test_an_explicit_deck_order_holds_every_card_once():
    unshuffled = CC.setup(GameSetup("crazy-corgi", ("A", "B"), full_information=True))
    violation = refused(unshuffled, DeckOrder(tuple(deck().cards())[1:]))
    assert violation.message == "The deck order must hold exactly the 57 cards being shuffled, each once."
    assert refused(unshuffled, Deal(None)).message == "In this game a deal needs a seed."
    assert CC.apply(unshuffled, Deal(3)).deck == CC.apply(unshuffled, Deal(3)).deck


def test_malformed_moves_are_named():
    state = play(reveal(start(top=["red-1-fawn", "red-2-fawn"]), ["red-1-fawn", "red-2-fawn"]), Stop(GIULIO))
    assert isinstance(refused(state, Place(GIULIO, "red-6-fawn", 0)), MalformedAction)
    assert refused(state, Place(GIULIO, "red-1-fawn", 3)).message == "Kennels are numbered 0 to 2, not 3."
    not_yours = "It is Giulio's turn to place cards, not Martina's."
    assert refused(state, Place(MARTINA, "red-1-fawn", 0)).message == not_yours
    no_kennel = {"type": "place", "player": 0, "card": "red-1-fawn"}
    assert refused(state, no_kennel).message == "A 'place' action needs 'kennel'."


def test_the_scoreboard_shows_points_kennels_and_markers():
    state = start(kennels={GIULIO: [["red-1-fawn"], [], ["wild"]]}, points=[4, 0])
    board = CC.scoreboard(state)
    assert board.columns == ("Points", "Kennel 1", "Kennel 2", "Kennel 3", "Markers")
    assert board.rows[0].cells == (4, "red 1 (fawn)", "", "Wild", "1 large + 1 small")
    assert board.rows[0].active and not board.rows[1].active
    assert CC.view(state)["kennels"][GIULIO] == [["red-1-fawn"], [], ["wild"]]
