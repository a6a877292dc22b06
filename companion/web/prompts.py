"""The table's questions on the phones: a player answers their own choice without the PIN, the referee any.

``GET /api/prompts`` lists the open questions (with this browser's CSRF token, so any phone can answer);
``POST /api/prompts/<id>`` with ``{"option": k}`` answers one. The answer is recorded like any move, and a refusal
(the question was answered already, the game moved on, only the referee may answer) is a 4xx in plain words.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from companion.web.context import fail, json_body, web
from companion.web.csrf import csrf_token
from companion.web.referee import accepted, is_unlocked

bp = Blueprint("prompts", __name__, url_prefix="/api/prompts")

MAX_PROMPT_ID = 2**31  # ids are small counters: a longer number is not one of ours


@bp.get("")
def open_prompts() -> Response:
    return jsonify(prompts=web().session.prompts.view(), referee=is_unlocked(), csrf_token=csrf_token())


@bp.post(f"/<int(max={MAX_PROMPT_ID}):prompt_id>")
def answer(prompt_id: int) -> Response:
    option = json_body().get("option")
    if not isinstance(option, int) or isinstance(option, bool):
        fail(400, "bad-option", "Say which answer: {\"option\": its number in the list, from 0}.")
    referee = is_unlocked()
    who = "the referee" if referee else "a phone"
    return accepted(web().session.prompts.answer(prompt_id, option, by=who, referee=referee))
