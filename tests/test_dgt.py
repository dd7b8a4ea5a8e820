"""DGT board protocol: byte-level tests of the command encoder and the message decoder."""

from __future__ import annotations

import pytest

from devices.dgt import (
    START_PIECES,
    BoardImage,
    Command,
    Decoder,
    Message,
    MessageId,
    encode_command,
    field_number,
    piece_symbol,
    square_name,
)

DUMP = bytes([0x86, 0x00, 0x43]) + bytes(START_PIECES)  # 67 bytes: the initial position
E2_EMPTY = bytes([0x8E, 0x00, 0x05, 52, 0x00])  # field 52 is e2; piece code 0 = empty
E4_WPAWN = bytes([0x8E, 0x00, 0x05, 36, 0x01])  # field 36 is e4; 1 = white pawn


def test_command_bytes_are_the_documented_ones() -> None:
    assert encode_command(Command.SEND_RESET) == b"\x40"
    assert encode_command(Command.SEND_BRD) == b"\x42"
    assert encode_command(Command.SEND_UPDATE_BRD) == b"\x44"
    assert encode_command(Command.SEND_VERSION) == b"\x4d"
    assert encode_command(Command.RETURN_SERIALNR) == b"\x45"


def test_field_numbering_a8_is_zero_h1_is_63() -> None:
    assert square_name(0) == "a8" and square_name(7) == "h8"
    assert square_name(56) == "a1" and square_name(63) == "h1"
    assert square_name(52) == "e2" and field_number("e4") == 36
    assert all(field_number(square_name(i)) == i for i in range(64))
    with pytest.raises(ValueError):
        square_name(64)
    with pytest.raises(ValueError):
        field_number("i9")


def test_piece_codes() -> None:
    assert [piece_symbol(c) for c in range(1, 13)] == list("PRNBKQprnbkq")
    assert piece_symbol(0) == "" and piece_symbol(1) == "P" and piece_symbol(5) == "K"
    assert piece_symbol(6) == "Q" and piece_symbol(7) == "p" and piece_symbol(12) == "q"
    assert piece_symbol(13) == "?"  # a "magic piece"
    with pytest.raises(ValueError):
        piece_symbol(16)


def test_board_dump_decodes_to_the_initial_position() -> None:
    [message] = Decoder().feed(DUMP)
    assert message.id is MessageId.BOARD_DUMP
    image = BoardImage()
    assert image.apply(message)
    squares = dict(image.squares())
    assert squares["a8"] == "r" and squares["e8"] == "k" and squares["d1"] == "Q"
    assert squares["e2"] == "P" and squares["e4"] == ""
    assert len(squares) == 64


def test_field_update_decodes() -> None:
    [message] = Decoder().feed(E2_EMPTY)
    assert (message.id, message.field, message.piece) == (MessageId.FIELD_UPDATE, 52, 0)


def test_junk_before_a_frame_is_skipped() -> None:
    decoder = Decoder()
    junk = b"\x00\x13\x7f\xff\x41"  # none of these starts a known message
    messages = decoder.feed(junk + E2_EMPTY)
    assert [m.field for m in messages] == [52]
    assert decoder.skipped == len(junk)


def test_junk_that_looks_like_a_header_is_skipped() -> None:
    # A field-update id, a plausible length, and then the next real frame starts.
    decoder = Decoder()
    messages = decoder.feed(b"\x8e\x00\x05" + E4_WPAWN)
    assert [(m.field, m.piece) for m in messages] == [(36, 1)]
    # A header announcing the wrong size for its kind is junk too.
    messages = decoder.feed(b"\x86\x00\x10" + E2_EMPTY)
    assert [(m.field, m.piece) for m in messages] == [(52, 0)]
    assert decoder.skipped == 6


def test_partial_frames_wait_for_the_rest() -> None:
    decoder = Decoder()
    stream = DUMP + E2_EMPTY + E4_WPAWN
    got: list[Message] = []
    for i in range(len(stream)):  # one byte at a time
        got += decoder.feed(stream[i : i + 1])
    assert [m.id for m in got] == [
        MessageId.BOARD_DUMP,
        MessageId.FIELD_UPDATE,
        MessageId.FIELD_UPDATE,
    ]
    assert decoder.skipped == 0
    assert decoder.feed(DUMP[:40]) == []
    assert decoder.buffer == bytearray(DUMP[:40])
    decoder.reset()  # the port was lost: the half frame is dropped, not half-parsed
    assert decoder.feed(E2_EMPTY) != []


def test_frame_cut_short_by_a_new_frame_is_dropped() -> None:
    decoder = Decoder()
    messages = decoder.feed(DUMP[:20] + E4_WPAWN)
    assert [m.id for m in messages] == [MessageId.FIELD_UPDATE]
    assert decoder.skipped == 20


def test_bad_field_or_piece_is_dropped() -> None:
    decoder = Decoder()
    assert decoder.feed(bytes([0x8E, 0, 5, 64, 1])) == []  # no field 64
    assert decoder.feed(bytes([0x8E, 0, 5, 3, 0x10])) == []  # no piece code 16
    assert decoder.skipped == 10


def test_duplicate_updates_change_nothing() -> None:
    image = BoardImage()
    decoder = Decoder()
    assert not image.apply(decoder.feed(E2_EMPTY)[0])  # no dump yet: nothing to update
    image.apply(decoder.feed(DUMP)[0])
    assert image.apply(decoder.feed(E2_EMPTY)[0])
    assert not image.apply(decoder.feed(E2_EMPTY)[0])  # the same update again
    assert image.apply(decoder.feed(E4_WPAWN)[0])
    assert not image.apply(decoder.feed(E4_WPAWN)[0])
    squares = dict(image.squares())
    assert squares["e2"] == "" and squares["e4"] == "P"


def test_identification_messages() -> None:
    stream = (
        Message.version(1, 7).encode()
        + Message.text(MessageId.SERIALNR, "00137").encode()
        + Message.text(MessageId.TRADEMARK, "DGT Projects").encode()
        + Message(MessageId.BWTIME, bytes(7)).encode()
    )
    version, serial, trademark, clock = Decoder().feed(stream)
    assert version.version_text == "1.07" and version.encode()[:3] == b"\x93\x00\x05"
    assert serial.ascii == "00137" and serial.encode()[:3] == b"\x91\x00\x08"
    assert trademark.ascii == "DGT Projects"
    assert clock.id is MessageId.BWTIME


def test_long_messages_use_two_length_bytes() -> None:
    message = Message(MessageId.EE_MOVES, bytes([0x6A]) * 200)
    encoded = message.encode()
    assert encoded[1:3] == bytes([203 >> 7, 203 & 0x7F])
    assert Decoder().feed(encoded) == [message]


def test_messages_are_validated() -> None:
    with pytest.raises(ValueError):
        Message(MessageId.FIELD_UPDATE, b"\x01")  # wrong size
    with pytest.raises(ValueError):
        Message(MessageId.TRADEMARK, b"\x80")  # top bit set in data
    with pytest.raises(ValueError):
        Message.board_dump([0] * 63)
    with pytest.raises(ValueError):
        assert Message.version(1, 0).pieces  # not a board dump
    assert Message.board_dump(START_PIECES).encode() == DUMP
    assert Message.field_update(52, 0).encode() == E2_EMPTY
