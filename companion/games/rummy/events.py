"""Typed Rummy events; each one says its own sentence."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from companion.engine import Event, Priority, counted
from companion.games import card_table
from companion.games.card_table import card_name


def _cards(cards: Sequence[str]) -> str:
    names = [card_name(c) for c in cards]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


@dataclass(frozen=True)
class NewHand(card_table.NewHand):
    key: ClassVar[str] = "rummy.new_hand"


@dataclass(frozen=True)
class UpCard(Event):
    card: str
    key: ClassVar[str] = "rummy.up_card"

    def describe(self, names: Sequence[str]) -> str:
        return f"The {card_name(self.card)} starts the discard pile."


@dataclass(frozen=True)
class Took(Event):
    player: int
    card: str  # the discard taken, "" when drawn from the stock (not said)
    key: ClassVar[str] = "rummy.took"
    priority: ClassVar[int] = Priority.CHATTER

    def describe(self, names: Sequence[str]) -> str:
        if self.card:
            return f"{names[self.player]} takes the {card_name(self.card)}."
        return f"{names[self.player]} draws from the stock."


@dataclass(frozen=True)
class StockTurned(Event):
    cards: int
    key: ClassVar[str] = "rummy.stock_turned"

    def describe(self, names: Sequence[str]) -> str:
        return (f"The stock has run out: the discard pile is turned over, without shuffling, to"
                f" form a new stock of {counted(self.cards, 'card')}.")


@dataclass(frozen=True)
class Melded(Event):
    player: int
    cards: tuple[str, ...]
    number: int
    kind: str  # "group" or "sequence"
    key: ClassVar[str] = "rummy.meld"

    def describe(self, names: Sequence[str]) -> str:
        return (f"{names[self.player]} melds a {self.kind}: {_cards(self.cards)} (meld"
                f" {self.number}).")


@dataclass(frozen=True)
class LaidOff(Event):
    player: int
    card: str
    number: int
    key: ClassVar[str] = "rummy.lay_off"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} lays off the {card_name(self.card)} on meld {self.number}."


@dataclass(frozen=True)
class Discarded(Event):
    player: int
    card: str
    left: int
    key: ClassVar[str] = "rummy.discard"

    def describe(self, names: Sequence[str]) -> str:
        tail = ". One card left" if self.left == 1 else ""
        return f"{names[self.player]} discards the {card_name(self.card)}{tail}."


@dataclass(frozen=True)
class WentOut(Event):
    player: int
    key: ClassVar[str] = "rummy.out"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} goes out! Play stops."


@dataclass(frozen=True)
class ShowCards(card_table.ShowCards):
    key: ClassVar[str] = "rummy.show"
    one: ClassVar[str] = "last card"


@dataclass(frozen=True)
class HandScored(Event):
    number: int
    winner: int
    left: tuple[int, ...]  # value of the cards each player still held
    gained: int
    totals: tuple[int, ...]
    key: ClassVar[str] = "rummy.scored"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        others = [f"{names[p]} {self.left[p]}" for p in range(len(self.left)) if p != self.winner]
        totals = [f"{names[p]} {self.totals[p]}" for p in range(len(self.totals))]
        return (f"Hand {self.number}: left in hand, {', '.join(others)}."
                f" {names[self.winner]} scores {self.gained}. Scores: {', '.join(totals)}.")
