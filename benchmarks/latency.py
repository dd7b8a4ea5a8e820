"""``companion bench latency``: device line received -> announcement queued, through a pty.

10,000 protocol lines go through a virtual tray (pty), the real serial source, protocol
decoder, session, SQLite journal (WAL, group commit, on disk) and rules engine. Time is
taken from the moment the reader thread has the line's bytes (the observation's timestamp)
to the moment the first announcement of that input is queued; a second figure runs to the
moment its journal entry is on disk (the announcer waits for that before it speaks).
Lines are sent one at a time (the next after the previous was handled), so the figure is
latency, not backlog. One in
twenty lines is garbage, so refusals are measured too. Pinned to one core.

``--pause MS`` waits that long after each line is on disk, as at a table where throws are
seconds apart: the journal then goes idle and checkpoints its WAL into the database file
between lines (journal.CHECKPOINT_IDLE), so the figures include what checkpoints cost.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from companion.engine import Priority
from companion.games import find
from companion.journal import Journal
from companion.observations import Observation
from companion.session import Session
from devices.emulator import PtyDevice
from devices.serial_source import SerialSource


class TimingSink:
    """An announcer that notes when the first announcement after an input was queued."""

    def __init__(self) -> None:
        self.first: float | None = None

    def say(self, text: str, priority: int = Priority.INFO) -> None:
        if self.first is None:
            self.first = time.monotonic()

    def set_barrier(self, barrier: object, ticket: object = None) -> None:
        pass  # the benchmark waits on the journal itself, to time durability separately

    def wait_idle(self, timeout: float | None = None) -> bool:
        return True

    def behind(self) -> bool:
        return False

    def close(self) -> None:
        pass


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion bench latency")
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pause", type=float, default=0.0, metavar="MS",
                        help="wait after each line (the journal checkpoints when idle)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    device = PtyDevice()
    source = SerialSource(device.path)
    inbox: queue.Queue[Observation] = queue.Queue()
    source.start(inbox.put)
    if not source.connected.wait(10):
        print("could not open the pty", file=sys.stderr)
        return 1
    sink = TimingSink()
    games = 0

    def new_session() -> Session:
        nonlocal games
        games += 1
        game = find("snakes-ladders")(["Red", "Blue"])
        return Session.start(game, Journal(folder / f"g{games}.sqlite"), sink, seed=games)

    session = new_session()
    accepted: list[float] = []
    refused: list[float] = []
    durable: list[float] = []  # line received -> its journal entry fdatasync'ed
    held = 0  # refusals not said at once (companion/refusals.py: 3 in a row, then 1 per 5 s)
    try:
        for _ in range(args.lines):
            if session.state.is_terminal():
                session.journal.close()
                session = new_session()
            garbage = rng.random() < 0.05
            device.send_line("DICE 9" if garbage else f"DICE {rng.randint(1, 6)}")
            obs = inbox.get(timeout=10)
            sink.first = None
            reply = session.submit(obs)
            if sink.first is None:  # a refusal the flood limit held back, said later as a count
                held += 1
            else:
                elapsed = (sink.first - obs.time) * 1000.0
                (accepted if reply.accepted else refused).append(elapsed)
            session.journal.wait_durable()
            durable.append((time.monotonic() - obs.time) * 1000.0)
            if args.pause:
                time.sleep(args.pause / 1000.0)  # a benchmark's pause, not a test's
    finally:
        source.close()
        device.close()
        session.journal.close()
        shutil.rmtree(folder, ignore_errors=True)
    every = accepted + refused
    result = {
        "lines": len(every),
        "held_back": held,
        "games": games,
        "p50_ms": round(statistics.median(every), 3),
        "p99_ms": round(percentile(every, 0.99), 3),
        "max_ms": round(max(every), 3),
        "accepted": len(accepted),
        "accepted_p99_ms": round(percentile(accepted, 0.99), 3),
        "refused": len(refused),
        "refused_p99_ms": round(percentile(refused, 0.99), 3) if refused else None,
        "durable_p50_ms": round(statistics.median(durable), 3),
        "durable_p99_ms": round(percentile(durable, 0.99), 3),
        "pause_ms": args.pause,
        "journal": "sqlite WAL, group commit (fdatasync in a syncer thread), on local disk",
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['lines']} lines through a pty: p50 {result['p50_ms']} ms, "
              f"p99 {result['p99_ms']} ms, max {result['max_ms']} ms "
              f"(accepted p99 {result['accepted_p99_ms']} ms; target p99 < 5 ms); "
              f"until on disk: p50 {result['durable_p50_ms']} ms, "
              f"p99 {result['durable_p99_ms']} ms; {held} refusals held back by the flood "
              f"limit, not timed")
    return 0
