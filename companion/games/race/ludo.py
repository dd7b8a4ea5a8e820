"""Ludo (rulebook 002, the four-pawn game).

A throw of one die; a 6 brings a pawn from the start area onto the start square and earns
another throw; a third 6 in a row is a foul that ends the turn; landing on an opponent sends
it back to its start area; two pawns of one colour never share a square; after a circuit a
pawn goes up its home column and needs the exact throw to reach home. The first player with
all four pawns home wins.

A pawn's position is its *progress*: -1 in the start area, 0 the start square, up to
``last_track_step`` on the track, then the home column, then home. The board is data
(config/boards/ludo.json).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.engine import (
    CHANCE,
    TERMINAL,
    Action,
    ChanceRequest,
    Event,
    Game,
    GameOver,
    GameSpec,
    IllegalAction,
    Option,
    Priority,
    State,
    Throw,
    TurnPasses,
)
from companion.games import register
from companion.games.race.common import BoardReader, load_board

YARD = -1
PAWN_LETTERS = "ABCDEFGH"

HOUSE_RULES = (
    "No blockades and no safe squares (the rulebook has neither): pawns jump over any pawn."
    " A 6 gives another throw even when it could not be used. The third 6 in a row is not"
    " played; the moves of the first two stand. A pawn may not enter while its own colour"
    " holds the start square; an opponent there is captured. A throw too high for a pawn"
    " near home leaves that pawn where it is. With two players the colours sit opposite."
    " The game ends when the first player has all pawns home."
)


# --------------------------------------------------------------------------- board


@dataclass(frozen=True)
class LudoBoard:
    track_squares: int
    colours: tuple[str, ...]
    start_squares: tuple[int, ...]  # 1-based square numbers
    last_track_step: int
    home_column: int
    pawns: int
    entry_throw: int
    two_player_colours: tuple[int, ...]

    @property
    def home(self) -> int:
        return self.last_track_step + self.home_column + 1

    def square(self, colour: int, progress: int) -> int | None:
        """The track square (1-based) of a pawn on the track, else None."""
        if not 0 <= progress <= self.last_track_step:
            return None
        return (self.start_squares[colour] - 1 + progress) % self.track_squares + 1


def read_ludo_board(data: Mapping[str, Any], path: str) -> LudoBoard:
    r = BoardReader(data, path)
    track = r.integer("track_squares", 8, 1000)
    colours = r.items("colours")
    if not 2 <= len(colours) <= 8 or not all(isinstance(c, str) for c in colours):
        raise r.fail("colours must be a list of 2 to 8 names")
    starts = r.items("start_squares")
    if len(starts) != len(colours):
        raise r.fail("start_squares needs one square per colour")
    start_squares = tuple(r.integer("start_squares", 1, track, s) for s in starts)
    if len(set(start_squares)) != len(start_squares):
        raise r.fail("two colours share a start square")
    two = tuple(r.integer("two_player_colours", 0, len(colours) - 1, c)
                for c in r.items("two_player_colours")) or (0, 1)
    return LudoBoard(
        track_squares=track,
        colours=tuple(colours),
        start_squares=start_squares,
        last_track_step=r.integer("last_track_step", 1, track - 1),
        home_column=r.integer("home_column", 0, 20),
        pawns=r.integer("pawns", 1, len(PAWN_LETTERS)),
        entry_throw=r.integer("entry_throw", 1, 6),
        two_player_colours=two,
    )


# --------------------------------------------------------------------------- actions, events


@dataclass(frozen=True)
class Move(Action):
    """Move (or bring out) one pawn by the die just thrown."""

    player: int
    pawn: int  # 0.. (A, B, C, D)

    def __str__(self) -> str:
        return f"move {PAWN_LETTERS[self.pawn]}"


@dataclass(frozen=True)
class Rolled(Event):
    player: int
    value: int
    key: ClassVar[str] = "ludo.rolled"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} throws {self.value}."


@dataclass(frozen=True)
class PawnMoved(Event):
    player: int
    pawn: int
    start: str  # words: "the start area", "square 12", "home column 2"
    end: str
    key: ClassVar[str] = "ludo.moved"

    def describe(self, names: Sequence[str]) -> str:
        letter = PAWN_LETTERS[self.pawn]
        return f"{names[self.player]} moves {letter} from {self.start} to {self.end}."


@dataclass(frozen=True)
class Captured(Event):
    player: int  # the capturing player
    victim: int
    pawn: int
    square: int
    key: ClassVar[str] = "ludo.captured"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return (f"{names[self.player]} captures {names[self.victim]}'s pawn"
                f" {PAWN_LETTERS[self.pawn]} on square {self.square}: back to the start area.")


@dataclass(frozen=True)
class NoMove(Event):
    player: int
    value: int
    key: ClassVar[str] = "ludo.no_move"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} cannot move with {self.value}."


@dataclass(frozen=True)
class ThrowAgain(Event):
    player: int
    key: ClassVar[str] = "ludo.again"

    def describe(self, names: Sequence[str]) -> str:
        return f"A six: {names[self.player]} throws again."


@dataclass(frozen=True)
class Foul(Event):
    player: int
    key: ClassVar[str] = "ludo.foul"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return f"A third six in a row is a foul: {names[self.player]} loses the turn."


# --------------------------------------------------------------------------- game


@register
class Ludo(Game):
    spec = GameSpec(
        name="ludo",
        title="Ludo",
        min_players=2,
        max_players=4,
        inputs=("dice",),
        rulebook="002: Ludo",
        aliases=("ludo-002",),
        options=(
            Option("board", "", "a board file instead of config/boards/ludo.json"),
            Option("auto_move", True, "make the move at once when only one is possible"),
        ),
        house_rules=HOUSE_RULES,
        default_players=("Red", "Yellow"),
    )
    action_types = {"Move": Move}

    def __init__(self, players: Sequence[str], options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        data, path = load_board("boards/ludo.json", str(self.options["board"]))
        self.board = read_ludo_board(data, path)
        n = len(self.players)
        if n > len(self.board.colours):
            raise ValueError(f"the board has {len(self.board.colours)} colours, not {n}")
        self.colours: tuple[int, ...] = (
            self.board.two_player_colours if n == 2 else tuple(range(n)))

    def new_state(self) -> LudoState:
        return LudoState(self)

    def max_length(self) -> int:
        return 200_000  # probabilistic: random games end long before

    def command_help(self) -> str:
        return ("  move A            move pawn A (A-D) by the throw (also: A, enter)\n"
                "  move 23           move the pawn on square 23\n"
                "  pawns             where every pawn is")

    def parse_action(self, state: State, text: str) -> Action:
        assert isinstance(state, LudoState)
        words = text.lower().split()
        if words and words[0] in {"move", "pawn", "play"}:
            words = words[1:]
        if not words:
            raise IllegalAction("Say which pawn: move A, or move and a square number")
        word = words[0]
        player = state.turn
        if word in {"enter", "out", "start"}:
            yard = [i for i, p in enumerate(state.pawns[player]) if p == YARD]
            if not yard:
                raise IllegalAction("No pawn is in the start area")
            return Move(player, yard[0])
        if len(word) == 1 and word.upper() in PAWN_LETTERS[: self.board.pawns]:
            return Move(player, PAWN_LETTERS.index(word.upper()))
        if word.isdigit():
            square = int(word)
            colour = self.colours[player]
            for i, prog in enumerate(state.pawns[player]):
                if self.board.square(colour, prog) == square:
                    return Move(player, i)
            raise IllegalAction(f"You have no pawn on square {square}")
        raise IllegalAction(f"{text!r} is not a move: say move A, or move and a square number")

    def query(self, state: State, text: str) -> str | None:
        assert isinstance(state, LudoState)
        if text.strip().lower() in {"pawns", "where", "board"}:
            return state.pawns_text()
        return None


class LudoState(State):
    game: Ludo

    def __init__(self, game: Ludo) -> None:
        self.game = game
        board = game.board
        self.pawns: list[list[int]] = [[YARD] * board.pawns for _ in game.players]
        self.turn = 0
        self.roll: int | None = None  # the throw waiting to be played
        self.sixes = 0  # sixes in a row this turn
        self.winner: int | None = None

    # --- positions and words ----------------------------------------------------

    @property
    def board(self) -> LudoBoard:
        return self.game.board

    def where(self, player: int, progress: int) -> str:
        b = self.board
        if progress == YARD:
            return "the start area"
        if progress >= b.home:
            return "home"
        square = b.square(self.game.colours[player], progress)
        if square is not None:
            return f"square {square}"
        return f"home column {progress - b.last_track_step}"

    def target(self, player: int, pawn: int, roll: int) -> int | None:
        """Where the pawn would go with ``roll``, or None if it may not move."""
        b = self.board
        prog = self.pawns[player][pawn]
        if prog >= b.home:
            return None
        if prog == YARD:
            if roll != b.entry_throw:
                return None
            dest = 0
        else:
            dest = prog + roll
            if dest > b.home:
                return None  # the exact throw is needed
        if dest < b.home and dest in self.pawns[player]:
            return None  # never two pawns of one colour on a square
        return dest

    def occupant(self, square: int) -> tuple[int, int] | None:
        for p, pawns in enumerate(self.pawns):
            colour = self.game.colours[p]
            for i, prog in enumerate(pawns):
                if self.board.square(colour, prog) == square:
                    return p, i
        return None

    def movable(self) -> list[int]:
        if self.roll is None:
            return []
        seen_yard = False
        out = []
        for i, prog in enumerate(self.pawns[self.turn]):
            if prog == YARD:
                if seen_yard:
                    continue  # pawns in the start area are alike: offer one
                seen_yard = True
            if self.target(self.turn, i, self.roll) is not None:
                out.append(i)
        return out

    # --- protocol ---------------------------------------------------------------

    def current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        return CHANCE if self.roll is None else self.turn

    def chance(self) -> ChanceRequest | None:
        if self.winner is not None or self.roll is not None:
            return None
        return ChanceRequest(kind="dice", count=1, who=self.turn)

    def legal_actions(self) -> list[Action]:
        return [Move(self.turn, i) for i in self.movable()]

    def apply(self, action: Action) -> list[Event]:
        if self.winner is not None:
            raise IllegalAction("The game is over.")
        if isinstance(action, Throw):
            request = self.chance()
            if request is None:
                raise IllegalAction(f"No throw is expected now: {self.expected()}")
            request.check(action)
            return self._throw(action.values[0])
        if not isinstance(action, Move):
            raise IllegalAction(f"{action} means nothing in Ludo")
        if self.roll is None:
            raise IllegalAction(f"Throw the die first. {self.expected()}")
        if action.player != self.turn:
            raise IllegalAction(f"It is {self.game.players[self.turn]}'s turn")
        if not 0 <= action.pawn < self.board.pawns:
            raise IllegalAction("There is no such pawn")
        if self.target(self.turn, action.pawn, self.roll) is None:
            raise IllegalAction(self._why_not(action.pawn))
        return self._move(action.pawn)

    def _why_not(self, pawn: int) -> str:
        prog = self.pawns[self.turn][pawn]
        letter = PAWN_LETTERS[pawn]
        b = self.board
        if prog >= b.home:
            return f"Pawn {letter} is home already"
        if prog == YARD and self.roll != b.entry_throw:
            return f"Pawn {letter} needs a {b.entry_throw} to come out"
        if prog != YARD and prog + (self.roll or 0) > b.home:
            return f"Pawn {letter} needs exactly {b.home - prog} to reach home"
        return f"Pawn {letter} would land on a pawn of its own colour"

    def _throw(self, value: int) -> list[Event]:
        events: list[Event] = [Rolled(self.turn, value)]
        if value == 6:
            self.sixes += 1
            if self.sixes == 3:
                events.append(Foul(self.turn))
                return events + self._next_player()
        self.roll = value
        options = self.movable()
        if not options:
            events.append(NoMove(self.turn, value))
            return events + self._after_move()
        if len(options) == 1 and self.game.options["auto_move"]:
            return events + self._move(options[0])
        return events  # the session says choices_text(): the pawns that may move

    def _move(self, pawn: int) -> list[Event]:
        player, roll = self.turn, self.roll
        assert roll is not None
        start = self.pawns[player][pawn]
        dest = self.target(player, pawn, roll)
        assert dest is not None
        events: list[Event] = []
        square = self.board.square(self.game.colours[player], dest)
        if square is not None:
            hit = self.occupant(square)
            if hit is not None and hit[0] != player:
                self.pawns[hit[0]][hit[1]] = YARD
                events.append(Captured(player, hit[0], hit[1], square))
        self.pawns[player][pawn] = dest
        events.insert(0, PawnMoved(player, pawn, self.where(player, start),
                                   self.where(player, dest)))
        if all(p >= self.board.home for p in self.pawns[player]):
            self.winner = player
            self.roll = None
            return [*events, GameOver((player,), "All pawns are home.")]
        return events + self._after_move()

    def _after_move(self) -> list[Event]:
        if self.roll == 6:
            self.roll = None
            return [ThrowAgain(self.turn)]
        return self._next_player()

    def _next_player(self) -> list[Event]:
        self.roll = None
        self.sixes = 0
        self.turn = (self.turn + 1) % len(self.game.players)
        return [TurnPasses(self.turn)]

    # --- views ------------------------------------------------------------------

    def winners(self) -> tuple[int, ...]:
        return () if self.winner is None else (self.winner,)

    def scores(self) -> list[float]:
        return [float(sum(1 for p in pawns if p >= self.board.home)) for pawns in self.pawns]

    def describe_action(self, action: Action) -> str:
        if isinstance(action, Move) and self.roll is not None:
            dest = self.target(action.player, action.pawn, self.roll)
            start = self.pawns[action.player][action.pawn]
            if dest is not None:
                return (f"{PAWN_LETTERS[action.pawn]} from {self.where(action.player, start)}"
                        f" to {self.where(action.player, dest)}")
        return str(action)

    def choices_text(self) -> str:
        if self.roll is None or self.winner is not None:
            return ""
        moves = self.legal_actions()
        if not moves:
            return ""
        return (f"{self.game.players[self.turn]} may move: "
                + "; ".join(self.describe_action(m) for m in moves) + ".")

    def pawns_text(self) -> str:
        parts = []
        for p, name in enumerate(self.game.players):
            where = ", ".join(f"{PAWN_LETTERS[i]} {self.where(p, prog)}"
                              for i, prog in enumerate(self.pawns[p]))
            parts.append(f"{name}: {where}")
        return ". ".join(parts) + "."

    def status(self) -> str:
        return f"{self.expected()}. {self.pawns_text()}"

    def clone(self) -> LudoState:
        return copy.deepcopy(self)

    def to_json(self) -> dict[str, Any]:
        b = self.board
        return {
            "game": self.game.spec.name,
            "players": list(self.game.players),
            "options": dict(self.game.options),
            "colours": [b.colours[c] for c in self.game.colours],
            "turn": self.turn,
            "roll": self.roll,
            "sixes_in_row": self.sixes,
            "pawns": [
                [{"pawn": PAWN_LETTERS[i], "progress": prog,
                  "square": b.square(self.game.colours[p], prog),
                  "where": self.where(p, prog)} for i, prog in enumerate(pawns)]
                for p, pawns in enumerate(self.pawns)
            ],
            "home_progress": b.home,
            "movable": [PAWN_LETTERS[i] for i in self.movable()],
            "winners": list(self.winners()),
        }
