"""Poker dice hands (rulebook 000, "Poker Dice"): faces 9, 10, J, Q, K, A; ranking; names.

Dice are ranks 9..14 (14 = ace). ``evaluate`` gives a comparable ``Hand``: its class and the
ranks that make it; odd dice never count ("the fifth die does not help to decide").
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

RANKS = (9, 10, 11, 12, 13, 14)
LABELS = {9: "9", 10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}
NAMES = {9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace"}
PLURALS = {9: "nines", 10: "tens", 11: "jacks", 12: "queens", 13: "kings", 14: "aces"}
_PARSE = {"9": 9, "10": 10, "T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}

# Classes, lowest first. "nothing" is a throw with none of the rulebook's hands.
CLASSES = ("nothing", "one pair", "two pair", "three of a kind", "straight", "full house",
           "four of a kind", "five of a kind")
STRAIGHTS = ((9, 10, 11, 12, 13), (10, 11, 12, 13, 14))


class HandError(ValueError):
    pass


_WORDS = {**{name: r for r, name in NAMES.items()}, **{name: r for r, name in PLURALS.items()}}
_PIPS = {str(p): p + 8 for p in range(1, 7)}  # a die read as pips: 1=9, 2=10, ... 6=A


def parse_faces(words: Iterable[str]) -> tuple[int, ...]:
    """Ranks from words: faces "A A K K K", "9 10 J Q K", "AAKKK", "T"; their names "ace",
    "kings"; or pips "6 6 5 5 5" (1=9 ... 6=A, as a die is read: pips and faces never clash)."""
    out: list[int] = []
    for word in words:
        low = word.strip().lower()
        if low in _WORDS or low in _PIPS:
            out.append(_WORDS[low] if low in _WORDS else _PIPS[low])
            continue
        token = word.strip().upper()
        while token:
            if token.startswith("10"):
                out.append(10)
                token = token[2:]
            elif token[0] in _PARSE:
                out.append(_PARSE[token[0]])
                token = token[1:]
            else:
                raise HandError(f"{word} is not a poker die: say 9, 10, J, Q, K or A (or pips 1 to"
                               " 6).")
    return tuple(out)


def face_of_pips(pips: int) -> int:
    """A die read as 1..6 pips (devices, keyboard ``roll``): 1=9, 2=10, 3=J, 4=Q, 5=K, 6=A."""
    return pips + 8


def labels(dice: Sequence[int]) -> str:
    return " ".join(LABELS[d] for d in dice)


@dataclass(frozen=True, order=True)
class Hand:
    rank: int  # index into CLASSES
    key: tuple[int, ...]  # the ranks that make the hand, most important first

    @property
    def name(self) -> str:
        return CLASSES[self.rank]

    def describe(self) -> str:
        c, k = self.name, self.key
        if c == "nothing":
            return "nothing"
        if c == "straight":
            return f"a straight, {NAMES[k[0]]} high"
        if c == "full house":
            return f"a full house, {PLURALS[k[0]]} full of {PLURALS[k[1]]}"
        if c == "two pair":
            return f"two pair, {PLURALS[k[0]]} and {PLURALS[k[1]]}"
        if c == "one pair":
            return f"a pair of {PLURALS[k[0]]}"
        return f"{c.replace('of a kind', '')}{PLURALS[k[0]]}".replace("  ", " ")


def _natural(dice: tuple[int, ...]) -> Hand:
    counts = Counter(dice)
    groups = sorted(counts.items(), key=lambda rc: (-rc[1], -rc[0]))
    shape = [c for _, c in groups]
    top = [r for r, _ in groups]
    if shape == [5]:
        return Hand(7, (top[0],))
    if shape == [4, 1]:
        return Hand(6, (top[0],))
    if shape == [3, 2]:
        return Hand(5, (top[0], top[1]))
    if tuple(sorted(dice)) in STRAIGHTS:
        return Hand(4, (max(dice),))
    if shape == [3, 1, 1]:
        return Hand(3, (top[0],))
    if shape == [2, 2, 1]:
        return Hand(2, (top[0], top[1]))
    if shape == [2, 1, 1, 1]:
        return Hand(1, (top[0],))
    return Hand(0, ())


@cache
def _evaluate(dice: tuple[int, ...], aces_wild: bool) -> Hand:
    if not aces_wild or 14 not in dice:
        return _natural(dice)
    others = tuple(d for d in dice if d != 14)
    aces = len(dice) - len(others)
    best = _natural(dice)
    for values in itertools.combinations_with_replacement(RANKS, aces):
        best = max(best, _natural(tuple(sorted(others + values))))
    return best


def evaluate(dice: Sequence[int], aces_wild: bool = False) -> Hand:
    if len(dice) != 5 or any(d not in RANKS for d in dice):
        raise HandError("a poker dice hand is five dice of 9, 10, J, Q, K or A")
    return _evaluate(tuple(sorted(dice)), aces_wild)


def class_counts(aces_wild: bool = False) -> dict[str, int]:
    """How many of the 6**5 = 7,776 ordered throws fall in each class."""
    counts = dict.fromkeys(CLASSES, 0)
    for throw in itertools.product(RANKS, repeat=5):
        counts[evaluate(throw, aces_wild).name] += 1
    return counts
