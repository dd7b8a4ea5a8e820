"""Counting every hand+starter combination (12,994,800) fast, by rank pattern and suit pattern.

A five-card score is a rank part (fifteens, pairs, runs: it depends only on the five ranks)
plus a suit part (flush, his nob). So instead of scoring 13 million card combinations we:

1. score each hand rank multiset H (4 ranks, 1,820 of them) with each starter rank s once
   (the rank part), and count the card combinations with those ranks: prod C(4, h_r) * (4-h_s);
2. split those combinations by suit part. The suit-part distribution depends only on the
   *pattern* (the multiplicities of H, how many jacks it holds, how many cards of the starter's
   rank, whether the starter is a jack), so it is enumerated once per pattern (a few dozen of
   them) over real suits and reused.

The rank part comes from ``rank_score``, which tests check against the itemised scorer
(``scoring.show``) for all 6,175 five-rank multisets; the suit part is computed by
``scoring.flush``/``scoring.nobs`` themselves.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement, product
from math import comb
from typing import Any

from companion.cards import SUITS, Card
from companion.games.cribbage import scoring

JACK = 11


def rank_score(ranks: Sequence[int]) -> int:
    """Fifteens + pairs + runs of five (or any number of) ranks, 1..13."""
    values = [min(r, 10) for r in ranks]
    n = len(values)
    fifteens = 0
    for mask in range(1, 1 << n):
        total = 0
        for i in range(n):
            if mask >> i & 1:
                total += values[i]
        if total == 15:
            fifteens += 2
    counts = Counter(ranks)
    pairs = sum(m * (m - 1) for m in counts.values())  # 2 points per pair
    runs = 0
    r = 1
    while r <= 13:
        if counts[r]:
            start = r
            mult = 1
            while r <= 13 and counts[r]:
                mult *= counts[r]
                r += 1
            if r - start >= 3:
                runs += (r - start) * mult
        else:
            r += 1
    return fifteens + pairs + runs


def _pattern(hand: dict[int, int], starter: int) -> tuple[Any, ...]:
    others = tuple(sorted(m for r, m in hand.items() if r not in (JACK, starter)))
    return others, hand.get(JACK, 0), hand.get(starter, 0), starter == JACK


def suit_parts(hand_ranks: Sequence[int], starter: int) -> tuple[Counter[int], Counter[int]]:
    """Over every choice of suits for this hand and starter: how many combinations give each
    suit part (flush + nob), scored as a hand and as a crib."""
    counts = Counter(hand_ranks)
    choices = [combinations(SUITS, m) for m in counts.values()]
    ranks = list(counts)
    as_hand: Counter[int] = Counter()
    as_crib: Counter[int] = Counter()
    for pick in product(*[list(c) for c in choices]):
        hand = [Card(r, s) for r, suits in zip(ranks, pick, strict=True) for s in suits]
        used = {c.suit for c in hand if c.rank == starter}
        for suit in SUITS:
            if suit in used:
                continue
            top = Card(starter, suit)
            nob = len(scoring.nobs(hand, top))
            as_hand[nob + sum(i.points for i in scoring.flush(hand, top, False, False))] += 1
            as_crib[nob + sum(i.points for i in scoring.flush(hand, top, True, False))] += 1
    return as_hand, as_crib


def enumerate_all() -> dict[str, Any]:
    """Score distributions of every four-card hand with every starter, as hand and as crib."""
    start = time.perf_counter()
    hand_dist: Counter[int] = Counter()
    crib_dist: Counter[int] = Counter()
    patterns: dict[tuple[Any, ...], tuple[Counter[int], Counter[int]]] = {}
    rank_parts: dict[tuple[int, ...], int] = {}  # built afresh each call: honest timings
    for hand in combinations_with_replacement(range(1, 14), 4):
        counts: dict[int, int] = {}
        for r in hand:
            counts[r] = counts.get(r, 0) + 1
        ways = 1
        for m in counts.values():
            ways *= comb(4, m)
        for starter in range(1, 14):
            held = counts.get(starter, 0)
            if held == 4:
                continue
            five = tuple(sorted((*hand, starter)))
            base = rank_parts.get(five)
            if base is None:
                base = rank_parts[five] = rank_score(five)
            key = _pattern(counts, starter)
            parts = patterns.get(key)
            if parts is None:
                parts = patterns[key] = suit_parts(hand, starter)
                # the pattern's suit choices are exactly this rank pattern's combinations
                assert sum(parts[0].values()) == ways * (4 - held)
            for extra, n in parts[0].items():
                hand_dist[base + extra] += n
            for extra, n in parts[1].items():
                crib_dist[base + extra] += n
    return _result(hand_dist, crib_dist, time.perf_counter() - start, len(patterns))


def _result(
    hand: Counter[int], crib: Counter[int], seconds: float, patterns: int
) -> dict[str, Any]:
    total = sum(hand.values())
    top = max(max(hand), max(crib), 29)
    return {
        "combinations": total,
        "hand": {str(s): hand.get(s, 0) for s in range(top + 1)},
        "crib": {str(s): crib.get(s, 0) for s in range(top + 1)},
        "mean_hand": sum(s * n for s, n in hand.items()) / total,
        "mean_crib": sum(s * n for s, n in crib.items()) / total,
        "seconds": round(seconds, 4),
        "patterns": patterns,
    }
