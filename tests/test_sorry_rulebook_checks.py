"""SORRY! findings of the independent rulebook check (issue 22), each from rulebook 000."""

from __future__ import annotations

import pytest

from companion.engine import Draw, IllegalAction
from companion.games import find
from companion.journal import Journal
from companion.session import Session
from companion.voice import Recorder
from tests.test_sorry import HOME, START, make, setup

# ------------------------------------------------------------------ Play for Points scoring
# "SCORING: All players score 5 points for each pawn on HOME. The WINNER also scores as
# follows: 5 points for each opponent's pawn not in its HOME / 25 points if no opponent has
# more than two pawns HOME / 50 points if no opponent has more than one pawn HOME / 100 points
# if no opponent's pawn reached HOME"
# The text lists the lines without "or" or "instead": every line that applies scores (they add
# up); option bonus=best gives only the highest of the three bonuses.


def scored(homes: list[int], bonus: str = "all") -> list[int]:
    state = make(players=len(homes), variation="points", bonus=bonus)
    state.pawns = [[HOME] * h + [START] * (4 - h) for h in homes]
    state.winner_seats = (0,)
    return state.points()


@pytest.mark.parametrize("homes,all_lines,best", [
    # the winner's lines: 5 a pawn HOME (everyone), 5 an opponent's pawn not HOME, 25, 50, 100
    ([4, 3], [20 + 5 * 1, 15], [20 + 5 * 1, 15]),                 # 3 home: no bonus
    ([4, 3, 0], [20 + 5 * 5, 15, 0], [20 + 5 * 5, 15, 0]),        # one opponent with 3
    ([4, 2], [20 + 5 * 2 + 25, 10], [20 + 5 * 2 + 25, 10]),       # "more than two": 25
    ([4, 2, 1, 0], [20 + 5 * 9 + 25, 10, 5, 0], [20 + 5 * 9 + 25, 10, 5, 0]),
    ([4, 1], [20 + 5 * 3 + 25 + 50, 5], [20 + 5 * 3 + 50, 5]),    # "more than one": 50
    ([4, 1, 1, 0], [20 + 5 * 10 + 25 + 50, 5, 5, 0], [20 + 5 * 10 + 50, 5, 5, 0]),
    ([4, 0], [20 + 5 * 4 + 25 + 50 + 100, 0], [20 + 5 * 4 + 100, 0]),  # a shut-out: 100
    ([4, 0, 0, 0], [20 + 5 * 12 + 175, 0, 0, 0], [20 + 5 * 12 + 100, 0, 0, 0]),
])
def test_every_line_of_the_points_table(homes, all_lines, best) -> None:
    assert scored(homes) == all_lines
    assert scored(homes, "best") == best


def test_a_four_nil_shut_out_is_not_65() -> None:
    # the issue: a 4-0 shut-out scored the winner 20 + 20 + 25 = 65
    assert scored([4, 0])[0] == 215 and scored([4, 0], "best")[0] == 140


# ------------------------------------------------------------------ Team rules: the 7
# Team rules: "7 means you may split a move among any or all eight of your team's pawns."


def test_team_seven_splits_three_ways_typed() -> None:
    state = make(variation="team")
    setup(state, [20, 30, START, START], [START] * 4, [40, START, START, START], [START] * 4)
    state.apply(Draw("7"))
    action = state.game.parse_action(state, "split A 3 B 2 yellow A 2")
    assert state.describe_action(action) == (
        "A 3 to square 24, B 2 to square 33 and Yellow's A 2 to square 43")
    state.apply(action)
    assert state.pawns[0][:2] == [23, 32] and state.pawns[2][0] == 42


def test_team_seven_only_a_three_way_split_must_be_played_not_forfeited() -> None:
    # Red A can go 3 to HOME, Red B 2, Yellow A 2: no one or two pawns can use the whole 7
    state = make(variation="team")
    zone = HOME - 6
    setup(state, [zone + 3, zone + 4, HOME, HOME], [START] * 4,
          [zone + 4, HOME, HOME, HOME], [START] * 4)
    state.apply(Draw("7"))
    assert state.phase == "play" and state.turn == 0  # not forfeited
    legal = state.legal_actions()
    assert len(legal) == 1 and type(legal[0]).__name__ == "TeamSplit"
    state.apply(state.game.parse_action(state, "split A 3 B 2 yellow A 2"))
    assert state.is_terminal() and state.winners() == (0, 2)


def test_split_among_more_than_two_refused_outside_team_play() -> None:
    state = make()
    setup(state, [20, 30, 40, START], [START] * 4, [START] * 4, [START] * 4)
    state.apply(Draw("7"))
    with pytest.raises(IllegalAction, match="among more only in Team play"):
        state.game.parse_action(state, "split A 3 B 2 C 2")


def test_team_split_parts_must_add_up_to_seven() -> None:
    state = make(variation="team")
    setup(state, [20, 30, START, START], [START] * 4, [40, START, START, START], [START] * 4)
    state.apply(Draw("7"))
    with pytest.raises(IllegalAction, match="add up to 7"):
        state.game.parse_action(state, "split A 3 B 2 yellow A 1")
    before = state.to_json()
    with pytest.raises(IllegalAction, match="different pawn"):
        state.game.parse_action(state, "split A 3 B 2 A 2")
    assert state.to_json() == before


# ------------------------------------------------------------------ Play for Points: the deal
# "Shuffle the deck and deal five cards facedown to each player." The cards are face down, so
# the confirmation names the hand, never the card.


def points_session(players=("Red", "Blue", "Yellow")):
    recorder = Recorder()
    game = find("sorry")(list(players), {"variation": "points"})
    return Session.start(game, Journal.memory(), announcer=recorder), recorder


def test_the_deal_says_which_hand_each_card_went_to_and_who_answers() -> None:
    s, rec = points_session()
    assert "Deal five cards face down to each player: the next card goes to Red's hand, card 1"\
        " of 5." in rec.texts
    assert s.command("who").text == "The next card goes to Red's hand, card 1 of 5."
    assert s.command("card 7").accepted
    assert "A card to Red's hand, 1 of 5." in rec.texts
    assert not any("7" in t for t in rec.texts[-1:])  # face down: the card is not said
    assert s.command("who").text == "The next card goes to Blue's hand, card 1 of 5."
    for card in ["5", "3", "8", "12", "1", "2", "4", "10", "11", "SORRY", "5", "3", "8", "7"]:
        assert s.command(f"card {card}").accepted
    assert "A card to Yellow's hand, 5 of 5." in rec.texts
    assert s.command("who").text == "Red to play a card from the hand."


# ------------------------------------------------------------------ pass on an 11
# 11: "You may forfeit your move if you do not wish to change places and it is impossible to
# go forward 11 spaces." An 11 that can go forward must be played, and the refusal says why.


def test_pass_on_an_11_that_can_go_forward_says_why() -> None:
    state = make()
    setup(state, [20, START, START, START], [30, START, START, START], [START] * 4,
          [START] * 4)
    state.apply(Draw("11"))
    for line in ("pass", "pass 11", "forfeit"):
        with pytest.raises(IllegalAction) as err:
            state.game.parse_action(state, line)
        assert "means nothing" not in err.value.reason
        assert err.value.reason.startswith("The 11 can still move forward 11 (A from square 21")
        assert "impossible to go forward 11 spaces" in err.value.reason


def test_pass_on_an_11_that_cannot_go_forward_is_accepted() -> None:
    state = make()
    # Red A just behind its safety entry: 11 forward would pass HOME; a switch is possible
    setup(state, [0, START, START, START], [30, START, START, START], [START] * 4,
          [START] * 4)
    state.apply(Draw("11"))
    assert state.turn == 0 and state.legal_actions()
    action = state.game.parse_action(state, "pass")
    state.apply(action)
    assert state.turn == 1
