"""What is said unasked, and how much: the verbosity and the rule "each fact once".

The rules engines give events and can word their choices; the narrator decides which of
those sentences the table hears after each input (docs/ARCHITECTURE.md, "Verbosity"):

- each fact is said once: a sentence is not repeated within one announcement, and the
  choices are not listed after an event that already asks for the decision ("Unowned, 100
  dollars: buy or auction?");
- the choices are listed unasked only when there are at most three (``full``: eight); a
  longer list waits for ``options``, and a game may give a short summary instead (an
  auction's high bid and who is still in);
- a turn is announced when it starts for real: "Hat's turn." is held while another player
  must still decide (Car's debt, an answer to a trade offer) and said once that is settled;
- ``brief`` lists no choices unasked and drops the chatter ("Hat's turn."); ``full`` lists
  up to eight choices.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from companion.engine import Event, Priority, State, TurnPasses
from companion.phrases import Phrasebook


@dataclass(frozen=True)
class Verbosity:
    """How much is said unasked: ``brief``, ``normal`` or ``full``."""

    level: int

    NAMES: ClassVar[tuple[str, ...]] = ("brief", "normal", "full")
    # choices listed unasked at most (more wait for 'options'), per level
    LIMITS: ClassVar[tuple[int, ...]] = (0, 3, 8)

    @classmethod
    def parse(cls, text: str) -> Verbosity:
        word = text.strip().lower()
        if word not in cls.NAMES:
            raise ValueError(f"The verbosity is brief, normal or full, not \"{text.strip()}\".")
        return cls(cls.NAMES.index(word))

    def __str__(self) -> str:
        return self.NAMES[self.level]

    def quieter(self) -> Verbosity:
        return Verbosity(max(0, self.level - 1))

    def louder(self) -> Verbosity:
        return Verbosity(min(len(self.NAMES) - 1, self.level + 1))

    @property
    def choice_limit(self) -> int:
        return self.LIMITS[self.level]

    def says(self, priority: int) -> bool:
        """Whether a sentence of this priority is said unasked (brief drops the chatter)."""
        return self.level > 0 or priority > Priority.CHATTER


NORMAL = Verbosity(1)


class Narrator:
    """Turns one input's events into the sentences said, at the table's verbosity."""

    def __init__(self, phrases: Phrasebook, names: Sequence[str],
                 verbosity: Verbosity = NORMAL) -> None:
        self.phrases = phrases
        self.names = names
        self.verbosity = verbosity
        self.held: TurnPasses | None = None  # a turn not said yet: someone else decides first

    def sentences(self, events: Sequence[Event], state: State) -> list[tuple[str, int]]:
        """Each event's sentence with its priority, in order, for the ``state`` they led
        to; a sentence already said for this input is not said again, brief drops the
        chatter, and a turn is said once its player is the one to act."""
        out: list[tuple[str, int]] = []
        seen: set[str] = set()
        actor = state.actor()  # who acts now (also who throws at a chance node)
        for event in events:
            if isinstance(event, TurnPasses):
                self.held = None
                if actor is not None and actor != event.player:
                    self.held = event  # said when the other player's decision is settled
                    continue
            self._add(event, out, seen)
        if self.held is not None and self.held not in events and actor == self.held.player:
            self._add(self.held, out, seen)
            self.held = None
        return out

    def forget(self) -> None:
        """After an undo or a correction: the turn held back may no longer be true."""
        self.held = None

    def _add(self, event: Event, out: list[tuple[str, int]], seen: set[str]) -> None:
        if not self.verbosity.says(event.priority):
            return
        text = self.phrases.render(event, self.names)
        if text and text not in seen:
            seen.add(text)
            out.append((text, event.priority))

    def choices(self, state: State, events: Sequence[Event]) -> str:
        """What is said unasked about the decision now: nothing when an event just asked
        for it, the choices when there are few enough, else the game's short prompt."""
        limit = self.verbosity.choice_limit
        if limit == 0 or state.current_player() < 0:
            return ""
        if any(event.asks for event in events):
            return ""
        if 2 <= len(state.legal_actions()) <= limit:
            return state.choices_after_move()
        return state.prompt()
