"""Optimal solitaire strategy for the five-dice score-form game (rulebook 002, "Dice").

Dynamic programming over turn-start states (boxes filled: 13 bits, upper subtotal capped at
63: 64 values), i.e. 2**13 * 64 states, solved backwards by number of boxes filled. Within a
turn the dice are handled as multisets: 252 rolls of five dice, 462 kept sub-multisets of
sizes 0..5. Two identities keep it fast and vectorised over states with numpy:

- keeping k and throwing the rest is worth the mean over one more die of keeping k+f
  (``_average``), so no table of multinomial outcomes is needed;
- the best keep from a roll is the best over its sub-multisets, computed recursively by
  removing one die at a time (``_best_subset``).

``table(kinds)`` returns E[mask, upper] = expected score still to come from the start of a turn,
computed once and cached under ``companion.config.user_data_dir()``. ``advise`` uses it to name
the best keep or box in any position. Crossing out is scoring zero, so it needs no special case.
"""

from __future__ import annotations

import itertools
import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from companion.games.dice.boxes import (
    BOXES,
    SPOKEN,
    UPPER,
    UPPER_BONUS,
    UPPER_BONUS_AT,
    score,
)

N_BOXES = len(BOXES)
FULL = (1 << N_BOXES) - 1
CACHE_VERSION = 1

# --------------------------------------------------------------------------- multisets

# Every multiset of 0..5 dice as a count vector (c1..c6), ordered by size.
MULTISETS: list[tuple[int, ...]] = sorted(
    (c for c in itertools.product(range(6), repeat=6) if sum(c) <= 5), key=lambda c: (sum(c), c)
)
INDEX = {c: i for i, c in enumerate(MULTISETS)}
SENTINEL = len(MULTISETS)  # a row of -inf: "no such sub-multiset"
BY_SIZE = [np.array([i for i, c in enumerate(MULTISETS) if sum(c) == n]) for n in range(6)]
ROLLS = BY_SIZE[5]  # the 252 rolls of five dice, as multiset indices


def _plus(c: tuple[int, ...], f: int) -> tuple[int, ...]:
    return tuple(v + (i == f) for i, v in enumerate(c))


def _minus(c: tuple[int, ...], f: int) -> tuple[int, ...]:
    return tuple(v - (i == f) for i, v in enumerate(c))


CHILD = [np.array([[INDEX[_plus(MULTISETS[i], f)] for f in range(6)] for i in BY_SIZE[n]])
         for n in range(5)]
PARENT = [np.array([[INDEX[_minus(MULTISETS[i], f)] if MULTISETS[i][f] else SENTINEL
                     for f in range(6)] for i in BY_SIZE[n]]) if n else np.zeros((1, 6), int)
          for n in range(6)]


def dice_of(counts: Sequence[int]) -> tuple[int, ...]:
    return tuple(f + 1 for f in range(6) for _ in range(counts[f]))


def counts_of(dice: Sequence[int]) -> tuple[int, ...]:
    return tuple(sum(1 for d in dice if d == f) for f in range(1, 7))


def _roll_probability(c: tuple[int, ...]) -> float:
    n = sum(c)
    ways = math.factorial(n)
    for v in c:
        ways //= math.factorial(v)
    return ways / 6**n


PROB5 = np.array([_roll_probability(MULTISETS[i]) for i in ROLLS])
FACE_COUNT = np.array([[MULTISETS[i][f] for i in ROLLS] for f in range(6)])  # (6, 252)


def score_table(kinds: str) -> np.ndarray:
    return np.array([[score(b, dice_of(MULTISETS[i]), kinds) for i in ROLLS] for b in BOXES],
                    dtype=np.float64)


# --------------------------------------------------------------------------- turn arithmetic


def _average(values5: np.ndarray) -> np.ndarray:
    """K[k] for all 462 kept multisets: expected value of keeping k and throwing the rest."""
    k = np.empty((SENTINEL + 1, values5.shape[1]), dtype=values5.dtype)
    k[SENTINEL] = -np.inf
    k[ROLLS] = values5
    for n in range(4, -1, -1):
        acc = k[CHILD[n][:, 0]]
        for f in range(1, 6):  # one row gather per face: far faster than a strided mean
            acc += k[CHILD[n][:, f]]
        k[BY_SIZE[n]] = acc / 6.0
    return k


def _best_subset(k: np.ndarray) -> np.ndarray:
    """For each roll of five: the best K over its sub-multisets (what to keep)."""
    m = k.copy()
    for n in range(1, 6):
        acc = k[BY_SIZE[n]]
        for f in range(6):
            np.maximum(acc, m[PARENT[n][:, f]], out=acc)
        m[BY_SIZE[n]] = acc
    return m[ROLLS]


def _upper_gain(face: int, u: np.ndarray, c: int) -> tuple[np.ndarray, np.ndarray]:
    """Points (with the bonus when 63 is reached) and new capped subtotal for c dice of face."""
    pts = face * c
    bonus = np.where((u < UPPER_BONUS_AT) & (u + pts >= UPPER_BONUS_AT), UPPER_BONUS, 0)
    return pts + bonus, np.minimum(UPPER_BONUS_AT, u + pts)


def _final_values(e: np.ndarray, mm: np.ndarray, uu: np.ndarray,
                  scores: np.ndarray) -> np.ndarray:
    """V[r, s]: best box for roll r from state s=(mm[s], uu[s]), future included. (252, N)."""
    n_states = len(mm)
    out = np.full((len(ROLLS), n_states), -np.inf, dtype=e.dtype)
    for b in range(N_BOXES):
        is_open = (mm >> b) & 1 == 0
        if not is_open.any():
            continue
        nxt = mm | (1 << b)
        if b < len(UPPER):
            gains = np.empty((6, n_states), dtype=e.dtype)
            for c in range(6):
                gain, newu = _upper_gain(b + 1, uu, c)
                gains[c] = gain + e[nxt, newu]
            cand = gains[FACE_COUNT[b]]
        else:
            cand = scores[b][:, None] + e[nxt, uu][None, :]
        np.maximum(out, cand, out=out, where=is_open[None, :])
    return out


def _reachable_uppers() -> list[np.ndarray]:
    """For each set of filled upper boxes (6 bits): the capped subtotals it can have."""
    out = []
    for subset in range(1 << len(UPPER)):
        sums = {0}
        for i in range(len(UPPER)):
            if subset >> i & 1:
                sums = {min(UPPER_BONUS_AT, a + (i + 1) * c) for a in sums for c in range(6)}
        out.append(np.array(sorted(sums)))
    return out


def solve(kinds: str = "exactly", chunk: int = 16384) -> np.ndarray:
    """E[mask, upper]: optimal expected score still to come at the start of a turn.

    Float32 (values below 400, so about 1e-4 of rounding at most); only reachable
    (mask, subtotal) states are computed, the others stay 0 and are never read.
    """
    scores = score_table(kinds).astype(np.float32)
    e = np.zeros((FULL + 1, UPPER_BONUS_AT + 1), dtype=np.float32)
    reach = _reachable_uppers()
    upper_bits = (1 << len(UPPER)) - 1
    levels: list[list[int]] = [[] for _ in range(N_BOXES + 1)]
    for mask in range(FULL + 1):
        levels[mask.bit_count()].append(mask)
    prob = PROB5.astype(np.float32)
    for filled in range(N_BOXES - 1, -1, -1):
        masks = levels[filled]
        mm = np.concatenate([np.full(len(reach[m & upper_bits]), m) for m in masks])
        uu = np.concatenate([reach[m & upper_bits] for m in masks])
        for start in range(0, len(mm), chunk):
            m, u = mm[start:start + chunk], uu[start:start + chunk]
            v = _final_values(e, m, u, scores)
            v = _best_subset(_average(v))
            v = _best_subset(_average(v))
            e[m, u] = prob @ v
    return e


# --------------------------------------------------------------------------- cache


def cache_path(kinds: str) -> Path:
    from companion.config import user_data_dir

    return user_data_dir() / f"dice-optimal-{kinds}-v{CACHE_VERSION}.npy"


_TABLES: dict[str, np.ndarray] = {}


def table(kinds: str = "exactly", *, use_cache: bool = True) -> np.ndarray:
    """The solved table, from memory, the user's cache, or computed (a few seconds) and saved."""
    if kinds in _TABLES:
        return _TABLES[kinds]
    path = cache_path(kinds)
    e: np.ndarray | None = None
    if use_cache and path.is_file():
        try:
            loaded = np.load(path)
            if loaded.shape == (FULL + 1, UPPER_BONUS_AT + 1):
                e = loaded
        except (OSError, ValueError):
            e = None  # a damaged cache is recomputed
    if e is None:
        e = solve(kinds)
        if use_cache:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(f".{os.getpid()}.tmp.npy")
                np.save(tmp, e)
                os.replace(tmp, path)
            except OSError:
                pass  # no writable data directory: keep it in memory only
    _TABLES[kinds] = e
    return e


def timed_solve(kinds: str) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, optimal expected score), without touching the cache."""
    start, cpu = time.perf_counter(), time.process_time()
    e = solve(kinds)
    return time.perf_counter() - start, time.process_time() - cpu, float(e[0, 0])


# --------------------------------------------------------------------------- advice


@dataclass(frozen=True)
class Advice:
    keep: tuple[int, ...] | None  # dice to keep and throw the rest, or None: score now
    box: str | None  # the box to fill (or cross out when it scores 0) when scoring now
    expected: float  # expected points still to come, this turn's box included

    def describe(self, already: int, crossing: bool = False, what: str = "final score") -> str:
        """In words; ``already`` is the score so far, ``crossing`` when the box scores 0."""
        total = already + self.expected
        if self.keep is not None:
            kept = " ".join(map(str, self.keep)) if self.keep else "nothing"
            return f"keep {kept} and throw again (expected {what} {total:.1f})"
        verb = "cross out" if crossing else "fill"
        box = SPOKEN.get(self.box or "", self.box)
        return f"{verb} {box} (expected {what} {total:.1f})"


def _mask_of(closed: set[str]) -> int:
    return sum(1 << BOXES.index(b) for b in closed)


def box_values(e: np.ndarray, closed: set[str], upper: int, dice: Sequence[int],
               kinds: str) -> dict[str, float]:
    """For each open box: points now (bonus included) + expected future, for these dice."""
    mask = _mask_of(closed)
    u = min(upper, UPPER_BONUS_AT)
    out: dict[str, float] = {}
    for b, box in enumerate(BOXES):
        if box in closed:
            continue
        pts = score(box, dice, kinds)
        newu = u
        if b < len(UPPER):
            if u < UPPER_BONUS_AT <= u + pts:
                pts += UPPER_BONUS
            newu = min(UPPER_BONUS_AT, u + score(box, dice, kinds))
        out[box] = pts + float(e[mask | (1 << b), newu])
    return out


def advise(closed: set[str], upper: int, dice: Sequence[int], throws_left: int,
           kinds: str = "exactly", e: np.ndarray | None = None) -> Advice:
    """The optimal choice with ``dice`` on the table and ``throws_left`` throws remaining."""
    e = table(kinds) if e is None else e
    values = box_values(e, closed, upper, dice, kinds)
    best_box = max(values, key=lambda b: values[b])
    if throws_left <= 0:
        return Advice(None, best_box, values[best_box])
    v = _final_values(e, np.array([_mask_of(closed)]), np.array([min(upper, UPPER_BONUS_AT)]),
                      score_table(kinds).astype(e.dtype))
    k = _average(v)
    if throws_left >= 2:
        k = _average(_best_subset(k))
    counts = counts_of(dice)
    best: tuple[float, tuple[int, ...]] = (-math.inf, ())
    for sub in itertools.product(*(range(c + 1) for c in counts)):
        if sum(sub) == 5:
            continue  # keeping all five is scoring now, compared below
        value = float(k[INDEX[sub], 0])
        if value > best[0] + 1e-9:
            best = (value, dice_of(sub))
    if values[best_box] >= best[0] - 1e-9:
        return Advice(None, best_box, values[best_box])
    return Advice(best[1], None, best[0])
