"""What differs between the dominoes games of the rulebooks, and how a round is scored.

A ``Variant`` is plain data; ``score_round`` turns the tiles (or pips) left in each hand into
the round's winner and points, per the variant's rulebook text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.engine import counted
from companion.games.dominoes.tiles import is_double, total

DRAW = "draw"  # the draw game of 000 and 004: the winner scores the opponents' pips
BERGEN = "bergen"  # points for matching ends, one for going out or the lowest hand


@dataclass(frozen=True)
class Variant:
    name: str
    hand_size: int
    draws: bool  # a player who cannot play draws from the boneyard (Block: passes)
    scoring: str  # DRAW or BERGEN
    spinners: str  # default of option spinners: "none", "first" or "all"
    blocked_score: str  # default of option blocked_score: "difference" or "opponents"
    target: int
    out_call: str = "Domino!"


@dataclass(frozen=True)
class RoundScore:
    winner: int  # -1: nobody scores
    points: int
    detail: str  # a sentence: how the points were made


def score_round(
    variant: Variant,
    out: int | None,
    pips: Sequence[int],
    hands: Sequence[Sequence[str] | None],
    blocked_score: str,
    names: Sequence[str],
    bergen_lowest: str = "clean",
) -> RoundScore:
    """``out``: the player who went out (None: blocked); ``pips``: each hand's pips;
    ``hands``: each hand's tiles where known (Bergen needs them in a blocked game);
    ``bergen_lowest``: Bergen's blocked point to the lowest hand without a double ("clean")
    or only to the lowest hand, if it holds no double ("lowest")."""
    if variant.scoring == BERGEN:
        return _bergen(out, pips, hands, names, bergen_lowest)
    return _draw(out, pips, blocked_score, names)


def _draw(
    out: int | None, pips: Sequence[int], blocked_score: str, names: Sequence[str]
) -> RoundScore:
    if out is None:
        low = min(pips)
        lowest = [p for p, v in enumerate(pips) if v == low]
        if len(lowest) > 1:
            who = " and ".join(names[p] for p in lowest)
            return RoundScore(-1, 0, f"{who} tie with {counted(low, 'pip')}, so no one scores.")
        winner = lowest[0]
    else:
        winner = out
    others = [p for p in range(len(pips)) if p != winner]
    opponents = sum(pips[p] for p in others)
    parts = " plus ".join(f"{names[p]} {pips[p]}" for p in others)
    if out is None and blocked_score == "difference":
        points = opponents - pips[winner]
        detail = f"{parts}, minus {names[winner]}'s own {pips[winner]}, makes {points}."
    else:
        points = opponents
        unit = "pip" if opponents == 1 else "pips"
        detail = f"{parts} makes {points}." if len(others) > 1 else f"{parts} {unit}."
    if out is None:
        detail = (f"the lowest hand, {counted(pips[winner], 'pip')}."
                  f" {detail[0].upper()}{detail[1:]}")
    return RoundScore(winner, points, detail)


def _bergen(
    out: int | None, pips: Sequence[int], hands: Sequence[Sequence[str] | None],
    names: Sequence[str], lowest_rule: str = "clean",
) -> RoundScore:
    if out is not None:
        return RoundScore(out, 1, "one point for going out.")
    known = [list(h) if h is not None else [] for h in hands]
    clean = [p for p, h in enumerate(known) if not any(is_double(t) for t in h)]
    if clean and lowest_rule == "lowest":
        # "The lowest hand wins one point, provided that it does not contain a double."
        low = min(pips)
        lowest = [p for p, v in enumerate(pips) if v == low]
        if len(lowest) > 1:
            who = " and ".join(names[p] for p in lowest)
            return RoundScore(-1, 0, f"{who} tie for the lowest hand with {low}, so no one"
                                     f" scores.")
        if lowest[0] not in clean:
            return RoundScore(-1, 0, f"the lowest hand, {names[lowest[0]]}'s"
                                     f" {counted(low, 'pip')}, holds a double, so no one"
                                     f" scores.")
        return RoundScore(lowest[0], 1, f"one point for the lowest hand, {counted(low, 'pip')}.")
    if clean:
        counts = {p: pips[p] for p in clean}
        how = "the lowest hand without a double"
    else:  # every hand holds a double: count all but the doubles
        counts = {p: total(t for t in known[p] if not is_double(t)) for p in range(len(known))}
        how = "the lowest count without the doubles, as every hand holds a double"
    low = min(counts.values())
    lowest = [p for p, v in counts.items() if v == low]
    if len(lowest) > 1:
        who = " and ".join(names[p] for p in lowest)
        return RoundScore(-1, 0, f"{who} tie for {how} with {low}, so no one scores.")
    return RoundScore(lowest[0], 1, f"one point for {how}, {counted(low, 'pip')}.")
