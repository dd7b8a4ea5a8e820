"""The three race games of rulebook 002: rules one by one, refusals, clones, random play."""

from __future__ import annotations

import json
import random
from collections import deque
from pathlib import Path
from typing import Any

import pytest

from companion.engine import CHANCE, TERMINAL, Draw, GameOver, IllegalAction, Throw, TurnPasses
from companion.games import find
from companion.games.race.common import BoardError, RaceState

NAMES = ["Red", "Blue", "Green", "Yellow"]


def make(name: str, players: int = 2, **options: Any) -> RaceState:
    game = find(name)(NAMES[:players], options)
    state = game.new_state()
    assert isinstance(state, RaceState)
    return state


def said(state: RaceState, *values: int) -> list[str]:
    events = state.apply(Throw(tuple(values)))
    return [e.describe(state.game.players) for e in events]


def refused_unchanged(state: RaceState, action: Any) -> str:
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    assert state.to_json() == before
    return err.value.reason


def play_random(state: RaceState, rng: random.Random) -> int:
    limit = state.game.max_length()
    steps = 0
    while not state.is_terminal():
        assert state.current_player() == CHANCE
        assert state.legal_actions() == []
        state.apply(state.sample_chance(rng))
        steps += 1
        assert steps <= limit
    return steps


def write_board(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "board.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


# =========================================================================== Snakes and Ladders


def test_snakes_aliases_and_spec() -> None:
    for alias in ("snakes-ladders", "snakes", "snakes-and-ladders", "Snakes and Ladders"):
        assert find(alias).spec.name == "snakes-ladders"
    state = make("snakes")
    assert state.game.spec.inputs == ("dice",)
    assert state.chance() is not None and state.chance().count == 1  # type: ignore[union-attr]
    assert state.chance().who == 0  # type: ignore[union-attr]
    assert state.expected() == "Red to throw one die"


def test_snakes_ladder_sentence() -> None:
    state = make("snakes")
    texts = said(state, 4)
    assert texts[0] == "Red throws four and climbs the ladder from 4 to 14."
    assert texts[-1] == "Blue's turn."
    assert state.positions == [14, 0]
    assert state.turn == 1


def test_snakes_snake_sentence() -> None:
    state = make("snakes")
    state.positions = [92, 0]
    assert said(state, 6)[0] == "Red throws six and slides down the snake from 98 to 78."
    assert state.positions[0] == 78


def test_snakes_plain_move() -> None:
    state = make("snakes")
    assert said(state, 2)[0] == "Red throws two and moves to 2."
    said(state, 3)
    assert said(state, 3)[0] == "Red throws three and moves from 2 to 5."


def test_snakes_too_high_passes_the_turn() -> None:
    state = make("snakes")
    state.positions = [10, 97]
    state.turn = 1
    events = state.apply(Throw((6,)))
    assert events[0].describe(state.game.players) == (
        "Blue throws six: too many, Blue needs exactly three."
    )
    assert isinstance(events[-1], TurnPasses) and events[-1].player == 0
    assert state.positions == [10, 97]
    assert state.turn == 0


def test_snakes_exact_throw_wins() -> None:
    state = make("snakes")
    state.positions = [97, 3]
    events = state.apply(Throw((3,)))
    assert isinstance(events[-1], GameOver) and events[-1].winners == (0,)
    assert state.current_player() == TERMINAL
    assert state.winners() == (0,)
    assert state.scores() == [1.0, 0.0]
    assert state.to_json()["winner"] == 0
    assert state.to_json()["expected"] is None
    assert "over" in refused_unchanged(state, Throw((1,)))


def test_snakes_ladder_to_100_wins() -> None:
    state = make("snakes")
    state.positions = [76, 0]
    texts = said(state, 4)
    assert texts == ["Red throws four and climbs the ladder from 80 to 100.", "Red wins the game!"]


def test_snakes_occupied_square_moves_on() -> None:
    state = make("snakes", 3)
    state.positions = [7, 10, 0]
    texts = said(state, 3)
    assert texts[:2] == [
        "Red throws three and moves from 7 to 10.",
        "10 is taken, so Red moves on to 11.",
    ]
    assert state.positions == [11, 10, 0]


def test_snakes_occupied_next_square_too_moves_on_again() -> None:
    state = make("snakes", 3)
    state.positions = [7, 10, 11]
    said(state, 3)
    assert state.positions == [12, 10, 11]


def test_snakes_moving_on_onto_a_ladder_foot_climbs() -> None:
    state = make("snakes")
    state.positions = [17, 20]
    texts = said(state, 3)
    assert texts[1:3] == [
        "20 is taken, so Red moves on to 21.",
        "Red climbs the ladder from 21 to 42.",
    ]
    assert state.positions[0] == 42


def test_snakes_occupied_ladder_top_moves_on() -> None:
    state = make("snakes")
    state.positions = [0, 14]
    texts = said(state, 4)
    assert texts[:2] == [
        "Red throws four and climbs the ladder from 4 to 14.",
        "14 is taken, so Red moves on to 15.",
    ]
    assert state.positions == [15, 14]


def test_snakes_moving_on_from_99_reaches_100_and_wins() -> None:
    state = make("snakes")
    state.positions = [97, 99]
    events = state.apply(Throw((2,)))
    assert isinstance(events[-1], GameOver) and events[-1].winners == (0,)


def test_snakes_start_square_is_shared() -> None:
    state = make("snakes")
    state.positions = [0, 0]
    state.turn = 1
    said(state, 2)
    assert state.positions == [0, 2]


def test_snakes_refuses_bad_throws_unchanged() -> None:
    state = make("snakes")
    said(state, 2)
    assert "one die" in refused_unchanged(state, Throw((2, 3)))
    assert "7" in refused_unchanged(state, Throw((7,)))
    assert "0" in refused_unchanged(state, Throw((0,)))
    refused_unchanged(state, Draw("QS"))
    refused_unchanged(state, Throw(()))


def test_snakes_two_dice_option() -> None:
    state = make("snakes", dice_count=2)
    assert state.chance().count == 2  # type: ignore[union-attr]
    refused_unchanged(state, Throw((3,)))
    assert said(state, 3, 4)[0] == "Red throws three and four and moves to 7."


def test_snakes_bounce_option() -> None:
    state = make("snakes", overshoot="bounce")
    state.positions = [97, 0]
    texts = said(state, 5)
    assert texts[0] == "Red throws five, reaches 100 and counts back to 98."
    assert texts[1] == "Red slides down the snake from 98 to 78."
    assert state.positions[0] == 78


def test_snakes_clone_is_independent() -> None:
    state = make("snakes")
    said(state, 4)
    copy = state.clone()
    before = state.to_json()
    said(copy, 5)
    said(copy, 6)
    assert state.to_json() == before
    assert copy.to_json() != before


def test_snakes_classic_board_matches_published_single_player_figures() -> None:
    # Jake VanderPlas (2017) for the Milton Bradley board, one player, a throw past 100 stays:
    # 39.2 expected turns from the start, 7 turns at the fewest. The transition of every square
    # is taken from the engine (the other token waits at the start, which is never "occupied").
    import numpy as np

    game = find("snakes")(["Red", "Blue"])
    last = game.board.squares
    squares = [s for s in range(last) if s not in game.board.jumps]
    index = {s: i for i, s in enumerate(squares)}
    moves = np.zeros((len(squares), len(squares)))
    nexts: dict[int, set[int]] = {}
    for square in squares:
        for face in range(1, 7):
            state = game.new_state()
            state.positions = [square, 0]
            state.apply(Throw((face,)))
            end = state.positions[0]
            nexts.setdefault(square, set()).add(end)
            if end != last:
                moves[index[square], index[end]] += 1 / 6
    expected = np.linalg.inv(np.eye(len(squares)) - moves).sum(axis=1)[index[0]]
    assert expected == pytest.approx(39.2, abs=0.05)
    depth = {0: 0}
    queue = deque([0])
    while queue:
        here = queue.popleft()
        for there in nexts.get(here, ()):
            if there not in depth:
                depth[there] = depth[here] + 1
                queue.append(there)
    assert depth[last] == 7


@pytest.mark.parametrize(
    "data, fault",
    [
        ({"squares": 100, "ladders": [[10, 5]]}, "must go up"),
        ({"squares": 100, "snakes": [[10, 50]]}, "must go down"),
        ({"squares": 100, "ladders": [[10, 150]]}, "between 1 and 100"),
        ({"squares": 100, "ladders": [[10, 20]], "snakes": [[10, 2]]}, "already starts"),
        ({"squares": 100, "ladders": [[10, 20], [20, 30]]}, "starts another"),
        ({"squares": 100, "ladders": [[10]]}, "pair"),
        ({"squares": "many"}, "whole number"),
        ({"ladders": []}, "missing field 'squares'"),
    ],
)
def test_snakes_bad_board_files_are_refused_clearly(
    tmp_path: Path, data: dict[str, Any], fault: str
) -> None:
    path = write_board(tmp_path, data)
    with pytest.raises(BoardError) as err:
        find("snakes")(["Red", "Blue"], {"board": path})
    assert fault in str(err.value) and path in str(err.value)


def test_snakes_board_file_not_json_or_missing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{ladders", encoding="utf-8")
    with pytest.raises(BoardError, match="not valid JSON"):
        find("snakes")(["Red", "Blue"], {"board": str(bad)})
    with pytest.raises(BoardError, match="not found"):
        find("snakes")(["Red", "Blue"], {"board": str(tmp_path / "none.json")})


def test_snakes_custom_board(tmp_path: Path) -> None:
    path = write_board(tmp_path, {"name": "tiny", "squares": 20, "ladders": [[2, 15]]})
    game = find("snakes")(["Red", "Blue"], {"board": path})
    state = game.new_state()
    said(state, 2)
    assert state.positions == [15, 0]
    assert state.to_json()["board"] == "tiny"
    assert state.to_json()["last_square"] == 20


@pytest.mark.parametrize("options", [{}, {"dice_count": 2}, {"overshoot": "bounce"}])
def test_snakes_random_games_end_with_positions_in_range(options: dict[str, Any]) -> None:
    rng = random.Random(2002)
    lengths = []
    for _ in range(700):
        state = make("snakes", rng.randint(2, 4), **options)
        jumps = state.game.board.jumps
        while not state.is_terminal():
            state.apply(state.sample_chance(rng))
            assert all(0 <= p <= 100 for p in state.positions)
            resting = [p for p in state.positions if p]
            assert len(resting) == len(set(resting)), "two tokens share a square"
            assert not set(resting) & set(jumps), "a token rests on a ladder foot or snake head"
            assert state.throws <= state.game.max_length()
        assert state.positions[state.winners()[0]] == 100
        lengths.append(state.throws)
    assert max(lengths) < state.game.max_length()


# =========================================================================== Game of the Goose


def goose(players: int = 2, **options: Any) -> RaceState:
    return make("goose", players, **options)


def test_goose_spec_two_dice() -> None:
    assert find("game of the goose").spec.name == "goose"
    state = goose()
    assert state.chance().count == 2  # type: ignore[union-attr]
    assert state.expected() == "Red to throw two dice"
    assert "two dice" in refused_unchanged(state, Throw((6,)))
    refused_unchanged(state, Throw((3, 7)))


def test_goose_bridge_6_to_14() -> None:
    state = goose()
    texts = said(state, 2, 4)
    assert texts[:2] == [
        "Red throws two and four and moves to 6.",
        "Red lands on the Bridge at 6 and goes on to 14.",
    ]
    assert state.positions[0] == 14  # 14 is a goose, but the Bridge's destination is final


def test_goose_coffin_18_back_to_start() -> None:
    state = goose()
    state.positions = [12, 0]
    texts = said(state, 3, 3)
    assert texts[1] == "Red lands on the Coffin at 18 and goes back to the start."
    assert state.positions[0] == 0


def test_goose_maze_24_back_to_10() -> None:
    state = goose()
    state.positions = [20, 0]
    said(state, 1, 3)
    assert state.positions[0] == 10


def test_goose_well_needs_a_double() -> None:
    state = goose()
    state.positions = [26, 0]
    texts = said(state, 1, 3)
    assert texts[1] == "Red falls into the Well at 30 and needs a double to get out."
    assert state.to_json()["in_well"] == [True, False]
    said(state, 1, 2)  # Blue
    assert state.expected() == "Red to throw two dice (a double to leave the Well)"
    assert state.status() == "Red on 30 in the Well, Blue on 3. " + state.expected() + "."
    texts = said(state, 2, 3)
    assert texts[0] == "Red throws two and three, no double: Red stays in the Well."
    assert state.positions[0] == 30 and state.turn == 1
    said(state, 1, 2)  # Blue
    texts = said(state, 2, 2)
    assert texts[:2] == [
        "A double: Red climbs out of the Well.",
        "Red throws two and two and moves from 30 to 34.",
    ]
    assert state.positions[0] == 34
    assert state.to_json()["in_well"] == [False, False]


def test_goose_donkey_48_misses_a_turn() -> None:
    state = goose(3)
    state.positions = [44, 0, 0]
    texts = said(state, 1, 3)
    assert texts[1] == "Red meets the Donkey at 48 and misses the next turn."
    assert state.to_json()["missed_turns"] == [1, 0, 0]
    assert state.status().startswith("Red on 48, missing a turn, Blue at the start")
    said(state, 1, 2)  # Blue
    events = state.apply(Throw((1, 2)))  # Green; Red's turn is skipped
    texts = [e.describe(state.game.players) for e in events]
    assert texts[-2:] == ["Red misses this turn.", "Blue's turn."]
    assert state.turn == 1
    assert state.to_json()["missed_turns"] == [0, 0, 0]
    said(state, 1, 2)  # Blue
    said(state, 1, 2)  # Green
    assert state.turn == 0  # Red plays again


def test_goose_doubles_the_move() -> None:
    state = goose()
    texts = said(state, 2, 3)
    assert texts[:2] == [
        "Red throws two and three and moves to 5.",
        "5 is a goose: Red flies on 5 more, to 10.",
    ]
    assert state.positions[0] == 10


def test_goose_chain_of_geese() -> None:
    state = goose()
    state.positions = [37, 0]
    texts = said(state, 2, 2)
    assert texts[1:3] == [
        "41 is a goose: Red flies on 4 more, to 45.",
        "45 is a goose: Red flies on 4 more, to 49.",
    ]
    assert state.positions[0] == 49


def test_goose_chain_option_off_doubles_once() -> None:
    state = goose(goose_chain=False)
    state.positions = [37, 0]
    said(state, 2, 2)
    assert state.positions[0] == 45


def test_goose_nine_from_the_start_ends_in_the_coffin() -> None:
    state = goose()
    texts = said(state, 4, 5)
    assert texts[1:3] == [
        "9 is a goose: Red flies on 9 more, to 18.",
        "Red lands on the Coffin at 18 and goes back to the start.",
    ]


def test_goose_exact_total_reaches_63() -> None:
    state = goose()
    state.positions = [56, 0]
    events = state.apply(Throw((3, 4)))
    assert isinstance(events[-1], GameOver) and events[-1].winners == (0,)
    assert state.is_terminal() and state.positions[0] == 63


def test_goose_exact_count_on_one_die() -> None:
    state = goose()
    state.positions = [60, 0]
    texts = said(state, 3, 5)
    assert texts == [
        "Red throws three and five: the three alone takes Red from 60 to 63.",
        "Red wins the game!",
    ]


def test_goose_exact_one_die_option_off_counts_back() -> None:
    state = goose(exact_one_die=False)
    state.positions = [60, 0]
    texts = said(state, 3, 5)
    assert texts[0] == "Red throws three and five: 3 to 63 and 5 back, to 58."
    assert state.positions[0] == 58


def test_goose_surplus_counted_back() -> None:
    state = goose()
    state.positions = [60, 0]
    said(state, 4, 6)
    assert state.positions[0] == 56


def test_goose_counted_back_onto_a_goose_flies_back() -> None:
    state = goose()
    state.positions = [60, 0]
    texts = said(state, 6, 6)
    assert texts[:2] == [
        "Red throws six and six: 3 to 63 and 9 back, to 54.",
        "54 is a goose: Red flies back 12 more, to 42.",
    ]
    assert state.positions[0] == 42


def test_goose_goose_past_the_centre_counts_back() -> None:
    state = goose()
    state.positions = [56, 0]
    texts = said(state, 1, 2)  # 59 is a goose, 3 more: 62
    assert state.positions[0] == 62
    state.positions = [62, 0]
    state.turn = 0
    texts = said(state, 6, 3)  # exact die? 62 + 3 = 65, no; 62 + 9 = 71 -> 55
    assert texts[0] == "Red throws six and three: 1 to 63 and 8 back, to 55."


def test_goose_landing_on_a_player_sends_them_to_the_arrivals_start() -> None:
    state = goose()
    state.positions = [10, 13]
    texts = said(state, 1, 2)
    assert texts[1] == "Blue was on 13 and goes to 10, where Red began the turn."
    assert state.positions == [13, 10]


def test_goose_displacement_after_special_squares() -> None:
    state = goose()
    state.positions = [20, 10]
    said(state, 1, 3)  # Maze 24 -> 10, where Blue is
    assert state.positions == [10, 20]


def test_goose_displaced_into_the_well() -> None:
    state = goose()
    state.positions = [30, 35]
    said(state, 2, 3)  # out of the well needs a double: stays
    said(state, 1, 1)  # Blue 35 -> 37
    assert state.positions == [30, 37]
    said(state, 3, 3)  # Red doubles out: 36 is a goose -> 42
    assert state.positions == [42, 37]
    state.positions = [30, 34]
    state.turn = 0
    said(state, 2, 2)  # 34, where Blue stands: Blue goes into the Well at 30
    assert state.positions == [34, 30]
    assert state.to_json()["in_well"] == [False, True]


def test_goose_start_is_shared() -> None:
    state = goose()
    state.positions = [12, 0]
    said(state, 3, 3)  # Coffin: back to the start, where Blue is
    assert state.positions == [0, 0]


def test_goose_clone_is_independent() -> None:
    state = goose()
    copy = state.clone()
    said(copy, 3, 3)
    assert state.to_json()["positions"] == [0, 0]
    assert state.to_json()["missed_turns"] == [0, 0]
    copy.positions = [44, 0]
    said(copy, 1, 3)  # Donkey
    assert state.to_json()["missed_turns"] == [0, 0]


@pytest.mark.parametrize(
    "data, fault",
    [
        ({"squares": 63, "geese": [5, 5]}, "both a goose and a goose"),
        ({"squares": 63, "geese": [6], "jumps": [{"square": 6, "to": 14, "name": "B"}]}, "both"),
        ({"squares": 63, "jumps": [{"square": 6, "to": 6}]}, "leads to itself"),
        ({"squares": 63, "jumps": [{"square": 6, "to": 99}]}, "between 0 and 62"),
        ({"squares": 63, "wells": [30]}, "must be an object"),
        ({"squares": 63, "geese": [63]}, "between 1 and 62"),
        ({"squares": 63, "geese": "5 9"}, "must be a list"),
    ],
)
def test_goose_bad_board_files_are_refused_clearly(
    tmp_path: Path, data: dict[str, Any], fault: str
) -> None:
    path = write_board(tmp_path, data)
    with pytest.raises(BoardError) as err:
        find("goose")(["Red", "Blue"], {"board": path})
    assert fault in str(err.value) and path in str(err.value)


@pytest.mark.parametrize("options", [{}, {"goose_chain": False, "exact_one_die": False}])
def test_goose_random_games_end_with_positions_in_range(options: dict[str, Any]) -> None:
    rng = random.Random(63)
    for _ in range(700):
        state = goose(rng.randint(2, 4), **options)
        board = state.game.board
        # Tokens never rest on a jump square, nor on a goose unless a jump leads there (or
        # the chain option is off and a second goose is reached).
        ends = {to for _, to in board.jumps.values()}
        chain = options.get("goose_chain", True)
        never_rest = set(board.jumps) | (set(board.geese) - ends if chain else set())
        while not state.is_terminal():
            state.apply(state.sample_chance(rng))
            assert all(0 <= p <= 63 for p in state.positions)
            assert not set(state.positions) & set(board.jumps)
            assert not set(state.positions) & never_rest
            assert all(0 <= m <= 1 for m in state.to_json()["missed_turns"])
            assert state.throws <= state.game.max_length()
        assert state.positions[state.winners()[0]] == 63


# =========================================================================== Racing Game


def racing(players: int = 2, **options: Any) -> RaceState:
    return make("racing", players, **options)


def test_racing_spec_one_die() -> None:
    assert find("racing game").spec.name == "racing"
    state = racing()
    assert state.chance().count == 1  # type: ignore[union-attr]
    assert state.to_json()["on_track"] == [False, False]
    assert state.to_json()["finish"] == 50
    assert state.status() == (
        "Red in the start area, Blue in the start area."
        " Red to throw one die (a six to enter the track)."
    )
    said(state, 6)
    assert state.expected() == "Red to throw one die"
    assert state.status().startswith("Red on the start line, Blue in the start area.")


def test_racing_needs_a_six_to_enter() -> None:
    state = racing()
    texts = said(state, 5)
    assert texts == ["Red throws five and needs a six to enter the track.", "Blue's turn."]
    assert state.to_json()["on_track"] == [False, False]
    assert state.positions == [0, 0]


def test_racing_six_enters_and_throws_again() -> None:
    state = racing()
    texts = said(state, 6)
    assert texts == ["Red throws six and enters the track.", "Red throws again."]
    assert state.turn == 0 and state.chance().who == 0  # type: ignore[union-attr]
    assert state.to_json()["on_track"] == [True, False]
    texts = said(state, 2)
    assert texts == ["Red throws two and moves to 2.", "Blue's turn."]


def test_racing_six_on_the_track_throws_again() -> None:
    state = racing()
    said(state, 6)
    said(state, 4)
    said(state, 1)  # Blue
    texts = said(state, 6)
    assert texts == ["Red throws six and moves from 4 to 10.", "Red throws again."]
    assert state.turn == 0


def test_racing_six_again_entry_option() -> None:
    state = racing(six_again="entry")
    said(state, 6)
    said(state, 4)
    said(state, 1)  # Blue
    texts = said(state, 6)
    assert texts[-1] == "Blue's turn."


def test_racing_plus_instruction() -> None:
    state = racing()
    said(state, 6)
    texts = said(state, 3)
    assert texts[:2] == [
        "Red throws three and moves to 3.",
        "Square 3 says plus 8: Red moves on to 11.",
    ]
    assert state.positions[0] == 11


def test_racing_minus_instruction() -> None:
    state = racing()
    said(state, 6)
    said(state, 4)
    said(state, 1)  # Blue
    state.positions[0] = 10
    texts = said(state, 2)
    assert texts[:2] == [
        "Red throws two and moves from 10 to 12.",
        "Square 12 says minus 6: Red goes back to 6.",
    ]
    assert state.positions[0] == 6


def test_racing_exact_finish() -> None:
    state = racing()
    state.on_track = [True, True]  # type: ignore[attr-defined]
    state.positions = [47, 0]
    events = state.apply(Throw((4,)))
    assert (
        events[0].describe(state.game.players)
        == "Red throws four: too many, Red needs exactly three."
    )
    assert isinstance(events[-1], TurnPasses)
    assert state.positions == [47, 0]
    said(state, 1)  # Blue
    events = state.apply(Throw((3,)))
    assert isinstance(events[-1], GameOver) and events[-1].winners == (0,)
    assert state.is_terminal() and state.winners() == (0,)
    refused_unchanged(state, Throw((3,)))


def test_racing_too_high_six_still_throws_again() -> None:
    state = racing()
    state.on_track = [True, True]  # type: ignore[attr-defined]
    state.positions = [47, 0]
    texts = said(state, 6)
    assert texts == ["Red throws six: too many, Red needs exactly three.", "Red throws again."]


def test_racing_instruction_chains_on_a_custom_board(tmp_path: Path) -> None:
    path = write_board(
        tmp_path,
        {"finish": 20, "instructions": [{"square": 2, "move": 5}, {"square": 7, "move": -3}]},
    )
    state = find("racing")(["Red", "Blue"], {"board": path}).new_state()
    said(state, 6)
    texts = said(state, 2)
    assert texts[1:3] == [
        "Square 2 says plus 5: Red moves on to 7.",
        "Square 7 says minus 3: Red goes back to 4.",
    ]
    assert state.positions[0] == 4


def test_racing_pawns_share_squares() -> None:
    state = racing()
    said(state, 6)
    said(state, 4)
    said(state, 6)
    said(state, 4)
    assert state.positions == [4, 4]


def test_racing_refuses_bad_throws_unchanged() -> None:
    state = racing()
    said(state, 6)
    assert "one die" in refused_unchanged(state, Throw((6, 6)))
    refused_unchanged(state, Throw((9,)))
    refused_unchanged(state, Draw("AS"))


def test_racing_clone_is_independent() -> None:
    state = racing()
    copy = state.clone()
    said(copy, 6)
    said(copy, 5)
    assert state.to_json()["on_track"] == [False, False]
    assert state.positions == [0, 0]


@pytest.mark.parametrize(
    "data, fault",
    [
        ({"finish": 50, "instructions": [{"square": 3, "move": 0}]}, "move of 0"),
        ({"finish": 50, "instructions": [{"square": 48, "move": 8}]}, "off the track"),
        ({"finish": 50, "instructions": [{"square": 4, "move": -8}]}, "off the track"),
        ({"finish": 50, "instructions": [{"square": 50, "move": -8}]}, "between 1 and 49"),
        (
            {"finish": 50, "instructions": [{"square": 5, "move": 5}, {"square": 10, "move": -5}]},
            "loop",
        ),
        (
            {"finish": 50, "instructions": [{"square": 5, "move": 5}, {"square": 5, "move": 2}]},
            "already has",
        ),
        ({"finish": 50, "instructions": [[5, 5]]}, "must be an object"),
        ({"instructions": []}, "missing field 'finish'"),
    ],
)
def test_racing_bad_board_files_are_refused_clearly(
    tmp_path: Path, data: dict[str, Any], fault: str
) -> None:
    path = write_board(tmp_path, data)
    with pytest.raises(BoardError) as err:
        find("racing")(["Red", "Blue"], {"board": path})
    assert fault in str(err.value) and path in str(err.value)


@pytest.mark.parametrize("options", [{}, {"six_again": "entry"}])
def test_racing_random_games_end_with_positions_in_range(options: dict[str, Any]) -> None:
    rng = random.Random(50)
    for _ in range(700):
        state = racing(rng.randint(2, 4), **options)
        board = state.game.board
        while not state.is_terminal():
            state.apply(state.sample_chance(rng))
            view = state.to_json()
            assert all(0 <= p <= board.finish for p in state.positions)
            assert not set(state.positions) & set(board.instructions)
            assert all(
                p == 0 for p, on in zip(state.positions, view["on_track"], strict=True) if not on
            )
            assert state.throws <= state.game.max_length()
        assert state.positions[state.winners()[0]] == board.finish


@pytest.mark.parametrize("name", ["snakes-ladders", "goose", "racing"])
def test_every_race_game_replays_to_the_same_state(name: str) -> None:
    # Replaying the same throws on a fresh state reproduces the state (what resume relies on).
    rng = random.Random(7)
    state = make(name, 3)
    throws = []
    while not state.is_terminal():
        action = state.sample_chance(rng)
        throws.append(action)
        state.apply(action)
    again = make(name, 3)
    for action in throws:
        again.apply(action)
    assert again.to_json() == state.to_json()


@pytest.mark.parametrize("name", ["snakes-ladders", "goose", "racing"])
def test_stats_tool_reports_game_lengths(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    import importlib

    module, _, function = find(name).tools["stats"].partition(":")
    main = getattr(importlib.import_module(module), function)
    assert main(["--games", "40", "--players", "3", "--seed", "5", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == name and report["games"] == 40
    assert sum(report["win_share_by_seat"]) == pytest.approx(1.0)
    assert 0 < report["throws_min"] <= report["throws_median"] <= report["throws_max"]


# =========================================================================== through a session


@pytest.mark.parametrize(
    "name, throws",
    [
        ("snakes-ladders", ["roll 4", "roll 2", "roll 6", "roll 3", "roll 5"]),
        ("goose", ["roll 2 3", "roll 1 1", "roll 4 4", "roll 6 6", "roll 2 2"]),
        ("racing", ["roll 6", "roll 3", "roll 6", "roll 6", "roll 2"]),
    ],
)
def test_session_plays_undoes_and_resumes(name: str, throws: list[str]) -> None:
    from companion.journal import Journal
    from companion.session import Session
    from companion.voice import Recorder

    recorder = Recorder()
    journal = Journal.memory()
    session = Session.start(find(name)(["Red", "Blue"]), journal, announcer=recorder)
    views = [session.state.to_json()]
    for line in throws:
        assert session.command(line).accepted
        views.append(session.state.to_json())
    assert not session.command("roll 9 9 9").accepted
    assert session.state.to_json() == views[-1]
    session.undo()
    assert session.state.to_json() == views[-2]
    resumed = Session.resume(journal, announcer=Recorder())
    assert resumed.state.to_json() == views[-2]


def test_session_announces_the_snakes_sentences() -> None:
    from companion.journal import Journal
    from companion.session import Session
    from companion.voice import Recorder

    recorder = Recorder()
    session = Session.start(find("snakes")(["Red", "Blue"]), Journal.memory(), announcer=recorder)
    session.command("roll 4")
    assert "Red throws four and climbs the ladder from 4 to 14." in recorder.texts


def test_snakes_moving_on_loop_on_a_custom_board_stays(tmp_path: Path) -> None:
    # 9, 10 and 11 taken and a snake from 12 to 9: moving on would go round for ever.
    path = write_board(tmp_path, {"squares": 20, "snakes": [[12, 9]]})
    state = find("snakes")(NAMES, {"board": path}).new_state()
    state.positions = [3, 9, 10, 11]
    texts = said(state, 6)
    assert "Red slides down the snake from 12 to 9." in texts
    assert state.positions == [9, 9, 10, 11]
