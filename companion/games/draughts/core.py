"""Move generation for English checkers (8x8) and international draughts (10x10).

Pure Python bitboards on a "ghost square" layout: squares are numbered as in the PDN
convention (1 in the top row, numbering left to right, row by row; the side on the low numbers
is "top", the other "bottom"), and square ``s`` lives at bit ``s - 1 + (s - 1) // (2 * per_row)``.
With one unused (ghost) bit after every two rows, the four diagonal steps are plain shifts by
``per_row`` and ``per_row + 1``, and a step off the board lands on a ghost bit or outside the
board mask, so no wrap-around checks are needed. This is measured against pydraughts in
docs/games/draughts.md (hundreds of times faster, same perft counts).

A position is ``Position(bottom, top, kings, bottom_to_move)`` with bit masks. A move is
``Move(origin, target, captured, path)``: bit indexes, a mask of captured pieces, and the
landing squares after the origin (bit indexes) in order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple


class Position(NamedTuple):
    bottom: int  # pieces of the side on the high square numbers (moves "up")
    top: int  # pieces of the side on the low square numbers (moves "down")
    kings: int  # which of those pieces are kings
    bottom_to_move: bool


class Move(NamedTuple):
    origin: int  # bit index
    target: int  # bit index
    captured: int  # mask of captured pieces (0 for a plain move)
    path: tuple[int, ...]  # landing squares (bit indexes) after the origin, in order


@dataclass(frozen=True)
class Geometry:
    """Square numbering and bit layout of a board with ``per_row`` dark squares per row."""

    rows: int  # 8 or 10
    per_row: int  # 4 or 5

    @property
    def squares(self) -> int:
        return self.rows * self.per_row

    def bit(self, square: int) -> int:
        """Bit index of PDN square number ``square`` (1-based)."""
        i = square - 1
        return i + i // (2 * self.per_row)

    def square(self, bit: int) -> int:
        """PDN square number of bit index ``bit``."""
        pair, rest = divmod(bit, 2 * self.per_row + 1)
        return pair * 2 * self.per_row + rest + 1

    def row_col(self, square: int) -> tuple[int, int]:
        """Row (0 at the top) and column (0 at the left) of a square."""
        row, pos = divmod(square - 1, self.per_row)
        return row, 2 * pos + (1 if row % 2 == 0 else 0)

    def at(self, row: int, col: int) -> int | None:
        """Square number at (row, col), or None for a light square or off the board."""
        if not (0 <= row < self.rows and 0 <= col < self.rows) or (row + col) % 2 == 0:
            return None
        return row * self.per_row + col // 2 + 1


CHECKERS_BOARD = Geometry(8, 4)
DRAUGHTS_BOARD = Geometry(10, 5)


class Tables:
    """Masks and shifts derived from a geometry, computed once."""

    def __init__(self, g: Geometry) -> None:
        self.geometry = g
        self.board = 0
        for s in range(1, g.squares + 1):
            self.board |= 1 << g.bit(s)
        self.top_row = sum(1 << g.bit(s) for s in range(1, g.per_row + 1))
        last = g.squares - g.per_row
        self.bottom_row = sum(1 << g.bit(s) for s in range(last + 1, g.squares + 1))
        a, b = g.per_row, g.per_row + 1
        # Signed shifts: negative moves "up" (towards square 1), positive "down".
        self.up = (-a, -b)
        self.down = (a, b)
        self.all_dirs = (-a, -b, a, b)


CHECKERS = Tables(CHECKERS_BOARD)
DRAUGHTS = Tables(DRAUGHTS_BOARD)


def _shift(mask: int, d: int) -> int:
    return mask << d if d > 0 else mask >> -d


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# --------------------------------------------------------------------------- checkers


def checkers_moves(pos: Position, capture_compulsory: bool = True) -> list[Move]:
    """Legal moves in English checkers.

    Men move and jump diagonally forward one square, kings both ways one square; a jump must be
    continued while possible, except that a man reaching the king row is crowned and the move
    ends. With ``capture_compulsory`` a jump must be taken when one exists; without it the plain
    moves are legal too and a jump sequence may stop after any jump (the rulebook's "may").
    """
    t = CHECKERS
    if pos.bottom_to_move:
        mine, theirs, fwd, crown = pos.bottom, pos.top, t.up, t.top_row
    else:
        mine, theirs, fwd, crown = pos.top, pos.bottom, t.down, t.bottom_row
    kings = pos.kings & mine
    empty = t.board & ~(mine | theirs)
    moves: list[Move] = []
    for b in _bits(mine):
        dirs = t.all_dirs if kings >> b & 1 else fwd
        _checkers_jumps(b, b, 1 << b, dirs, theirs, empty | 1 << b, 0, (), crown,
                        bool(kings >> b & 1), not capture_compulsory, moves)
    if moves and capture_compulsory:
        return moves
    for d in t.all_dirs:
        movers = kings if d not in fwd else mine
        for b in _bits(_shift(movers, d) & empty):
            moves.append(Move(b - d, b, 0, (b,)))
    return moves


def _checkers_jumps(origin: int, at: int, at_mask: int, dirs: tuple[int, ...], theirs: int,
                    empty: int, captured: int, path: tuple[int, ...], crown: int, king: bool,
                    partial: bool, out: list[Move]) -> None:
    found = False
    for d in dirs:
        over = _shift(at_mask, d)
        if not over & theirs & ~captured:
            continue
        land = _shift(over, d)
        if not land & empty:
            continue
        found = True
        lb = at + 2 * d
        new_path = (*path, lb)
        new_captured = captured | over
        if not king and land & crown:
            out.append(Move(origin, lb, new_captured, new_path))  # crowned: the move ends
            continue
        if partial:
            out.append(Move(origin, lb, new_captured, new_path))
        _checkers_jumps(origin, lb, land, dirs, theirs, empty & ~land | at_mask, new_captured,
                        new_path,
                        crown, king, partial, out)
    if not found and path and not partial:
        out.append(Move(origin, at, captured, path))


def checkers_count(pos: Position) -> int:
    """Number of legal moves (compulsory capture), counting plain moves without listing them."""
    t = CHECKERS
    if pos.bottom_to_move:
        mine, theirs, fwd = pos.bottom, pos.top, t.up
    else:
        mine, theirs, fwd = pos.top, pos.bottom, t.down
    kings = pos.kings & mine
    empty = t.board & ~(mine | theirs)
    # Is any jump possible at all? (cheap bitwise test before listing them)
    for d in t.all_dirs:
        movers = kings if d not in fwd else mine
        if _shift(_shift(movers, d) & theirs, d) & empty:
            return len(checkers_moves(pos))
    n = 0
    for d in t.all_dirs:
        movers = kings if d not in fwd else mine
        n += (_shift(movers, d) & empty).bit_count()
    return n


def checkers_play(pos: Position, move: Move) -> Position:
    t = CHECKERS
    o, tg = 1 << move.origin, 1 << move.target
    kings = pos.kings & ~move.captured
    if kings & o:
        kings = kings & ~o | tg
    if pos.bottom_to_move:
        if tg & t.top_row:
            kings |= tg
        return Position((pos.bottom & ~o) | tg, pos.top & ~move.captured, kings, False)
    if tg & t.bottom_row:
        kings |= tg
    return Position(pos.bottom & ~move.captured, (pos.top & ~o) | tg, kings, True)


# --------------------------------------------------------------------------- draughts


def draughts_moves(pos: Position, dedupe: bool = True, majority: bool = True) -> list[Move]:
    """Legal moves in international draughts (FMJD rules as in rulebook 002).

    Men move one square forward and capture forwards and backwards; kings fly. Capturing is
    compulsory and the sequence taking the most pieces must be chosen (kings count as one).
    Captured pieces stay on the board until the move is over, so they block and cannot be
    jumped twice (``majority=False`` lists every complete capture, to explain refusals).
    With ``dedupe`` captures that differ only in the order of the same pieces
    (same origin, target and captured set) are one move, as in the published perft numbers.
    """
    t = DRAUGHTS
    if pos.bottom_to_move:
        mine, theirs, fwd = pos.bottom, pos.top, t.up
    else:
        mine, theirs, fwd = pos.top, pos.bottom, t.down
    kings = pos.kings & mine
    men = mine & ~kings
    empty = t.board & ~(mine | theirs)
    caps: list[Move] = []
    best = [1]
    # Men that can jump at least once (bitwise prefilter), then every king.
    jumpers = 0
    for d in t.all_dirs:
        jumpers |= _shift(_shift(empty, -d) & theirs, -d) & men
    for b in _bits(jumpers):
        _man_jumps(b, b, 1 << b, theirs, empty | 1 << b, 0, 0, (), best, caps)
    for b in _bits(kings):
        _king_jumps(b, b, theirs, empty | 1 << b, 0, 0, (), best, caps)
    if caps:
        if majority:
            caps = [m for m in caps if m.captured.bit_count() == best[0]]
        if dedupe:
            seen: dict[tuple[int, int, int], Move] = {}
            for m in caps:
                seen.setdefault((m.origin, m.target, m.captured), m)
            caps = list(seen.values())
        return caps
    moves: list[Move] = []
    for d in fwd:
        for b in _bits(_shift(men, d) & empty):
            moves.append(Move(b - d, b, 0, (b,)))
    for b in _bits(kings):
        for d in t.all_dirs:
            ray = _shift(1 << b, d)
            sq = b
            while ray & empty:
                sq += d
                moves.append(Move(b, sq, 0, (sq,)))
                ray = _shift(ray, d)
    return moves


def _man_jumps(origin: int, at: int, at_mask: int, theirs: int, empty: int, captured: int,
               n: int, path: tuple[int, ...], best: list[int], out: list[Move]) -> None:
    found = False
    for d in DRAUGHTS.all_dirs:
        over = _shift(at_mask, d)
        if not over & theirs & ~captured:
            continue
        land = _shift(over, d)
        if not land & empty:
            continue
        found = True
        lb = at + 2 * d
        _man_jumps(origin, lb, land, theirs, empty & ~land | at_mask, captured | over, n + 1,
                   (*path, lb), best, out)
    if not found and n:
        if n > best[0]:
            best[0] = n
        out.append(Move(origin, at, captured, path))


def _king_jumps(origin: int, at: int, theirs: int, empty: int, captured: int, n: int,
                path: tuple[int, ...], best: list[int], out: list[Move]) -> None:
    found = False
    for d in DRAUGHTS.all_dirs:
        sq = at + d
        m = _shift(1 << at, d)
        while m & empty:
            sq += d
            m = _shift(m, d)
        if not m & theirs or m & captured:
            continue  # blocked by the edge, an own piece, or a piece already jumped
        over = m
        sq += d
        m = _shift(m, d)
        while m & empty:
            found = True
            _king_jumps(origin, sq, theirs, empty & ~m | 1 << at, captured | over, n + 1,
                        (*path, sq), best, out)
            sq += d
            m = _shift(m, d)
    if not found and n:
        if n > best[0]:
            best[0] = n
        out.append(Move(origin, at, captured, path))


def draughts_play(pos: Position, move: Move) -> Position:
    """Apply a move; a man is crowned only when the move ends on the far row."""
    t = DRAUGHTS
    o, tg = 1 << move.origin, 1 << move.target
    kings = pos.kings & ~move.captured
    if kings & o:
        kings = kings & ~o | tg
    if pos.bottom_to_move:
        if tg & t.top_row:
            kings |= tg
        return Position((pos.bottom & ~o) | tg, pos.top & ~move.captured, kings, False)
    if tg & t.bottom_row:
        kings |= tg
    return Position(pos.bottom & ~move.captured, (pos.top & ~o) | tg, kings, True)


def draughts_count(pos: Position) -> int:
    """Number of legal moves (duplicates removed), counting plain moves without listing them."""
    t = DRAUGHTS
    if pos.bottom_to_move:
        mine, theirs, fwd = pos.bottom, pos.top, t.up
    else:
        mine, theirs, fwd = pos.top, pos.bottom, t.down
    kings = pos.kings & mine
    if kings:
        return len(draughts_moves(pos))
    empty = t.board & ~(mine | theirs)
    for d in t.all_dirs:
        if _shift(_shift(mine, d) & theirs, d) & empty:
            return len(draughts_moves(pos))
    return sum((_shift(mine, d) & empty).bit_count() for d in fwd)


# --------------------------------------------------------------------------- perft


def perft(pos: Position, depth: int, game: str, dedupe: bool | None = None) -> int:
    """Number of move sequences of length ``depth`` (leaf nodes), as published perft counts.

    ``game`` is "checkers" or "draughts". By default checkers counts every capture path (as
    Aart Bik's published checkers numbers do) and draughts removes duplicate captures (as
    his published draughts numbers do).
    """
    if game == "checkers":
        dd = False if dedupe is None else dedupe
        return _perft_checkers(pos, depth, dd)
    dd = True if dedupe is None else dedupe
    return _perft_draughts(pos, depth, dd)


def _perft_checkers(pos: Position, depth: int, dedupe: bool) -> int:
    if depth == 0:
        return 1
    if depth == 1 and not dedupe:
        return checkers_count(pos)
    moves = checkers_moves(pos)
    if dedupe:
        moves = list({(m.origin, m.target, m.captured): m for m in moves}.values())
    if depth == 1:
        return len(moves)
    return sum(_perft_checkers(checkers_play(pos, m), depth - 1, dedupe) for m in moves)


def _perft_draughts(pos: Position, depth: int, dedupe: bool) -> int:
    if depth == 0:
        return 1
    if depth == 1 and dedupe:
        return draughts_count(pos)
    moves = draughts_moves(pos, dedupe)
    if depth == 1:
        return len(moves)
    return sum(_perft_draughts(draughts_play(pos, m), depth - 1, dedupe) for m in moves)


# --------------------------------------------------------------------------- FEN (PDN)

_FEN_PART = re.compile(r"^(K?)(\d+)(?:-(K?)(\d+))?$")


def parse_fen(text: str, g: Geometry) -> Position:
    """Read a PDN FEN such as ``W:W31-50:B1-20`` or ``B:WK5,21,22:B1,2``.

    The first letter is the side to move; ``W`` is the side on the high numbers (bottom), ``B``
    the side on the low numbers (top); ``K`` marks kings; ranges like ``1-20`` are allowed.
    """
    clean = text.strip().strip('"').rstrip(".")
    parts = [p.strip() for p in clean.split(":")]
    if not parts or parts[0].upper() not in ("W", "B"):
        raise ValueError(f"{text!r} is not a FEN: it must start with W: or B: (side to move)")
    bottom = top = kings = 0
    seen_sides = set()
    for part in parts[1:]:
        if not part:
            continue
        side = part[0].upper()
        if side not in ("W", "B") or side in seen_sides:
            raise ValueError(f"{text!r}: each side is listed once, as W... or B...")
        seen_sides.add(side)
        body = part[1:]
        for item in filter(None, (x.strip() for x in body.split(","))):
            m = _FEN_PART.match(item.upper())
            if not m:
                raise ValueError(f"{text!r}: {item!r} is not a square, a king (K12) or a range")
            king = bool(m.group(1))
            lo = int(m.group(2))
            hi = int(m.group(4)) if m.group(4) else lo
            for sq in range(lo, hi + 1):
                if not 1 <= sq <= g.squares:
                    raise ValueError(f"{text!r}: there is no square {sq}")
                bit = 1 << g.bit(sq)
                if (bottom | top) & bit:
                    raise ValueError(f"{text!r}: square {sq} is given twice")
                if side == "W":
                    bottom |= bit
                else:
                    top |= bit
                if king:
                    kings |= bit
    return Position(bottom, top, kings, parts[0].upper() == "W")


def format_fen(pos: Position, g: Geometry) -> str:
    def side(mask: int) -> str:
        items = []
        for s in range(1, g.squares + 1):
            bit = 1 << g.bit(s)
            if mask & bit:
                items.append(("K" if pos.kings & bit else "") + str(s))
        return ",".join(items)

    return f"{'W' if pos.bottom_to_move else 'B'}:W{side(pos.bottom)}:B{side(pos.top)}"
