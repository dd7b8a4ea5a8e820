"""Double-six domino tiles: ids ("6-4", high end first), parsing, pips and spoken names."""

from __future__ import annotations

from collections.abc import Iterable

from companion.engine import IllegalAction

HIGH = 6
# The 28 tiles of a double-six set, highest first: "6-6", "6-5", ... "0-0".
ALL_TILES: tuple[str, ...] = tuple(
    f"{a}-{b}" for a in range(HIGH, -1, -1) for b in range(a, -1, -1)
)
DOUBLES: tuple[str, ...] = tuple(f"{a}-{a}" for a in range(HIGH, -1, -1))  # highest first

_WORDS = ("blank", "one", "two", "three", "four", "five", "six")
_SEPARATORS = "-:|/x"


def parse_tile(text: str) -> str:
    """"4-6", "6:4", "64", "6|4" -> "6-4"; anything else is refused with the reason."""
    raw = text.strip().lower()
    for sep in _SEPARATORS:
        raw = raw.replace(sep, " ")
    parts = raw.split()
    if len(parts) == 1 and len(parts[0]) == 2:
        parts = list(parts[0])
    if len(parts) != 2 or not all(p.isdigit() and len(p) == 1 for p in parts):
        raise IllegalAction(f"{text.strip() or 'nothing'} is not a domino: say it like 6-4")
    a, b = int(parts[0]), int(parts[1])
    if a > HIGH or b > HIGH:
        raise IllegalAction(f"{text.strip()} is not in a double-six set: ends go from 0 to 6")
    return f"{max(a, b)}-{min(a, b)}"


def is_tile(text: str) -> bool:
    try:
        parse_tile(text)
    except IllegalAction:
        return False
    return True


_ENDS: dict[str, tuple[int, int]] = {t: (int(t[0]), int(t[2])) for t in ALL_TILES}


def ends_of(tile: str) -> tuple[int, int]:
    """The two numbers of a tile id, high first for a normalised id ("4-6" gives (4, 6))."""
    known = _ENDS.get(tile)
    return known if known is not None else (int(tile[0]), int(tile[2]))


def pips(tile: str) -> int:
    a, b = ends_of(tile)
    return a + b


def total(tiles: Iterable[str]) -> int:
    return sum(pips(t) for t in tiles)


def is_double(tile: str) -> bool:
    return tile[0] == tile[2]


def fits(tile: str, value: int) -> bool:
    return value in ends_of(tile)


def other_end(tile: str, value: int) -> int:
    a, b = ends_of(tile)
    return b if a == value else a


def value_word(value: int) -> str:
    return _WORDS[value]


def tile_name(tile: str) -> str:
    """"6-4" -> "six-four", "5-5" -> "double five", "3-0" -> "three-blank"."""
    a, b = ends_of(tile)
    if a == b:
        return f"double {_WORDS[a]}"
    return f"{_WORDS[a]}-{_WORDS[b]}"


def and_list(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
