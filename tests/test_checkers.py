"""English checkers: rulebook 000 wording, notation, perft counts and random-game invariants."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.engine import IllegalAction, decode_action, encode_action
from companion.games.draughts.checkers import Checkers, CheckersState, perft_main
from companion.games.draughts.common import PieceMove
from companion.games.draughts.core import (
    CHECKERS_BOARD,
    format_fen,
    parse_fen,
    perft,
)

DATA = Path(__file__).parent / "data" / "perft_checkers.txt"


def game(position: str | None = None, **options: object) -> tuple[Checkers, CheckersState]:
    opts = dict(options)
    if position:
        opts["position"] = position
    g = Checkers(["Red", "White"], opts)
    return g, g.new_state()


def play(g: Checkers, s: CheckersState, text: str) -> list[str]:
    return [e.describe(g.players) for e in s.apply(g.parse_action(s, text))]


def refused(g: Checkers, s: CheckersState, text: str) -> str:
    before = s.to_json()
    with pytest.raises(IllegalAction) as info:
        s.apply(g.parse_action(s, text))
    assert s.to_json() == before
    return info.value.reason


def perft_rows(marker: str | None = None) -> list[tuple[str, int, int]]:
    rows = []
    for line in DATA.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split(";")]
        tag = parts[4] if len(parts) > 4 else None
        if tag == marker:
            rows.append((parts[0], int(parts[1]), int(parts[2])))
    return rows


# --------------------------------------------------------------------------- perft


@pytest.mark.parametrize("fen,depth,nodes", perft_rows())
def test_perft_published_and_cross_checked(fen: str, depth: int, nodes: int) -> None:
    assert perft(parse_fen(fen, CHECKERS_BOARD), depth, "checkers") == nodes


@pytest.mark.slow
@pytest.mark.parametrize("fen,depth,nodes", perft_rows("slow"))
def test_perft_deeper(fen: str, depth: int, nodes: int) -> None:
    assert perft(parse_fen(fen, CHECKERS_BOARD), depth, "checkers") == nodes


def test_perft_tool_prints_count_and_divide(capsys: pytest.CaptureFixture[str]) -> None:
    assert perft_main(["3", "--divide"]) == 0
    out = capsys.readouterr().out
    assert "perft(3) = 302" in out
    assert "11-15:" in out
    assert perft_main(["2", "--position", "W:W22,30:B1,11,18", "--json"]) == 0
    assert '"nodes"' in capsys.readouterr().out


# --------------------------------------------------------------------------- rules


def test_start_position_red_moves_first_with_seven_moves() -> None:
    g, s = game()
    assert s.current_player() == 0
    assert sorted(str(a) for a in s.legal_actions()) == sorted(
        ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    )
    assert play(g, s, "11-15") == ["Red moves 11 to 15.", "White's turn."]
    assert str(g.parse_action(s, "23 to 19")) == "23-19"
    assert str(g.parse_action(s, "23 19")) == "23-19"


def test_single_jump_is_announced_with_the_piece_taken() -> None:
    g, s = game("W:W22,30:B1,18")
    assert play(g, s, "22x15")[0] == "White jumps 22 to 15, taking 18."


def test_multiple_jump_full_and_short_notation() -> None:
    g, s = game("W:W22,30:B1,11,18")
    assert [str(a) for a in s.legal_actions()] == ["22x15x8"]
    assert play(g, s, "22x8")[0] == "White jumps 22 to 8 by 15, taking 11 and 18."
    g, s = game("W:W22,30:B1,11,18")
    assert play(g, s, "22x15x8")[0].startswith("White jumps 22 to 8")
    assert s.pieces(0) == ([1], [])


def test_jump_must_be_completed_under_compulsory_capture() -> None:
    g, s = game("W:W22,30:B1,11,18")
    reason = refused(g, s, "22x15")
    assert "not" in reason


def test_capture_is_compulsory_by_default() -> None:
    g, s = game("W:W22,30:B1,18")
    reason = refused(g, s, "30-26")
    assert "compulsory" in reason and "22x15" in reason


def test_optional_capture_option_allows_plain_moves_and_stopping() -> None:
    g, s = game("W:W22,30:B1,11,18", capture="optional")
    legal = {str(a) for a in s.legal_actions()}
    assert {"30-26", "30-25", "22x15", "22x15x8", "22-17"} <= legal
    play(g, s, "22x15")
    assert s.pieces(0) == ([1, 11], [])


def test_men_move_only_forward_and_kings_one_square_both_ways() -> None:
    g, s = game("W:W22,30:B1,9")
    assert "forward" in refused(g, s, "22-26")
    g, s = game("W:WK15:B1")
    assert sorted(str(a) for a in s.legal_actions()) == ["15-10", "15-11", "15-18", "15-19"]


def test_crowning_ends_the_move() -> None:
    # 10x3 crowns; as a king it could go on over 8 to 12, but the move ends on crowning.
    g, s = game("W:W10,30:B7,8,20")
    assert [str(a) for a in s.legal_actions()] == ["10x3"]
    texts = play(g, s, "10x3")
    assert "White's man on 3 is crowned king." in texts
    assert s.pieces(1) == ([30], [3])
    assert s.pieces(0) == ([8, 20], [])


def test_red_men_crown_on_the_far_row() -> None:
    g, s = game("B:W1,5:B26")
    assert "Red's man on 30 is crowned king." in play(g, s, "26-30")


def test_side_with_no_pieces_loses() -> None:
    g, s = game("W:W22,30:B18")
    texts = play(g, s, "22x15")
    assert s.is_terminal() and s.winners() == (1,)
    assert "White wins the game! Red has no pieces left." in texts


def test_blocked_side_loses() -> None:
    # Red's man on 4 is blocked by White men on 8 (with 11 behind it).
    g, s = game("W:W8,11,30:B4")
    play(g, s, "30-26")
    assert s.is_terminal() and s.winners() == (1,)
    assert "cannot move" in s.result[1]  # type: ignore[index]


def test_forty_move_rule_with_small_limit() -> None:
    g, s = game("B:WK29:BK4", **{"draw-moves": 2})
    for text in ["4-8", "29-25", "8-3"]:
        play(g, s, text)
    assert not s.is_terminal()
    texts = play(g, s, "25-22")
    assert s.is_terminal() and s.winners() == ()
    assert "drawn" in texts[-1]


def test_threefold_repetition_draws() -> None:
    g, s = game("B:WK29,K30:BK1,K2", **{"draw-moves": 0})
    for text in ["1-5", "29-25", "5-1", "25-29", "1-5", "29-25", "5-1"]:
        play(g, s, text)
    assert not s.is_terminal()
    play(g, s, "25-29")
    assert s.is_terminal() and "three times" in s.result[1]  # type: ignore[index]


def test_bad_input_is_refused_with_a_reason() -> None:
    g, s = game()
    assert "square 33" in refused(g, s, "33-29")
    assert "no Red piece" in refused(g, s, "14-18")
    assert "not Red's" in refused(g, s, "22-18")
    assert "occupied" in refused(g, s, "8-11")
    with pytest.raises(IllegalAction):
        g.parse_action(s, "hello")
    with pytest.raises(IllegalAction):
        s.apply(PieceMove(1, (22, 18)))  # not White's turn


def test_fen_round_trip_and_errors() -> None:
    pos = parse_fen("W:WK3,21-24:B1,K9", CHECKERS_BOARD)
    assert parse_fen(format_fen(pos, CHECKERS_BOARD), CHECKERS_BOARD) == pos
    for bad in ["X:W1:B2", "W:W1:B1", "W:W33:B2", "W:Wfoo:B2"]:
        with pytest.raises(ValueError):
            parse_fen(bad, CHECKERS_BOARD)


# --------------------------------------------------------------------------- invariants


@pytest.mark.parametrize("capture", ["compulsory", "optional"])
def test_random_games_keep_invariants(capture: str) -> None:
    rng = random.Random(6)
    for _ in range(40):
        g, s = game(capture=capture)
        steps = 0
        while not s.is_terminal():
            actions = s.legal_actions()
            assert actions
            before = s.to_json()
            copy = s.clone()
            # a made-up move is refused and changes nothing
            bogus = PieceMove(s.current_player(), (rng.randrange(1, 33), rng.randrange(1, 33)))
            if bogus not in actions:
                with pytest.raises(IllegalAction):
                    s.apply(bogus)
                assert s.to_json() == before
            action = rng.choice(actions)
            assert decode_action(encode_action(action), g.action_types) == action
            men_kings = [len(x) for i in (0, 1) for x in s.pieces(i)]
            s.apply(action)
            assert copy.to_json() == before  # the clone is independent
            after = [len(x) for i in (0, 1) for x in s.pieces(i)]
            assert sum(after) <= sum(men_kings)
            assert after[1] >= men_kings[1] and after[3] >= men_kings[3] or action.captured
            pos = s.pos
            assert pos.bottom & pos.top == 0 and pos.kings & ~(pos.bottom | pos.top) == 0
            assert parse_fen(s.fen(), CHECKERS_BOARD) == pos
            steps += 1
            assert steps <= g.max_length()
        assert s.legal_actions() == []


def test_session_plays_typed_moves_and_refuses_aloud() -> None:
    from companion.journal import Journal
    from companion.session import Session
    from companion.voice import Recorder

    rec = Recorder()
    session = Session.start(Checkers(["Red", "White"]), Journal.memory(), rec)
    assert session.command("11-15").accepted
    assert "Red moves 11 to 15." in rec.texts
    reply = session.command("15-19")
    assert not reply.accepted and "not White's" in reply.text
    assert session.command("moves").accepted
    resumed = Session.resume(session.journal, Recorder())
    assert resumed.state.to_json() == session.state.to_json()


# ------------------------------------------------------------------ issue 22


def test_moves_with_one_legal_move_names_it_like_options() -> None:
    # docs/games/checkers.md: "`moves` (or `options`): the legal moves"
    from companion.journal import Journal
    from companion.session import Session
    from companion.voice import Recorder

    g, s = game("B:W14,23,32:B9")
    assert [str(a) for a in s.legal_actions()] == ["9x18x27"]
    assert g.query(s, "moves") == "Only one move: 9x18x27."
    session = Session.start(g, Journal.memory(), announcer=Recorder())
    assert session.command("options").text == session.command("moves").text


def test_a_kings_two_square_move_is_refused_with_the_reason() -> None:
    # Rulebook 000, Checkers: "Move your checker one space diagonally, to an open adjacent
    # square; or jump an opponent's checker diagonally to the next open square"; "After a
    # checker becomes a 'King,' it can move diagonally forward or backward."
    g, s = game("W:WK15:B1")
    reason = refused(g, s, "15-24")
    assert reason == ("15-24 is not legal: a king moves one square diagonally, forwards or"
                      " backwards, or jumps over an opponent's piece; kings do not fly in"
                      " checkers.")
    assert "kings do not fly" in refused(g, s, "15-8")  # two squares backwards
    g, s = game("W:W22,30:B1,9")
    assert "a man moves one square diagonally forward" in refused(g, s, "22-13")
    assert "along a diagonal" in refused(g, s, "22-14")
