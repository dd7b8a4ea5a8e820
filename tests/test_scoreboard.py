"""'status' and 'scores' give the scoreboard in every game: whose turn it is and every
player's score, cash or place (issue 17: status was one line with one player's figure)."""

from __future__ import annotations

import random

import pytest

from companion.games import load_all
from companion.journal import Journal
from companion.session import Session, build_game
from companion.voice import Recorder

GAMES = [cls for cls in load_all().all() if cls.__module__.startswith("companion.")]  # not toy
# Games whose own 'scores' means something else, as documented: the Dice game's is what
# every open box would score with the dice on the table (docs/games/dice.md).
OWN_SCORES = {"dice"}


def played(cls, steps, seed=7):
    """A session of ``cls`` after up to ``steps`` random legal inputs (chance drawn too)."""
    game, files = build_game(cls, list(cls.spec.default_players), {})
    recorder = Recorder()
    session = Session.start(game, Journal.memory(), recorder, config=files, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        state = session.state
        if state.is_terminal():
            break
        if state.current_player() < 0:
            session.apply(state.sample_chance(rng), source="test")
            continue
        actions = state.legal_actions()
        if not actions:
            break
        session.apply(rng.choice(actions), source="test")
    return session, recorder


@pytest.mark.parametrize("cls", GAMES, ids=[c.spec.name for c in GAMES])
@pytest.mark.parametrize("steps", [0, 40, 400])
def test_status_and_scores_name_every_player(cls, steps):
    session, recorder = played(cls, steps)
    for line in ("status", "scores"):
        reply = session.command(line)
        assert reply.accepted, (line, reply.text)
        text = reply.text
        assert text.endswith((".", "!", "?")), (line, text)
        if len(session.game.players) > 1 and not (line == "scores"
                                                  and cls.spec.name in OWN_SCORES):
            missing = [p for p in session.game.players if p not in text]
            assert not missing, f"{cls.spec.name} {line}: {text!r} leaves out {missing}"


def test_monopoly_status_is_the_standings_by_net_worth():
    session, recorder = played(load_all().find("monopoly"), 0)
    session.command("roll 1 2")
    session.command("buy")
    assert session.command("status").text == (
        "Hat to throw the dice. Standings by net worth: 1. Car, worth 1,500 (1,440 cash, on"
        " Baltic Avenue); 2. Hat, worth 1,500 (1,500 cash, on GO).")
    assert session.command("scores").text == session.command("standings").text


def test_dice_game_status_gives_every_players_total():
    session, recorder = played(load_all().find("dice"), 0)
    assert session.command("status").text == (
        "Round 1. Red to throw five dice. Totals: Red 0, Blue 0.")
