"""International draughts, 10x10 (rulebook 002, "Draughts").

20 men each on the four rows nearest their player; White moves first. Men move one square
diagonally forward and capture forwards and backwards; capturing is compulsory and the move
taking the most pieces must be played (a king counts as one piece); captured pieces are
removed after the whole move and none may be jumped twice; kings fly and choose where to land
after a capture; a man is crowned only when its move ends on the far row. A player with no
pieces or no legal move loses. Draws: the rulebook's two endgame rules, one king against one
king, and (official FMJD rules, where the book is silent) 25 king moves each without capture
and threefold repetition. Details in docs/games/draughts.md.
"""

from __future__ import annotations

from typing import Any, ClassVar

from companion.engine import Action, Event, GameSpec, Option, State
from companion.games import agreement, register
from companion.games.draughts.common import (
    TABLE_OPTIONS,
    BoardState,
    DrawCount,
    PieceMove,
    TableGame,
    parse_command,
    perft_tool,
)
from companion.games.draughts.core import (
    DRAUGHTS_BOARD,
    Move,
    Position,
    draughts_moves,
    draughts_play,
    parse_fen,
    perft,
)

START = "W:W31-50:B1-20"

HOUSE_RULES = (
    "White (the first player named) moves first from squares 31-50. Endgame draws as the"
    " rulebook gives them: three pieces including a king against a lone king, drawn after 16"
    " moves; two kings against a lone king after 5 moves (and, as FMJD rules say, a king and a"
    " man against a lone king too); one king against one king at once. A 'move' in these counts"
    " is a move by each player (FMJD); option endgame-count=total counts single moves instead."
    " The counts restart when a piece is taken. Also official FMJD rules the rulebook leaves"
    " out: 25 moves each with only kings moved and nothing taken is a draw (option king-moves,"
    " 0 for never), and so is the same position three times with the same side to move."
)

SIXTEEN = "Three pieces with a king against a lone king"
FIVE = "Two pieces with a king against a lone king"


class DraughtsState(BoardState):
    geometry = DRAUGHTS_BOARD
    player0_bottom = True
    game_name = "draughts"
    flying_kings = True

    def _generate(self) -> list[Move]:
        return draughts_moves(self.pos)

    def _play(self, move: Move) -> Position:
        return draughts_play(self.pos, move)

    def _endgame(self) -> tuple[str, int] | None:
        """The endgame draw rule that applies now and its limit in moves, or None."""
        p = self.pos
        for strong, weak in ((p.bottom, p.top), (p.top, p.bottom)):
            if weak.bit_count() == 1 and weak & p.kings and strong & p.kings:
                n = strong.bit_count()
                if n == 3:
                    return SIXTEEN, 16
                if n == 2:
                    return FIVE, 5
                if n == 1:
                    return "One king against one king", 0
        return None

    def _material(self) -> tuple[object, ...]:
        # The endgame counts run while the same rule applies to the same pieces; a capture
        # (or a new rule) starts them again, a crowning within the same rule does not.
        rule = self._endgame()
        return (self.pos.bottom.bit_count(), self.pos.top.bit_count(), rule and rule[0])

    def _plies_for(self, moves: int) -> int:
        return 2 * moves if self.game.options["endgame-count"] == "each" else moves

    def _draw_after(self) -> str | None:
        rule = self._endgame()
        if rule is not None:
            name, limit = rule
            if limit == 0:
                return "One king against one king: no one can win, the game is drawn."
            if self.material_plies >= self._plies_for(limit):
                return f"{name}: {limit} moves played, the game is drawn."
        limit = int(self.game.options["king-moves"])
        if limit and self.quiet_plies >= 2 * limit:
            unit = "move" if limit == 1 else "moves"
            return f"{limit} {unit} each with only kings moved and nothing taken: a draw."
        if self.repetitions() >= 3:
            return "The same position has come three times: the game is drawn."
        return None

    def _draw_progress(self) -> list[Event]:
        rule = self._endgame()
        if rule is None or rule[1] == 0:
            return []
        name, limit = rule
        left = self._plies_for(limit) - self.material_plies
        if self.game.options["endgame-count"] == "each":
            left = (left + 1) // 2
        if self.material_plies == 0 or left <= 2:
            return [DrawCount(name, left)]
        return []

    def _notation(self, action: PieceMove) -> str:
        """``26x37``; the landing squares too when two captures share origin and target."""
        short = f"{action.origin}{'x' if action.captured else '-'}{action.target}"
        twins = [
            a for a in self.legal_actions()
            if isinstance(a, PieceMove) and a.origin == action.origin
            and a.target == action.target
        ]
        return str(action) if len(twins) > 1 else short

    def _refusal(self, text: str, origin: int, target: int) -> str:
        g = self.geometry
        all_caps = draughts_moves(self.pos, majority=False)
        legal = self.moves()
        if legal and legal[0].captured:
            for m in all_caps:
                if g.square(m.origin) == origin and g.square(m.target) == target:
                    most = legal[0].captured.bit_count()
                    took = m.captured.bit_count()
                    best = " or ".join(self._notation(self.to_action(x)) for x in legal[:3])
                    return (f"{text} takes {took} {'piece' if took == 1 else 'pieces'}, but"
                            f" the most pieces must be taken: {most}, with {best}.")
        return super()._refusal(text, origin, target)

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        rule = self._endgame()
        out["endgame_rule"] = rule[0] if rule else None
        return out


@register
class Draughts(TableGame):
    spec = GameSpec(
        name="draughts",
        title="Draughts",
        min_players=2,
        max_players=2,
        inputs=("keyboard",),
        rulebook="002: Draughts",
        aliases=("international-draughts", "dammen", "draughts-10x10"),
        options=(
            Option("endgame-count", "each",
                   "endgame draw counts are moves by each player (FMJD) or single moves",
                   ("each", "total")),
            Option("king-moves", 25,
                   "a draw after this many moves each with only kings moved and nothing taken"
                   " (FMJD; 0: never)"),
            Option("position", START, "the starting position as a PDN FEN (W = White, on"
                   " 31-50 at the start; first letter = side to move)"),
            *TABLE_OPTIONS,
        ),
        house_rules=HOUSE_RULES,
        default_players=("White", "Black"),
    )
    action_types: ClassVar[dict[str, type[Action]]] = {"PieceMove": PieceMove,
                                                       **agreement.ACTIONS}
    tools: ClassVar[dict[str, str]] = {"perft": "companion.games.draughts.international:perft_main"}

    def new_state(self) -> DraughtsState:
        try:
            pos = parse_fen(str(self.options["position"]), DRAUGHTS_BOARD)
        except ValueError as exc:
            raise ValueError(f"option position: {exc}") from None
        return DraughtsState(self, pos)

    def max_length(self) -> int:
        # Irreversible moves (captures, man moves) are at most 40 + 20 * 9 * 2; between two
        # of them fewer than 2 * king-moves plies (or a threefold repetition, or 32 plies of
        # an endgame count).
        limit = int(self.options["king-moves"]) or 1000
        return (40 + 20 * 9 * 2 + 1) * (2 * limit + 1)

    def parse_action(self, state: State, text: str) -> Action:
        assert isinstance(state, DraughtsState)
        return parse_command(state, text)

    def query(self, state: State, text: str) -> str | None:
        assert isinstance(state, DraughtsState)
        word = text.strip().lower()
        if word in ("board", "show"):
            return state.board_text()
        if word in ("moves", "legal", "captures"):
            return state.options_text()  # the same answer as options
        return super().query(state, text)

    def command_help(self) -> str:
        return (
            "  32-28 / 26x37 / 26x37x48   a move (the landing squares only when needed)\n"
            "  moves                       the legal moves\n"
            "  board                       the board as text"
            + "\n" + agreement.help_text("  ")
        )


def perft_main(argv: list[str]) -> int:
    """``companion perft draughts DEPTH [--position FEN] [--divide] [--dedupe yes|no] [--json]``."""

    def count(pos: Position, depth: int, dedupe: bool | None) -> int:
        return perft(pos, depth, "draughts", dedupe)

    def moves(pos: Position, dedupe: bool) -> list[Move]:
        return draughts_moves(pos, dedupe)

    return perft_tool(argv, "draughts", DRAUGHTS_BOARD, START, count, moves, draughts_play)
