"""Readings that come while a question about an unsure one is open (issue 15).

A camera goes on reading the table while nobody has yet answered "I read Ann plays the king
of spades, but I am not sure". Read at once, Bob's next card would be taken as Ann's play and
the king dropped without a word. So a device's readings are held, in order, until the
question is settled, then read against the game as it stands after the answer.
"""

from __future__ import annotations

from collections import deque

from companion.observations import Observation

HOLD_AT_MOST = 12  # a table's worth of cards or throws; more means nobody is listening


class HeldReadings:
    """The readings waiting for an answer, oldest first."""

    def __init__(self, limit: int = HOLD_AT_MOST) -> None:
        self.limit = limit
        self._readings: deque[Observation] = deque()

    def __len__(self) -> int:
        return len(self._readings)

    def hold(self, obs: Observation) -> bool:
        """Keep ``obs`` for later; False when already full (the reading is not kept)."""
        if len(self._readings) >= self.limit:
            return False
        self._readings.append(obs)
        return True

    def take(self) -> Observation | None:
        return self._readings.popleft() if self._readings else None

    def drop(self) -> int:
        """Forget every held reading; how many there were."""
        count = len(self._readings)
        self._readings.clear()
        return count


def _readings(count: int) -> str:
    return "the reading" if count == 1 else f"the {count} readings"


def waiting(question: str, count: int) -> str:
    """Said when a reading is held: the open question ("I read ..., but I am not sure of a
    five") again, and what waits behind it."""
    return (f"I am still waiting for an answer: {question}: say yes, or type the values. "
            f"Then I will read {_readings(count)} that came after it.")


def full(question: str, limit: int) -> str:
    return (f"I am still waiting for an answer ({question}), and I already hold {limit} later "
            "readings: this one is set aside. Answer, then give it again.")


def dropped(count: int) -> str:
    if count == 1:
        return ("The reading held while I waited for an answer was set aside: give it again "
                "if it still counts.")
    return (f"The {count} readings held while I waited for an answer were set aside: give "
            "them again if they still count.")
