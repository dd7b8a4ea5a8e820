"""The table-device line protocol, version 1 (docs/protocol.md). Pure: bytes in, observations out.

One message per line, ASCII, ended by LF (CR LF accepted), at most MAX_LINE bytes:

    HELLO 1 DiceTray-3000        greeting: protocol version, device name
    DICE 3 5                     die values
    CARD 5H                      a card id
    TAG 04A1B2C3                 a raw tag or barcode id (mapped to cards by config/tags/)
    BUTTON undo                  a button press
    ERROR tray jammed            the device reports a fault
    PING                         heartbeat (no observation)
    # anything                   comment (no observation)

Any line may end with ``@Seat`` (the player the device belongs to) and then with an NMEA-style
checksum ``*HH``: the XOR of every byte before the ``*``, as two hex digits.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from companion.observations import (
    BUTTONS,
    ButtonPressed,
    CardSeen,
    DeviceError,
    DeviceHello,
    DiceSeen,
    Observation,
    TagSeen,
)

PROTOCOL_VERSION = 1
MAX_LINE = 128
MAX_DICE = 10


def checksum(body: str) -> str:
    value = 0
    for byte in body.encode("ascii", "replace"):
        value ^= byte
    return f"{value:02X}"


def encode(message: str, *, with_checksum: bool = False) -> bytes:
    """The bytes a device sends for ``message`` (used by the emulator and tests)."""
    line = f"{message}*{checksum(message)}" if with_checksum else message
    return (line + "\n").encode("ascii")


@dataclass
class LineDecoder:
    """Feed it bytes as they arrive; it returns the observations of every complete line."""

    source: str
    faces: range = range(1, 7)
    max_line: int = MAX_LINE
    clock: Callable[[], float] = time.monotonic

    def __post_init__(self) -> None:
        self._buffer = bytearray()
        self._overflow = False

    def reset(self) -> None:
        """Forget a partial line (after a disconnect)."""
        self._buffer.clear()
        self._overflow = False

    def feed(self, data: bytes) -> list[Observation]:
        out: list[Observation] = []
        start = 0
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                self._keep(data[start:], out)
                return out
            chunk = data[start:end]
            start = end + 1
            if self._overflow:
                self._overflow = False  # the tail of an overlong line: already reported
                self._buffer.clear()
                continue
            self._buffer += chunk
            if len(self._buffer) > self.max_line:
                out.append(self._error("line too long", bytes(self._buffer[:40])))
            else:
                obs = self.decode_line(bytes(self._buffer))
                if obs is not None:
                    out.append(obs)
            self._buffer.clear()

    def _keep(self, tail: bytes, out: list[Observation]) -> None:
        if self._overflow:
            return
        self._buffer += tail
        if len(self._buffer) > self.max_line:
            out.append(self._error("line too long", bytes(self._buffer[:40])))
            self._buffer.clear()
            self._overflow = True

    def decode_line(self, raw: bytes) -> Observation | None:
        try:
            line = raw.decode("ascii").strip()
        except UnicodeDecodeError:
            return self._error("unreadable bytes (not ASCII)", raw)
        if not line or line.startswith("#"):
            return None
        if "*" in line:
            line, _, given = line.rpartition("*")
            if given.upper() != checksum(line):
                return self._error(f"checksum mismatch (got {given}, expected {checksum(line)})",
                                   raw)
        words = line.split()
        if not words:
            return self._error("an empty message", raw)
        seat = None
        if len(words) > 1 and words[-1].startswith("@") and len(words[-1]) > 1:
            seat = words.pop()[1:]
        verb, args = words[0].upper(), words[1:]
        parser = _PARSERS.get(verb)
        if parser is None:
            return self._error(f"unknown message {verb!r}", raw)
        return parser(self, args, raw, seat)

    # --- one parser per message --------------------------------------------------------

    def _hello(self, args: list[str], raw: bytes, seat: str | None) -> Observation:
        if not args or not args[0].isdigit():
            return self._error("greeting without a protocol version", raw)
        if int(args[0]) != PROTOCOL_VERSION:
            return self._error(f"protocol version {args[0]} is not supported (this is 1)", raw)
        return DeviceHello(source=self.source, time=self.clock(), player=seat,
                           name=" ".join(args[1:]) or "device", version=args[0])

    def _dice(self, args: list[str], raw: bytes, seat: str | None) -> Observation:
        if not args:
            return self._error("a dice message without values", raw)
        if len(args) > MAX_DICE:
            return self._error(f"{len(args)} dice is more than {MAX_DICE}", raw)
        values = []
        for arg in args:
            if not arg.isdigit():
                return self._error(f"die value {arg!r} is not a number", raw)
            value = int(arg)
            if value not in self.faces:
                return self._error(f"die value {value} is out of range", raw)
            values.append(value)
        return DiceSeen(source=self.source, time=self.clock(), player=seat, values=tuple(values))

    def _card(self, args: list[str], raw: bytes, seat: str | None) -> Observation:
        if len(args) != 1:
            return self._error("a card message needs exactly one card id", raw)
        return CardSeen(source=self.source, time=self.clock(), player=seat, card=args[0].upper())

    def _tag(self, args: list[str], raw: bytes, seat: str | None) -> Observation:
        if len(args) != 1 or not all(c in "0123456789abcdefABCDEF" for c in args[0]):
            return self._error("a tag message needs one hexadecimal id", raw)
        return TagSeen(source=self.source, time=self.clock(), player=seat, tag=args[0].upper())

    def _button(self, args: list[str], raw: bytes, seat: str | None) -> Observation:
        if len(args) != 1:
            return self._error("a button message needs one button name", raw)
        if args[0].lower() not in BUTTONS:
            return self._error(f"there is no button '{args[0]}' (the buttons are "
                               f"{', '.join(BUTTONS)})", raw)
        return ButtonPressed(source=self.source, time=self.clock(), player=seat,
                             button=args[0].lower())

    def _device_error(self, args: list[str], raw: bytes, seat: str | None) -> Observation:
        return self._error("the device reports: " + (" ".join(args) or "an error"), raw)

    def _ping(self, args: list[str], raw: bytes, seat: str | None) -> Observation | None:
        return None

    def _error(self, reason: str, raw: bytes) -> DeviceError:
        shown = raw.decode("ascii", "replace")
        return DeviceError(source=self.source, time=self.clock(), confidence=0.0,
                           reason=f"Device input ignored: {reason}.", raw=shown)


_Parser = Callable[[LineDecoder, list[str], bytes, "str | None"], "Observation | None"]
_PARSERS: dict[str, _Parser] = {
    "HELLO": LineDecoder._hello,
    "DICE": LineDecoder._dice,
    "CARD": LineDecoder._card,
    "TAG": LineDecoder._tag,
    "BUTTON": LineDecoder._button,
    "ERROR": LineDecoder._device_error,
    "PING": LineDecoder._ping,
}
