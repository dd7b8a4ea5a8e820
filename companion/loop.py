"""The table loop: every source puts observations on one queue; one thread consumes them.

Sources (keyboard, serial devices, camera) run their own reader threads and never touch the
state; the session is driven only from here, so there are no locks around the game.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TextIO

from companion.observations import Observation, TextCommand
from companion.session import Session
from companion.sources import Emit, Source

log = logging.getLogger("companion.loop")

TICK_SECONDS = 0.5  # how often an idle loop looks for held-back refusals to summarise


@dataclass(frozen=True)
class EndOfInput:
    """Put on the queue when a scripted standard input is exhausted."""

    source: str = "keyboard"


WAITING = 10_000  # observations waiting for the session at most: a flood cannot grow memory


@dataclass(frozen=True)
class LoopTask:
    """Work a source needs done on the table loop's thread, between two inputs, where the
    state may be read (the table view's page for a phone that has just joined). Never an
    input: the session does not see it."""

    run: Callable[[], None]
    source: str = "view"


@dataclass
class Inbox:
    """The session's inbound queue. ``emit`` is what sources are given; it is thread-safe.
    It is bounded: a source faster than the session waits in ``emit`` (its device's own
    buffer fills and the device waits), so no flood grows the companion's memory."""

    items: queue.Queue[Observation | EndOfInput | LoopTask] = field(
        default_factory=lambda: queue.Queue(maxsize=WAITING))
    closed: threading.Event = field(default_factory=threading.Event)

    def emit(self, obs: Observation | EndOfInput | LoopTask) -> None:
        # Waiting for room, but never past the loop's end: a source blocked here must still
        # see its close().
        while not self.closed.is_set():
            try:
                self.items.put(obs, timeout=0.1)
                return
            except queue.Full:
                continue

    def __call__(self, obs: Observation) -> None:
        self.emit(obs)


class KeyboardSource:
    """Reads console lines from a text stream (a terminal, or a script piped in)."""

    name = "keyboard"

    def __init__(self, stream: TextIO | None = None) -> None:
        if stream is None:
            stream = sys.stdin
            with contextlib.suppress(AttributeError, ValueError):
                # A stray non-UTF-8 byte becomes U+FFFD (then an unknown command), not a crash.
                sys.stdin.reconfigure(errors="replace")  # type: ignore[union-attr]
        self.stream = stream
        self._thread: threading.Thread | None = None

    def start(self, emit: Emit) -> None:
        self._thread = threading.Thread(target=self._run, args=(emit,), name="keyboard",
                                        daemon=True)
        self._thread.start()

    def _run(self, emit: Emit) -> None:
        try:
            for line in self.stream:
                text = line.strip()
                if text and not text.startswith("#"):
                    emit(TextCommand(source="keyboard", text=text))
        except (OSError, ValueError) as err:  # a closed or broken terminal
            log.warning("keyboard input ended: %s", err)
        finally:
            emit(EndOfInput())  # type: ignore[arg-type]  # the loop's own end marker

    def close(self) -> None:
        pass


def run(session: Session, sources: Iterable[Source], *, stop_when_over: bool = False) -> int:
    """Drive the session until quit, end of scripted input, or (optionally) the game's end."""
    inbox = Inbox()
    started: list[Source] = []
    try:
        for source in sources:
            device = getattr(source, "device", None)  # "dice device": how refusals name it
            if isinstance(device, str):
                session.source_labels[source.name] = f"the {device}"
            source.start(inbox)
            started.append(source)
        while True:
            try:
                item = inbox.items.get(timeout=TICK_SECONDS)
            except queue.Empty:
                session.tick()  # a flood's summary is said when its window has passed
                continue
            if isinstance(item, EndOfInput):
                break
            if isinstance(item, LoopTask):
                item.run()
                continue
            reply = session.submit(item)
            if reply.quit:
                break
            session.tick()
            if stop_when_over and session.state.is_terminal():
                break
        session.tick(every=True)  # nothing a device's flood had held back goes unsaid
    except KeyboardInterrupt:
        session.say("Game saved. Goodbye.")
    finally:
        inbox.closed.set()
        for source in started:
            source.close()
    return 0
