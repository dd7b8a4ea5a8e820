"""Chess rules through the Game/State API: the rulebooks' special moves, ends and draws."""

from __future__ import annotations

import json
import random

import chess
import pytest

from companion.engine import TERMINAL, GameOver, IllegalAction
from companion.games import find
from companion.games.chess import (
    Chess,
    ChessState,
    ClaimDraw,
    DrawClaimable,
    Move,
    MovePlayed,
    MovesTakenBack,
    Resign,
    TakeBack,
)


def new(fen: str = "", **options: object) -> tuple[Chess, ChessState]:
    game = Chess(["White", "Black"], {"fen": fen, **options})
    return game, game.new_state()


def play(game: Chess, state: ChessState, *moves: str) -> list:
    events: list = []
    for text in moves:
        events = state.apply(game.parse_action(state, text))
    return events


def test_registered_under_its_name() -> None:
    assert find("chess") is Chess
    assert Chess.tools["perft"] == "companion.games.chess:perft_main"


@pytest.mark.parametrize(
    "text,uci",
    [("e4", "e2e4"), ("e2e4", "e2e4"), ("Nf3", "g1f3"), ("nf3", "g1f3"), ("g1f3", "g1f3")],
)
def test_parse_san_and_uci(text: str, uci: str) -> None:
    game, state = new()
    assert game.parse_action(state, text) == Move(uci)


def test_illegal_move_changes_nothing_and_names_the_position() -> None:
    game, state = new()
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        game.parse_action(state, "e5")
    assert chess.STARTING_FEN in str(err.value)
    with pytest.raises(IllegalAction) as err:
        state.apply(Move("e2e5"))
    assert "cannot go to e5" in err.value.reason
    assert chess.STARTING_FEN in str(err.value)
    with pytest.raises(IllegalAction):
        state.apply(Move("e7e5"))  # Black's pawn, White's move
    with pytest.raises(IllegalAction):
        state.apply(Move("nonsense"))
    assert state.to_json() == before


def test_moves_leaving_the_king_in_check_are_refused_with_the_reason() -> None:
    # The e-file is pinned: the knight on e2 may not move.
    game, state = new("4r2k/8/8/8/8/8/4N3/4K3 w - - 0 1")
    with pytest.raises(IllegalAction) as err:
        state.apply(Move("e2c3"))
    assert "king in check" in err.value.reason


def test_en_passant_only_on_the_next_move() -> None:
    game, state = new()
    play(game, state, "e4", "a6", "e5", "d5")
    events = state.apply(game.parse_action(state, "exd6"))
    assert state.board.piece_at(chess.D5) is None  # the captured pawn is removed
    assert isinstance(events[0], MovePlayed)
    assert events[0].words == "pawn from e takes d6 en passant"
    # A second chance does not come: d5 pushed, White waits one move, then exd6 is refused.
    game, state = new()
    play(game, state, "e4", "a6", "e5", "d5", "h3", "h6")
    with pytest.raises(IllegalAction):
        game.parse_action(state, "exd6")


def test_castling_through_check_is_refused() -> None:
    # The black rook on f2 guards f1: no kingside castling; the queenside is free.
    game, state = new("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1")
    before = state.to_json()
    with pytest.raises(IllegalAction):
        game.parse_action(state, "O-O")
    with pytest.raises(IllegalAction):
        state.apply(Move("e1g1"))
    assert state.to_json() == before
    events = state.apply(game.parse_action(state, "0-0-0"))
    assert events[0].describe(game.players) == "Castles queenside."
    assert state.board.piece_at(chess.D1) == chess.Piece.from_symbol("R")


def test_castling_out_of_and_into_check_is_refused() -> None:
    game, state = new("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1")  # in check from e2
    with pytest.raises(IllegalAction):
        game.parse_action(state, "O-O")
    game, state = new("4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1")  # g1 is attacked
    with pytest.raises(IllegalAction):
        game.parse_action(state, "O-O")
    assert game.parse_action(state, "O-O-O") == Move("e1c1")


def test_castling_rights_lost_after_the_king_moves() -> None:
    game, state = new("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    play(game, state, "Kf1", "Kf8", "Ke1", "Ke8")
    with pytest.raises(IllegalAction):
        game.parse_action(state, "O-O")


@pytest.mark.parametrize(
    "text,uci",
    [
        ("e8", "e7e8q"),
        ("e8=Q", "e7e8q"),
        ("e8=N", "e7e8n"),
        ("e7e8", "e7e8q"),
        ("e7e8r", "e7e8r"),
        ("exd8=B", "e7d8b"),
    ],
)
def test_promotion_defaults_to_a_queen(text: str, uci: str) -> None:
    game, state = new("3r3k/4P3/8/8/8/8/8/K7 w - - 0 1")
    assert game.parse_action(state, text) == Move(uci)


def test_promotion_is_said_and_placed() -> None:
    game, state = new("7k/4P3/8/8/8/8/8/K7 w - - 0 1")
    events = state.apply(Move("e7e8q"))
    assert events[0].describe(game.players) == "Pawn to e8, promotes to a queen, check."
    assert state.board.piece_at(chess.E8) == chess.Piece.from_symbol("Q")
    with pytest.raises(IllegalAction):
        new("7k/4P3/8/8/8/8/8/K7 w - - 0 1")[1].apply(Move("e7e8k"))


def test_checkmate_ends_the_game() -> None:
    game, state = new()
    events = play(game, state, "f3", "e5", "g4", "Qh4")
    assert events[0].describe(game.players) == "Queen to h4, checkmate."
    over = [e for e in events if isinstance(e, GameOver)]
    assert over and over[0].winners == (1,)
    assert over[0].describe(game.players) == "Black wins the game! Checkmate."
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []
    view = state.to_json()
    assert (view["result"], view["termination"], view["check"]) == ("0-1", "checkmate", True)
    assert state.scores() == [0.0, 1.0]
    with pytest.raises(IllegalAction):
        game.parse_action(state, "a3")


def test_stalemate_is_a_draw() -> None:
    game, state = new("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1")
    events = state.apply(game.parse_action(state, "Qf7"))
    over = [e for e in events if isinstance(e, GameOver)]
    assert over and over[0].winners == ()
    assert "Stalemate" in over[0].describe(game.players)
    assert state.to_json()["result"] == "1/2-1/2"
    assert state.scores() == [0.5, 0.5]


def test_insufficient_material_ends_the_game_by_itself() -> None:
    game, state = new("k7/8/8/8/8/8/1r6/KB6 w - - 0 1")
    events = state.apply(game.parse_action(state, "Kxb2"))
    assert state.is_terminal()
    assert state.to_json()["termination"] == "insufficient material"
    assert isinstance(events[-1], GameOver)


KNIGHT_DANCE = ["Nf3", "Nf6", "Ng1", "Ng8"]


def test_threefold_repetition_is_claimed_not_automatic() -> None:
    game, state = new()
    with pytest.raises(IllegalAction):
        state.apply(ClaimDraw(0))
    play(game, state, *KNIGHT_DANCE)
    events = play(game, state, *KNIGHT_DANCE)  # the start position for the third time
    assert DrawClaimable(0, "threefold repetition") in events
    assert not state.is_terminal()
    assert ClaimDraw(0) in state.legal_actions()
    assert state.to_json()["claimable_draw"] == "threefold repetition"
    events = state.apply(game.parse_action(state, "claim draw"))
    assert isinstance(events[0], GameOver) and events[0].winners == ()
    assert state.to_json()["termination"] == "threefold repetition"
    with pytest.raises(IllegalAction):
        state.apply(TakeBack(1))  # a claimed draw stands


def test_fivefold_repetition_ends_the_game_by_itself() -> None:
    game, state = new()
    for _ in range(4):
        events = play(game, state, *KNIGHT_DANCE)
    assert state.is_terminal()
    assert state.to_json()["termination"] == "fivefold repetition"
    assert isinstance(events[-1], GameOver)


def test_auto_draw_option_ends_at_threefold() -> None:
    game, state = new(auto_draw=True)
    play(game, state, *KNIGHT_DANCE, *KNIGHT_DANCE)
    assert state.is_terminal()
    assert state.to_json()["termination"] == "threefold repetition"


def test_fifty_and_seventy_five_move_rules() -> None:
    game, state = new("7k/8/8/8/8/8/R7/K7 w - - 99 80")
    events = state.apply(game.parse_action(state, "Ra3"))
    assert DrawClaimable(1, "fifty-move rule") in events
    assert not state.is_terminal()
    game, state = new("7k/8/8/8/8/8/R7/K7 w - - 149 80")
    state.apply(game.parse_action(state, "Ra3"))
    assert state.is_terminal()
    assert state.to_json()["termination"] == "seventy-five-move rule"


def test_takeback_restores_the_position() -> None:
    game, state = new()
    play(game, state, "e4", "e5", "Nf3")
    fen_before = state.clone()
    fen_before.apply(TakeBack(1))
    events = state.apply(game.parse_action(state, "takeback"))
    assert events == [MovesTakenBack(("Nf3",), 0)]
    assert events[0].describe(game.players) == "Taken back: Nf3. White to move."
    assert state.board.fen() == fen_before.board.fen()
    state.apply(game.parse_action(state, "take back 2"))
    assert state.board.fen() == chess.STARTING_FEN
    with pytest.raises(IllegalAction):
        state.apply(TakeBack(1))


def test_takeback_after_checkmate_reopens_the_game() -> None:
    game, state = new()
    play(game, state, "f3", "e5", "g4", "Qh4")
    state.apply(TakeBack(1))
    assert state.current_player() == 1


def test_resign() -> None:
    game, state = new()
    events = state.apply(game.parse_action(state, "resign"))
    assert isinstance(events[0], GameOver)
    assert events[0].winners == (1,) and "White resigns" in events[0].describe(game.players)
    assert state.to_json()["result"] == "0-1"
    with pytest.raises(IllegalAction):
        state.apply(Resign(1))


@pytest.mark.parametrize(
    "fen,san,words",
    [
        ("k7/8/8/8/8/8/8/KN1N4 w - - 0 1", "Nbc3", "knight from b to c3"),
        ("k7/8/8/4p3/8/3N4/8/K7 w - - 0 1", "Nxe5", "knight takes e5"),
        ("4k3/8/8/4p3/8/3N4/8/K7 w - - 0 1", "Nf4", "knight to f4"),
        ("k5r1/8/8/8/8/8/8/4K3 b - - 0 1", "Rg1+", "rook to g1, check"),
    ],
)
def test_moves_in_words(fen: str, san: str, words: str) -> None:
    game, state = new(fen)
    events = state.apply(game.parse_action(state, san))
    assert isinstance(events[0], MovePlayed)
    assert events[0].words == words


def test_options_lists_the_legal_moves() -> None:
    game, state = new()
    text = state.choices_text()
    assert text.startswith("20 legal moves: ")
    assert "Nf3" in text and "e4" in text
    assert len(state.legal_actions()) == 20


def test_json_view_is_stable_and_serialisable() -> None:
    game, state = new()
    play(game, state, "e4", "c5")
    view = json.loads(json.dumps(state.to_json()))
    assert view["moves_san"] == ["e4", "c5"]
    assert view["moves_uci"] == ["e2e4", "c7c5"]
    assert view["turn"] == "white" and view["check"] is False and view["result"] == "*"
    assert set(view) == {
        "fen",
        "start_fen",
        "moves_san",
        "moves_uci",
        "turn",
        "check",
        "result",
        "termination",
        "claimable_draw",
        "draw_offer",
        "legal_moves",
    }


def test_bad_fen_option_is_refused() -> None:
    with pytest.raises(ValueError):
        new("not a fen")
    with pytest.raises(ValueError):
        new("8/8/8/8/8/8/8/8 w - - 0 1")  # no kings


def test_random_games_keep_the_invariants() -> None:
    rng = random.Random(6)
    for _ in range(6):
        game, state = new()
        for ply in range(game.max_length()):
            if state.is_terminal():
                break
            if ply % 25 == 0:  # sampled: clone and to_json copy the whole move stack
                twin = state.clone()
                before = state.to_json()
                with pytest.raises(IllegalAction):
                    state.apply(Move("a1a1"))
                assert state.to_json() == before
            action = rng.choice(state.legal_actions())
            state.apply(action)
            if ply % 25 == 0:
                assert twin.to_json() == before  # the clone did not move with the state
        assert state.is_terminal()
        # Replaying the UCI moves from the JSON view gives the same position.
        view = state.to_json()
        replay = chess.Board()
        for uci, san in zip(view["moves_uci"], view["moves_san"], strict=True):
            assert replay.san(chess.Move.from_uci(uci)) == san
            replay.push_uci(uci)
        assert replay.fen() == state.board.fen()
