"""``companion emulate dgt``: a virtual DGT chess board on a pty.

It prints the pty's path; the companion opens it with ``--board dgt:PATH``. It answers the DGT
requests a real board answers (board dump, update mode, version, serial number, trade mark) and,
in update mode, reports every square that changes, one field update per lift or placement, the
way hands move pieces: a captured piece is lifted first, then the moving piece is lifted and
put down; castling moves the king and then the rook; en passant lifts the captured pawn.

Lines typed (or from ``--script FILE``):

    e2e4 e7e5          moves in UCI (e7e8n promotes to a knight; without a letter, a queen)
    lift e2            take the piece off a square
    put e4 P           put a piece (PNBRQK white, pnbrqk black) on a square
    fen PLACEMENT      make the board show a FEN placement (or "start", "empty")
    junk               send a few junk bytes (the companion must skip them)
    clock 900 900 left a clock's reading: seconds on the left and right, the side running
                       (left, right or stop); add "flag" for a fallen flag on the side running
    wait 1.5           pause (scripts: a hand takes its time; see also --pause)
    # comment

The board knows no chess rules, like the real one: an illegal move is sent just as well, so
the companion's refusals can be tried.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import threading
import time
import tty
from pathlib import Path

from devices.dgt import (
    EMPTY,
    PIECE_CODES,
    PIECE_SYMBOLS,
    SIZED_COMMANDS,
    START_PIECES,
    ClockReading,
    Command,
    Message,
    MessageId,
    bwtime,
    field_number,
)

VERSION = (1, 7)
SERIAL = "00137"
LONG_SERIAL = "0000000137"
TRADEMARK = "Table Companion virtual DGT board"
JUNK = b"\x00\x13\x7f\xff"


def placement_pieces(placement: str) -> list[int]:
    """A FEN piece placement ("rnbqkbnr/pppppppp/8/...") as 64 DGT piece codes, a8 first."""
    placement = placement.split()[0]
    if placement == "start":
        return list(START_PIECES)
    if placement == "empty":
        return [EMPTY] * 64
    pieces: list[int] = []
    for rank in placement.split("/"):
        for ch in rank:
            if ch.isdigit():
                pieces += [EMPTY] * int(ch)
            elif ch in PIECE_CODES and ch:
                pieces.append(PIECE_CODES[ch])
            else:
                raise ValueError(f"{ch!r} is not a piece in {placement!r}")
    if len(pieces) != 64:
        raise ValueError(f"{placement!r} does not fill 64 squares")
    return pieces


class DgtBoardEmulator:
    """The board end of a pty pair; ``path`` is what the companion opens."""

    def __init__(self, pieces: list[int] | None = None) -> None:
        self.pieces = list(pieces or START_PIECES)
        self.updating = False  # in an update mode: field updates are sent as they happen
        self.commands: list[int] = []  # every command byte received, for tests
        self.update_mode = threading.Event()  # set once the companion asked for updates
        self._lock = threading.Lock()
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.path = os.ttyname(self._slave)
        self._closed = threading.Event()
        self._reader = threading.Thread(target=self._serve, name="dgt-emulator", daemon=True)
        self._reader.start()

    # --- the physical board -----------------------------------------------------------

    def lift(self, square: str) -> None:
        self._set(field_number(square), EMPTY)

    def put(self, square: str, symbol: str) -> None:
        if symbol not in PIECE_CODES or not symbol:
            raise ValueError(f"{symbol!r} is not a piece: use PNBRQK or pnbrqk")
        self._set(field_number(square), PIECE_CODES[symbol])

    def move(self, uci: str) -> None:
        """Move pieces as hands would for this UCI move; no legality check."""
        uci = uci.strip().lower()
        if len(uci) not in (4, 5):
            raise ValueError(f"{uci!r} is not a UCI move like e2e4")
        src, dst = field_number(uci[:2]), field_number(uci[2:4])
        mover = self.pieces[src]
        if mover == EMPTY:
            raise ValueError(f"there is no piece on {uci[:2]}")
        symbol = PIECE_SYMBOLS[mover]
        captured = self.pieces[dst] != EMPTY
        updates: list[tuple[int, int]] = []
        if captured:
            updates.append((dst, EMPTY))
        updates.append((src, EMPTY))
        if len(uci) == 5 or (symbol in "Pp" and uci[3] in "18"):
            letter = uci[4] if len(uci) == 5 else "q"
            landing = PIECE_CODES[letter.upper() if symbol.isupper() else letter.lower()]
        else:
            landing = mover
        updates.append((dst, landing))
        if symbol in "Kk" and abs(src - dst) == 2:  # castling: the rook follows the king
            rook_from, rook_to = (src + 3, src + 1) if dst > src else (src - 4, src - 1)
            updates += [(rook_from, EMPTY), (rook_to, self.pieces[rook_from])]
        if symbol in "Pp" and src % 8 != dst % 8 and not captured:  # en passant
            updates.append((src - src % 8 + dst % 8, EMPTY))
        self._send_updates(updates)

    def show(self, pieces: list[int]) -> None:
        """Make the board show these 64 pieces (lifting, then placing, what differs)."""
        lifts = [(f, EMPTY) for f in range(64) if self.pieces[f] != pieces[f] and self.pieces[f]]
        puts = [(f, pieces[f]) for f in range(64) if self.pieces[f] != pieces[f] and pieces[f]]
        self._send_updates(lifts + puts)

    def clock(self, left: int, right: int, running: int, *, flag: bool = False) -> None:
        """A connected clock's reading, sent in an update mode (as a board relays it)."""
        reading = ClockReading(left, right, running, flag and running == 0,
                               flag and running == 1)
        if self.updating:
            self._write(bwtime(reading).encode())

    def send_junk(self, data: bytes = JUNK) -> None:
        self._write(data)

    def command(self, line: str) -> str:
        """Handle one typed line; returns what to tell the person (or "")."""
        text = line.split("#", 1)[0].strip()
        if not text:
            return ""
        word, *rest = text.split()
        word = word.lower()
        if word == "lift" and len(rest) == 1:
            self.lift(rest[0].lower())
        elif word in {"put", "place"} and len(rest) == 2:
            self.put(rest[0].lower(), rest[1])
        elif word == "fen" and rest:
            self.show(placement_pieces(rest[0]))
        elif word == "junk":
            self.send_junk()
        elif word == "clock" and len(rest) >= 3:
            running = {"left": 0, "right": 1, "stop": -1}[rest[2].lower()]
            self.clock(int(rest[0]), int(rest[1]), running, flag="flag" in rest[3:])
        elif word == "wait" and len(rest) == 1:
            time.sleep(float(rest[0]))  # the command-line tool only; tests never wait
        else:
            for uci in text.split():
                self.move(uci)
        return ""

    # --- the wire ----------------------------------------------------------------------

    def _set(self, field: int, code: int) -> None:
        self._send_updates([(field, code)])

    def _send_updates(self, updates: list[tuple[int, int]]) -> None:
        with self._lock:
            out = bytearray()
            for field, code in updates:
                if self.pieces[field] == code:
                    continue
                self.pieces[field] = code
                if self.updating:
                    out += Message.field_update(field, code).encode()
        # One write per hand movement batch: a move's reports travel together.
        if out:
            self._write(bytes(out))

    def _write(self, data: bytes) -> None:
        with contextlib.suppress(OSError):
            os.write(self.master, data)

    def _serve(self) -> None:
        pending = bytearray()
        while not self._closed.is_set():
            try:
                data = os.read(self.master, 256)
            except OSError:
                return
            if not data or self._closed.is_set():
                return
            pending += data
            while pending:
                first = pending[0]
                if first in SIZED_COMMANDS:  # clock or LED command: size byte, then its bytes
                    if len(pending) < 2 or len(pending) < 2 + pending[1]:
                        break
                    del pending[: 2 + pending[1]]
                    continue
                del pending[0]
                self.commands.append(first)
                self._answer(first)

    def _answer(self, command: int) -> None:
        replies = {
            Command.SEND_BRD: lambda: Message.board_dump(self.pieces),
            Command.SEND_VERSION: lambda: Message.version(*VERSION),
            Command.RETURN_SERIALNR: lambda: Message.text(MessageId.SERIALNR, SERIAL),
            Command.RETURN_LONG_SERIALNR: lambda: Message.text(
                MessageId.LONG_SERIALNR, LONG_SERIAL
            ),
            Command.SEND_TRADEMARK: lambda: Message.text(MessageId.TRADEMARK, TRADEMARK),
            # No clock is connected: status byte bit 5 says the reading is invalid.
            Command.SEND_CLK: lambda: Message(MessageId.BWTIME, bytes(6) + b"\x20"),
        }
        with self._lock:
            if command == Command.SEND_RESET:
                self.updating = False
                return
            if command in (Command.SEND_UPDATE, Command.SEND_UPDATE_BRD, Command.SEND_UPDATE_NICE):
                self.updating = True
                self.update_mode.set()
                return
            make = replies.get(command)  # type: ignore[call-overload]
            reply = make().encode() if make else b""
        if reply:
            self._write(reply)

    def close(self) -> None:
        """Unplug. The reader thread ends before the fds close: a thread still reading a closed
        fd number would read the next pty that reuses it, and answer with this board."""
        self._closed.set()
        with contextlib.suppress(OSError):
            os.write(self._slave, b"\0")  # wakes the reader out of its read
        self._reader.join(timeout=5)
        for fd in (self._slave, self.master):
            with contextlib.suppress(OSError):
                os.close(fd)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="companion emulate dgt",
        description="A virtual DGT chess board on a pty. Type UCI moves (e2e4), 'lift e2',"
        " 'put e4 P', 'fen PLACEMENT', 'junk', 'clock 300 291 right' (a clock's reading:"
        " seconds on the left and the right, the side running; 'flag' for a fallen flag).",
    )
    parser.add_argument("--script", help="play the lines of this file instead of standard input")
    parser.add_argument("--fen", default="start", help="the placement the board starts with")
    parser.add_argument(
        "--pause",
        type=float,
        default=1.0,
        help="seconds between script lines, so each move settles (default 1)",
    )
    args = parser.parse_args(argv)
    try:
        pieces = placement_pieces(args.fen)
    except ValueError as exc:
        parser.error(str(exc))
    board = DgtBoardEmulator(pieces)
    print(board.path, flush=True)
    print(f"Run: companion play chess --board dgt:{board.path}", file=sys.stderr)
    if args.script:
        lines = Path(args.script).read_text(encoding="utf-8").splitlines()
        board.update_mode.wait()  # a script waits until the companion listens
    else:
        lines = sys.stdin  # type: ignore[assignment]
    try:
        for line in lines:
            try:
                board.command(line)
            except ValueError as exc:
                print(f"? {exc}", file=sys.stderr)
            if args.script and line.split("#", 1)[0].strip():
                time.sleep(args.pause)
        if args.script:
            print("Script played; press Ctrl-C to unplug the board.", file=sys.stderr)
            threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        board.close()
    return 0
