"""What the page remembers that the state does not (a module of its own: the families'
additions and the document both use it)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from companion.engine import Priority


@dataclass
class Recent:
    """What the page remembers that the state does not: the last sentences said, refusals,
    and the events of the last actions (payments, moves) with their words."""

    said: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=8))
    refusals: deque[str] = field(default_factory=lambda: deque(maxlen=3))
    events: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=24))
    memo: dict[str, Any] = field(default_factory=dict)  # a family's own memory (back pegs)

    def heard(self, text: str, priority: int) -> None:
        self.said.append({"text": text, "refusal": priority == Priority.REFUSAL})
        if priority == Priority.REFUSAL:
            self.refusals.append(text)
