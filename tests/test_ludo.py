"""Ludo (rulebook 002): entering on a six, throwing again, three sixes, capture, home."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from companion.engine import CHANCE, TERMINAL, GameOver, IllegalAction, Throw, TurnPasses
from companion.games import find
from companion.games.race.ludo import (
    YARD,
    Captured,
    Foul,
    LudoState,
    Move,
    NoMove,
    ThrowAgain,
)


def make(players: int = 2, **options: Any) -> LudoState:
    game = find("ludo")(["Red", "Yellow", "Green", "Blue"][:players], options)
    state = game.new_state()
    assert isinstance(state, LudoState)
    return state


def throw(state: LudoState, value: int) -> list[Any]:
    return state.apply(Throw((value,)))


def refused_unchanged(state: LudoState, action: Any) -> str:
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    assert state.to_json() == before
    return err.value.reason


def test_a_six_is_needed_to_come_out_and_gives_another_throw() -> None:
    state = make()
    events = throw(state, 5)
    assert any(isinstance(e, NoMove) for e in events) and state.turn == 1
    throw(state, 3)
    assert state.turn == 0
    events = throw(state, 6)  # one choice only: enter (auto_move)
    assert state.pawns[0][0] == 0 and any(isinstance(e, ThrowAgain) for e in events)
    assert state.turn == 0 and state.current_player() == CHANCE
    events = throw(state, 4)
    assert state.pawns[0] == [4, YARD, YARD, YARD] and state.turn == 1


def test_after_each_throw_the_moves_are_listed() -> None:
    state = make(auto_move=False)
    state.pawns[0] = [0, 10, YARD, YARD]
    throw(state, 6)
    text = state.choices_text()
    assert "A from square 1 to square 7" in text
    assert "B from square 11 to square 17" in text
    assert "C from the start area to square 1" not in text  # own pawn holds the start square
    assert [a.pawn for a in state.legal_actions()] == [0, 1]
    assert "own colour" in refused_unchanged(state, Move(0, 2))
    refused_unchanged(state, Move(1, 0))
    refused_unchanged(state, Throw((3,)))


def test_third_six_in_a_row_forfeits_the_turn() -> None:
    state = make(auto_move=False)
    state.pawns[0] = [5, YARD, YARD, YARD]
    throw(state, 6)
    state.apply(Move(0, 0))  # 5 -> 11
    throw(state, 6)
    state.apply(Move(0, 1))  # enters
    assert state.sixes == 2 and state.turn == 0
    before = [list(p) for p in state.pawns]
    events = throw(state, 6)
    assert any(isinstance(e, Foul) for e in events)
    assert any(isinstance(e, TurnPasses) and e.player == 1 for e in events)
    assert state.pawns == before  # the third six is not played; the earlier moves stand
    assert state.turn == 1 and state.sixes == 0


def test_capture_sends_the_pawn_back_to_its_start_area() -> None:
    state = make()
    # Red starts on square 1, Yellow (opposite) on square 27.
    state.pawns[0] = [20, YARD, YARD, YARD]  # square 21
    state.pawns[1] = [50, YARD, YARD, YARD]  # Yellow progress 50 = square (26+50)%52+1 = 25
    events = throw(state, 4)  # Red 20 -> 24 = square 25
    assert any(isinstance(e, Captured) and e.victim == 1 for e in events)
    assert state.pawns[1][0] == YARD


def test_entering_captures_an_opponent_on_the_start_square() -> None:
    state = make()
    state.pawns[1] = [26, YARD, YARD, YARD]  # Yellow on square (26+26)%52+1 = 1
    events = throw(state, 6)
    assert any(isinstance(e, Captured) for e in events) and state.pawns[1][0] == YARD


def test_home_column_and_exact_throw() -> None:
    state = make()
    home = state.board.home
    assert home == 56
    state.pawns[0] = [home - 3, home, home, home]
    events = throw(state, 5)
    assert any(isinstance(e, NoMove) for e in events) and state.pawns[0][0] == home - 3
    throw(state, 1)  # Yellow cannot move
    events = throw(state, 3)
    assert isinstance(events[-1], GameOver) and state.winners() == (0,)
    assert state.is_terminal()


def test_home_column_is_private_and_pawns_do_not_share_it() -> None:
    state = make(auto_move=False)
    state.pawns[0] = [51, 49, YARD, YARD]
    throw(state, 2)
    assert state.where(0, 51) == "home column 1"
    assert Move(0, 1) not in state.legal_actions()  # 49 + 2 = 51 is taken by A
    assert Move(0, 0) in state.legal_actions()


def test_parse_moves() -> None:
    state = make(auto_move=False)
    state.pawns[0] = [0, 10, YARD, YARD]
    throw(state, 6)
    game = state.game
    assert game.parse_action(state, "move b") == Move(0, 1)
    assert game.parse_action(state, "move 11") == Move(0, 1)
    assert game.parse_action(state, "enter") == Move(0, 2)
    with pytest.raises(IllegalAction):
        game.parse_action(state, "move 40")


@pytest.mark.slow
def test_random_games_invariants() -> None:
    rng = random.Random(11)
    for n in range(600):
        players = 2 + n % 3
        state = make(players=players, auto_move=bool(n % 2))
        replay = state.clone()
        actions = []
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                action = state.sample_chance(rng)
            else:
                legal = state.legal_actions()
                assert legal
                action = rng.choice(legal)
            actions.append(action)
            state.apply(action)
            home = state.board.home
            for pawns in state.pawns:
                on_board = [x for x in pawns if 0 <= x < home]
                assert len(on_board) == len(set(on_board))  # one colour, one square
                for x in pawns:
                    assert x == YARD or 0 <= x <= home
            squares = [state.board.square(state.game.colours[p], x)
                       for p, pawns in enumerate(state.pawns) for x in pawns]
            squares = [s for s in squares if s is not None]
            assert len(squares) == len(set(squares))  # a landing always captures
            assert state.sixes < 3
        assert state.current_player() == TERMINAL
        (w,) = state.winners()
        assert all(x == state.board.home for x in state.pawns[w])
        for action in actions:
            replay.apply(action)
        assert replay.to_json() == state.to_json()
        json.dumps(state.to_json())
