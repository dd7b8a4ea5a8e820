"""``companion bench perft``: perft nodes per second for checkers and international draughts.

Counts the leaf nodes from the start positions (English checkers to depth 8 by default,
international draughts to depth 7) and checks them against the published numbers (Aart Bik)
before reporting the speed, so a fast wrong generator cannot pass as a fast one. Wall time and
CPU time are both given: the machine may be shared. ``--json`` prints one JSON object;
``--quick`` uses depths 6 and 5; ``--depth-checkers N`` / ``--depth-draughts N`` choose others
(up to 10 and 9, the published ones).
"""

from __future__ import annotations

import argparse
import json
import time

from companion.games.draughts.core import CHECKERS_BOARD, DRAUGHTS_BOARD, parse_fen, perft

PUBLISHED = {
    # Aart Bik, talkchess.com 2009 (every capture path counted)
    "checkers": (7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564),
    # Aart Bik, "BikDam" (duplicate captures removed)
    "draughts": (9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423),
}
START = {"checkers": ("B:W21-32:B1-12", CHECKERS_BOARD), "draughts": ("W:W31-50:B1-20",
                                                                      DRAUGHTS_BOARD)}


def measure(game: str, depth: int) -> dict[str, object]:
    fen, geometry = START[game]
    pos = parse_fen(fen, geometry)
    wall, cpu = time.perf_counter(), time.process_time()
    nodes = perft(pos, depth, game)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    expected = PUBLISHED[game][depth - 1]
    return {
        "game": game, "depth": depth, "nodes": nodes, "expected": expected,
        "correct": nodes == expected, "seconds": round(wall, 3), "cpu_seconds": round(cpu, 3),
        "nodes_per_second": round(nodes / wall) if wall else None,
        "nodes_per_cpu_second": round(nodes / cpu) if cpu else None,
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion bench perft")
    parser.add_argument("--depth-checkers", type=int, default=8, choices=range(1, 11),
                        metavar="1-10")
    parser.add_argument("--depth-draughts", type=int, default=7, choices=range(1, 10),
                        metavar="1-9")
    parser.add_argument("--quick", action="store_true", help="depths 6 and 5")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    depths = {"checkers": 6, "draughts": 5} if args.quick else {
        "checkers": args.depth_checkers, "draughts": args.depth_draughts}
    results = [measure(game, depth) for game, depth in depths.items()]
    if args.json:
        print(json.dumps({"bench": "perft", "results": results}))
    else:
        for r in results:
            verdict = "matches the published count" if r["correct"] else \
                f"WRONG: published {r['expected']}"
            print(f"perft {r['game']} depth {r['depth']}: {r['nodes']} nodes ({verdict}) in"
                  f" {r['seconds']:.2f} s ({r['cpu_seconds']:.2f} s CPU):"
                  f" {r['nodes_per_second']:,} nodes/s, {r['nodes_per_cpu_second']:,} per CPU s")
    return 0 if all(r["correct"] for r in results) else 1
