"""Bingo (rulebook 000), the counting patience: the count, removals, close-ups, stuck rows."""

from __future__ import annotations

import random

import pytest

from companion.engine import CHANCE, IllegalAction, Shuffle
from companion.games import find
from companion.games.dominoes.bingo import BingoState, Take
from companion.games.dominoes.tiles import ALL_TILES, pips


def make(**options: str) -> BingoState:
    state = find("domino-bingo")(["Player"], options).new_state()
    assert isinstance(state, BingoState)
    return state


def reference(row: list[str]) -> tuple[bool, int]:
    """The rulebook's procedure done plainly: gaps left in the line, closed at its end."""
    line: list[str | None] = list(row)
    count, idle = 0, 0
    while True:
        removed = False
        for i, tile in enumerate(line):
            if tile is not None and pips(tile) == count:
                line[i] = None
                removed = True
            count = (count + 1) % 13 if tile is not None else count
        line = [t for t in line if t is not None]
        if not line:
            return True, 28
        idle = 0 if removed else idle + 1
        if idle == 13:
            return False, 28 - len(line)


def play(row: list[str]) -> BingoState:
    s = make()
    s.apply(Shuffle("dominoes", tuple(row)))
    while not s.is_terminal():
        s.apply(Take(0))
    return s


def test_count_and_remove_sentences() -> None:
    rest = [t for t in ALL_TILES if t not in ("0-0", "1-0", "6-6")]
    row = ["0-0", "1-0", "6-6", *rest]
    s = make()
    texts = [e.describe(("Player",)) for e in s.apply(Shuffle("dominoes", tuple(row)))]
    assert texts == ["The row is read. Count from zero at the left end.",
                     "The double blank at place 1 matches the count of 0."]
    texts = [e.describe(("Player",)) for e in s.apply(Take(0))]
    assert texts == ["Remove the double blank: 27 left.",
                     "The one-blank at place 1 matches the count of 1."]
    s.apply(Take(0))
    assert s.row[0] == "6-6" and s.pos > 0 and pips(s.row[s.pos]) == s.count  # 2 missed 6-6
    assert "stay" not in str(s.legal_actions())
    before = s.to_json()
    with pytest.raises(IllegalAction, match="remove=may"):
        s.apply(Take(0, False))
    assert s.to_json() == before


def test_row_read_tile_by_tile_and_refusals() -> None:
    s = make()
    s.apply(s.game.parse_action(s, "card 6-4"))
    assert s.current_player() == CHANCE
    with pytest.raises(IllegalAction, match="in the row already"):
        s.apply(s.game.parse_action(s, "4-6"))
    with pytest.raises(IllegalAction, match="read the rest tile by tile"):
        s.apply(Shuffle("dominoes", ALL_TILES))
    with pytest.raises(IllegalAction, match="not 3"):
        make().apply(Shuffle("dominoes", ALL_TILES[:3]))


def test_engine_agrees_with_the_plain_procedure() -> None:
    rng = random.Random("bingo")
    outcomes = set()
    for _ in range(300):
        row = list(ALL_TILES)
        rng.shuffle(row)
        s = play(row)
        won, removed = reference(row)
        assert (s.won, len(s.removed)) == (won, removed)
        outcomes.add(won)
    assert outcomes == {True, False}  # both a cleared row and a stuck one occur


def test_may_keep_option() -> None:
    s = make(remove="may")
    s.apply(Shuffle("dominoes", tuple(["0-0", *[t for t in ALL_TILES if t != "0-0"]])))
    assert s.legal_actions() == [Take(0, True), Take(0, False)]
    s.apply(s.game.parse_action(s, "keep"))
    assert s.row[0] == "0-0" and s.count != 0
