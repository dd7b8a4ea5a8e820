"""The Dice game (rulebook 002): scoring, the turn, crossing out, random games, the solver."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

from companion.engine import CHANCE, TERMINAL, GameOver, IllegalAction, Throw
from companion.games import find
from companion.games.dice import optimal as opt
from companion.games.dice.boxes import BOXES, all_scores, parse_box, parse_dice, score
from companion.games.dice.dice_game import (
    BonusEarned,
    Cross,
    DiceGame,
    DiceState,
    Fill,
    Keep,
    count_main,
)
from companion.observations import DiceSeen


def make(players: int = 2, **options: Any) -> DiceState:
    game = find("dice")(["Red", "Blue", "Green"][:players], options)
    assert isinstance(game, DiceGame)
    return game.new_state()


def refused_unchanged(state: DiceState, action: Any) -> str:
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    assert state.to_json() == before
    return err.value.reason


# --------------------------------------------------------------------------- scoring


def test_rulebook_examples_score() -> None:
    # "after the third throw, you have 1-2-5-5-5, you can fill in 15 points under 5"
    assert score("fives", (1, 2, 5, 5, 5)) == 15
    s = all_scores((2, 3, 3, 3, 4))
    assert s["three_of_a_kind"] == 15 and s["chance"] == 15 and s["threes"] == 9
    assert s["small_straight"] == 0 and s["full_house"] == 0 and s["five_of_a_kind"] == 0


def test_fixed_values_and_straights() -> None:
    assert score("full_house", (2, 2, 5, 5, 5)) == 25
    assert score("small_straight", (1, 2, 3, 4, 6)) == 30
    assert score("small_straight", (3, 4, 5, 6, 6)) == 30
    assert score("small_straight", (2, 3, 4, 5, 6)) == 30  # a large straight holds a small one
    assert score("large_straight", (1, 2, 3, 4, 5)) == 40
    assert score("large_straight", (1, 2, 3, 4, 6)) == 0
    assert score("five_of_a_kind", (4, 4, 4, 4, 4)) == 50
    assert score("full_house", (4, 4, 4, 4, 4)) == 0  # no joker in this rulebook


def test_kinds_readings() -> None:
    four = (3, 3, 3, 3, 5)
    assert score("four_of_a_kind", four) == 17
    assert score("three_of_a_kind", four) == 0  # "three ... + two different ones"
    assert score("three_of_a_kind", four, "at-least") == 17
    assert score("three_of_a_kind", (6, 6, 6, 6, 6)) == 0
    assert score("four_of_a_kind", (6, 6, 6, 6, 6), "at-least") == 30
    assert score("three_of_a_kind", (2, 2, 5, 5, 5)) == 19  # the other two differ from the three


def test_parsers() -> None:
    assert parse_box("Full House") == parse_box("fh") == "full_house"
    assert parse_box("6") == "sixes" and parse_box("3k") == "three_of_a_kind"
    assert parse_dice(["23334"]) == parse_dice(["2", "3", "3", "3", "4"]) == (2, 3, 3, 3, 4)
    with pytest.raises(ValueError):
        parse_dice(["7"])


def test_count_tool(capsys: pytest.CaptureFixture[str]) -> None:
    assert count_main(["2", "3", "3", "3", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scores"]["three_of_a_kind"] == 15 and len(out["scores"]) == 13
    assert count_main(["2", "3", "3"]) == 2


# --------------------------------------------------------------------------- the turn


def test_turn_keep_and_throw_the_rest() -> None:
    state = make()
    assert state.current_player() == CHANCE and state.chance().count == 5
    state.apply(Throw((2, 3, 3, 3, 4)))
    text = state.choices_text().lower()
    assert "three of a kind for 15" in text and "chance for 15" in text
    state.apply(Keep(0, (3, 3, 3)))
    request = state.chance()
    assert request is not None and request.count == 2 and request.who == 0
    refused_unchanged(state, Throw((1, 2, 3)))
    state.apply(Throw((3, 6)))
    assert state.dice == (3, 3, 3, 3, 6)
    state.apply(Keep(0, (3, 3, 3, 3)))
    state.apply(Throw((1,)))
    assert state.throws == 3
    assert "third throw" in refused_unchanged(state, Keep(0, (3, 3, 3)))
    state.apply(Fill(0, "four_of_a_kind"))
    assert state.filled[0] == {"four_of_a_kind": 13}
    assert state.turn == 1 and state.current_player() == CHANCE


def test_refusals_change_nothing() -> None:
    state = make()
    refused_unchanged(state, Fill(0, "chance"))  # no throw yet
    state.apply(Throw((1, 2, 5, 5, 5)))
    refused_unchanged(state, Fill(1, "chance"))  # not Blue's turn
    assert "cannot keep" in refused_unchanged(state, Keep(0, (6,)))
    refused_unchanged(state, Keep(0, (1, 2, 5, 5, 5)))
    assert "nothing" in refused_unchanged(state, Fill(0, "sixes"))
    refused_unchanged(state, Throw((1, 1, 1, 1, 1)))
    refused_unchanged(state, Fill(0, "no_such_box"))


def test_a_turn_that_must_cross_out_a_box() -> None:
    # The rulebook's example: 2-3-3-3-4 with 2, 3, 4, three of a kind and chance filled.
    state = make(players=1)
    state.filled[0] = {"twos": 4, "threes": 9, "fours": 8, "three_of_a_kind": 20, "chance": 22}
    state.apply(Throw((2, 3, 3, 3, 4)))
    for _ in range(2):
        assert any(isinstance(a, Keep) for a in state.legal_actions())
        state.apply(Keep(0, (2, 3, 3, 3)))
        state.apply(Throw((4,)))
    assert state.dice == (2, 3, 3, 3, 4)
    actions = state.legal_actions()
    assert actions and all(isinstance(a, Cross) for a in actions)
    assert {a.box for a in actions} == set(BOXES) - set(state.filled[0])
    for box in ("ones", "five_of_a_kind", "threes", "small_straight"):
        refused_unchanged(state, Fill(0, box))
    assert "Nothing scores" in state.choices_text()
    state.apply(Cross(0, "five_of_a_kind"))
    assert "five_of_a_kind" in state.to_json()["forms"][0]["crossed"]
    # A crossed-out box stays crossed, even with five of a kind later.
    state.apply(Throw((6, 6, 6, 6, 6)))
    assert "crossed out" in refused_unchanged(state, Fill(0, "five_of_a_kind"))
    assert "crossed out" in refused_unchanged(state, Cross(0, "five_of_a_kind"))


def test_may_always_cross_out_even_when_something_scores() -> None:
    state = make()
    state.apply(Throw((6, 6, 6, 6, 6)))
    state.apply(Cross(0, "ones"))
    assert state.crossed[0] == {"ones"}


def test_upper_bonus_at_63() -> None:
    state = make(players=1)
    state.filled[0] = {"fours": 12, "fives": 15, "sixes": 18}  # 45
    state.apply(Throw((3, 3, 3, 3, 3)))
    events = state.apply(Fill(0, "threes"))  # 15 -> 60: no bonus yet
    assert not any(isinstance(e, BonusEarned) for e in events)
    state.apply(Throw((2, 2, 1, 1, 1)))
    events = state.apply(Fill(0, "ones"))  # 63
    assert any(isinstance(e, BonusEarned) for e in events)
    assert state.to_json()["forms"][0]["bonus"] == 35
    assert state.total(0) == 63 + 35


def test_camera_reading_of_all_five_dice_after_a_keep() -> None:
    state = make()
    state.apply(Throw((2, 3, 3, 3, 4)))
    state.apply(Keep(0, (3, 3, 3)))
    action = state.game.interpret(state, DiceSeen(source="camera:0", values=(3, 1, 3, 6, 3)))
    assert action == Throw((1, 6))
    action = state.game.interpret(state, DiceSeen(source="serial:x", values=(2, 5)))
    assert action == Throw((2, 5))
    with pytest.raises(IllegalAction):
        state.game.interpret(state, DiceSeen(source="camera:0", values=(1, 1, 1, 6, 6)))


def test_parse_action_words() -> None:
    state = make()
    game = state.game
    state.apply(Throw((2, 3, 3, 3, 4)))
    assert game.parse_action(state, "keep 3 3 3") == Keep(0, (3, 3, 3))
    assert game.parse_action(state, "keep none") == Keep(0, ())
    assert game.parse_action(state, "full house") == Fill(0, "full_house")
    assert game.parse_action(state, "cross out five of a kind") == Cross(0, "five_of_a_kind")
    with pytest.raises(IllegalAction):
        game.parse_action(state, "fill elevens")
    assert "three of a kind 15" in (game.query(state, "scores") or "")


# --------------------------------------------------------------------------- random games


def play_random(state: DiceState, rng: random.Random) -> list[Any]:
    actions = []
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions()
            assert legal
            action = rng.choice(legal)
        actions.append(action)
        state.apply(action)
        assert len(actions) <= state.game.max_length()
    return actions


@pytest.mark.slow
def test_random_games_invariants() -> None:
    rng = random.Random(2026)
    for game_no in range(1000):
        players = 1 + game_no % 3
        state = make(players=players, kinds=("exactly", "at-least")[game_no % 2])
        start = state.clone()
        actions = play_random(state, rng)
        final = state.to_json()
        json.dumps(final)
        assert state.current_player() == TERMINAL and state.legal_actions() == []
        for p, form in enumerate(final["forms"]):
            assert len(form["filled"]) + len(form["crossed"]) == 13
            assert all(v > 0 for v in form["filled"].values())
            upper = sum(v for k, v in form["filled"].items() if BOXES.index(k) < 6)
            assert form["bonus"] == (35 if upper >= 63 else 0)
            assert form["total"] == sum(form["filled"].values()) + form["bonus"]
            assert state.scores()[p] == form["total"]
        best = max(f["total"] for f in final["forms"])
        assert final["winners"] == [p for p, f in enumerate(final["forms"]) if f["total"] == best]
        # Replay equals live, and the start clone was untouched.
        assert start.to_json() == make(players, kinds=state.kinds).to_json()
        for action in actions:
            start.apply(action)
        assert start.to_json() == final


def test_random_illegal_actions_change_nothing() -> None:
    rng = random.Random(5)
    state = make(players=2)
    junk = [Throw((1,)), Keep(1, (1,)), Fill(0, "chance"), Cross(0, "ones"), Keep(0, (6, 6))]
    for _ in range(400):
        if state.is_terminal():
            state = make(players=2)
        for action in junk:
            before = state.to_json()
            try:
                state.clone().apply(action)
            except IllegalAction:
                with pytest.raises(IllegalAction):
                    state.apply(action)
                assert state.to_json() == before
        legal = state.legal_actions()
        state.apply(rng.choice(legal) if legal else state.sample_chance(rng))


def test_game_over_event() -> None:
    state = make(players=1)
    state.filled[0] = {b: 1 for b in BOXES[1:]}
    state.apply(Throw((1, 1, 2, 2, 2)))
    events = state.apply(Fill(0, "ones"))
    assert isinstance(events[-1], GameOver) and state.is_terminal()
    assert state.winners() == (0,)


# --------------------------------------------------------------------------- the solver


def test_turn_machinery_matches_published_five_of_a_kind_chance() -> None:
    # Chasing five of a kind with three throws: 2,783,176 / 60,466,176 (about 4.603 %).
    v = np.array([[1.0 if max(c) == 5 else 0.0] for c in (opt.MULTISETS[i] for i in opt.ROLLS)])
    v = opt._best_subset(opt._average(v))
    v = opt._best_subset(opt._average(v))
    assert float(opt.PROB5 @ v[:, 0]) == pytest.approx(2783176 / 60466176, abs=1e-12)


def test_table_is_read_from_the_cache_without_solving(monkeypatch: pytest.MonkeyPatch) -> None:
    path = opt.cache_path("at-least")  # under the test's own XDG_DATA_HOME
    path.parent.mkdir(parents=True, exist_ok=True)
    fake = np.full((opt.FULL + 1, 64), 7.0, dtype=np.float32)
    np.save(path, fake)
    monkeypatch.setattr(opt, "_TABLES", {})
    monkeypatch.setattr(opt, "solve", lambda kinds: pytest.fail("solved instead of cached"))
    assert float(opt.table("at-least")[0, 0]) == 7.0


@pytest.fixture(scope="module")
def table() -> np.ndarray:
    return opt.table("exactly", use_cache=False)


def test_solver_chance_alone_is_70_over_3(table: np.ndarray) -> None:
    # Only chance open: keep 5+ with two throws left, 4+ with one: 5 * 14/3 per game.
    mask = opt.FULL ^ (1 << BOXES.index("chance"))
    assert float(table[mask, 0]) == pytest.approx(70 / 3, abs=1e-3)
    advice = opt.advise(set(BOXES) - {"chance"}, 0, (1, 2, 4, 5, 6), 2, e=table)
    assert advice.keep == (5, 6)
    advice = opt.advise(set(BOXES) - {"chance"}, 0, (1, 2, 4, 5, 6), 1, e=table)
    assert advice.keep == (4, 5, 6)


def test_solver_expected_score_and_hint(table: np.ndarray) -> None:
    assert 240 < float(table[0, 0]) < 250
    state = make(players=1)
    state.filled[0] = {b: 1 for b in BOXES if b not in ("five_of_a_kind", "chance")}
    opt._TABLES["exactly"] = table
    state.apply(Throw((6, 6, 6, 6, 6)))
    assert "five of a kind" in state.hint()
    state.apply(Fill(0, "five_of_a_kind"))
    assert state.hint().startswith("Throw")


@pytest.mark.slow
def test_solver_reproduces_published_yahtzee_value_without_bonus_or_joker() -> None:
    # Published optimum for Yahtzee scoring without Yahtzee bonuses or joker: 245.87.
    e = opt.solve("at-least")
    assert float(e[0, 0]) == pytest.approx(245.87, abs=0.005)


# Every line of the score form (issue 22: a scoring table with several lines tests each one).
# "Add up all the ones, twos, threes, fours, fives and sixes ... in the top half"; "Three of a
# kind ... Four of a kind ... All the pips are added together"; "Full House ..., Small
# Straight ..., Large Straight ..., Five of a Kind ... are worth 25, 30, 40 and 50 points
# respectively"; "Chance, a free combination for which all the pips are added up".
@pytest.mark.parametrize("box,dice,points", [
    ("ones", (1, 1, 2, 5, 1), 3), ("twos", (2, 2, 2, 5, 1), 6), ("threes", (3, 1, 3, 5, 6), 6),
    ("fours", (4, 4, 4, 4, 1), 16), ("fives", (1, 2, 5, 5, 5), 15),
    ("sixes", (6, 1, 2, 3, 4), 6), ("three_of_a_kind", (2, 3, 3, 3, 4), 15),
    ("four_of_a_kind", (3, 3, 3, 3, 5), 17), ("full_house", (2, 2, 5, 5, 5), 25),
    ("small_straight", (1, 2, 3, 4, 6), 30), ("large_straight", (2, 3, 4, 5, 6), 40),
    ("five_of_a_kind", (4, 4, 4, 4, 4), 50), ("chance", (2, 3, 3, 3, 4), 15),
])
def test_every_box_of_the_score_form(box: str, dice: tuple[int, ...], points: int) -> None:
    assert score(box, dice) == points
    assert {b for b in BOXES} >= {box}
