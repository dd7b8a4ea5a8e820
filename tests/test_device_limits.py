"""Devices act only through their protocol, and a flooding device cannot talk over the game:
real ptys, real floods, the companion as a player runs it."""

from __future__ import annotations

import os
import queue
import threading

from companion.games import find
from companion.journal import ACTION, REFUSED, Journal
from companion.loop import WAITING, Inbox, KeyboardSource, run
from companion.observations import ButtonPressed, DeviceError, DiceSeen
from companion.refusals import BURST, RefusalLimiter
from companion.session import Session
from companion.voice import HISTORY, Announcer, Recorder, SilentBackend
from devices.emulator import PtyDevice
from devices.serial_source import SerialSource
from tests.table import WAIT, TablePlay
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
        table.until("Undone: a throw of three")
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


class GatedBackend:
    """Speech that takes as long as the test says: while ``hold`` is set, each sentence is
    being spoken until the test releases it (a slow voice, without any timing)."""

    name = "gated"

    def __init__(self) -> None:
        self.spoken: list[str] = []
        self.hold = False
        self.gate = threading.Semaphore(0)

    def speak(self, text: str) -> None:
        if self.hold:
            assert self.gate.acquire(timeout=WAIT)
        self.spoken.append(text)

    def close(self) -> None:
        pass


def wait_until(condition) -> None:
    done = threading.Event()
    for _ in range(int(WAIT / 0.01)):
        if condition():
            return
        done.wait(0.01)  # polling a condition, not timing anything
    raise AssertionError("the condition was never met")


def test_a_garbage_flood_holds_back_the_next_throw_by_one_refusal_at_most(tmp_path):
    device = PtyDevice()
    backend = GatedBackend()
    announcer = Announcer(lambda: backend)
    session = Session.start(find("snakes")(["Red", "Blue"]), Journal(tmp_path / "g.sqlite"),
                            announcer)
    read, write = os.pipe()
    keyboard = KeyboardSource(os.fdopen(read, encoding="utf-8"))
    loop = threading.Thread(target=run, args=(session, [SerialSource(device.path), keyboard]))
    loop.start()
    try:
        def heard() -> bool:
            device.send_line("HELLO 1 Test tray")  # opening the port flushes its input
            return "Test tray is connected." in backend.spoken
        wait_until(heard)
        assert announcer.wait_idle(WAIT)
        backend.hold = True  # from now on each sentence takes the time the test gives it
        mark = len(backend.spoken)
        device.send_bytes(b"\xff\xfe tray noise\n" * 100)
        device.send_line("DICE 3")
        wait_until(lambda: len(session.applied) == 1)  # all 101 lines handled
        backend.hold = False
        backend.gate.release()
        assert announcer.wait_idle(WAIT)
        # a greeting sent before the port was open may still be answered: leave those out
        after = [t for t in backend.spoken[mark:] if t != "Test tray is connected."]
        throw = next(i for i, t in enumerate(after) if t.startswith("Red throws three"))
        # at most the refusal being spoken came first (before: all 100 refusals came first)
        assert after[:throw] in ([], ["Device input ignored: unreadable bytes (not ASCII)."])
        said = len(after[:throw])
    finally:
        os.write(write, b"quit\n")
        os.close(write)
        loop.join(WAIT)
        announcer.close()
        session.journal.close()
        device.close()
    assert backend.spoken[-2] == (f"The dice device sent {100 - said} more unreadable lines, all "
                                  "for the same reason: unreadable bytes (not ASCII).")
    assert backend.spoken[-1] == "Game saved. Goodbye."


def test_a_garbage_flood_over_a_pty_is_summarised_and_never_journaled(tmp_path):
    table = TablePlay(tmp_path / "g.sqlite")
    try:
        table.greet()
        table.device.send_bytes(b"\xff\xfe tray noise\n" * 100)
        table.device.send_line("DICE 3")
        said = table.until("Red throws three")
        refusals = [line for line in said if "ignored" in line or "sent" in line]
        assert len(refusals) <= BURST, refusals  # text costs nothing; speech: see above
        out = table.quit()
    finally:
        table.close()
    said_alone = out.count("Device input ignored: unreadable bytes (not ASCII).")
    assert 1 <= said_alone <= BURST
    assert (f"The dice device sent {100 - said_alone} more unreadable lines, all for the same "
            "reason: unreadable bytes (not ASCII).") in out
    assert kinds(tmp_path / "g.sqlite") == [ACTION]  # unreadable lines are never journaled


def test_an_out_of_turn_flood_is_journaled_as_one_count_not_line_by_line(tmp_path):
    table = TablePlay(tmp_path / "g.sqlite")
    try:
        table.greet()
        for _ in range(10):
            table.device.send_bytes(b"DICE 5 @Blue\n" * 100)
        table.device.send_line("DICE 3")
        said = table.until("Red throws three")
        assert sum("Blue, it is Red's turn" in line for line in said) <= BURST
        out = table.quit()
    finally:
        table.close()
    journal = Journal(tmp_path / "g.sqlite", readonly=True)
    try:
        entries = list(journal.entries())
    finally:
        journal.close()
    refused = [e for e in entries if e.kind == REFUSED]
    assert 2 <= len(refused) <= BURST + 1  # before: 1,000 entries
    count = refused[-1].payload["count"]
    assert refused[-1].payload == {"input": f"{count} inputs", "count": count}
    assert count + len(refused) - 1 == 1000
    assert (f"The dice device sent {count} more inputs that were refused, all for the same "
            "reason: Blue, it is Red's turn.") in out
    assert [e.kind for e in entries].count(ACTION) == 1


def test_a_burst_then_one_refusal_per_window_then_one_summary():
    now = [0.0]
    limiter = RefusalLimiter(window=5.0, burst=3, clock=lambda: now[0])

    def admit(source: str, reason: str, idle: bool = True) -> bool:
        return limiter.admit(source, reason, idle=idle, unreadable=False, journal=True)

    assert not admit("serial:a", "while speaking", idle=False)  # never over a busy voice
    assert limiter.due(idle=False) == []
    now[0] = 5.0
    assert [q.count for q in limiter.due()] == [1]
    assert [admit("serial:a", "x") for _ in range(3)] == [False, False, False]  # turn used
    now[0] = 10.0
    (held,) = limiter.due()
    assert held.count == 3
    now[0] = 100.0  # long quiet: a full burst again
    assert [admit("serial:b", "y") for _ in range(4)] == [True, True, True, False]
    assert admit("keyboard", "no", idle=False)  # people are always answered
    for i in range(10_000):  # varied reasons stay bounded
        assert not admit("serial:b", f"reason {i}")
    now[0] = 105.0
    (held,) = limiter.due()
    assert held.count == 10_001 and held.journal and len(held.reasons) <= 64
    assert held.summary("the dice device") == (
        "The dice device sent 10001 more inputs that were refused, the last: reason 9999.")


def test_a_session_flood_keeps_the_journal_and_the_speech_short():
    recorder = Recorder()
    session = Session.start(ToyGame(["Red", "Blue"]), Journal.memory(), recorder, seed=1)
    session.command("go")
    before = len(recorder.texts)
    for _ in range(5000):
        session.submit(DiceSeen(source="serial:x", values=(5,), player="Blue"))
        session.submit(DeviceError(source="serial:x", reason="Device input ignored: junk."))
    assert len(recorder.texts) - before == BURST  # before: 10,000
    assert sum(e.kind == REFUSED for e in session.journal.entries()) <= BURST
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


def test_the_inbox_holds_a_bounded_number_of_observations():
    inbox = Inbox(queue.Queue(maxsize=5))
    flood = threading.Thread(
        target=lambda: [inbox(DeviceError(source="serial:x", reason="junk")) for _ in range(50)],
        daemon=True)
    flood.start()
    wait_until(lambda: inbox.items.full())
    assert flood.is_alive() and inbox.items.qsize() == 5  # the source waits, memory does not grow
    for _ in range(50):
        inbox.items.get(timeout=WAIT)
    flood.join(WAIT)
    assert Inbox().items.maxsize == WAITING


def test_a_source_waiting_on_a_full_inbox_is_let_go_when_the_loop_ends():
    inbox = Inbox(queue.Queue(maxsize=1))
    inbox(DeviceError(source="serial:x", reason="junk"))
    waiting = threading.Thread(target=inbox, args=(DeviceError(source="serial:x", reason="j"),))
    waiting.start()
    inbox.closed.set()
    waiting.join(WAIT)
    assert not waiting.is_alive()
