"""One generic random-simulation test over every registered game (OpenSpiel style).

For each game: random legal play to the end, checking that illegal actions are refused with
the state unchanged, that actions survive the journal's JSON codec, that replay reproduces
the state, that the game ends within its declared maximum length, and, through a real
Session, that undo restores the previous state and resume equals live.
"""

from __future__ import annotations

import contextlib
import json
import random
from dataclasses import dataclass

import pytest

from companion.engine import (
    CHANCE,
    Action,
    IllegalAction,
    Throw,
    as_player,
    decode_action,
    encode_action,
)
from companion.games import LOAD_ERRORS, load_all
from companion.journal import Journal
from companion.session import Session
from companion.voice import Recorder
from tests import toy_game  # noqa: F401  (registers the toy game)

GAMES = [cls for cls in load_all().all()]
# Each game is played until both budgets are spent: at least MIN_GAMES whole games, and about
# STEP_BUDGET actions in all (long games like Hearts and Monopoly get fewer, short ones more).
MIN_GAMES = 4
MAX_GAMES = 40
STEP_BUDGET = 12_000
SESSION_GAMES = 3
UNBOUNDED_STEPS = 3000  # for games whose random play need not end (Game.bounded False)


@dataclass(frozen=True)
class Bogus(Action):
    """An action no game knows."""

    x: int = 0


def test_every_game_module_loads():
    assert LOAD_ERRORS == {}


def test_registry_finds_games_by_name_and_alias():
    registry = load_all()
    for cls in GAMES:
        assert registry.find(cls.spec.name) is cls
        for alias in cls.spec.aliases:
            assert registry.find(alias) is cls
    with pytest.raises(KeyError):
        registry.find("no-such-game")


def players_for(cls, rng):
    n = rng.randint(cls.spec.min_players, cls.spec.max_players)
    return [f"P{i}" for i in range(n)]


def snapshot(state):
    return json.dumps(state.to_json(), sort_keys=True, default=str)


def choose(state, rng) -> Action:
    if state.current_player() == CHANCE:
        return state.sample_chance(rng)
    actions = state.legal_actions()
    assert actions, f"no legal action at a decision point: {state.expected()}"
    return rng.choice(actions)


def check_refusals(state, rng):
    before = snapshot(state)
    bad_actions = [Bogus(rng.randint(0, 9)), Throw((0,)), Throw(tuple([7] * 9))]
    if state.current_player() >= 0:
        # A legal move given by a player who may not act now must be refused.
        legal = rng.choice(state.legal_actions())
        others = [p for p in range(len(state.game.players)) if not state.may_act(p)]
        if others:
            wrong = as_player(legal, rng.choice(others))
            if wrong != legal:
                bad_actions.append(wrong)
    for bad in bad_actions:
        with pytest.raises(IllegalAction):
            state.apply(bad)
        assert snapshot(state) == before, f"{bad} was refused but changed the state"


@pytest.mark.parametrize("cls", GAMES, ids=lambda c: c.spec.name)
def test_random_games_keep_the_engine_contract(cls):
    rng = random.Random(f"contract:{cls.spec.name}")
    steps = games = 0
    while games < MIN_GAMES or (steps < STEP_BUDGET and games < MAX_GAMES):
        games += 1
        game = cls(players_for(cls, rng))
        state = game.new_state()
        played: list[Action] = []
        limit = game.max_length()
        while not state.is_terminal():
            if not cls.bounded and len(played) >= UNBOUNDED_STEPS:
                break
            assert len(played) < limit, f"{cls.spec.name} exceeded its maximum length {limit}"
            if rng.random() < 0.1:
                check_refusals(state, rng)
            action = choose(state, rng)
            decoded = decode_action(encode_action(action), cls.action_types)
            assert decoded == action, "journal codec round trip"
            before = snapshot(state)
            copy = state.clone()
            state.apply(action)
            assert snapshot(copy) == before, "clone() must be independent"
            played.append(action)
        steps += len(played)
        replayed = game.new_state()
        for action in played:
            replayed.apply(action)
        assert snapshot(replayed) == snapshot(state), "replay must equal live"
        for w in state.winners():
            assert 0 <= w < len(game.players)


@pytest.mark.parametrize("cls", GAMES, ids=lambda c: c.spec.name)
def test_session_undo_correct_and_resume(cls):
    """Through a real Session, with virtual decks half the time: undo restores the previous
    state, corrections of a throw keep the journal consistent, and resume equals live."""
    rng = random.Random(f"session:{cls.spec.name}")
    for n in range(SESSION_GAMES):
        game = cls(players_for(cls, rng))
        auto = frozenset({"card", "shuffle"}) if n % 2 else frozenset()
        session = Session.start(game, Journal.memory(), Recorder(), seed=rng.randrange(10**6),
                                auto_chance=auto)
        steps = 0
        while not session.state.is_terminal() and steps < min(game.max_length(), 400):
            before = snapshot(session.state)
            action = choose(session.state, rng)
            reply = session.apply(action, source="test")
            assert reply.accepted
            roll = rng.random()
            if roll < 0.15:
                session.undo()
                assert snapshot(session.state) == before, "undo must restore the previous state"
            elif roll < 0.2 and isinstance(action, Throw) and not session.state.is_terminal():
                other = Throw(tuple(rng.randint(1, 6) for _ in action.values))
                with contextlib.suppress(IllegalAction):
                    session.correct(other)
            steps += 1
        resumed = Session.resume(session.journal, Recorder())
        assert snapshot(resumed.state) == snapshot(session.state), "resume must equal live"
