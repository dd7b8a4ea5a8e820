"""Typed Hearts events; each one says its own sentence."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from companion.engine import Event, Priority
from companion.games.hearts.rules import card_name, number_words, pass_words, points, suit_name


def _points(n: int) -> str:
    return f"{number_words(n)} point{'s' * (n != 1)}"


@dataclass(frozen=True)
class NewHand(Event):
    number: int
    dealer: int
    shift: int  # seats to the left the hand passes to (0: hold)
    cards: int  # cards passed
    read: bool
    key: ClassVar[str] = "hearts.new_hand"

    def describe(self, names: Sequence[str]) -> str:
        text = f"Hand {self.number}: {names[self.dealer]} deals."
        if self.read:
            text += " Read each card as it is dealt."
        if self.cards:
            text += f" Then {pass_words(self.shift, len(names))}, {number_words(self.cards)} cards."
        return text


@dataclass(frozen=True)
class DealRead(Event):
    shift: int
    cards: int
    key: ClassVar[str] = "hearts.deal_read"

    def describe(self, names: Sequence[str]) -> str:
        if self.cards and self.shift:
            return (f"The deal is read. Each player, {pass_words(self.shift, len(names))}:"
                    f" say pass and your {number_words(self.cards)} cards.")
        return "The deal is read."


@dataclass(frozen=True)
class Passed(Event):
    player: int
    to: int
    key: ClassVar[str] = "hearts.passed"
    priority: ClassVar[int] = Priority.CHATTER

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} passes to {names[self.to]}."


@dataclass(frozen=True)
class PassDone(Event):
    leader: int | None  # None: whoever holds the opening club (deal=hidden)
    opening: str | None
    key: ClassVar[str] = "hearts.pass_done"

    def describe(self, names: Sequence[str]) -> str:
        return _lead_words(names, self.leader, self.opening)


@dataclass(frozen=True)
class FirstLead(Event):
    """Who leads the hand's first trick (said when there is no passing)."""

    leader: int | None
    opening: str | None
    key: ClassVar[str] = "hearts.first_lead"

    def describe(self, names: Sequence[str]) -> str:
        return _lead_words(names, self.leader, self.opening)


def _lead_words(names: Sequence[str], leader: int | None, opening: str | None) -> str:
    if leader is None:
        return f"Whoever holds the {card_name(opening or '2C')} leads it."
    if opening:
        return f"{names[leader]} leads the {card_name(opening)}."
    return f"{names[leader]} leads."


@dataclass(frozen=True)
class CardPlayed(Event):
    player: int
    card: str
    key: ClassVar[str] = "hearts.played"

    def describe(self, names: Sequence[str]) -> str:
        text = f"{names[self.player]} plays the {card_name(self.card)}"
        if self.card == "QS":
            return text + ": thirteen points to come."
        return text + "."


@dataclass(frozen=True)
class HeartsBroken(Event):
    by_queen: bool
    key: ClassVar[str] = "hearts.broken"

    def describe(self, names: Sequence[str]) -> str:
        return "The queen breaks hearts." if self.by_queen else "Hearts are broken."


@dataclass(frozen=True)
class TrickTaken(Event):
    player: int
    card: str
    points: int
    number: int
    key: ClassVar[str] = "hearts.trick"

    def describe(self, names: Sequence[str]) -> str:
        text = f"{names[self.player]} takes the trick with the {card_name(self.card)}"
        if self.points:
            text += f": {_points(self.points)}"
        return text + "."


@dataclass(frozen=True)
class WidowTaken(Event):
    player: int
    cards: tuple[str, ...]  # empty while not yet read (deal=hidden)
    key: ClassVar[str] = "hearts.widow"

    def describe(self, names: Sequence[str]) -> str:
        if not self.cards:
            return f"{names[self.player]} takes the widow: turn it up and read its cards."
        worth = sum(points(c) for c in self.cards)
        shown = ", ".join(card_name(c) for c in self.cards)
        tail = f": {_points(worth)}" if worth else ""
        return f"{names[self.player]} takes the widow, {shown}{tail}."


@dataclass(frozen=True)
class RevokeRevealed(Event):
    """deal=hidden: a card played now shows that an earlier play broke a rule."""

    player: int
    card: str
    trick: int
    rule: str
    key: ClassVar[str] = "hearts.revoke"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return (f"Revoke! {names[self.player]} holds the {card_name(self.card)}, so the play in"
                f" trick {self.trick} broke the rule: {self.rule}.")


@dataclass(frozen=True)
class HandScored(Event):
    number: int
    taken: tuple[int, ...]
    added: tuple[int, ...]
    totals: tuple[int, ...]
    shooter: int | None
    moon: str  # "subtract", "add" or "" when no moon
    key: ClassVar[str] = "hearts.hand_scored"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        text = f"End of hand {self.number}. "
        if self.shooter is not None:
            who = names[self.shooter]
            if self.moon == "subtract":
                text += f"{who} shoots the moon: 26 off {who}'s score. "
            else:
                text += f"{who} shoots the moon: 26 to everybody else. "
        parts = [f"{names[p]} {self.added[p]}" for p in range(len(self.added))]
        text += "This hand: " + ", ".join(parts) + ". "
        totals = [f"{names[p]} {self.totals[p]}" for p in range(len(self.totals))]
        return text + "Scores: " + ", ".join(totals) + "."


@dataclass(frozen=True)
class MoonChoice(Event):
    player: int
    key: ClassVar[str] = "hearts.moon_choice"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        who = names[self.player]
        return (f"{who} shoots the moon! {who}, choose: moon subtract (26 off your score) or"
                " moon add (26 to everybody else).")


def suit_words(s: str) -> str:
    return suit_name(s)
