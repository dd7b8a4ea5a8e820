"""Cribbage scoring, itemised: the show (hand and crib) and the play (pegging).

Every total is the sum of an itemisation, and the spoken count is generated from the same
items (grouped into phrases), so what is said and what is pegged can never disagree.
Rulebook 000, "Cribbage Instructions": fifteens 2 each; pairs 2 (three of a kind 6, four 12);
runs of three or more, double/triple/quadruple runs counted per combination; flush 4 in the
hand (5 with the starter), in the crib only with all five; one for the jack of the starter's
suit held in hand or crib (never the starter itself).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from companion.cards import RANKS, Card

FIFTEEN = "fifteen"
THIRTY_ONE = "thirty-one"
PAIR = "pair"
RUN = "run"
FLUSH = "flush"
NOBS = "nobs"
GO = "go"
LAST_CARD = "last card"
HEELS = "his heels"

RANK_PLURALS = (
    "aces", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
    "jacks", "queens", "kings",
)


def value(card: Card) -> int:
    """Pip value for fifteens and the running count: faces 10, ace 1."""
    return min(card.rank, 10)


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


@dataclass(frozen=True)
class Item:
    """One scoring combination: what it is, which cards make it, what it is worth."""

    kind: str
    cards: tuple[Card, ...]
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "cards": [str(c) for c in self.cards], "points": self.points}


@dataclass(frozen=True)
class Phrase:
    """Items said together ("a double run of three" is two runs and a pair)."""

    words: str
    items: tuple[Item, ...]

    @property
    def points(self) -> int:
        return sum(item.points for item in self.items)


# A hand worth nothing, said so that it cannot be heard or read as a score. Players call it
# "nineteen" (no hand scores 19), but next to "Red has 19" that reads as a score of 19.
NOTHING = "zero, no points"


@dataclass(frozen=True)
class Count:
    """An itemised score. ``total`` and ``spoken()`` both derive from ``phrases``."""

    phrases: tuple[Phrase, ...] = ()

    @property
    def items(self) -> tuple[Item, ...]:
        return tuple(item for phrase in self.phrases for item in phrase.items)

    @property
    def total(self) -> int:
        return sum(item.points for item in self.items)

    def __add__(self, other: Count) -> Count:
        return Count(self.phrases + other.phrases)

    def running(self) -> list[int]:
        """The running total after each phrase."""
        out, total = [], 0
        for phrase in self.phrases:
            total += phrase.points
            out.append(total)
        return out

    def spoken(self, nothing: str = "nothing") -> str:
        """The count as players say it: "fifteen two, fifteen four, and a pair is six"."""
        if not self.phrases:
            return nothing
        parts = []
        for index, (phrase, total) in enumerate(zip(self.phrases, self.running(), strict=True)):
            if phrase.words == FIFTEEN:
                text = f"fifteen {number_words(total)}"
            elif index == 0:
                text = f"{phrase.words} for {number_words(total)}"
            else:
                text = f"{phrase.words} is {number_words(total)}"
            if index and index == len(self.phrases) - 1:
                text = "and " + text
            parts.append(text)
        return ", ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {
            "items": [item.to_json() for item in self.items],
            "phrases": [
                {"words": p.words, "points": p.points, "running": r}
                for p, r in zip(self.phrases, self.running(), strict=True)
            ],
            "total": self.total,
            "spoken": self.spoken(),
        }


# --------------------------------------------------------------------------- the show


def fifteens(cards: Sequence[Card]) -> list[Item]:
    out = []
    for size in range(2, len(cards) + 1):
        for combo in combinations(cards, size):
            if sum(value(c) for c in combo) == 15:
                out.append(Item(FIFTEEN, combo, 2))
    return out


def pairs(cards: Sequence[Card]) -> list[Item]:
    return [Item(PAIR, (a, b), 2) for a, b in combinations(cards, 2) if a.rank == b.rank]


def runs(cards: Sequence[Card]) -> list[Item]:
    """Every longest run, once per combination of cards (so a double run is two runs)."""
    for size in range(len(cards), 2, -1):
        found = []
        for combo in combinations(cards, size):
            ranks = sorted(c.rank for c in combo)
            if all(b - a == 1 for a, b in zip(ranks, ranks[1:], strict=False)):
                found.append(Item(RUN, tuple(sorted(combo, key=lambda c: c.rank)), size))
        if found:
            return found
    return []


def flush(
    hand: Sequence[Card], starter: Card | None, crib: bool, crib_four_flush: bool
) -> list[Item]:
    if len(hand) < 4 or len({c.suit for c in hand}) != 1:
        return []
    if starter is not None and starter.suit == hand[0].suit:
        return [Item(FLUSH, (*hand, starter), len(hand) + 1)]
    if crib and not crib_four_flush:
        return []  # the crib scores a flush only with all five cards of one suit
    return [Item(FLUSH, tuple(hand), len(hand))]


def nobs(hand: Sequence[Card], starter: Card | None) -> list[Item]:
    if starter is None:
        return []
    return [Item(NOBS, (c,), 1) for c in hand if c.rank == 11 and c.suit == starter.suit]


def show(
    hand: Sequence[Card],
    starter: Card | None,
    *,
    crib: bool = False,
    crib_four_flush: bool = False,
) -> Count:
    """The itemised count of a hand (or the crib) with the starter, in the rulebook's order:
    fifteens, pairs, runs (a multiple run said with its pairs), flush, his nob."""
    cards = [*hand, starter] if starter is not None else list(hand)
    if len(set(cards)) != len(cards):
        raise ValueError(f"a card appears twice in {cards_text(cards)}")
    phrases = [Phrase(FIFTEEN, (item,)) for item in fifteens(cards)]
    run_items = runs(cards)
    run_ranks = {c.rank for item in run_items for c in item.cards}
    by_rank: dict[int, list[Item]] = {}
    for item in pairs(cards):
        by_rank.setdefault(item.cards[0].rank, []).append(item)
    for rank in sorted(by_rank):
        if rank not in run_ranks:
            phrases.append(Phrase(_pairs_words(len(by_rank[rank]), rank), tuple(by_rank[rank])))
    if run_items:
        in_run = tuple(i for r in sorted(by_rank) if r in run_ranks for i in by_rank[r])
        words = _runs_words(len(run_items), run_items[0].points)
        phrases.append(Phrase(words, (*run_items, *in_run)))
    for item in flush(hand, starter, crib, crib_four_flush):
        phrases.append(Phrase(f"a flush of {number_words(item.points)}", (item,)))
    for item in nobs(hand, starter):
        phrases.append(Phrase("one for his nob", (item,)))
    return Count(tuple(phrases))


def _pairs_words(npairs: int, rank: int) -> str:
    name = {1: "a pair", 3: "a pair royal", 6: "a double pair royal"}[npairs]
    return f"{name} of {RANK_PLURALS[rank - 1]}"


def _runs_words(nruns: int, length: int) -> str:
    multiple = {1: "a run", 2: "a double run", 3: "a triple run", 4: "a quadruple run"}[nruns]
    return f"{multiple} of {number_words(length)}"


# --------------------------------------------------------------------------- the play


def peg(series: Sequence[Card]) -> Count:
    """What the last card of ``series`` (the cards played since the count was last reset)
    scores: fifteen or thirty-one, pairs among the latest cards, the longest run among the
    latest cards in any order. (One card can never make a pair and a run at once: a run
    needs the latest cards all of different ranks.)"""
    if not series:
        return Count()
    phrases = []
    total = sum(value(c) for c in series)
    last = series[-1]
    if total == 15:
        phrases.append(Phrase(FIFTEEN, (Item(FIFTEEN, tuple(series), 2),)))
    elif total == 31:
        phrases.append(Phrase(THIRTY_ONE, (Item(THIRTY_ONE, tuple(series), 2),)))
    same = 1
    while same < len(series) and series[-same - 1].rank == last.rank:
        same += 1
    if same >= 2:
        points = {2: 2, 3: 6, 4: 12}[same]
        item = Item(PAIR, tuple(series[-same:]), points)
        phrases.append(Phrase(_pairs_words(points // 2, last.rank), (item,)))
    for size in range(len(series), 2, -1):
        ranks = sorted(c.rank for c in series[-size:])
        if all(b - a == 1 for a, b in zip(ranks, ranks[1:], strict=False)):
            item = Item(RUN, tuple(series[-size:]), size)
            phrases.append(Phrase(_runs_words(1, size), (item,)))
            break
    return Count(tuple(phrases))


def single(kind: str, cards: Sequence[Card], points: int, words: str) -> Count:
    """A one-item count (go, last card, his heels)."""
    return Count((Phrase(words, (Item(kind, tuple(cards), points),)),))


# --------------------------------------------------------------------------- words

_ONES = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen",
)
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def number_words(n: int) -> str:
    """0..999 in words ("twenty-nine"), as a count is said aloud."""
    if n < 0:
        return "minus " + number_words(-n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
    hundreds, rest = divmod(n, 100)
    return f"{_ONES[hundreds]} hundred" + (f" and {number_words(rest)}" if rest else "")


def parse_cards(texts: Iterable[str]) -> list[Card]:
    """Cards from typed words; raises ValueError (CardError) with the reason."""
    return [Card.parse(t) for t in texts]


__all__ = [
    "Card", "Count", "Item", "Phrase", "RANKS", "number_words", "parse_cards", "peg", "show",
    "single", "value",
]
