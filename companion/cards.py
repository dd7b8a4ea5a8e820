"""Standard playing cards: a small value type with a parse/format pair.

``Card.parse("10d") == Card.parse("TD") == Card.parse("10♦")`` and ``str(card) == "10D"``.
"""

from __future__ import annotations

from dataclasses import dataclass

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAMES = {
    "A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "10": "ten", "J": "jack", "Q": "queen", "K": "king",
}
_SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}


class CardError(ValueError):
    pass


@dataclass(frozen=True, order=True)
class Card:
    rank: int  # 1 (ace) .. 13 (king)
    suit: str  # "S", "H", "D", "C"

    @classmethod
    def parse(cls, text: str) -> Card:
        raw = text.strip().upper()
        if len(raw) < 2:
            raise CardError(f"{text!r} is not a card: write rank then suit, like 5H or 10D")
        suit = _SUIT_SYMBOLS.get(raw[-1], raw[-1])
        rank_text = raw[:-1]
        if rank_text in {"T", "1O"}:
            rank_text = "10"
        if suit not in SUITS:
            raise CardError(f"{text!r} is not a card: the suit must be S, H, D or C")
        if rank_text not in RANKS:
            raise CardError(f"{text!r} is not a card: the rank must be A, 2 to 10, J, Q or K")
        return cls(RANKS.index(rank_text) + 1, suit)

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @property
    def name(self) -> str:
        return f"{RANK_NAMES[RANKS[self.rank - 1]]} of {SUIT_NAMES[self.suit]}"


FULL_DECK: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in range(1, 14))
