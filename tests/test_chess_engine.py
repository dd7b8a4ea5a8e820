"""The engine opponent: Stockfish through python-chess's UCI support, seated at the table.

Pure parts (the board that lags behind the engine's move, stale moves, takeback of two plies,
the words of hints and evals) are tested without an engine; the rest plays a real Stockfish,
over the emulated DGT board, with a scripted human. No sleeping: every wait is on a queue.
"""

from __future__ import annotations

import os
import queue
import random
from collections.abc import Iterator
from pathlib import Path

import chess
import chess.engine
import pytest

from companion import cli
from companion.games.chess import (
    BoardMismatch,
    BoardPending,
    Chess,
    ChessState,
    Move,
    StaleMove,
    TakeBack,
    board_move_words,
    move_words,
)
from companion.journal import ACTION, Journal
from companion.observations import BoardSeen, MoveChosen, Observation
from companion.opponent import Opponent, seat
from companion.session import Session
from companion.uci import UciBrain, eval_words, find_engine, hint_words
from companion.voice import Recorder
from devices.dgt_emulator import DgtBoardEmulator
from devices.dgt_source import DgtSource

try:
    STOCKFISH: str | None = find_engine("stockfish")
except ValueError:
    STOCKFISH = None
    if os.environ.get("CI"):  # ./run installs it; CI must not pass by skipping
        raise
needs_stockfish = pytest.mark.skipif(STOCKFISH is None, reason="stockfish is not installed")


def _state(moves: str = "", **options: object) -> ChessState:
    game = Chess(["White", "Black"], {"engine": "stockfish", **options})
    state = game.new_state()
    for san in moves.split():
        state.apply(Move(state.board.parse_san(san).uci()))
    return state


def _seen(board: chess.Board) -> dict[chess.Square, str]:
    return {sq: p.symbol() for sq, p in board.piece_map().items()}


# --------------------------------------------------------------------------- pure parts


def test_the_board_may_lag_behind_the_engines_move_but_is_not_a_takeback() -> None:
    state = _state("e4 Nf6")  # Nf6 is the engine's (it plays Black)
    before = state.board.copy()
    before.pop()
    with pytest.raises(BoardPending):
        state.match_board(_seen(before))  # the knight is still on g8: waiting, not a takeback
    half = _seen(before)
    del half[chess.G8]  # the knight in the hand
    with pytest.raises(BoardPending):
        state.match_board(half)
    two_back = before.copy()
    two_back.pop()
    assert state.match_board(_seen(two_back)) == TakeBack(2)  # the player's takeback


def test_without_an_engine_the_previous_position_is_a_takeback() -> None:
    state = Chess(["White", "Black"]).new_state()
    state.apply(Move("e2e4"))
    state.apply(Move("g8f6"))
    before = state.board.copy()
    before.pop()
    assert state.match_board(_seen(before)) == TakeBack(1)


def test_the_engines_piece_put_on_the_wrong_square_is_explained() -> None:
    state = _state("e4 Nf6")
    wrong = state.board.copy()
    wrong.pop()
    wrong.remove_piece_at(chess.G8)
    wrong.set_piece_at(chess.H6, chess.Piece.from_symbol("n"))
    with pytest.raises(BoardMismatch) as err:
        state.match_board(_seen(wrong))
    assert err.value.reason == (
        "That is not the engine's move: move the black knight from g8 to f6."
        " Move the black knight from h6 back to f6.")


def test_a_move_made_before_the_engines_move_is_on_the_board_is_explained() -> None:
    state = _state("e4 Nf6")
    early = state.board.copy()
    early.pop()
    early.remove_piece_at(chess.G1)  # White moves the knight before making Nf6 on the board
    early.set_piece_at(chess.F3, chess.Piece.from_symbol("N"))
    with pytest.raises(BoardMismatch) as err:
        state.match_board(_seen(early))
    assert err.value.reason == (
        "First make the engine's move on the board: move the black knight from g8 to f6."
        " Then move the white knight from f3 back to g1.")


def test_the_engines_move_made_and_the_players_reply_at_once_is_accepted() -> None:
    state = _state("e4 Nf6")
    after = state.board.copy()
    after.push_san("Nc3")
    assert state.match_board(_seen(after)) == Move("b1c3")


def test_typed_takeback_against_the_engine_takes_back_its_reply_too() -> None:
    state = _state("e4 e5")
    game = state.game
    assert game.parse_action(state, "takeback") == TakeBack(2)
    state.apply(Move("g1f3"))  # the engine (Black) is to move: only the player's move
    assert game.parse_action(state, "takeback") == TakeBack(1)


def test_the_player_cannot_type_the_engines_move() -> None:
    state = _state("e4")
    with pytest.raises(Exception, match="played by the engine"):
        state.game.parse_action(state, "e5")


def test_a_move_chosen_for_another_position_is_stale() -> None:
    state = _state("e4")
    fen = state.board.fen()
    assert state.game.interpret(state, MoveChosen(source="engine", move="e7e5",
                                                  position=fen)) == Move("e7e5")
    state.apply(TakeBack(1))
    with pytest.raises(StaleMove):
        state.game.interpret(state, MoveChosen(source="engine", move="e7e5", position=fen))


def test_board_instructions_for_captures_castling_and_en_passant() -> None:
    board = chess.Board("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1")
    assert board_move_words(board, chess.Move.from_uci("e1g1")) == (
        "move the white king from e1 to g1 and the rook from h1 to f1")
    assert board_move_words(board, chess.Move.from_uci("e5d6")) == (
        "take the pawn off d5 and move the white pawn from e5 to d6")
    assert board_move_words(board, chess.Move.from_uci("a1a8")) == (
        "take the black rook off a8 and move the white rook from a1 to a8")


def test_hint_and_eval_words() -> None:
    board = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    mate = chess.engine.PovScore(chess.engine.Mate(1), chess.WHITE)
    assert hint_words(board, chess.Move.from_uci("a1a8"), mate) == (
        "Try rook to a8, checkmate: it mates at once.")
    board = chess.Board("4k3/8/8/3p4/4N3/8/8/4K3 w - - 0 1")
    cp = chess.engine.PovScore(chess.engine.Cp(250), chess.WHITE)
    assert hint_words(board, chess.Move.from_uci("e4d6"), cp) == "Try knight to d6, check: " \
        "it gives check."
    names = ("Ann", "Bob")
    assert eval_words(cp, names) == "Ann stands better, by about 2.5 pawns."
    assert eval_words(chess.engine.PovScore(chess.engine.Cp(-20), chess.WHITE), names) == (
        "The position is about equal (-0.2).")
    assert eval_words(chess.engine.PovScore(chess.engine.Mate(-3), chess.WHITE), names) == (
        "Bob can mate in 3.")


# --------------------------------------------------------------------------- with Stockfish


@needs_stockfish
def test_hint_and_eval_come_from_the_engine_without_blocking() -> None:
    game = Chess(["White", "Black"], {"engine": "stockfish", "fen":
                                      "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"})
    recorder = Recorder()
    session = Session.start(game, Journal.memory(), recorder)
    brain = UciBrain("stockfish", hint_limit=chess.engine.Limit(depth=6))
    inbox: queue.Queue[Observation] = queue.Queue()
    opponent = seat(session, brain)
    opponent.start(inbox.put)
    try:
        assert session.command("hint").accepted  # answered at once; the hint follows
        session.submit(inbox.get(timeout=20))
        assert recorder.texts[-1] == "Try rook to a8, checkmate: it mates at once."
        session.command("eval")
        session.submit(inbox.get(timeout=20))
        assert recorder.texts[-1] == "White can mate at once."
    finally:
        opponent.close()


class Table:
    """The emulated DGT board, its source, a session with Stockfish playing Black."""

    def __init__(self) -> None:
        self.board = DgtBoardEmulator()
        self.inbox: queue.Queue[Observation] = queue.Queue()
        self.source = DgtSource(self.board.path, settle=0.1)
        self.recorder = Recorder()
        self.game = Chess(["White", "Black"], {"engine": "stockfish"})
        self.session = Session.start(self.game, Journal.memory(), self.recorder)
        self.brain = UciBrain("stockfish", limit=chess.engine.Limit(depth=6))
        self.opponent: Opponent = seat(self.session, self.brain, board=True)
        self.source.start(self.inbox.put)
        self.opponent.start(self.inbox.put)
        # The board's first reading (the start position) is taken before any move: read
        # late, inside hand(), it ended the wait for the move before the move was made
        # (seen once under load: "The board matches the game", then White still to move).
        while not isinstance(obs := self.inbox.get(timeout=20), BoardSeen):
            self.session.submit(obs)
        self.session.submit(obs)

    def state(self) -> ChessState:
        state = self.session.state
        assert isinstance(state, ChessState)
        return state

    def hand(self, line: str) -> None:
        """The human moves pieces; the session takes every settled board until one counts
        (a board in the middle of a move is only waited for)."""
        self.board.command(line)
        while True:
            obs = self.inbox.get(timeout=20)
            reply = self.session.submit(obs)
            if isinstance(obs, BoardSeen) and (reply.accepted or
                                               "Waiting for the move" not in reply.text):
                return

    def engine_move(self) -> str:
        """Wait for the engine's move (board readings in between are taken too)."""
        while True:
            obs = self.inbox.get(timeout=20)
            self.session.submit(obs)
            if isinstance(obs, MoveChosen):
                return obs.move

    def close(self) -> None:
        self.opponent.close()
        self.source.close()
        self.board.close()


@pytest.fixture
def table() -> Iterator[Table]:
    if STOCKFISH is None:
        pytest.skip("stockfish is not installed")
    t = Table()
    yield t
    t.close()


def test_engine_plays_a_whole_game_on_the_dgt_board_with_a_takeback_while_it_thinks(
        table: Table) -> None:
    rng = random.Random(7)
    # The first move, and the engine kept thinking (a minute per move) to take it back.
    table.brain.limit = chess.engine.Limit(time=60)
    table.hand("e2e4")
    assert table.state().board.fen().split()[1] == "b" and table.opponent.thinking()
    table.hand("e4e2")  # the pawn back: a takeback while the engine thinks
    assert table.state().ucis == []
    assert table.recorder.texts[-1] == "Taken back: e4. White to move."
    table.brain.limit = chess.engine.Limit(depth=6)
    plies = 0
    while not table.state().is_terminal():
        plies += 1
        assert plies < 150, "the engine should have won by now"
        board = table.state().board
        human = rng.choice(sorted(board.legal_moves, key=lambda m: m.uci()))
        table.hand(human.uci())
        assert table.state().ucis[-1] == human.uci()
        if table.state().is_terminal():
            break
        reply = table.engine_move()
        spoken = table.recorder.texts[-2:]
        assert table.state().ucis[-1] == reply
        assert spoken[-1].startswith("On the board, ") and "move the black " in spoken[-1]
        before = table.state().board.copy()
        words = move_words(before, before.pop())
        assert words[:1].upper() + words[1:] + "." in table.recorder.texts[-3:]  # said
        table.hand(reply)  # the human makes the engine's move on the board
    outcome = table.state().outcome()
    assert outcome is not None and outcome[2] == (1,), outcome  # Black, the engine, won
    entries = list(table.session.journal.entries())
    sources = [e.source for e in entries if e.kind == ACTION]
    assert sources[0].startswith("dgt:") and sources[1].startswith("dgt:")  # move, takeback
    assert "engine:stockfish" in sources
    # No engine move was journaled for the position taken back: the stale search was stopped.
    first_engine = sources.index("engine:stockfish")
    assert first_engine == 3  # e4, takeback, the human's new first move, the engine's reply


def test_a_premature_move_is_explained_and_the_game_goes_on(table: Table) -> None:
    table.hand("d2d4")
    reply = table.engine_move()
    table.hand("g1f3")  # the human plays on before making the engine's move
    said = table.recorder.texts[-1]
    assert said.startswith("First make the engine's move on the board: move the black ")
    assert said.endswith("Then move the white knight from f3 back to g1.")
    assert table.state().ucis == ["d2d4", reply]
    table.hand("f3g1")
    assert table.recorder.texts[-1].startswith("Now make the engine's move on the board: ")
    table.hand(reply)
    table.hand("g1f3")
    assert table.state().ucis == ["d2d4", reply, "g1f3"]


def test_a_missing_engine_is_refused_before_any_journal_is_made(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "game.sqlite"
    code = cli.main(["play", "chess", "--engine", "no-such-engine", "--voice", "silent",
                     "--journal", str(journal)])
    assert code == 2 and not journal.exists()
    assert "no chess engine called 'no-such-engine' was found" in capsys.readouterr().err


@needs_stockfish
@pytest.mark.parametrize(("fen", "accepted"), [
    ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", True),  # the engine (Black) has a lone king
    ("3qk3/8/8/8/8/8/8/4K3 w - - 0 1", False),  # the engine has the queen
])
def test_the_engine_answers_a_draw_offer_by_its_eval(fen: str, accepted: bool) -> None:
    game = Chess(["White", "Black"], {"engine": "stockfish", "fen": fen})
    recorder = Recorder()
    session = Session.start(game, Journal.memory(), recorder)
    brain = UciBrain("stockfish", hint_limit=chess.engine.Limit(depth=8))
    inbox: queue.Queue[Observation] = queue.Queue()
    opponent = seat(session, brain)
    opponent.start(inbox.put)
    try:
        assert session.command("offer draw").accepted  # White, to move, offers
        obs = inbox.get(timeout=20)
        assert session.submit(obs).accepted
        assert session.state.is_terminal() == accepted
        if not accepted:
            assert "Black declines the draw." in recorder.texts
            assert session.command("Kf2").accepted  # the game goes on
            reply = inbox.get(timeout=20)
            assert isinstance(reply, MoveChosen) and session.submit(reply).accepted
    finally:
        opponent.close()
