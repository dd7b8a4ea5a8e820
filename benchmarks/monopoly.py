"""``companion bench monopoly``: throws per second of ``simulate`` (the table's own engine).

Target: at least 50,000 throws per second on one core. Reports wall-clock and CPU-time rates
(the CPU figure is the one-core figure when the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import time

from companion.games.monopoly.simulate import simulate

TARGET = 50_000


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion bench monopoly")
    parser.add_argument("--rolls", type=int, default=500_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jail", choices=("leave", "stay"), default="leave")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    cpu = time.process_time()
    result = simulate(args.rolls, args.seed, args.jail)
    cpu = time.process_time() - cpu
    figures = {
        "bench": "monopoly",
        "rolls": result["rolls"],
        "games": result["games"],
        "seconds": result["seconds"],
        "throws_per_second": result["throws_per_second"],
        "cpu_seconds": round(cpu, 3),
        "cpu_throws_per_second": round(result["rolls"] / cpu) if cpu else None,
        "target": TARGET,
    }
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"monopoly simulate: {figures['rolls']} throws in {figures['seconds']} s wall,"
              f" {figures['cpu_seconds']} s CPU")
        print(f"  {figures['throws_per_second']:,} throws/s wall,"
              f" {figures['cpu_throws_per_second']:,} throws/s CPU (target {TARGET:,})")
    return 0
