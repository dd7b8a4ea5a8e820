"""What checkers and international draughts share above the move generator: the typed move
action, its notation (``11-15``, ``22x15``, ``22x15x8``, short ``22x8``), the spoken events,
the end of the game, repetition, the JSON view and the perft tool.

Player 0 plays the pieces on the low square numbers in checkers (who moves first) and the
pieces on the high numbers in draughts (White, who moves first); each game says which.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.engine import (
    TERMINAL,
    Action,
    Event,
    Game,
    GameOver,
    IllegalAction,
    Option,
    Priority,
    State,
    TurnPasses,
)
from companion.games import agreement
from companion.games.draughts.core import Geometry, Move, Position, format_fen, parse_fen
from companion.observations import MoveChosen, Observation

# --------------------------------------------------------------------------- action


@dataclass(frozen=True)
class PieceMove(Action):
    """One whole move: the squares visited (origin, landings..., target) and those taken."""

    player: int
    squares: tuple[int, ...]
    captured: tuple[int, ...] = ()

    def __str__(self) -> str:
        sep = "x" if self.captured else "-"
        return sep.join(str(s) for s in self.squares)

    @property
    def origin(self) -> int:
        return self.squares[0]

    @property
    def target(self) -> int:
        return self.squares[-1]


# --------------------------------------------------------------------------- events


def _and_list(items: Sequence[object]) -> str:
    words = [str(i) for i in items]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


@dataclass(frozen=True)
class Moved(Event):
    player: int
    origin: int
    target: int
    key: ClassVar[str] = "draughts.move"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} moves {self.origin} to {self.target}."


@dataclass(frozen=True)
class Jumped(Event):
    player: int
    squares: tuple[int, ...]
    taken: tuple[int, ...]
    key: ClassVar[str] = "draughts.jump"

    def describe(self, names: Sequence[str]) -> str:
        via = ""
        if len(self.squares) > 2:
            via = " by " + _and_list(self.squares[1:-1])
        return (
            f"{names[self.player]} jumps {self.squares[0]} to {self.squares[-1]}{via},"
            f" taking {_and_list(self.taken)}."
        )


@dataclass(frozen=True)
class Crowned(Event):
    player: int
    square: int
    key: ClassVar[str] = "draughts.crowned"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]}'s man on {self.square} is crowned king."


@dataclass(frozen=True)
class NotCrowned(Event):
    """A man passed over the king row during a capture but ended elsewhere (draughts)."""

    player: int
    square: int
    key: ClassVar[str] = "draughts.not_crowned"

    def describe(self, names: Sequence[str]) -> str:
        return (
            f"{names[self.player]}'s man passed the king row but ends on {self.square},"
            " so it is not crowned."
        )


@dataclass(frozen=True)
class DrawCount(Event):
    """A draw count started or is running (endgame rules, moves without progress)."""

    rule: str
    moves_left: int
    key: ClassVar[str] = "draughts.draw_count"
    priority: ClassVar[int] = Priority.CHATTER

    def describe(self, names: Sequence[str]) -> str:
        unit = "move" if self.moves_left == 1 else "moves"
        return f"{self.rule}: a draw in {self.moves_left} more {unit} each."


# --------------------------------------------------------------------------- state


class BoardState(State):
    """A checkers or draughts position with its history counters.

    Subclasses give the geometry, the move generator, which side player 0 is, and the draw
    rules (``_draw_after``)."""

    geometry: ClassVar[Geometry]
    player0_bottom: ClassVar[bool]
    game_name: ClassVar[str]

    def __init__(self, game: Any, pos: Position) -> None:
        self.game = game
        self.pos = pos
        self.plies = 0
        self.quiet_plies = 0  # plies since the last capture or man move
        self.material = self._material()
        self.material_plies = 0  # plies since the material last changed
        self.seen: dict[Position, int] = {pos: 1}  # since the last irreversible move
        self.result: tuple[tuple[int, ...], str] | None = None
        self.draw_offer: int | None = None  # the player whose draw offer stands
        self._cache: tuple[Position, list[Move]] | None = None
        self._check_end()

    flying_kings: ClassVar[bool] = False  # draughts: kings move any distance

    # --- to be provided ----------------------------------------------------------

    def _generate(self) -> list[Move]:
        raise NotImplementedError

    def _play(self, move: Move) -> Position:
        raise NotImplementedError

    def _draw_after(self) -> str | None:
        """The reason for a draw in the current position, or None."""
        raise NotImplementedError

    def _draw_progress(self) -> list[Event]:
        return []

    def _refusal(self, text: str, origin: int, target: int) -> str:
        """A reason for refusing a move from ``origin`` to ``target`` that is not legal."""
        g = self.geometry
        tbit = 1 << g.bit(target)
        if (self.pos.bottom | self.pos.top) & tbit:
            return f"{text} is not legal: square {target} is occupied."
        obit = 1 << g.bit(origin)
        mine = self.pos.bottom if self.pos.bottom_to_move else self.pos.top
        if not mine & obit:
            return f"{text} is not legal: there is no {self.game.players[self.to_move()]} piece" \
                f" on {origin}."
        pending = capture_reason(self, text, origin, target)
        if pending and not any(
            isinstance(a, PieceMove) and a.origin == origin and a.target == target
            for a in self.legal_actions()
        ):
            return pending
        king = bool(self.pos.kings & obit)
        (row_from, col_from), (row_to, col_to) = g.row_col(origin), g.row_col(target)
        if not king:
            forward = row_to < row_from if self.pos.bottom_to_move else row_to > row_from
            if not forward:
                return f"{text} is not legal: a man moves only forwards."
        rows, cols = abs(row_to - row_from), abs(col_to - col_from)
        if rows != cols:
            return f"{text} is not legal: pieces move along a diagonal."
        if rows > 1 and not self._jumps_over_one(origin, target):
            if not king:
                return (f"{text} is not legal: a man moves one square diagonally forward, or"
                        f" jumps over an opponent's piece.")
            if not self.flying_kings:
                return (f"{text} is not legal: a king moves one square diagonally, forwards or"
                        f" backwards, or jumps over an opponent's piece; kings do not fly in"
                        f" {self.game.spec.title.lower()}.")
        return f"{text} is not a legal move."

    def _jumps_over_one(self, origin: int, target: int) -> bool:
        """A two-square diagonal step over an opponent's piece (the shape of a jump)."""
        g = self.geometry
        (r1, c1), (r2, c2) = g.row_col(origin), g.row_col(target)
        if abs(r2 - r1) != 2:
            return False
        middle = g.at((r1 + r2) // 2, (c1 + c2) // 2)
        theirs = self.pos.top if self.pos.bottom_to_move else self.pos.bottom
        return middle is not None and bool(theirs & (1 << g.bit(middle)))

    # --- helpers -----------------------------------------------------------------

    def side_of(self, player: int) -> bool:
        """True when ``player`` plays the bottom pieces (high square numbers)."""
        return (player == 0) == self.player0_bottom

    def may_act(self, player: int) -> bool:
        # Either player may offer or answer a draw, or resign, at any time; the rules refuse
        # a move out of turn.
        return player in (0, 1)

    def to_move(self) -> int:
        return 0 if self.pos.bottom_to_move == self.player0_bottom else 1

    def moves(self) -> list[Move]:
        if self._cache is None or self._cache[0] != self.pos:
            self._cache = (self.pos, self._generate())
        return self._cache[1]

    def _material(self) -> tuple[object, ...]:
        p = self.pos
        return (
            (p.bottom & ~p.kings).bit_count(), (p.bottom & p.kings).bit_count(),
            (p.top & ~p.kings).bit_count(), (p.top & p.kings).bit_count(),
        )

    def to_action(self, move: Move) -> PieceMove:
        g = self.geometry
        squares = (g.square(move.origin), *(g.square(b) for b in move.path))
        captured = tuple(sorted(g.square(b) for b in _bits(move.captured)))
        return PieceMove(self.to_move(), squares, captured)

    def _notation(self, action: PieceMove) -> str:
        return str(action)

    # --- State API ---------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self.result is not None else self.to_move()

    def winners(self) -> tuple[int, ...]:
        return self.result[0] if self.result else ()

    def scores(self) -> list[float]:
        if self.result is None:
            return [0.0, 0.0]
        winners = self.result[0]
        if not winners:
            return [0.5, 0.5]
        return [1.0 if i in winners else 0.0 for i in range(2)]

    def legal_actions(self) -> list[Action]:
        if self.result is not None:
            return []
        return [self.to_action(m) for m in self.moves()]

    def describe_action(self, action: Action) -> str:
        return self._notation(action) if isinstance(action, PieceMove) else str(action)

    def _match(self, action: PieceMove) -> Move:
        for move in self.moves():
            if self.to_action(move) == action:
                return move
        raise IllegalAction(self._refusal(str(action), action.origin, action.target),
                            position=self.fen())

    def apply(self, action: Action) -> list[Event]:
        if type(action) in AGREEMENTS:
            return agreement.apply(self, action, self.game.players, self._end)
        if self.result is not None:
            raise IllegalAction("The game is over.")
        if not isinstance(action, PieceMove):
            raise IllegalAction(f"{action} is not a move in {self.game.spec.title}.")
        player = self.to_move()
        if action.player != player:
            raise IllegalAction(f"It is {self.game.players[player]}'s turn.")
        move = self._match(action)  # validated: nothing has changed yet
        g = self.geometry
        was_king = bool(self.pos.kings >> move.origin & 1)
        events: list[Event] = []
        if action.captured:
            events.append(Jumped(player, action.squares, action.captured))
        else:
            events.append(Moved(player, action.origin, action.target))
        events += agreement.after_move(self, player)
        self.pos = self._play(move)
        self.plies += 1
        if not was_king and self.pos.kings >> move.target & 1:
            events.append(Crowned(player, action.target))
        elif not was_king:
            row = self.geometry.rows - 1 if not self.side_of(player) else 0
            if any(g.row_col(s)[0] == row for s in action.squares[1:-1]):
                events.append(NotCrowned(player, action.target))
        if move.captured or not was_king:
            self.quiet_plies = 0
            self.seen = {}
        else:
            self.quiet_plies += 1
        material = self._material()
        if material != self.material:
            self.material = material
            self.material_plies = 0
        else:
            self.material_plies += 1
        self.seen[self.pos] = self.seen.get(self.pos, 0) + 1
        self._check_end()
        if self.result is not None:
            winners, reason = self.result
            events.append(GameOver(winners, reason))
        else:
            events.extend(self._draw_progress())
            events.append(TurnPasses(self.to_move()))
        return events

    def _end(self, winners: tuple[int, ...], detail: str) -> None:
        self.result = (winners, detail)

    def _check_end(self) -> None:
        names = self.game.players
        mover = self.to_move()
        mine = self.pos.bottom if self.pos.bottom_to_move else self.pos.top
        if not mine:
            self.result = ((1 - mover,), f"{names[mover]} has no pieces left.")
        elif not self.moves():
            self.result = ((1 - mover,), f"{names[mover]} cannot move.")
        else:
            reason = self._draw_after()
            if reason:
                self.result = ((), reason)

    def repetitions(self) -> int:
        return self.seen.get(self.pos, 0)

    def clone(self) -> BoardState:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.seen = dict(self.seen)
        return other

    def fen(self) -> str:
        return format_fen(self.pos, self.geometry)

    def pieces(self, player: int) -> tuple[list[int], list[int]]:
        g = self.geometry
        mask = self.pos.bottom if self.side_of(player) else self.pos.top
        men = [g.square(b) for b in _bits(mask & ~self.pos.kings)]
        kings = [g.square(b) for b in _bits(mask & self.pos.kings)]
        return sorted(men), sorted(kings)

    def to_json(self) -> dict[str, Any]:
        players = []
        for i, name in enumerate(self.game.players):
            men, kings = self.pieces(i)
            players.append({"name": name, "side": "white" if self.side_of(i) else "black",
                            "men": men, "kings": kings})
        result = None
        if self.result is not None:
            result = {"winners": list(self.result[0]), "reason": self.result[1]}
        return {
            "game": self.game_name,
            "fen": self.fen(),
            "to_move": None if self.result else self.to_move(),
            "players": players,
            "plies": self.plies,
            "quiet_plies": self.quiet_plies,
            "material_plies": self.material_plies,
            "legal": [self.describe_action(a) for a in self.legal_actions()],
            "result": result,
            "draw_offer": None if self.draw_offer is None else self.game.players[self.draw_offer],
            "options": dict(self.game.options),
        }

    def status(self) -> str:
        if self.result is not None:
            return GameOver(*self.result).describe(self.game.players)
        parts = []
        for i, name in enumerate(self.game.players):
            men, kings = self.pieces(i)
            parts.append(f"{name} has {len(men)} men and {len(kings)} kings")
        return "; ".join(parts) + f". {self.expected()}."

    def board_text(self) -> str:
        """The board as text with its square numbers, square 1 at the top: each playable
        square is its number and what stands on it ('m'/'k' the men and kings of the side
        that started on the low squares, 'M'/'K' the other side's, '.' empty)."""
        g = self.geometry
        lines = []
        for row in range(g.rows):
            cells = []
            for col in range(g.rows):
                sq = g.at(row, col)
                if sq is None:
                    cells.append("    ")
                    continue
                b = 1 << g.bit(sq)
                king = bool(self.pos.kings & b)
                if self.pos.bottom & b:
                    mark = "K" if king else "M"
                elif self.pos.top & b:
                    mark = "k" if king else "m"
                else:
                    mark = "."
                cells.append(f"{sq:>3}{mark}")
            lines.append("".join(cells).rstrip())
        names = self.game.players
        low = next(i for i in range(2) if not self.side_of(i))
        lines.append(f"m/k: {names[low]}'s men and kings; M/K: {names[1 - low]}'s.")
        return "\n".join(lines)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# --------------------------------------------------------------------------- notation

_SEP = r"(?:\s*[-x:]\s*|\s+)"
_MOVE_TEXT = re.compile(rf"^\s*\d+{_SEP}\d+(?:{_SEP}\d+)*\s*$", re.I)


AGREEMENTS = frozenset(agreement.ACTIONS.values())


# --------------------------------------------------------------------------- at the table

TABLE_OPTIONS = (
    Option("engine", "", "builtin: play against the built-in search (hint and eval too)",
           ("", "builtin")),
    Option("side", "first", "the side you play against it: first, second, or both (hint"
           " and eval only)", ("first", "second", "both")),
    Option("level", 2, "the search's strength, 1 (a beginner) to 4"),
    Option("time", "", "a time control, minutes+increment seconds (15+10)"),
)


class TableGame(Game):
    """Checkers and draughts at the table: an engine may play one side (its moves arrive as
    ``MoveChosen`` observations for one position, from companion/opponent.py)."""

    def engine_side(self) -> int | None:
        side = str(self.options.get("side", "both"))
        if str(self.options.get("engine") or "") != "builtin" or side == "both":
            return None
        return 1 if side == "first" else 0

    def query(self, state: State, text: str) -> str | None:
        if text.strip().lower() in ("hint", "eval"):  # with --engine, the opponent answers
            return ("Hints and eval come from the computer: play with --engine builtin"
                    " (--side both for hints only).")
        return None

    def interpret(self, state: State, observation: Observation) -> Action:
        if isinstance(observation, MoveChosen):
            assert isinstance(state, BoardState)
            if observation.position != position_key(state) or state.is_terminal() \
                    or state.to_move() != self.engine_side():
                raise StaleMove("A move chosen for an earlier position; ignored.")
            return parse_move(state, observation.move)
        return super().interpret(state, observation)


class StaleMove(IllegalAction):
    quiet = True


def position_key(state: BoardState) -> str:
    return f"{state.fen()} {state.plies}"


def parse_command(state: BoardState, text: str) -> Action:
    """A move, or a draw offer, its answer, or a resignation."""
    moved = 1 - state.to_move() if state.plies else None
    agreed = agreement.parse(text, state.to_move(), moved, state.draw_offer)
    if agreed is not None:
        return agreed
    if state.is_terminal():
        raise IllegalAction("The game is over.")
    side = state.game.engine_side() if isinstance(state.game, TableGame) else None
    if side is not None and side == state.to_move():
        raise IllegalAction(f"{state.game.players[side]} is played by the computer: wait for"
                            " its move (or say undo).")
    return parse_move(state, text)


def parse_move(state: BoardState, text: str) -> PieceMove:
    """Read ``11-15``, ``22x15``, ``22x15x8`` or the short ``22x8`` into the legal move meant.

    Squares between the first and last must be landing squares of the move, in order; the
    short form is accepted when only one legal move fits.
    """
    text = re.sub(r"\s+(?:to|takes|by)\s+", "-", text.lower())
    m = _MOVE_TEXT.match(text)
    if not m:
        raise IllegalAction(f"I don't understand {text.strip()!r}: say a move like 11-15 or 22x15")
    numbers = [int(n) for n in re.findall(r"\d+", text)]
    g = state.geometry
    bad = [n for n in numbers if not 1 <= n <= g.squares]
    if bad:
        raise IllegalAction(f"There is no square {bad[0]}: squares are 1 to {g.squares}.")
    origin, target, middle = numbers[0], numbers[-1], numbers[1:-1]
    player = state.to_move()
    name = state.game.players[player]
    fits = []
    for action in state.legal_actions():
        assert isinstance(action, PieceMove)
        if action.origin != origin or action.target != target:
            continue
        if middle and not _subsequence(middle, action.squares[1:-1]):
            continue
        fits.append(action)
    if len(fits) == 1:
        return fits[0]
    if len(fits) > 1:
        options = " or ".join(str(a) for a in fits)
        raise IllegalAction(
            f"{text.strip()} could be {options}: say the squares in between."
        )
    mine = state.pos.bottom if state.pos.bottom_to_move else state.pos.top
    theirs = state.pos.top if state.pos.bottom_to_move else state.pos.bottom
    bit = 1 << g.bit(origin)
    if not mine & bit:
        if theirs & bit:
            raise IllegalAction(f"The piece on {origin} is not {name}'s.")
        raise IllegalAction(f"There is no {name} piece on {origin}.")
    raise IllegalAction(state._refusal(text.strip(), origin, target), position=state.fen())


def _subsequence(needle: Sequence[int], hay: Sequence[int]) -> bool:
    it = iter(hay)
    return all(any(x == y for y in it) for x in needle)


def capture_reason(state: BoardState, text: str, origin: int, target: int) -> str | None:
    """Why a move is refused when captures are pending (compulsory capture)."""
    actions = [a for a in state.legal_actions() if isinstance(a, PieceMove)]
    captures = [a for a in actions if a.captured]
    if not captures:
        return None
    examples = " or ".join(state.describe_action(a) for a in captures[:4])
    more = "" if len(captures) <= 4 else f" ({len(captures)} ways in all)"
    return f"{text} is not allowed: a capture is compulsory. Take with {examples}{more}."


# --------------------------------------------------------------------------- perft tool


def perft_tool(
    argv: list[str], game: str, geometry: Geometry, start: str,
    count: Callable[[Position, int, bool | None], int],
    moves: Callable[[Position, bool], list[Move]], play: Callable[[Position, Move], Position],
) -> int:
    parser = argparse.ArgumentParser(prog=f"companion perft {game}")
    parser.add_argument("depth", type=int)
    parser.add_argument("--position", "--fen", default=start,
                        help=f"a PDN FEN such as {start} (default: the start)")
    parser.add_argument("--divide", action="store_true", help="count below each first move")
    parser.add_argument("--dedupe", choices=("yes", "no"), default=None,
                        help="count captures that differ only in order once (draughts default)"
                        " or every path (checkers default)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.depth < 0:
        parser.error("depth must be 0 or more")
    try:
        pos = parse_fen(args.position, geometry)
    except ValueError as exc:
        parser.error(str(exc))
    dedupe = None if args.dedupe is None else args.dedupe == "yes"
    started = time.perf_counter()
    divide: dict[str, int] = {}
    if args.divide and args.depth > 0:
        dd = (game == "draughts") if dedupe is None else dedupe
        first = moves(pos, dd)
        if dd:
            first = list({(m.origin, m.target, m.captured): m for m in first}.values())
        for m in first:
            sep = "x" if m.captured else "-"
            label = sep.join(str(geometry.square(b)) for b in (m.origin, *m.path))
            divide[label] = divide.get(label, 0) + count(play(pos, m), args.depth - 1, dedupe)
        nodes = sum(divide.values())
    else:
        nodes = count(pos, args.depth, dedupe)
    seconds = time.perf_counter() - started
    if args.json:
        out: dict[str, Any] = {"game": game, "fen": format_fen(pos, geometry),
                               "depth": args.depth, "nodes": nodes,
                               "seconds": round(seconds, 3)}
        if args.divide:
            out["divide"] = divide
        print(json.dumps(out, indent=2))
    else:
        for label, n in divide.items():
            print(f"{label}: {n}")
        print(f"perft({args.depth}) = {nodes}  ({seconds:.2f} s)")
    return 0
