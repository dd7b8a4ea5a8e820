"""The players' clock of a two-player game with a time control (``--time 15+10``).

The rules engines keep no clock: this sits beside the game as a source and a listener. Without
a hardware clock it is a keyboard clock: it runs the time of the player to move, adds the
increment after each move, and switches at every move. With a DGT clock (``ClockSeen``
readings from a DGT board or a DGT 3000 on it) the clock's own times are used. Either way it
says when a player has a minute and ten seconds left, and when a flag falls it gives the
session ``flag`` as that player's input, which the session journals like any other and the
rules settle (chess: FIDE 6.9). The times after each move are journaled as ``clock`` entries
(replay skips them) so that the record (PGN ``%clk``) has them.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.engine import Event, IllegalAction, Priority
from companion.journal import CLOCK
from companion.observations import ClockSeen, DeviceStatus, Observation, TextCommand
from companion.reply import Reply
from companion.sources import Emit

if TYPE_CHECKING:
    from companion.session import Session

log = logging.getLogger("companion.clock")

LOW_TIME = (60.0, 10.0)  # seconds left that are said aloud
_CONTROL = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?:\+\s*(\d+(?:\.\d+)?))?\s*$")


@dataclass(frozen=True)
class TimeControl:
    """Minutes for the game and seconds added after each move (Fischer increment)."""

    base: float  # seconds
    increment: float = 0.0

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``"15+10"``: 15 minutes, 10 seconds a move; ``"5"``: 5 minutes."""
        match = _CONTROL.match(text)
        if not match or float(match[1]) <= 0:
            raise ValueError(f"{text!r} is not a time control: say minutes+seconds, like 15+10")
        return cls(float(match[1]) * 60, float(match[2] or 0))

    def __str__(self) -> str:
        return f"{self.base / 60:g}+{self.increment:g}"

    def pgn(self) -> str:
        """The PGN TimeControl tag: seconds, then the increment: ``900+10``."""
        return f"{self.base:g}+{self.increment:g}"


def clock_words(seconds: float) -> str:
    """``14:32``, ``1:02:03``, ``0:09``."""
    whole = max(0, int(seconds + 0.999)) if seconds < 10 else max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _left_words(seconds: float) -> str:
    return "one minute" if seconds >= 60 else f"{int(seconds)} seconds"


class GameClock:
    """Both players' times, with the time given by the caller (pure; tests use fake time)."""

    def __init__(self, control: TimeControl, times: Sequence[float] | None = None) -> None:
        self.control = control
        self.times = list(times) if times else [control.base, control.base]
        self.running: int | None = None
        self.since = 0.0

    def _settle(self, now: float) -> None:
        if self.running is not None:
            self.times[self.running] -= now - self.since
        self.since = now

    def start(self, player: int | None, now: float) -> None:
        """Run ``player``'s time (None stops the clock)."""
        self._settle(now)
        self.running = player

    def press(self, player: int, now: float) -> None:
        """``player`` has moved: the increment is added and the other's time runs."""
        self._settle(now)
        self.times[player] += self.control.increment
        self.running = 1 - player

    def set(self, times: Sequence[float], running: int | None, now: float) -> None:
        """A hardware clock's reading."""
        self.times = list(times)
        self.running = running
        self.since = now

    def remaining(self, player: int, now: float) -> float:
        left = self.times[player]
        if self.running == player:
            left -= now - self.since
        return left


class TableClock:
    """A source (its thread watches for low time and flags) and a session listener."""

    name = "clock"

    def __init__(self, session: Session, control: TimeControl | None, *,
                 now: Callable[[], float] = time.monotonic, watch: bool = True) -> None:
        """``control`` None: no keyboard clock; the time control is the first reading of a
        hardware clock (its larger time, no increment known)."""
        self.session = session
        self.now = now
        self.watch = watch  # a thread calls check(); tests with fake time call it themselves
        self.keyboard = control is not None
        self.clock = GameClock(control or TimeControl(1.0), _last_times(session))
        self.hardware = False  # a DGT clock reports the times
        self._sides: tuple[int, int] | None = None  # (left player, right player)
        self._warned: set[tuple[int, float]] = set()
        self._flagged: int | None = None
        self._emit: Emit | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        session.listeners.append(self._on_events)
        session.commands["clock"] = self._show
        session.handlers[ClockSeen] = self._on_reading

    # --- the loop's thread -----------------------------------------------------------

    def start(self, emit: Emit) -> None:
        self._emit = emit
        self._follow(self.now())
        if self.watch:
            self._thread = threading.Thread(target=self._run, name="clock", daemon=True)
            self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    def _to_move(self) -> int | None:
        player = self.session.state.current_player()
        return player if player >= 0 else None

    def _follow(self, now: float) -> None:
        """The keyboard clock runs the time of the player to move (none at the end)."""
        if self.keyboard and not self.hardware:
            self.clock.start(self._to_move(), now)

    def _on_events(self, session: Session, events: Sequence[Event]) -> None:
        now = self.now()
        mover = next((getattr(e, "player", None) for e in events
                      if type(e).__name__ in MOVE_EVENTS), None)
        if mover is not None and self.keyboard and not self.hardware:
            self.clock.press(mover, now)
        if mover is not None and (self.keyboard or self.hardware):
            times = [round(self.clock.remaining(p, now), 1) for p in (0, 1)]
            session.journal.append(CLOCK, {"ply": _plies(session), "times": times},
                                   source=self.name)
        self._follow(now)

    def _show(self, session: Session, args: list[str], obs: TextCommand) -> Reply:
        if not (self.keyboard or self.hardware):
            raise IllegalAction("No clock is running: play with --time 15+10, or start the"
                                " clock on the board.")
        now = self.now()
        names = session.game.players
        text = ", ".join(f"{names[p]} {clock_words(self.clock.remaining(p, now))}"
                         for p in (0, 1)) + "."
        session.say(text, Priority.RESULT)
        return Reply(True, text)

    def _on_reading(self, session: Session, obs: Observation) -> Reply:
        """A DGT clock's reading: its times replace the keyboard clock's."""
        assert isinstance(obs, ClockSeen)
        to_move = self._to_move()
        if self._sides is None:
            if obs.running < 0 or to_move is None:
                return Reply(True)  # which side is whose is learnt once a clock runs
            # The clock running now is the player to move's.
            self._sides = (to_move, 1 - to_move) if obs.running == 0 else \
                (1 - to_move, to_move)
            self.hardware = True
            if not self.keyboard:  # the time control is the clock's
                self.clock.control = TimeControl(float(max(obs.times)))
            session.say("The clock is read from the board.", Priority.INFO)
        left, right = self._sides
        times = [0.0, 0.0]
        times[left], times[right] = obs.times
        running = None if obs.running < 0 else self._sides[obs.running]
        self.clock.set(times, running, self.now())
        fallen = [self._sides[i] for i, flag in enumerate(obs.flags) if flag]
        fallen += [p for p in (0, 1) if times[p] <= 0 and p == to_move]
        if fallen and to_move is not None:
            return self._flag(fallen[0])
        self.check(self.now())
        return Reply(True)

    def _flag(self, player: int) -> Reply:
        if self._flagged == _plies(self.session) or self.session.state.is_terminal():
            return Reply(True)
        self._flagged = _plies(self.session)
        name = self.session.game.players[player]
        return self.session.command("flag", player=name, source=self.name)

    # --- watching (its own thread, or a test with fake time) -----------------------------

    def check(self, now: float) -> list[Observation]:
        """What the clock has to say at ``now``: low time, a flag. Emitted when running."""
        out: list[Observation] = []
        player = self.clock.running
        if player is None or self.session.state.is_terminal():
            return out
        left = self.clock.remaining(player, now)
        name = self.session.game.players[player]
        if left <= 0:
            if self._flagged != _plies(self.session):
                out.append(TextCommand(source=self.name, text="flag", player=name))
        else:
            for mark in LOW_TIME:
                if left <= mark < self.clock.control.base and (player, mark) not in self._warned:
                    self._warned.add((player, mark))
                    out.append(DeviceStatus(source=self.name, state="low",
                                            detail=f"{name} has {_left_words(mark)} left."))
                    break
            for mark in LOW_TIME:  # an increment may lift a player over a mark again
                if left > mark + 5:
                    self._warned.discard((player, mark))
        return out

    def _run(self) -> None:
        while not self._stop.is_set():
            for obs in self.check(self.now()):
                if self._emit is not None:
                    self._emit(obs)
            self._stop.wait(0.2)


MOVE_EVENTS = frozenset({"MovePlayed", "Moved", "Jumped", "Placed"})


def _plies(session: Session) -> int:
    """Moves on the board now (after takebacks): what a clock entry is for."""
    state = session.state
    for moves in ("ucis", "history"):  # chess, four in a row
        if hasattr(state, moves):
            return len(getattr(state, moves))
    return int(getattr(state, "plies", 0))  # checkers, draughts


def _last_times(session: Session) -> list[float] | None:
    """The times after the last move, from the journal (a resumed game goes on from them)."""
    times = None
    for entry in session.journal.entries():
        if entry.kind == CLOCK:
            times = [float(t) for t in entry.payload["times"]]
    return times


def start_game_clock(session: Session, *, board: bool = False) -> TableClock | None:
    """The clock the game's ``time`` option asks for; with an electronic board and no time
    control, one that waits for the board's clock; else None."""
    if "time" not in session.game.options or session.state.is_terminal():
        return None
    text = str(session.game.options.get("time") or "")
    if not text:
        return TableClock(session, None) if board else None
    control = TimeControl.parse(text)
    clock = TableClock(session, control)
    session.say(f"Clock: {control} ({clock_words(control.base)} each, {control.increment:g}"
                " seconds a move). Say clock for the times.", Priority.INFO)
    return clock


def clock_times(session: Session) -> dict[int, list[float]]:
    """Ply number (moves played) -> both times after that move, the latest entry winning."""
    out: dict[int, list[float]] = {}
    for entry in session.journal.entries():
        if entry.kind == CLOCK:
            out[int(entry.payload["ply"])] = [float(t) for t in entry.payload["times"]]
    return out
