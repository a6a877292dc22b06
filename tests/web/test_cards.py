"""Cards drawn as cards: every face of every registered deck is an SVG the Pi serves itself."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from flask import Flask

from companion.games.decks import deck_names, load_deck


def test_every_face_of_every_deck_is_a_card_picture(app: Flask) -> None:
    client = app.test_client()
    for name in deck_names():
        for face in load_deck(name):
            response = client.get(f"/cards/{name}/{face.id}.svg")
            assert response.status_code == 200 and response.mimetype == "image/svg+xml", (name, face.id)
            svg = ET.fromstring(response.data)
            assert svg.get("aria-label") == face.id
            texts = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")]
            assert any(str(face.get("number", face.get("rank", ""))) in (t or "") for t in texts)


def test_a_card_shows_its_number_and_its_colours(app: Flask) -> None:
    svg = app.test_client().get("/cards/pigzup/3-pink-blue.svg").get_data(as_text=True)
    assert ">3</text>" in svg and "#e0559a" in svg and "#2f6fd6" in svg


def test_unknown_decks_and_faces_are_404_and_nothing_is_read_from_elsewhere(app: Flask) -> None:
    client = app.test_client()
    for path in ("/cards/no-such-deck/1.svg", "/cards/corgi-pileup/11.svg", "/cards/..%2F..%2Fetc/passwd.svg",
                 "/cards/corgi-pileup/%3Cscript%3E.svg"):
        assert client.get(path).status_code == 404, path
