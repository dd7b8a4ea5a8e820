"""A small alpha-beta search for checkers and international draughts, on the project's own
move generator (companion/games/draughts/core.py).

Negamax with alpha-beta, iterative deepening under a node budget, captures searched first and
searched on past the depth while they last (the side to move must take, so a position in the
middle of an exchange is never judged). The evaluation is material (a man 100; a king 160 in
checkers, where kings step, 300 in draughts, where they fly) and how far the men have come.
Deterministic: the weak levels pick among the near-best moves with a generator seeded by the
position, so the same position gets the same move.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from companion.games.draughts.core import Geometry, Move, Position

WIN = 100_000
MAN = 100
STEP = 4  # a man's value grows by this for each row it has come


class Stopped(Exception):
    """The search was asked to stop (the game moved on)."""


@dataclass(frozen=True)
class Level:
    budget: int  # nodes
    max_depth: int
    margin: int  # pick at random among root moves this close to the best (0: the best)


# Levels 1 (a beginner: two plies, any move within a man of the best) to 4.
# About 15,000 nodes a second in CPython: level 4 thinks up to about six seconds.
LEVELS = {
    1: Level(budget=1_500, max_depth=2, margin=MAN),
    2: Level(budget=10_000, max_depth=4, margin=15),
    3: Level(budget=30_000, max_depth=8, margin=0),
    4: Level(budget=90_000, max_depth=20, margin=0),
}
HINT = Level(budget=15_000, max_depth=8, margin=0)
MAX_LEVEL = max(LEVELS)


@dataclass
class Result:
    move: Move
    score: int  # for the side to move, in hundredths of a man; beyond WIN - 1000: a win
    depth: int
    nodes: int


class Searcher:
    def __init__(self, geometry: Geometry, moves: Callable[[Position], list[Move]],
                 play: Callable[[Position, Move], Position], king: int,
                 stop: Callable[[], bool] = lambda: False) -> None:
        self.moves = moves
        self.play = play
        self.king = king
        self.stop = stop
        self.nodes = 0
        self.budget = 0
        rows = geometry.rows
        size = geometry.squares * 2 + 2
        # how many rows a man on each bit has come from its own back row
        self.climb_bottom = [0] * size
        self.climb_top = [0] * size
        for square in range(1, geometry.squares + 1):
            row, _ = geometry.row_col(square)
            self.climb_bottom[geometry.bit(square)] = rows - 1 - row
            self.climb_top[geometry.bit(square)] = row

    def evaluate(self, pos: Position) -> int:
        """The position for the side to move."""
        kings = pos.kings
        bottom_men, top_men = pos.bottom & ~kings, pos.top & ~kings
        score = MAN * (bottom_men.bit_count() - top_men.bit_count())
        score += self.king * ((pos.bottom & kings).bit_count() - (pos.top & kings).bit_count())
        score += STEP * (_sum(self.climb_bottom, bottom_men) - _sum(self.climb_top, top_men))
        return score if pos.bottom_to_move else -score

    def negamax(self, pos: Position, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self.nodes & 1023 == 0 and (self.stop() or self.nodes > self.budget):
            raise Stopped
        moves = self.moves(pos)
        if not moves:
            return -WIN + ply
        taking = moves[0].captured != 0 or any(m.captured for m in moves)
        if depth <= 0 and (not taking or depth < -12):
            return self.evaluate(pos)
        if taking:
            moves = sorted(moves, key=lambda m: -m.captured.bit_count())
        best = -WIN
        for move in moves:
            score = -self.negamax(self.play(pos, move), depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    def search(self, pos: Position, level: Level, seed: int = 0) -> Result | None:
        """The move to play (None when there is none, or stopped before depth 1 ended)."""
        roots = self.moves(pos)
        if not roots:
            return None
        self.nodes = 0
        self.budget = level.budget
        done: list[tuple[int, Move]] = []
        depth_done = 0
        order = sorted(roots, key=lambda m: -m.captured.bit_count())
        for depth in range(1, level.max_depth + 1):
            scored: list[tuple[int, Move]] = []
            try:
                alpha = -WIN - 1
                for move in order:
                    # full windows at the root when a margin is wanted (every score exact)
                    low = -WIN - 1 if level.margin else alpha
                    score = -self.negamax(self.play(pos, move), depth - 1, -WIN - 1, -low, 1)
                    scored.append((score, move))
                    alpha = max(alpha, score)
            except Stopped:
                break
            done, depth_done = scored, depth
            order = [m for _, m in sorted(scored, key=lambda sm: -sm[0])]
            if len(roots) == 1 or abs(max(s for s, _ in scored)) > WIN - 1000:
                break
        if not done:
            return Result(order[0], 0, 0, self.nodes)
        best = max(s for s, _ in done)
        if not level.margin:
            # The first move to reach the best score has it exactly; a later one may only
            # have been bounded by it (it failed low), so it is never taken for a tie.
            move = next(m for s, m in done if s == best)
        else:  # every score exact (full windows): any move this close to the best
            near = [m for s, m in done if s >= best - level.margin]
            move = random.Random(seed).choice(near)
        score = next(s for s, m in done if m == move)
        return Result(move, score, depth_done, self.nodes)


def _sum(table: list[int], mask: int) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += table[low.bit_length() - 1]
        mask ^= low
    return total
