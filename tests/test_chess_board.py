"""Chess from an electronic board: BoardSeen readings matched against the game."""

from __future__ import annotations

import chess
import pytest

from companion.games.chess import (
    BoardMatches,
    BoardMismatch,
    BoardPending,
    Chess,
    ChessState,
    Move,
    TakeBack,
)
from companion.observations import BoardSeen


def new(fen: str = "") -> tuple[Chess, ChessState]:
    game = Chess(["White", "Black"], {"fen": fen})
    return game, game.new_state()


def seen(board: chess.Board, *, all_squares: bool = True) -> BoardSeen:
    squares = []
    for sq in chess.SQUARES:
        piece = board.piece_at(sq)
        if piece or all_squares:
            squares.append((chess.square_name(sq), piece.symbol() if piece else ""))
    return BoardSeen(source="test", squares=tuple(squares))


def edited(state: ChessState, *changes: str) -> chess.Board:
    """The game's board with physical changes: "-e2" lifts, "+e4P" places (replacing)."""
    board = state.board.copy(stack=False)
    for change in changes:
        sq = chess.parse_square(change[1:3])
        if change[0] == "-":
            board.remove_piece_at(sq)
        else:
            board.set_piece_at(sq, chess.Piece.from_symbol(change[3]))
    return board


def after(state: ChessState, san: str) -> chess.Board:
    board = state.board.copy()
    board.push_san(san)
    return board


def test_a_move_on_the_board_is_the_legal_move_it_shows() -> None:
    game, state = new()
    assert game.interpret(state, seen(after(state, "e4"))) == Move("e2e4")
    assert game.interpret(state, seen(after(state, "Nf3"), all_squares=False)) == Move("g1f3")


def test_castling_en_passant_and_captures_from_the_board() -> None:
    game, state = new("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1")
    assert game.interpret(state, seen(after(state, "O-O"))) == Move("e1g1")
    assert game.interpret(state, seen(after(state, "O-O-O"))) == Move("e1c1")
    assert game.interpret(state, seen(after(state, "exd6"))) == Move("e5d6")
    # Only the king moved two squares: castling is half made, not an error.
    with pytest.raises(BoardPending):
        game.interpret(state, seen(edited(state, "-e1", "+g1K")))
    # The capturing pawn is on d6 but the captured pawn is still on d5: still in progress.
    with pytest.raises(BoardPending):
        game.interpret(state, seen(edited(state, "-e5", "+d6P")))


@pytest.mark.parametrize(
    "placed,uci", [("Q", "e7e8q"), ("N", "e7e8n"), ("R", "e7e8r"), ("P", "e7e8q")]
)
def test_promotion_from_the_board_uses_the_piece_placed(placed: str, uci: str) -> None:
    game, state = new("7k/4P3/8/8/8/8/8/K7 w - - 0 1")
    board = edited(state, "-e7", f"+e8{placed}")
    assert game.interpret(state, seen(board)) == Move(uci)


def test_lifted_pieces_are_not_errors() -> None:
    game, state = new()
    with pytest.raises(BoardPending) as err:
        game.interpret(state, seen(edited(state, "-g1")))
    assert err.value.quiet
    state.apply(game.parse_action(state, "e4"))
    state.apply(game.parse_action(state, "d5"))
    # exd5 under way: the black pawn is off the board and the white one in the hand.
    with pytest.raises(BoardPending):
        game.interpret(state, seen(edited(state, "-d5", "-e4")))


def test_unchanged_board_matches() -> None:
    game, state = new()
    with pytest.raises(BoardMatches) as err:
        game.interpret(state, seen(state.board))
    assert err.value.quiet


def test_illegal_move_is_refused_with_what_to_fix() -> None:
    game, state = new()
    with pytest.raises(BoardMismatch) as err:
        game.interpret(state, seen(edited(state, "-c1", "+h6B")))
    assert not err.value.quiet
    assert err.value.reason.startswith("Bishop c1 to h6 is not a legal move.")
    assert err.value.fixes == ("move the white bishop from h6 back to c1",)
    assert chess.STARTING_FEN in str(err.value)


def test_wrong_side_moving_is_explained() -> None:
    game, state = new()
    with pytest.raises(BoardMismatch) as err:
        game.interpret(state, seen(edited(state, "-e7", "+e5p")))
    assert "it is White's move" in err.value.reason


def test_guidance_square_by_square_until_the_board_matches() -> None:
    game, state = new()
    state.apply(game.parse_action(state, "e4"))
    # A black pawn appears on e5 from nowhere, the knight from b1 stands on d1 where the
    # queen was, and the a2 pawn is missing.
    wrong = edited(state, "+e5p", "+d1N", "-b1", "-a2")
    with pytest.raises(BoardMismatch) as err:
        game.interpret(state, seen(wrong))
    assert err.value.fixes == (
        "move the white knight from d1 back to b1",
        "remove the black pawn from e5",
        "put the white queen back on d1",
        "put the white pawn back on a2",
    )
    assert err.value.reason == (
        "The board does not match the game. Move the white knight from d1 back to b1;"
        " remove the black pawn from e5; put the white queen back on d1;"
        " put the white pawn back on a2."
    )
    # A piece of the wrong kind on a square: replaced.
    with pytest.raises(BoardMismatch) as err:
        game.interpret(state, seen(edited(state, "+d1N")))
    assert "replace the white knight on d1 with the white queen" in err.value.fixes
    # The player removes the pawn from e5 and puts the queen back: what is left is said.
    better = edited(state, "-b1", "-a2", "+h3N")
    with pytest.raises(BoardMismatch) as err:
        game.interpret(state, seen(better))
    assert err.value.fixes == (
        "move the white knight from h3 back to b1",
        "put the white pawn back on a2",
    )
    with pytest.raises(BoardMatches):
        game.interpret(state, seen(state.board))


def test_moving_pieces_back_is_a_takeback() -> None:
    game, state = new()
    start = state.board.copy()
    state.apply(game.parse_action(state, "e4"))
    after_e4 = state.board.copy()
    state.apply(game.parse_action(state, "e5"))
    assert game.interpret(state, seen(after_e4)) == TakeBack(1)
    assert game.interpret(state, seen(start)) == TakeBack(2)
    state.apply(TakeBack(1))
    assert state.board.fen() == after_e4.fen()


def test_board_after_the_game_is_over() -> None:
    game, state = new()
    for san in ("f3", "e5", "g4", "Qh4"):
        state.apply(game.parse_action(state, san))
    before_mate = state.board.copy(stack=True)
    before_mate.pop()
    assert game.interpret(state, seen(before_mate)) == TakeBack(1)
    with pytest.raises(BoardMismatch) as err:
        game.interpret(state, seen(edited(state, "-a2", "+a3P")))
    assert err.value.reason.startswith("The game is over.")


def test_unknown_square_name_is_refused() -> None:
    game, state = new()
    with pytest.raises(BoardMismatch.__mro__[1]):  # IllegalAction
        game.interpret(state, BoardSeen(source="t", squares=(("z9", "P"),)))


def test_a_pawn_left_on_the_last_rank_stands_for_the_queen() -> None:
    game, state = new("7k/4P3/8/8/8/8/p7/K7 w - - 0 1")
    board = edited(state, "-e7", "+e8P")
    action = game.interpret(state, seen(board))
    assert action == Move("e7e8q")
    state.apply(action)
    with pytest.raises(BoardMatches):
        game.interpret(state, seen(board))  # still a pawn on e8: it is the queen
    board.remove_piece_at(chess.H8)
    board.set_piece_at(chess.G7, chess.Piece.from_symbol("k"))
    assert game.interpret(state, seen(board)) == Move("h8g7")  # play goes on
