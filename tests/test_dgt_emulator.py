"""The virtual DGT board: what hands do to the squares, and what goes on the wire."""

from __future__ import annotations

import os
import select
from collections.abc import Iterator

import pytest

from devices.dgt import PIECE_CODES, START_PIECES, Decoder, Message, MessageId, field_number
from devices.dgt_emulator import DgtBoardEmulator, main, placement_pieces


@pytest.fixture
def emu() -> Iterator[DgtBoardEmulator]:
    board = DgtBoardEmulator()
    yield board
    board.close()


def at(board: DgtBoardEmulator, square: str) -> str:
    code = board.pieces[field_number(square)]
    return next((s for s, c in PIECE_CODES.items() if c == code), "")


def read_messages(fd: int, count: int) -> list[Message]:
    decoder = Decoder()
    got: list[Message] = []
    while len(got) < count:
        ready, _, _ = select.select([fd], [], [], 5)
        assert ready, f"only {len(got)} of {count} messages arrived"
        got += decoder.feed(os.read(fd, 1024))
    return got


def test_placement_parsing() -> None:
    assert placement_pieces("start") == list(START_PIECES)
    assert placement_pieces("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") == list(
        START_PIECES
    )
    assert placement_pieces("empty") == [0] * 64
    with pytest.raises(ValueError):
        placement_pieces("8/8/8")
    with pytest.raises(ValueError):
        placement_pieces("x7/8/8/8/8/8/8/8")


def test_moves_as_hands_make_them(emu: DgtBoardEmulator) -> None:
    emu.command("e2e4 d7d5 e4d5")  # a capture
    assert at(emu, "d5") == "P" and at(emu, "e4") == "" and at(emu, "e2") == ""
    emu.command("fen r3k2r/8/8/3pP3/8/8/8/R3K2R")
    emu.command("e5d6")  # en passant: the pawn beside is lifted too
    assert at(emu, "d6") == "P" and at(emu, "d5") == ""
    emu.command("e1c1")  # queenside castling moves the rook a1 -> d1
    assert at(emu, "c1") == "K" and at(emu, "d1") == "R" and at(emu, "a1") == ""
    emu.command("e8g8")
    assert at(emu, "g8") == "k" and at(emu, "f8") == "r" and at(emu, "h8") == ""
    emu.command("fen 8/4P3/8/8/8/8/3p4/8")
    emu.command("e7e8")  # no letter: a queen
    emu.command("d2d1n")
    assert at(emu, "e8") == "Q" and at(emu, "d1") == "n"
    emu.command("lift e8  # a comment")
    emu.command("put h4 b")
    assert at(emu, "e8") == "" and at(emu, "h4") == "b"
    with pytest.raises(ValueError):
        emu.command("a3a4")  # nothing there
    with pytest.raises(ValueError):
        emu.command("put e4 X")


def test_the_wire_answers_requests_and_reports_changes(emu: DgtBoardEmulator) -> None:
    fd = os.open(emu.path, os.O_RDWR | os.O_NOCTTY)
    try:
        emu.command("e2e4")  # idle mode: nothing is sent
        os.write(fd, bytes([0x4D, 0x42, 0x45]))  # version, board dump, serial number
        version, dump, serial = read_messages(fd, 3)
        assert version.version_text == "1.07"
        assert dump.id is MessageId.BOARD_DUMP and dump.pieces[field_number("e4")] == 1
        assert serial.ascii == "00137"
        # A clock command (sized) is consumed whole; then update-board mode.
        os.write(fd, bytes([0x2B, 0x03, 0x03, 0x03, 0x00, 0x44]))
        assert emu.update_mode.wait(5)
        emu.command("g1f3")
        lift, place = read_messages(fd, 2)
        assert (lift.field, lift.piece) == (field_number("g1"), 0)
        assert (place.field, place.piece) == (field_number("f3"), PIECE_CODES["N"])
        emu.command("junk")
        emu.command("e7e5")
        messages = read_messages(fd, 2)
        assert [m.field for m in messages] == [field_number("e7"), field_number("e5")]
        assert emu.commands == [0x4D, 0x42, 0x45, 0x44]
    finally:
        os.close(fd)


def test_command_line_refuses_a_bad_start_position() -> None:
    with pytest.raises(SystemExit):
        main(["--fen", "nonsense"])


def test_a_closed_board_leaves_no_reader_behind() -> None:
    # A reader left running on a closed fd number reads the next pty that reuses the number
    # and answers with the old board (seen once in CI as a stale board dump).
    for _ in range(20):
        old = DgtBoardEmulator(placement_pieces("empty"))
        old.close()
        assert not old._reader.is_alive()
        new = DgtBoardEmulator()
        fd = os.open(new.path, os.O_RDWR | os.O_NOCTTY)
        try:
            os.write(fd, bytes([0x42]))
            (dump,) = read_messages(fd, 1)
            assert list(dump.pieces) == list(START_PIECES)
        finally:
            os.close(fd)
            new.close()
