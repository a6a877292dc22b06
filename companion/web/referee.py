"""Referee controls: unlock with the PIN, then start and end games, enter, correct and undo actions.

Every route here is a POST behind the CSRF check; all but unlocking need an unlocked session. Refusals come
back as 4xx JSON with the rule's own message, and a refused request leaves the table as it was.
"""

from __future__ import annotations

import math
import time
from typing import Any, NoReturn

from flask import Blueprint, Response, jsonify, request, session

from companion.games.base import GameSetup, RuleViolation, ViolationKind, clean_text
from companion.table.session import WouldUndo
from companion.web.auth import MAX_PIN_LENGTH, pin_fingerprint, verify_pin
from companion.web.choices import choices
from companion.web.context import fail, json_body, web
from companion.web.csrf import csrf_token

bp = Blueprint("referee", __name__, url_prefix="/api/referee")

SOURCE = "web"
STATUS_FOR = {ViolationKind.MALFORMED: 400, ViolationKind.ILLEGAL: 409, ViolationKind.NEEDS_DECISION: 409}
MAX_REASON_LENGTH = 120  # a few words on the history page
OPEN_ENDPOINTS = frozenset({"referee.status", "referee.unlock", "referee.lock"})


def is_unlocked() -> bool:
    """Unlocked with the PIN that is configured now, since the controls were last locked, and not too long ago."""
    ctx = web()
    settings = ctx.settings
    if not settings.pin_hash or session.get("pin") != pin_fingerprint(settings.pin_hash):
        return False
    if session.get("epoch") != ctx.epoch.value:
        return False
    unlocked_at = session.get("unlocked_at")
    return isinstance(unlocked_at, float) and time.time() - unlocked_at < settings.unlock_minutes * 60


@bp.before_request
def require_unlocked() -> None:
    if request.endpoint not in OPEN_ENDPOINTS and not is_unlocked():
        fail(401, "locked", "The referee controls are locked: enter the referee PIN first.")


def refuse(violation: RuleViolation) -> NoReturn:
    fail(STATUS_FOR[violation.kind], violation.code, violation.message, kind=violation.kind.value)


def accepted(result: Any) -> Response:
    """The session's answer as a reply: the new state on success, the rule's refusal otherwise."""
    if isinstance(result, RuleViolation):
        refuse(result)
    return jsonify(ok=True, event=result.to_json(), state=web().session.snapshot())


@bp.get("")
def status() -> Response:
    """Whether referee controls are available and unlocked here, and the CSRF token for the next POST."""
    return jsonify(pin_set=bool(web().settings.pin_hash), unlocked=is_unlocked(), csrf_token=csrf_token())


@bp.post("/unlock")
def unlock() -> Response:
    """Check the PIN: the try is counted before the (slow) hash, so simultaneous guesses are counted too."""
    ctx = web()
    if not ctx.settings.pin_hash:
        fail(403, "no-pin", "Referee controls are off: no PIN is set. Run `companion hash-pin` and put the "
             "result in the [web] pin_hash setting.")
    pin = json_body().get("pin")
    if not isinstance(pin, str) or not pin:
        fail(400, "missing-pin", "Enter the referee PIN.")
    if len(pin) > MAX_PIN_LENGTH:
        fail(400, "bad-pin", f"A referee PIN has at most {MAX_PIN_LENGTH} characters.")
    client = request.remote_addr or "unknown"
    wait = ctx.limiter.begin(client)
    if wait:
        seconds = math.ceil(wait)
        fail(429, "too-many-attempts", f"Too many wrong PINs: wait {seconds} seconds and try again.",
             {"Retry-After": str(seconds)})
    if not verify_pin(pin, ctx.settings.pin_hash):
        left = ctx.limiter.tries_left(client)
        hint = f"{left} {'try' if left == 1 else 'tries'} left." if left else "No tries left for a while."
        fail(401, "wrong-pin", f"That PIN is wrong. {hint}")
    ctx.limiter.succeeded(client)
    session["pin"] = pin_fingerprint(ctx.settings.pin_hash)
    session["epoch"] = ctx.epoch.value
    session["unlocked_at"] = time.time()
    return jsonify(unlocked=True, csrf_token=csrf_token(rotate=True))


@bp.post("/lock")
def lock() -> Response:
    """Lock the controls for every referee: any cookie unlocked until now, copies included, stops working."""
    if is_unlocked():
        web().epoch.lock()  # a locked visitor may lock only itself, not lock the referees out
    for key in ("pin", "epoch", "unlocked_at"):
        session.pop(key, None)
    return jsonify(unlocked=False, csrf_token=csrf_token(rotate=True))


@bp.post("/start")
def start() -> Response:
    """Start a game from ``{"game", "variant", "players", "options", "full_information"}``."""
    ctx = web()
    try:
        game_id = ctx.session.start_game(GameSetup.from_json(json_body()), source=SOURCE)
    except RuleViolation as violation:
        refuse(violation)
    return jsonify(ok=True, game_id=game_id, state=ctx.session.snapshot())


@bp.post("/action")
def action() -> Response:
    """Enter one action, exactly as the camera or a button would submit it."""
    return accepted(web().session.submit(json_body(), source=SOURCE))


@bp.post("/undo")
def undo() -> Response:
    return accepted(web().session.undo(source=SOURCE))


@bp.get("/choices")
def current_choices() -> Response:
    """The card and player pickers' choices for the game in play (the referee's: they may show hidden cards)."""
    game_id, status, state = web().session.current()
    game = web().session.game
    if game is None or status != "playing":
        return jsonify(game_id=game_id, playing=False)
    return jsonify(game_id=game_id, playing=True, **choices(game.ruleset, state, dict(game.setup.options)))


@bp.post("/overrule")
def overrule() -> Response:
    """Replace an earlier move (a verdict) and replay what followed: ``{"seq", "action", "confirm"}``. When later
    moves no longer fit, the refusal lists them (``undoes``) and nothing changes until ``confirm`` is true."""
    body = json_body()
    seq, action, confirm = body.get("seq"), body.get("action"), body.get("confirm", False)
    if not isinstance(seq, int) or isinstance(seq, bool) or not isinstance(action, dict):
        fail(400, "bad-overrule", "Say which move to overrule (its number) and what to put in its place.")
    if not isinstance(confirm, bool):
        fail(400, "bad-overrule", "confirm must be true or false.")
    result = web().session.overrule(seq, action, source=SOURCE, confirm=confirm)
    if isinstance(result, WouldUndo):
        fail(409, result.code, result.message, kind=result.kind.value, undoes=result.moves)
    return accepted(result)


@bp.post("/end")
def end() -> Response:
    reason = json_body().get("reason", "abandoned")
    if not isinstance(reason, str):
        fail(400, "bad-reason", "The reason for ending the game must be a few words.")
    try:
        reason = clean_text(reason, "reason", MAX_REASON_LENGTH)
    except RuleViolation as violation:
        refuse(violation)
    return accepted(web().session.end_game(source=SOURCE, reason=reason))


@bp.post("/correct")
def correct() -> Response:
    """Replace the last action (a misread card) with the one given; a refused correction changes nothing."""
    return accepted(web().session.correct(json_body(), source=SOURCE))
