"""A real ``companion play`` on a pty, killed with SIGKILL at random points, then resumed:
the final state must equal an uninterrupted run of the same input."""

from __future__ import annotations

import json
import os
import pty
import random
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

from companion.games import find
from companion.journal import Journal
from companion.session import Session
from companion.voice import Recorder

WAIT = 30.0
ROOT = Path(__file__).resolve().parent.parent


def script(seed: int) -> list[str]:
    """A whole game of throws, with refused lines mixed in; each line makes one journal entry."""
    game = find("snakes-ladders")(["Red", "Blue"])
    session = Session.start(game, Journal.memory(), Recorder(), seed=0)
    rng = random.Random(seed)
    lines = []
    while not session.state.is_terminal():
        line = "roll 9" if rng.random() < 0.1 else f"roll {rng.randint(1, 6)}"
        session.command(line)
        lines.append(line)
    return lines


def reference(lines: list[str]) -> dict:
    game = find("snakes-ladders")(["Red", "Blue"])
    session = Session.start(game, Journal.memory(), Recorder(), seed=0)
    for line in lines:
        session.command(line)
    return session.state.to_json()


def journal_entries(path: Path) -> int:
    if not path.exists():
        return 0
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=WAIT)
        try:
            return int(db.execute("SELECT COUNT(*) FROM entries").fetchone()[0])
        finally:
            db.close()
    except sqlite3.OperationalError:  # the table is not created yet
        return 0


def companion(*args: str) -> tuple[subprocess.Popen, int]:
    """Start the companion with its standard input and output on a pty."""
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", *args], stdin=slave,
                            stdout=slave, stderr=slave, env=env, cwd=ROOT)
    os.close(slave)
    threading.Thread(target=_drain, args=(master,), daemon=True).start()
    return proc, master


def _drain(fd: int) -> None:
    while True:
        try:
            if not os.read(fd, 4096):
                return
        except OSError:
            return


def wait_for_entries(path: Path, target: int, proc: subprocess.Popen) -> None:
    done = threading.Event()
    for _ in range(int(WAIT / 0.01)):
        if journal_entries(path) >= target or proc.poll() is not None:
            return
        done.wait(0.01)  # polling a condition, not timing anything
    raise AssertionError(f"the companion did not reach {target} journal entries")


def test_sigkill_at_random_points_then_resume_equals_uninterrupted(tmp_path):
    rng = random.Random(2024)
    lines = script(seed=11)
    expected = reference(lines)
    journal = tmp_path / "game.sqlite"
    consumed = 0
    kills = 0
    first = True
    while consumed < len(lines):
        if first:
            args = ["play", "snakes-ladders", "--players", "Red,Blue", "--voice", "console",
                    "--seed", "0", "--journal", str(journal)]
        else:
            args = ["resume", "--voice", "console", "--journal", str(journal)]
        proc, master = companion(*args)
        first = False
        remaining = lines[consumed:]
        if kills < 4 and len(remaining) > 8:
            # Feed k lines and wait until they are journaled, then send a few more and kill
            # at once, while those are in flight: read, half-handled, or not yet seen.
            k = rng.randint(1, len(remaining) // 2)
            for line in remaining[:k]:
                os.write(master, (line + "\n").encode())
            wait_for_entries(journal, consumed + k, proc)
            for line in remaining[k : k + rng.randint(0, 3)]:
                os.write(master, (line + "\n").encode())
            proc.send_signal(signal.SIGKILL)
            proc.wait(WAIT)
            kills += 1
        else:
            for line in [*remaining, "quit"]:
                os.write(master, (line + "\n").encode())
            assert proc.wait(WAIT) == 0
        os.close(master)
        consumed = journal_entries(journal)
        assert consumed <= len(lines)
    assert kills >= 2, (kills, consumed, len(lines))
    out = subprocess.run(
        [sys.executable, "-m", "companion.cli", "state", "--json", "--journal", str(journal)],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT,
        timeout=WAIT, check=True,
    )
    assert json.loads(out.stdout)["state"] == expected
