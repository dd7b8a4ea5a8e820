"""The checkers and draughts opponent: the alpha-beta search agrees with plain minimax, judges
both sides alike, finds wins and crownings for hints, and plays at the table through the
session (its moves journaled, undo taking back its reply too)."""

from __future__ import annotations

import queue
import random

import pytest

from companion.draughts_brain import SearchBrain
from companion.games import find
from companion.games.draughts.common import BoardState, StaleMove, position_key
from companion.games.draughts.core import (
    CHECKERS_BOARD,
    DRAUGHTS_BOARD,
    Geometry,
    Position,
    checkers_moves,
    checkers_play,
    draughts_moves,
    draughts_play,
    parse_fen,
)
from companion.games.draughts.search import WIN, Level, Searcher
from companion.journal import ACTION, Journal
from companion.observations import MoveChosen, Observation
from companion.opponent import seat
from companion.session import Session, build_game
from companion.voice import Recorder

GAMES = {
    "checkers": (CHECKERS_BOARD, checkers_moves, checkers_play, 160, "B:W21-32:B1-12"),
    "draughts": (DRAUGHTS_BOARD, draughts_moves, draughts_play, 300, "W:W31-50:B1-20"),
}


def _searcher(name: str) -> Searcher:
    geometry, moves, play, king, _ = GAMES[name]
    return Searcher(geometry, moves, play, king)


def _random_positions(name: str, count: int, seed: int) -> list[Position]:
    geometry, moves, play, _, start = GAMES[name]
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = parse_fen(start, geometry)
        for _ in range(rng.randrange(4, 40)):
            legal = moves(pos)
            if not legal:
                break
            pos = play(pos, rng.choice(legal))
        if moves(pos):
            out.append(pos)
    return out


def _minimax(s: Searcher, pos: Position, depth: int, ply: int) -> int:
    """The same tree as Searcher.negamax, without pruning."""
    moves = s.moves(pos)
    if not moves:
        return -WIN + ply
    taking = any(m.captured for m in moves)
    if depth <= 0 and (not taking or depth < -12):
        return s.evaluate(pos)
    return max(-_minimax(s, s.play(pos, m), depth - 1, ply + 1) for m in moves)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_alpha_beta_scores_equal_plain_minimax(name: str) -> None:
    s = _searcher(name)
    s.budget = 10**9
    for pos in _random_positions(name, 12, seed=5):
        for depth in (1, 2, 3):
            assert s.negamax(pos, depth, -WIN - 1, WIN + 1, 0) == _minimax(s, pos, depth, 0)


def _mirror(pos: Position, geometry: Geometry) -> Position:
    """The same position seen from the other side: square n becomes square N+1-n."""
    last = geometry.squares + 1

    def flip(mask: int) -> int:
        out = 0
        for square in range(1, last):
            if mask >> geometry.bit(square) & 1:
                out |= 1 << geometry.bit(last - square)
        return out

    return Position(flip(pos.top), flip(pos.bottom), flip(pos.kings), not pos.bottom_to_move)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_evaluation_judges_both_sides_alike(name: str) -> None:
    s = _searcher(name)
    geometry = GAMES[name][0]
    start = parse_fen(GAMES[name][4], geometry)
    assert s.evaluate(start) == 0
    for pos in _random_positions(name, 20, seed=9):
        assert s.evaluate(_mirror(pos, geometry)) == s.evaluate(pos)


def _state(name: str, fen: str) -> BoardState:
    game, _ = build_game(find(name), find(name).spec.default_players, {"position": fen})
    state = game.new_state()
    assert isinstance(state, BoardState)
    return state


def test_hint_finds_the_winning_capture_and_the_crowning() -> None:
    state = _state("draughts", "W:W28,45:B23")  # 28x19 takes Black's last piece
    brain = SearchBrain(state.game, 2)
    assert brain.advise(state) == "Try 28x19: it wins and it takes a piece."
    assert brain.judge(state) == "White is winning by force."
    state = _state("checkers", "B:WK1:B27")  # Red's man crowns on 31 or 32
    assert SearchBrain(state.game, 2).advise(state) in (
        "Try 27-31: it crowns a king.", "Try 27-32: it crowns a king.")


def test_the_weak_level_is_weaker_yet_the_same_each_time() -> None:
    state = _state("checkers", "B:W21-32:B1-12")
    brain = SearchBrain(state.game, 1)
    first = brain.choose(state, lambda: True)
    assert first is not None and brain.choose(state, lambda: True) == first
    s = _searcher("checkers")
    result = s.search(state.pos, Level(budget=10**6, max_depth=2, margin=0))
    assert result is not None and result.depth == 2


def test_a_stale_move_is_ignored() -> None:
    game, _ = build_game(find("checkers"), ["Red", "White"], {"engine": "builtin"})
    state = game.new_state()
    assert isinstance(state, BoardState)
    key = position_key(state)
    state.apply(state.legal_actions()[0])  # Red's move; White (the computer) to move
    with pytest.raises(StaleMove):
        game.interpret(state, MoveChosen(source="engine:builtin", move="22-18", position=key))
    legal = str(state.legal_actions()[0])
    assert str(game.interpret(state, MoveChosen(source="engine:builtin", move=legal,
                                                position=position_key(state)))) == legal


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_computer_plays_at_the_table_and_undo_takes_back_its_reply(name: str) -> None:
    cls = find(name)
    game, files = build_game(cls, cls.spec.default_players, {"engine": "builtin", "level": 1})
    recorder = Recorder()
    session = Session.start(game, Journal.memory(), recorder, config=files)
    inbox: queue.Queue[Observation] = queue.Queue()
    brain = SearchBrain(game, 1)
    opponent = seat(session, brain)
    opponent.start(inbox.put)
    rng = random.Random(3)
    try:
        for _ in range(12):
            if session.state.is_terminal():
                break
            human = rng.choice(session.state.legal_actions())
            assert session.apply(human, source="keyboard").accepted
            if session.state.is_terminal():
                break
            assert not session.command(str(session.state.legal_actions()[0])).accepted
            obs = inbox.get(timeout=30)
            assert isinstance(obs, MoveChosen)
            assert session.submit(obs).accepted
        sources = [e.source for e in session.journal.entries() if e.kind == ACTION]
        assert sources[1::2] and set(sources[1::2]) == {"engine:builtin"}
        if not session.state.is_terminal():
            before = len(session.applied)
            assert session.command("undo").accepted
            assert len(session.applied) == before - 2  # its reply and your move
            assert session.state.current_player() == 0
    finally:
        opponent.close()


@pytest.mark.parametrize("name", ["chess", "checkers", "draughts"])
def test_hint_without_an_engine_says_how_to_get_one(name: str) -> None:
    game, files = build_game(find(name), find(name).spec.default_players, {})
    session = Session.start(game, Journal.memory(), Recorder(), config=files)
    reply = session.command("hint")
    assert reply.accepted and reply.text.startswith("Hints and eval come from")
    assert "--engine" in reply.text


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_search_plays_a_move_of_the_best_minimax_score(name: str) -> None:
    """The chosen move is worth what plain minimax says the best move is worth (a move only
    bounded by the best score in the pruned search must never be taken for a tie)."""
    s = _searcher(name)
    for pos in _random_positions(name, 12, seed=11):
        if len(s.moves(pos)) == 1:
            continue  # played at once
        result = s.search(pos, Level(budget=10**9, max_depth=3, margin=0))
        assert result is not None and result.depth == 3
        best = max(-_minimax(s, s.play(pos, m), 2, 1) for m in s.moves(pos))
        assert -_minimax(s, s.play(pos, result.move), 2, 1) == best == result.score
