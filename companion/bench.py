"""``companion bench NAME``: benchmarks (never timed tests). Each prints figures and JSON."""

from __future__ import annotations

import importlib

BENCHES: dict[str, str] = {
    "latency": "benchmarks.latency:main",
    "vision": "benchmarks.vision:main",
    "camera": "benchmarks.camera:main",
    "dice-setups": "benchmarks.dice_setups:main",
    "cribbage": "benchmarks.cribbage_stats:main",
    "perft": "benchmarks.perft:main",
    "monopoly": "benchmarks.monopoly:main",
    "dice": "benchmarks.dice_game:main",
    "club": "benchmarks.club:main",
    "engine": "benchmarks.engine:main",
    "view": "benchmarks.view:main",
    "startup": "benchmarks.startup:main",
    "fingerprint": "benchmarks.fingerprint:main",
}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in BENCHES:
        what = f"There is no benchmark called \"{argv[0]}\"" if argv else "Say which benchmark"
        raise ValueError(f"{what}; the benchmarks are {', '.join(BENCHES)}.")
    module_name, _, func = BENCHES[argv[0]].partition(":")
    result: int = getattr(importlib.import_module(module_name), func)(argv[1:])
    return result
