"""The table's voice: sentences are spoken by a real command in the background, in order, never delaying the
caller; an absent or failing command is a silent table, never an error."""

from __future__ import annotations

import stat
from pathlib import Path

from companion.devices.speech import Voice


def fake_speaker(folder: Path, body: str) -> str:
    """A stand-in for espeak-ng: a real program on disk that writes what it was asked to say."""
    script = folder / "say"
    script.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


def test_sentences_are_spoken_in_order_by_the_command(tmp_path: Path) -> None:
    said = tmp_path / "said.txt"
    voice = Voice(fake_speaker(tmp_path, f'echo "$1" >> {said}'))
    voice.say("Ben wins the trick")
    voice.say("Ana: a 3 is in this trick")
    voice.close()  # says what is queued, then stops
    assert said.read_text().splitlines() == ["Ben wins the trick", "Ana: a 3 is in this trick"]
    assert voice.health() == {"ok": True, "message": None, "spoken": 2}


def test_a_missing_voice_is_a_silent_table(tmp_path: Path) -> None:
    voice = Voice(str(tmp_path / "no-such-espeak"))
    voice.say("nobody hears this")
    voice.close()
    assert voice.health()["ok"] is False and "not installed" in voice.health()["message"]
    assert Voice("").health()["message"] == "no voice is not installed: the table is silent"


def test_a_failing_voice_is_reported_and_the_table_goes_on(tmp_path: Path) -> None:
    voice = Voice(fake_speaker(tmp_path, "exit 3"))
    voice.say("Match!")
    voice.close()
    health = voice.health()
    assert health["ok"] is False and "the voice failed" in health["message"] and health["spoken"] == 0


def test_a_slow_voice_never_delays_the_table_and_says_what_is_happening_now(tmp_path: Path) -> None:
    said = tmp_path / "said.txt"
    gate = tmp_path / "gate"
    voice = Voice(fake_speaker(tmp_path, f'while [ ! -e {gate} ]; do sleep 0.01; done; echo "$1" >> {said}'))
    for n in range(20):  # all queued at once while the first sentence is stuck
        voice.say(f"sentence {n}")
    gate.touch()
    voice.close()
    spoken = said.read_text().splitlines()
    assert spoken[-1] == "sentence 19" and len(spoken) <= 6
