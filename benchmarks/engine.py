"""``companion bench engine``: the engine opponent's levels against each other.

Plays ``--games`` games of the weak level against the strong one (colours alternate), through
the same brain the table uses (companion/uci.py for chess; companion/draughts_brain.py for
``--game checkers`` and ``--game draughts``, levels 1 to 4) and the rules engine, and prints
the score. The claim it checks: the lowest level really plays weakly, losing most games to
full strength. Full strength thinks ``--strong-time`` seconds a move here (a second at the
table) to keep the run short; the weak level thinks as at the table. A game still going after
``--max-plies`` is counted as unfinished (a draw in the score).
"""

from __future__ import annotations

import argparse
import json
import random
import time

import chess.engine

from companion.games import find
from companion.games.chess import Chess, ChessState, Move
from companion.uci import FULL_STRENGTH, UciBrain


def play_board(name: str, weak_level: int, strong_level: int, weak_first: bool,
               max_plies: int, opening: int = 0) -> tuple[str, int]:
    """One checkers or draughts game: "weak", "strong", "draw" or "*", and its plies. The
    first two plies are random, seeded by ``opening`` (each opening is played with both
    colours), as checkers matches draw their openings: the search is deterministic, so
    without it every game of a colour would be the same."""
    from companion.draughts_brain import SearchBrain
    from companion.games.draughts.common import BoardState, parse_move

    cls = find(name)
    game = cls(list(cls.spec.default_players))
    state = game.new_state()
    assert isinstance(state, BoardState)
    weak, strong = SearchBrain(game, weak_level), SearchBrain(game, strong_level)
    rng = random.Random(opening)
    for _ in range(2):
        state.apply(rng.choice(state.legal_actions()))
    plies = 2
    while not state.is_terminal() and plies < max_plies:
        first_to_move = state.to_move() == 0
        brain = weak if first_to_move == weak_first else strong
        move = brain.choose(state, lambda: True)
        assert move is not None
        state.apply(parse_move(state, move))
        plies += 1
    if not state.is_terminal():
        return "*", plies
    winners = state.winners()
    if not winners:
        return "draw", plies
    return ("weak" if (winners == (0,)) == weak_first else "strong"), plies


def play_one(white: UciBrain, black: UciBrain, max_plies: int) -> tuple[str, int]:
    """One game; the result ("1-0", "0-1", "1/2-1/2", or "*" unfinished) and its plies."""
    state = Chess(["White", "Black"]).new_state()
    assert isinstance(state, ChessState)
    plies = 0
    while not state.is_terminal() and plies < max_plies:
        brain = white if state.player_to_move() == 0 else black
        move = brain.choose(state, lambda: True)
        assert move is not None
        state.apply(Move(move))
        plies += 1
    outcome = state.outcome()
    return (outcome[0] if outcome else "*"), plies


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion bench engine")
    parser.add_argument("--game", default="chess", choices=("chess", "checkers", "draughts"))
    parser.add_argument("--engine", default="stockfish")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--weak", type=int, help="the weak level (default 0; 1 in draughts)")
    parser.add_argument("--strong", type=int,
                        help="the strong level (default 20; 4 in draughts)")
    parser.add_argument("--strong-time", type=float, default=0.1)
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.game != "chess":
        return _board_main(args)
    args.weak = 0 if args.weak is None else args.weak
    args.strong = FULL_STRENGTH if args.strong is None else args.strong
    weak = UciBrain(args.engine, level=args.weak)
    strong = UciBrain(args.engine, level=args.strong,
                      limit=chess.engine.Limit(time=args.strong_time))
    score = {"weak_wins": 0, "draws": 0, "strong_wins": 0, "unfinished": 0}
    games = []
    started = time.perf_counter()
    try:
        for n in range(args.games):
            weak_white = n % 2 == 0
            white, black = (weak, strong) if weak_white else (strong, weak)
            result, plies = play_one(white, black, args.max_plies)
            if result == "*":
                score["unfinished"] += 1
            elif result == "1/2-1/2":
                score["draws"] += 1
            elif (result == "1-0") == weak_white:
                score["weak_wins"] += 1
            else:
                score["strong_wins"] += 1
            games.append({"weak": "white" if weak_white else "black", "result": result,
                          "plies": plies})
            if not args.json:
                print(f"game {n + 1}: level {args.weak} as {games[-1]['weak']}: {result}"
                      f" in {plies} plies")
    finally:
        weak.close()
        strong.close()
    seconds = time.perf_counter() - started
    if args.json:
        print(json.dumps({"bench": "engine", "engine": weak.name, "weak": args.weak,
                          "strong": args.strong, "strong_time": args.strong_time,
                          **score, "games": games, "seconds": round(seconds, 1)}))
    else:
        print(f"{weak.name}: level {args.weak} against level {args.strong}"
              f" ({args.strong_time} s a move), {args.games} games:"
              f" {score['weak_wins']} won, {score['draws']} drawn, {score['strong_wins']} lost,"
              f" {score['unfinished']} unfinished ({seconds:.0f} s)")
    return 0


def _board_main(args: argparse.Namespace) -> int:
    weak = 1 if args.weak is None else args.weak
    strong = 4 if args.strong is None else args.strong
    score = {"weak_wins": 0, "draws": 0, "strong_wins": 0, "unfinished": 0}
    key = {"weak": "weak_wins", "strong": "strong_wins", "draw": "draws", "*": "unfinished"}
    games = []
    started = time.perf_counter()
    for n in range(args.games):
        weak_first = n % 2 == 0
        result, plies = play_board(args.game, weak, strong, weak_first, args.max_plies,
                                   opening=n // 2)
        score[key[result]] += 1
        games.append({"weak": "first" if weak_first else "second", "result": result,
                      "plies": plies})
        if not args.json:
            print(f"game {n + 1}: level {weak} moving {games[-1]['weak']}: {result} wins"
                  f" in {plies} plies" if result in ("weak", "strong") else
                  f"game {n + 1}: {result} in {plies} plies")
    seconds = time.perf_counter() - started
    if args.json:
        print(json.dumps({"bench": "engine", "game": args.game, "weak": weak,
                          "strong": strong, **score, "games": games,
                          "seconds": round(seconds, 1)}))
    else:
        print(f"{args.game}: level {weak} against level {strong}, {args.games} games:"
              f" {score['weak_wins']} won, {score['draws']} drawn, {score['strong_wins']} lost,"
              f" {score['unfinished']} unfinished ({seconds:.0f} s)")
    return 0
