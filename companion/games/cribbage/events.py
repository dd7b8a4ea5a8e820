"""Typed cribbage events; each says its sentence from the same itemised count it carries."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from companion.cards import Card
from companion.engine import Event, Priority
from companion.games.cribbage.scoring import NOTHING, Count, number_words


def card_name(card: str) -> str:
    return Card.parse(card).name


def cards_named(cards: Sequence[str]) -> str:
    """ "the five of hearts, the six of clubs and the jack of spades": cards as said aloud."""
    named = [f"the {card_name(c)}" for c in cards]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]


def side_name(names: Sequence[str], side: tuple[int, ...]) -> str:
    return " and ".join(names[p] for p in side)


@dataclass(frozen=True)
class NewHand(Event):
    dealer: int
    number: int
    read: bool  # True when every dealt card is read in (option deal=read)
    key: ClassVar[str] = "cribbage.new_hand"

    def describe(self, names: Sequence[str]) -> str:
        dealer = names[self.dealer]
        cutter = names[(self.dealer + 1) % len(names)]
        if self.read:
            return f"Hand {self.number}: {dealer} deals. Read each card as it is dealt."
        return (f"Hand {self.number}: {dealer} deals. Discard to {dealer}'s crib, then"
                f" {cutter} cuts and {dealer} turns the starter.")


@dataclass(frozen=True)
class GameWon(Event):
    """A game of a match won; the match goes on (the last game is a GameOver)."""

    side: tuple[int, ...]
    number: int
    kind: str  # "", "skunk", "double skunk", "lurch"
    points: int  # game points it is worth
    match: str  # the match in words
    key: ClassVar[str] = "cribbage.game_won"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        how = f" with a {self.kind}" if self.kind else ""
        worth = f"{number_words(self.points)} game points"
        return (f"{side_name(names, self.side)} {'wins' if len(self.side) == 1 else 'win'}"
                f" game {self.number}{how}: {worth}. {self.match}")


@dataclass(frozen=True)
class DealRead(Event):
    """Every dealt card has been read (deal=read); discards come next."""

    player: int  # the first to discard
    discard: int  # cards each player discards
    key: ClassVar[str] = "cribbage.deal_read"

    def describe(self, names: Sequence[str]) -> str:
        n = "one card" if self.discard == 1 else f"{number_words(self.discard)} cards"
        return f"The deal is read. {names[self.player]}, discard {n} to the crib."


@dataclass(frozen=True)
class Discarded(Event):
    player: int
    cards: int
    key: ClassVar[str] = "cribbage.discarded"

    def describe(self, names: Sequence[str]) -> str:
        n = "a card" if self.cards == 1 else f"{number_words(self.cards)} cards"
        return f"{names[self.player]} puts {n} in the crib."


@dataclass(frozen=True)
class StarterTurned(Event):
    card: str
    key: ClassVar[str] = "cribbage.starter"

    def describe(self, names: Sequence[str]) -> str:
        return f"The starter is the {card_name(self.card)}."


@dataclass(frozen=True)
class Scored(Event):
    """Points pegged: his heels, a go, a hand or the crib (``reason``), itemised in ``count``."""

    player: int
    side: tuple[int, ...]
    reason: str  # "heels", "go", "hand", "crib", "muggins"
    count: Count
    score: int  # the side's score after pegging
    key: ClassVar[str] = "cribbage.scored"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        score = _score(names, self.side, self.score)
        return f"{names[self.player]}: {self.count.spoken()}. {score}"


@dataclass(frozen=True)
class CardPlayed(Event):
    """A card in the play, the running count, and what the card pegged (itemised)."""

    player: int
    side: tuple[int, ...]
    card: str
    total: int  # the running count after the card
    count: Count  # what it scored (empty when nothing)
    score: int
    key: ClassVar[str] = "cribbage.played"

    def describe(self, names: Sequence[str]) -> str:
        text = f"{names[self.player]}: {card_name(self.card)}, {number_words(self.total)}."
        if self.count.phrases:
            spoken = self.count.spoken()
            text += f" {spoken[0].upper()}{spoken[1:]}. {_score(names, self.side, self.score)}"
        return text


@dataclass(frozen=True)
class CardShown(Event):
    """A card of a hand being shown, read one at a time."""

    player: int
    card: str
    number: int  # 1..4
    key: ClassVar[str] = "cribbage.shown"
    priority: ClassVar[int] = Priority.CHATTER

    def describe(self, names: Sequence[str]) -> str:
        return f"{card_name(self.card)}, {number_words(self.number)} of four."


@dataclass(frozen=True)
class SaidGo(Event):
    player: int
    total: int
    key: ClassVar[str] = "cribbage.go"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]}: go, at {number_words(self.total)}."


@dataclass(frozen=True)
class CountReset(Event):
    leader: int
    key: ClassVar[str] = "cribbage.reset"

    def describe(self, names: Sequence[str]) -> str:
        return f"The count starts again at zero. {names[self.leader]} to lead."


@dataclass(frozen=True)
class PeggingTotals(Event):
    """At the end of the play: what each side pegged this hand."""

    sides: tuple[tuple[int, ...], ...]
    points: tuple[int, ...]
    key: ClassVar[str] = "cribbage.pegging_totals"

    def describe(self, names: Sequence[str]) -> str:
        parts = [f"{side_name(names, s)} {p}" for s, p in zip(self.sides, self.points, strict=True)]
        return "The play is over. Pegged this hand: " + ", ".join(parts) + "."


@dataclass(frozen=True)
class HandCounted(Event):
    """A hand or the crib counted aloud at the show, item by item."""

    player: int
    side: tuple[int, ...]
    crib: bool
    cards: tuple[str, ...]
    starter: str
    count: Count
    score: int
    key: ClassVar[str] = "cribbage.counted"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        whose = f"{names[self.player]}'s {'crib' if self.crib else 'hand'}"
        spoken = self.count.spoken(NOTHING)
        return (f"{whose}, {cards_named(self.cards)}, with the {card_name(self.starter)}:"
                f" {spoken}."
                f" {_score(names, self.side, self.score)}")


@dataclass(frozen=True)
class ClaimPegged(Event):
    """Muggins by call: the claimed count is pegged and the true count is kept back until an
    opponent calls muggins or the next play closes the chance."""

    player: int
    side: tuple[int, ...]
    crib: bool
    claim: int
    score: int
    key: ClassVar[str] = "cribbage.claim_pegged"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        whose = "crib" if self.crib else "hand"
        return (f"{names[self.player]} pegs {self.claim} for the {whose}."
                f" {_score(names, self.side, self.score)}")


@dataclass(frozen=True)
class MugginsCalled(Event):
    """An opponent called muggins on a short count and takes the missed points."""

    caller: int
    player: int
    missed: int
    key: ClassVar[str] = "cribbage.muggins_called"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        points = "point" if self.missed == 1 else "points"
        return (f"Muggins! {names[self.player]} missed {self.missed} {points}:"
                f" {names[self.caller]} takes them.")


@dataclass(frozen=True)
class ClaimChecked(Event):
    """Muggins (or any claimed count): what was claimed against what the cards are worth."""

    player: int
    claimed: int
    actual: int
    taker: int | None  # who takes the missed points (muggins), if anyone
    key: ClassVar[str] = "cribbage.claim"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        name = names[self.player]
        if self.claimed == self.actual:
            return f"{name} claims {self.claimed}: right."
        if self.claimed > self.actual:
            return (f"{name} claims {self.claimed}, but it is worth {self.actual}:"
                    f" {name} pegs {self.actual}.")
        missed = self.actual - self.claimed
        text = f"{name} claims {self.claimed}, but it is worth {self.actual}: {missed} missed."
        if self.taker is not None:
            text += f" Muggins! {names[self.taker]} takes {missed}."
        return text


@dataclass(frozen=True)
class FalseGo(Event):
    """deal=hidden: a card played later shows that an earlier go was not true."""

    player: int
    card: str
    total: int
    key: ClassVar[str] = "cribbage.false_go"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return (f"Note: {names[self.player]} said go at {number_words(self.total)} while holding"
                f" the {card_name(self.card)}, which would have fitted.")


def _score(names: Sequence[str], side: tuple[int, ...], score: int) -> str:
    who = side_name(names, side)
    return f"{who} {'have' if len(side) > 1 else 'has'} {score}."
