"""The Racing Game (rulebook 002): one die, a six to enter, instruction squares, exact finish.

Rules: pawns start in the start area; a six is needed to put a pawn on the track, and after a
six the player throws again and moves accordingly; a pawn arriving on an instruction square
moves as it says ("+8" eight ahead, "-6" six back); the first pawn to land exactly on the
finish wins. The rulebook prints no board: config/boards/racing.json is a made-up track.
Choices where the text is silent: docs/games/racing.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.engine import Event, GameSpec, Option, number_word
from companion.games import register
from companion.games.race.common import (
    BoardReader,
    Moved,
    RaceGame,
    RaceState,
    ThrowsAgain,
    TooHigh,
    board_option,
    square_words,
)
from companion.games.race.common import (
    stats_main as race_stats,
)

HOUSE_RULES = (
    "Entering puts the pawn on the start line (square 0 of the track); the throw after the"
    " entering six moves it from there. Every six throws again, also a six that is too high"
    " to use (option six_again=entry: only the entering six). An instruction square reached"
    " by an instruction acts too (a board may not loop). Pawns may share squares. A throw"
    " too high to land exactly on the finish leaves the pawn where it is."
)


# --------------------------------------------------------------------------- events


@dataclass(frozen=True)
class NeedsSix(Event):
    player: int
    value: int
    key: ClassVar[str] = "racing.needs_six"

    def describe(self, names: Sequence[str]) -> str:
        return (
            f"{names[self.player]} throws {number_word(self.value)} and needs a six to enter"
            " the track."
        )


@dataclass(frozen=True)
class Entered(Event):
    player: int
    key: ClassVar[str] = "racing.entered"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} throws six and enters the track."


@dataclass(frozen=True)
class Instruction(Event):
    player: int
    square: int
    move: int
    to: int
    key: ClassVar[str] = "racing.instruction"

    def describe(self, names: Sequence[str]) -> str:
        name = names[self.player]
        if self.move > 0:
            return f"Square {self.square} says plus {self.move}: {name} moves on to {self.to}."
        return (
            f"Square {self.square} says minus {-self.move}: {name} goes back to"
            f" {square_words(self.to)}."
        )


# --------------------------------------------------------------------------- board


@dataclass(frozen=True)
class RacingBoard:
    finish: int
    instructions: Mapping[int, int]  # square -> move (+N ahead, -N back)


def read_racing_board(reader: BoardReader) -> RacingBoard:
    finish = reader.integer("finish", 7, 1000)
    moves: dict[int, int] = {}
    for index, item in enumerate(reader.items("instructions")):
        where = f"instructions[{index}]"
        if not isinstance(item, dict):
            raise reader.fail(f'{where} must be an object {{"square": ..., "move": ...}}')
        square = reader.integer(
            "instructions", 1, finish - 1, item.get("square"), f"{where} square"
        )
        move = reader.integer("instructions", -finish, finish, item.get("move"), f"{where} move")
        if move == 0:
            raise reader.fail(f"{where}: a move of 0 is no instruction")
        if not 0 <= square + move <= finish:
            raise reader.fail(
                f"{where}: {square} {move:+d} leads to {square + move}, off the track"
                f" (0 to {finish})"
            )
        if square in moves:
            raise reader.fail(f"{where}: square {square} already has an instruction")
        moves[square] = move
    for start in moves:
        seen = {start}
        square = start + moves[start]
        while square in moves:
            if square in seen:
                raise reader.fail(f"the instructions from square {start} go round in a loop")
            seen.add(square)
            square += moves[square]
    return RacingBoard(finish, moves)


# --------------------------------------------------------------------------- game


@register
class RacingGame(RaceGame):
    spec = GameSpec(
        name="racing",
        title="Racing Game",
        min_players=2,
        max_players=4,
        inputs=("dice",),
        rulebook="002: Racing Game",
        aliases=("racing-game", "race", "racing game"),
        options=(
            board_option("boards/racing.json"),
            Option(
                "six_again",
                "always",
                "which sixes throw again: always (every six) or entry (only the entering six)",
                ("always", "entry"),
            ),
        ),
        house_rules=HOUSE_RULES,
    )
    tools = {"stats": "companion.games.race.racing:stats_main"}
    board_file = "boards/racing.json"

    def read_board(self, reader: BoardReader) -> None:
        self.board = read_racing_board(reader)

    def new_state(self) -> RacingState:
        return RacingState(self)


class RacingState(RaceState):
    game: RacingGame

    def __init__(self, game: RacingGame) -> None:
        super().__init__(game)
        self.on_track = [False] * len(game.players)

    def throw(self, values: tuple[int, ...]) -> list[Event]:
        player = self.turn
        value = values[0]
        if not self.on_track[player]:
            if value != 6:
                return [NeedsSix(player, value), *self.pass_turn()]
            self.on_track[player] = True
            return [Entered(player), ThrowsAgain(player)]
        board = self.game.board
        start = self.positions[player]
        target = start + value
        events: list[Event] = []
        if target > board.finish:
            events.append(TooHigh(player, values, board.finish - start))
        else:
            events.append(Moved(player, values, start, target))
            while target in board.instructions:  # acyclic: checked when the board was read
                move = board.instructions[target]
                events.append(Instruction(player, target, move, target + move))
                target += move
            self.positions[player] = target
            if target == board.finish:
                return events + self.finish(player)
        if value == 6 and self.game.options["six_again"] == "always":
            return [*events, ThrowsAgain(player)]
        return events + self.pass_turn()

    def expected(self) -> str:
        text = super().expected()
        if self.winner is None and not self.on_track[self.turn]:
            text += " (a six to enter the track)"
        return text

    def where(self, player: int) -> str:
        if not self.on_track[player]:
            return "in the start area"
        return (
            "on the start line" if self.positions[player] == 0 else f"on {self.positions[player]}"
        )

    def extra_json(self) -> dict[str, Any]:
        return {"finish": self.game.board.finish, "on_track": list(self.on_track)}


def stats_main(argv: list[str]) -> int:
    """``companion stats racing``: game lengths and win shares over seeded random games."""
    return race_stats("racing", argv)
