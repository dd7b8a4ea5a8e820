"""bench latency runs through a real pty with the flood limit in place (a benchmark, so no
time is asserted: only that every line is accounted for)."""

from __future__ import annotations

import json

from benchmarks import latency


def test_bench_latency_accounts_for_every_line(capsys) -> None:
    # Before: a garbage line whose refusal the flood limit held back ended the bench with an
    # AssertionError (it had no announcement to time).
    assert latency.main(["--lines", "300", "--seed", "3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["lines"] + result["held_back"] == 300
    assert result["held_back"] > 0  # the case that ended the bench before
    assert result["refused"] > 0 and result["accepted"] > 0
