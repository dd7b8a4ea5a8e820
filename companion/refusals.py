"""Refusals from a device, rate-limited: a flood must not talk over the game.

A device that sends garbage, or readings out of turn, a hundred times a second would otherwise
have each refusal spoken (and journaled) one by one, and the next real throw would wait behind
all of them. So a device's refusal is said only when the announcer has nothing left to say
(so a real announcement waits behind one refusal at most), and at most BURST of them, then one
every ``window`` seconds; the others are counted and said later as one sentence ("The dice
device sent 99 more unreadable lines"). The keyboard is not limited: a person typing reads
every answer.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

WINDOW_SECONDS = 5.0
BURST = 3  # refusals a device may have said in a row before the window applies
UNLIMITED = frozenset({"keyboard", ""})


@dataclass
class Quieted:
    """Refusals from one source held back since the last one said."""

    source: str
    since: float  # when the first of them came
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
    def __init__(self, window: float = WINDOW_SECONDS, burst: int = BURST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.window = window
        self.burst = burst
        self.clock = clock
        self._tokens: dict[str, tuple[float, float]] = {}  # source -> (tokens, at)
        self._held: dict[str, Quieted] = {}

    def admit(self, source: str, reason: str, *, idle: bool, unreadable: bool,
              journal: bool) -> bool:
        """True: say (and journal) this refusal now. False: it was counted for a summary.
        ``idle``: the announcer has said everything it was given."""
        if source in UNLIMITED:
            return True
        now = self.clock()
        if idle and source not in self._held and self._take(source, now):
            return True
        held = self._held.get(source)
        if held is None:
            held = self._held[source] = Quieted(source, now)
        held.count += 1
        held.unreadable += unreadable
        held.journal = held.journal or journal
        if len(held.reasons) < 64 or reason in held.reasons:  # bounded under any flood
            held.reasons[reason] += 1
        held.last = reason
        return False

    def _take(self, source: str, now: float) -> bool:
        tokens, at = self._tokens.get(source, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - at) / self.window)
        if tokens < 1.0:
            self._tokens[source] = (tokens, now)
            return False
        self._tokens[source] = (tokens - 1.0, now)
        return True

    def due(self, *, idle: bool = True, every: bool = False) -> list[Quieted]:
        """The summaries to say now: those held for a window, once the announcer is idle
        (``every``: all of them, at once)."""
        if not (idle or every):
            return []
        now = self.clock()
        out = [q for q in self._held.values() if every or now - q.since >= self.window]
        for q in out:
            del self._held[q.source]
            self._tokens[q.source] = (0.0, now)  # a summary uses up the source's turn
        return out
