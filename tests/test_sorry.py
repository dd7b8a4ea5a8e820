"""SORRY! (rulebook 000): every card's rule, slides, safety zones, bumping, the variations."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from companion.engine import CHANCE, TERMINAL, Draw, GameOver, IllegalAction
from companion.games import find
from companion.games.sorry import (
    Backward,
    Bumped,
    DrawAgain,
    Forfeit,
    Forward,
    Pass,
    PawnHome,
    Reshuffled,
    Slid,
    SorryBump,
    SorryState,
    Split,
    StartPawn,
    Switch,
)
from companion.games.sorry.board import SAFE_BASE, START

NAMES = ["Red", "Blue", "Yellow", "Green"]
HOME = SAFE_BASE + 6
# Red (seat 0): start circle square 4, safety entry 2, own slides 1-4 and 9-13.
# Blue (seat 1 of four): start circle 19, entry 17, slides 16-19 and 24-28.


def make(players: int = 4, **options: Any) -> SorryState:
    options.setdefault("auto_move", False)
    game = find("sorry")(NAMES[:players], options)
    state = game.new_state()
    assert isinstance(state, SorryState)
    return state


def setup(state: SorryState, *rows: list[int]) -> None:
    for seat, row in enumerate(rows):
        state.pawns[seat] = list(row)


def refused_unchanged(state: SorryState, action: Any) -> str:
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    assert state.to_json() == before
    return err.value.reason


def test_deck_has_45_cards_with_five_ones() -> None:
    state = make()
    request = state.chance()
    assert request is not None and request.kind == "card" and request.deck == "sorry"
    counts = Counter(request.cards)
    assert sum(counts.values()) == 45 and counts["1"] == 5 and counts["SORRY"] == 4
    assert "6" not in counts and "9" not in counts


def test_first_turn_without_a_start_card_is_forfeited() -> None:
    state = make()
    events = state.apply(Draw("5"))
    assert any(isinstance(e, Forfeit) for e in events)
    assert state.turn == 1 and state.phase == "draw"
    state.apply(Draw("1"))
    assert state.legal_actions() == [StartPawn(1, "1", 1)]
    state.apply(StartPawn(1, "1", 1))
    assert state.pawns[1][0] == 19


def test_a_two_starts_a_pawn_and_draws_again_even_without_a_move() -> None:
    state = make(auto_move=True)
    events = state.apply(Draw("2"))
    assert state.pawns[0][0] == 4
    assert any(isinstance(e, DrawAgain) for e in events) and state.turn == 0
    state.apply(Draw("8"))
    assert state.pawns[0][0] == 12 and state.turn == 1


def test_two_draws_again_after_a_forfeit() -> None:
    state = make()
    setup(state, [SAFE_BASE + 5, HOME, HOME, HOME])  # a 2 would go past HOME
    events = state.apply(Draw("2"))
    assert any(isinstance(e, Forfeit) for e in events)
    assert any(isinstance(e, DrawAgain) for e in events) and state.turn == 0


def test_only_one_and_two_start_pawns_and_a_start_circle_holds_one() -> None:
    state = make()
    setup(state, [4, START, START, START])
    state.apply(Draw("1"))
    actions = state.legal_actions()
    assert StartPawn(0, "1", 0) not in actions  # own pawn on the start circle
    assert actions == [Forward(0, "1", 0, 0, 1)]
    assert "another Red pawn" in refused_unchanged(state, StartPawn(0, "1", 0))
    state.apply(actions[0])
    state.apply(Draw("3"))
    assert not any(isinstance(a, StartPawn) for a in state.legal_actions())


def test_starting_bumps_an_opponent_on_the_start_circle() -> None:
    state = make()
    setup(state, [START] * 4, [4, START, START, START])
    state.apply(Draw("1"))
    events = state.apply(StartPawn(0, "1", 0))
    assert any(isinstance(e, Bumped) and e.player == 1 for e in events)
    assert state.pawns[1][0] == START and state.pawns[0][0] == 4


def test_jump_over_pawns_and_bump_on_landing() -> None:
    state = make()
    setup(state, [20, START, START, START], [22, 25, START, START])
    state.apply(Draw("5"))
    events = state.apply(Forward(0, "5", 0, 0, 5))
    assert state.pawns[0][0] == 25 and state.pawns[1][1] == START
    assert any(isinstance(e, Bumped) for e in events) and state.pawns[1][0] == 22


def test_own_pawn_blocks_the_landing_square_and_forced_forfeit() -> None:
    state = make()
    setup(state, [20, 23, HOME, HOME])
    events = state.apply(Draw("3"))  # A would land on B; B 23 -> 26 is fine
    assert state.legal_actions() == [Forward(0, "3", 0, 1, 3)]
    assert "another Red pawn" in refused_unchanged(state, Forward(0, "3", 0, 0, 3))
    state.apply(Forward(0, "3", 0, 1, 3))
    state.turn = 0
    setup(state, [20, 23, HOME, HOME])
    state.phase = "draw"
    setup(state, [20, 24, HOME, HOME])
    events = state.apply(Draw("4"))  # 24 back 4 = 20: own pawn; 20 back 4 = 16 fine
    assert state.legal_actions() == [Backward(0, "4", 0, 0, 4)]
    state.apply(Backward(0, "4", 0, 0, 4))
    state.turn, state.phase = 0, "draw"
    setup(state, [SAFE_BASE + 3, SAFE_BASE + 5, HOME, HOME])
    events = state.apply(Draw("2"))  # 3+2 lands on own pawn; 5+2 passes HOME
    assert any(isinstance(e, Forfeit) for e in events)


def test_slides_of_another_colour_bump_everyone_own_colour_does_not_slide() -> None:
    state = make()
    # Blue's slide runs 16 -> 19. Red lands on 16 by exact count and slides,
    # bumping Blue on 18 and its own pawn on 19.
    setup(state, [11, 19, START, START], [18, START, START, START])
    state.apply(Draw("5"))
    events = state.apply(Forward(0, "5", 0, 0, 5))
    assert any(isinstance(e, Slid) for e in events)
    assert state.pawns[0][0] == 19 and state.pawns[0][1] == START
    assert state.pawns[1][0] == START
    # A Blue pawn landing on its own slide's triangle stays put.
    state.turn, state.phase = 1, "draw"
    setup(state, [START] * 4, [13, START, START, START])
    state.apply(Draw("3"))
    state.apply(Forward(1, "3", 1, 0, 3))
    assert state.pawns[1][0] == 16


def test_safety_zone_is_private_and_forward_turns_into_it() -> None:
    state = make()
    setup(state, [0, START, START, START], [0 + 60 - 60 + 58, START, START, START])
    # Red on 0 (two behind its entry 2), forward 5: 1, 2, then safety 1, 2, 3.
    state.apply(Draw("5"))
    state.apply(Forward(0, "5", 0, 0, 5))
    assert state.pawns[0][0] == SAFE_BASE + 3
    # Blue on 58 passes Red's entry square and stays on the track.
    state.apply(Draw("5"))
    state.apply(Forward(1, "5", 1, 0, 5))
    assert state.pawns[1][0] == 3


def test_backward_four_that_later_enters_the_safety_zone() -> None:
    state = make()
    setup(state, [4, START, START, START])  # on its start circle
    state.apply(Draw("4"))
    state.apply(Backward(0, "4", 0, 0, 4))
    assert state.pawns[0][0] == 0  # two spaces beyond the entry square 2
    for _ in range(3):
        state.apply(Draw("5"))  # the others forfeit
    assert state.turn == 0
    state.apply(Draw("3"))
    state.apply(Forward(0, "3", 0, 0, 3))
    assert state.pawns[0][0] == SAFE_BASE + 1
    # No pawn enters a safety zone backward; it may back out of one.
    state.turn, state.phase = 0, "draw"
    setup(state, [SAFE_BASE + 1, START, START, START])
    state.apply(Draw("4"))
    state.apply(Backward(0, "4", 0, 0, 4))
    assert state.pawns[0][0] == 59  # safety 1 -> entry 2 -> 1 -> 0 -> 59


def test_home_by_exact_count_only() -> None:
    state = make()
    setup(state, [SAFE_BASE + 3, HOME, HOME, HOME])
    state.apply(Draw("3"))
    events = state.apply(Forward(0, "3", 0, 0, 3))
    assert any(isinstance(e, PawnHome) for e in events)
    assert isinstance(events[-1], GameOver) and state.winners() == (0,)
    assert state.is_terminal()


def test_seven_split_that_brings_one_pawn_home() -> None:
    state = make()
    setup(state, [SAFE_BASE + 3, 30, HOME, HOME])
    state.apply(Draw("7"))
    actions = state.legal_actions()
    assert Split(0, "7", 0, 0, 3, 0, 1, 4) in actions
    assert Forward(0, "7", 0, 1, 7) in actions
    events = state.apply(Split(0, "7", 0, 0, 3, 0, 1, 4))
    assert state.pawns[0][:2] == [HOME, 34]
    assert any(isinstance(e, PawnHome) for e in events)


def test_seven_split_needs_the_balance_for_another_pawn() -> None:
    state = make()
    setup(state, [SAFE_BASE + 3, START, HOME, HOME])
    state.apply(Draw("7"))
    # 3 takes A home, but the other pawn is in START: a 7 may not start a pawn.
    assert state.legal_actions() == [Pass(0, "7")] or not any(
        isinstance(a, Split) for a in state.legal_actions())
    refused_unchanged(state, Split(0, "7", 0, 0, 3, 0, 1, 4))
    refused_unchanged(state, Split(0, "7", 0, 0, 3, 0, 0, 4))


def test_seven_split_parts_must_make_seven() -> None:
    state = make()
    setup(state, [10, 30, START, START])
    state.apply(Draw("7"))
    assert "add up to 7" in refused_unchanged(state, Split(0, "7", 0, 0, 3, 0, 1, 3))
    splits = [a for a in state.legal_actions() if isinstance(a, Split)]
    assert len(splits) == 12  # 6 ways, both orders


def test_ten_forward_or_one_back() -> None:
    state = make()
    setup(state, [20, START, START, START])
    state.apply(Draw("10"))
    assert set(state.legal_actions()) == {Forward(0, "10", 0, 0, 10),
                                          Backward(0, "10", 0, 0, 1)}
    state.apply(Backward(0, "10", 0, 0, 1))
    assert state.pawns[0][0] == 19
    refused = make()
    setup(refused, [20, START, START, START])
    refused.apply(Draw("10"))
    refused_unchanged(refused, Backward(0, "10", 0, 0, 4))


def test_eleven_switch_that_lands_on_a_slide() -> None:
    state = make()
    # Blue stands on the triangle of Yellow's slide (31 -> 34); Red switches onto it,
    # slides to 34 and bumps the Green pawn on 33. Blue goes to Red's square 40.
    setup(state, [40, START, START, START], [31, START, START, START],
          [START] * 4, [33, START, START, START])
    state.apply(Draw("11"))
    assert Switch(0, "11", 0, 0, 1, 0) in state.legal_actions()
    events = state.apply(Switch(0, "11", 0, 0, 1, 0))
    assert any(isinstance(e, Slid) for e in events)
    assert state.pawns[0][0] == 34 and state.pawns[1][0] == 40
    assert state.pawns[3][0] == START


def test_eleven_switch_is_optional_only_when_eleven_forward_is_impossible() -> None:
    state = make()
    setup(state, [20, START, START, START], [40, START, START, START])
    state.apply(Draw("11"))
    assert Pass(0, "11") not in state.legal_actions()
    assert "must" in refused_unchanged(state, Pass(0, "11"))
    state.apply(Switch(0, "11", 0, 0, 1, 0))
    assert state.pawns[0][0] == 40 and state.pawns[1][0] == 20
    state.turn, state.phase = 0, "draw"
    # B on 56 + 11 = 57..59, 0, 1, 2, safety 1..5: onto A. A cannot go past HOME.
    setup(state, [SAFE_BASE + 5, 56, START, START], [40, START, START, START])
    state.apply(Draw("11"))
    actions = state.legal_actions()
    assert not any(isinstance(a, Forward) for a in actions)
    assert Pass(0, "11") in actions
    # Switch only pawns on the open track: not the one in the safety zone.
    assert all(a.pawn == 1 for a in actions if isinstance(a, Switch))
    events = state.apply(Pass(0, "11"))
    assert any(isinstance(e, Forfeit) for e in events)


def test_sorry_card() -> None:
    state = make()
    setup(state, [START, 30, START, START], [25, SAFE_BASE + 2, START, START])
    state.apply(Draw("SORRY"))
    actions = state.legal_actions()
    assert actions == [SorryBump(0, "SORRY", 0, 1, 0)]  # not the pawn in the safety zone
    events = state.apply(actions[0])
    assert state.pawns[0][0] == 25 and state.pawns[1][0] == START
    assert any(isinstance(e, Bumped) for e in events)
    # No pawn in START: forfeit.
    state.turn, state.phase = 0, "draw"
    setup(state, [10, 20, 30, 40], [25, START, START, START])
    events = state.apply(Draw("SORRY"))
    assert any(isinstance(e, Forfeit) for e in events)


def test_reshuffle_when_the_draw_pile_is_empty() -> None:
    state = make(players=2)
    rng = random.Random(3)
    seen = 0
    while not state.is_terminal() and seen < 60:
        if state.current_player() == CHANCE:
            events = state.apply(state.sample_chance(rng))
            seen += 1
            if seen == 46:
                assert any(isinstance(e, Reshuffled) for e in events)
        else:
            state.apply(rng.choice(state.legal_actions()))
        total = sum(state.pile.values()) + len(state.discards) + (state.card is not None)
        assert total == 45


def test_refusals_change_nothing() -> None:
    state = make()
    refused_unchanged(state, StartPawn(0, "1", 0))  # no card drawn
    refused_unchanged(state, Draw("6"))
    state.apply(Draw("1"))
    refused_unchanged(state, StartPawn(1, "1", 1))  # not Blue's turn
    refused_unchanged(state, StartPawn(0, "2", 0))  # not the card drawn
    refused_unchanged(state, StartPawn(0, "1", 2))  # not a partner
    refused_unchanged(state, Forward(0, "1", 0, 0, 1))  # pawn in START
    refused_unchanged(state, Draw("1"))


def test_parse_typed_moves() -> None:
    state = make()
    setup(state, [10, 30, START, START], [25, START, START, START])
    game = state.game
    state.apply(Draw("7"))
    assert game.parse_action(state, "split A 3 B 4") == Split(0, "7", 0, 0, 3, 0, 1, 4)
    assert game.parse_action(state, "move B") == Forward(0, "7", 0, 1, 7)
    with pytest.raises(IllegalAction):
        game.parse_action(state, "start")
    state.apply(Split(0, "7", 0, 0, 3, 0, 1, 4))
    state.apply(Draw("11"))
    assert state.pawns[0][:2] == [13, 34]
    assert game.parse_action(state, "switch A 35") == Switch(1, "11", 1, 0, 0, 1)
    assert game.parse_action(state, "switch A red B") == Switch(1, "11", 1, 0, 0, 1)
    with pytest.raises(IllegalAction, match="opponent"):
        game.parse_action(state, "switch A 26")


# --------------------------------------------------------------------------- variations


def test_team_partners_move_and_bump_each_other() -> None:
    state = make(variation="team")
    assert state.game.team_of(0) == (0, 2) and state.game.team_of(1) == (1, 3)
    setup(state, [START] * 4, [START] * 4, [20, START, START, START], [START] * 4)
    state.apply(Draw("1"))
    actions = state.legal_actions()
    assert StartPawn(0, "1", 2) in actions and Forward(0, "1", 2, 0, 1) in actions
    state.apply(Forward(0, "1", 2, 0, 1))
    assert state.pawns[2][0] == 21
    # Landing on a partner's pawn bumps it.
    state.turn, state.phase = 0, "draw"
    setup(state, [18, START, START, START], [START] * 4, [21, START, START, START],
          [START] * 4)
    state.apply(Draw("3"))
    events = state.apply(Forward(0, "3", 0, 0, 3))
    assert any(isinstance(e, Bumped) and e.player == 2 for e in events)


def test_team_sorry_must_be_used_even_on_a_partner() -> None:
    state = make(variation="team")
    setup(state, [START, HOME, HOME, HOME], [START] * 4, [20, HOME, HOME, HOME],
          [START] * 4)
    state.apply(Draw("SORRY"))
    actions = state.legal_actions()
    assert actions == [SorryBump(0, "SORRY", 0, 2, 0)]


def test_team_wins_with_all_eight_home() -> None:
    state = make(variation="team")
    setup(state, [HOME] * 4, [START] * 4, [SAFE_BASE + 5, HOME, HOME, HOME], [START] * 4)
    state.apply(Draw("1"))
    events = state.apply(Forward(0, "1", 2, 0, 1))
    assert isinstance(events[-1], GameOver) and events[-1].winners == (0, 2)


def test_team_needs_four_players() -> None:
    with pytest.raises(ValueError):
        find("sorry")(NAMES[:3], {"variation": "team"})


def test_play_for_points_hands_and_scoring() -> None:
    state = make(players=3, variation="points")
    assert [row.count(START) for row in state.pawns] == [3, 3, 3]
    assert state.pawns[0][3] == 4  # the fourth pawn on the start circle
    for card in ["5"] * 4 + ["3"] * 4 + ["8"] * 4 + ["SORRY"] * 3:
        assert state.current_player() == CHANCE
        state.apply(Draw(card))
    assert state.phase == "play" and [len(h) for h in state.hands] == [5, 5, 5]
    actions = state.legal_actions()
    assert {getattr(a, "card", None) for a in actions} >= {"5", "3", "8"}
    state.apply(Forward(0, "5", 0, 3, 5))
    assert state.phase == "refill" and state.chance().who == 0
    state.apply(Draw("12"))
    assert state.turn == 1 and len(state.hands[0]) == 5
    # Scoring: winner Red, Blue 2 home, Yellow 1 home.
    state.pawns = [[HOME] * 4, [HOME, HOME, 30, START], [HOME, 40, START, START]]
    state.winner_seats = (0,)
    assert state.points() == [20 + 5 * 2 + 5 * 3 + 25, 10, 5]
    state.pawns[1] = [HOME, HOME, HOME, START]
    assert state.points()[0] == 20 + 5 * 1 + 5 * 3


def test_play_for_points_discard_when_nothing_moves() -> None:
    state = make(players=2, variation="points")
    for card in ["4"] * 4 + ["5"] * 4 + ["3", "3"]:
        state.apply(Draw(card))
    setup(state, [START, START, START, HOME], [START, START, START, HOME])
    actions = state.legal_actions()
    assert actions and all(isinstance(a, Pass) for a in actions)
    state.apply(Pass(0, "4"))
    assert state.phase == "refill" and state.turn == 0


# --------------------------------------------------------------------------- random games


def _random_game(state: SorryState, rng: random.Random) -> list[Any]:
    board = state.board
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
        track = [p for row in state.pawns for p in row if board.on_track(p)]
        assert len(track) == len(set(track))  # one pawn a square
        for row in state.pawns:
            zone = [p for p in row if board.in_zone(p)]
            assert len(zone) == len(set(zone))
        in_hands = sum(len(h) for h in state.hands)
        total = sum(state.pile.values()) + len(state.discards) + in_hands
        assert total + (state.card is not None) == 45
        assert len(actions) <= state.game.max_length()
    return actions


@pytest.mark.slow
@pytest.mark.parametrize("variation,players,games", [
    ("standard", 2, 100), ("standard", 3, 50), ("standard", 4, 40),
    ("team", 4, 25), ("points", 3, 35), ("points", 4, 25),
])
def test_random_games_invariants(variation: str, players: int, games: int) -> None:
    rng = random.Random(f"{variation}{players}")
    for n in range(games):
        state = make(players, variation=variation, auto_move=bool(n % 2))
        replay = state.clone()
        actions = _random_game(state, rng)
        assert state.current_player() == TERMINAL
        winners = state.winners()
        assert winners
        assert all(state.home_count(s) == 4 for s in winners)
        for action in actions:
            replay.apply(action)
        assert replay.to_json() == state.to_json()
        json.dumps(state.to_json())
