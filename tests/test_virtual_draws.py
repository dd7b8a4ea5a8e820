"""Virtual dice and cards come from the operating system's randomness at each draw, are
journaled as outcomes (resume, replay and undo stay exact) and nothing stored predicts them."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

from companion.engine import CHANCE
from companion.journal import Journal
from companion.session import Session
from companion.voice import Recorder
from tests.toy_game import ToyGame

ROOT = Path(__file__).resolve().parent.parent
DICE = frozenset({"dice"})


def start(path: Path, seed: int | None = None) -> Session:
    game = ToyGame(["Red", "Blue"], {"target": 10**9})  # never over: throw after throw
    return Session.start(game, Journal(path), Recorder(), seed=seed, auto_chance=DICE)


def throw(session: Session) -> int:
    session.command("go")
    assert session.state.current_player() == CHANCE
    session.command("roll")
    return int(session.applied[-1].values[0])


def test_nothing_stored_predicts_the_next_virtual_throw(tmp_path):
    session = start(tmp_path / "g.sqlite")
    meta = session.journal.meta()
    assert meta["seed"] is None and meta["predictable"] is False
    hits = 0
    for _ in range(40):
        # What a player with the laptop could compute from the file before the throw: the
        # stored seed and the journal position (what predicted every throw before).
        stored = session.journal.meta().get("seed")
        guess = random.Random(f"{stored}:{session.journal.count() + 1}").choice(range(1, 7))
        hits += throw(session) == guess
    assert hits < 40  # before: 40 of 40; now about one in six, by chance
    session.journal.close()


def test_two_games_started_alike_throw_differently(tmp_path):
    one, two = start(tmp_path / "a.sqlite"), start(tmp_path / "b.sqlite")
    assert [throw(one) for _ in range(30)] != [throw(two) for _ in range(30)]


def test_resume_replay_and_undo_use_the_journaled_outcomes(tmp_path):
    session = start(tmp_path / "g.sqlite")
    for _ in range(10):
        throw(session)
    session.journal.close()
    live = session.state.to_json()
    resumed = Session.resume(Journal(tmp_path / "g.sqlite"), Recorder())
    assert resumed.state.to_json() == live
    resumed.command("go")
    before = resumed.state.to_json()
    resumed.command("roll")
    resumed.command("undo")
    assert resumed.state.to_json() == before
    resumed.command("undo")
    assert resumed.state.to_json() == live


def test_a_seed_makes_the_draws_predictable_and_says_so(tmp_path):
    one, two = start(tmp_path / "a.sqlite", seed=5), start(tmp_path / "b.sqlite", seed=5)
    assert one.journal.meta()["predictable"] is True
    assert [throw(one) for _ in range(20)] == [throw(two) for _ in range(20)]
    run = subprocess.run(
        [sys.executable, "-m", "companion.cli", "play", "snakes", "--dice", "virtual",
         "--seed", "5", "--voice", "silent", "--journal", str(tmp_path / "c.sqlite")],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, input="quit\n",
        capture_output=True, text=True, timeout=60, check=True)
    assert "predictable" in run.stderr
