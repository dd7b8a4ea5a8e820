"""The opponent's brain for checkers and draughts: the small alpha-beta search of
companion/games/draughts/search.py on the game's own move generator. ``--engine builtin
--level 1..4``; hint and eval at level 3's depth with a smaller budget."""

from __future__ import annotations

import threading
import zlib
from collections.abc import Callable, Sequence

from companion.engine import Event, Game, State
from companion.games.draughts.common import BoardState, position_key
from companion.games.draughts.core import (
    Move,
    Position,
    checkers_moves,
    checkers_play,
    draughts_moves,
    draughts_play,
)
from companion.games.draughts.search import HINT, LEVELS, MAN, MAX_LEVEL, WIN, Searcher

KINGS = {"checkers": 160, "draughts": 300}


class SearchBrain:
    def __init__(self, game: Game, level: int = 2) -> None:
        self.game = game
        self.level = max(1, min(MAX_LEVEL, level))
        self.name = "The computer"
        self.source = "engine:builtin"
        self._stop = threading.Event()

    def strength_words(self) -> str:
        return f"at level {self.level} of {MAX_LEVEL}"

    def key(self, state: State) -> str:
        assert isinstance(state, BoardState)
        return position_key(state)

    def _searcher(self, state: BoardState, wanted: Callable[[], bool]) -> Searcher:
        if state.game_name == "checkers":
            compulsory = state.game.options["capture"] == "compulsory"

            def moves(pos: Position) -> list[Move]:
                return checkers_moves(pos, compulsory)

            play = checkers_play
        else:
            moves, play = draughts_moves, draughts_play
        self._stop.clear()
        return Searcher(state.geometry, moves, play, KINGS.get(state.game_name, 200),
                        stop=lambda: self._stop.is_set() or not wanted())

    def choose(self, state: State, wanted: Callable[[], bool]) -> str | None:
        assert isinstance(state, BoardState)
        result = self._searcher(state, wanted).search(state.pos, LEVELS[self.level],
                                                      seed=zlib.crc32(self.key(state).encode()))
        if result is None or not wanted():
            return None
        return str(state.to_action(result.move))

    def advise(self, state: State) -> str:
        assert isinstance(state, BoardState)
        result = self._searcher(state, lambda: True).search(state.pos, HINT)
        if result is None:
            return "There is no move to suggest."
        action = state.to_action(result.move)
        reasons = []
        if result.score > WIN - 1000:
            reasons.append("it wins")
        if action.captured:
            n = len(action.captured)
            reasons.append("it takes a piece" if n == 1 else f"it takes {n} pieces")
        if not state.pos.kings >> result.move.origin & 1:
            after = state.clone()
            after.pos = after._play(result.move)
            if after.pos.kings >> result.move.target & 1:
                reasons.append("it crowns a king")
        text = f"Try {action}"
        return text + (": " + " and ".join(reasons) + "." if reasons else ".")

    def judge(self, state: State) -> str:
        assert isinstance(state, BoardState)
        result = self._searcher(state, lambda: True).search(state.pos, HINT)
        if result is None:
            return "The game is over."
        names = state.game.players
        mover = state.to_move()
        score = result.score
        if abs(score) > WIN - 1000:
            who = names[mover] if score > 0 else names[1 - mover]
            return f"{who} is winning by force."
        who = names[mover] if score > 0 else names[1 - mover]
        if abs(score) < MAN // 3:
            return "The position is about equal."
        if abs(score) < MAN:
            return f"{who} stands slightly better."
        if abs(score) < 3 * MAN:
            return f"{who} stands better, by about {abs(score) / MAN:.1f} men."
        return f"{who} is winning, by about {abs(score) / MAN:.0f} men."

    def guide(self, state: State, events: Sequence[Event]) -> str:
        return ""  # no electronic board for checkers and draughts

    def accepts_draw(self, state: State, side: int) -> bool:
        """Yes when it stands worse by half a man or more."""
        assert isinstance(state, BoardState)
        result = self._searcher(state, lambda: True).search(state.pos, HINT)
        if result is None:
            return False
        mine = result.score if state.to_move() == side else -result.score
        return mine <= -MAN // 2

    def cancel(self) -> None:
        self._stop.set()

    def close(self) -> None:
        self._stop.set()


def brain_for(game: Game) -> SearchBrain:
    return SearchBrain(game, int(game.options["level"]))
