"""An opponent at the table: a program that plays one side, and answers ``hint`` and ``eval``.

It sits beside the keyboard and the devices as an input source: its moves arrive as
``MoveChosen`` observations, which the session journals and applies like any other input (the
rules engines know nothing of it). It thinks in its own thread, so the table loop never waits:
input, takeback and quit are answered while it thinks. Every request names the position it is
for; when the game moves on (a takeback while it thinks), the search is stopped and a move that
still arrives is stale and ignored by the game.

A ``Brain`` does the thinking: a UCI engine for chess (companion/uci.py), a small alpha-beta
search for checkers and draughts (companion/games/draughts/search.py).
"""

from __future__ import annotations

import importlib
import logging
import queue
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from companion.engine import Event, Game, IllegalAction, Priority, State
from companion.games.agreement import DrawOffered
from companion.observations import DeviceError, DeviceStatus, MoveChosen, TextCommand
from companion.reply import Reply
from companion.sources import Emit

if TYPE_CHECKING:
    from companion.session import Session

log = logging.getLogger("companion.opponent")


class Brain(Protocol):
    """What thinks for the opponent. ``choose``, ``advise`` and ``judge`` run in the
    opponent's thread on a copy of the state; ``cancel`` may be called from any thread."""

    name: str  # said: "Stockfish 15.1 plays Black"
    source: str  # the moves' source in the journal: "engine:stockfish"

    def key(self, state: State) -> str:
        """The position (what a MoveChosen names): a FEN."""
        ...

    def choose(self, state: State, wanted: Callable[[], bool]) -> str | None:
        """The move to play (in the game's notation), or None when stopped."""
        ...

    def advise(self, state: State) -> str:
        """A hint for the player to move, in words."""
        ...

    def judge(self, state: State) -> str:
        """Who stands better, in words."""
        ...

    def strength_words(self) -> str:
        """ "at level 3 of 20" """
        ...

    def guide(self, state: State, events: Sequence[Event]) -> str:
        """After its own move: what to do with the pieces on an electronic board ("")."""
        ...

    def accepts_draw(self, state: State, side: int) -> bool:
        """Whether ``side`` takes a draw offered in this position."""
        ...

    def cancel(self) -> None: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class _Job:
    kind: str  # "move", "draw", "hint" or "eval"
    key: str
    state: State
    gen: int = 0  # a move search is wanted only while the generation is the same


class Opponent:
    """A source (``start``/``close``) and a session listener: asks its brain for a move
    whenever it is the side to move, and adds the ``hint`` and ``eval`` commands."""

    def __init__(self, session: Session, brain: Brain, side: int | None, *,
                 board: bool = False) -> None:
        self.session = session
        self.brain = brain
        self.side = side
        self.board = board  # the pieces are on an electronic board: say how to move them
        self.name = brain.source
        self._jobs: queue.Queue[_Job | None] = queue.Queue()
        self._key = ""  # the position asked about last (read by the worker)
        self._gen = 0  # bumped when a search must stop although the position is the same
        self._asked: tuple[str, int] | None = None  # the move search asked for last
        self._emit: Emit | None = None
        self._thread: threading.Thread | None = None
        session.listeners.append(self._on_events)
        session.commands["hint"] = self._hint
        session.commands["eval"] = self._eval
        if "TakeBack" not in session.game.action_types and side is not None:
            session.commands["undo"] = self._undo

    # --- the table side (the loop's thread) ------------------------------------------

    def start(self, emit: Emit) -> None:
        self._emit = emit
        self._thread = threading.Thread(target=self._work, name=self.name, daemon=True)
        self._thread.start()
        self._consider()

    def close(self) -> None:
        self._key = ""
        self.brain.cancel()
        self._jobs.put(None)
        if self._thread is not None:
            self._thread.join(timeout=10)
        self.brain.close()

    def _on_events(self, session: Session, events: Sequence[Event]) -> None:
        if self.board:
            words = self.brain.guide(session.state, events)
            if words:
                session.say(words[:1].upper() + words[1:] + ".", Priority.RESULT)
        if any(isinstance(e, DrawOffered) and e.player != self.side for e in events) \
                and self.side is not None:
            # Answer the offer before moving: stop a search under way, ask again after.
            self._gen += 1
            self.brain.cancel()
            state = session.state
            self._jobs.put(_Job("draw", self.brain.key(state), state.clone(), self._gen))
        self._consider()

    def _consider(self) -> None:
        """Ask for a move when it is the opponent's turn; forget what is now stale."""
        state = self.session.state
        key = self.brain.key(state)
        if key != self._key:
            self._key = key
            self.brain.cancel()  # a search for another position
        if self.side is not None and state.current_player() == self.side \
                and self.session.pending is None and self._asked != (key, self._gen):
            self._asked = (key, self._gen)
            self._jobs.put(_Job("move", key, state.clone(), self._gen))

    def thinking(self) -> bool:
        state = self.session.state
        return self.side is not None and state.current_player() == self.side

    def _undo(self, session: Session, args: list[str], obs: TextCommand) -> Reply:
        """Undo on your move takes back the opponent's reply too (as chess's takeback)."""
        reply = session.undo(obs.source)
        state = session.state
        if state.current_player() == self.side and session.applied and not args:
            reply = session.undo(obs.source)
        return reply

    def _hint(self, session: Session, args: list[str], obs: TextCommand) -> Reply:
        return self._ask("hint", "Let me look for a move.")

    def _eval(self, session: Session, args: list[str], obs: TextCommand) -> Reply:
        return self._ask("eval", "Let me look at the position.")

    def _ask(self, kind: str, text: str) -> Reply:
        state = self.session.state
        if state.is_terminal():
            raise IllegalAction("The game is over.")
        if kind == "hint" and self.thinking():
            raise IllegalAction("The engine is thinking about its own move.")
        self._jobs.put(_Job(kind, self.brain.key(state), state.clone()))
        self.session.say(text, Priority.CHATTER)
        return Reply(True, text)

    # --- the thinking side (its own thread) ------------------------------------------

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            if job.key != self._key:
                continue  # the game moved on before this was started
            try:
                self._do(job)
            except Exception as err:  # a crashed or missing engine must not end the game
                log.exception("%s failed on %s", self.name, job)
                if self._emit is not None and job.key == self._key:
                    self._emit(DeviceError(
                        source=self.name,
                        reason=f"The engine failed ({type(err).__name__}); type the moves"
                        " for both sides, or quit and resume to try it again."))

    def _do(self, job: _Job) -> None:
        assert self._emit is not None
        if job.kind == "move":
            def wanted() -> bool:
                return self._key == job.key and self._gen == job.gen

            move = self.brain.choose(job.state, wanted)
            if move is not None and wanted():
                self._emit(MoveChosen(source=self.name, move=move, position=job.key))
            return
        if job.kind == "draw":
            assert self.side is not None
            accept = self.brain.accepts_draw(job.state, self.side)
            if self._key == job.key:
                self._emit(TextCommand(source=self.name, player=self.session.game.players[
                    self.side], text="accept draw" if accept else "decline draw"))
            return
        words = self.brain.advise(job.state) if job.kind == "hint" else \
            self.brain.judge(job.state)
        if self._key == job.key:
            self._emit(DeviceStatus(source=self.name, state=job.kind, detail=words))


# game name -> "module:function(game) -> Brain"; the function reads the game's options.
BRAINS: dict[str, str] = {
    "chess": "companion.uci:brain_for",
    "checkers": "companion.draughts_brain:brain_for",
    "draughts": "companion.draughts_brain:brain_for",
}


def brain_for(game: Game) -> Brain | None:
    """The brain the game's options ask for (``--engine``), or None. A missing engine is a
    ValueError that says what to install, raised before any journal is made."""
    entry = BRAINS.get(game.spec.name)
    if entry is None or not str(game.options.get("engine") or ""):
        return None
    module_name, _, func = entry.partition(":")
    brain: Brain = getattr(importlib.import_module(module_name), func)(game)
    return brain


def seat(session: Session, brain: Brain, *, board: bool = False) -> Opponent:
    """Seat the brain at the table: it plays the side the options give (or only advises)."""
    side = session.game.engine_side()  # type: ignore[attr-defined]
    opponent = Opponent(session, brain, side, board=board)
    who = "gives hints" if side is None else f"plays {session.game.players[side]}"
    session.say(f"{brain.name} {who} {brain.strength_words()}.", Priority.INFO)
    return opponent
