"""Four in a Row (rulebook 002): two players place pieces in turn; four of one colour in a row,
horizontally, vertically or diagonally, wins. A full board with no line is a draw.

By default the board is the usual upright 7 columns by 6 rows and a piece drops to the lowest
empty place of its column (the rulebook only says "place your playing piece"). Options give
other sizes, another line length, and placing anywhere without gravity. On request (``threats``)
the companion says which columns win at once and which must be blocked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

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
    TurnPasses,
    counted,
)
from companion.games import agreement, register

HOUSE_RULES = (
    "The rulebook says only 'place your playing piece': by default the board stands upright,"
    " 7 columns by 6 rows, and a piece drops to the lowest empty place of its column (option"
    " gravity=no places it on any empty place). The first player named moves first. A full"
    " board with no line is a draw. Options columns, rows and connect change the size and the"
    " line length."
)

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))  # across, up, up-right, down-right


def cell_name(col: int, row: int) -> str:
    """``a1`` is the bottom-left place; columns are letters, rows numbers from the bottom."""
    return f"{chr(ord('a') + col)}{row + 1}"


def _and_list(items: Sequence[object]) -> str:
    words = [str(i) for i in items]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Drop(Action):
    """A piece dropped into a column (1-based, as players count them)."""

    player: int
    column: int

    def __str__(self) -> str:
        return str(self.column)


@dataclass(frozen=True)
class Place(Action):
    """A piece placed on a given place (no gravity); column and row 1-based, row 1 at bottom."""

    player: int
    column: int
    row: int

    def __str__(self) -> str:
        return cell_name(self.column - 1, self.row - 1)


# --------------------------------------------------------------------------- events


@dataclass(frozen=True)
class Placed(Event):
    player: int
    column: int  # 1-based
    row: int  # 1-based from the bottom
    gravity: bool
    key: ClassVar[str] = "four.placed"

    def describe(self, names: Sequence[str]) -> str:
        if self.gravity:
            return f"{names[self.player]} drops in column {self.column}, row {self.row}."
        return f"{names[self.player]} places on {cell_name(self.column - 1, self.row - 1)}."


@dataclass(frozen=True)
class LineMade(Event):
    player: int
    cells: tuple[str, ...]
    key: ClassVar[str] = "four.line"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} has {len(self.cells)} in a row: {_and_list(self.cells)}."


# --------------------------------------------------------------------------- state


AGREEMENTS = frozenset(agreement.ACTIONS.values())


class FourState(State):
    def __init__(self, game: FourInARow) -> None:
        self.game = game
        self.cols = int(game.options["columns"])
        self.rows = int(game.options["rows"])
        self.connect = int(game.options["connect"])
        self.gravity = bool(game.options["gravity"])
        # grid[col][row], row 0 at the bottom; -1 empty
        self.grid = [[-1] * self.rows for _ in range(self.cols)]
        self.turn = 0
        self.history: list[tuple[int, int]] = []
        self.line: tuple[tuple[int, int], ...] = ()
        self.winner: int | None = None
        self.full = False
        self.agreed = False  # drawn by agreement
        self.draw_offer: int | None = None  # the player whose draw offer stands

    # --- helpers -----------------------------------------------------------------

    def height(self, col: int) -> int:
        """The lowest empty row of a column (== rows when full)."""
        column = self.grid[col]
        for r in range(self.rows):
            if column[r] < 0:
                return r
        return self.rows

    def open_cells(self) -> list[tuple[int, int]]:
        if self.gravity:
            return [(c, self.height(c)) for c in range(self.cols) if self.height(c) < self.rows]
        return [(c, r) for c in range(self.cols) for r in range(self.rows) if self.grid[c][r] < 0]

    def line_through(self, col: int, row: int, player: int) -> tuple[tuple[int, int], ...]:
        """The longest line of ``player`` through (col, row) if it reaches ``connect``, as if
        ``player`` had a piece there."""
        best: tuple[tuple[int, int], ...] = ()
        for dc, dr in DIRECTIONS:
            cells = [(col, row)]
            for sign in (1, -1):
                c, r = col + sign * dc, row + sign * dr
                while 0 <= c < self.cols and 0 <= r < self.rows and self.grid[c][r] == player:
                    cells.append((c, r))
                    c, r = c + sign * dc, r + sign * dr
            if len(cells) >= self.connect and len(cells) > len(best):
                best = tuple(sorted(cells))
        return best

    def winning_cells(self, player: int) -> list[tuple[int, int]]:
        """Places where ``player`` would complete a line with the next piece."""
        return [(c, r) for c, r in self.open_cells() if self.line_through(c, r, player)]

    def _cell_of(self, action: Action) -> tuple[int, int]:
        """Validate ``action`` for the player to move and return its (col, row)."""
        if self.is_terminal():
            raise IllegalAction("The game is over.")
        names = self.game.players
        if not isinstance(action, Drop | Place):
            raise IllegalAction(f"{action} is not a move in Four in a Row.")
        if action.player != self.turn:
            raise IllegalAction(f"It is {names[self.turn]}'s turn.")
        if not 1 <= action.column <= self.cols:
            raise IllegalAction(f"There is no column {action.column}: columns are 1 to"
                                f" {self.cols}.")
        col = action.column - 1
        if self.gravity:
            if not isinstance(action, Drop):
                raise IllegalAction("Pieces drop to the bottom: say just the column.")
            row = self.height(col)
            if row >= self.rows:
                raise IllegalAction(f"Column {action.column} is full.")
            return col, row
        if not isinstance(action, Place):
            raise IllegalAction("Say the place, like c3 (column letter, row number).")
        if not 1 <= action.row <= self.rows:
            raise IllegalAction(f"There is no row {action.row}: rows are 1 to {self.rows}.")
        row = action.row - 1
        if self.grid[col][row] >= 0:
            raise IllegalAction(f"{cell_name(col, row)} is taken.")
        return col, row

    # --- State API ---------------------------------------------------------------

    def may_act(self, player: int) -> bool:
        # Either player may offer or answer a draw, or resign, at any time; the rules refuse
        # a move out of turn.
        return player in (0, 1)

    def current_player(self) -> int:
        return TERMINAL if self.winner is not None or self.full or self.agreed else self.turn

    def legal_actions(self) -> list[Action]:
        if self.is_terminal():
            return []
        if self.gravity:
            return [Drop(self.turn, c + 1) for c, _ in self.open_cells()]
        return [Place(self.turn, c + 1, r + 1) for c, r in self.open_cells()]

    def apply(self, action: Action) -> list[Event]:
        if type(action) in AGREEMENTS:
            return agreement.apply(self, action, self.game.players, self._end)
        col, row = self._cell_of(action)  # validated; nothing changed yet
        player = self.turn
        self.grid[col][row] = player
        self.history.append((col, row))
        events: list[Event] = [Placed(player, col + 1, row + 1, self.gravity)]
        events += agreement.after_move(self, player)
        line = self.line_through(col, row, player)
        if line:
            self.winner = player
            self.line = line
            cells = tuple(cell_name(c, r) for c, r in line)
            events.append(LineMade(player, cells))
            events.append(GameOver((player,), ""))
            return events
        if len(self.history) == self.cols * self.rows:
            self.full = True
            events.append(GameOver((), "The board is full with no line."))
            return events
        self.turn = 1 - player
        events.append(TurnPasses(self.turn))
        return events

    def _end(self, winners: tuple[int, ...], detail: str) -> None:
        if winners:
            self.winner = winners[0]
        else:
            self.agreed = True

    def clone(self) -> FourState:
        other = object.__new__(FourState)
        other.__dict__.update(self.__dict__)
        other.grid = [list(col) for col in self.grid]
        other.history = list(self.history)
        return other

    def winners(self) -> tuple[int, ...]:
        return () if self.winner is None else (self.winner,)

    def scores(self) -> list[float]:
        if self.winner is not None:
            return [1.0 if i == self.winner else 0.0 for i in range(2)]
        return [0.5, 0.5] if self.full or self.agreed else [0.0, 0.0]

    def describe_action(self, action: Action) -> str:
        if isinstance(action, Drop):
            return f"column {action.column}"
        return str(action)

    def threats(self) -> str:
        """Which columns (places) win at once for the player to move, and which must be blocked."""
        if self.is_terminal():
            return "The game is over."
        names = self.game.players
        me, other = self.turn, 1 - self.turn

        def where(cells: list[tuple[int, int]]) -> str:
            if self.gravity:
                cols = sorted({c + 1 for c, _ in cells})
                word = "column" if len(cols) == 1 else "columns"
                return f"{word} {_and_list(cols)}"
            return _and_list([cell_name(c, r) for c, r in sorted(cells)])

        wins = self.winning_cells(me)
        blocks = self.winning_cells(other)
        parts = []
        if wins:
            parts.append(f"{names[me]} wins at once in {where(wins)}.")
        if blocks:
            verb = "must block" if not wins else "would otherwise have to block"
            parts.append(f"{names[other]} threatens to win in {where(blocks)}: {names[me]}"
                         f" {verb} {'it' if len(blocks) == 1 else 'them'}"
                         + (", and cannot block both." if len(blocks) > 1 and not wins
                            else "."))
        if not parts:
            return f"No immediate win or threat for {names[me]} or {names[other]}."
        return " ".join(parts)

    def board_text(self) -> str:
        marks = "XO"
        lines = []
        for r in range(self.rows - 1, -1, -1):
            lines.append(" ".join(
                "." if self.grid[c][r] < 0 else marks[self.grid[c][r]] for c in range(self.cols)
            ))
        lines.append(" ".join(str(c + 1) if c < 9 else chr(ord("a") + c)
                              for c in range(self.cols)))
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "four-in-a-row",
            "columns": self.cols,
            "rows": self.rows,
            "connect": self.connect,
            "gravity": self.gravity,
            "to_move": None if self.is_terminal() else self.turn,
            "grid": [
                "".join("." if self.grid[c][r] < 0 else str(self.grid[c][r])
                        for c in range(self.cols))
                for r in range(self.rows - 1, -1, -1)
            ],
            "moves": [cell_name(c, r) for c, r in self.history],
            "draw_offer": None if self.draw_offer is None else self.game.players[self.draw_offer],
            "result": None if not self.is_terminal() else {
                "winners": list(self.winners()),
                "line": [cell_name(c, r) for c, r in self.line],
            },
        }

    def status(self) -> str:
        names = self.game.players
        each = ", ".join(f"{names[p]} {sum(col.count(p) for col in self.grid)}"
                         for p in range(len(names)))
        played = f"{counted(len(self.history), 'piece')} played: {each}."
        if self.is_terminal():
            if self.winner is not None:
                return f"{names[self.winner]} has won. {played}"
            return ("Drawn by agreement. " if self.agreed else "The board is full: a draw. "
                    ) + played
        return f"{played} {self.expected()}."


@register
class FourInARow(Game):
    spec = GameSpec(
        name="four-in-a-row",
        title="Four in a Row",
        min_players=2,
        max_players=2,
        inputs=("keyboard",),
        rulebook="002: Four in a Row",
        aliases=("connect-four", "four", "connect4"),
        options=(
            Option("columns", 7, "number of columns (4 to 20)"),
            Option("rows", 6, "number of rows (4 to 20)"),
            Option("connect", 4, "pieces in a row needed to win (3 to 10)"),
            Option("gravity", True, "pieces drop to the bottom of a column (no: place anywhere)"),
        ),
        house_rules=HOUSE_RULES,
        default_players=("White", "Black"),
    )
    action_types: ClassVar[dict[str, type[Action]]] = {"Drop": Drop, "Place": Place,
                                                       **agreement.ACTIONS}

    def __init__(self, players: Sequence[str], options: Any = None) -> None:
        super().__init__(players, options)
        for name, lo, hi in (("columns", 4, 20), ("rows", 4, 20), ("connect", 3, 10)):
            value = int(self.options[name])
            if not lo <= value <= hi:
                raise ValueError(f"option {name} must be {lo} to {hi}, not {value}")
        if int(self.options["connect"]) > max(int(self.options["columns"]),
                                               int(self.options["rows"])):
            raise ValueError("option connect is longer than the board")

    def new_state(self) -> FourState:
        return FourState(self)

    def max_length(self) -> int:
        return int(self.options["columns"]) * int(self.options["rows"])

    def parse_action(self, state: State, text: str) -> Action:
        assert isinstance(state, FourState)
        moved = 1 - state.turn if state.history else None
        agreed = agreement.parse(text, state.turn, moved, state.draw_offer)
        if agreed is not None:
            return agreed
        if state.is_terminal():
            raise IllegalAction("The game is over.")
        words = text.lower().replace("column", " ").replace("drop", " ").split()
        player = state.turn
        if state.gravity:
            if len(words) == 1 and words[0].isdigit():
                return Drop(player, int(words[0]))
            if len(words) == 1 and len(words[0]) == 1 and words[0].isalpha():
                return Drop(player, ord(words[0]) - ord("a") + 1)
            raise IllegalAction(f"Say a column number, 1 to {state.cols}, like: 4")
        token = "".join(words)
        if len(token) >= 2 and token[0].isalpha() and token[1:].isdigit():
            return Place(player, ord(token[0]) - ord("a") + 1, int(token[1:]))
        if len(words) == 2 and all(w.isdigit() for w in words):
            return Place(player, int(words[0]), int(words[1]))
        raise IllegalAction("Say a place: column letter and row number, like c3.")

    def query(self, state: State, text: str) -> str | None:
        assert isinstance(state, FourState)
        word = text.strip().lower()
        if word in ("threats", "threat", "wins", "hint"):
            return state.threats()
        if word in ("board", "show"):
            return state.board_text()
        return None

    def command_help(self) -> str:
        return (
            "  4 (or d)     drop a piece in column 4 (c3 when playing without gravity)\n"
            "  threats      columns that win at once, and those that must be blocked\n"
            "  board        the board as text\n"
            + agreement.help_text("  ")
        )
