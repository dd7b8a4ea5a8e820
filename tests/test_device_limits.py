"""Devices act only through their protocol, and a flooding device cannot talk over the game:
real ptys, real floods, the companion as a player runs it."""

from __future__ import annotations

from companion.journal import ACTION, REFUSED, Journal
from companion.observations import ButtonPressed, DeviceError, DiceSeen
from companion.refusals import RefusalLimiter
from companion.session import Session
from companion.voice import HISTORY, Announcer, Recorder, SilentBackend
from tests.table import TablePlay
from tests.toy_game import ToyGame


def kinds(path) -> list[str]:
    journal = Journal(path, readonly=True)
    try:
        return [e.kind for e in journal.entries()]
    finally:
        journal.close()


def test_a_device_presses_only_the_documented_buttons(tmp_path):
    table = TablePlay(tmp_path / "g.sqlite")
    try:
        table.greet()
        table.device.send_line("BUTTON quit")  # before: the device ended the game
        table.until("there is no button 'quit'")
        table.device.send_line("BUTTON roll")
        table.until("there is no button 'roll'")
        table.device.send_line("DICE 3")
        table.until("Red throws three")
        table.device.send_line("BUTTON undo")  # a documented button still works
        table.until("Undone: a throw of 3")
        assert table.proc.poll() is None
        table.quit()
    finally:
        table.close()
    assert kinds(tmp_path / "g.sqlite") == [ACTION, "undo"]


def test_a_button_that_is_not_in_the_protocol_is_refused_by_the_session():
    recorder = Recorder()
    session = Session.start(ToyGame(["Red", "Blue"]), Journal.memory(), recorder, seed=1)
    session.command("go")
    reply = session.submit(ButtonPressed(source="socket://x", button="quit"))
    assert not reply.accepted and not reply.quit
    assert "the buttons are undo, yes, no, again, status, options" in reply.text
    assert session.submit(ButtonPressed(source="socket://x", button="bank")).text.startswith(
        "A device pressed a button 'bank'")
    assert session.state.throwing and len(session.applied) == 1


def test_a_garbage_flood_holds_back_the_next_throw_by_one_refusal_at_most(tmp_path):
    table = TablePlay(tmp_path / "g.sqlite")
    try:
        table.greet()
        table.device.send_bytes(b"\xff\xfe tray noise\n" * 100)
        table.device.send_line("DICE 3")
        said = table.until("Red throws three")
        refusals = [line for line in said if "ignored" in line or "sent" in line]
        assert len(refusals) <= 1, refusals  # before: all 100 were said first
        out = table.quit()
    finally:
        table.close()
    # the rest are said as one sentence (here at quit, as the window had not passed)
    assert ("The dice device sent 99 more unreadable lines, all for the same reason: "
            "unreadable bytes (not ASCII).") in out
    assert out.count("not ASCII") == 2
    assert kinds(tmp_path / "g.sqlite") == [ACTION]  # unreadable lines are never journaled


def test_an_out_of_turn_flood_is_journaled_as_one_count_not_line_by_line(tmp_path):
    table = TablePlay(tmp_path / "g.sqlite")
    try:
        table.greet()
        for _ in range(10):
            table.device.send_bytes(b"DICE 5 @Blue\n" * 100)
        table.device.send_line("DICE 3")
        said = table.until("Red throws three")
        assert sum("Blue, it is Red's turn" in line for line in said) <= 1
        out = table.quit()
    finally:
        table.close()
    assert ("The dice device sent 999 more inputs that were refused, all for the same reason: "
            "Blue, it is Red's turn.") in out
    journal = Journal(tmp_path / "g.sqlite", readonly=True)
    try:
        entries = list(journal.entries())
    finally:
        journal.close()
    refused = [e for e in entries if e.kind == REFUSED]
    assert len(refused) == 2  # before: 1,000 entries
    assert refused[1].payload == {"input": "999 inputs", "count": 999}
    assert [e.kind for e in entries].count(ACTION) == 1


def test_one_refusal_per_source_per_window_then_one_summary():
    now = [0.0]
    limiter = RefusalLimiter(window=5.0, clock=lambda: now[0])
    assert limiter.admit("serial:a", "Device input ignored: x.", unreadable=True, journal=False)
    assert limiter.admit("keyboard", "no", unreadable=False, journal=True)
    assert limiter.admit("keyboard", "no", unreadable=False, journal=True)  # people: always
    for i in range(10_000):  # varied reasons stay bounded
        assert not limiter.admit("serial:a", f"reason {i}", unreadable=False, journal=True)
    assert limiter.admit("serial:b", "other device", unreadable=True, journal=False)
    now[0] = 4.9
    assert limiter.due() == []
    now[0] = 5.0
    (held,) = limiter.due()
    assert held.count == 10_000 and held.journal and len(held.reasons) <= 64
    assert held.summary("the dice device") == (
        "The dice device sent 10000 more inputs that were refused, the last: reason 9999.")
    assert not limiter.admit("serial:a", "again", unreadable=True, journal=False)
    now[0] = 10.0
    assert [q.count for q in limiter.due()] == [1]
    now[0] = 15.0
    assert limiter.admit("serial:a", "later", unreadable=True, journal=False)


def test_a_session_flood_keeps_the_journal_and_the_speech_short():
    recorder = Recorder()
    session = Session.start(ToyGame(["Red", "Blue"]), Journal.memory(), recorder, seed=1)
    session.command("go")
    before = len(recorder.texts)
    for _ in range(5000):
        session.submit(DiceSeen(source="serial:x", values=(5,), player="Blue"))
        session.submit(DeviceError(source="serial:x", reason="Device input ignored: junk."))
    assert len(recorder.texts) - before == 1
    assert sum(e.kind == REFUSED for e in session.journal.entries()) == 1
    assert session.submit(DiceSeen(source="serial:x", values=(5,), player="Red")).accepted


def test_the_announcer_keeps_a_bounded_history():
    announcer = Announcer(SilentBackend)
    try:
        for i in range(5 * HISTORY):
            announcer.say(f"sentence {i}")
        assert announcer.wait_idle(30)
        assert len(announcer.spoken) <= 2 * HISTORY  # before: every sentence, for ever
        assert announcer.spoken[-1] == f"sentence {5 * HISTORY - 1}"
    finally:
        announcer.close()
