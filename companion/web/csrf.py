"""CSRF protection: a random token in the signed session cookie that every POST must echo in a header.

Another site can make a phone POST to the Pi but cannot read the token, so it cannot forge a referee action,
even if the SameSite cookie rule is missing from an old browser.
"""

from __future__ import annotations

import hmac
import secrets

from flask import request, session

from companion.web.context import fail

HEADER = "X-CSRF-Token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def csrf_token(*, rotate: bool = False) -> str:
    """This browser's token, created on first use (``rotate`` replaces it, e.g. after unlocking)."""
    token = session.get("csrf")
    if rotate or not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        session["csrf"] = token
    return token


def check_csrf() -> None:
    """Refuse any unsafe request whose header does not match the cookie's token (registered app-wide)."""
    if request.method in SAFE_METHODS:
        return
    expected = session.get("csrf")
    sent = request.headers.get(HEADER, "")
    if not sent:
        fail(403, "csrf-missing", "The security token is missing: reload the page and try again.")
    if not isinstance(expected, str) or not hmac.compare_digest(sent, expected):
        fail(403, "csrf-mismatch", "The security token does not match: reload the page and try again.")
