"""``companion bench startup``: the CPU a short command costs, the whole process measured.

Each command runs ``--runs`` times as its own process (the ``companion`` script beside this
Python, as a player runs it); its user + system CPU time comes from the operating system
(``os.wait4``), so the interpreter's start, every import and the work itself count. The target
(issue 21): ``companion games`` and ``companion count cribbage ...`` under 150 ms of CPU. The
bare interpreter (``python -c pass``) is measured too, as the floor. Figures on a loaded
machine are not the real ones: the load average is printed beside them.

The processes run as after an install: with the modules' compiled bytecode cached (pip
compiles on install; the warm-up run writes it here, even where PYTHONDONTWRITEBYTECODE is
set, as in the project's sessions, which would otherwise compile every module every time).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

COMMANDS = {
    "games": ["games"],
    "count": ["count", "cribbage", "5H", "5D", "5S", "JC", "--starter", "5C"],
    "help": ["--help"],
}
TARGET_MS = 150


def _command(args: list[str]) -> list[str]:
    script = Path(sys.executable).with_name("companion")
    if script.is_file():
        return [str(script), *args]
    return [sys.executable, "-m", "companion.cli", *args]


def measure(argv: list[str]) -> tuple[float, float]:
    """One run of ``argv``: (CPU ms, wall ms). A command that fails is an error."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    start = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               env=env)
    _, status, usage = os.wait4(process.pid, 0)
    wall = (time.perf_counter() - start) * 1000
    process.returncode = os.waitstatus_to_exitcode(status)
    errors = process.stderr.read().decode(errors="replace") if process.stderr else ""
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({process.returncode}): {errors.strip()}")
    return (usage.ru_utime + usage.ru_stime) * 1000, wall


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion bench startup")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    runs = max(1, args.runs)
    load_before = os.getloadavg()[0]
    figures: dict[str, dict[str, float]] = {}
    for name, command in {"python": None, **COMMANDS}.items():
        full = [sys.executable, "-c", "pass"] if command is None else _command(command)
        measure(full)  # a first run fills the caches (compiled modules, the disk)
        cpu, wall = zip(*(measure(full) for _ in range(runs)), strict=True)
        figures[name] = {"cpu_ms_min": round(min(cpu), 1),
                         "cpu_ms_median": round(statistics.median(cpu), 1),
                         "wall_ms_median": round(statistics.median(wall), 1)}
    result = {"bench": "startup", "runs": runs, "target_ms": TARGET_MS,
              "load": [round(load_before, 2), round(os.getloadavg()[0], 2)],
              "commands": figures}
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"CPU per process, {runs} runs each (load average {load_before:.2f} before, "
          f"{os.getloadavg()[0]:.2f} after):")
    for name, row in figures.items():
        shown = "python -c pass" if name == "python" else "companion " + " ".join(COMMANDS[name])
        verdict = "" if name not in {"games", "count"} else (
            "  (under target)" if row["cpu_ms_median"] < TARGET_MS else "  (over target)")
        print(f"  {shown:<48} median {row['cpu_ms_median']:6.1f} ms, min "
              f"{row['cpu_ms_min']:6.1f} ms, wall {row['wall_ms_median']:6.1f} ms{verdict}")
    return 0
