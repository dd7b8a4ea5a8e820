"""Peg solitaire on the 33-hole English board (rulebook 002, "Solitaire").

Every hole but the centre holds a peg; a move jumps a peg horizontally or vertically over a
neighbour into an empty hole, and the jumped peg is removed. The goal is one peg left, in the
centre; the variation starts with any hole empty and aims to finish in that same hole. The game
ends when no jump is left, and the companion says whether the goal was met. ``hint`` names a
jump from which the goal can still be reached, found by a memoised depth-first search that
treats the board's symmetries (those keeping the goal hole in place) as one position.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.engine import (
    TERMINAL,
    Action,
    Event,
    Game,
    GameSpec,
    IllegalAction,
    Option,
    Priority,
    State,
)
from companion.games import register

# Holes as (column, row), column 0 = a, row 0 = the bottom row "1"; the 2x2 corners are missing.
HOLES: tuple[tuple[int, int], ...] = tuple(
    (c, r) for r in range(6, -1, -1) for c in range(7)
    if not ((c < 2 or c > 4) and (r < 2 or r > 4))
)
INDEX = {h: i for i, h in enumerate(HOLES)}  # numbering 1..33 is index + 1, row by row from top
FULL = (1 << len(HOLES)) - 1
CENTRE = INDEX[(3, 3)]


def hole_name(i: int) -> str:
    c, r = HOLES[i]
    return f"{'abcdefg'[c]}{r + 1}"


NAMES = {hole_name(i): i for i in range(len(HOLES))}


def parse_hole(text: str) -> int:
    """A hole by name (``d4``) or by number (1-33, row by row from the top)."""
    t = text.strip().lower()
    if t in NAMES:
        return NAMES[t]
    if t.isdigit() and 1 <= int(t) <= len(HOLES):
        return int(t) - 1
    raise IllegalAction(f"{text.strip()!r} is not a hole: say a hole like d4 (a to g, 1 to 7)"
                        " or a number from 1 to 33.")


def _jumps() -> list[tuple[int, int, int]]:
    out = []
    for (c, r), i in INDEX.items():
        for dc, dr in ((0, 1), (0, -1), (-1, 0), (1, 0)):
            over = INDEX.get((c + dc, r + dr))
            to = INDEX.get((c + 2 * dc, r + 2 * dr))
            if over is not None and to is not None:
                out.append((i, over, to))
    return out


JUMPS = _jumps()
JUMP_MASKS = [(1 << f, 1 << o, 1 << t) for f, o, t in JUMPS]


def _symmetries() -> list[list[int]]:
    perms = []
    for k in range(8):
        perm = []
        for c, r in HOLES:
            x, y = c - 3, r - 3
            for _ in range(k % 4):
                x, y = -y, x
            if k >= 4:
                x = -x
            perm.append(INDEX[(x + 3, y + 3)])
        perms.append(perm)
    return perms


SYMMETRIES = _symmetries()


def _chunk_tables(perm: list[int]) -> tuple[list[int], ...]:
    """Lookup tables mapping each 7-bit chunk of a mask to its permuted bits."""
    tables = []
    for chunk in range(5):
        table = [0] * 128
        for v in range(128):
            m = 0
            for b in range(7):
                i = chunk * 7 + b
                if v >> b & 1 and i < len(HOLES):
                    m |= 1 << perm[i]
            table[v] = m
        tables.append(table)
    return tuple(tables)


# --------------------------------------------------------------------------- solver


class Solver:
    """Which jumps still lead to the goal: depth-first search, memoising dead positions (up to
    symmetry) and the winning jump of every position found on a solution.

    One solver per goal is kept for the process, so what one hint learned speeds up the next.
    ``budget`` bounds the positions examined per question; past it the answer is "unknown".
    """

    _cache: ClassVar[dict[int, Solver]] = {}
    ANY = -1  # goal: one peg anywhere

    def __init__(self, goal: int) -> None:
        self.goal = goal
        keep = SYMMETRIES if goal == self.ANY else [p for p in SYMMETRIES if p[goal] == goal]
        self.tables = [_chunk_tables(p) for p in keep if p != list(range(len(HOLES)))]
        self.dead: set[int] = set()
        self.winning: dict[int, tuple[int, int, int]] = {}  # position -> a winning jump
        self.nodes = 0

    @classmethod
    def for_goal(cls, goal: int) -> Solver:
        if goal not in cls._cache:
            cls._cache[goal] = cls(goal)
        return cls._cache[goal]

    def canon(self, m: int) -> int:
        best = m
        for t0, t1, t2, t3, t4 in self.tables:
            v = t0[m & 127] | t1[m >> 7 & 127] | t2[m >> 14 & 127] | t3[m >> 21 & 127] | \
                t4[m >> 28 & 127]
            if v < best:
                best = v
        return best

    def _done(self, m: int) -> bool:
        return m == 1 << self.goal if self.goal != self.ANY else True

    def _orders(self) -> list[list[tuple[int, int, int]]]:
        """Jump orders tried in turn: no single order finds solutions fast from every start,
        but the dead positions one order proves are shared by the next."""
        goal = CENTRE if self.goal == self.ANY else self.goal

        def dist(mask: int, hole: int) -> int:
            (a, b), (c, d) = HOLES[mask.bit_length() - 1], HOLES[hole]
            return abs(a - c) + abs(b - d)

        return [
            JUMP_MASKS,
            sorted(JUMP_MASKS, key=lambda j: -dist(j[0], CENTRE)),
            sorted(JUMP_MASKS, key=lambda j: -dist(j[0], goal)),
            JUMP_MASKS[::-1],
        ]

    def winning_jump(self, pegs: int, budget: int = 500_000) -> tuple[int, int, int] | None:
        """A jump (from, over, to) after which the goal can still be reached; None if there is
        none. Raises TimeoutError when ``budget`` positions were examined without an answer."""
        spent = 0
        orders = self._orders()
        limit = 10_000
        while spent < budget:  # rounds of tries with a doubling limit, memo shared
            for jumps in orders:
                if spent >= budget:
                    break
                try:
                    found = self._search(pegs, jumps, min(limit, budget - spent))
                except TimeoutError:
                    spent += self.nodes
                    continue
                self.nodes += spent
                if not found or pegs.bit_count() == 1:
                    return None
                f, o, t = self.winning[pegs]
                return f.bit_length() - 1, o.bit_length() - 1, t.bit_length() - 1
            limit *= 2
        self.nodes = spent
        raise TimeoutError

    def _search(self, pegs: int, jumps: list[tuple[int, int, int]], limit: int) -> bool:
        self.nodes = 0

        def solve(m: int, n: int) -> bool:
            self.nodes += 1  # every visit counts, memo hits too: the cost is in canon()
            if self.nodes > limit:
                raise TimeoutError
            if n == 1:
                return self._done(m)
            if m in self.winning:
                return True
            c = self.canon(m)
            if c in self.dead:
                return False
            for f, o, t in jumps:
                if m & f and m & o and not m & t and solve(m ^ f ^ o ^ t, n - 1):
                    self.winning[m] = (f, o, t)
                    return True
            self.dead.add(c)
            return False

        return solve(pegs, pegs.bit_count())


# --------------------------------------------------------------------------- actions, events


@dataclass(frozen=True)
class Jump(Action):
    player: int
    origin: str  # hole name, e.g. "d6"
    target: str

    def __str__(self) -> str:
        return f"{self.origin}-{self.target}"


@dataclass(frozen=True)
class PegJumped(Event):
    origin: str
    over: str
    target: str
    left: int
    key: ClassVar[str] = "solitaire.jump"

    def describe(self, names: Sequence[str]) -> str:
        word = "peg" if self.left == 1 else "pegs"
        return f"{self.origin} jumps over {self.over} to {self.target}; {self.left} {word} left."


@dataclass(frozen=True)
class SolitaireOver(Event):
    pegs: int
    goal_met: bool
    goal: str  # a hole name, or "" when one peg anywhere is the goal
    last: str  # where the last peg is, when one is left
    key: ClassVar[str] = "solitaire.over"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        where = f"in {self.goal}" if self.goal else "anywhere"
        if self.goal_met:
            return f"No jump is left. One peg remains, in {self.last}: the goal is met!"
        if self.pegs == 1:
            return (f"No jump is left. One peg remains, in {self.last}, not {where}: the goal"
                    " was not met.")
        return (f"No jump is left: {self.pegs} pegs remain. The goal, one peg {where}, was not"
                " met.")


# --------------------------------------------------------------------------- state


class SolitaireState(State):
    def __init__(self, game: Solitaire) -> None:
        self.game = game
        self.start = parse_hole(str(game.options["start"]))
        goal = str(game.options["goal"])
        self.goal = {"start": self.start, "centre": CENTRE, "any": Solver.ANY}[goal]
        self.pegs = FULL & ~(1 << self.start)
        self.history: list[tuple[int, int, int]] = []

    def jumps(self) -> list[tuple[int, int, int]]:
        m = self.pegs
        return [(f, o, t) for f, o, t in JUMPS if m >> f & 1 and m >> o & 1 and not m >> t & 1]

    def peg_count(self) -> int:
        return self.pegs.bit_count()

    def goal_met(self) -> bool:
        if self.peg_count() != 1:
            return False
        return self.goal == Solver.ANY or self.pegs == 1 << self.goal

    def goal_text(self) -> str:
        return "one peg anywhere" if self.goal == Solver.ANY else \
            f"one peg in {hole_name(self.goal)}"

    # --- State API ---------------------------------------------------------------

    def current_player(self) -> int:
        return 0 if self.jumps() else TERMINAL

    def legal_actions(self) -> list[Action]:
        return [Jump(0, hole_name(f), hole_name(t)) for f, _, t in self.jumps()]

    def _check(self, action: Action) -> tuple[int, int, int]:
        if not isinstance(action, Jump):
            raise IllegalAction(f"{action} is not a jump.")
        if self.is_terminal():
            raise IllegalAction("No jump is left: the game is over.")
        f, t = parse_hole(action.origin), parse_hole(action.target)
        name_f, name_t = hole_name(f), hole_name(t)
        if not self.pegs >> f & 1:
            raise IllegalAction(f"There is no peg in {name_f}.")
        if self.pegs >> t & 1:
            raise IllegalAction(f"{name_t} is not empty.")
        (fc, fr), (tc, tr) = HOLES[f], HOLES[t]
        if not ((fc == tc and abs(fr - tr) == 2) or (fr == tr and abs(fc - tc) == 2)):
            raise IllegalAction(f"{name_f} to {name_t} is not a jump: a peg jumps two holes"
                                " along a row or a column, never diagonally.")
        o = INDEX[((fc + tc) // 2, (fr + tr) // 2)]
        if not self.pegs >> o & 1:
            raise IllegalAction(f"{name_f} cannot jump to {name_t}: there is no peg in"
                                f" {hole_name(o)} to jump over.")
        return f, o, t

    def apply(self, action: Action) -> list[Event]:
        f, o, t = self._check(action)  # validated; nothing changed yet
        self.pegs ^= (1 << f) | (1 << o) | (1 << t)
        self.history.append((f, o, t))
        events: list[Event] = [PegJumped(hole_name(f), hole_name(o), hole_name(t),
                                         self.peg_count())]
        if self.is_terminal():
            last = hole_name(self.pegs.bit_length() - 1) if self.peg_count() == 1 else ""
            goal = "" if self.goal == Solver.ANY else hole_name(self.goal)
            events.append(SolitaireOver(self.peg_count(), self.goal_met(), goal, last))
        return events

    def clone(self) -> SolitaireState:
        other = object.__new__(SolitaireState)
        other.__dict__.update(self.__dict__)
        other.history = list(self.history)
        return other

    def winners(self) -> tuple[int, ...]:
        return (0,) if self.is_terminal() and self.goal_met() else ()

    def scores(self) -> list[float]:
        return [float(-self.peg_count())]

    def describe_action(self, action: Action) -> str:
        return str(action)

    def expected(self) -> str:
        if self.is_terminal():
            return "The game is over."
        return f"Jump a peg ({self.peg_count()} pegs; the goal: {self.goal_text()})"

    def status(self) -> str:
        if self.is_terminal():
            met = "met" if self.goal_met() else "not met"
            return f"The game is over: {self.peg_count()} pegs left, the goal was {met}."
        return f"{self.peg_count()} pegs left; the goal: {self.goal_text()}."

    def hint(self, budget: int = 500_000) -> str:
        if self.is_terminal():
            return "No jump is left."
        solver = Solver.for_goal(self.goal)
        try:
            jump = solver.winning_jump(self.pegs, budget)
        except TimeoutError:
            return ("I cannot tell within my search limit whether the goal can still be"
                    " reached from here.")
        if jump is None:
            return f"The goal ({self.goal_text()}) can no longer be reached."
        f, o, t = jump
        return (f"Jump {hole_name(f)} over {hole_name(o)} to {hole_name(t)}: the goal can"
                " still be reached from there.")

    def board_text(self) -> str:
        lines = []
        for r in range(6, -1, -1):
            cells = []
            for c in range(7):
                i = INDEX.get((c, r))
                cells.append(" " if i is None else ("o" if self.pegs >> i & 1 else "."))
            lines.append(f"{r + 1} " + " ".join(cells))
        lines.append("  a b c d e f g")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        rows = []
        for r in range(6, -1, -1):
            row = ""
            for c in range(7):
                i = INDEX.get((c, r))
                row += " " if i is None else ("o" if self.pegs >> i & 1 else ".")
            rows.append(row)
        return {
            "game": "solitaire",
            "board": rows,
            "pegs": self.peg_count(),
            "start": hole_name(self.start),
            "goal": None if self.goal == Solver.ANY else hole_name(self.goal),
            "moves": [f"{hole_name(f)}-{hole_name(t)}" for f, _, t in self.history],
            "legal": [str(a) for a in self.legal_actions()],
            "result": None if not self.is_terminal() else {"goal_met": self.goal_met(),
                                                            "pegs": self.peg_count()},
        }


@register
class Solitaire(Game):
    spec = GameSpec(
        name="solitaire",
        title="Peg Solitaire",
        min_players=1,
        max_players=1,
        inputs=("keyboard",),
        rulebook="002: Solitaire",
        aliases=("peg-solitaire", "english-solitaire"),
        options=(
            Option("start", "d4", "the hole left empty at the start (d4 is the centre)"),
            Option("goal", "start", "where the last peg must be: the starting hole (the"
                   " rulebook's game and variation), the centre, or anywhere",
                   ("start", "centre", "any")),
        ),
        house_rules=(
            "The 33-hole English board. The goal is one peg in the hole that was empty at the"
            " start: the centre in the standard game (option goal=centre or goal=any for other"
            " readings of the variation). Holes are named a1 to g7 (column letter, row number"
            " from the bottom) or numbered 1 to 33 row by row from the top."
        ),
        default_players=("Player",),
    )
    action_types: ClassVar[dict[str, type[Action]]] = {"Jump": Jump}

    def __init__(self, players: Sequence[str], options: Any = None) -> None:
        super().__init__(players, options)
        try:
            parse_hole(str(self.options["start"]))
        except IllegalAction as exc:
            raise ValueError(f"option start: {exc.reason}") from None

    def new_state(self) -> SolitaireState:
        return SolitaireState(self)

    def max_length(self) -> int:
        return 31  # each jump removes a peg

    def parse_action(self, state: State, text: str) -> Action:
        words = text.lower().replace("-", " ").replace("x", " ").replace(" to ", " ").split()
        if len(words) != 2:
            raise IllegalAction("Say a jump as two holes, like d6-d4.")
        f, t = parse_hole(words[0]), parse_hole(words[1])
        return Jump(0, hole_name(f), hole_name(t))

    def query(self, state: State, text: str) -> str | None:
        assert isinstance(state, SolitaireState)
        word = text.strip().lower()
        if word == "hint":
            return state.hint()
        if word in ("jumps", "moves", "legal"):
            jumps = [str(a) for a in state.legal_actions()]
            if not jumps:
                return "No jump is left."
            return f"{len(jumps)} jumps: " + ", ".join(jumps) + "."
        if word in ("board", "show"):
            return state.board_text()
        return None

    def command_help(self) -> str:
        return (
            "  d6-d4     jump the peg in d6 over d5 into d4 (numbers 1-33 work too)\n"
            "  jumps     the legal jumps\n"
            "  hint      a jump from which the goal can still be reached\n"
            "  board     the board as text"
        )
