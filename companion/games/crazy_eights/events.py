"""Typed Crazy Eights events; each one says its own sentence."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from companion.cards import SUIT_NAMES
from companion.engine import Event, Priority
from companion.games import card_table
from companion.games.card_table import card_name


def _cards(n: int) -> str:
    return "one card" if n == 1 else f"{n} cards"


@dataclass(frozen=True)
class NewHand(card_table.NewHand):
    key: ClassVar[str] = "crazy_eights.new_hand"
    turn_up: ClassVar[str] = "Then turn up the top card of the stock and read it."


@dataclass(frozen=True)
class UpCard(Event):
    card: str
    buried: bool  # an eight turned up goes back into the stock (option first_eight=bury)
    key: ClassVar[str] = "crazy_eights.up_card"

    def describe(self, names: Sequence[str]) -> str:
        if self.buried:
            return (f"The {card_name(self.card)} is turned up: an eight goes back into the"
                    " stock. Turn up the next card.")
        return f"The {card_name(self.card)} starts the discard pile."


@dataclass(frozen=True)
class CardPlayed(Event):
    player: int
    card: str
    called: str  # the suit nominated with an eight, else ""
    left: int  # cards the player still holds
    key: ClassVar[str] = "crazy_eights.played"

    def describe(self, names: Sequence[str]) -> str:
        text = f"{names[self.player]} plays the {card_name(self.card)}"
        if self.called:
            text += f" and calls {SUIT_NAMES[self.called]}"
        if self.left == 1:
            text += ". One card left"
        if self.card.startswith("8") and not self.called and self.left:
            text += f". {names[self.player]}, name a suit"  # an eight put down alone
        return text + "."


@dataclass(frozen=True)
class SuitCalled(Event):
    player: int
    suit: str
    key: ClassVar[str] = "crazy_eights.suit_called"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} calls {SUIT_NAMES[self.suit]}."


@dataclass(frozen=True)
class Drew(Event):
    player: int
    holds: int
    key: ClassVar[str] = "crazy_eights.drew"
    priority: ClassVar[int] = Priority.CHATTER

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} draws, and holds {_cards(self.holds)}."


@dataclass(frozen=True)
class StockTurned(Event):
    cards: int
    key: ClassVar[str] = "crazy_eights.stock_turned"

    def describe(self, names: Sequence[str]) -> str:
        return (f"The stock is empty: the discard pile but its top card is turned over, without"
                f" shuffling, to make a new stock of {_cards(self.cards)}.")


@dataclass(frozen=True)
class PassedTurn(Event):
    player: int
    key: ClassVar[str] = "crazy_eights.passed"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} passes."


@dataclass(frozen=True)
class FalsePass(Event):
    """deal=hidden: a card played now shows that an earlier pass was not forced."""

    player: int
    card: str
    top: str
    key: ClassVar[str] = "crazy_eights.false_pass"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return (f"Note: {names[self.player]} passed on the {card_name(self.top)} while holding"
                f" the {card_name(self.card)}, which could have been played.")


@dataclass(frozen=True)
class WentOut(Event):
    player: int
    key: ClassVar[str] = "crazy_eights.out"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} is out of cards!"


@dataclass(frozen=True)
class Blocked(Event):
    key: ClassVar[str] = "crazy_eights.blocked"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return "Nobody can play and the stock is empty: the hand is blocked."


@dataclass(frozen=True)
class ShowCards(card_table.ShowCards):
    key: ClassVar[str] = "crazy_eights.show"


@dataclass(frozen=True)
class HandScored(Event):
    number: int
    winners: tuple[int, ...]
    penalties: tuple[int, ...]
    totals: tuple[int, ...]
    key: ClassVar[str] = "crazy_eights.scored"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        won = " and ".join(names[w] for w in self.winners)
        parts = [f"{names[p]} {self.penalties[p]}" for p in range(len(self.penalties))
                 if p not in self.winners]
        text = f"{won} {'wins' if len(self.winners) == 1 else 'win'} hand {self.number}."
        text += " Penalty points: " + ", ".join(parts) + "."
        if any(self.totals[p] != self.penalties[p] for p in range(len(self.totals))):
            totals = [f"{names[p]} {self.totals[p]}" for p in range(len(self.totals))]
            text += " Totals: " + ", ".join(totals) + "."
        return text
