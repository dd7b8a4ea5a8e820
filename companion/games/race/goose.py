"""The Game of the Goose (rulebook 002): two dice, 63 squares, geese and perils.

Rules: the Bridge (6) leads to 14, the Coffin (18) back to the start, the Maze (24) back to
10; the Well (30) needs a double to leave; the Donkey (48) misses a turn. Landing on a goose
doubles the move. An exact count on one or both dice reaches the centre (63); a surplus is
counted back. Landing on another player's square sends that player to where the arriving
player began the turn. Choices where the text is silent: docs/games/goose.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.engine import Event, GameSpec, Option, Priority, TurnPasses, number_word
from companion.games import register
from companion.games.race.common import (
    BoardReader,
    RaceGame,
    RaceState,
    board_option,
    square_words,
    throw_words,
)
from companion.games.race.common import (
    stats_main as race_stats,
)

HOUSE_RULES = (
    "A goose repeats the whole throw in the direction the token is moving (backwards after a"
    " count back from 63); a goose reached that way doubles again (option goose_chain=no: only"
    " once). One die alone may give the exact count to 63 (option exact_one_die=no: only the"
    " total). The squares the Bridge, Coffin and Maze lead to are final: no goose or other"
    " square acts there. A player in the Well throws on each turn and leaves only with a"
    " double, moving by its total. A player sent back by another is placed on the square"
    " without its effect (sent into the Well, they are in the Well). The start is shared."
)


# --------------------------------------------------------------------------- events


@dataclass(frozen=True)
class GooseMoved(Event):
    player: int
    values: tuple[int, ...]
    start: int
    end: int
    key: ClassVar[str] = "goose.moved"

    def describe(self, names: Sequence[str]) -> str:
        where = f"from {self.start} to {self.end}" if self.start else f"to {self.end}"
        return f"{names[self.player]} throws {throw_words(self.values)} and moves {where}."


@dataclass(frozen=True)
class ExactOneDie(Event):
    """One die alone gave the exact count to the centre (rulebook: "on one or both dice")."""

    player: int
    values: tuple[int, ...]
    die: int
    start: int
    end: int
    key: ClassVar[str] = "goose.exact_die"

    def describe(self, names: Sequence[str]) -> str:
        return (
            f"{names[self.player]} throws {throw_words(self.values)}: the"
            f" {number_word(self.die)} alone takes {names[self.player]} from {self.start}"
            f" to {self.end}."
        )


@dataclass(frozen=True)
class CountedBack(Event):
    """The throw went past the centre: the surplus is counted back."""

    player: int
    values: tuple[int, ...]
    start: int
    last: int
    surplus: int
    end: int
    key: ClassVar[str] = "goose.counted_back"

    def describe(self, names: Sequence[str]) -> str:
        forward = self.last - self.start
        return (
            f"{names[self.player]} throws {throw_words(self.values)}: {forward} to"
            f" {self.last} and {self.surplus} back, to {square_words(self.end)}."
        )


@dataclass(frozen=True)
class GooseFlies(Event):
    """A goose repeats the throw in the direction of travel (surplus counted back at 63)."""

    player: int
    square: int
    steps: int
    backwards: bool
    surplus: int
    end: int
    key: ClassVar[str] = "goose.goose"

    def describe(self, names: Sequence[str]) -> str:
        head = f"{self.square} is a goose: {names[self.player]} flies"
        if self.surplus:
            return (
                f"{head} on {self.steps} more, to the centre and {self.surplus} back,"
                f" to {square_words(self.end)}."
            )
        way = "back" if self.backwards else "on"
        return f"{head} {way} {self.steps} more, to {square_words(self.end)}."


@dataclass(frozen=True)
class Jumped(Event):
    """The Bridge, the Coffin, the Maze: a square that sends the token elsewhere."""

    player: int
    name: str
    square: int
    to: int
    key: ClassVar[str] = "goose.jump"

    def describe(self, names: Sequence[str]) -> str:
        way = "on" if self.to > self.square else "back"
        return (
            f"{names[self.player]} lands on {self.name} at {self.square} and goes {way}"
            f" to {square_words(self.to)}."
        )


@dataclass(frozen=True)
class IntoWell(Event):
    player: int
    name: str
    square: int
    key: ClassVar[str] = "goose.well"

    def describe(self, names: Sequence[str]) -> str:
        return (
            f"{names[self.player]} falls into {self.name} at {self.square} and needs a double"
            " to get out."
        )


@dataclass(frozen=True)
class StaysInWell(Event):
    player: int
    values: tuple[int, ...]
    name: str
    key: ClassVar[str] = "goose.stays_in_well"

    def describe(self, names: Sequence[str]) -> str:
        name = names[self.player]
        return f"{name} throws {throw_words(self.values)}, no double: {name} stays in {self.name}."


@dataclass(frozen=True)
class OutOfWell(Event):
    player: int
    name: str
    key: ClassVar[str] = "goose.out_of_well"

    def describe(self, names: Sequence[str]) -> str:
        return f"A double: {names[self.player]} climbs out of {self.name}."


@dataclass(frozen=True)
class MissTurns(Event):
    player: int
    name: str
    square: int
    turns: int
    key: ClassVar[str] = "goose.miss"

    def describe(self, names: Sequence[str]) -> str:
        what = "the next turn" if self.turns == 1 else f"the next {number_word(self.turns)} turns"
        return f"{names[self.player]} meets {self.name} at {self.square} and misses {what}."


@dataclass(frozen=True)
class TurnMissed(Event):
    player: int
    key: ClassVar[str] = "goose.turn_missed"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} misses this turn."


@dataclass(frozen=True)
class Displaced(Event):
    player: int  # the player sent back
    by: int
    square: int
    to: int
    key: ClassVar[str] = "goose.displaced"
    priority: ClassVar[int] = Priority.INFO

    def describe(self, names: Sequence[str]) -> str:
        return (
            f"{names[self.player]} was on {self.square} and goes to {square_words(self.to)},"
            f" where {names[self.by]} began the turn."
        )


# --------------------------------------------------------------------------- board


@dataclass(frozen=True)
class GooseBoard:
    squares: int  # the centre, 63
    geese: frozenset[int]
    jumps: Mapping[int, tuple[str, int]]  # square -> (name, destination)
    wells: Mapping[int, str]  # square -> name
    misses: Mapping[int, tuple[str, int]]  # square -> (name, turns missed)


def read_goose_board(reader: BoardReader) -> GooseBoard:
    last = reader.integer("squares", 13, 1000)
    used: dict[int, str] = {}

    def claim(square: int, what: str) -> None:
        if square in used:
            raise reader.fail(f"square {square} is both {used[square]} and {what}")
        used[square] = what

    geese: set[int] = set()
    for index, value in enumerate(reader.items("geese")):
        square = reader.integer("geese", 1, last - 1, value, f"geese[{index}]")
        claim(square, "a goose")
        geese.add(square)

    def entries(key: str) -> list[tuple[int, str, dict[str, Any]]]:
        out = []
        for index, item in enumerate(reader.items(key)):
            where = f"{key}[{index}]"
            if not isinstance(item, dict):
                raise reader.fail(f"{where} must be an object with a square and a name")
            square = reader.integer(key, 1, last - 1, item.get("square"), f"{where} square")
            name = item.get("name", f"square {square}")
            if not isinstance(name, str):
                raise reader.fail(f"{where} name must be a string")
            claim(square, name)
            out.append((square, name, item))
        return out

    jumps = {}
    for square, name, item in entries("jumps"):
        to = reader.integer("jumps", 0, last - 1, item.get("to"), f"{name} 'to'")
        if to == square:
            raise reader.fail(f"{name} at {square} leads to itself")
        jumps[square] = (name, to)
    wells = {square: name for square, name, _ in entries("wells")}
    misses = {}
    for square, name, item in entries("miss_turns"):
        misses[square] = (name, reader.integer("miss_turns", 1, 10, item.get("turns", 1), name))
    return GooseBoard(last, frozenset(geese), jumps, wells, misses)


# --------------------------------------------------------------------------- game


@register
class GameOfTheGoose(RaceGame):
    spec = GameSpec(
        name="goose",
        title="Game of the Goose",
        min_players=2,
        max_players=4,
        inputs=("dice",),
        rulebook="002: Game of the Goose",
        aliases=("game-of-the-goose", "game of the goose", "goose-game"),
        options=(
            board_option("boards/goose.json"),
            Option("goose_chain", True, "a goose reached by a goose's doubled move doubles again"),
            Option(
                "exact_one_die",
                True,
                "one die alone may give the exact count to the centre (no: only the total)",
            ),
        ),
        house_rules=HOUSE_RULES,
    )
    tools = {"stats": "companion.games.race.goose:stats_main"}
    board_file = "boards/goose.json"

    def read_board(self, reader: BoardReader) -> None:
        self.board = read_goose_board(reader)

    def dice_count(self) -> int:
        return 2

    def new_state(self) -> GooseState:
        return GooseState(self)


class GooseState(RaceState):
    game: GameOfTheGoose

    def __init__(self, game: GameOfTheGoose) -> None:
        super().__init__(game)
        self.missed = [0] * len(game.players)  # turns still to miss

    def in_well(self, player: int) -> bool:
        return self.positions[player] in self.game.board.wells

    def throw(self, values: tuple[int, ...]) -> list[Event]:
        board = self.game.board
        player = self.turn
        start = self.positions[player]
        events: list[Event] = []
        if self.in_well(player):
            if len(set(values)) != 1:
                return [StaysInWell(player, values, board.wells[start]), *self.pass_turn()]
            events.append(OutOfWell(player, board.wells[start]))
        square = self.count(player, start, values, events)
        if square != board.squares:
            square = self.land(player, square, events)
        self.positions[player] = square
        if square == board.squares:
            return events + self.finish(player)
        if square not in (0, start):
            for other, there in enumerate(self.positions):
                if other != player and there == square:
                    self.positions[other] = start
                    events.append(Displaced(other, player, square, start))
        return events + self.pass_turn()

    def count(self, player: int, start: int, values: tuple[int, ...], out: list[Event]) -> int:
        """Count the throw from ``start``, with geese and the count back from the centre."""
        board = self.game.board
        last = board.squares
        steps = sum(values)
        if self.game.options["exact_one_die"] and start + steps != last:
            for die in values:
                if start + die == last:
                    out.append(ExactOneDie(player, values, die, start, last))
                    return last
        square, backwards, surplus = self.step(start, steps, False)
        if surplus:
            out.append(CountedBack(player, values, start, last, surplus, square))
        else:
            out.append(GooseMoved(player, values, start, square))
        doubled = 0
        while square in board.geese and (doubled == 0 or self.game.options["goose_chain"]):
            goose = square
            square, backwards, surplus = self.step(goose, steps, backwards)
            out.append(GooseFlies(player, goose, steps, backwards and not surplus, surplus, square))
            doubled += 1
        return square

    def step(self, square: int, steps: int, backwards: bool) -> tuple[int, bool, int]:
        """Count ``steps`` from ``square``: (where, now moving backwards, surplus at 63)."""
        last = self.game.board.squares
        if backwards:
            return max(square - steps, 0), True, 0
        target = square + steps
        if target > last:
            return max(2 * last - target, 0), True, target - last
        return target, False, 0

    def land(self, player: int, square: int, out: list[Event]) -> int:
        """The effect of the square a token comes to rest on."""
        board = self.game.board
        if square in board.jumps:
            name, to = board.jumps[square]
            out.append(Jumped(player, name, square, to))
            return to  # the destination is final
        if square in board.wells:
            out.append(IntoWell(player, board.wells[square], square))
        elif square in board.misses:
            name, turns = board.misses[square]
            self.missed[player] += turns
            out.append(MissTurns(player, name, square, turns))
        return square

    def pass_turn(self) -> list[Event]:
        events: list[Event] = []
        turn = (self.turn + 1) % len(self.positions)
        while self.missed[turn]:  # terminates: every pass lowers a counter
            self.missed[turn] -= 1
            events.append(TurnMissed(turn))
            turn = (turn + 1) % len(self.positions)
        self.turn = turn
        return [*events, TurnPasses(turn)]

    def expected(self) -> str:
        text = super().expected()
        if self.winner is None and self.in_well(self.turn):
            text += f" (a double to leave {self.game.board.wells[self.positions[self.turn]]})"
        return text

    def where(self, player: int) -> str:
        text = super().where(player)
        if self.in_well(player):
            text += f" in {self.game.board.wells[self.positions[player]]}"
        if self.missed[player]:
            text += f", missing {'a turn' if self.missed[player] == 1 else 'turns'}"
        return text

    def extra_json(self) -> dict[str, Any]:
        return {
            "centre": self.game.board.squares,
            "missed_turns": list(self.missed),
            "in_well": [self.in_well(i) for i in range(len(self.positions))],
        }


def stats_main(argv: list[str]) -> int:
    """``companion stats goose``: game lengths and win shares over seeded random games."""
    return race_stats("goose", argv)
