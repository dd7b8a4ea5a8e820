"""Domino Poker (rulebook 000): the 20 tiles, the rulebook's hand table, the showdown."""

from __future__ import annotations

import random

import pytest

from companion.engine import CHANCE, Draw, GameOver, IllegalAction
from companion.games import find
from companion.games.dominoes.actions import ShowHand
from companion.games.dominoes.poker import (
    CATEGORIES,
    POKER_TILES,
    Fold,
    PokerState,
    hand_words,
    rank,
)

NAMES = ["Red", "Blue", "Green", "Yellow"]


def make(players: int = 4, **options: object) -> PokerState:
    state = find("domino-poker")(NAMES[:players], options).new_state()
    assert isinstance(state, PokerState)
    return state


def said(state: PokerState, text: str) -> list[str]:
    action = state.game.parse_action(state, text)
    return [e.describe(state.game.players) for e in state.apply(action)]


def category(*tiles: str) -> str:
    return CATEGORIES[rank(tiles)[0]]


def test_twenty_tiles_without_blanks_or_double_one() -> None:
    assert len(POKER_TILES) == 20
    assert "1-1" not in POKER_TILES and not any("0" in t for t in POKER_TILES)


def test_rulebook_examples_of_each_hand() -> None:
    # The rulebook's own examples.
    assert category("6-1", "6-2", "6-3", "6-5", "6-6") == "a flush"
    assert category("4-6", "4-5", "4-4", "4-3", "2-1") == "a four straight"
    assert category("6-6", "3-3", "2-2", "2-4", "2-1") == "a full hand"
    assert category("3-1", "3-2", "3-3", "3-4", "3-5") == "a five straight"
    assert category("6-6", "5-5", "4-4", "3-3", "2-2") == "a royal"
    assert category("6-6", "5-5", "4-3", "2-1", "5-2") == "one pair"
    assert category("6-6", "5-5", "4-4", "2-1", "5-3") == "threes"
    assert category("6-6", "5-5", "4-4", "3-3", "2-1") == "fours"
    assert category("6-1", "6-2", "6-3", "6-4", "6-5") == "a six straight"
    assert category("6-5", "4-3", "2-1", "5-2", "6-3") == "the highest piece"


def test_table_order_lowest_first() -> None:
    hands = [
        ("6-5", "4-3", "2-1", "5-2", "6-3"), ("6-6", "5-5", "4-3", "2-1", "5-2"),
        ("6-1", "6-2", "6-3", "6-5", "6-6"), ("6-6", "5-5", "4-4", "2-1", "5-3"),
        ("4-6", "4-5", "4-4", "4-3", "2-1"), ("6-6", "3-3", "2-2", "2-4", "2-1"),
        ("3-1", "3-2", "3-3", "3-4", "3-5"), ("6-6", "5-5", "4-4", "3-3", "2-1"),
        ("6-1", "6-2", "6-3", "6-4", "6-5"), ("6-6", "5-5", "4-4", "3-3", "2-2"),
    ]
    ranks = [rank(h) for h in hands]
    assert ranks == sorted(ranks) and len({r[0] for r in ranks}) == len(CATEGORIES)


def test_highest_piece_decides_otherwise() -> None:
    assert rank(("6-5", "4-3", "2-1", "5-2", "6-3")) > rank(("6-4", "5-3", "4-1", "5-2", "3-2"))
    assert hand_words(("6-5", "4-3", "2-1", "5-2", "6-3")) == "no hand, the six-five highest"


def test_showdown_with_a_fold() -> None:
    s = make()
    assert "Red to show the hand" in s.expected()
    assert "not 4" in _refused(s, "hand 6-6 5-5 4-4 3-3")
    assert "not used in domino poker" in _refused(s, "hand 6-0 5-5 4-4 3-3 2-2")
    assert said(s, "hand 6-6 5-5 4-3 2-1 5-2") == [
        "Red shows double six, double five, four-three, two-one and five-two: one pair (two"
        " doubles)."]
    assert "was shown already" in _refused(s, "hand 6-6 4-4 3-3 2-2 6-5")
    said(s, "fold")  # Blue
    said(s, "hand 4-4 3-3 5-4 4-1 3-1")  # Green: one pair
    texts = said(s, "hand 6-1 6-2 6-3 6-4 6-5")  # Yellow
    assert texts[1] == "Yellow wins the deal with a six straight (five sixes in sequence)."
    assert texts[2] == "Yellow wins the game!"
    assert s.is_terminal() and s.winners() == (3,)


def test_everyone_else_folds_and_deals_rotate() -> None:
    s = make(players=3, deals=2)
    said(s, "fold")
    texts = said(s, "fold")
    assert texts[1] == "Everyone else folded: Green wins the deal."
    assert s.deal_number == 2 and s.turn == 1  # the first to show moves to the left
    assert s.current_player() == 1
    said(s, "fold")  # Blue
    said(s, "fold")  # Green: Red is left
    assert s.is_terminal() and s.winners() == (0, 2)


def test_read_deal_and_last_player_cannot_fold() -> None:
    s = make(players=2, tiles="read")
    for tile in ("6-6", "5-5", "4-4", "3-3", "2-2", "6-5", "6-4", "6-3", "6-2", "6-1"):
        assert s.current_player() == CHANCE
        s.apply(Draw(tile))
    with pytest.raises(IllegalAction):
        s.apply(Draw("5-4"))  # no tile is expected now
    assert "was not dealt the six-five" in _refused(s, "hand 6-5 5-5 4-4 3-3 2-2")
    said(s, "show")
    texts = said(s, "show")
    assert texts[-2] == "Red wins the deal with a royal (five doubles)."
    events = make(players=2).apply(Fold(0))
    assert any(isinstance(e, GameOver) for e in events)  # Blue takes the only deal


def test_random_showdowns() -> None:
    rng = random.Random("domino-poker")
    for _ in range(300):
        s = make(players=rng.randint(2, 4), tiles=rng.choice(["read", "count"]), deals=3)
        steps = 0
        while not s.is_terminal():
            if s.current_player() == CHANCE:
                s.apply(s.sample_chance(rng))
            else:
                s.apply(rng.choice(s.legal_actions()))
            steps += 1
            assert steps <= s.game.max_length()
        assert sum(s.wins) >= 3 and s.winners()


def _refused(state: PokerState, text: str) -> str:
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        state.apply(state.game.parse_action(state, text))
    assert state.to_json() == before
    return err.value.reason


def test_show_hand_action_round_trip() -> None:
    assert ShowHand(1, ("6-6",)) == ShowHand(1, ("6-6",))


def test_hidden_hands_are_never_offered_as_the_players_choices() -> None:
    # issue 22: with hidden hands the legal actions hold example hands from the unseen tiles;
    # saying them as "Choose: hand 6-6 6-5 ..." offered made-up hands as the player's own.
    s = make(2)
    examples = [a for a in s.legal_actions() if getattr(a, "tiles", ())]
    assert examples  # the examples exist for random play and the generic tests
    for text in (s.choices_text(), s.choices_after_move(), s.options_text()):
        assert text == "Red may show the hand, saying its five tiles (hand 6-6 5-5 ...), or fold."
        assert not any(t in text for a in examples for t in a.tiles if t not in ("6-6", "5-5"))
