"""A UCI chess engine (Stockfish, or any other) as the opponent's brain, by python-chess.

Levels 0 to 20 are Stockfish's Skill Level with a search that grows with the level: level 0
looks one move deep and picks among the best few moves with a large random weakness (a
beginner who really plays weakly); level 20 is full strength with a second per move. ``elo``
asks for a rating instead (UCI_LimitStrength and UCI_Elo, which Stockfish offers from 1350).
Hints and eval always use the engine at full strength, for half a second.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import chess
import chess.engine

from companion.engine import Event, Game, State
from companion.games.chess import (
    ChessState,
    MovePlayed,
    board_move_words,
    move_words,
)

FULL_STRENGTH = 20
DRAW_BELOW = 50  # centipawns: the engine takes a draw when it stands worse than this
HINT_LIMIT = chess.engine.Limit(time=0.5)
# Where Debian and Ubuntu put the engines of their packages (not on a user's PATH).
ENGINE_DIRS = ("/usr/games", "/usr/local/games")


def level_limit(level: int) -> chess.engine.Limit:
    """How long the engine thinks at a level: deeper and longer as the level grows."""
    if level >= FULL_STRENGTH:
        return chess.engine.Limit(time=1.0)
    return chess.engine.Limit(depth=1 + level, time=0.05 + 0.04 * level)


def find_engine(command: str) -> str:
    """The path of the engine called ``command`` (a name on PATH or in /usr/games, or a path)."""
    if os.sep in command and os.access(command, os.X_OK):
        return command
    found = shutil.which(command)
    for folder in ENGINE_DIRS:
        found = found or shutil.which(command, path=folder)
    if not found:
        raise ValueError(f"no chess engine called {command!r} was found: install one (on Debian"
                         " and Ubuntu: apt-get install stockfish) or give its path")
    return found


class UciBrain:
    """One engine process; one search at a time (the opponent's thread asks)."""

    def __init__(self, command: str, *, level: int = FULL_STRENGTH, elo: int = 0,
                 limit: chess.engine.Limit | None = None,
                 hint_limit: chess.engine.Limit = HINT_LIMIT,
                 players: Sequence[str] = ("White", "Black")) -> None:
        path = find_engine(command)
        self.engine = chess.engine.SimpleEngine.popen_uci(path, timeout=20)
        self.name = str(self.engine.id.get("name", os.path.basename(path)))
        self.source = f"engine:{os.path.basename(command)}"
        self.players = tuple(players)
        self.level = max(0, min(FULL_STRENGTH, level))
        self.limit = limit or level_limit(FULL_STRENGTH if elo else self.level)
        self.hint_limit = hint_limit
        self.play_options = self._strength(self.level, elo)
        self.full_options = self._strength(FULL_STRENGTH, 0)
        self._lock = threading.Lock()
        self._search: chess.engine.SimpleAnalysisResult | None = None

    def _strength(self, level: int, elo: int) -> dict[str, Any]:
        have = self.engine.options
        options: dict[str, Any] = {}
        if "UCI_LimitStrength" in have:
            options["UCI_LimitStrength"] = bool(elo)
        if elo and "UCI_Elo" in have:
            spec = have["UCI_Elo"]
            low = spec.min if spec.min is not None else elo
            high = spec.max if spec.max is not None else elo
            options["UCI_Elo"] = max(low, min(high, elo))
        if "Skill Level" in have:
            options["Skill Level"] = FULL_STRENGTH if elo else level
        return options

    def strength_words(self) -> str:
        elo = self.play_options.get("UCI_Elo") if self.play_options.get("UCI_LimitStrength") \
            else None
        return f"at about {elo} Elo" if elo else f"at level {self.level} of {FULL_STRENGTH}"

    # --- Brain ----------------------------------------------------------------------

    def key(self, state: State) -> str:
        assert isinstance(state, ChessState)
        return state.board.fen()

    def _analyse(self, board: chess.Board, limit: chess.engine.Limit,
                 options: Mapping[str, Any],
                 wanted: Callable[[], bool] = lambda: True
                 ) -> tuple[chess.Move | None, chess.engine.InfoDict]:
        with self._lock:
            self._search = self.engine.analysis(board, limit, options=dict(options))
        if not wanted():
            self.cancel()
        best = self._search.wait()
        with self._lock:
            info = self._search.info
            self._search = None
        return best.move, info

    def choose(self, state: State, wanted: Callable[[], bool]) -> str | None:
        assert isinstance(state, ChessState)
        board = state.board.copy()
        move, _ = self._analyse(board, self.limit, self.play_options, wanted)
        if move is None or not wanted():
            return None
        return move.uci()

    def advise(self, state: State) -> str:
        assert isinstance(state, ChessState)
        board = state.board.copy()
        move, info = self._analyse(board, self.hint_limit, self.full_options)
        if move is None:
            return "I have no move to suggest."
        return hint_words(board, move, info.get("score"))

    def judge(self, state: State) -> str:
        assert isinstance(state, ChessState)
        _, info = self._analyse(state.board.copy(), self.hint_limit, self.full_options)
        score = info.get("score")
        if score is None:
            return "I cannot tell who stands better."
        return eval_words(score, self.players)

    def guide(self, state: State, events: Sequence[Event]) -> str:
        assert isinstance(state, ChessState)
        side = state.game.engine_side()
        played = [e for e in events if isinstance(e, MovePlayed) and e.player == side]
        if not played or not state.board.move_stack:
            return ""
        before = state.board.copy()
        move = before.pop()
        return "on the board, " + board_move_words(before, move)

    def accepts_draw(self, state: State, side: int) -> bool:
        """Yes when it stands worse by half a pawn or more, at full strength's judgement."""
        assert isinstance(state, ChessState)
        _, info = self._analyse(state.board.copy(), self.hint_limit, self.full_options)
        score = info.get("score")
        if score is None:
            return False
        mine = score.pov(chess.WHITE if side == 0 else chess.BLACK)
        return mine.score(mate_score=100_000) <= -DRAW_BELOW

    def cancel(self) -> None:
        with self._lock:
            if self._search is not None:
                self._search.stop()

    def close(self) -> None:
        self.cancel()
        try:
            self.engine.quit()
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError):
            self.engine.close()


def brain_for(game: Game) -> UciBrain:
    """The brain the chess game's options ask for (``--engine``, ``--level``, ``--elo``)."""
    options = game.options
    return UciBrain(str(options["engine"]), level=int(options["level"]),
                    elo=int(options["elo"]), players=game.players)


# --------------------------------------------------------------------------- words


def hint_words(board: chess.Board, move: chess.Move,
               score: chess.engine.PovScore | None) -> str:
    """ "Try knight takes e5: it takes a pawn and gives check." """
    text = f"Try {move_words(board, move)}"
    reasons = []
    mate = score.pov(board.turn).mate() if score is not None else None
    if mate is not None and mate > 0:
        reasons.append("it mates at once" if mate == 1 else f"it mates in {mate}")
    else:
        if board.is_capture(move):
            victim = board.piece_at(move.to_square)
            name = chess.piece_name(victim.piece_type) if victim else "pawn"
            reasons.append(f"it takes a {name}")
        if board.gives_check(move):
            reasons.append("it gives check")
        if move.promotion:
            reasons.append(f"it makes a {chess.piece_name(move.promotion)}")
    if not reasons:
        return text + "."
    return text + ": " + " and ".join(reasons) + "."


def eval_words(score: chess.engine.PovScore, players: Sequence[str]) -> str:
    """Who stands better, in words, with the engine's figure in pawns."""
    white = score.white()
    mate = white.mate()
    if mate is not None:
        who = players[0] if mate > 0 else players[1]
        moves = abs(mate)
        if moves == 0:
            return "It is checkmate."
        return f"{who} can mate in {moves}." if moves > 1 else f"{who} can mate at once."
    cp = white.score()
    assert cp is not None
    who = players[0] if cp > 0 else players[1]
    pawns = abs(cp) / 100
    if abs(cp) <= 30:
        return f"The position is about equal ({cp / 100:+.1f})."
    if abs(cp) <= 100:
        words = f"{who} stands slightly better"
    elif abs(cp) <= 300:
        words = f"{who} stands better"
    else:
        words = f"{who} is winning"
    return f"{words}, by about {pawns:.1f} pawns."
