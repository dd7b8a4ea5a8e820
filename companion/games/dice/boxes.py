"""The score form of the five-dice game (rulebook 002, "Dice"): boxes and what dice score in them.

Shared by the rules engine (``dice_game``), the optimal-strategy solver (``optimal``) and
``companion count dice``. Dice are given as values 1..6; a *roll* is a sorted tuple of five.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
LOWER = (
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "five_of_a_kind",
    "chance",
)
BOXES: tuple[str, ...] = UPPER + LOWER

UPPER_BONUS = 35
UPPER_BONUS_AT = 63

# How the rulebook's kinds are read (option ``kinds``): "exactly" follows the text literally
# ("three dice with the same number of pips + two different ones", "four ... + one other");
# "at-least" is the Yahtzee reading (four or five of a kind also count as three of a kind).
KINDS_READINGS = ("exactly", "at-least")

SPOKEN = {
    "ones": "ones", "twos": "twos", "threes": "threes", "fours": "fours", "fives": "fives",
    "sixes": "sixes", "three_of_a_kind": "three of a kind", "four_of_a_kind": "four of a kind",
    "full_house": "full house", "small_straight": "small straight",
    "large_straight": "large straight", "five_of_a_kind": "five of a kind", "chance": "chance",
}

# Typed names a player may use for a box ("fh", "3k", "sixes", "6", "small").
_ALIASES: dict[str, str] = {
    "1": "ones", "2": "twos", "3": "threes", "4": "fours", "5": "fives", "6": "sixes",
    "aces": "ones", "one": "ones", "two": "twos", "three": "threes", "four": "fours",
    "five": "fives", "six": "sixes",
    "3k": "three_of_a_kind", "threeofakind": "three_of_a_kind", "trips": "three_of_a_kind",
    "4k": "four_of_a_kind", "fourofakind": "four_of_a_kind", "quads": "four_of_a_kind",
    "fh": "full_house", "fullhouse": "full_house", "house": "full_house",
    "ss": "small_straight", "smallstraight": "small_straight", "small": "small_straight",
    "ls": "large_straight", "largestraight": "large_straight", "large": "large_straight",
    "5k": "five_of_a_kind", "fiveofakind": "five_of_a_kind", "yahtzee": "five_of_a_kind",
    "c": "chance", "ch": "chance",
}


class BoxError(ValueError):
    pass


def parse_box(text: str) -> str:
    """A box name from what a person types: "full house", "fh", "sixes", "6", "3k"."""
    key = "".join(ch for ch in text.lower() if ch.isalnum())
    for box in BOXES:
        if key == box.replace("_", ""):
            return box
    if key in _ALIASES:
        return _ALIASES[key]
    raise BoxError(f"{text!r} is not a box on the score form")


def parse_dice(words: Iterable[str]) -> tuple[int, ...]:
    """Dice values 1..6 from words ("2 3 3 3 4" or "23334")."""
    values: list[int] = []
    for word in words:
        for ch in word.replace(",", " ").split():
            digits = ch if len(ch) > 1 and ch.isdigit() else None
            for d in digits or [ch]:
                if not d.isdigit() or not 1 <= int(d) <= 6:
                    raise BoxError(f"{d!r} is not a die value from 1 to 6")
                values.append(int(d))
    return tuple(values)


def score(box: str, dice: Sequence[int], kinds: str = "exactly") -> int:
    """What ``dice`` (five values) would score in ``box`` (0 when they do not qualify)."""
    if len(dice) != 5:
        raise BoxError("a score needs five dice")
    counts = Counter(dice)
    total = sum(dice)
    if box in UPPER:
        face = UPPER.index(box) + 1
        return face * counts[face]
    most = max(counts.values())
    if box == "three_of_a_kind":
        ok = most == 3 or (kinds == "at-least" and most >= 3)
        return total if ok else 0
    if box == "four_of_a_kind":
        ok = most == 4 or (kinds == "at-least" and most >= 4)
        return total if ok else 0
    if box == "full_house":
        return 25 if sorted(counts.values()) == [2, 3] else 0
    if box == "small_straight":
        faces = set(dice)
        runs = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
        return 30 if any(run <= faces for run in runs) else 0
    if box == "large_straight":
        return 40 if sorted(dice) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]) else 0
    if box == "five_of_a_kind":
        return 50 if most == 5 else 0
    if box == "chance":
        return total
    raise BoxError(f"{box!r} is not a box on the score form")


def all_scores(dice: Sequence[int], kinds: str = "exactly") -> dict[str, int]:
    return {box: score(box, dice, kinds) for box in BOXES}


@dataclass(frozen=True)
class FormTotals:
    upper: int
    bonus: int
    lower: int

    @property
    def total(self) -> int:
        return self.upper + self.bonus + self.lower


def totals(filled: dict[str, int]) -> FormTotals:
    upper = sum(v for k, v in filled.items() if k in UPPER)
    lower = sum(v for k, v in filled.items() if k in LOWER)
    return FormTotals(upper, UPPER_BONUS if upper >= UPPER_BONUS_AT else 0, lower)
