"""Four Hand Texas (42), rulebook 000: count tiles, bidding, trumps, tricks, scoring."""

from __future__ import annotations

import random

import pytest

from companion.engine import CHANCE, Draw, IllegalAction
from companion.games import find
from companion.games.dominoes.actions import Play
from companion.games.dominoes.texas import (
    COUNT_TILES,
    TRUMP_SUIT,
    Bid,
    TexasState,
    led_suit,
    strength,
)
from companion.games.dominoes.tiles import ALL_TILES

NAMES = ["Red", "Blue", "Green", "Yellow"]


def make(**options: object) -> TexasState:
    state = find("texas-42")(NAMES, options).new_state()
    assert isinstance(state, TexasState)
    return state


def said(state: TexasState, text: str) -> list[str]:
    action = state.game.parse_action(state, text)
    return [e.describe(NAMES) for e in state.apply(action)]


def refused(state: TexasState, text: str) -> str:
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        state.apply(state.game.parse_action(state, text))
    assert state.to_json() == before
    return err.value.reason


def test_42_points_a_round() -> None:
    # "The 5-5 and the 6-4 are worth 10 points. The 5-0, 3-2 and the 4-1 are each worth 5
    # points. Each round counts as a point. There are 42 possible points available per round."
    assert sum(COUNT_TILES.values()) + 7 == 42
    assert set(COUNT_TILES) <= set(ALL_TILES)


def test_trump_order_from_the_rulebook() -> None:
    # "if 3s are trump, then 3-3 is the highest, then come 6-3, 5-3, etc."
    order = sorted(["5-3", "3-3", "6-3", "3-0", "4-3"],
                   key=lambda t: strength(t, TRUMP_SUIT, "3"), reverse=True)
    assert order == ["3-3", "6-3", "5-3", "4-3", "3-0"]
    assert led_suit("6-3", "3") == TRUMP_SUIT and led_suit("6-4", "3") == 6
    # A trump beats the suit led; a tile of another suit never wins.
    assert strength("3-0", 6, "3") > strength("6-6", 6, "3") > strength("6-5", 6, "3")
    assert strength("5-4", 6, "3") == (0, 0)
    # Doubles as trumps: the highest double takes the trick.
    assert strength("2-2", 6, "doubles") > strength("6-5", 6, "doubles")
    assert strength("6-6", 6, "doubles") > strength("5-5", 6, "doubles")
    # No trump: the highest spot of the piece led is the suit; the double is highest.
    assert led_suit("5-2", "none") == 5
    assert strength("5-5", 5, "none") > strength("6-5", 5, "none")


def test_bidding_rules() -> None:
    s = make()  # Red deals; Blue bids first
    assert s.expected() == "Blue to bid 30 to 42, or pass"
    assert refused(s, "bid 29") == "A bid now must be 30 to 42, or pass"
    said(s, "bid 31")
    assert refused(s, "bid 31") == "A bid now must be 32 to 42, or pass"
    said(s, "bid 42")  # Green: a limit bid
    assert refused(s, "bid 43") == "A bid now must be 84, or pass"
    said(s, "bid 84")  # Yellow doubles
    texts = said(s, "pass")  # Red, the dealer, last
    assert texts[-1] == ("Yellow wins the bid at 84. Yellow, name trumps: a number, doubles,"
                         " or no trump.")
    assert refused(s, "trump 7") == "Name trumps as a number 0 to 6, doubles, or none"
    assert said(s, "trump doubles") == ["Doubles are trumps; Yellow leads."]


def test_all_pass_deals_again_by_the_next_dealer() -> None:
    s = make()
    for _ in range(3):
        said(s, "pass")
    texts = said(s, "pass")
    assert texts[1] == "Everyone passed: the tiles are mixed again and Blue deals."
    assert s.dealer == 1 and s.round_number == 1 and s.turn == 2


def deal(state: TexasState, hands: dict[int, list[str]]) -> None:
    order = [(state.dealer + 1 + i) % 4 for i in range(4)]
    for p in order:
        for tile in hands[p]:
            assert state.current_player() == CHANCE
            state.apply(Draw(tile))


def test_read_round_follow_suit_tricks_and_a_made_bid() -> None:
    s = make(tiles="read")
    deal(s, {
        1: ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "4-4"],
        2: ["5-5", "5-4", "5-3", "5-2", "5-1", "5-0", "6-0"],
        3: ["4-3", "4-2", "4-1", "4-0", "3-3", "3-2", "3-1"],
        0: ["3-0", "2-2", "2-1", "2-0", "1-1", "1-0", "0-0"],
    })
    said(s, "bid 30")
    said(s, "pass")
    said(s, "pass")
    said(s, "pass")
    said(s, "trump 6")
    assert said(s, "play 6-6") == ["Blue leads the double six: trumps."]
    assert refused(s, "play 5-5") == "Green must follow trumps: Green holds the six-blank"
    assert refused(s, "play 6-1") == "Blue holds the six-one"
    said(s, "play 6-0")
    said(s, "play 4-1")
    texts = said(s, "play 0-0")
    assert texts[-1] == "Blue takes the trick with the double six: 6 points with the four-one."
    assert s.taken == [0, 6] and s.turn == 1
    texts = []
    while s.phase == "play":
        action = s.legal_actions()[0]
        texts += [e.describe(NAMES) for e in s.apply(action)]
    assert ("Blue and Yellow take 42 and make the bid of 30. Red and Green add 0, Blue and"
            " Yellow add 42: 0 to 42.") in texts
    assert s.scores_by_side == [0, 42] and s.dealer == 1 and s.phase == "deal"


def test_hidden_round_points_out_a_renege() -> None:
    s = make()
    for text in ("bid 30", "pass", "pass", "pass", "trump none"):
        said(s, text)
    said(s, "6-6")  # Blue leads sixes
    said(s, "5-5")  # Green does not follow
    said(s, "4-1")
    said(s, "0-0")
    said(s, "6-5")  # Blue leads sixes again
    texts = said(s, "6-1")  # Green follows now: Green held it in trick 1
    assert texts == ["Green plays the six-one.",
                     "Note: Green did not follow sixes in trick 1 while holding the six-one."]
    assert refused(s, "6-6") == "The double six was played already"
    with pytest.raises(IllegalAction, match="no end"):
        s.apply(Play(3, "6-4", "left"))


def test_scoring_set_and_limit_bids() -> None:
    s = make()
    s.bidder, s.high, s.taken = 1, 35, [10, 32]  # Blue and Yellow bid 35, take 32: set
    s._score_round()
    assert s.scores_by_side == [10 + 35, 0]
    s = make()
    s.bidder, s.high, s.taken = 0, 84, [42, 0]  # a doubled limit bid made: counts the bid
    s._score_round()
    assert s.scores_by_side == [84, 0]
    s = make()
    s.bidder, s.high, s.taken = 0, 42, [41, 1]  # a limit bid lost: the opponents add it
    s._score_round()
    assert s.scores_by_side == [0, 42]


def test_bidder_wins_when_both_sides_go_out() -> None:
    # "If the game is close when both sides go out, the bidder is always the winner, even if
    # his or her points over 250 are less than the opposition's."
    s = make()
    s.scores_by_side = [245, 200]
    s.bidder, s.high, s.taken = 1, 30, [12, 30]
    s._score_round()
    assert s.scores_by_side == [257, 230] and s.winners() == (0, 2)  # only they are out
    s = make()
    s.scores_by_side = [245, 240]
    s.bidder, s.high, s.taken = 1, 30, [12, 30]
    s._score_round()
    assert s.scores_by_side == [257, 270] and s.winners() == (1, 3)
    s = make()
    s.scores_by_side = [245, 240]
    s.bidder, s.high, s.taken = 0, 30, [30, 12]
    s._score_round()
    assert s.winners() == (0, 2)
    s = make()
    s.scores_by_side = [248, 250 - 12]
    s.bidder, s.high, s.taken = 0, 30, [30, 12]
    s._score_round()
    assert s.scores_by_side == [278, 250] and s.winners() == (0, 2)


def test_random_games() -> None:
    rng = random.Random("texas-42")
    for n in range(60):
        s = make(tiles="read" if n % 2 else "count")
        steps = 0
        while not s.is_terminal():
            if s.current_player() == CHANCE:
                s.apply(s.sample_chance(rng))
            else:
                s.apply(rng.choice(s.legal_actions()))
            steps += 1
            assert steps < s.game.max_length()
            if s.phase == "bid" and not s.bids and s.read:
                assert sorted(t for h in s.hands for t in h) == sorted(ALL_TILES)
        assert max(s.scores_by_side) >= 250


def test_read_refuses_a_tile_not_dealt_to_the_player() -> None:
    s = make(tiles="read")
    rng = random.Random(1)
    while s.current_player() == CHANCE:
        s.apply(s.sample_chance(rng))
    for text in ("bid 30", "pass", "pass", "pass", "trump 5"):
        said(s, text)
    other = s.hands[2][0]
    assert refused(s, f"play {other}").startswith("Green holds the")
    assert isinstance(s.legal_actions()[0], Play) and Bid(1, 0) not in s.legal_actions()
