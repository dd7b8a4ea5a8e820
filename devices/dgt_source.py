"""``--board dgt:URL``: a DGT electronic chess board on a serial transport, with reconnect.

The port (any pyserial URL: /dev/ttyUSB0, COM3, a pty path, socket://...) is opened at 9600
baud, 8N1, no handshake, as DGT specifies. On every (re)connection the board is put in idle
mode, asked for its version and a full board dump, and then put in "update nice" mode so that it
reports each square that changes and a connected clock's times when they change (``ClockSeen``).

Pieces are lifted and put down one square at a time, so the raw square reports pass through
positions nobody meant. ``Settler`` waits until the board has been still for a short time and
only then emits a ``BoardSeen`` with all 64 squares; the chess game decides what it means.

Target options after ``#``: ``dgt:/dev/ttyUSB0#rotated`` (Black sits at the connector side),
``#settle=0.5`` (seconds of stillness). Without ``rotated`` the orientation is taken from the
first initial position the board shows.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import serial

from companion.observations import BoardSeen, ClockSeen, DeviceHello
from devices.dgt import (
    START_PIECES,
    START_PIECES_ROTATED,
    BoardImage,
    Command,
    Decoder,
    Message,
    MessageId,
    clock_reading,
    encode_command,
)
from devices.reconnect import RETRY_SECONDS, Emit, ReconnectingSource

log = logging.getLogger("companion.devices.dgt")

BAUDRATE = 9600
SETTLE_SECONDS = 0.3  # a DGT board scans all squares in 200-250 ms

STARTUP = (
    Command.SEND_RESET,
    Command.SEND_VERSION,
    Command.SEND_BRD,
    Command.SEND_UPDATE_NICE,  # field updates, and the clock's times when they change
)


class Settler:
    """Debounces a changing board: a board is released once unchanged for ``settle`` seconds.

    Pure and clock-injected: the caller says what the board is and what time it is. A board
    equal to the one released last is not released again (a piece lifted and put back).
    """

    def __init__(self, settle: float = SETTLE_SECONDS) -> None:
        self.settle = settle
        self._latest: tuple[int, ...] | None = None
        self._since = 0.0
        self._released: tuple[int, ...] | None = None

    def update(self, pieces: tuple[int, ...], now: float) -> None:
        if pieces != self._latest:
            self._latest = pieces
            self._since = now

    def poll(self, now: float) -> tuple[int, ...] | None:
        """The board to report now, if it has settled and is news; else None."""
        if self._latest is None or self._latest == self._released:
            return None
        if now - self._since < self.settle:
            return None
        self._released = self._latest
        return self._latest

    def deadline(self) -> float | None:
        """When ``poll`` may next release something (None: nothing is pending)."""
        if self._latest is None or self._latest == self._released:
            return None
        return self._since + self.settle

    def forget(self) -> None:
        """Release the next settled board even if it equals the last one (after reconnecting)."""
        self._released = None


class DgtSource(ReconnectingSource):
    def __init__(
        self,
        url: str,
        role: str = "board",
        *,
        settle: float = SETTLE_SECONDS,
        rotated: bool | None = None,
        opener: Callable[..., Any] = serial.serial_for_url,
        retry_seconds: float = RETRY_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(url, f"dgt:{url}", opener, retry_seconds)
        self.role = role
        self.rotated = rotated
        self._fixed_orientation = rotated is not None
        self._clock = clock
        self.decoder = Decoder()
        self.image = BoardImage()
        self.settler = Settler(settle)
        self.version = ""

    # --- the reader thread ------------------------------------------------------------

    def _connect(self) -> Any:
        port = self._open(
            self.url,
            baudrate=BAUDRATE,
            bytesize=serial.EIGHTBITS,
            parity=serial.PARITY_NONE,
            stopbits=serial.STOPBITS_ONE,
            xonxoff=False,
            rtscts=False,
            timeout=min(0.05, self.settler.settle / 4),
        )
        self.port = port
        for command in STARTUP:
            port.write(encode_command(command))
        self.connected.set()
        return port

    def _forget(self) -> None:
        self.decoder.reset()
        self.settler.forget()

    device = "chess board"

    def _port_name(self) -> str:
        return f"the chess board on {self.url}"

    def _read(self, port: Any, emit: Emit) -> None:
        while not self._stop.is_set():
            data = port.read(max(1, port.in_waiting))
            if data:
                skipped = self.decoder.skipped
                for message in self.decoder.feed(data):
                    self._take(message, emit)
                if self.decoder.skipped != skipped:
                    log.debug("%s: skipped %d bytes", self.name, self.decoder.skipped - skipped)
            settled = self.settler.poll(self._clock())
            if settled is not None:
                emit(self.board_seen())

    def _take(self, message: Message, emit: Emit) -> None:
        if message.id is MessageId.VERSION:
            self.version = message.version_text
            emit(DeviceHello(source=self.name, name="The DGT chess board", version=self.version))
            return
        if message.id is MessageId.BWTIME:
            reading = clock_reading(message)
            if reading is not None:
                emit(ClockSeen(source=self.name, times=(reading.left, reading.right),
                               running=reading.running,
                               flags=(reading.left_flag, reading.right_flag)))
            return
        if self.image.apply(message) and self.image.pieces is not None:
            pieces = tuple(self.image.pieces)
            self._orient(pieces)
            self.settler.update(pieces, self._clock())

    def _orient(self, pieces: tuple[int, ...]) -> None:
        if self._fixed_orientation:
            return
        if pieces == START_PIECES:
            self.rotated = False
        elif pieces == START_PIECES_ROTATED:
            if not self.rotated:
                log.info("%s: the board is turned round; reading it from Black's side", self.name)
            self.rotated = True

    def board_seen(self) -> BoardSeen:
        """The current board as an observation (all 64 squares)."""
        return BoardSeen(source=self.name, squares=self.image.squares(rotated=bool(self.rotated)))


def open_source(target: str, role: str) -> DgtSource:
    """``dgt:URL[#rotated][#settle=SECONDS]`` (options may also be joined with commas)."""
    url, _, options = target.partition("#")
    kwargs: dict[str, Any] = {}
    for option in filter(None, options.replace("#", ",").split(",")):
        key, _, value = option.partition("=")
        if key == "rotated":
            kwargs["rotated"] = value.lower() not in {"no", "0", "false"}
        elif key == "settle":
            kwargs["settle"] = float(value)
        else:
            raise ValueError(f"unknown DGT board option {key!r}: use rotated or settle=SECONDS")
    if not url:
        raise ValueError("say where the DGT board is: dgt:/dev/ttyUSB0 (or COM3, socket://...)")
    return DgtSource(url, role, **kwargs)
