"""Typed observations: what an input source saw, before any game interprets it.

Devices (devices/), the camera (vision/) and the keyboard produce these; they never import a
rules engine. Every observation says where it came from, how sure the source is, and when.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import NamedTuple

CONFIRM_BELOW = 0.9  # readings less sure than this are confirmed before they count

# The buttons a device may press (docs/protocol.md): each is the console command of its name.
# Nothing else: a device must not buy, quit or undo its way around the players.
BUTTONS = ("undo", "yes", "no", "again", "status", "options")


def now() -> float:
    return time.monotonic()


@dataclass(frozen=True)
class Observation:
    source: str  # "keyboard", "serial:/dev/ttyUSB0", "camera:0", "dgt:loop://"
    confidence: float = 1.0  # 0..1; below CONFIRM_BELOW the session asks to confirm
    time: float = field(default_factory=now)
    player: str | None = None  # who it is from, when the source knows (a seat, a prefix)

    def doubts(self) -> tuple[int, ...]:
        """The parts of the reading its source was unsure of (the session names them when it
        asks to confirm); none known here."""
        return ()


class CountReading(NamedTuple):
    """A camera's best reading of a throw of ``number`` dice (DiceSeen.by_count)."""

    number: int  # of dice
    values: tuple[int, ...]
    confidence: float
    unsure: tuple[int, ...]  # as DiceSeen's own: the values read less surely than the bar


@dataclass(frozen=True)
class DiceSeen(Observation):
    values: tuple[int, ...] = ()
    unsure: tuple[int, ...] = ()  # the values read less surely than CONFIRM_BELOW (a camera)
    # beside its own reading, a camera's best reading for each count of dice it has plausible
    # candidates for (1, 2, ...): the session takes the one the game needs (issue 15)
    by_count: tuple[CountReading, ...] = ()

    def for_count(self, count: int) -> CountReading | None:
        return next((r for r in self.by_count if r.number == count), None)

    def doubts(self) -> tuple[int, ...]:
        return self.unsure


@dataclass(frozen=True)
class CardSeen(Observation):
    card: str = ""  # normalised card id ("5H", "10D", "QS") or a deck's own id


@dataclass(frozen=True)
class TagSeen(Observation):
    tag: str = ""  # raw tag / barcode id, mapped to a card or command via config tag maps


@dataclass(frozen=True)
class ButtonPressed(Observation):
    button: str = ""  # one of BUTTONS ("undo", "yes")


@dataclass(frozen=True)
class BoardSeen(Observation):
    """A whole-board occupancy reading (electronic chess board): square name -> piece symbol."""

    squares: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class TextCommand(Observation):
    """A typed console line ("roll 4", "undo", "buy")."""

    text: str = ""


@dataclass(frozen=True)
class MoveChosen(Observation):
    """A move chosen by a program at the table (an engine opponent) for one position.

    ``position`` is the position it was chosen for (the game's FEN): a move that arrives after
    the game has moved on (a takeback while the engine thought) is stale and ignored."""

    move: str = ""
    position: str = ""


@dataclass(frozen=True)
class ClockSeen(Observation):
    """A chess clock's reading (a DGT clock): the time left on each side, in seconds."""

    times: tuple[float, float] = (0.0, 0.0)  # the left and the right side, seen from the front
    running: int = -1  # 0: the left side's time runs, 1: the right side's, -1: stopped
    flags: tuple[bool, bool] = (False, False)  # a side's flag has fallen (the clock says)


@dataclass(frozen=True)
class DeviceHello(Observation):
    name: str = ""
    version: str = ""


@dataclass(frozen=True)
class DeviceStatus(Observation):
    """Connection changes: "connected", "disconnected", "reconnected"."""

    state: str = ""
    detail: str = ""


@dataclass(frozen=True)
class DeviceError(Observation):
    """Input that could not be understood; ``reason`` is fit to be spoken and logged."""

    reason: str = ""
    raw: str = ""
