"""The line protocol decoder: pure bytes in, observations out; bad input never escapes."""

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.observations import (
    ButtonPressed,
    CardSeen,
    DeviceError,
    DeviceHello,
    DiceSeen,
    TagSeen,
)
from devices.protocol import MAX_LINE, LineDecoder, checksum, encode


def decode(data: bytes):
    return LineDecoder("test").feed(data)


def test_every_message_kind():
    out = decode(b"HELLO 1 Dice Tray 3000\nDICE 3 5\nCARD 10h\nTAG 04a1\nBUTTON Undo\nPING\n# c\n")
    assert isinstance(out[0], DeviceHello) and out[0].name == "Dice Tray 3000"
    assert isinstance(out[1], DiceSeen) and out[1].values == (3, 5)
    assert isinstance(out[2], CardSeen) and out[2].card == "10H"
    assert isinstance(out[3], TagSeen) and out[3].tag == "04A1"
    assert isinstance(out[4], ButtonPressed) and out[4].button == "undo"
    assert len(out) == 5  # PING and the comment say nothing


def test_seat_and_checksum():
    (obs,) = decode(encode("DICE 6 @Blue", with_checksum=True))
    assert obs == DiceSeen(source="test", time=obs.time, player="Blue", values=(6,))
    assert checksum("DICE 6 @Blue") == encode("DICE 6 @Blue", with_checksum=True)[-3:-1].decode()


def test_crlf_and_split_reads():
    decoder = LineDecoder("test")
    assert decoder.feed(b"DI") == []
    assert decoder.feed(b"CE 2") == []
    (obs,) = decoder.feed(b" 4\r\n")
    assert obs.values == (2, 4)


def test_bad_lines_become_errors_with_reasons():
    cases = {
        b"DICE 0\n": "out of range",
        b"DICE 7\n": "out of range",
        b"DICE x\n": "not a number",
        b"DICE\n": "without values",
        b"DICE 1 2 3 4 5 6 1 2 3 4 5\n": "more than",
        b"FLY 3\n": "unknown message",
        b"HELLO 2 x\n": "version 2 is not supported",
        b"HELLO\n": "without a protocol version",
        b"CARD\n": "exactly one card",
        b"TAG zz\n": "hexadecimal",
        b"DICE 3*00\n": "checksum mismatch",
        b"\xff\xfe\n": "not ASCII",
        b"ERROR tray jammed\n": "the device reports: tray jammed",
        b"*00\n": "an empty message",
        b"   *00\n": "an empty message",
    }
    for raw, reason in cases.items():
        (obs,) = decode(raw)
        assert isinstance(obs, DeviceError), raw
        assert reason in obs.reason, (raw, obs.reason)


def test_overlong_line_is_one_error_and_the_next_line_still_reads():
    decoder = LineDecoder("test")
    out = decoder.feed(b"D" * (MAX_LINE + 50))
    out += decoder.feed(b"E" * 500)
    out += decoder.feed(b"\nDICE 4\n")
    assert [type(o) for o in out] == [DeviceError, DiceSeen]
    assert out[1].values == (4,)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.binary(max_size=300), max_size=20))
def test_random_bytes_never_escape(chunks):
    decoder = LineDecoder("fuzz")
    for chunk in chunks:
        for obs in decoder.feed(chunk):
            if isinstance(obs, DeviceError):
                assert obs.reason
            elif isinstance(obs, DiceSeen):
                assert obs.values and all(1 <= v <= 6 for v in obs.values)


_word = st.sampled_from(["DICE", "CARD", "TAG", "BUTTON", "HELLO", "ERROR", "PING", "dice",
                         "X", "", "#", "@Red", "*1F", "*00", "*", "7", "0", "12", "AS", "ff",
                         "1", "\xe9"])


@settings(max_examples=600, deadline=None)
@given(st.lists(st.lists(_word, max_size=6), max_size=15))
def test_random_line_sequences_each_yield_exactly_one_typed_result(lines):
    """Every line that is not blank, a comment or a PING gives exactly one observation."""
    decoder = LineDecoder("fuzz")
    for words in lines:
        line = " ".join(words)
        out = decoder.feed(line.encode() + b"\n")
        silent = not line.strip() or line.strip().startswith("#") or (
            line.split()[0].upper() == "PING" and "*" not in line)
        if silent:
            assert len(out) <= 1  # a PING with a bad checksum is still an error
            continue
        assert len(out) == 1, line
        if not isinstance(out[0], DeviceError):
            assert line.split()[0].upper() in {"DICE", "CARD", "TAG", "BUTTON", "HELLO"}
