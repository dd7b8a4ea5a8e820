"""``companion simulate GAME`` for the line games: random legal play with every tile read in
(tiles=read), and what the rounds came to."""

from __future__ import annotations

import argparse
import json
import random
import time

from companion.engine import CHANCE
from companion.games import find
from companion.games.dominoes.events import Blocked, RoundResult, WentOut
from companion.games.dominoes.state import DominoState


def simulate(name: str, argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog=f"companion simulate {name}")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    options.setdefault("tiles", "read")
    cls = find(name)
    names = [f"P{i + 1}" for i in range(args.players)]
    rng = random.Random(args.seed)
    rounds = blocked = out = scored = points = actions = 0
    start = time.process_time()
    for _ in range(args.games):
        state = cls(names, options).new_state()
        assert isinstance(state, DominoState)
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                action = state.sample_chance(rng)
            else:
                action = rng.choice(state.legal_actions())
            for event in state.apply(action):
                if isinstance(event, Blocked):
                    blocked += 1
                elif isinstance(event, WentOut):
                    out += 1
                elif isinstance(event, RoundResult):
                    rounds += 1
                    if event.winner >= 0:
                        scored += 1
                        points += event.points
            actions += 1
    seconds = time.process_time() - start
    result = {
        "game": cls.spec.name, "games": args.games, "players": args.players,
        "options": options, "rounds": rounds, "rounds_per_game": rounds / args.games,
        "went_out": out, "blocked": blocked,
        "mean_points_per_scoring_round": points / scored if scored else 0.0,
        "actions": actions, "cpu_seconds": round(seconds, 3),
        "games_per_cpu_second": round(args.games / seconds, 1) if seconds else None,
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{cls.spec.title}, {args.players} players, {args.games} random games"
              f" (seed {args.seed}, {options}):")
        print(f"  rounds: {rounds} ({rounds / args.games:.1f} a game); went out {out},"
              f" blocked {blocked}")
        print(f"  mean points of a scoring round: {result['mean_points_per_scoring_round']:.1f}")
        print(f"  {actions} actions in {seconds:.2f} CPU s"
              f" ({result['games_per_cpu_second']} games per CPU second)")
    return 0


def simulate_dominoes(argv: list[str]) -> int:
    return simulate("dominoes", argv)


def simulate_double_six(argv: list[str]) -> int:
    return simulate("double-six", argv)


def simulate_block(argv: list[str]) -> int:
    return simulate("block-dominoes", argv)


def simulate_bergen(argv: list[str]) -> int:
    return simulate("bergen", argv)
