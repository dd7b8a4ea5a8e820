"""Snakes and Ladders (rulebook 002), on the classic 100-square board by default.

Rules: players take turns to throw; a token landing at the foot of a ladder climbs it, one
landing on a snake's head slides down it; the exact number is needed to land on the last
square (a throw that is too high: the token stays and the turn passes); a token landing on a
square already occupied moves on to the next square. The first to land on the last square wins.
Choices where the text is silent are in docs/games/snakes-ladders.md and ``house_rules``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.engine import Event, GameSpec, Option
from companion.games import register
from companion.games.race.common import (
    BoardReader,
    Moved,
    RaceGame,
    RaceState,
    TooHigh,
    board_option,
    throw_words,
)
from companion.games.race.common import (
    stats_main as race_stats,
)

HOUSE_RULES = (
    "One die (option dice_count=2 for two). A throw past the last square leaves the token where it"
    " is and the turn passes (option overshoot=bounce counts the surplus back instead). A token"
    " that comes to rest on an occupied square moves on one square, again and again while that"
    " square is occupied too; a ladder foot or snake head reached by moving on is taken. Moving"
    " on from the square before the last reaches the last square and wins. Ladders and snakes"
    " do not chain: a board may not end one on the start of another. Several tokens may share"
    " the start."
)


# --------------------------------------------------------------------------- events


@dataclass(frozen=True)
class Climbed(Event):
    """Up a ladder; ``values`` is the throw when the throw itself reached the foot."""

    player: int
    values: tuple[int, ...]
    foot: int
    top: int
    key: ClassVar[str] = "snakes.ladder"

    def describe(self, names: Sequence[str]) -> str:
        name = names[self.player]
        lead = (
            f"{name} throws {throw_words(self.values)} and climbs"
            if self.values
            else (f"{name} climbs")
        )
        return f"{lead} the ladder from {self.foot} to {self.top}."


@dataclass(frozen=True)
class Slid(Event):
    """Down a snake; ``values`` is the throw when the throw itself reached the head."""

    player: int
    values: tuple[int, ...]
    head: int
    tail: int
    key: ClassVar[str] = "snakes.snake"

    def describe(self, names: Sequence[str]) -> str:
        name = names[self.player]
        lead = (
            f"{name} throws {throw_words(self.values)} and slides"
            if self.values
            else (f"{name} slides")
        )
        return f"{lead} down the snake from {self.head} to {self.tail}."


@dataclass(frozen=True)
class MovedOn(Event):
    """The square reached was occupied, so the token moves on to the next one."""

    player: int
    taken: int
    to: int
    key: ClassVar[str] = "snakes.moved_on"

    def describe(self, names: Sequence[str]) -> str:
        return f"{self.taken} is taken, so {names[self.player]} moves on to {self.to}."


@dataclass(frozen=True)
class Bounced(Event):
    """Option overshoot=bounce: the surplus past the last square is counted back."""

    player: int
    values: tuple[int, ...]
    start: int
    end: int
    last: int
    key: ClassVar[str] = "snakes.bounced"

    def describe(self, names: Sequence[str]) -> str:
        return (
            f"{names[self.player]} throws {throw_words(self.values)}, reaches {self.last}"
            f" and counts back to {self.end}."
        )


# --------------------------------------------------------------------------- board


@dataclass(frozen=True)
class SnakesBoard:
    squares: int  # the last square, "home"
    jumps: Mapping[int, int]  # ladder foot -> top, snake head -> tail


def read_snakes_board(reader: BoardReader) -> SnakesBoard:
    squares = reader.integer("squares", 13, 10_000)
    jumps: dict[int, int] = {}
    for kind, upward in (("ladders", True), ("snakes", False)):
        for index, pair in enumerate(reader.items(kind)):
            where = f"{kind}[{index}]"
            if not isinstance(pair, list) or len(pair) != 2:
                raise reader.fail(f"{where} must be a pair [from, to], not {pair!r}")
            start = reader.integer(kind, 1, squares - 1, pair[0], f"{where} from")
            end = reader.integer(kind, 1, squares, pair[1], f"{where} to")
            if upward and end <= start:
                raise reader.fail(f"{where}: a ladder must go up, {start} to {end} does not")
            if not upward and end >= start:
                raise reader.fail(f"{where}: a snake must go down, {start} to {end} does not")
            if start in jumps:
                raise reader.fail(f"{where}: square {start} already starts a ladder or snake")
            jumps[start] = end
    for start, end in jumps.items():
        if end in jumps:
            raise reader.fail(
                f"the ladder or snake from {start} ends on {end}, which starts another one"
            )
    return SnakesBoard(squares=squares, jumps=jumps)


# --------------------------------------------------------------------------- game


@register
class SnakesAndLadders(RaceGame):
    spec = GameSpec(
        name="snakes-ladders",
        title="Snakes and Ladders",
        min_players=2,
        max_players=6,
        inputs=("dice",),
        rulebook="002: Snakes and Ladders",
        aliases=("snakes", "snakes-and-ladders", "snakes and ladders", "chutes-and-ladders"),
        options=(
            board_option("boards/snakes-ladders.json"),
            Option("dice_count", 1, "number of dice thrown each turn", (1, 2)),
            Option(
                "overshoot",
                "pass",
                "a throw past the last square: pass (stay, the rulebook) or bounce (count back)",
                ("pass", "bounce"),
            ),
        ),
        house_rules=HOUSE_RULES,
    )
    tools = {"stats": "companion.games.race.snakes_ladders:stats_main"}
    board_file = "boards/snakes-ladders.json"

    def read_board(self, reader: BoardReader) -> None:
        self.board = read_snakes_board(reader)

    def dice_count(self) -> int:
        return int(self.options["dice_count"])

    def new_state(self) -> SnakesState:
        return SnakesState(self)


class SnakesState(RaceState):
    game: SnakesAndLadders

    def throw(self, values: tuple[int, ...]) -> list[Event]:
        board = self.game.board
        player = self.turn
        start = self.positions[player]
        target = start + sum(values)
        events: list[Event] = []
        if target > board.squares:
            if self.game.options["overshoot"] == "pass":
                return [TooHigh(player, values, board.squares - start), *self.pass_turn()]
            target = 2 * board.squares - target
            events.append(Bounced(player, values, start, target, board.squares))
            square = self.follow(player, target, (), events)
        else:
            # The throw reaching a ladder or snake is said in one sentence with the throw.
            if target not in board.jumps:
                events.append(Moved(player, values, start, target))
            square = self.follow(player, target, values, events)
        self.positions[player] = square
        if square == board.squares:
            return events + self.finish(player)
        return events + self.pass_turn()

    def follow(self, player: int, square: int, values: tuple[int, ...], out: list[Event]) -> int:
        """Where a token reaching ``square`` comes to rest: ladders, snakes, moving on."""
        board = self.game.board
        if square in board.jumps:
            square = self.jump(player, square, values, out)
        seen: set[int] = set()
        while 0 < square < board.squares and self.occupied(square, player):
            if square in seen:  # only a custom board can loop; stay on the shared square
                break
            seen.add(square)
            out.append(MovedOn(player, square, square + 1))
            square += 1
            if square in board.jumps:
                square = self.jump(player, square, (), out)
        return square

    def jump(self, player: int, square: int, values: tuple[int, ...], out: list[Event]) -> int:
        end = self.game.board.jumps[square]
        kind = Climbed if end > square else Slid
        out.append(kind(player, values, square, end))
        return end

    def occupied(self, square: int, player: int) -> bool:
        return any(p == square for i, p in enumerate(self.positions) if i != player)

    def extra_json(self) -> dict[str, Any]:
        return {"last_square": self.game.board.squares}


def stats_main(argv: list[str]) -> int:
    """``companion stats snakes-ladders``: game lengths and win shares over seeded random games."""
    return race_stats("snakes-ladders", argv)
