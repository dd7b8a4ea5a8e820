"""History is what was said: the journal retold through a Session equals the live game's
sentences, entry by entry, in every game (undo, corrections, refusals, virtual decks); the
command shows turns and who acted, never an action's repr."""

from __future__ import annotations

import contextlib
import io
import json
import random

import pytest

from companion.cli import main
from companion.engine import CHANCE, IllegalAction, Throw
from companion.games import load_all
from companion.history import told_rows
from companion.journal import Journal
from companion.session import Session
from companion.voice import Recorder

GAMES = load_all().all()


def _choose(state, rng):
    if state.current_player() == CHANCE:
        return state.sample_chance(rng)
    return rng.choice(state.legal_actions())


@pytest.mark.parametrize("cls", GAMES, ids=lambda c: c.spec.name)
def test_history_retold_equals_what_was_said_live(cls):
    rng = random.Random(f"history:{cls.spec.name}")
    for auto in (frozenset(), frozenset({"card", "shuffle"}), frozenset({"dice", "card"})):
        players = [f"P{i}" for i in range(max(cls.spec.min_players, min(3, cls.spec.max_players)))]
        recorder = Recorder()
        session = Session.start(cls(players), Journal.memory(), recorder,
                                seed=rng.randrange(10**6), auto_chance=auto)
        for _ in range(120):
            if session.state.is_terminal():
                break
            request = session.state.chance()
            if request is not None and request.kind == "dice" and "dice" in auto:
                assert session.command("roll").accepted  # virtual dice, thrown when asked
                action = session.applied[-1]
            else:
                action = _choose(session.state, rng)
                assert session.apply(action, source="test").accepted
            roll = rng.random()
            if roll < 0.1:
                session.undo()
            elif roll < 0.15 and isinstance(action, Throw):
                with contextlib.suppress(IllegalAction):
                    session.correct(Throw(tuple(rng.randint(1, 6) for _ in action.values)))
            elif roll < 0.2:
                assert not session.command("xyzzy 7").accepted  # a refusal, journaled
        rows = list(told_rows(session.journal))
        assert [row["seq"] for row in rows] == list(range(session.journal.count() + 1))
        retold = [text for row in rows for text in row["said"]]
        assert retold == recorder.texts


def play(capsys, monkeypatch, lines: str, *args: str) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    assert main(["play", *args, "--voice", "console"]) == 0
    return capsys.readouterr().out


def test_a_monopoly_dispute_is_settled_from_the_history(capsys, monkeypatch):
    live = play(capsys, monkeypatch, "roll 1 2\nbuy\nroll 1 2\nCar claim\n",
                "monopoly", "--players", "Car,Hat", "--name", "club")
    assert main(["history", "club"]) == 0
    out = capsys.readouterr().out
    assert "Turn 1, Car:" in out and "Turn 2, Hat:" in out
    assert "Car buys Baltic Avenue for 60." in out
    claim = next(line for line in out.splitlines() if line.startswith("    4 "))
    assert "Hat pays Car 4" in claim  # did Hat pay the rent? yes, at entry 4
    assert "(player=" not in out and "Buy(" not in out
    assert main(["history", "club", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    opening = ["Monopoly: Car, Hat.", "Car to throw the dice."]  # said before any entry
    assert [said for row in rows for said in row["said"]] == live.splitlines()[2:]
    assert live.splitlines()[:2] == opening and f"0           {' '.join(opening)}" in out
    buy = next(row for row in rows if row["payload"].get("type") == "Buy")
    assert buy["player"] == "Car" and buy["turn"] == 1 and buy["kind"] == "action"
    assert any("buys Baltic Avenue" in text for text in buy["said"])
    assert [row["seq"] for row in rows] == [1, 2, 3, 4]  # one row per journal entry
    assert main(["history", "club", "--raw"]) == 0
    assert "Buy(player=0)" in capsys.readouterr().out  # the entries as stored


def test_history_at_the_table_shows_the_last_turns(capsys, monkeypatch):
    out = play(capsys, monkeypatch, "roll 3\nroll 4\nroll 5\nhistory 1\nhistory all\n"
               "history soon\n", "snakes", "--players", "Red,Blue")
    assert "Turn 3, Red:\n    3" in out and out.count("Turn 1, Red:") == 1
    assert "Say history, history 3 for the last three turns, or history all" in out


def test_an_auction_stays_in_the_turn_of_the_player_who_threw():
    session = Session.start(load_all().find("monopoly")(["Car", "Hat"]), Journal.memory(),
                            Recorder())
    for line in ("roll 1 2", "auction", "Hat bid 10", "Car pass", "roll 3 4"):
        assert session.command(line).accepted, line
    rows = [row for row in told_rows(session.journal) if row["seq"]]
    assert [(row["turn"], row["player"]) for row in rows] == [
        (1, "Car"), (1, "Car"), (1, "Hat"), (1, "Car"), (2, "Hat")]
    assert any("Hat wins Baltic Avenue at auction for 10" in text for text in rows[3]["said"])
