"""The DGT electronic chess board protocol (single-board mode), as pure code: no port here.

Computer to board: one-byte commands (``Command``). Board to computer: messages of a header
(message id with the top bit set, then the total length in two 7-bit bytes) and data bytes whose
top bit is clear (``Message``). ``Decoder`` turns a byte stream into messages, skipping junk
before a frame and waiting for the rest of a partial one; ``BoardImage`` keeps the 64 squares
up to date from board dumps and field updates.

Field numbering is the board's: 0 is a8, 7 is h8, 8 is a7 ... 63 is h1 (connector on White's
left). The protocol reference is DGT's ``dgtbrd.h`` (single board communication protocol).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

MESSAGE_BIT = 0x80
MAX_SIZE = 0x3FFF  # two 7-bit length bytes


class Command(IntEnum):
    """Commands from the computer to the board (one byte each)."""

    SEND_RESET = 0x40  # idle mode: stop sending updates
    SEND_CLK = 0x41  # -> BWTIME
    SEND_BRD = 0x42  # -> BOARD_DUMP
    SEND_UPDATE = 0x43  # update mode: FIELD_UPDATE and BWTIME messages
    SEND_UPDATE_BRD = 0x44  # update-board mode: FIELD_UPDATE messages
    RETURN_SERIALNR = 0x45  # -> SERIALNR
    RETURN_BUSADRES = 0x46  # -> BUSADRES
    SEND_TRADEMARK = 0x47  # -> TRADEMARK
    SEND_EE_MOVES = 0x49  # -> EE_MOVES
    SEND_UPDATE_NICE = 0x4B  # update mode, clock only when it changed
    SEND_BATTERY_STATUS = 0x4C  # -> BATTERY_STATUS
    SEND_VERSION = 0x4D  # -> VERSION
    RETURN_LONG_SERIALNR = 0x55  # -> LONG_SERIALNR


# Commands followed by a size byte and that many bytes (clock messages, Revelation II LEDs).
SIZED_COMMANDS = {0x2B, 0x60}


def encode_command(command: Command) -> bytes:
    return bytes([int(command)])


class MessageId(IntEnum):
    """Messages from the board to the computer (MESSAGE_BIT | id code)."""

    BOARD_DUMP = 0x86
    BWTIME = 0x8D
    FIELD_UPDATE = 0x8E
    EE_MOVES = 0x8F
    BUSADRES = 0x90
    SERIALNR = 0x91
    TRADEMARK = 0x92
    VERSION = 0x93
    BATTERY_STATUS = 0xA0
    LONG_SERIALNR = 0xA2


# Total sizes (header included) of the fixed-size messages; the others are variable.
FIXED_SIZES = {
    MessageId.BOARD_DUMP: 67,
    MessageId.BWTIME: 10,
    MessageId.FIELD_UPDATE: 5,
    MessageId.BUSADRES: 5,
    MessageId.SERIALNR: 8,
    MessageId.VERSION: 5,
    MessageId.LONG_SERIALNR: 13,
}
_KNOWN_IDS = frozenset(int(m) for m in MessageId)

# Piece codes; 13-15 are DGT's "magic pieces" (draw, white wins, black wins), shown as "?".
PIECE_SYMBOLS = ("", "P", "R", "N", "B", "K", "Q", "p", "r", "n", "b", "k", "q", "?", "?", "?")
PIECE_CODES = {symbol: code for code, symbol in enumerate(PIECE_SYMBOLS) if symbol != "?"}
EMPTY = 0


def square_name(field: int) -> str:
    """DGT field number (0 = a8 ... 63 = h1) to a square name."""
    if not 0 <= field < 64:
        raise ValueError(f"field {field} is not on the board")
    return "abcdefgh"[field % 8] + str(8 - field // 8)


def field_number(square: str) -> int:
    """A square name ("e4") to the DGT field number."""
    if len(square) != 2 or square[0] not in "abcdefgh" or square[1] not in "12345678":
        raise ValueError(f"{square!r} is not a square")
    return (8 - int(square[1])) * 8 + "abcdefgh".index(square[0])


def piece_symbol(code: int) -> str:
    if not 0 <= code < len(PIECE_SYMBOLS):
        raise ValueError(f"piece code {code:#x} is unknown")
    return PIECE_SYMBOLS[code]


@dataclass(frozen=True)
class Message:
    """One validated message from the board: its id and its data bytes (header excluded)."""

    id: MessageId
    data: bytes

    def __post_init__(self) -> None:
        size = len(self.data) + 3
        expected = FIXED_SIZES.get(self.id)
        if expected is not None and size != expected:
            raise ValueError(f"{self.id.name} must be {expected} bytes, not {size}")
        if size > MAX_SIZE:
            raise ValueError(f"{self.id.name} of {size} bytes is too long")
        if any(b & MESSAGE_BIT for b in self.data):
            raise ValueError(f"{self.id.name} data bytes must have the top bit clear")
        if self.id is MessageId.BOARD_DUMP:
            for code in self.data:
                piece_symbol(code)
        if self.id is MessageId.FIELD_UPDATE:
            square_name(self.data[0])
            piece_symbol(self.data[1])

    # --- constructors for the common messages (the emulator sends these) ---------------

    @classmethod
    def board_dump(cls, pieces: tuple[int, ...] | list[int]) -> Message:
        if len(pieces) != 64:
            raise ValueError("a board dump has 64 squares")
        return cls(MessageId.BOARD_DUMP, bytes(pieces))

    @classmethod
    def field_update(cls, field: int, piece: int) -> Message:
        return cls(MessageId.FIELD_UPDATE, bytes([field, piece]))

    @classmethod
    def version(cls, major: int, minor: int) -> Message:
        return cls(MessageId.VERSION, bytes([major, minor]))

    @classmethod
    def text(cls, message_id: MessageId, text: str) -> Message:
        return cls(message_id, text.encode("ascii"))

    # --- reading ---------------------------------------------------------------------

    @property
    def pieces(self) -> tuple[int, ...]:
        """Board dump: the 64 piece codes, field 0 (a8) first."""
        self._expect(MessageId.BOARD_DUMP)
        return tuple(self.data)

    @property
    def field(self) -> int:
        self._expect(MessageId.FIELD_UPDATE)
        return self.data[0]

    @property
    def piece(self) -> int:
        self._expect(MessageId.FIELD_UPDATE)
        return self.data[1]

    @property
    def version_text(self) -> str:
        self._expect(MessageId.VERSION)
        return f"{self.data[0]}.{self.data[1]:02d}"

    @property
    def ascii(self) -> str:
        """Serial numbers and the trade mark: the data as text."""
        return self.data.decode("ascii", errors="replace")

    def _expect(self, message_id: MessageId) -> None:
        if self.id is not message_id:
            raise ValueError(f"a {self.id.name} message is not a {message_id.name}")

    def encode(self) -> bytes:
        size = len(self.data) + 3
        return bytes([int(self.id), (size >> 7) & 0x7F, size & 0x7F]) + self.data

    def __repr__(self) -> str:
        return f"Message(MessageId.{self.id.name}, {self.data!r})"


@dataclass(frozen=True)
class ClockReading:
    """A clock's times (seconds) as the board relays them (BWTIME), seen from the front."""

    left: int
    right: int
    running: int  # 0: the left time runs, 1: the right, -1: stopped
    left_flag: bool = False
    right_flag: bool = False


def _bcd(byte: int) -> int:
    return (byte >> 4) * 10 + (byte & 0x0F)


def _to_bcd(n: int) -> int:
    return (n // 10) << 4 | n % 10


def clock_reading(message: Message) -> ClockReading | None:
    """A BWTIME message as times, or None for a reading without a clock (status bit 5) and for
    a DGT 3000's acknowledgements (a low nibble of 0x0a in the first byte of either side).

    Layout (dgtbrd.h): bytes 0-2 the right side (hours in the low nibble, flag bits 0x10 and
    0x40 in the high one; minutes and seconds in BCD), bytes 3-5 the left side, byte 6 the
    status: bit 0 running, bit 1 the lever high on the left (the left time runs), bit 5 no
    clock."""
    message._expect(MessageId.BWTIME)
    data = message.data
    if (data[0] & 0x0F) == 0x0A or (data[3] & 0x0F) == 0x0A:
        return None
    status = data[6]
    if status & 0x20:
        return None

    def seconds(at: int) -> int:
        return (data[at] & 0x0F) * 3600 + _bcd(data[at + 1]) * 60 + _bcd(data[at + 2])

    running = -1 if not status & 0x01 else (0 if status & 0x02 else 1)
    return ClockReading(seconds(3), seconds(0), running, bool(data[3] & 0x50),
                        bool(data[0] & 0x50))


def bwtime(reading: ClockReading) -> Message:
    """The BWTIME message for a reading (the emulated clock sends these)."""

    def side(total: int, flag: bool) -> bytes:
        total = max(0, total)
        hours, rest = divmod(total, 3600)
        return bytes([min(hours, 9) | (0x10 if flag else 0), _to_bcd(rest // 60),
                      _to_bcd(rest % 60)])

    status = 0 if reading.running < 0 else 0x01 | (0x02 if reading.running == 0 else 0)
    data = side(reading.right, reading.right_flag) + side(reading.left, reading.left_flag)
    return Message(MessageId.BWTIME, data + bytes([status]))


class Decoder:
    """Bytes from the board in, messages out. Junk and broken frames are skipped and counted."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.skipped = 0  # bytes thrown away (junk, broken frames)

    def reset(self) -> None:
        """Forget a half-received frame (after the port was lost)."""
        self.buffer.clear()

    def feed(self, data: bytes) -> list[Message]:
        self.buffer += data
        out: list[Message] = []
        buf = self.buffer
        while True:
            start = next((i for i, b in enumerate(buf) if b in _KNOWN_IDS), len(buf))
            self._skip(start)
            if len(buf) < 3:
                return out
            size = _frame_size(buf)
            if size is None:
                self._skip(1)
                continue
            # A byte with the top bit set inside the data starts something else: resync there.
            body = buf[3 : min(size, len(buf))]
            broken = next((i for i, b in enumerate(body) if b & MESSAGE_BIT), None)
            if broken is not None:
                self._skip(3 + broken)
                continue
            if len(buf) < size:
                return out  # a partial frame: wait for the rest
            frame = bytes(buf[:size])
            del buf[:size]
            try:
                out.append(Message(MessageId(frame[0]), frame[3:]))
            except ValueError:
                self.skipped += size

    def _skip(self, n: int) -> None:
        if n:
            del self.buffer[:n]
            self.skipped += n


def _frame_size(buf: bytearray) -> int | None:
    """The total size a header announces, or None if the header cannot be right."""
    high, low = buf[1], buf[2]
    if (high | low) & MESSAGE_BIT:
        return None
    size = (high << 7) | low
    expected = FIXED_SIZES.get(MessageId(buf[0]))
    if size < 3 or (expected is not None and size != expected):
        return None
    return size


class BoardImage:
    """The 64 squares as the board last reported them (None until the first board dump)."""

    def __init__(self) -> None:
        self.pieces: list[int] | None = None

    def apply(self, message: Message) -> bool:
        """Take a board dump or field update into account; True if a square changed."""
        if message.id is MessageId.BOARD_DUMP:
            new = list(message.pieces)
            changed = new != self.pieces
            self.pieces = new
            return changed
        if message.id is MessageId.FIELD_UPDATE and self.pieces is not None:
            if self.pieces[message.field] == message.piece:
                return False  # a duplicate update
            self.pieces[message.field] = message.piece
            return True
        return False

    def squares(self, *, rotated: bool = False) -> tuple[tuple[str, str], ...]:
        """All 64 squares as (name, piece symbol or ""), a8 first."""
        if self.pieces is None:
            return ()
        return tuple(
            (square_name(63 - i if rotated else i), piece_symbol(code))
            for i, code in enumerate(self.pieces)
        )


# The initial chess position in field order, and the same seen from the other side.
START_PIECES = tuple(
    PIECE_CODES.get(s, EMPTY) for s in "rnbqkbnr" + "p" * 8 + "." * 32 + "P" * 8 + "RNBQKBNR"
)
START_PIECES_ROTATED = tuple(reversed(START_PIECES))
