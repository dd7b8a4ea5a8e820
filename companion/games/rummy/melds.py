"""Rummy melds: groups (three or four of a rank) and sequences (three or more in suit, in
order: ace low; Q-K-A too with option ace_high, never round the corner), laying off, values."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from companion.games.card_table import CARDS as _CARDS
from companion.games.card_table import card_name as card_name  # said by the game as M.card_name


def rank(c: str) -> int:
    return _CARDS[c].rank


def suit(c: str) -> str:
    return c[-1]


def is_card(c: str) -> bool:
    return c in _CARDS


def value(c: str) -> int:
    """Face cards 10, ace 1, number cards their spot value."""
    return min(rank(c), 10)


def is_group(cards: Sequence[str]) -> bool:
    return 3 <= len(cards) <= 4 and len({rank(c) for c in cards}) == 1 and len(set(cards)) == len(
        cards)


def run_ranks(cards: Sequence[str], ace_high: bool) -> list[int] | None:
    """The ranks of a valid sequence in order, or None."""
    if len(cards) < 3 or len({suit(c) for c in cards}) != 1 or len(set(cards)) != len(cards):
        return None
    ranks = sorted(rank(c) for c in cards)
    if _consecutive(ranks):
        return ranks
    if ace_high and ranks[0] == 1:
        high = sorted([*ranks[1:], 14])
        if _consecutive(high):
            return high
    return None


def _consecutive(ranks: list[int]) -> bool:
    return all(b == a + 1 for a, b in zip(ranks, ranks[1:], strict=False))


def is_meld(cards: Sequence[str], ace_high: bool = False) -> bool:
    return is_group(cards) or run_ranks(cards, ace_high) is not None


def kind(cards: Sequence[str], ace_high: bool = False) -> str:
    return "group" if is_group(cards) else "sequence"


def arranged(cards: Iterable[str], ace_high: bool = False) -> list[str]:
    """A meld's cards in table order: a sequence low to high, a group by suit."""
    cards = list(cards)
    ranks = run_ranks(cards, ace_high)
    if ranks is None:
        return sorted(cards, key=lambda c: "SHDC".index(suit(c)))
    high = 14 in ranks
    return sorted(cards, key=lambda c: 14 if (high and rank(c) == 1) else rank(c))


def fits(meld: Sequence[str], card: str, ace_high: bool = False) -> bool:
    """Whether ``card`` laid off on ``meld`` makes another valid meld of the same kind."""
    if card in meld:
        return False
    grown = [*meld, card]
    if is_group(meld):
        return is_group(grown)
    return run_ranks(grown, ace_high) is not None


def melds_in(
    cards: Sequence[str], ace_high: bool = False, limit: int = 200
) -> list[tuple[str, ...]]:
    """Every group and sequence that can be made from ``cards`` (up to ``limit``)."""
    out: list[tuple[str, ...]] = []
    by_rank: dict[int, list[str]] = {}
    by_suit: dict[str, list[str]] = {}
    for c in cards:
        by_rank.setdefault(rank(c), []).append(c)
        by_suit.setdefault(suit(c), []).append(c)
    for same in by_rank.values():
        for size in (3, 4):
            out += [tuple(g) for g in combinations(sorted(same), size)]
    for same in by_suit.values():
        have = {rank(c): c for c in same}
        if ace_high and 1 in have:
            have[14] = have[1]
        for start in sorted(have):
            run = [have[start]]
            r = start + 1
            while r in have:
                run.append(have[r])
                if len(run) >= 3:
                    out.append(tuple(run))
                r += 1
    return out[:limit]
