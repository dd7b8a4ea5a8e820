"""``companion bench dice``: time to solve the Dice game's optimal strategy, and its value.

Solves the table from scratch (the cache is neither read nor written) for each reading of
three/four of a kind, and prints the optimal solitaire expected score. ``--json`` prints one
JSON object; ``--kinds`` limits it to one reading.
"""

from __future__ import annotations

import argparse
import json

from companion.games.dice.boxes import KINDS_READINGS
from companion.games.dice.optimal import timed_solve


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion bench dice")
    parser.add_argument("--kinds", choices=KINDS_READINGS, action="append")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results = []
    for kinds in args.kinds or list(KINDS_READINGS):
        seconds, cpu, value = timed_solve(kinds)
        results.append({"kinds": kinds, "seconds": round(seconds, 3),
                        "cpu_seconds": round(cpu, 3), "expected_score": round(value, 4)})
        if not args.json:
            print(f"dice optimal strategy, kinds={kinds}: solved in {seconds:.2f} s"
                  f" ({cpu:.2f} s CPU), expected score {value:.4f}")
    if args.json:
        print(json.dumps({"bench": "dice", "results": results}))
    return 0
