"""A scripted chess game over the emulated DGT board, end to end.

pty emulator -> DgtSource (pyserial, decoder, settle) -> Session (Chess.interpret, journal,
announcer). No sleeping: each step waits on the source's queue with a timeout.
"""

from __future__ import annotations

import queue
from collections.abc import Iterator

import pytest

from companion.games.chess import Chess
from companion.journal import Journal
from companion.observations import BoardSeen, DeviceHello, Observation
from companion.session import Reply, Session
from companion.voice import Recorder
from devices.dgt import Command
from devices.dgt_emulator import DgtBoardEmulator, placement_pieces
from devices.dgt_source import DgtSource

SETTLE = 0.1  # seconds of stillness; real boards want about 0.3


class Table:
    def __init__(self, fen: str = "") -> None:
        self.board = DgtBoardEmulator(placement_pieces(fen) if fen else None)
        self.inbox: queue.Queue[Observation] = queue.Queue()
        self.source = DgtSource(self.board.path, settle=SETTLE)
        self.recorder = Recorder()
        options = {"fen": fen} if fen else {}
        self.session = Session.start(
            Chess(["White", "Black"], options), Journal.memory(), self.recorder, seed=1
        )
        self.source.start(self.inbox.put)

    def next_board(self) -> BoardSeen:
        while True:
            obs = self.inbox.get(timeout=10)
            if isinstance(obs, BoardSeen):
                return obs
            self.session.submit(obs)

    def hand(self, line: str) -> Reply:
        """Move pieces on the board; return the session's answer to the settled board."""
        self.board.command(line)
        while True:
            reply = self.session.submit(self.next_board())
            # A hand paused mid-move long enough to settle: the game waits for the rest.
            if reply.accepted or "Waiting for the move" not in reply.text:
                return reply

    def said(self) -> str:
        text = " ".join(self.recorder.texts)
        self.recorder.clear()
        return text

    def close(self) -> None:
        self.source.close()
        self.board.close()


@pytest.fixture
def table() -> Iterator[Table]:
    t = Table()
    yield t
    t.close()


def test_the_board_is_asked_for_updates_and_its_position(table: Table) -> None:
    reply = table.session.submit(table.next_board())  # the start position, as dumped
    assert not reply.accepted and "matches the game" in reply.text
    assert table.board.commands[:4] == [
        Command.SEND_RESET,
        Command.SEND_VERSION,
        Command.SEND_BRD,
        Command.SEND_UPDATE_NICE,
    ]
    assert table.source.version == "1.07"


def test_a_scripted_game_over_the_board(table: Table) -> None:
    table.session.submit(table.next_board())
    table.said()
    moves = [
        ("e2e4", "Pawn to e4."),
        ("d7d5", "Pawn to d5."),
        ("e4e5", "Pawn to e5."),
        ("f7f5", "Pawn to f5."),
        ("e5f6", "Pawn from e takes f6 en passant."),
        ("g8f6", "Knight takes f6."),
        ("g1f3", "Knight to f3."),
    ]
    for line, words in moves:
        reply = table.hand(line)
        assert reply.accepted, reply.text
        assert words in table.said()
    # The queen cannot pass its own pawn on d5: refused, with what to put right.
    reply = table.hand("d8d4")
    assert not reply.accepted
    assert reply.text == (
        "Queen d8 to d4 is not a legal move. Move the black queen from d4 back to d8."
    )
    fen = table.session.state.to_json()["fen"]
    reply = table.hand("d4d8")  # put right: the board and the game agree again
    assert "matches the game" in reply.text
    assert table.session.state.to_json()["fen"] == fen
    # Junk on the line is skipped; the move after it is read.
    table.board.send_junk()
    for line in ("e7e6", "f1e2", "f8d6"):
        assert table.hand(line).accepted
    table.said()
    assert table.hand("e1g1").accepted
    assert "Castles kingside." in table.said()
    assert table.hand("e8g8").accepted
    # A move, then the pawn moved back by hand: a takeback.
    assert table.hand("a2a3").accepted
    reply = table.hand("a3a2")
    assert reply.accepted
    assert "Taken back: a3. White to move." in table.said()
    view = table.session.state.to_json()
    assert view["moves_uci"] == [
        "e2e4", "d7d5", "e4e5", "f7f5", "e5f6", "g8f6", "g1f3",
        "e7e6", "f1e2", "f8d6", "e1g1", "e8g8",
    ]  # fmt: skip
    assert table.source.decoder.skipped >= 4
    # The journal replays to the same game.
    resumed = Session.resume(table.session.journal, Recorder())
    assert resumed.state.to_json() == view


def test_promotion_and_checkmate_over_the_board() -> None:
    table = Table("6k1/4Pppp/8/8/8/8/8/K7 w - - 0 1")
    try:
        table.session.submit(table.next_board())
        table.said()
        reply = table.hand("e7e8q")
        assert reply.accepted
        said = table.said()
        assert "Pawn to e8, promotes to a queen, checkmate." in said
        assert "White wins the game! Checkmate." in said
        assert table.session.state.to_json()["result"] == "1-0"
    finally:
        table.close()


def test_underpromotion_is_read_from_the_piece_placed() -> None:
    table = Table("6k1/4P3/8/8/8/8/8/K7 w - - 0 1")
    try:
        table.session.submit(table.next_board())
        assert table.hand("e7e8n").accepted
        assert table.session.state.to_json()["moves_san"] == ["e8=N"]
    finally:
        table.close()


def test_device_hello_comes_first(table: Table) -> None:
    first = table.inbox.get(timeout=10)
    assert isinstance(first, DeviceHello) and first.version == "1.07"
