"""Chess: rules by python-chess, moves typed (SAN or UCI) or read from an electronic board.

The state wraps a ``chess.Board``. Every action is validated against it before anything is
pushed, so an illegal move raises :class:`IllegalAction` (with the FEN in the message, as
python-chess does) and changes nothing.

Board input (``BoardSeen``, 64 squares from a DGT board) is matched against the position:
the move is the one legal move whose result the board shows; the previous position means a
takeback; a board on its way to a legal result (pieces lifted, half a castling) is quietly
ignored; anything else is refused with square-by-square instructions to put it right.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import chess

from companion.engine import (
    TERMINAL,
    Action,
    Event,
    Game,
    GameOver,
    GameSpec,
    IllegalAction,
    Option,
    Priority,
    State,
)
from companion.games import agreement, register
from companion.games.agreement import Resign as Resign  # the journal type "Resign"
from companion.games.chess import reasons
from companion.observations import BoardSeen, MoveChosen, Observation

WHITE, BLACK = 0, 1
PIECE_NAMES = {
    chess.PAWN: "pawn",
    chess.KNIGHT: "knight",
    chess.BISHOP: "bishop",
    chess.ROOK: "rook",
    chess.QUEEN: "queen",
    chess.KING: "king",
}
# Pieces lifted at once while a move is still being made (the mover and a captured piece).
MAX_LIFTED = 2
# How many half-moves back a board may be taken back to.
MAX_TAKEBACK = 2


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Move(Action):
    """One chess move in UCI notation ("e2e4", "e7e8q", "e1g1")."""

    uci: str

    def __str__(self) -> str:
        return self.uci


@dataclass(frozen=True)
class TakeBack(Action):
    """Take back the last ``plies`` half-moves (from the board, or typed ``takeback``)."""

    plies: int = 1

    def __str__(self) -> str:
        return "takeback" if self.plies == 1 else f"takeback {self.plies}"


@dataclass(frozen=True)
class ClaimDraw(Action):
    """A draw claimed under the threefold-repetition or fifty-move rule."""

    player: int

    def __str__(self) -> str:
        return "claim draw"


# --------------------------------------------------------------------------- events


@dataclass(frozen=True)
class MovePlayed(Event):
    player: int
    san: str
    uci: str
    words: str  # "knight takes e5, check"
    key: ClassVar[str] = "chess_move"

    def describe(self, names: Sequence[str]) -> str:
        return self.words[:1].upper() + self.words[1:] + "."


@dataclass(frozen=True)
class MovesTakenBack(Event):
    sans: tuple[str, ...]  # the moves taken back, last first
    to_move: int
    key: ClassVar[str] = "chess_takeback"

    def describe(self, names: Sequence[str]) -> str:
        what = " and ".join(self.sans)
        return f"Taken back: {what}. {names[self.to_move]} to move."


@dataclass(frozen=True)
class DrawClaimable(Event):
    player: int
    rule: str  # "threefold repetition" or "fifty-move rule"
    key: ClassVar[str] = "chess_draw_claimable"
    priority: ClassVar[int] = Priority.INFO

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} may claim a draw by the {self.rule}."


# --------------------------------------------------------------------------- board refusals


class BoardPending(IllegalAction):
    """A board reading that is not an error yet (pieces in the air, or nothing changed).

    The session should log it without speaking (``quiet`` is True).
    """

    quiet = True


class BoardMatches(BoardPending):
    """The board shows the game's position: say it only if the last board reading was refused."""

    settles = True


class EngineMovePending(BoardMatches):
    """The board still shows the position before the engine's move: it is waited for (said
    again only after a refused board, as the player put the pieces right)."""


class StaleMove(IllegalAction):
    """An engine's move for a position the game has left (a takeback while it thought)."""

    quiet = True


class BoardMismatch(IllegalAction):
    """The board shows neither a legal move's result nor a takeback; ``fixes`` says what to do."""

    quiet = False

    def __init__(self, reason: str, fixes: tuple[str, ...], *, position: str = "") -> None:
        super().__init__(reason, position=position)
        self.fixes = fixes


# --------------------------------------------------------------------------- game


@register
class Chess(Game):
    spec = GameSpec(
        name="chess",
        title="Chess",
        min_players=2,
        max_players=2,
        inputs=("board",),
        rulebook="000: Chess Instructions; 002: Chess",
        options=(
            Option("fen", "", "start from this FEN instead of the initial position"),
            Option("engine", "", "a UCI engine that plays one side and gives hints (stockfish,"
                   " or the path of any UCI engine)"),
            Option("side", "white", "the side you play against the engine (both: the engine"
                   " only gives hints and eval)", ("white", "black", "both")),
            Option("level", 20, "the engine's strength, 0 (a beginner) to 20 (full strength)"),
            Option("elo", 0, "play at about this rating instead of a level (UCI_Elo; 0: use"
                   " the level)"),
            Option("time", "", "a time control, minutes+increment seconds (15+10): the"
                   " companion keeps the clock, or reads a DGT clock"),
            Option(
                "auto_draw",
                False,
                "end the game at once on threefold repetition or fifty moves instead of"
                " waiting for a claim",
            ),
        ),
        house_rules=(
            "FIDE rules where the rulebooks are silent: threefold repetition and the fifty-move"
            " rule are claimed (say 'claim draw'); fivefold repetition, the seventy-five-move"
            " rule, insufficient material, stalemate and checkmate end the game by themselves."
            " A pawn promotes to a queen unless another piece is named or placed."
        ),
        default_players=("White", "Black"),
    )
    action_types = {"Move": Move, "TakeBack": TakeBack, "ClaimDraw": ClaimDraw,
                    **agreement.ACTIONS}
    tools = {"perft": "companion.games.chess:perft_main"}

    def new_state(self) -> ChessState:
        fen = str(self.options["fen"]).strip()
        try:
            board = chess.Board(fen) if fen else chess.Board()
        except ValueError as exc:
            raise ValueError(f"bad FEN {fen!r}: {exc}") from exc
        if not board.is_valid():
            raise ValueError(f"the FEN {fen!r} is not a legal position ({board.status()!r})")
        return ChessState(self, board)

    def max_length(self) -> int:
        # The seventy-five-move rule bounds a game at 8848.5 moves; claims and takebacks are
        # not in legal_actions, so random play stays under this.
        return 17_700

    def command_help(self) -> str:
        return (
            "e4, Nf3, exd5, O-O, e7e8q   a move in SAN or UCI (promotion to a queen unless named)\n"
            "takeback [N]                take back the last move (or N half-moves)\n"
            "claim draw                  claim a draw (threefold repetition, fifty-move rule)\n"
            "board                       the board as text, with its coordinates\n"
            + agreement.HELP
        )

    def parse_action(self, state: State, text: str) -> Action:
        assert isinstance(state, ChessState)
        words = text.strip().split()
        if not words:
            raise IllegalAction("Say a move, like e4 or Nf3.")
        head = words[0].lower()
        if head in {"takeback", "take"}:
            rest = [w for w in words[1:] if w.lower() != "back"]
            # Against the engine, a takeback on your move takes back its reply and your move.
            plies = int(rest[0]) if rest and rest[0].isdigit() else 1 + state.lagging()
            return TakeBack(plies)
        if head == "claim" or text.strip().lower() == "draw":
            return ClaimDraw(state.player_to_move())
        moved = 1 - state.player_to_move() if state.board.move_stack else None
        agreed = agreement.parse(text, state.player_to_move(), moved, state.draw_offer)
        if agreed is not None:
            return agreed
        if len(words) != 1:
            raise IllegalAction(f"I don't understand {text.strip()!r}: say one move, like Nf3.")
        if state.engine_to_move():
            raise IllegalAction(
                f"{self.players[state.player_to_move()]} is played by the engine: wait for its"
                " move (or say takeback).", position=state.board.fen())
        return Move(state.parse_move(words[0]).uci())

    def query(self, state: State, text: str) -> str | None:
        assert isinstance(state, ChessState)
        if text.strip().lower() in ("board", "show"):
            return reasons.board_text(state.board)
        if text.strip().lower() in ("hint", "eval"):  # with --engine, the opponent answers
            return ("Hints and eval come from an engine: play with --engine stockfish"
                    " (--side both for hints only).")
        return None

    def parse_spoken(self, state: State, text: str, player: int | None) -> Action:
        assert isinstance(state, ChessState)
        action = super().parse_spoken(state, text, player)
        to_move = state.player_to_move()
        if player is not None and player != to_move and isinstance(action, Move | ClaimDraw):
            raise IllegalAction(f"{self.players[player]}, it is {self.players[to_move]}'s turn")
        return action

    def interpret(self, state: State, observation: Observation) -> Action:
        assert isinstance(state, ChessState)
        if isinstance(observation, MoveChosen):
            return state.engine_move(observation)
        if not isinstance(observation, BoardSeen):
            return super().interpret(state, observation)
        return state.match_board(board_from_squares(observation.squares))

    def engine_side(self) -> int | None:
        """The player the engine plays, when one does."""
        side = str(self.options["side"])
        if not str(self.options["engine"]) or side == "both":
            return None
        return BLACK if side == "white" else WHITE


# --------------------------------------------------------------------------- state


_VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9,
           chess.KING: 0}


class ChessState(State):
    game: Chess

    def __init__(self, game: Chess, board: chess.Board) -> None:
        self.game = game
        self.board = board
        self.start_fen = board.fen()
        # SAN and UCI of each move played, kept so that to_json stays cheap
        self.sans: list[str] = []
        self.ucis: list[str] = []
        self._memo: dict[str, Any] = {}  # outcome and claimable draw of this position
        # (termination in words, winners) once resigned or a draw was claimed or agreed
        self.ended: tuple[str, tuple[int, ...]] | None = None
        self.draw_offer: int | None = None  # the player whose draw offer stands

    # --- core API -----------------------------------------------------------------

    def current_player(self) -> int:
        if self.outcome() is not None:
            return TERMINAL
        return self.player_to_move()

    def may_act(self, player: int) -> bool:
        # Either player may offer or answer a draw, or resign, at any time; the rules refuse
        # a move out of turn.
        return player in (WHITE, BLACK)

    def player_to_move(self) -> int:
        return WHITE if self.board.turn == chess.WHITE else BLACK

    def legal_actions(self) -> list[Action]:
        if self.is_terminal():
            return []
        actions: list[Action] = [Move(m.uci()) for m in self.board.legal_moves]
        if self.claimable_draw():
            actions.append(ClaimDraw(self.player_to_move()))
        return actions

    def apply(self, action: Action) -> list[Event]:
        handler = _APPLY.get(type(action))
        if handler is None:
            raise IllegalAction(f"{action} is not a chess action")
        return handler(self, action)

    def clone(self) -> ChessState:
        twin = ChessState.__new__(ChessState)
        twin.game = self.game
        twin.board = _copy_board(self.board)
        twin._memo = dict(self._memo)
        twin.start_fen = self.start_fen
        twin.sans = list(self.sans)
        twin.ucis = list(self.ucis)
        twin.ended = self.ended
        twin.draw_offer = self.draw_offer
        return twin

    def to_json(self) -> dict[str, Any]:
        outcome = self.outcome()
        return {
            "fen": self.board.fen(),
            "start_fen": self.start_fen,
            "moves_san": list(self.sans),
            "moves_uci": list(self.ucis),
            "turn": "white" if self.board.turn == chess.WHITE else "black",
            "check": self.board.is_check(),
            "result": outcome[0] if outcome else "*",
            "termination": outcome[1] if outcome else None,
            "claimable_draw": self.claimable_draw(),
            "draw_offer": None if self.draw_offer is None else self.game.players[self.draw_offer],
            # UCI, not SAN: SAN costs a move push per entry (say "options" for SAN).
            "legal_moves": [m.uci() for m in self.board.legal_moves] if outcome is None else [],
        }

    def winners(self) -> tuple[int, ...]:
        outcome = self.outcome()
        return outcome[2] if outcome else ()

    def scores(self) -> list[float]:
        outcome = self.outcome()
        if outcome is None:
            return [0.0, 0.0]
        winners = outcome[2]
        if not winners:
            return [0.5, 0.5]
        return [1.0 if p in winners else 0.0 for p in (WHITE, BLACK)]

    def describe_action(self, action: Action) -> str:
        if isinstance(action, Move):
            move = chess.Move.from_uci(action.uci)
            if self.board.is_legal(move):
                return move_words(self.board, move)
        return str(action)

    def choices_after_move(self) -> str:
        return ""  # twenty to forty moves: said on 'options' only

    def put_back(self, action: Action) -> str:
        if not isinstance(action, Move):
            return ""
        return reasons.put_back(self.board, chess.Move.from_uci(action.uci))

    def choices_text(self) -> str:
        if self.is_terminal():
            return ""
        sans = sorted(self.board.san(m) for m in self.board.legal_moves)
        extra = " You may also claim a draw." if self.claimable_draw() else ""
        return f"{len(sans)} legal moves: " + ", ".join(sans) + "." + extra

    def expected(self) -> str:
        if self.is_terminal():
            return "The game is over."
        names = self.game.players
        check = ", in check" if self.board.is_check() else ""
        return f"{names[self.player_to_move()]} to move{check}"

    def status(self) -> str:
        outcome = self.outcome()
        if outcome is not None:
            return f"The game is over: {outcome[1]}, {outcome[0]}. {self.material_text()}"
        n = self.board.fullmove_number
        return f"Move {n}. {self.expected()}. {self.material_text()}"

    def material_text(self) -> str:
        """ "Material: White 39, Black 36." (pawn 1, knight and bishop 3, rook 5, queen 9)"""
        names = self.game.players
        worth = [sum(_VALUES[piece.piece_type] for piece in self.board.piece_map().values()
                     if piece.color == color) for color in (chess.WHITE, chess.BLACK)]
        return f"Material: {names[0]} {worth[0]}, {names[1]} {worth[1]}."

    def __repr__(self) -> str:
        return f"ChessState(fen={self.board.fen()!r})"

    # --- rules helpers --------------------------------------------------------------

    def changed(self) -> None:
        """Forget what was worked out about the position (after every change to it)."""
        self._memo.clear()

    def outcome(self) -> tuple[str, str, tuple[int, ...]] | None:
        """(result "1-0", termination in words, winners) once the game is over, else None."""
        if "outcome" not in self._memo:
            self._memo["outcome"] = self._outcome()
        result: tuple[str, str, tuple[int, ...]] | None = self._memo["outcome"]
        return result

    def _outcome(self) -> tuple[str, str, tuple[int, ...]] | None:
        if self.ended is not None:
            detail, ended_winners = self.ended
            return (_result_text(ended_winners), detail, ended_winners)
        out = self.board.outcome(claim_draw=False)
        if out is None:
            rule = self._draw_rule() if self.game.options["auto_draw"] else None
            return ("1/2-1/2", rule, ()) if rule else None
        winners: tuple[int, ...] = ()
        if out.winner is not None:
            winners = (WHITE if out.winner == chess.WHITE else BLACK,)
        return (out.result(), _TERMINATION_WORDS[out.termination], winners)

    def claimable_draw(self) -> str | None:
        """The rule under which a draw may be claimed now, if any (threefold wins a tie)."""
        if "claim" not in self._memo:
            self._memo["claim"] = self._claimable_draw()
        rule: str | None = self._memo["claim"]
        return rule

    def _claimable_draw(self) -> str | None:
        if self.game.options["auto_draw"] or self.ended is not None:
            return None
        if self.board.outcome(claim_draw=False) is not None:
            return None
        return self._draw_rule()

    def _draw_rule(self) -> str | None:
        # The position on the board now, not one a further move would make (FIDE 9.2 also
        # lets a player claim by announcing the move; here the move is made first).
        if self.board.is_repetition(3):
            return "threefold repetition"
        if self.board.is_fifty_moves():
            return "fifty-move rule"
        return None

    def parse_move(self, text: str) -> chess.Move:
        """A move in SAN or UCI, promotion to a queen when none is named; or refuse."""
        board = self.board
        if self.is_terminal():
            raise IllegalAction("The game is over.", position=board.fen())
        cleaned = text.strip().replace("0-0-0", "O-O-O").replace("0-0", "O-O")
        candidates = [cleaned]
        if cleaned[:1] in "nrqk" and cleaned[:1]:
            candidates.append(cleaned[0].upper() + cleaned[1:])
        if cleaned[:1] == "b":  # bxc3 is a pawn capture; "bc4" can only be a bishop
            candidates.append("B" + cleaned[1:])
        for candidate in candidates:
            for attempt in (candidate, candidate + "q", candidate + "=Q"):
                move = _try_parse(board, attempt)
                if move is not None:
                    return move
        raise IllegalAction(self._why_illegal(cleaned), position=board.fen())

    def _why_illegal(self, text: str) -> str:
        side = self.game.players[self.player_to_move()]
        try:
            move = chess.Move.from_uci(text.lower())
        except ValueError:
            move = None
        if move is not None:
            return reasons.move_reason(self.board, move, side)
        said = reasons.text_reason(self.board, text, side)
        if said is not None:
            return said
        if self.board.is_check():
            return f"{text} is not a legal move: {side} is in check."
        return f"{text} is not a legal move for {side}."

    # --- the engine opponent ---------------------------------------------------------

    def engine_to_move(self) -> bool:
        return not self.is_terminal() and self.player_to_move() == self.game.engine_side()

    def lagging(self) -> int:
        """1 when the last move is the engine's: the pieces on the board may not show it yet,
        and its player takes back their own move with it."""
        side = self.game.engine_side()
        if side is None or not self.board.move_stack or self.ended is not None:
            return 0
        return int(self.player_to_move() != side)

    def engine_move(self, chosen: MoveChosen) -> Action:
        """The engine's move, if it was chosen for this position (else it is stale)."""
        if chosen.position != self.board.fen() or not self.engine_to_move():
            raise StaleMove("A move chosen for an earlier position; ignored.",
                            position=self.board.fen())
        return Move(chosen.move)

    # --- board matching -------------------------------------------------------------

    def match_board(self, seen: dict[chess.Square, str]) -> Action:
        """The action a stable board reading means, or a refusal saying what to fix."""
        board = self.board
        here = _placement(board)
        seen = _stand_ins(here, seen)
        if seen == here:
            raise BoardMatches("The board matches the game.", position=board.fen())
        lag = self.lagging()
        before = _copy_board(board)
        engine_move = before.pop() if lag else None
        if engine_move is not None and seen == _placement(before):
            # the engine's move is not made on the board yet
            words = board_move_words(before, engine_move)
            raise EngineMovePending(f"Now make the engine's move on the board: {words}.",
                                    position=board.fen())
        taken = self._takeback_to(seen, skip=lag)
        if taken:
            return TakeBack(taken)
        if self.engine_to_move() and not self._on_the_way(here, seen):
            side = self.game.players[self.player_to_move()]
            raise BoardMismatch(
                f"Wait for the engine's move: it plays {side}. " + _fix_text(here, seen),
                _fixes(here, seen), position=board.fen())
        if self.is_terminal():
            raise BoardMismatch(
                "The game is over. " + _fix_text(here, seen),
                _fixes(here, seen),
                position=board.fen(),
            )
        results = []
        for move in board.legal_moves:
            after = _placement_after(board, move)
            if _shows(seen, after, move):
                results.append(move)
        if len(results) == 1:
            return Move(results[0].uci())
        if len(results) > 1:  # cannot happen with piece identities, but say so if it does
            raise BoardMismatch(
                "The board fits more than one move; please type the move.", (), position=board.fen()
            )
        if self._on_the_way(here, seen):
            raise BoardPending("Waiting for the move to be finished.", position=board.fen())
        fixes = _fixes(here, seen)
        if engine_move is not None:
            raise BoardMismatch(self._engine_move_missing(before, engine_move, seen), fixes,
                                position=board.fen())
        lead = self._illegal_move_words(here, seen)
        reason = (lead + " " if lead else "The board does not match the game. ") + _fix_text(
            here, seen
        )
        raise BoardMismatch(reason, fixes, position=board.fen())

    def _engine_move_missing(self, before: chess.Board, move: chess.Move,
                             seen: dict[chess.Square, str]) -> str:
        """Why a board is refused while it should be showing the engine's last move."""
        here = _placement(self.board)
        then = _placement(before)
        played = board_move_words(before, move)
        if seen.get(move.from_square) != then.get(move.from_square):
            # the engine's piece was taken up, and put down elsewhere
            return f"That is not the engine's move: {played}. " + _fix_text(here, seen)
        # The player moved again before making the engine's move on the board.
        return (f"First make the engine's move on the board: {played}. Then "
                + _fix_text(then, seen)[:1].lower() + _fix_text(then, seen)[1:])

    def _takeback_to(self, seen: dict[chess.Square, str], skip: int = 0) -> int:
        board = _copy_board(self.board)
        for plies in range(1, MAX_TAKEBACK + 1):
            if not board.move_stack:
                return 0
            board.pop()
            if plies > skip and _placement(board) == seen:
                return plies
        return 0

    def _on_the_way(self, here: dict[chess.Square, str], seen: dict[chess.Square, str]) -> bool:
        """True when the board could be a legal move (or a takeback) half made."""
        targets = [here] + [_placement_after(self.board, m) for m in self.board.legal_moves]
        back = _copy_board(self.board)
        if back.move_stack:
            back.pop()
            targets.append(_placement(back))
        return any(_between(here, seen, after) for after in targets)

    def _illegal_move_words(
        self, here: dict[chess.Square, str], seen: dict[chess.Square, str]
    ) -> str:
        """Name an illegal move when one piece was simply moved elsewhere ("Bishop c1 to h6...")."""
        emptied = [sq for sq in here if sq not in seen]
        arrived = [sq for sq, p in seen.items() if here.get(sq) != p]
        if len(emptied) != 1 or len(arrived) != 1:
            return ""
        src, dst = emptied[0], arrived[0]
        if seen[dst] != here[src]:
            return ""
        piece = chess.Piece.from_symbol(here[src])
        name = PIECE_NAMES[piece.piece_type].capitalize()
        text = f"{name} {chess.square_name(src)} to {chess.square_name(dst)}"
        move = chess.Move(src, dst)
        side = self.game.players[self.player_to_move()]
        if piece.color != self.board.turn:
            return f"{text}: it is {side}'s move."
        if self.board.is_pseudo_legal(move):
            return f"{text} would leave {side}'s king in check."
        return f"{text} is not a legal move."


def _try_parse(board: chess.Board, text: str) -> chess.Move | None:
    for parse in (board.parse_san, board.parse_uci):
        try:
            return parse(text)
        except ValueError:
            continue
    return None


def _result_text(winners: tuple[int, ...]) -> str:
    if not winners:
        return "1/2-1/2"
    return "1-0" if winners == (WHITE,) else "0-1"


_TERMINATION_WORDS = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "insufficient material",
    chess.Termination.SEVENTYFIVE_MOVES: "seventy-five-move rule",
    chess.Termination.FIVEFOLD_REPETITION: "fivefold repetition",
    chess.Termination.FIFTY_MOVES: "fifty-move rule",
    chess.Termination.THREEFOLD_REPETITION: "threefold repetition",
}


# --------------------------------------------------------------------------- applying


def _apply_move(state: ChessState, action: Action) -> list[Event]:
    assert isinstance(action, Move)
    board = state.board
    if state.is_terminal():
        raise IllegalAction("The game is over.", position=board.fen())
    try:
        move = chess.Move.from_uci(action.uci)
    except ValueError:
        raise IllegalAction(f"{action.uci!r} is not a move.", position=board.fen()) from None
    if not board.is_legal(move):
        raise IllegalAction(state._why_illegal(action.uci), position=board.fen())
    player = state.player_to_move()
    san = board.san(move)
    words = move_words(board, move)
    board.push(move)
    state.sans.append(san)
    state.ucis.append(move.uci())
    state.changed()
    events: list[Event] = [MovePlayed(player, san, move.uci(), words)]
    events += agreement.after_move(state, player)
    outcome = state.outcome()
    if outcome is not None:
        events.append(GameOver(outcome[2], outcome[1].capitalize() + "."))
    else:
        rule = state.claimable_draw()
        if rule:
            events.append(DrawClaimable(state.player_to_move(), rule))
    return events


def _apply_takeback(state: ChessState, action: Action) -> list[Event]:
    assert isinstance(action, TakeBack)
    board = state.board
    if state.ended is not None:
        raise IllegalAction(
            f"The game ended by {state.ended[0]}; it cannot be taken back.", position=board.fen()
        )
    if action.plies < 1:
        raise IllegalAction("Take back at least one move.", position=board.fen())
    if action.plies > len(board.move_stack):
        have = len(board.move_stack)
        raise IllegalAction(
            f"There {'is' if have == 1 else 'are'} only {have} move{'s' if have != 1 else ''}"
            " to take back.",
            position=board.fen(),
        )
    sans = []
    state.draw_offer = None  # an offer belongs to the position it was made in
    for _ in range(action.plies):
        board.pop()
        sans.append(state.sans.pop())
        state.ucis.pop()
    state.changed()
    return [MovesTakenBack(tuple(sans), state.player_to_move())]


def _apply_claim(state: ChessState, action: Action) -> list[Event]:
    assert isinstance(action, ClaimDraw)
    if state.is_terminal():
        raise IllegalAction("The game is over.", position=state.board.fen())
    rule = state.claimable_draw()
    if rule is None:
        raise IllegalAction(
            "No draw can be claimed now: the position has not occurred three times and fifty"
            " moves have not passed without a capture or a pawn move.",
            position=state.board.fen(),
        )
    state.ended = (rule, ())
    state.changed()
    return [GameOver((), f"Draw claimed by {rule}.")]


def _apply_flag(state: ChessState, action: Action) -> list[Event]:
    """FIDE 6.9: the player whose flag falls loses, unless the opponent cannot checkmate by
    any series of legal moves; then the game is drawn. "Cannot checkmate" is read as
    python-chess's insufficient material of the opponent (a lone king; king and one minor
    piece; bishops all on one colour)."""
    assert isinstance(action, agreement.FlagFall)
    board = state.board
    if state.is_terminal():
        raise IllegalAction("The game is over.", position=board.fen())
    if action.player not in (WHITE, BLACK):
        raise IllegalAction("Only White's or Black's flag can fall.", position=board.fen())
    names = state.game.players
    opponent = chess.BLACK if action.player == WHITE else chess.WHITE
    state.draw_offer = None
    if board.has_insufficient_material(opponent):
        state.ended = ("time forfeit against insufficient material", ())
        state.changed()
        other = names[1 - action.player]
        return [GameOver((), f"{names[action.player]}'s flag has fallen, but {other} cannot"
                             " checkmate: a draw.")]
    state.ended = ("time forfeit", (1 - action.player,))
    state.changed()
    return [GameOver((1 - action.player,), f"{names[action.player]}'s flag has fallen.")]


def _apply_agreement(state: ChessState, action: Action) -> list[Event]:
    def end(winners: tuple[int, ...], detail: str) -> None:
        state.ended = ("resignation" if winners else "agreement", winners)  # not FlagFall
        state.changed()

    try:
        return agreement.apply(state, action, state.game.players, end)
    except IllegalAction as err:
        raise IllegalAction(err.reason, position=state.board.fen()) from None


_APPLY = {
    Move: _apply_move,
    TakeBack: _apply_takeback,
    ClaimDraw: _apply_claim,
    **{kind: _apply_agreement for kind in agreement.ACTIONS.values()},
    agreement.FlagFall: _apply_flag,
}


# --------------------------------------------------------------------------- words


def move_words(board: chess.Board, move: chess.Move) -> str:
    """A legal move in words: "knight takes e5, check", "castles kingside", "pawn to e4"."""
    if board.is_castling(move):
        text = "castles " + ("kingside" if board.is_kingside_castling(move) else "queenside")
    else:
        piece = board.piece_at(move.from_square)
        assert piece is not None
        name = PIECE_NAMES[piece.piece_type]
        san = board.san(move)
        body = san.rstrip("+#")
        dest = chess.square_name(move.to_square)
        # SAN disambiguation: what sits between the piece letter and the destination.
        core = body.split("=")[0]
        start = 0 if piece.piece_type == chess.PAWN else 1
        middle = core[start : len(core) - 2].replace("x", "")
        if piece.piece_type == chess.PAWN and board.is_capture(move):
            middle = chess.square_name(move.from_square)[0]
        source = f" from {middle}" if middle else ""
        verb = "takes" if board.is_capture(move) else "to"
        text = f"{name}{source} {verb} {dest}"
        if board.is_en_passant(move):
            text += " en passant"
        if move.promotion:
            text += f", promotes to a {PIECE_NAMES[move.promotion]}"
    board.push(move)
    try:
        if board.is_checkmate():
            text += ", checkmate"
        elif board.is_check():
            text += ", check"
    finally:
        board.pop()
    return text


def board_move_words(board: chess.Board, move: chess.Move) -> str:
    """What to do with the pieces for a legal move: "move the black knight from g8 to f6";
    "take the white pawn off e5 and move ..."; castling moves the king and the rook."""
    piece = board.piece_at(move.from_square)
    assert piece is not None
    name = _piece_words(piece.symbol())
    src, dst = chess.square_name(move.from_square), chess.square_name(move.to_square)
    text = f"move the {name} from {src} to {dst}"
    if board.is_castling(move):
        rook_from, rook_to = (("h", "f") if board.is_kingside_castling(move) else ("a", "d"))
        rank = src[1]
        text += f" and the rook from {rook_from}{rank} to {rook_to}{rank}"
    elif board.is_en_passant(move):
        victim = chess.square_name(chess.square(chess.square_file(move.to_square),
                                                chess.square_rank(move.from_square)))
        text = f"take the pawn off {victim} and {text}"
    elif board.is_capture(move):
        captured = board.piece_at(move.to_square)
        assert captured is not None
        text = f"take the {_piece_words(captured.symbol())} off {dst} and {text}"
    if move.promotion:
        text += f", and make it a {PIECE_NAMES[move.promotion]}"
    return text


def _piece_words(symbol: str) -> str:
    if symbol not in "PNBRQKpnbrqk" or not symbol:
        return "unknown piece"
    piece = chess.Piece.from_symbol(symbol)
    colour = "white" if piece.color == chess.WHITE else "black"
    return f"{colour} {PIECE_NAMES[piece.piece_type]}"


# --------------------------------------------------------------------------- board helpers


def board_from_squares(squares: Sequence[tuple[str, str]]) -> dict[chess.Square, str]:
    """BoardSeen squares (all 64, or only the occupied ones) as square -> piece symbol."""
    out: dict[chess.Square, str] = {}
    for name, symbol in squares:
        try:
            sq = chess.parse_square(name.lower())
        except ValueError:
            raise IllegalAction(f"The board reported an unknown square {name!r}.") from None
        if symbol and symbol not in {".", "-", " "}:
            out[sq] = symbol
    return out


def _copy_board(board: chess.Board) -> chess.Board:
    """``board.copy(stack=True)`` without copying every Move (they are never mutated here)."""
    twin = board.copy(stack=False)
    twin.move_stack = list(board.move_stack)
    twin._stack = list(board._stack)
    return twin


def _placement(board: chess.Board) -> dict[chess.Square, str]:
    return {sq: p.symbol() for sq, p in board.piece_map().items()}


def _placement_after(board: chess.Board, move: chess.Move) -> dict[chess.Square, str]:
    board.push(move)
    try:
        return _placement(board)
    finally:
        board.pop()


def _shows(seen: dict[chess.Square, str], after: dict[chess.Square, str], move: chess.Move) -> bool:
    """The board shows ``after``; a pawn left on the last rank stands for a queen."""
    if seen == after:
        return True
    if move.promotion != chess.QUEEN:
        return False
    pawn = "P" if after[move.to_square] == "Q" else "p"
    return (
        seen.get(move.to_square) == pawn
        and {**seen, move.to_square: after[move.to_square]} == after
    )


def _between(
    here: dict[chess.Square, str], seen: dict[chess.Square, str], after: dict[chess.Square, str]
) -> bool:
    """Every square shows its piece before or after the move, or is empty; few are in the air."""
    in_the_air = 0
    for sq in here.keys() | seen.keys() | after.keys():
        shown = seen.get(sq)
        if shown is None:
            in_the_air += sq in after
        elif shown != here.get(sq) and shown != after.get(sq):
            return False
    return in_the_air <= MAX_LIFTED


def _stand_ins(
    here: dict[chess.Square, str], seen: dict[chess.Square, str]
) -> dict[chess.Square, str]:
    """A pawn on the first or last rank (never legal) stands for the queen the game has there:
    players without a spare queen leave the promoted pawn on the board."""
    out = dict(seen)
    for sq, symbol in seen.items():
        if symbol in "Pp" and chess.square_rank(sq) in (0, 7):
            queen = "Q" if symbol == "P" else "q"
            if here.get(sq) == queen:
                out[sq] = queen
    return out


def _fixes(here: dict[chess.Square, str], seen: dict[chess.Square, str]) -> tuple[str, ...]:
    """Square-by-square instructions that turn the board ``seen`` into the game's ``here``."""
    missing = {sq: p for sq, p in here.items() if seen.get(sq) != p}
    extra = {sq: p for sq, p in seen.items() if here.get(sq) != p}
    fixes: list[str] = []
    # A piece standing where another of its kind belongs: one instruction, "move ... back".
    for src, symbol in sorted(extra.items()):
        dst = next(
            (sq for sq, p in sorted(missing.items()) if p == symbol and sq not in seen), None
        )
        if dst is None:
            continue
        fixes.append(
            f"move the {_piece_words(symbol)} from {chess.square_name(src)} back to"
            f" {chess.square_name(dst)}"
        )
        del missing[dst]
        del extra[src]
    for sq, symbol in sorted(extra.items()):
        if sq in missing:
            fixes.append(
                f"replace the {_piece_words(symbol)} on {chess.square_name(sq)} with the"
                f" {_piece_words(missing.pop(sq))}"
            )
        else:
            fixes.append(f"remove the {_piece_words(symbol)} from {chess.square_name(sq)}")
    for sq, symbol in sorted(missing.items()):
        fixes.append(f"put the {_piece_words(symbol)} back on {chess.square_name(sq)}")
    return tuple(fixes)


def _fix_text(here: dict[chess.Square, str], seen: dict[chess.Square, str]) -> str:
    fixes = _fixes(here, seen)
    if not fixes:
        return ""
    shown = list(fixes[:4])
    if len(fixes) > 4:
        shown.append(f"and {len(fixes) - 4} more squares")
    text = "; ".join(shown)
    return text[:1].upper() + text[1:] + "."


# --------------------------------------------------------------------------- perft


def perft(board: chess.Board, depth: int) -> int:
    """Leaf nodes of the legal-move tree to ``depth`` (the standard perft count)."""
    if depth <= 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in list(board.legal_moves):
        board.push(move)
        nodes += perft(board, depth - 1)
        board.pop()
    return nodes


def perft_main(argv: list[str]) -> int:
    """``companion perft chess DEPTH [--position FEN (or --fen FEN)] [--divide] [--json]``."""
    parser = argparse.ArgumentParser(prog="companion perft chess")
    parser.add_argument("depth", type=int)
    parser.add_argument("--position", "--fen", default=chess.STARTING_FEN,
                        help="a FEN (default: start)")
    parser.add_argument("--divide", action="store_true", help="count below each first move")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.depth < 0:
        parser.error("depth must be 0 or more")
    try:
        board = chess.Board(args.position)
    except ValueError as exc:
        parser.error(f"bad FEN: {exc}")
    divide: dict[str, int] = {}
    if args.divide and args.depth > 0:
        for move in list(board.legal_moves):
            board.push(move)
            divide[move.uci()] = perft(board, args.depth - 1)
            board.pop()
        nodes = sum(divide.values())
    else:
        nodes = perft(board, args.depth)
    if args.json:
        out: Mapping[str, Any] = {
            "fen": board.fen(),
            "depth": args.depth,
            "nodes": nodes,
            **({"divide": divide} if args.divide else {}),
        }
        print(json.dumps(out, indent=2))
    else:
        for uci, count in sorted(divide.items()):
            print(f"{uci}: {count}")
        print(f"perft({args.depth}) = {nodes}")
    return 0
