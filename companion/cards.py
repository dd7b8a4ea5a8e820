"""Standard playing cards: a small value type with a parse/format pair.

``Card.parse("10d") == Card.parse("TD") == Card.parse("10♦") == Card.parse("ten of diamonds")``
and ``str(card) == "10D"``; ``parse_cards`` reads a list of either kind.
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
        named = _by_name(text)
        if named is not None:
            return named
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


_RANK_WORDS = {**{name: RANKS.index(code) + 1 for code, name in RANK_NAMES.items()},
               **{code.lower(): RANKS.index(code) + 1 for code in RANKS}, "1": 1}
_SUIT_WORDS = {**{name: code for code, name in SUIT_NAMES.items()},
               **{name[:-1]: code for code, name in SUIT_NAMES.items()}}
_ARTICLES = {"the", "a", "an"}


def _by_name(text: str) -> Card | None:
    """ "five of hearts", "the Jack of Clubs", "10 of diamonds"; None if not of that form."""
    words = [w for w in text.lower().split() if w not in _ARTICLES]
    if len(words) != 3 or words[1] != "of":
        return None
    rank, suit = _RANK_WORDS.get(words[0]), _SUIT_WORDS.get(words[2])
    if rank is None or suit is None:
        raise CardError(f"{text.strip()!r} is not a card: say a rank (ace, two ... king) of a"
                        f" suit (spades, hearts, diamonds, clubs)")
    return Card(rank, suit)


def parse_cards(text: str) -> list[Card]:
    """Cards by code or by name, separated by spaces or commas: "5H 5D" or "five of hearts,
    five of diamonds" (or a mixture: "5H, the five of diamonds")."""
    words = text.replace(",", " ").split()
    cards: list[Card] = []
    i = 0
    while i < len(words):
        j = i
        while j < len(words) and words[j].lower() in _ARTICLES:
            j += 1
        if j + 2 < len(words) and words[j + 1].lower() == "of":
            cards.append(Card.parse(" ".join(words[j:j + 3])))
            i = j + 3
        else:
            cards.append(Card.parse(words[j] if j < len(words) else words[i]))
            i = max(j, i) + 1
    return cards
