"""Typed events of Monopoly The Card Game. Cards in hands are never said aloud; face-up cards
(trade cards, discards, laid-down hands) are."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from companion.engine import Event, Priority, counted
from companion.games.monopoly_cards.deck import load_deck
from companion.games.monopoly_cards.scoring import money


def card_names(cards: Sequence[str]) -> str:
    deck = load_deck()
    names = [deck.name(c) for c in cards]
    if len(names) <= 1:
        return "".join(names) or "nothing"
    return ", ".join(names[:-1]) + " and " + names[-1]


def upper_first(text: str) -> str:
    """The first letter in capitals; unlike str.capitalize(), the rest (names) unchanged."""
    return text[:1].upper() + text[1:]


def pile_name(pile: int, names: Sequence[str]) -> str:
    """Trade piles 0..n-1 are the players'; further ones are the extra piles (2-3 players)."""
    if pile < len(names):
        return f"{names[pile]}'s trade pile"
    return f"extra trade pile {pile - len(names) + 1}"


@dataclass(frozen=True)
class HandStarts(Event):
    hand_number: int
    dealer: int
    per_player: int
    key: ClassVar[str] = "mcg_hand_starts"

    def describe(self, names: Sequence[str]) -> str:
        return (f"Hand {self.hand_number}: {names[self.dealer]} deals {self.per_player} cards"
                " each and one trade card face up.")


@dataclass(frozen=True)
class TradeCardDealt(Event):
    pile: int
    card: str
    key: ClassVar[str] = "mcg_trade_card"

    def describe(self, names: Sequence[str]) -> str:
        return f"{card_names([self.card])} on {pile_name(self.pile, names)}."


@dataclass(frozen=True)
class DealDone(Event):
    draw_pile: int
    key: ClassVar[str] = "mcg_deal_done"

    def describe(self, names: Sequence[str]) -> str:
        if self.draw_pile:
            return f"The deal is done; {counted(self.draw_pile, 'card')} in the draw pile."
        return "The deal is done; there is no draw pile."


@dataclass(frozen=True)
class Drew(Event):
    player: int
    left: int
    key: ClassVar[str] = "mcg_drew"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} draws; {self.left} left in the draw pile."


@dataclass(frozen=True)
class Traded(Event):
    player: int
    pile: int  # the other trade pile
    given: tuple[str, ...]
    taken: tuple[str, ...]
    key: ClassVar[str] = "mcg_traded"

    def describe(self, names: Sequence[str]) -> str:
        who = names[self.player]
        if self.pile < len(names):
            return (f"{who} gives {card_names(self.given)} to {names[self.pile]} and takes"
                    f" {card_names(self.taken)}.")
        extra = " and the top card of the draw pile" if len(self.given) == 2 else ""
        return (f"{who} puts {card_names(self.given)} on {pile_name(self.pile, names)} and"
                f" takes {card_names(self.taken)}{extra}.")


@dataclass(frozen=True)
class AddedToPile(Event):
    player: int
    card: str
    key: ClassVar[str] = "mcg_added"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} adds {card_names([self.card])} to the trade pile."


@dataclass(frozen=True)
class Discarded(Event):
    player: int
    card: str
    more: int  # discards still due this turn
    key: ClassVar[str] = "mcg_discarded"

    def describe(self, names: Sequence[str]) -> str:
        tail = f" {self.more} more to discard." if self.more else ""
        return f"{names[self.player]} discards {card_names([self.card])}.{tail}"


@dataclass(frozen=True)
class MustDiscard(Event):
    player: int
    count: int
    key: ClassVar[str] = "mcg_must_discard"
    priority: ClassVar[int] = Priority.CHATTER

    def describe(self, names: Sequence[str]) -> str:
        n = self.count
        return f"{names[self.player]}, discard {n} card{'s' if n > 1 else ''} onto your trade pile."


@dataclass(frozen=True)
class LaidDown(Event):
    player: int
    cards: tuple[str, ...]
    chances: tuple[str, ...]
    value: int
    items: str = ""
    key: ClassVar[str] = "mcg_laid_down"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        items = f": {self.items}" if self.items else ""
        text = (f"{names[self.player]} lays down{items}; {money(self.value)} before the"
                " reward.")
        if self.chances:
            text += f" Chance stands for {card_names(self.chances)}."
        return text


@dataclass(frozen=True)
class RewardTaken(Event):
    player: int
    cards: tuple[str, ...]
    key: ClassVar[str] = "mcg_reward"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]}'s reward: {card_names(self.cards)}."


@dataclass(frozen=True)
class Exchanged(Event):
    player: int
    other: int
    given: str
    taken: str
    key: ClassVar[str] = "mcg_exchanged"

    def describe(self, names: Sequence[str]) -> str:
        return (f"{names[self.player]} takes {card_names([self.taken])} from {names[self.other]}"
                f" and gives {card_names([self.given])}.")


@dataclass(frozen=True)
class CardsPassed(Event):
    key: ClassVar[str] = "mcg_passed"

    def describe(self, names: Sequence[str]) -> str:
        return "Everyone has passed a card to the left."


@dataclass(frozen=True)
class HandShown(Event):
    player: int
    cards: tuple[str, ...]
    key: ClassVar[str] = "mcg_shown"
    priority: ClassVar[int] = Priority.CHATTER

    def describe(self, names: Sequence[str]) -> str:
        n = len(self.cards)
        return f"{names[self.player]} shows {n} card{'s' if n != 1 else ''}."


@dataclass(frozen=True)
class HandScored(Event):
    player: int
    won: int
    items: str
    chance_zero: bool
    mr_monopoly: bool
    balance: int
    key: ClassVar[str] = "mcg_scored"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        who = names[self.player]
        if self.chance_zero:
            return f"{who} holds a Chance card and scores zero. {who} has {money(self.balance)}."
        items = self.items
        if self.mr_monopoly:
            items = ("" if items == "nothing" else items + "; ") + "most Mr. Monopoly $1,000"
        return f"{who} wins {money(self.won)}: {items}. {who} has {money(self.balance)}."


@dataclass(frozen=True)
class MrMonopolyTie(Event):
    count: int
    key: ClassVar[str] = "mcg_mr_tie"

    def describe(self, names: Sequence[str]) -> str:
        return f"Tie for most Mr. Monopoly cards ({self.count} each): nobody wins the $1,000."


@dataclass(frozen=True)
class DrawPileEmpty(Event):
    key: ClassVar[str] = "mcg_pile_empty"

    def describe(self, names: Sequence[str]) -> str:
        return "The draw pile is empty: from now on trade or lay down."
