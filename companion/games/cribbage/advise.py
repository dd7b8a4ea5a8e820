"""Discard advice: for each way to lay away cards, the average hand over every starter and the
expected crib, computed exactly with numpy over every unseen completion.

The expected crib assumes the other discards (and the starter) are any unseen cards, equally
likely: the plain-probability reading, not a model of what opponents keep.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import Any

import numpy as np

from companion.cards import FULL_DECK, Card
from companion.games.cribbage.stats import rank_score

_POW = np.array([13**4, 13**3, 13**2, 13, 1], dtype=np.int64)
JACK_INDEX = 10  # rank 11 as a 0-based rank


def card_index(card: Card) -> int:
    """Index in FULL_DECK: suit-major, ace to king."""
    return FULL_DECK.index(card)


@cache
def rank_table() -> np.ndarray:
    """Rank part (fifteens, pairs, runs) of every sorted five-rank multiset, by base-13 key."""
    table = np.zeros(13**5, dtype=np.int16)
    for ranks in combinations_with_replacement(range(13), 5):
        table[int(np.dot(ranks, _POW))] = rank_score([r + 1 for r in ranks])
    return table


def score_rows(rows: np.ndarray, crib: bool) -> np.ndarray:
    """Scores of many five-card rows (card indices; four hand cards, then the starter)."""
    ranks = rows % 13
    suits = rows // 13
    base = rank_table()[np.sort(ranks, axis=1) @ _POW]
    same4 = (suits[:, :4] == suits[:, :1]).all(axis=1)
    same5 = same4 & (suits[:, 4] == suits[:, 0])
    flush = np.where(same5, 5, np.where(same4 & (not crib), 4, 0))
    nobs = ((ranks[:, :4] == JACK_INDEX) & (suits[:, :4] == suits[:, 4:5])).sum(axis=1)
    return base.astype(np.int64) + flush + nobs


@cache
def _completions(pool: int, unknown: int) -> np.ndarray:
    """Every choice of ``unknown`` crib cards and then a starter from a pool of ``pool``
    cards, as positions in the pool: shape (N, unknown + 1)."""
    combos = np.array(list(combinations(range(pool), unknown)), dtype=np.int16)
    starters = np.arange(pool, dtype=np.int16)
    rows = np.repeat(combos, pool, axis=0)
    tops = np.tile(starters, len(combos))
    keep = (rows != tops[:, None]).all(axis=1)
    return np.column_stack([rows[keep], tops[keep]])


@dataclass(frozen=True)
class Choice:
    discard: tuple[Card, ...]
    keep: tuple[Card, ...]
    hand: float  # average hand score over every starter
    crib: float  # expected crib score

    def net(self, role: str | None) -> float:
        if role == "dealer":
            return self.hand + self.crib
        if role == "pone":
            return self.hand - self.crib
        return self.hand

    def to_json(self, role: str | None) -> dict[str, Any]:
        return {
            "discard": [str(c) for c in self.discard],
            "keep": [str(c) for c in self.keep],
            "hand": round(self.hand, 4),
            "crib": round(self.crib, 4),
            "net": round(self.net(role), 4),
        }


def advise(cards: list[Card], role: str | None = None) -> list[Choice]:
    """Every discard from a dealt hand (six cards: two away; five cards: one), best first."""
    if len(cards) not in (5, 6):
        raise ValueError(f"give the five or six cards dealt, not {len(cards)}")
    if len(set(cards)) != len(cards):
        raise ValueError("a card appears twice")
    away = len(cards) - 4
    unseen = np.array([card_index(c) for c in FULL_DECK if c not in cards], dtype=np.int16)
    completions = unseen[_completions(len(unseen), 4 - away)]
    choices = []
    for discard in combinations(cards, away):
        keep = tuple(c for c in cards if c not in discard)
        hand_rows = np.column_stack(
            [np.tile([card_index(c) for c in keep], (len(unseen), 1)), unseen]
        )
        fixed = np.tile([card_index(c) for c in discard], (len(completions), 1))
        crib_rows = np.column_stack([fixed, completions])
        choices.append(Choice(
            discard, keep,
            float(score_rows(hand_rows, crib=False).mean()),
            float(score_rows(crib_rows, crib=True).mean()),
        ))
    choices.sort(key=lambda c: -c.net(role))
    return choices
