"""English checkers (rulebook 000, "Checkers Instructions").

8x8 board, 12 men each on the dark squares of the first three rows; men move and jump one
square diagonally forward, a jump may continue with more jumps by the same piece; a man that
reaches the far row is crowned and the move ends there; kings move and jump one square forwards
or backwards. The player who cannot move (no pieces, or all blocked) loses. Choices where the
rulebook is silent (compulsory capture, who starts, draws) are in docs/games/checkers.md.
"""

from __future__ import annotations

from typing import ClassVar

from companion.engine import Action, GameSpec, Option, State
from companion.games import agreement, register
from companion.games.draughts.common import (
    TABLE_OPTIONS,
    BoardState,
    PieceMove,
    TableGame,
    parse_command,
    perft_tool,
)
from companion.games.draughts.core import (
    CHECKERS_BOARD,
    Move,
    Position,
    checkers_moves,
    checkers_play,
    parse_fen,
    perft,
)

START = "B:W21-32:B1-12"

HOUSE_RULES = (
    "Jumping is compulsory (the official rule; the rulebook only says a player 'may' continue):"
    " a jump must be taken when one exists, and continued to the end; no huffing. Option"
    " capture=optional lets a player make a plain move instead, and stop a jump sequence after"
    " any jump, with no penalty (no huffing either). A man that reaches the king row is crowned"
    " and the move ends. The first player (Red) plays from squares 1-12 and moves first. Draw:"
    " 40 moves by each side with no capture and no man moved (option draw-moves, 0 for never),"
    " or the same position three times with the same side to move."
)


class CheckersState(BoardState):
    geometry = CHECKERS_BOARD
    player0_bottom = False
    game_name = "checkers"

    def _generate(self) -> list[Move]:
        return checkers_moves(self.pos, self.game.options["capture"] == "compulsory")

    def _play(self, move: Move) -> Position:
        return checkers_play(self.pos, move)

    def _draw_after(self) -> str | None:
        limit = int(self.game.options["draw-moves"])
        if limit and self.quiet_plies >= 2 * limit:
            unit = "move" if limit == 1 else "moves"
            return f"{limit} {unit} each without a capture or a man moved: the game is drawn."
        if self.repetitions() >= 3:
            return "The same position has come three times: the game is drawn."
        return None


@register
class Checkers(TableGame):
    spec = GameSpec(
        name="checkers",
        title="Checkers",
        min_players=2,
        max_players=2,
        inputs=("keyboard",),
        rulebook="000: Checkers",
        aliases=("english-checkers", "american-checkers"),
        options=(
            Option("capture", "compulsory",
                   "compulsory (official rule) or optional (jumping is a choice, no huffing)",
                   ("compulsory", "optional")),
            Option("draw-moves", 40,
                   "a draw after this many moves each with no capture and no man moved"
                   " (0: never)"),
            Option("position", START, "the starting position as a PDN FEN (W = squares 21-32"
                   " side, B = squares 1-12 side, first letter = side to move)"),
            *TABLE_OPTIONS,
        ),
        house_rules=HOUSE_RULES,
        default_players=("Red", "White"),
    )
    action_types: ClassVar[dict[str, type[Action]]] = {"PieceMove": PieceMove,
                                                       **agreement.ACTIONS}
    tools: ClassVar[dict[str, str]] = {"perft": "companion.games.draughts.checkers:perft_main"}

    def new_state(self) -> CheckersState:
        try:
            pos = parse_fen(str(self.options["position"]), CHECKERS_BOARD)
        except ValueError as exc:
            raise ValueError(f"option position: {exc}") from None
        return CheckersState(self, pos)

    def max_length(self) -> int:
        # Between two irreversible moves (capture or man move, at most 24 + 12*7*2 of them)
        # there are fewer than 2 * draw-moves plies, or a position repeats three times.
        limit = int(self.options["draw-moves"]) or 1000
        return (24 + 12 * 7 * 2 + 1) * (2 * limit + 1)

    def parse_action(self, state: State, text: str) -> Action:
        assert isinstance(state, CheckersState)
        return parse_command(state, text)

    def query(self, state: State, text: str) -> str | None:
        assert isinstance(state, CheckersState)
        word = text.strip().lower()
        if word in ("board", "show"):
            return state.board_text()
        if word in ("moves", "jumps", "legal"):
            return state.options_text()  # the same answer as options
        return super().query(state, text)

    def command_help(self) -> str:
        return (
            "  11-15 / 22x15 / 22x15x8   a move in numbered-square notation (22x8 if only one"
            " jump fits)\n"
            "  moves                      the legal moves\n"
            "  board                      the board as text"
            + "\n" + agreement.help_text("  ")
        )


def perft_main(argv: list[str]) -> int:
    """``companion perft checkers DEPTH [--position FEN] [--divide] [--dedupe yes|no] [--json]``."""

    def count(pos: Position, depth: int, dedupe: bool | None) -> int:
        return perft(pos, depth, "checkers", dedupe)

    def moves(pos: Position, dedupe: bool) -> list[Move]:
        return checkers_moves(pos)

    return perft_tool(argv, "checkers", CHECKERS_BOARD, START, count, moves, checkers_play)

