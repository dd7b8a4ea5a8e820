"""International draughts: rulebook 002 wording, draw rules, notation, perft, invariants."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.engine import IllegalAction, decode_action, encode_action
from companion.games.draughts.common import PieceMove
from companion.games.draughts.core import DRAUGHTS_BOARD, parse_fen, perft
from companion.games.draughts.international import Draughts, DraughtsState, perft_main

DATA = Path(__file__).parent / "data" / "perft_draughts.txt"


def game(position: str | None = None, **options: object) -> tuple[Draughts, DraughtsState]:
    opts = dict(options)
    if position:
        opts["position"] = position
    g = Draughts(["White", "Black"], opts)
    return g, g.new_state()


def play(g: Draughts, s: DraughtsState, text: str) -> list[str]:
    return [e.describe(g.players) for e in s.apply(g.parse_action(s, text))]


def refused(g: Draughts, s: DraughtsState, text: str) -> str:
    before = s.to_json()
    with pytest.raises(IllegalAction) as info:
        s.apply(g.parse_action(s, text))
    assert s.to_json() == before
    return info.value.reason


def legal(s: DraughtsState) -> list[str]:
    return sorted(s.describe_action(a) for a in s.legal_actions())


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
    assert perft(parse_fen(fen, DRAUGHTS_BOARD), depth, "draughts") == nodes


@pytest.mark.slow
@pytest.mark.parametrize("fen,depth,nodes", perft_rows("slow"))
def test_perft_deeper(fen: str, depth: int, nodes: int) -> None:
    assert perft(parse_fen(fen, DRAUGHTS_BOARD), depth, "draughts") == nodes


def test_duplicate_captures_are_one_move_but_can_be_counted() -> None:
    # The king can take the same four pieces in four orders, all ending on the same square.
    g, s = game("W:WK14:B6,8,19,35,41")
    pos = s.pos
    assert perft(pos, 1, "draughts", dedupe=False) == 4
    assert perft(pos, 1, "draughts") == 1
    assert len(s.legal_actions()) == 1


def test_perft_tool(capsys: pytest.CaptureFixture[str]) -> None:
    assert perft_main(["3", "--divide"]) == 0
    out = capsys.readouterr().out
    assert "perft(3) = 658" in out and "32-28:" in out
    assert perft_main(["1", "--position", "W:WK46:B28", "--json"]) == 0
    assert '"nodes": 5' in capsys.readouterr().out


# --------------------------------------------------------------------------- rulebook wording


def test_white_moves_first_nine_moves() -> None:
    g, s = game()
    assert s.current_player() == 0 and len(s.legal_actions()) == 9
    assert play(g, s, "32-28") == ["White moves 32 to 28.", "Black's turn."]


def test_rulebook_example_two_pieces_in_a_row_on_a_diagonal() -> None:
    # "a white piece, a black piece, an empty square, a black piece and an empty square":
    # the white piece captures the first black piece and then the second too.
    g, s = game("W:W41:B37,28,5")
    assert legal(s) == ["41x23"]
    assert play(g, s, "41x23")[0] == "White jumps 41 to 23 by 32, taking 28 and 37."


def test_men_capture_backwards() -> None:
    g, s = game("W:W23:B28,5")
    assert legal(s) == ["23x32"]


def test_capturing_is_mandatory() -> None:
    g, s = game("W:W23,45:B28,5")
    assert "compulsory" in refused(g, s, "45-40")


def test_maximum_capture_rule() -> None:
    # 41 can take two (37 and 28); 45 can take one (40): only the larger capture is legal.
    g, s = game("W:W41,45:B5,28,37,40")
    assert legal(s) == ["41x23"]
    reason = refused(g, s, "45x34")
    assert "takes 1 piece" in reason and "most pieces must be taken: 2" in reason


def test_kings_count_the_same_as_men_in_the_maximum_rule() -> None:
    # Taking one king (by 45) is not preferred over taking two men (by 41).
    g, s = game("W:W41,45:B5,28,37,K40")
    assert legal(s) == ["41x23"]


def test_no_promotion_when_passing_the_king_row() -> None:
    # 12x3x14: the man reaches the king row on 3 but must go on capturing and ends on 14.
    g, s = game("W:W12,50:B6,8,9")
    assert legal(s) == ["12x14"]
    texts = play(g, s, "12x14")
    assert texts[0] == "White jumps 12 to 14 by 3, taking 8 and 9."
    assert "White's man passed the king row but ends on 14, so it is not crowned." in texts
    assert s.pieces(0) == ([14, 50], [])


def test_promotion_when_the_move_ends_on_the_king_row() -> None:
    g, s = game("W:W7,50:B20")
    texts = play(g, s, "7-1")
    assert "White's man on 1 is crowned king." in texts
    assert s.pieces(0) == ([50], [1])


def test_flying_king_moves_and_chooses_where_to_land() -> None:
    g, s = game("W:WK46:B5")
    assert legal(s) == [f"46-{n}" for n in sorted([41, 37, 32, 28, 23, 19, 14, 10])]
    g, s = game("W:WK46:B28,1")
    assert legal(s) == ["46x10", "46x14", "46x19", "46x23", "46x5"]
    play(g, s, "46x14")
    assert s.pieces(0) == ([], [14])


def test_flying_king_must_land_where_it_can_go_on_capturing() -> None:
    # After taking 28 the king can go on to take 24 only from 19: the maximum rule forces
    # it to land there, then it chooses again where to land beyond 24.
    g, s = game("W:WK46:B28,24,1")
    assert sorted(str(a) for a in s.legal_actions()) == ["46x19x30", "46x19x35"]
    assert legal(s) == ["46x30", "46x35"]


def test_captured_pieces_stay_until_the_move_ends_and_are_not_jumped_twice() -> None:
    # The king takes 37 and 19 on the long diagonal... but cannot come back over 37.
    g, s = game("W:WK46:B37,19,1")
    for action in s.legal_actions():
        assert isinstance(action, PieceMove)
        assert len(set(action.captured)) == len(action.captured)
    assert all(len(a.captured) == 2 for a in s.legal_actions())  # type: ignore[attr-defined]


def test_ambiguous_short_notation_asks_for_the_landing_squares() -> None:
    # Two captures of three from 26 to 41, taking different pieces (13 or 9).
    g, s = game("W:WK26:B9,11,13,17,36,37,46")
    assert legal(s) == ["26x3x14x41", "26x8x19x41"]
    reason = refused(g, s, "26x41")
    assert "could be" in reason and "26x8x19x41" in reason
    assert play(g, s, "26x8x41")[0] == (
        "White jumps 26 to 41 by 8 and 19, taking 13, 17 and 37."
    )


# --------------------------------------------------------------------------- draws and ends


def quiet_king_move(s: DraughtsState) -> PieceMove:
    """A king move to a new position after which neither side can capture."""
    for action in s.legal_actions():
        assert isinstance(action, PieceMove)
        if action.captured or action.origin not in s.pieces(s.current_player())[1]:
            continue
        trial = s.clone()
        trial.apply(action)
        if trial.repetitions() > 1:
            continue
        if trial.is_terminal() or not any(
            isinstance(a, PieceMove) and a.captured for a in trial.legal_actions()
        ):
            return action
    raise AssertionError("no quiet king move")


def run_quiet(s: DraughtsState, plies: int) -> None:
    for _ in range(plies):
        assert not s.is_terminal()
        s.apply(quiet_king_move(s))


def test_two_kings_against_one_king_draw_after_five_moves_each() -> None:
    g, s = game("W:WK1,K3:BK50")
    run_quiet(s, 9)
    assert not s.is_terminal()
    run_quiet(s, 1)
    assert s.is_terminal() and s.winners() == ()
    assert "5 moves" in s.result[1]  # type: ignore[index]


def test_endgame_count_total_option() -> None:
    g, s = game("W:WK1,K3:BK50", **{"endgame-count": "total"})
    run_quiet(s, 4)
    assert not s.is_terminal()
    run_quiet(s, 1)
    assert s.is_terminal()


def test_three_pieces_with_a_king_against_a_king_draw_after_sixteen_moves() -> None:
    g, s = game("W:WK1,K3,36:BK50", **{"king-moves": 0})
    assert s.to_json()["endgame_rule"].startswith("Three pieces")
    run_quiet(s, 31)
    assert not s.is_terminal()
    run_quiet(s, 1)
    assert s.is_terminal() and "16 moves" in s.result[1]  # type: ignore[index]


def test_one_king_against_one_king_is_drawn_at_once() -> None:
    g, s = game("W:WK1:BK50")
    assert s.is_terminal() and s.winners() == ()


def test_capture_into_king_against_king_ends_in_a_draw() -> None:
    g, s = game("W:WK46:B28,K1")
    texts = play(g, s, "46x23")
    assert s.is_terminal() and "draw" in texts[-1]


def test_twenty_five_king_moves_rule_small_limit() -> None:
    g, s = game("W:WK47,K48,45:BK3,K4,6", **{"king-moves": 1})
    s.apply(quiet_king_move(s))
    assert not s.is_terminal()
    s.apply(quiet_king_move(s))
    assert s.is_terminal() and "only kings" in s.result[1]  # type: ignore[index]


def test_no_pieces_or_no_moves_loses() -> None:
    g, s = game("W:W23:B28")
    texts = play(g, s, "23x32")
    assert s.winners() == (0,) and "Black has no pieces left." in texts[-1]
    g, s = game("B:W46:B5,41")  # Black's man on 5 can still move
    assert not s.is_terminal()
    g, s = game("W:W46:B41,37")  # White's only man, on 46, is blocked by 41 with 37 behind
    assert s.is_terminal() and s.winners() == (1,)
    assert s.result == ((1,), "White cannot move.")


def test_refusals_change_nothing() -> None:
    g, s = game()
    assert "square 51" in refused(g, s, "51-46")
    assert "no White piece" in refused(g, s, "28-23")
    assert "not White's" in refused(g, s, "17-22")
    assert "forwards" in refused(g, s, "32-37") or "occupied" in refused(g, s, "32-37")


# --------------------------------------------------------------------------- invariants


def test_random_games_keep_invariants() -> None:
    rng = random.Random(2)
    for _ in range(12):
        g, s = game()
        steps = 0
        while not s.is_terminal():
            actions = s.legal_actions()
            assert actions
            if actions[0].captured:  # type: ignore[attr-defined]
                most = max(len(a.captured) for a in actions)  # type: ignore[attr-defined]
                assert all(len(a.captured) == most for a in actions)  # type: ignore[attr-defined]
            before = s.to_json()
            copy = s.clone()
            action = rng.choice(actions)
            assert decode_action(encode_action(action), g.action_types) == action
            assert isinstance(action, PieceMove)
            bogus = PieceMove(action.player, (action.origin, action.origin))
            with pytest.raises(IllegalAction):
                s.apply(bogus)
            assert s.to_json() == before
            count = sum(len(x) for i in (0, 1) for x in s.pieces(i))
            s.apply(action)
            assert copy.to_json() == before
            after = sum(len(x) for i in (0, 1) for x in s.pieces(i))
            assert after == count - len(action.captured)
            assert parse_fen(s.fen(), DRAUGHTS_BOARD) == s.pos
            steps += 1
            assert steps <= g.max_length()


def test_session_round_trip() -> None:
    from companion.journal import Journal
    from companion.session import Session
    from companion.voice import Recorder

    rec = Recorder()
    session = Session.start(Draughts(["White", "Black"]), Journal.memory(), rec)
    for text in ["32-28", "19-23", "28x19", "14x23"]:
        assert session.command(text).accepted, text
    assert "White jumps 28 to 19, taking 23." in rec.texts
    assert "Black jumps 14 to 23, taking 19." in rec.texts
    assert not session.command("37-32x").accepted
    resumed = Session.resume(session.journal, Recorder())
    assert resumed.state.to_json() == session.state.to_json()


def _pydraughts_fen(pos, geometry) -> str:  # type: ignore[no-untyped-def]
    """pydraughts' internal board string: side to move, then one letter per square."""
    chars = []
    for sq in range(1, geometry.squares + 1):
        b = 1 << geometry.bit(sq)
        if pos.bottom & b:
            chars.append("W" if pos.kings & b else "w")
        elif pos.top & b:
            chars.append("B" if pos.kings & b else "b")
        else:
            chars.append("e")
    return ("W" if pos.bottom_to_move else "B") + "".join(chars)


def _pydraughts_perft(board, depth: int) -> int:  # type: ignore[no-untyped-def]
    moves, caps = board.legal_moves()
    unique = {}
    for m, c in zip(moves, caps, strict=True):
        unique.setdefault((m[0][0], m[-1][1], frozenset(x for x in c if x is not None)), m)
    if depth == 1:
        return len(unique)
    total = 0
    for m in unique.values():
        child = board.copy_fast()
        child.push(m)
        total += _pydraughts_perft(child, depth - 1)
    return total


def test_agrees_with_pydraughts_when_installed() -> None:
    """Differential check against an independent generator (pydraughts, MIT), if present."""
    core = pytest.importorskip("draughts.core.game")
    from companion.games.draughts.core import draughts_moves, draughts_play

    rng = random.Random(12)
    g, s = game()
    pos = s.pos
    for _ in range(6):
        for _ in range(rng.randrange(8, 30)):
            moves = draughts_moves(pos)
            if not moves:
                break
            pos = draughts_play(pos, rng.choice(moves))
        if not draughts_moves(pos):
            pos = s.pos
            continue
        theirs = core.Game("standard", fen=_pydraughts_fen(pos, DRAUGHTS_BOARD))
        assert perft(pos, 2, "draughts") == _pydraughts_perft(theirs, 2)


def test_moves_with_one_legal_move_names_it_like_options() -> None:
    # docs/games/draughts.md: `moves` and `options` give the same answer
    g, s = game("W:W36:B5,31")
    assert [str(a) for a in s.legal_actions()] == ["36x27"]
    assert g.query(s, "moves") == f"Only one move: {s.describe_action(s.legal_actions()[0])}."
    assert s.options_text() == g.query(s, "moves")
