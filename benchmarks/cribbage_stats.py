"""``companion bench cribbage``: ``stats cribbage`` against a plain memoised enumeration.

The fast method (companion/games/cribbage/stats.py) counts by rank pattern and suit pattern.
The reference is the straightforward program: every 4-card hand, every starter, the rank part
(fifteens, pairs, runs) memoised by sorted ranks and computed on a miss by the itemised scorer
(``scoring.show``), flush and nob checked per combination. By default the reference runs on
every 20th hand and its time is extrapolated (the memo is filled first and timed on its own,
since the full run pays for it once); ``--full`` runs it on all 12,994,800 combinations and
also checks that both distributions are identical.

Targets: fast < 2 s on one core, and >= 20x faster than the reference.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from itertools import combinations, combinations_with_replacement

from companion.cards import FULL_DECK, Card
from companion.games.cribbage import scoring
from companion.games.cribbage.stats import enumerate_all

TOTAL = 12_994_800
RANK_KINDS = {scoring.FIFTEEN, scoring.PAIR, scoring.RUN}


def _rank_part(ranks: tuple[int, ...]) -> int:
    # Distinct suits per repeated rank and no jack matching: only fifteens, pairs and runs.
    used: Counter[int] = Counter()
    cards = []
    for r in ranks:
        cards.append(Card(r, "SHDC"[used[r]]))
        used[r] += 1
    count = scoring.show(cards[:4], cards[4])
    return sum(i.points for i in count.items if i.kind in RANK_KINDS)


def fill_memo() -> dict[tuple[int, ...], int]:
    return {r: _rank_part(r) for r in combinations_with_replacement(range(1, 14), 5)
            if max(Counter(r).values()) <= 4}


def reference(
    memo: dict[tuple[int, ...], int], stride: int = 1
) -> tuple[Counter[int], Counter[int], int]:
    """Plain enumeration of every ``stride``-th hand with all 48 starters."""
    deck = [(c.rank, c.suit) for c in FULL_DECK]
    hand_dist: Counter[int] = Counter()
    crib_dist: Counter[int] = Counter()
    done = 0
    for number, hand in enumerate(combinations(deck, 4)):
        if number % stride:
            continue
        suit = hand[0][1]
        four = all(s == suit for _, s in hand)
        jacks = [s for r, s in hand if r == 11]
        ranks = [r for r, _ in hand]
        for starter in deck:
            if starter in hand:
                continue
            key = tuple(sorted((*ranks, starter[0])))
            base = memo.get(key)
            if base is None:
                base = memo[key] = _rank_part(key)
            nob = 1 if starter[1] in jacks else 0
            if four and starter[1] == suit:
                hand_dist[base + nob + 5] += 1
                crib_dist[base + nob + 5] += 1
            else:
                hand_dist[base + nob + (4 if four else 0)] += 1
                crib_dist[base + nob] += 1
            done += 1
    return hand_dist, crib_dist, done


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion bench cribbage", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true", help="run the whole reference and compare")
    parser.add_argument("--stride", type=int, default=20, help="reference on every Nth hand")
    parser.add_argument("--repeat", type=int, default=3, help="fast runs (best is reported)")
    args = parser.parse_args(argv)

    fast_times, fast = [], {}
    for _ in range(max(1, args.repeat)):
        start = time.perf_counter()
        fast = enumerate_all()
        fast_times.append(time.perf_counter() - start)
    fast_best = min(fast_times)
    print(f"fast: {fast['combinations']:,} combinations, best of {len(fast_times)}:"
          f" {fast_best:.3f} s (runs: {', '.join(f'{t:.3f}' for t in fast_times)})")

    start = time.perf_counter()
    memo = fill_memo()
    fill = time.perf_counter() - start
    stride = 1 if args.full else max(1, args.stride)
    start = time.perf_counter()
    hand_dist, crib_dist, done = reference(memo, stride)
    loop = time.perf_counter() - start
    if args.full:
        ref_seconds, mode = fill + loop, "full"
        same = (all(fast["hand"][str(k)] == v for k, v in hand_dist.items())
                and all(fast["crib"][str(k)] == v for k, v in crib_dist.items())
                and done == TOTAL)
        print(f"reference: full, {done:,} combinations, {ref_seconds:.1f} s;"
              f" distributions identical: {same}")
    else:
        ref_seconds = fill + loop * TOTAL / done
        mode = f"every {stride}th hand ({done:,} combinations), extrapolated"
        same = None
        print(f"reference: memo fill {fill:.2f} s + {loop:.2f} s for {done:,} combinations"
              f" -> {ref_seconds:.1f} s estimated for all {TOTAL:,}")
    speedup = ref_seconds / fast_best
    ok = fast_best < 2.0 and speedup >= 20
    print(f"speed-up {speedup:.0f}x; targets: < 2 s and >= 20x: {'met' if ok else 'NOT met'}")
    print(json.dumps({
        "bench": "cribbage", "fast_seconds": round(fast_best, 4),
        "reference_seconds": round(ref_seconds, 2), "reference_mode": mode,
        "speedup": round(speedup, 1), "identical": same, "targets_met": ok,
    }))
    return 0 if ok else 1
