"""Bingo (rulebook 000): the one-player counting patience with a double-six set.

The row is laid face up and read in, left to right (a tile at a time, or the whole row with
``row``); then the count runs 0 to 12 and round again along the row, and a tile whose pips
equal the number spoken is removed. The companion counts with the player and says where the
next tile to remove is; the row is stuck when the count has gone along it thirteen times in a
row without a removal (every starting number has then been tried on the same row).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.engine import (
    CHANCE,
    TERMINAL,
    Action,
    ChanceRequest,
    Draw,
    Event,
    Game,
    GameOver,
    GameSpec,
    IllegalAction,
    Option,
    Priority,
    Shuffle,
    State,
    counted,
)
from companion.games import register
from companion.games.dominoes.tiles import ALL_TILES, is_tile, parse_tile, pips, tile_name
from companion.observations import CardSeen, Observation

COUNT_TO = 12
IDLE_PASSES = COUNT_TO + 1  # 13 passes without a removal: every count offset tried
READ, COUNT, OVER = "read", "count", "over"


@dataclass(frozen=True)
class Take(Action):
    """At a tile that matches the count: remove it (or, with remove=may, keep it)."""

    player: int
    remove: bool = True

    def __str__(self) -> str:
        return "remove" if self.remove else "keep"


BINGO_ACTIONS: dict[str, type[Action]] = {"Take": Take}


@dataclass(frozen=True)
class RowRead(Event):
    key: ClassVar[str] = "dominoes.bingo_row"

    def describe(self, names: Sequence[str]) -> str:
        return "The row is read. Count from zero at the left end."


@dataclass(frozen=True)
class MatchFound(Event):
    tile: str
    place: int  # 1-based place in the row as it lies now
    count: int
    key: ClassVar[str] = "dominoes.bingo_match"

    def describe(self, names: Sequence[str]) -> str:
        return (f"The {tile_name(self.tile)} at place {self.place} matches the count of"
                f" {self.count}.")


@dataclass(frozen=True)
class TileTaken(Event):
    tile: str
    removed: bool
    left: int
    key: ClassVar[str] = "dominoes.bingo_taken"

    def describe(self, names: Sequence[str]) -> str:
        if not self.removed:
            return f"The {tile_name(self.tile)} stays."
        return f"Remove the {tile_name(self.tile)}: {self.left} left."


@dataclass(frozen=True)
class Stuck(Event):
    left: int
    key: ClassVar[str] = "dominoes.bingo_stuck"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return (f"Thirteen times along the row without a removal: the row is stuck with"
                f" {counted(self.left, 'tile')}. The patience is lost.")


class BingoState(State):
    def __init__(self, game: Bingo) -> None:
        self.game = game
        self.may_keep = game.options["remove"] == "may"
        self.row: list[str] = []
        self.phase = READ
        self.pos = 0  # index of the tile the count is at
        self.count = 0  # the number spoken at that tile
        self.idle = 0  # whole passes along the row without a removal
        self.removed_this_pass = False
        self.removed: list[str] = []
        self.won = False

    # --- State API ----------------------------------------------------------------------

    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        return CHANCE if self.phase == READ else 0

    def chance(self) -> ChanceRequest | None:
        if self.phase != READ:
            return None
        return ChanceRequest(kind="card", deck="dominoes", cards=self.unseen(), who=0)

    def unseen(self) -> tuple[str, ...]:
        return tuple(t for t in ALL_TILES if t not in self.row)

    def legal_actions(self) -> list[Action]:
        if self.phase != COUNT:
            return []
        return [Take(0, True), Take(0, False)] if self.may_keep else [Take(0, True)]

    def apply(self, action: Action) -> list[Event]:
        if isinstance(action, Draw):
            return self._read((action.card,), whole=False)
        if isinstance(action, Shuffle):
            if self.row:
                raise IllegalAction("Part of the row is read already: read the rest tile by tile")
            return self._read(action.order, whole=True)
        if isinstance(action, Take):
            return self._take(action)
        raise IllegalAction(f"{action} means nothing in bingo")

    def clone(self) -> BingoState:
        return copy.deepcopy(self)

    def winners(self) -> tuple[int, ...]:
        return (0,) if self.won else ()

    def scores(self) -> list[float]:
        return [float(len(self.removed))]

    # --- reading the row ----------------------------------------------------------------

    def _read(self, tiles: Sequence[str], whole: bool) -> list[Event]:
        if self.phase != READ:
            raise IllegalAction(f"The row is laid already. {self.expected()}.")
        parsed = [parse_tile(t) for t in tiles]
        if whole and len(parsed) != len(ALL_TILES):
            raise IllegalAction(f"A row is all 28 tiles, not {len(parsed)}")
        seen = set(self.row)
        for tile in parsed:
            if tile in seen:
                raise IllegalAction(f"The {tile_name(tile)} is in the row already")
            seen.add(tile)
        self.row.extend(parsed)
        if len(self.row) < len(ALL_TILES):
            return []
        self.phase = COUNT
        return [RowRead(), *self._advance()]

    # --- counting -----------------------------------------------------------------------

    def _advance(self) -> list[Event]:
        """Count on from the current tile to the next one that matches; or stop, won or stuck."""
        while True:
            if not self.row:
                self.phase = OVER
                self.won = True
                return [GameOver((0,), "Every tile is removed.")]
            if self.pos >= len(self.row):  # the end of the line: close up, go on from the left
                self.idle = 0 if self.removed_this_pass else self.idle + 1
                self.removed_this_pass = False
                self.pos = 0
                if self.idle >= IDLE_PASSES:
                    self.phase = OVER
                    return [Stuck(len(self.row))]
                continue
            if pips(self.row[self.pos]) == self.count:
                return [MatchFound(self.row[self.pos], self.pos + 1, self.count)]
            self._step()

    def _step(self) -> None:
        self.pos += 1
        self.count = (self.count + 1) % (COUNT_TO + 1)

    def _take(self, action: Take) -> list[Event]:
        if self.phase != COUNT:
            raise IllegalAction(f"No tile to take now. {self.expected()}.")
        if action.player != 0:
            raise IllegalAction("Bingo is played alone")
        if not action.remove and not self.may_keep:
            raise IllegalAction("A tile that matches the count is removed (option remove=may"
                                " lets it stay)")
        tile = self.row[self.pos]
        if action.remove:
            self.row.pop(self.pos)
            self.removed.append(tile)
            self.removed_this_pass = True
            self.count = (self.count + 1) % (COUNT_TO + 1)
        else:
            self._step()
        return [TileTaken(tile, action.remove, len(self.row)), *self._advance()]

    # --- words --------------------------------------------------------------------------

    def expected(self) -> str:
        if self.phase == OVER:
            return "The game is over"
        if self.phase == READ:
            return f"Read the row from the left: tile {len(self.row) + 1} of 28"
        tile = tile_name(self.row[self.pos])
        if self.may_keep:
            return f"Remove the {tile} at place {self.pos + 1}, or keep it"
        return f"Remove the {tile} at place {self.pos + 1}"

    def choices_after_move(self) -> str:
        return ""

    def status(self) -> str:
        return f"{len(self.removed)} removed, {len(self.row)} in the row. {self.expected()}."

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game.spec.name,
            "phase": self.phase,
            "row": list(self.row),
            "position": self.pos,
            "count": self.count,
            "idle_passes": self.idle,
            "removed": list(self.removed),
            "won": self.won,
        }


# --------------------------------------------------------------------------- the game

BINGO_COMMANDS = """\
  row TILE ... (28 tiles)    the whole row, left to right (or read it tile by tile: card 6-4)
  remove                     take out the tile that matches the count (also: take, next)
  keep                       remove=may: leave it in the row"""


@register
class Bingo(Game):
    spec = GameSpec(
        name="domino-bingo", title="Bingo (dominoes patience)", min_players=1, max_players=1,
        inputs=("cards",), rulebook="000: Dominoes Instructions, Bingo",
        aliases=("dominoes-bingo",), default_players=("Player",),
        options=(
            Option("remove", "must", "must: a tile matching the count is removed; may: the"
                   " player may leave it", ("must", "may")),
        ),
        house_rules=(
            "The count runs on without restarting when the row is closed up. A tile that"
            " matches is removed (option remove=may: the player chooses). The patience is"
            " lost when the count has gone along the row thirteen times in a row without a"
            " removal: every starting number has then been tried on the same row."
        ),
    )
    action_types: ClassVar = BINGO_ACTIONS

    def new_state(self) -> BingoState:
        return BingoState(self)

    def max_length(self) -> int:
        # 28 tiles read, 28 removals; kept matches between removals are limited by the
        # thirteen idle passes of at most 28 tiles.
        return 28 + 28 * (IDLE_PASSES * 28 + 1) + 1

    def command_help(self) -> str:
        return BINGO_COMMANDS

    def parse_action(self, state: State, text: str) -> Action:
        assert isinstance(state, BingoState)
        words = text.replace(",", " ").split()
        if not words:
            raise IllegalAction("Say remove, or read the row")
        verb, args = words[0].lower(), words[1:]
        if verb == "row":
            return Shuffle("dominoes", tuple(parse_tile(a) for a in args))
        if verb in ("card", "tile") and args:
            return Draw(parse_tile(args[0]))
        if is_tile(verb) and state.current_player() == CHANCE:
            return Draw(parse_tile(verb))
        if verb in ("remove", "take", "next"):
            return Take(0, True)
        if verb == "keep":
            return Take(0, False)
        raise IllegalAction(f"I don't know the command {words[0]!r}. {state.expected()}.")

    def card_id(self, text: str) -> str:
        return parse_tile(text)  # "4-6", "6:4", "64" -> "6-4"

    def interpret(self, state: State, observation: Observation) -> Action:
        if isinstance(observation, CardSeen) and state.current_player() == CHANCE:
            return Draw(parse_tile(observation.card))
        return super().interpret(state, observation)
