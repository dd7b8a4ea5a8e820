"""Poker Dice (rulebook 000): the 7,776 throws, ranking, the second throw, ties, matches."""

from __future__ import annotations

import json
import random
from math import comb
from typing import Any

import pytest

from companion.engine import CHANCE, TERMINAL, GameOver, IllegalAction, Throw
from companion.games import find
from companion.games.dice.poker_dice import (
    HandWon,
    PokerDiceState,
    Redraw,
    Stand,
    ThrowOff,
    count_main,
)
from companion.games.dice.poker_hands import CLASSES, class_counts, evaluate, parse_faces


def make(players: int = 2, **options: Any) -> PokerDiceState:
    game = find("poker-dice")(["Red", "Blue", "Green", "Yellow"][:players], options)
    state = game.new_state()
    assert isinstance(state, PokerDiceState)
    return state


def pips(text: str) -> Throw:
    """Faces as typed ("A A K K K") to the pips a die reader sends (1=9 ... 6=A)."""
    return Throw(tuple(f - 8 for f in parse_faces(text.split())))


def hand(text: str, wild: bool = False) -> Any:
    return evaluate(parse_faces(text.split()), wild)


def refused_unchanged(state: PokerDiceState, action: Any) -> str:
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    assert state.to_json() == before
    return err.value.reason


# --------------------------------------------------------------------------- hands


def test_all_7776_throws_give_the_textbook_counts() -> None:
    counts = class_counts()
    assert sum(counts.values()) == 6**5
    # Independent counts: rank choices times arrangements of the five dice.
    expected = {
        "five of a kind": 6,
        "four of a kind": 6 * 5 * 5,  # rank, odd rank, position of the odd die
        "full house": 6 * 5 * comb(5, 3),
        "straight": 2 * 120,  # 9-K and 10-A, any order
        "three of a kind": 6 * comb(5, 2) * comb(5, 3) * 2,  # odd ranks, places, order
        "two pair": comb(6, 2) * 4 * 30,  # pairs, odd rank, 5!/(2!2!1!)
        "one pair": 6 * comb(5, 3) * 60,  # pair rank, three odd ranks, 5!/2!
        "nothing": 6 * 120 - 240,  # five different ranks, less the straights
    }
    assert counts == expected
    assert expected == {"five of a kind": 6, "four of a kind": 150, "full house": 300,
                        "straight": 240, "three of a kind": 1200, "two pair": 1800,
                        "one pair": 3600, "nothing": 480}


def test_aces_wild_counts() -> None:
    counts = class_counts(aces_wild=True)
    assert sum(counts.values()) == 7776
    # Five of a kind: the non-aces all of one of five ranks (or none): 1 + sum C(5,k)*5.
    assert counts["five of a kind"] == 1 + sum(comb(5, k) * 5 for k in range(5))
    assert counts["nothing"] == 0  # any ace makes at least a pair


def test_ranking_order_from_the_rulebook() -> None:
    order = ["9 9 9 9 9", "10 10 10 10 J", "9 9 9 J J", "9 10 J Q K", "Q Q Q 9 K",
             "J J 9 9 K", "A A 9 10 J", "9 10 J Q A"]
    hands = [hand(h) for h in order]
    assert [h.name for h in hands] == list(reversed(CLASSES))
    assert hands == sorted(hands, reverse=True)


def test_odd_dice_do_not_break_ties_and_ranks_do() -> None:
    assert hand("J J J J A") == hand("J J J J 9")  # "the fifth die does not help"
    assert hand("Q Q Q Q 9") > hand("J J J J A")
    assert hand("10 J Q K A") > hand("9 10 J Q K")
    assert hand("K K K 9 9") > hand("Q Q Q A A")
    assert hand("A A 9 9 K") > hand("K K Q Q A")


def test_aces_wild_hands() -> None:
    assert hand("A A K K K", wild=True).name == "five of a kind"
    assert hand("J 9 10 K A", wild=True).describe() == "a straight, king high"
    assert hand("A A A A A", wild=True).describe() == "five aces"


def test_count_tool(capsys: pytest.CaptureFixture[str]) -> None:
    assert count_main(["A", "A", "K", "K", "K"]) == 0
    assert "kings full of aces" in capsys.readouterr().out
    assert count_main(["AAKKK", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["class"] == "full house"
    assert count_main(["--table", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["counts"]["one pair"] == 3600
    assert count_main(["A", "B"]) == 2


# --------------------------------------------------------------------------- play


def test_stand_or_throw_one_to_three_again() -> None:
    state = make()
    assert state.chance().count == 5 and state.chance().who == 0
    state.apply(pips("A A K Q 9"))
    assert state.current_player() == 0
    assert "one, two or three" in refused_unchanged(state, Redraw(0, (9, 11, 12, 13)))
    assert "no" in refused_unchanged(state, Redraw(0, (10,))).lower()
    refused_unchanged(state, Redraw(1, (9,)))
    refused_unchanged(state, pips("A"))
    state.apply(Redraw(0, (9, 12)))
    assert state.chance().count == 2
    state.apply(pips("A K"))
    assert state.results[0] == (13, 13, 14, 14, 14)
    assert state.turn == 1 and state.chance().count == 5
    state.apply(pips("Q Q Q Q 9"))
    events = state.apply(Stand(1))
    won = next(e for e in events if isinstance(e, HandWon))
    assert won.player == 1 and state.tally == [0, 1]


def test_tie_throws_off_among_the_tied_only() -> None:
    state = make(players=3, match="single")
    state.apply(pips("J J J J A"))
    state.apply(Stand(0))
    state.apply(pips("9 9 10 K Q"))
    state.apply(Stand(1))
    state.apply(pips("J J J J 9"))
    events = state.apply(Stand(2))
    assert any(isinstance(e, ThrowOff) and e.players == (0, 2) for e in events)
    assert state.in_hand == [0, 2] and state.turn == 0
    state.apply(pips("9 9 10 J K"))
    state.apply(Stand(0))
    assert state.turn == 2
    state.apply(pips("A A 9 10 J"))
    events = state.apply(Stand(2))
    assert isinstance(events[-1], GameOver) and events[-1].winners == (2,)
    assert state.is_terminal()


def test_two_players_best_three_of_five() -> None:
    state = make()
    assert state.game.hands_to_win() == 3
    for n in range(3):
        state.apply(pips("A A A 9 10"))
        state.apply(Stand(0))
        state.apply(pips("K K 9 10 J"))
        events = state.apply(Stand(1))
        assert state.tally == [n + 1, 0]
    assert isinstance(events[-1], GameOver) and state.winners() == (0,)


def test_keyboard_faces_are_parsed() -> None:
    state = make()
    game = state.game
    assert game.parse_action(state, "throw A A K K K") == Throw((6, 6, 5, 5, 5))
    state.apply(game.parse_action(state, "throw 10 J Q K A"))
    assert game.parse_action(state, "redraw 10") == Redraw(0, (10,))
    assert "straight" in (game.query(state, "hand") or "")


def test_random_games_invariants() -> None:
    rng = random.Random(7)
    for n in range(2000):
        players = 2 + n % 3
        state = make(players=players, aces_wild=bool(n % 2))
        replay = state.clone()
        actions = []
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                action = state.sample_chance(rng)
            else:
                action = rng.choice(state.legal_actions())
            actions.append(action)
            state.apply(action)
            assert len(actions) <= state.game.max_length()
        assert state.current_player() == TERMINAL
        (winner,) = state.winners()
        assert state.tally[winner] == state.game.hands_to_win()
        assert sum(state.tally) == state.hands_played
        for action in actions:
            replay.apply(action)
        assert replay.to_json() == state.to_json()
        json.dumps(state.to_json())
