"""The agreed hour of a Time Limit Game, kept by the companion: ``end_time=21:30``.

The rules engines keep no clock (they are pure); this source does, beside the keyboard and
the devices. At the hour it says ``time up`` as a console command from ``clock``, which the
session journals like any input, so a resumed game replays the end exactly. The hour is the
first one at or after the game's start; a game resumed after it ends at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from companion.hours import parse_hour
from companion.observations import TextCommand
from companion.sources import Emit

if TYPE_CHECKING:
    from companion.session import Session

def deadline(hour: str, started: datetime) -> datetime:
    """The first ``hour`` (HH:MM, 24-hour clock) at or after ``started``."""
    h, m = parse_hour(hour)
    at = started.replace(hour=h, minute=m, second=0, microsecond=0)
    return at if at >= started else at + timedelta(days=1)


class ClockSource:
    """Emits ``time up`` once, at ``end``."""

    name = "clock"

    def __init__(self, end: datetime, now: Callable[[], datetime] = datetime.now) -> None:
        self.end = end
        self.now = now
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, emit: Emit) -> None:
        self._thread = threading.Thread(target=self._run, args=(emit,), name="clock",
                                        daemon=True)
        self._thread.start()

    def _run(self, emit: Emit) -> None:
        while not self._stop.is_set():
            left = (self.end - self.now()).total_seconds()
            if left <= 0:
                emit(TextCommand(source=self.name, text="time up"))
                return
            self._stop.wait(min(left, 30.0))  # wakes now and then: the wall clock may jump

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)


def start_clock(session: Session, now: datetime | None = None) -> ClockSource | None:
    """For a game with an agreed hour (option ``end_time``): say when it ends, and return the
    source that will say ``time up`` then. A game resumed after the hour ends now."""
    hour = str(session.game.options.get("end_time") or "")
    if not hour or session.state.is_terminal():
        return None
    now = now or datetime.now()
    first = next(iter(session.journal.entries()), None)
    started = datetime.fromtimestamp(first.time) if first else now
    end = deadline(hour, started)
    if end <= now:
        session.submit(TextCommand(source=ClockSource.name, text="time up"))
        return None
    session.say(f"The game ends at {end:%H:%M}.")
    return ClockSource(end)
