"""A `companion play` process with a virtual device on a real pty, for end-to-end tests.

``TablePlay`` starts the companion as a player would (console voice, a journal in tmp_path),
greets it from the device until it has heard, and reads what it prints line by line.
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

from devices.emulator import PtyDevice

WAIT = 30.0
ROOT = Path(__file__).resolve().parent.parent


class TablePlay:
    def __init__(self, journal: Path, *args: str, game: str = "snakes",
                 players: str = "Red,Blue") -> None:
        self.device = PtyDevice()
        self.journal = journal
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "play", game, "--players", players,
             "--voice", "console", "--journal", str(journal),
             "--dice", f"serial:{self.device.path}", *args],
            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
        assert self.proc.stdout is not None and self.proc.stdin is not None
        self.lines: queue.Queue[str] = queue.Queue()
        self.out: list[str] = []
        stdout = self.proc.stdout
        self._reader = threading.Thread(target=lambda: [self.lines.put(x) for x in stdout],
                                        daemon=True)
        self._reader.start()

    def greet(self) -> None:
        """Opening a port flushes its input, so greet until the companion has heard us."""
        for _ in range(int(WAIT / 0.2)):
            self.device.send_line("HELLO 1 Test tray")
            try:
                self.until("Test tray is connected.", timeout=0.2)
                return
            except queue.Empty:
                continue
        raise AssertionError("the companion never heard the device")

    def until(self, text: str, timeout: float = WAIT) -> list[str]:
        """The lines printed up to and including the first that contains ``text``."""
        start = len(self.out)
        while True:
            line = self.lines.get(timeout=timeout)
            self.out.append(line)
            if text in line:
                return self.out[start:]

    def type(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def quit(self) -> str:
        """Type quit, wait for the end, and return everything printed."""
        if self.proc.poll() is None:
            self.type("quit")
            self.proc.wait(WAIT)
        return self.rest()

    def rest(self) -> str:
        """Everything printed, once the process has ended."""
        self.proc.wait(WAIT)
        self._reader.join(WAIT)
        while not self.lines.empty():
            self.out.append(self.lines.get())
        return "".join(self.out)

    def close(self) -> None:
        self.device.close()
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(WAIT)
