"""Typed dominoes events; each says its own sentence."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from companion.engine import Event, Priority, counted, number_word
from companion.games.dominoes.tiles import and_list, tile_name, value_word


def ends_words(ends: tuple[int, ...]) -> str:
    return and_list([value_word(v) for v in ends])


def tiles_words(count: int) -> str:
    return f"{number_word(count)} tile{'s' * (count != 1)}"


@dataclass(frozen=True)
class RoundStarted(Event):
    number: int
    hand_size: int
    read: bool
    key: ClassVar[str] = "dominoes.round"

    def describe(self, names: Sequence[str]) -> str:
        head = (f"Round {self.number}: mix the tiles face down; each player draws"
                f" {tiles_words(self.hand_size)}.")
        if self.read:
            return f"{head} Read each player's tiles, {names[0]}'s first."
        return f"{head} The highest double is set first: say play 6-6 and the name of who sets it."


@dataclass(frozen=True)
class NoDouble(Event):
    key: ClassVar[str] = "dominoes.no_double"

    def describe(self, names: Sequence[str]) -> str:
        return "Nobody drew a double: return the tiles, mix them and draw again."


@dataclass(frozen=True)
class HighestDouble(Event):
    player: int
    tile: str
    key: ClassVar[str] = "dominoes.highest_double"

    def describe(self, names: Sequence[str]) -> str:
        return (f"{names[self.player]} holds the highest double, the {tile_name(self.tile)},"
                " and sets it.")


@dataclass(frozen=True)
class TilePlayed(Event):
    player: int
    tile: str
    where: str  # "" for the first tile, "the left", "the right", "a six"
    ends: tuple[int, ...]  # the open ends after the play
    key: ClassVar[str] = "dominoes.played"

    def describe(self, names: Sequence[str]) -> str:
        who = names[self.player]
        if not self.where:
            return (f"{who} sets the {tile_name(self.tile)}; the open ends are"
                    f" {ends_words(self.ends)}.")
        return (f"{who} plays {tile_name(self.tile)} on {self.where}; the ends are"
                f" {ends_words(self.ends)}.")


@dataclass(frozen=True)
class EndsCount(Event):
    """Bergen: both ends match after a play (a double-header, or a triple-header)."""

    ends: tuple[int, ...]
    points: int
    key: ClassVar[str] = "dominoes.ends_count"
    priority: ClassVar[int] = Priority.INFO

    def describe(self, names: Sequence[str]) -> str:
        if self.points == 3 and self.ends[0] != self.ends[-1]:
            return "A double lies at an end: three points."
        if self.points == 3:
            return "Both ends match with a double at an end: a triple-header, three points."
        return "Both ends match: a double-header, two points."


@dataclass(frozen=True)
class TileDrawn(Event):
    player: int
    tile: str  # "" when the tile stays hidden
    left: int  # tiles left in the boneyard
    key: ClassVar[str] = "dominoes.drawn"

    def describe(self, names: Sequence[str]) -> str:
        what = f"the {tile_name(self.tile)}" if self.tile else "a tile"
        rest = "it is now empty" if self.left == 0 else f"{number_word(self.left)} left"
        return f"{names[self.player]} draws {what} from the boneyard; {rest}."


@dataclass(frozen=True)
class Passed(Event):
    player: int
    ends: tuple[int, ...]
    key: ClassVar[str] = "dominoes.passed"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} cannot play on {ends_words(self.ends)} and passes."


@dataclass(frozen=True)
class Scored(Event):
    player: int
    points: int
    why: str
    total: int
    key: ClassVar[str] = "dominoes.scored"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return (f"{names[self.player]} scores {self.points} for {self.why}:"
                f" {self.total} in all.")


@dataclass(frozen=True)
class WentOut(Event):
    player: int
    call: str  # "Domino!" or "Bergen!"
    key: ClassVar[str] = "dominoes.out"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} plays the last tile: {self.call}"


@dataclass(frozen=True)
class Blocked(Event):
    ends: tuple[int, ...]
    reveal: bool  # the hands must be shown now
    key: ClassVar[str] = "dominoes.blocked"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        text = f"Nobody can play on {ends_words(self.ends)}: the game is blocked."
        return f"{text} Show the tiles left in each hand." if self.reveal else text


@dataclass(frozen=True)
class ShowHands(Event):
    """Someone went out in a hidden game: the others show (or count) their tiles."""

    players: tuple[int, ...]
    key: ClassVar[str] = "dominoes.show_hands"

    def describe(self, names: Sequence[str]) -> str:
        who = and_list([names[p] for p in self.players])
        return f"{who}: show your tiles (hand 6-4 3-3) or say their pips (pips 13)."


@dataclass(frozen=True)
class HandCounted(Event):
    player: int
    pips: int
    tiles: tuple[str, ...]  # empty when only the pips were said
    key: ClassVar[str] = "dominoes.hand"

    def describe(self, names: Sequence[str]) -> str:
        if self.tiles:
            shown = and_list([tile_name(t) for t in self.tiles])
            return f"{names[self.player]} holds {shown}: {counted(self.pips, 'pip')}."
        return f"{names[self.player]} holds {counted(self.pips, 'pip')}."


@dataclass(frozen=True)
class FalsePass(Event):
    player: int
    tile: str
    ends: tuple[int, ...]
    key: ClassVar[str] = "dominoes.false_pass"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return (f"Note: {names[self.player]} passed on {ends_words(self.ends)} while holding the"
                f" {tile_name(self.tile)}, which fits.")


@dataclass(frozen=True)
class HigherDouble(Event):
    player: int
    tile: str
    first: str
    key: ClassVar[str] = "dominoes.higher_double"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return (f"Note: {names[self.player]} held the {tile_name(self.tile)} from the start,"
                f" higher than the {tile_name(self.first)} set first.")


@dataclass(frozen=True)
class RoundResult(Event):
    winner: int  # -1: nobody scores (a tie in a blocked game)
    points: int
    detail: str
    key: ClassVar[str] = "dominoes.round_result"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        if self.winner < 0:
            return f"Nobody wins the round: {self.detail}"
        return f"{names[self.winner]} wins the round and scores {self.points}: {self.detail}"


@dataclass(frozen=True)
class Standings(Event):
    scores: tuple[int, ...]
    target: int
    key: ClassVar[str] = "dominoes.standings"

    def describe(self, names: Sequence[str]) -> str:
        parts = [f"{names[i]} {s}" for i, s in enumerate(self.scores)]
        return f"Scores: {', '.join(parts)}; {self.target} to win."
