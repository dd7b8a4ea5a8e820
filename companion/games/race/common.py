"""What the race games of rulebook 002 share: a base state, board loading, common events.

Snakes and Ladders, the Game of the Goose and the Racing Game are chance-only games: every
input is a throw by the player whose turn it is, so a state is always at a CHANCE node (or
TERMINAL). Square 0 is the start, off the numbered track, for all three.

The module name starts with an underscore so that game discovery does not import it as a game.
"""

from __future__ import annotations

import copy
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.config import find_config, load_json
from companion.engine import (
    CHANCE,
    TERMINAL,
    Action,
    ChanceRequest,
    Event,
    Game,
    GameOver,
    IllegalAction,
    Option,
    Priority,
    State,
    Throw,
    TurnPasses,
    number_word,
)

# A game that never ends is possible in principle (a throw that is too high changes nothing,
# snakes send tokens back). The bound is probabilistic: a seeded random game of any of these
# games that needs more throws than this has a probability far below 1e-12.
RACE_MAX_THROWS = 20_000


class BoardError(ValueError):
    """A board file that cannot be used; the message names the file and the fault."""


def board_option(default_file: str) -> Option:
    return Option(
        "board",
        "",
        f"a board file to use instead of config/{default_file} (copy it and edit the copy)",
    )


def load_board(default_file: str, choice: str) -> tuple[Mapping[str, Any], str]:
    """The board's JSON object and the path it came from (for error messages)."""
    relative = choice or default_file
    try:
        data = load_json(relative)  # by the name given: a resumed game finds it pinned
        try:
            path = str(find_config(relative))
        except FileNotFoundError:
            path = relative  # the file is gone; the journal's copy stands in
    except FileNotFoundError as err:
        raise BoardError(f"board file {relative!r} not found ({err})") from err
    except ValueError as err:
        raise BoardError(str(err)) from err
    if not isinstance(data, dict):
        raise BoardError(f"{path}: a board file holds one JSON object ({{...}}).")
    return data, path


class BoardReader:
    """Small checked accessors over a board's JSON object; every error names file and field."""

    def __init__(self, data: Mapping[str, Any], path: str) -> None:
        self.data = data
        self.path = path

    def fail(self, message: str) -> BoardError:
        return BoardError(f"{self.path}: {message}" + ("" if message.endswith(".") else "."))

    def integer(self, key: str, low: int, high: int, value: Any = None, where: str = "") -> int:
        if value is None:
            if key not in self.data:
                raise self.fail(f"missing field {key!r}")
            value = self.data[key]
        label = where or key
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"{label} must be a whole number, not {value!r}")
        if not low <= value <= high:
            raise self.fail(f"{label} is {value}, it must be between {low} and {high}")
        return value

    def items(self, key: str) -> list[Any]:
        value = self.data.get(key, [])
        if not isinstance(value, list):
            raise self.fail(f"{key!r} must be a list")
        return value

    def text(self, key: str, default: str = "") -> str:
        value = self.data.get(key, default)
        if not isinstance(value, str):
            raise self.fail(f"{key!r} must be a string")
        return value


# --------------------------------------------------------------------------- words


def throw_words(values: Sequence[int]) -> str:
    """ "four", or "three and five" for two dice."""
    return " and ".join(number_word(v) for v in values)


def square_words(square: int) -> str:
    return "the start" if square == 0 else str(square)


# --------------------------------------------------------------------------- shared events


@dataclass(frozen=True)
class Moved(Event):
    """A throw moved a token along the track to an ordinary square."""

    player: int
    values: tuple[int, ...]
    start: int
    end: int
    key: ClassVar[str] = "race.moved"

    def describe(self, names: Sequence[str]) -> str:
        where = f"from {self.start} to {self.end}" if self.start else f"to {self.end}"
        return f"{names[self.player]} throws {throw_words(self.values)} and moves {where}."


@dataclass(frozen=True)
class TooHigh(Event):
    """The throw would go past the finish: the token stays where it is."""

    player: int
    values: tuple[int, ...]
    needed: int
    key: ClassVar[str] = "race.too_high"

    def describe(self, names: Sequence[str]) -> str:
        name = names[self.player]
        return (
            f"{name} throws {throw_words(self.values)}: too many,"
            f" {name} needs exactly {number_word(self.needed)}."
        )


@dataclass(frozen=True)
class ThrowsAgain(Event):
    player: int
    key: ClassVar[str] = "race.again"
    priority: ClassVar[int] = Priority.INFO

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} throws again."


# --------------------------------------------------------------------------- game and state


class RaceGame(Game):
    """A race game reads one board file, named by the ``board`` option or the shipped default."""

    board_file: ClassVar[str]

    def __init__(self, players: Sequence[str], options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        data, path = load_board(self.board_file, str(self.options.get("board", "")))
        self.board_path = path
        reader = BoardReader(data, path)
        self.board_name = reader.text("name", self.board_file)
        self.read_board(reader)

    @abstractmethod
    def read_board(self, reader: BoardReader) -> None:
        """Validate and keep the board; raise BoardError (via reader.fail) on a bad file."""

    def dice_count(self) -> int:
        return 1

    def max_length(self) -> int:
        return RACE_MAX_THROWS


class RaceState(State):
    """Positions, whose turn, the winner. Subclasses implement ``throw``."""

    game: RaceGame

    def __init__(self, game: RaceGame) -> None:
        self.game = game
        self.positions: list[int] = [0] * len(game.players)
        self.turn = 0
        self.winner: int | None = None
        self.throws = 0  # accepted throws so far

    # --- the generic State API ------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self.winner is not None else CHANCE

    def chance(self) -> ChanceRequest | None:
        if self.winner is not None:
            return None
        return ChanceRequest(kind="dice", count=self.game.dice_count(), who=self.turn)

    def legal_actions(self) -> list[Action]:
        return []  # no player decisions: every input is a throw

    def apply(self, action: Action) -> list[Event]:
        request = self.chance()
        if request is None:
            raise IllegalAction(f"The game is over: {self.game.players[self.winner or 0]} won.")
        request.check(action)
        assert isinstance(action, Throw)  # check() accepts only a Throw at a dice request
        self.refuse(action.values)  # game-specific refusals, still before any change
        self.throws += 1
        return self.throw(action.values)

    def refuse(self, values: tuple[int, ...]) -> None:
        """Raise IllegalAction for a throw this game refuses now (none by default)."""

    @abstractmethod
    def throw(self, values: tuple[int, ...]) -> list[Event]:
        """Apply a validated throw by ``self.turn``."""

    def clone(self) -> RaceState:
        new = copy.copy(self)
        for name, value in vars(self).items():
            if isinstance(value, list | dict | set):
                setattr(new, name, copy.copy(value))  # flat containers of ints
        return new

    def winners(self) -> tuple[int, ...]:
        return () if self.winner is None else (self.winner,)

    def scores(self) -> list[float]:
        return [1.0 if i == self.winner else 0.0 for i in range(len(self.game.players))]

    def describe_action(self, action: Action) -> str:
        if isinstance(action, Throw):
            return f"throw {throw_words(action.values)}"
        return str(action)

    def status(self) -> str:
        names = self.game.players
        where = ", ".join(f"{names[i]} {self.where(i)}" for i in range(len(names)))
        return f"{where}. {self.expected().rstrip('.')}."

    def where(self, player: int) -> str:
        square = self.positions[player]
        return "at the start" if square == 0 else f"on {square}"

    # --- turns and the end ----------------------------------------------------------

    def finish(self, player: int) -> list[Event]:
        self.winner = player
        return [GameOver((player,))]

    def pass_turn(self) -> list[Event]:
        self.turn = (self.turn + 1) % len(self.positions)
        return [TurnPasses(self.turn)]

    # --- the stable JSON view -------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        request = self.chance()
        out: dict[str, Any] = {
            "game": self.game.spec.name,
            "board": self.game.board_name,
            "players": list(self.game.players),
            "positions": list(self.positions),
            "turn": None if self.winner is not None else self.turn,
            "expected": None
            if request is None
            else {"kind": request.kind, "count": request.count, "who": request.who},
            "expected_text": self.expected(),
            "winner": self.winner,
            "throws": self.throws,
        }
        out.update(self.extra_json())
        return out

    def extra_json(self) -> dict[str, Any]:
        return {}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.to_json()!r}>"


# --------------------------------------------------------------------------- stats tool


def stats_main(name: str, argv: list[str]) -> int:
    """``companion stats GAME``: play seeded random games and report their lengths."""
    import argparse
    import json
    import random
    import statistics

    from companion.games import find

    parser = argparse.ArgumentParser(prog=f"companion stats {name}")
    parser.add_argument("--games", type=int, default=10_000, help="how many games to play")
    parser.add_argument("--players", type=int, default=2, help="how many players")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random throws")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    options = dict(pair.partition("=")[::2] for pair in args.option)
    cls = find(name)
    stock = ["Red", "Blue", "Green", "Yellow", "Purple", "Orange"]
    try:
        game = cls(stock[: args.players], options)
    except ValueError as err:
        parser.error(str(err))
    rng = random.Random(args.seed)
    lengths: list[int] = []
    wins = [0] * args.players
    for _ in range(args.games):
        state = game.new_state()
        while not state.is_terminal():
            state.apply(state.sample_chance(rng))
        lengths.append(len_of(state))
        for w in state.winners():
            wins[w] += 1
    report = {
        "game": cls.spec.name,
        "games": args.games,
        "players": args.players,
        "seed": args.seed,
        "throws_mean": round(statistics.fmean(lengths), 2),
        "throws_median": statistics.median(lengths),
        "throws_min": min(lengths),
        "throws_max": max(lengths),
        "win_share_by_seat": [round(w / args.games, 4) for w in wins],
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for key, value in report.items():
            print(f"{key:<18} {value}")
    return 0


def len_of(state: State) -> int:
    return state.throws if isinstance(state, RaceState) else 0
