"""The page ``companion calibrate zones`` serves: one picture from the camera, on which each zone's corners are
clicked in a browser on a phone or laptop (the Pi has no screen, and its OpenCV has no windows).

Anyone on the table's network could reach the page, so it lives under a one-time random path that only the
printed URL carries; any other request gets 403. Posted zones go through ``validate_zones``: a refusal is a 400
in plain words and writes nothing.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from flask import Flask, Response, jsonify, render_template, request

from companion.vision.zones import ZonesError, save_zones, validate_zones

EXTENSION = "tableside-zones"  # app.extensions key of the app's ZonesDrawing
FORBIDDEN = (
    "This page needs the secret address that `companion calibrate zones` printed: copy the whole URL, "
    "including the long code, from the terminal.\n"
)


@dataclass
class ZonesDrawing:
    """One drawing session: the picture, the zone names on offer, where they are written, and what was."""

    frame: np.ndarray
    names: list[str]
    out: Path
    token: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    saved: dict[str, np.ndarray] | None = None
    done: threading.Event = field(default_factory=threading.Event)

    @property
    def frame_size(self) -> tuple[int, int]:
        return self.frame.shape[1], self.frame.shape[0]


def create_zones_app(drawing: ZonesDrawing) -> Flask:
    """The drawing page for ``drawing``; ``drawing.done`` is set once zones are written to ``drawing.out``."""
    prefix = f"/{drawing.token}"
    app = Flask(__name__, static_url_path=f"{prefix}/static")
    app.config["MAX_CONTENT_LENGTH"] = 256 * 1024
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.extensions[EXTENSION] = drawing
    # encoded once here, sent on every page load
    picture = cv2.imencode(".jpg", drawing.frame, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()

    @app.before_request
    def require_token() -> Response | None:
        first = request.path.split("/")[1]
        if not secrets.compare_digest(first.encode(), drawing.token.encode()):
            return Response(FORBIDDEN, 403, mimetype="text/plain")
        return None

    @app.get(f"{prefix}/")
    def page() -> str:
        width, height = drawing.frame_size
        return render_template("zones.html", names=drawing.names, width=width, height=height, out=drawing.out)

    @app.get(f"{prefix}/frame.jpg")
    def frame() -> Response:
        return Response(picture, mimetype="image/jpeg")

    @app.post(f"{prefix}/zones")
    def save() -> Response | tuple[Response, int]:
        body = request.get_json(silent=True)
        if not isinstance(body, dict) or "zones" not in body:
            return _refuse('Not saved: send JSON like {"zones": {"seat-1": [x1, y1, x2, y2, x3, y3]}}.')
        try:
            checked = validate_zones(body["zones"], drawing.frame_size, drawing.names)
            zones = {name: checked[name] for name in drawing.names if name in checked}  # the page's order
            save_zones(drawing.out, zones, drawing.frame_size)
        except ZonesError as exc:
            return _refuse(f"Not saved: {exc}.")
        except OSError as exc:
            return jsonify(error="not-written", message=f"Not saved: cannot write {drawing.out}: {exc.strerror}."), 500
        drawing.saved = zones
        drawing.done.set()
        return jsonify(ok=True, message=f"Saved {', '.join(zones)} to {drawing.out}. You can close this page.")

    @app.after_request
    def headers(response: Response) -> Response:
        """Nothing from elsewhere, never framed, never cached, and the secret path never sent on as a referrer."""
        response.headers["Content-Security-Policy"] = (
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; "
            "base-uri 'none'"
        )
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response

    return app


def _refuse(message: str) -> tuple[Response, int]:
    return jsonify(error="bad-zones", message=message), 400
