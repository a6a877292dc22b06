"""The table's questions on the phones: a player answers their own choice without the PIN; the referee's
questions need it; every answer is recorded like a move, and a bad answer changes nothing."""

from __future__ import annotations

from companion.games.base import GameSetup
from companion.games.corgi_pileup.actions import ChooseSixTarget, Play
from companion.table.prompts import Option
from companion.table.session import TableSession
from tests.web.conftest import Browser


def six_to_choose(table: TableSession) -> None:
    """Cai's 6 has won the trick: the game waits for his choice of who discards."""
    table.start_game(GameSetup("corgi-pileup", ("Ana", "Ben", "Cai")), source="test")
    for seat, card in ((0, 2), (1, 3), (2, 6)):
        table.submit(Play(seat, card), source="camera")


def ask_cai(table: TableSession) -> int:
    options = [Option(name, ChooseSixTarget(2, seat)) for seat, name in enumerate(("Ana", "Ben", "Myself"))]
    return table.prompts.ask("six-target", "Who discards?", options, seat=2).id


def test_open_prompts_are_listed_with_a_token_any_phone_can_use(table: TableSession, visitor: Browser) -> None:
    six_to_choose(table)
    prompt_id = ask_cai(table)
    listed = visitor.client.get("/api/prompts").json
    assert [p["id"] for p in listed["prompts"]] == [prompt_id] and listed["csrf_token"]
    assert visitor.client.get("/api/state").json["prompts"][0]["options"][1]["label"] == "Ben"


def test_a_player_answers_their_own_choice_without_the_pin(table: TableSession, visitor: Browser) -> None:
    six_to_choose(table)
    prompt_id = ask_cai(table)
    response = visitor.post(f"/api/prompts/{prompt_id}", {"option": 1})
    assert response.status_code == 200, response.json
    assert table.state.six_target == 1
    assert table.log.events(table.game_id)[-1].source == f"prompt {prompt_id}: a phone"
    again = visitor.post(f"/api/prompts/{prompt_id}", {"option": 0})
    assert again.status_code == 409 and "already been answered" in again.json["message"]


def test_a_referee_question_needs_the_pin(table: TableSession, visitor: Browser) -> None:
    table.start_game(GameSetup("corgi-pileup", ("Ana", "Ben", "Cai")), source="test")
    prompt_id = table.prompts.ask("unreadable:centre", "Which card?", [Option("7", Play(0, 7))], seat=None).id
    refused = visitor.post(f"/api/prompts/{prompt_id}", {"option": 0})
    assert refused.status_code == 409 and "referee PIN" in refused.json["message"]
    assert table.state.trick == []
    assert visitor.unlock().status_code == 200
    assert visitor.post(f"/api/prompts/{prompt_id}", {"option": 0}).status_code == 200
    assert table.state.trick == [(0, 7)]


def test_malformed_answers_are_a_clear_4xx_and_change_nothing(table: TableSession, visitor: Browser) -> None:
    six_to_choose(table)
    prompt_id = ask_cai(table)
    seq = table.snapshot()["seq"]
    for body in ({}, {"option": "1"}, {"option": True}, {"option": 7}, [1], {"option": 10**400}):
        response = visitor.post(f"/api/prompts/{prompt_id}", body)
        assert 400 <= response.status_code < 500 and response.json["message"], body
    assert visitor.post("/api/prompts/" + "9" * 40, {"option": 0}).status_code == 404
    assert visitor.post("/api/prompts/12345", {"option": 0}).status_code == 409
    assert visitor.post(f"/api/prompts/{prompt_id}", {"option": 0}, csrf="wrong").status_code == 403
    assert table.snapshot()["seq"] == seq and len(table.prompts.open()) == 1
