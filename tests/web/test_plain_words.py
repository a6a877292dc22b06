"""The referee in plain words and the charts (issue 17): what the generated forms are built from, over HTTP."""

from __future__ import annotations

from companion.games.base import GameSetup
from companion.games.pigzup.actions import Flip, MatchVerdict
from companion.games.registry import GAMES
from companion.table.session import TableSession
from companion.web.charts import scores_by_round
from tests.web.conftest import Browser, legal_move, start


def test_every_game_declares_its_options_in_words(visitor: Browser) -> None:
    games = {g["name"]: g for g in visitor.client.get("/api/games").json}
    assert [o["name"] for o in games["corgi-pileup"]["options"]] == ["first_leader", "starting_scores", "round_leader"]
    suits = next(o for o in games["clash-of-corgis"]["options"] if o["name"] == "suits")
    assert suits["kind"] == "choices" and suits["count"] == 2 and suits["variants"] == ["capture"]
    assert all(o["label"] and o["unset"] for g in games.values() for o in g["options"])
    for name, ruleset in GAMES.items():
        declared = visitor.client.get(f"/api/games/{name}").json["options"]
        assert {o["name"] for o in declared} == {o.name for o in ruleset.options}


def test_choices_offer_the_cards_the_rules_allow_and_whose_move_it_is(referee: Browser, table: TableSession) -> None:
    start(table)
    choices = referee.client.get("/api/referee/choices").json
    assert choices["deck"] == "corgi-pileup" and len(choices["faces"]) == 10
    assert choices["known"] is True and choices["types"] == ["play"]
    seat = choices["to_move"][0]
    assert choices["allowed"]["play"]["card"] == sorted({str(c) for c in table.state.hands[seat]})
    assert legal_move(table).player == seat


def test_hidden_cards_offer_the_whole_deck(referee: Browser, table: TableSession) -> None:
    table.start_game(GameSetup("pigzup", ("Ann", "Ben")), source="test")
    choices = referee.client.get("/api/referee/choices").json
    assert choices["known"] is False and "allowed" not in choices and len(choices["faces"]) == 48
    assert choices["to_move"] == [0]


def test_choices_are_the_referees_alone(visitor: Browser, table: TableSession) -> None:
    start(table)  # full information: the legal cards would show a player's hand
    assert visitor.client.get("/api/referee/choices").status_code == 401


def test_an_overrule_that_undoes_later_moves_asks_first(referee: Browser, table: TableSession) -> None:
    table.start_game(GameSetup("pigzup", ("Ann", "Ben")), source="test")
    table.submit(Flip(0, "3-pink-blue"), source="camera")
    table.submit(Flip(1, "3-blue-green"), source="camera")
    verdict = table.submit(MatchVerdict(0, "Ann's pile stood"), source="judge")
    flip = table.submit(Flip(0, "2-pink-pink"), source="camera")
    body = {"seq": verdict.seq, "action": {"type": "verdict", "winner": 1}}
    asked = referee.post("/api/referee/overrule", body)
    assert asked.status_code == 409 and asked.json["error"] == "overrule-undoes"
    assert asked.json["undoes"] == [{"seq": flip.seq, "text": "Ann flipped 2 pink/pink."}]
    assert table.state.results[-1].winner == 0
    done = referee.post("/api/referee/overrule", {**body, "confirm": True})
    assert done.status_code == 200 and done.json["state"]["recent"][-1]["text"].startswith("Ben wins")
    history = referee.client.get(f"/history/{table.game_id}").get_data(as_text=True)
    assert f"The referee overruled #{verdict.seq}" in history


def test_bad_overrules_are_refused_in_words(referee: Browser, table: TableSession) -> None:
    start(table)
    for body in ({}, {"seq": "1", "action": {}}, {"seq": 1, "action": []}, {"seq": 1, "action": {}, "confirm": 1}):
        refused = referee.post("/api/referee/overrule", body)
        assert refused.status_code == 400 and refused.json["message"]


def test_charts_are_drawn_for_games_that_have_them(visitor: Browser, table: TableSession) -> None:
    start(table)
    while table.status() == "playing":
        table.submit(legal_move(table), source="bot")
    chart = visitor.client.get(f"/charts/{table.game_id}.svg")
    assert chart.status_code == 200 and chart.mimetype == "image/svg+xml"
    text = chart.get_data(as_text=True)
    assert "Scores by round" in text and "<script" not in text and "http://www.w3.org/2000/svg" in text
    assert all(name in text for name in table.snapshot()["players"])
    table.start_game(GameSetup("crazy-corgi", ("Ann", "Ben")), source="test")
    assert visitor.client.get(f"/charts/{table.game_id}.svg").status_code == 404


def test_a_new_game_starts_without_the_last_games_warnings(table: TableSession) -> None:
    start(table)
    table.submit({"type": "play", "player": 2, "card": 99}, source="camera")
    assert table.snapshot()["warnings"]
    start(table)
    assert table.snapshot()["warnings"] == []


def test_the_score_chart_follows_each_rounds_end(table: TableSession) -> None:
    table.start_game(GameSetup("squirrels", ("Ann", "Ben"), full_information=True), source="test")
    squirrels = GAMES["squirrels"]
    while table.status() == "playing":
        table.submit(squirrels.legal_actions(table.state)[0], source="bot")
    names, series = scores_by_round(table.log.events(table.game_id), "Total")
    rounds = table.state.round_scores
    assert names == ["Ann", "Ben"]
    assert series == [[sum(r[seat] for r in rounds[: n + 1]) for n in range(len(rounds))] for seat in (0, 1)]
