"""Refusals from a device, rate-limited: a flood must not talk over the game.

A device that sends garbage, or readings out of turn, a hundred times a second would otherwise
have each refusal spoken (and journaled) one by one, and the next real throw would wait behind
all of them. So per source, at most one refusal is said every ``window`` seconds; the others
are counted and said later as one sentence ("The dice device sent 99 more unreadable lines").
The keyboard is not limited: a person typing reads every answer.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

WINDOW_SECONDS = 5.0
UNLIMITED = frozenset({"keyboard", ""})


@dataclass
class Quieted:
    """Refusals from one source held back since the last one said."""

    source: str
    said_at: float
    count: int = 0
    unreadable: int = 0  # lines the device protocol could not read (the rest were refused)
    journal: bool = False  # at least one would have been journaled on its own
    reasons: Counter[str] = field(default_factory=Counter)
    last: str = ""

    def summary(self, label: str) -> str:
        """One sentence for all of them, naming the source."""
        what = ("unreadable lines" if self.unreadable == self.count
                else "inputs that were refused")
        if self.count == 1:
            what = "unreadable line" if self.unreadable else "input that was refused"
        reason = self.last.removeprefix("Device input ignored: ").rstrip(".")
        why = "all for the same reason" if len(self.reasons) == 1 else "the last"
        return f"{label[:1].upper()}{label[1:]} sent {self.count} more {what}, {why}: {reason}."


class RefusalLimiter:
    def __init__(self, window: float = WINDOW_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.window = window
        self.clock = clock
        self._said: dict[str, float] = {}  # source -> when its last refusal was said
        self._held: dict[str, Quieted] = {}

    def admit(self, source: str, reason: str, *, unreadable: bool, journal: bool) -> bool:
        """True: say (and journal) this refusal now. False: it was counted for a summary."""
        if source in UNLIMITED:
            return True
        now = self.clock()
        said = self._said.get(source)
        if (said is None or now - said >= self.window) and source not in self._held:
            self._said[source] = now
            return True
        held = self._held.get(source)
        if held is None:
            held = self._held[source] = Quieted(source, said if said is not None else now)
        held.count += 1
        held.unreadable += unreadable
        held.journal = held.journal or journal
        if len(held.reasons) < 64 or reason in held.reasons:  # bounded under any flood
            held.reasons[reason] += 1
        held.last = reason
        return False

    def due(self, *, every: bool = False) -> list[Quieted]:
        """The summaries to say now: those whose source's window has passed (all: ``every``)."""
        now = self.clock()
        out = [q for q in self._held.values() if every or now - q.said_at >= self.window]
        for q in out:
            del self._held[q.source]
            self._said[q.source] = now
        return out
