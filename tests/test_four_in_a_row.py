"""Four in a Row: the four directions, full board, threats, options, invariants."""

from __future__ import annotations

import random

import pytest

from companion.engine import IllegalAction, decode_action, encode_action
from companion.games.four_in_a_row import Drop, FourInARow, FourState, Place


def game(**options: object) -> tuple[FourInARow, FourState]:
    g = FourInARow(["White", "Black"], dict(options))
    return g, g.new_state()


def drops(g: FourInARow, s: FourState, columns: str) -> list[str]:
    texts: list[str] = []
    for c in columns.split():
        texts = [e.describe(g.players) for e in s.apply(g.parse_action(s, c))]
    return texts


def test_gravity_drop_announces_column_and_row() -> None:
    g, s = game()
    assert drops(g, s, "4") == ["White drops in column 4, row 1.", "Black's turn."]
    assert drops(g, s, "4")[0] == "Black drops in column 4, row 2."


def test_horizontal_win() -> None:
    g, s = game()
    texts = drops(g, s, "1 1 2 2 3 3 4")
    assert s.winners() == (0,)
    assert "White has 4 in a row: a1, b1, c1 and d1." in texts
    assert "White wins the game!" in texts


def test_vertical_win() -> None:
    g, s = game()
    drops(g, s, "1 2 1 2 1 2")
    assert not s.is_terminal()
    drops(g, s, "1")
    assert s.winners() == (0,)
    assert s.to_json()["result"]["line"] == ["a1", "a2", "a3", "a4"]


def test_rising_diagonal_win() -> None:
    g, s = game()
    # White: a1 b2 c3 d4; Black fills under them.
    drops(g, s, "1 2 2 3 3 4 3 4 4 7 4")
    assert s.winners() == (0,)
    assert s.to_json()["result"]["line"] == ["a1", "b2", "c3", "d4"]


def test_falling_diagonal_win() -> None:
    g, s = game()
    drops(g, s, "7 6 6 5 5 4 5 4 4 1 4")
    assert s.winners() == (0,)
    assert s.to_json()["result"]["line"] == ["d4", "e3", "f2", "g1"]


def test_win_by_piece_in_the_middle_of_the_line() -> None:
    g, s = game()
    drops(g, s, "1 1 2 2 4 4 3")
    assert s.winners() == (0,)
    assert len(s.to_json()["result"]["line"]) == 4


def test_full_board_is_a_draw() -> None:
    g, s = game(columns=4, rows=4)
    # Columns filled in pairs so no four line up: a draw on a 4x4 board.
    texts = drops(g, s, "1 2 1 2 2 1 2 1 3 4 3 4 4 3 4 3")
    assert s.is_terminal() and s.winners() == ()
    assert "The game is over: a draw. The board is full with no line." in texts


def test_full_column_and_bad_input_refused_without_change() -> None:
    g, s = game(rows=4)
    drops(g, s, "1 1 1 1")
    before = s.to_json()
    for text, words in [("1", "full"), ("9", "no column 9"), ("0", "no column 0")]:
        with pytest.raises(IllegalAction) as info:
            s.apply(g.parse_action(s, text))
        assert words in info.value.reason
        assert s.to_json() == before
    with pytest.raises(IllegalAction):
        g.parse_action(s, "banana")
    with pytest.raises(IllegalAction):
        s.apply(Drop(1, 2))  # not Black's turn
    assert s.to_json() == before


def test_threats_say_winning_and_blocking_columns() -> None:
    g, s = game()
    drops(g, s, "1 7 2 7 3")
    # Black to move: White threatens d1 (column 4); Black has nothing yet.
    assert g.query(s, "threats") == (
        "White threatens to win in column 4: Black must block it."
    )
    drops(g, s, "4 1")  # Black blocks; White plays a2
    drops(g, s, "7")  # Black now has three in column 7
    # White to move: Black threatens column 7 and White has no win.
    assert "Black threatens to win in column 7" in g.query(s, "threats")  # type: ignore[operator]
    g2, s2 = game()
    drops(g2, s2, "1 7 2 7 3 7")
    text = g2.query(s2, "threats")
    assert "White wins at once in column 4." in text
    assert "Black threatens to win in column 7" in text


def test_no_gravity_option_places_anywhere() -> None:
    g, s = game(gravity=False)
    texts = [e.describe(g.players) for e in s.apply(g.parse_action(s, "c3"))]
    assert texts[0] == "White places on c3."
    assert len(s.legal_actions()) == 41
    with pytest.raises(IllegalAction):
        s.apply(g.parse_action(s, "c3"))
    for cell in ["a1", "d4", "b1", "e5", "c1"]:
        s.apply(g.parse_action(s, cell))
    assert g.query(s, "threats") == (
        "White wins at once in b2 and f6. Black threatens to win in d1: White would otherwise"
        " have to block it."
    )
    s.apply(g.parse_action(s, "f6"))
    assert s.winners() == (0,)
    assert s.to_json()["result"]["line"] == ["c3", "d4", "e5", "f6"]


def test_other_sizes_and_line_lengths() -> None:
    g, s = game(columns=5, rows=4, connect=3)
    drops(g, s, "1 5 2 5 3")
    assert s.winners() == (0,)
    with pytest.raises(ValueError):
        FourInARow(["A", "B"], {"connect": 12})


@pytest.mark.parametrize("gravity", [True, False])
def test_random_games_keep_invariants(gravity: bool) -> None:
    rng = random.Random(4)
    for _ in range(150):
        g, s = game(gravity=gravity)
        while not s.is_terminal():
            actions = s.legal_actions()
            before = s.to_json()
            copy = s.clone()
            action = rng.choice(actions)
            assert decode_action(encode_action(action), g.action_types) == action
            threats = s.winning_cells(s.turn)
            s.apply(action)
            assert copy.to_json() == before
            if isinstance(action, Drop | Place):
                cell = s.history[-1]
                assert (cell in threats) == (s.winners() == (action.player,))
            assert len(s.history) <= g.max_length()
        if not s.winners():
            assert len(s.history) == 42
        else:
            line = s.to_json()["result"]["line"]
            assert len(line) >= 4


def test_session_threats_question_and_moves() -> None:
    from companion.journal import Journal
    from companion.session import Session
    from companion.voice import Recorder

    rec = Recorder()
    session = Session.start(FourInARow(["White", "Black"]), Journal.memory(), rec)
    for text in ["1", "7", "2", "7", "3"]:
        assert session.command(text).accepted, text
    reply = session.command("threats")
    assert reply.accepted and "White threatens to win in column 4" in reply.text
    assert not session.command("8").accepted
    assert session.command("4").accepted
    resumed = Session.resume(session.journal, Recorder())
    assert resumed.state.to_json() == session.state.to_json()
