"""SORRY! events: what the table hears after a card and a move."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from companion.engine import Event, Priority
from companion.games.sorry.actions import CARD_WORDS, LETTERS


@dataclass(frozen=True)
class CardDrawn(Event):
    player: int
    card: str
    key: ClassVar[str] = "sorry.card"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} draws {CARD_WORDS[self.card]}."


@dataclass(frozen=True)
class PawnMoved(Event):
    player: int  # the pawn's owner
    pawn: int
    start: str
    end: str
    key: ClassVar[str] = "sorry.moved"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} {LETTERS[self.pawn]}: {self.start} to {self.end}."


@dataclass(frozen=True)
class Slid(Event):
    player: int
    pawn: int
    start: str
    end: str
    key: ClassVar[str] = "sorry.slid"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} {LETTERS[self.pawn]} slides from {self.start} to {self.end}."


@dataclass(frozen=True)
class Bumped(Event):
    player: int  # the bumped pawn's owner
    pawn: int
    square: str
    key: ClassVar[str] = "sorry.bumped"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return (f"Sorry, {names[self.player]}! {LETTERS[self.pawn]} on {self.square}"
                " goes back to START.")


@dataclass(frozen=True)
class Switched(Event):
    player: int
    pawn: int
    other: int
    other_pawn: int
    key: ClassVar[str] = "sorry.switched"

    def describe(self, names: Sequence[str]) -> str:
        return (f"{names[self.player]} {LETTERS[self.pawn]} changes places with"
                f" {names[self.other]} {LETTERS[self.other_pawn]}.")


@dataclass(frozen=True)
class PawnHome(Event):
    player: int
    pawn: int
    key: ClassVar[str] = "sorry.home"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} {LETTERS[self.pawn]} is HOME."


@dataclass(frozen=True)
class Forfeit(Event):
    player: int
    card: str
    key: ClassVar[str] = "sorry.forfeit"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} cannot move with {CARD_WORDS[self.card]} and forfeits."


@dataclass(frozen=True)
class Dealt(Event):
    """Play for Points: a card dealt into a hand (face down: the card is not said)."""

    player: int
    held: int
    size: int
    key: ClassVar[str] = "sorry.dealt"

    def describe(self, names: Sequence[str]) -> str:
        return f"A card to {names[self.player]}'s hand, {self.held} of {self.size}."


@dataclass(frozen=True)
class DrawAgain(Event):
    player: int
    key: ClassVar[str] = "sorry.again"

    def describe(self, names: Sequence[str]) -> str:
        return f"A 2: {names[self.player]} draws again."


@dataclass(frozen=True)
class Reshuffled(Event):
    cards: int
    key: ClassVar[str] = "sorry.reshuffled"

    def describe(self, names: Sequence[str]) -> str:
        return f"The draw pile is empty: shuffle the {self.cards} discards and use them."
