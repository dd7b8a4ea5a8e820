"""The players' clock: time controls, the keyboard clock with fake time, low-time warnings, a
flag fall settled by the rules (FIDE 6.9), clock times in the PGN record, and a DGT clock
read over the emulated board. Nothing sleeps: time is a number the test sets."""

from __future__ import annotations

import io
import queue
from collections.abc import Iterator

import chess.pgn
import pytest

from companion.game_clock import GameClock, TableClock, TimeControl, clock_words
from companion.games import find
from companion.journal import CLOCK, Journal
from companion.observations import BoardSeen, ClockSeen, Observation
from companion.records import pgn
from companion.session import Session, build_game
from companion.voice import Recorder
from devices.dgt import ClockReading, MessageId, bwtime, clock_reading
from devices.dgt_emulator import DgtBoardEmulator
from devices.dgt_source import DgtSource


class FakeTime:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def _table(options: dict[str, object]) -> tuple[Session, Recorder, TableClock, FakeTime,
                                                   list[Observation]]:
    game, files = build_game(find("chess"), ["White", "Black"], options)
    recorder = Recorder()
    session = Session.start(game, Journal.memory(), recorder, config=files)
    now = FakeTime()
    clock = TableClock(session, TimeControl.parse(str(options["time"])), now=now, watch=False)
    emitted: list[Observation] = []
    clock.start(emitted.append)
    return session, recorder, clock, now, emitted


def _tick(session: Session, clock: TableClock, now: FakeTime, at: float) -> None:
    now.t = at
    for obs in clock.check(at):
        session.submit(obs)


def test_time_controls_read_and_written() -> None:
    control = TimeControl.parse("15+10")
    assert (control.base, control.increment) == (900, 10)
    assert str(control) == "15+10" and control.pgn() == "900+10"
    assert TimeControl.parse("5").pgn() == "300+0"
    for bad in ("", "fast", "0+5", "15+x"):
        with pytest.raises(ValueError, match="is not a time control"):
            TimeControl.parse(bad)
    assert clock_words(872) == "14:32" and clock_words(3723) == "1:02:03"
    assert clock_words(8.2) == "0:09"  # under ten seconds a part second counts as a second


def test_the_clock_runs_for_the_player_to_move_and_adds_the_increment() -> None:
    clock = GameClock(TimeControl(60, 2))
    clock.start(0, 0.0)
    assert clock.remaining(0, 10.0) == 50 and clock.remaining(1, 10.0) == 60
    clock.press(0, 10.0)
    assert clock.remaining(0, 30.0) == 52 and clock.remaining(1, 30.0) == 40


def test_keyboard_clock_warns_records_and_the_flag_falls() -> None:
    session, recorder, clock, now, _ = _table({"time": "2+3"})
    _tick(session, clock, now, 1010.0)
    session.command("e4")  # White used 10 s, gets 3
    assert session.command("clock").text == "White 1:53, Black 2:00."
    _tick(session, clock, now, 1010.0 + 60.0)
    assert recorder.texts[-1] == "Black has one minute left."
    _tick(session, clock, now, 1010.0 + 61.0)
    assert recorder.texts[-1] == "Black has one minute left."  # said once
    _tick(session, clock, now, 1010.0 + 110.0)
    assert recorder.texts[-1] == "Black has 10 seconds left."
    _tick(session, clock, now, 1010.0 + 120.5)
    assert session.state.is_terminal() and session.state.winners() == (0,)
    assert "Black's flag has fallen." in recorder.texts[-1]
    entries = [e for e in session.journal.entries() if e.kind == CLOCK]
    assert [e.payload for e in entries] == [{"ply": 1, "times": [113.0, 120.0]}]
    record = chess.pgn.read_game(io.StringIO(pgn(session)))
    assert record is not None
    assert record.headers["TimeControl"] == "120+3"
    assert record.headers["Termination"] == "time forfeit"
    assert record.headers["Result"] == "1-0"
    first = record.next()
    assert first is not None and first.clock() == 113.0


def test_a_flag_against_a_lone_king_is_a_draw() -> None:
    # White to move with king and queen against a lone king: White's flag falls, but Black
    # cannot checkmate by any series of legal moves (FIDE 6.9).
    session, recorder, clock, now, _ = _table(
        {"time": "1", "fen": "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"})
    _tick(session, clock, now, 1000.0 + 61)
    assert session.state.is_terminal() and session.state.winners() == ()
    assert recorder.texts[-1].endswith("White's flag has fallen, but Black cannot checkmate:"
                                       " a draw.")


def test_flag_claimed_by_typing_and_refused_after_the_end() -> None:
    game, files = build_game(find("chess"), ["White", "Black"], {})
    session = Session.start(game, Journal.memory(), Recorder(), config=files)
    session.command("e4")
    assert session.command("White flag").accepted  # an analogue clock: White's flag fell
    assert session.state.winners() == (1,)
    assert not session.command("flag").accepted


def test_bwtime_readings_round_trip() -> None:
    reading = ClockReading(left=5025, right=59, running=0, left_flag=False, right_flag=False)
    message = bwtime(reading)
    assert message.id is MessageId.BWTIME and clock_reading(message) == reading
    flagged = ClockReading(left=0, right=300, running=0, left_flag=True)
    assert clock_reading(bwtime(flagged)) == flagged
    stopped = ClockReading(left=300, right=300, running=-1)
    assert clock_reading(bwtime(stopped)) == stopped


class ClockTable:
    def __init__(self) -> None:
        self.board = DgtBoardEmulator()
        self.inbox: queue.Queue[Observation] = queue.Queue()
        self.source = DgtSource(self.board.path, settle=0.1)
        self.recorder = Recorder()
        game, files = build_game(find("chess"), ["White", "Black"], {"time": "5+0"})
        self.session = Session.start(game, Journal.memory(), self.recorder, config=files)
        self.now = FakeTime()
        self.clock = TableClock(self.session, TimeControl.parse("5+0"), now=self.now,
                                watch=False)
        self.clock.start(self.inbox.put)
        self.source.start(self.inbox.put)
        self.board.update_mode.wait(10)

    def until(self, kind: type[Observation]) -> Observation:
        while True:
            obs = self.inbox.get(timeout=10)
            self.session.submit(obs)
            if isinstance(obs, kind):
                return obs

    def close(self) -> None:
        self.source.close()
        self.board.close()


@pytest.fixture
def table() -> Iterator[ClockTable]:
    t = ClockTable()
    yield t
    t.close()


def test_a_dgt_clock_is_read_and_its_flag_ends_the_game(table: ClockTable) -> None:
    table.until(BoardSeen)  # the start position
    table.board.clock(300, 300, running=1)  # White sits on the right: the right side runs
    table.until(ClockSeen)
    assert "The clock is read from the board." in table.recorder.texts
    table.board.clock(300, 291, running=1)  # White's time runs
    table.until(ClockSeen)
    table.board.command("e2e4")
    table.until(BoardSeen)
    assert table.session.state.to_json()["moves_uci"] == ["e2e4"]
    assert table.session.command("clock").text == "White 4:51, Black 5:00."
    table.board.clock(0, 291, running=0, flag=True)  # Black's time (the left) runs out
    table.until(ClockSeen)
    state = table.session.state
    assert state.is_terminal() and state.winners() == (0,)
    assert "Black's flag has fallen." in table.recorder.texts[-1]
    record = chess.pgn.read_game(io.StringIO(pgn(table.session)))
    assert record is not None and record.next() is not None
    assert record.next().clock() == 291.0  # type: ignore[union-attr]


def test_without_a_time_control_the_board_clock_sets_it() -> None:
    game, files = build_game(find("chess"), ["White", "Black"], {})
    session = Session.start(game, Journal.memory(), Recorder(), config=files)
    now = FakeTime()
    clock = TableClock(session, None, now=now, watch=False)
    clock.start(lambda obs: None)
    assert not session.command("clock").accepted  # nothing to show before the clock runs
    session.submit(ClockSeen(source="dgt", times=(600, 600), running=0))
    assert clock.clock.control == TimeControl(600)
    session.command("e4")
    session.submit(ClockSeen(source="dgt", times=(545, 600), running=1))
    assert session.command("clock").text == "White 9:05, Black 10:00."


def test_a_clock_reading_without_a_players_clock_is_ignored_quietly() -> None:
    game, files = build_game(find("chess"), ["White", "Black"], {})
    recorder = Recorder()
    session = Session.start(game, Journal.memory(), recorder, config=files)
    said = len(recorder.texts)
    assert session.submit(ClockSeen(source="dgt", times=(300, 300), running=0)).accepted
    assert len(recorder.texts) == said
