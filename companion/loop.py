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


@dataclass(frozen=True)
class EndOfInput:
    """Put on the queue when a scripted standard input is exhausted."""

    source: str = "keyboard"


@dataclass(frozen=True)
class LoopTask:
    """Work a source needs done on the table loop's thread, between two inputs, where the
    state may be read (the table view's page for a phone that has just joined). Never an
    input: the session does not see it."""

    run: Callable[[], None]
    source: str = "view"


@dataclass
class Inbox:
    """The session's inbound queue. ``emit`` is what sources are given; it is thread-safe."""

    items: queue.Queue[Observation | EndOfInput | LoopTask] = field(default_factory=queue.Queue)

    def emit(self, obs: Observation | EndOfInput | LoopTask) -> None:
        self.items.put(obs)

    def __call__(self, obs: Observation) -> None:
        self.items.put(obs)


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
            source.start(inbox)
            started.append(source)
        while True:
            item = inbox.items.get()
            if isinstance(item, EndOfInput):
                break
            if isinstance(item, LoopTask):
                item.run()
                continue
            reply = session.submit(item)
            if reply.quit:
                break
            if stop_when_over and session.state.is_terminal():
                break
    except KeyboardInterrupt:
        session.say("Game saved. Goodbye.")
    finally:
        for source in started:
            source.close()
    return 0
