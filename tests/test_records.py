"""PGN and PDN: games leave the companion in the standard formats, and start from them.

PGN is checked against python-chess's reader on a published game (Anderssen-Kieseritzky,
London 1851, "the Immortal Game"); PDN against pydraughts' reader and move generator (an
independent implementation) on seeded random games full of captures, and back through our
own reader.
"""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import chess
import chess.pgn
import pytest

from companion import cli
from companion.games import find
from companion.games.chess import Chess, ChessState
from companion.games.draughts.common import BoardState, PieceMove
from companion.games.draughts.core import parse_fen
from companion.journal import Journal
from companion.records import load_record, pdn, pgn
from companion.session import Session, build_game
from companion.voice import Recorder

DATA = Path(__file__).parent / "data"
SEVEN_TAGS = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]


def _session(name: str, options: dict[str, object] | None = None,
             players: tuple[str, str] | None = None) -> Session:
    cls = find(name)
    game, files = build_game(cls, players or cls.spec.default_players, options or {})
    return Session.start(game, Journal.memory(), Recorder(), config=files)


def test_a_published_game_typed_in_exports_as_pgn_that_python_chess_reads_back() -> None:
    published = chess.pgn.read_game(io.StringIO((DATA / "immortal.pgn").read_text()))
    assert published is not None
    session = _session("chess", players=("Anderssen", "Kieseritzky"))
    board = published.board()
    for move in published.mainline_moves():
        assert session.command(board.san(move)).accepted
        board.push(move)
    text = pgn(session)
    back = chess.pgn.read_game(io.StringIO(text))
    assert back is not None and not back.errors
    assert list(back.headers)[:7] == SEVEN_TAGS
    assert back.headers["White"] == "Anderssen" and back.headers["Result"] == "1-0"
    assert re.fullmatch(r"\d{4}\.\d\d\.\d\d", back.headers["Date"])
    assert list(back.mainline_moves()) == list(published.mainline_moves())
    assert text.rstrip().endswith("23. Be7# { checkmate } 1-0")


def test_play_from_a_pgn_file_journals_its_moves_and_exports_the_same_game(
        tmp_path: Path) -> None:
    cls = find("chess")
    options, moves, names = load_record(cls, DATA / "immortal.pgn",
                                        lambda o: Chess(["White", "Black"], o))
    assert names == ["Anderssen, Adolf", "Kieseritzky, Lionel"] and len(moves) == 45
    session = _session("chess", options)
    session.load(moves, source="record:immortal.pgn")
    state = session.state
    assert isinstance(state, ChessState) and state.outcome() == ("1-0", "checkmate", (0,))
    assert [e.source for e in session.journal.entries()][-1] == "record:immortal.pgn"
    assert session.command("takeback 2").accepted  # loaded moves are ordinary moves
    assert state.sans[-1] == "Qf6+"


def test_a_game_from_a_fen_exports_setup_and_fen() -> None:
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    session = _session("chess", {"fen": fen})
    session.command("e4")
    session.command("Kd7")
    back = chess.pgn.read_game(io.StringIO(pgn(session)))
    assert back is not None
    assert back.headers["SetUp"] == "1" and back.headers["FEN"] == fen
    assert back.headers["Result"] == "*"
    assert back.end().board().fen() == "8/3k4/8/8/4P3/8/8/4K3 w - - 1 2"


def test_a_pgn_with_an_illegal_move_is_refused_with_the_move_named(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pgn"
    bad.write_text('[Event "x"]\n\n1. e4 e5 2. Ke3 *\n')
    with pytest.raises(ValueError, match="Ke3"):
        load_record(find("chess"), bad, lambda o: Chess(["White", "Black"], o))


def _random_game(name: str, seed: int, plies: int = 400) -> Session:
    session = _session(name)
    rng = random.Random(seed)
    for _ in range(plies):
        if session.state.is_terminal():
            break
        action = rng.choice(session.state.legal_actions())
        session.apply(action, source="test")
    return session


def _pydraughts_replay(variant: str, moves: list[str], fen: str | None = None) -> str:
    draughts = pytest.importorskip("draughts")
    board = draughts.Board(variant, fen=fen) if fen else draughts.Board(variant)
    for text in moves:
        # The move pydraughts makes from the same squares (origin, landings, target).
        squares = [int(n) for n in re.findall(r"\d+", text)]
        fits = [m for m in board.legal_moves()
                if m.steps_move[0] == squares[0] and m.steps_move[-1] == squares[-1]
                and (len(squares) == 2 or m.steps_move == squares)]
        assert len(fits) == 1, (text, [m.pdn_move for m in board.legal_moves()])
        board.push(fits[0])
    return str(board.fen)


@pytest.mark.parametrize(("name", "variant", "game_type"),
                         [("draughts", "standard", "20"), ("checkers", "english", "21")])
def test_pdn_round_trip_through_pydraughts(name: str, variant: str, game_type: str,
                                           tmp_path: Path) -> None:
    pytest.importorskip("draughts")
    multiple = 0  # multi-jumps, written with every landing square
    for seed in range(4):
        session = _random_game(name, seed)
        state = session.state
        assert isinstance(state, BoardState)
        multiple += sum(isinstance(a, PieceMove) and len(a.captured) > 1
                        for a in session.applied)
        text = pdn(session)
        from draughts.PDN import PDNReader

        read = PDNReader(pdn_text=text).games[0]
        assert read.tags["GameType"] == game_type
        assert read.variant == variant
        assert read.moves == [str(a) for a in session.applied]
        theirs = _pydraughts_replay(variant, read.moves)
        assert parse_fen(theirs, state.geometry) == state.pos
        # and our own reader gives the same moves back
        cls = find(name)
        written = tmp_path / f"{seed}.pdn"
        written.write_text(text)
        _, moves, names = load_record(cls, written, lambda o, c=cls: c(
            list(c.spec.default_players), o))
        assert moves == session.applied
        assert tuple(names) == tuple(session.game.players)
    assert multiple > 0


def test_pdn_results_by_the_conventions_of_each_game() -> None:
    session = _random_game("draughts", 1, 4000)
    state = session.state
    assert state.is_terminal()
    expected = {(): "1-1", (0,): "2-0", (1,): "0-2"}[state.winners()]
    assert f'[Result "{expected}"]' in pdn(session)
    session = _random_game("checkers", 2, 4000)
    expected = {(): "1/2-1/2", (0,): "0-1", (1,): "1-0"}[session.state.winners()]
    text = pdn(session)
    assert f'[Result "{expected}"]' in text  # player 0 (Red, 1-12) is PDN's Black
    assert '[Black "Red"]' in text and '[White "White"]' in text


def test_a_checkers_game_from_a_fen_exports_setup_and_fen() -> None:
    fen = "W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"
    session = _session("checkers", {"position": fen})
    action = session.state.legal_actions()[0]
    session.apply(action, source="test")
    text = pdn(session)
    assert '[SetUp "1"]' in text and '[FEN "' in text
    assert f"1... {action} *" in text  # Black (Red) moves first in a numbered pair
    pytest.importorskip("draughts")
    from draughts.PDN import PDNReader

    read = PDNReader(pdn_text=text).games[0]
    assert read.moves == [str(action)]


def test_export_command_writes_pgn_and_refuses_the_wrong_format(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.sqlite"
    game, files = build_game(find("chess"), ["White", "Black"], {})
    session = Session.start(game, Journal(str(path)), Recorder(), config=files)
    session.command("e4")
    session.journal.close()
    assert cli.main(["export", "--journal", str(path), "--pgn"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == '[Event "Table Companion game"]' and "1. e4 *" in out
    assert cli.main(["export", "--journal", str(path), "--pdn"]) == 2
    assert "Chess has no PDN record" in capsys.readouterr().err
    target = tmp_path / "out.pgn"
    assert cli.main(["export", "--journal", str(path), "--pgn", "--out", str(target)]) == 0
    assert chess.pgn.read_game(io.StringIO(target.read_text())) is not None


def test_play_reads_a_pdn_and_the_fen_option_of_draughts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    record = tmp_path / "game.pdn"
    record.write_text('[GameType "20"]\n[White "Ann"]\n[Black "Bob"]\n\n'
                      "1. 32-28 {a comment} 19-23 2. 28x19 14x23 *\n")
    journal = tmp_path / "d.sqlite"
    monkeypatch.setattr("sys.stdin", io.StringIO("status\nquit\n"))
    assert cli.main(["play", "draughts", "--pdn", str(record), "--voice", "console",
                     "--journal", str(journal)]) == 0
    out = capsys.readouterr()
    assert "4 moves read from game.pdn." in out.out + out.err
    view = Session.view(Journal(str(journal), readonly=True))
    assert list(view.game.players) == ["Ann", "Bob"] and len(view.applied) == 4
    fen = "W:W31,32:B1,2"
    journal2 = tmp_path / "f.sqlite"
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert cli.main(["play", "draughts", "--fen", fen, "--voice", "silent",
                     "--journal", str(journal2)]) == 0
    view = Session.view(Journal(str(journal2), readonly=True))
    assert view.game.options["position"] == fen
    assert cli.main(["play", "checkers", "--pgn", str(record), "--voice", "silent"]) == 2
    assert "Checkers is read with --pdn, not --pgn" in capsys.readouterr().err
