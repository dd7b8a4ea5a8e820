"""A virtual table device on a pseudo-terminal: ``companion emulate``.

It prints the pty's path; the companion opens that path as if it were a USB dice tray.
Lines typed (or piped from a script) are sent as the device would send them.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import threading
import tty
from pathlib import Path

from devices.protocol import encode


class PtyDevice:
    """The device end of a pty pair. ``path`` is what the companion opens."""

    def __init__(self) -> None:
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo: nothing we send comes back to block us
        self.path = os.ttyname(self._slave)
        self.received = bytearray()
        self._closed = threading.Event()
        self._drain = threading.Thread(target=self._read_back, daemon=True)
        self._drain.start()

    def send_line(self, message: str, *, with_checksum: bool = False) -> None:
        os.write(self.master, encode(message, with_checksum=with_checksum))

    def send_bytes(self, data: bytes) -> None:
        os.write(self.master, data)

    def _read_back(self) -> None:
        # Whatever the companion writes to the device is kept (and must be read, or the pty
        # buffer would fill and block it).
        while not self._closed.is_set():
            try:
                data = os.read(self.master, 1024)
            except OSError:
                return
            if not data:
                return
            self.received += data

    def close(self) -> None:
        """Unplug: the reader sees the device go away, and no thread or fd is left behind."""
        self._closed.set()
        with contextlib.suppress(OSError):
            os.write(self._slave, b"\0")  # wakes the drain thread out of its read
        self._drain.join(timeout=5)
        for fd in (self._slave, self.master):
            with contextlib.suppress(OSError):
                os.close(fd)


# the chess board's emulator, a recording of generated throws for --dice camera:FILE, and one
# of real card faces laid on a table for --cards camera:FILE
OTHER_DEVICES = {"dgt": "devices.dgt_emulator", "camera": "vision.recording",
                 "cards": "vision.card_recording"}


def main(argv: list[str]) -> int:
    if argv and argv[0] in OTHER_DEVICES:
        import importlib

        module = importlib.import_module(OTHER_DEVICES[argv[0]])
        result: int = module.main(argv[1:])
        return result
    parser = argparse.ArgumentParser(
        prog="companion emulate",
        description="A virtual serial table device on a pty. Type protocol lines "
        "(DICE 3 5, CARD 5H, BUTTON undo, HELLO 1 name); a bare number list is sent as DICE.",
    )
    parser.add_argument("--checksum", action="store_true", help="append *HH checksums")
    parser.add_argument("--script", help="send the lines of this file instead of standard input")
    args = parser.parse_args(argv)
    device = PtyDevice()
    print(device.path, flush=True)
    print(f"Run: companion play snakes-ladders --dice serial:{device.path}", file=sys.stderr)
    device.send_line("HELLO 1 Table Companion emulator", with_checksum=args.checksum)
    lines = Path(args.script).read_text(encoding="utf-8").splitlines() if args.script else sys.stdin
    try:
        for line in lines:
            text = line.strip()
            if not text:
                continue
            if all(part.isdigit() for part in text.split()):
                text = "DICE " + text
            device.send_line(text, with_checksum=args.checksum)
        if args.script:
            print("Script sent; press Ctrl-C to unplug the device.", file=sys.stderr)
            threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        device.close()
    return 0
