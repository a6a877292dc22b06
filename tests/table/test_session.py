"""The table session: one writer, refusals change nothing, subscribers see every change, undo is an event."""

from __future__ import annotations

import threading

import pytest

from companion.games.base import GameSetup, IllegalMove, MalformedAction, RuleViolation, ViolationKind
from companion.table.log import Event, EventLog
from companion.table.session import TableSession


def test_start_deals_and_records_the_setup(session, observed_setup):
    game_id = session.start_game(observed_setup, source="web")
    events = session.log.events(game_id)
    assert [(e.kind, e.payload["type"] if e.kind != "start" else "setup") for e in events] == [
        ("start", "setup"),
        ("action", "deal"),
    ]
    # A real shuffle: nobody saw the order, and the rules give the leader.
    assert events[1].payload == {"type": "deal", "seed": None, "hands": None, "deck": None, "leader": None}
    assert session.snapshot()["scoreboard"]["prompt"] == "Emily to lead any card."


def test_submit_returns_the_event_and_the_refusal_changes_nothing(session, observed_setup):
    session.start_game(observed_setup, source="web")
    event = session.submit({"type": "play", "player": 0, "card": 4}, source="camera")
    assert isinstance(event, Event) and event.payload == {"type": "play", "player": 0, "card": 4}
    before_state, before_events = session.state, session.log.events(session.game_id)
    for bad, kind, message in [
        ('{"type": "play", "player": 1, "card": ', ViolationKind.MALFORMED, "Not valid JSON"),
        ({"type": "pass", "player": 1}, ViolationKind.MALFORMED, "Unknown action type 'pass'"),
        ({"type": "play", "player": 2, "card": 9}, ViolationKind.ILLEGAL, "It is Peter's turn, not Taylor's."),
        ({"type": "six-target", "player": 0, "target": 1}, ViolationKind.NEEDS_DECISION, "Peter to play"),
    ]:
        result = session.submit(bad, source="web")
        assert isinstance(result, RuleViolation) and result.kind is kind
        assert result.message.startswith(message)
        assert session.state == before_state
        assert session.log.events(session.game_id) == before_events
    assert [w["code"] for w in session.snapshot()["warnings"]][-1] == "waiting-play"


def play_two_player_round(session, cards):
    for card in cards:
        for _ in range(2):
            (seat,) = session.game.ruleset.to_move(session.state)
            result = session.submit({"type": "play", "player": seat, "card": card}, "test")
            assert isinstance(result, Event), result


def test_game_over_then_refused_and_summary_updated(session):
    session.start_game(GameSetup("corgi-pileup", ("A", "B"), options={"starting_scores": [15, 0]}), "t")
    play_two_player_round(session, (7, 8, 9, 2, 4))
    assert session.status() == "finished"
    refusal = session.submit({"type": "play", "player": 0, "card": 5}, "t")
    assert isinstance(refusal, IllegalMove) and refusal.code == "game-over"
    (summary,) = session.log.list_games()
    assert (summary.status, summary.winners) == ("finished", ("B",))
    assert summary.ended_at is not None
    assert session.snapshot()["outcome"]["winners"] == ["B"]


def test_subscribers_hear_every_change_and_can_leave(session, observed_setup):
    heard = []
    unsubscribe = session.subscribe(heard.append)
    session.start_game(observed_setup, "web")
    session.submit({"type": "play", "player": 0, "card": 4}, "camera")
    session.undo("web")
    assert [s["seq"] for s in heard] == [1, 2, 3]
    assert heard[-1]["recent"][-1]["text"] == "Round 1: 5 cards dealt to each player."
    unsubscribe()
    session.submit({"type": "play", "player": 0, "card": 4}, "camera")
    assert len(heard) == 3


def test_a_failing_subscriber_does_not_stop_the_table(session, observed_setup):
    def broken(_snapshot):
        raise RuntimeError("boom")

    session.subscribe(broken)
    session.start_game(observed_setup, "web")
    assert isinstance(session.submit({"type": "play", "player": 0, "card": 4}, "camera"), Event)


def test_undo_revokes_the_move_and_the_deal_it_caused(session):
    session.start_game(GameSetup("corgi-pileup", ("A", "B"), full_information=True), "t")
    hands = [list(h) for h in session.state.hands]
    ruleset = session.game.ruleset
    while True:  # play until the move that ends the round (after which the session deals anew)
        last = ruleset.legal_actions(session.state)[0]
        if ruleset.apply(session.state, last).phase.value == "deal":
            break
        session.submit(last, "t")
    before = session.state
    seq = session.log.events(session.game_id)[-1].seq
    session.submit(last, "t")
    assert session.state.round == 2
    undo = session.undo("web")
    assert undo.payload["revokes"] == [seq + 1, seq + 2]
    assert session.state == before
    assert session.log.events(session.game_id)[-1].kind == "undo"  # nothing deleted
    session.submit(last, "t")  # redo: the same deal comes back, not a new shuffle
    assert session.state.round == 2
    events = session.log.events(session.game_id)
    assert events[-1].payload == events[-4].payload and events[-1].payload["type"] == "deal"
    assert session.log.events(session.game_id)[1].payload["seed"] is not None
    assert len(hands) == 2


def test_undo_with_nothing_played_is_refused(session, observed_setup):
    assert isinstance(session.undo("web"), IllegalMove)
    session.start_game(observed_setup, "web")
    refusal = session.undo("web")
    assert refusal.code == "nothing-to-undo"


def test_end_game_and_undo_reopens(session, observed_setup):
    session.start_game(observed_setup, "web")
    session.end_game("web", "Pizza arrived.")
    assert session.status() == "abandoned"
    assert session.snapshot()["ended"] == "Pizza arrived."
    assert isinstance(session.submit({"type": "play", "player": 0, "card": 4}, "web"), IllegalMove)
    session.undo("web")
    assert session.status() == "playing"


def test_starting_a_new_game_abandons_the_old_one(session, observed_setup):
    first = session.start_game(observed_setup, "web")
    second = session.start_game(GameSetup("corgi-pileup", ("X", "Y")), "web")
    statuses = {g.id: g.status for g in session.log.list_games()}
    assert statuses == {first: "abandoned", second: "playing"}


def test_bad_setups_are_refused_before_anything_is_stored(session):
    for setup, message in [
        (GameSetup("chess", ("A", "B")), "Unknown game 'chess'"),
        (GameSetup("corgi-pileup", ("A",)), "Corgi Pileup is for 2 to 7 players, not 1."),
        (GameSetup("corgi-pileup", ("A", "A")), "Each player needs a different name."),
        (GameSetup("corgi-pileup", ("A", "B"), variant="turbo"), "Corgi Pileup has no variant 'turbo'"),
    ]:
        with pytest.raises(MalformedAction) as info:
            session.start_game(setup, "web")
        assert info.value.message.startswith(message)
    assert session.log.list_games() == []


def test_the_session_resumes_after_a_restart(db_path, observed_setup):
    log = EventLog(db_path)
    first = TableSession(log, seed=1)
    first.start_game(observed_setup, "web")
    first.submit({"type": "play", "player": 0, "card": 4}, "camera")
    first.submit({"type": "play", "player": 1, "card": 8}, "camera")
    log.close()
    log = EventLog(db_path)
    again = TableSession(log)
    assert again.state == first.state
    assert again.snapshot()["recent"] == first.snapshot()["recent"]
    log.close()


def test_concurrent_submitters_are_serialised(session):
    session.start_game(GameSetup("corgi-pileup", ("A", "B"), full_information=True), "t")
    errors = []

    def bot(seat):
        for _ in range(200):
            state = session.state
            if session.status() != "playing":
                return
            mine = [a for a in session.game.ruleset.legal_actions(state) if a.player == seat]
            if mine and isinstance(session.submit(mine[0], f"bot{seat}"), RuleViolation):
                errors.append(seat)

    threads = [threading.Thread(target=bot, args=(seat,)) for seat in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seqs = [e.seq for e in session.log.events(session.game_id)]
    assert seqs == list(range(len(seqs)))
    fresh = TableSession(session.log)
    assert fresh.state == session.state


def test_correct_replaces_the_last_move_or_changes_nothing(session, observed_setup):
    session.start_game(observed_setup, "web")
    session.submit({"type": "play", "player": 0, "card": 4}, "camera")
    session.submit({"type": "play", "player": 1, "card": 8}, "camera")
    before = session.state
    refusal = session.correct({"type": "play", "player": 2, "card": 9}, "web")
    assert refusal.message == "It is Peter's turn, not Taylor's."
    assert session.state == before
    corrected = session.correct({"type": "play", "player": 1, "card": 9}, "web")
    assert isinstance(corrected, Event) and session.state.trick == [(0, 4), (1, 9)]
    kinds = [e.kind for e in session.log.events(session.game_id)][-3:]
    assert kinds == ["action", "undo", "action"]


def test_correct_the_final_card_of_a_finished_game(session):
    session.start_game(GameSetup("corgi-pileup", ("A", "B"), options={"starting_scores": [15, 0]}), "t")
    play_two_player_round(session, (7, 8, 9, 2, 4))
    assert session.status() == "finished"
    session.correct({"type": "play", "player": 1, "card": 5}, "web")  # B's last card was a 5, not a 4
    assert session.state.scores == [0, 5]
    assert session.snapshot()["outcome"]["winners"] == ["B"]


def test_correct_refuses_on_an_ended_game_and_with_nothing_played(session, observed_setup):
    session.start_game(observed_setup, "web")
    assert session.correct({"type": "play", "player": 0, "card": 4}, "web").code == "nothing-to-undo"
    session.submit({"type": "play", "player": 0, "card": 4}, "camera")
    session.end_game("web", "Bedtime.")
    assert session.correct({"type": "play", "player": 0, "card": 5}, "web").code == "ended"


def test_resume_repairs_a_summary_the_power_cut_left_behind(db_path):
    log = EventLog(db_path)
    session = TableSession(log)
    session.start_game(GameSetup("corgi-pileup", ("A", "B"), options={"starting_scores": [15, 0]}), "t")
    play_two_player_round(session, (7, 8, 9, 2, 4))
    game_id = session.game_id
    log.set_status(game_id, "playing", None, [])  # as if the power went between the last event and its summary
    TableSession(log)
    assert (log.game(game_id).status, log.game(game_id).winners) == ("finished", ("B",))
    log.close()


def test_a_failing_device_health_check_is_shown_not_fatal(session, observed_setup):
    def broken():
        raise OSError("port vanished")

    session.add_device("pico", broken)
    session.start_game(observed_setup, "web")
    shown = session.snapshot()["devices"]["pico"]
    assert shown == {"ok": False, "message": "pico: health check failed (port vanished)"}


def test_a_stored_game_that_no_longer_replays_is_kept_and_the_table_starts_without_it(db_path):
    """A game stored by a version with a game or deck this one lacks: nothing is lost, nothing crashes."""
    import sqlite3

    log = EventLog(db_path)
    first = TableSession(log)
    first.start_game(GameSetup("corgi-pileup", ("Ann", "Ben")), source="test")
    log.close()
    with sqlite3.connect(db_path) as raw:  # a later version's game, written by that version
        raw.execute("INSERT INTO games (game, variant, players, started_at) VALUES (?, ?, ?, 0)",
                    ("tiddlywinks", "standard", '["Ann"]'))
        raw.execute("INSERT INTO events VALUES (2, 0, 0, 'web', 'start', ?)",
                    ('{"game": "tiddlywinks", "players": ["Ann"]}',))
    log = EventLog(db_path)
    table = TableSession(log)
    snapshot = table.snapshot()
    assert snapshot["status"] == "idle"
    assert "Game 2 is kept in the log but cannot be resumed" in snapshot["warnings"][0]["message"]
    assert "tiddlywinks" in snapshot["warnings"][0]["message"]
    assert [e.kind for e in log.events(2)] == ["start"]
    table.start_game(GameSetup("corgi-pileup", ("Ann", "Ben")), source="test")
    assert table.status() == "playing"
    log.close()
