"""Monopoly The Card Game (rulebook 003): deck, scoring, the lay-down test, game flow."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.games.monopoly_cards.deck import load_deck
from companion.games.monopoly_cards.scoring import (
    LayDownPlan,
    hand_value,
    plan_laydown,
    reward_value,
    score_hands,
)

DECK = load_deck()
YELLOW = ["ATLANTIC", "VENTNOR", "MARVIN"]


# --------------------------------------------------------------------------- the deck


def test_deck_has_the_counts_the_rulebook_prints():
    full = DECK.full()
    kinds: Counter[str] = Counter()
    for card in DECK.cards:
        kinds[card.kind] += card.count
    assert sum(full.values()) == 60  # "60 cards comprise the deck"
    assert kinds["property"] == 28  # "Property Cards (28)"
    assert kinds["house"] == 14 and kinds["hotel"] == 2  # "14 House and 2 Hotel cards"
    assert kinds["token"] == 6 and kinds["chance"] == 2  # Token (6), Chance (2)
    assert kinds["go"] == 4 and kinds["mr-monopoly"] == 4  # GO (4), Mr. Monopoly (4)
    assert sum(kinds[k] for k in ("token", "chance", "go", "mr-monopoly")) == 16  # 16 Bonus
    sizes = {g.id: g.size for g in DECK.groups}
    assert sizes["dark-blue"] == 2 and sizes["railroads"] == 4 and sizes["yellow"] == 3
    values = [g.value(g.size) for g in DECK.groups if g.buildable]
    assert min(values) == 50 and max(values) == 400  # "ranging from $50 to $400"
    assert DECK.group("yellow").value(3) == 300  # the Yellow example


def test_card_names_are_read_loosely():
    assert DECK.card_id("boardwalk") == "BOARDWALK"
    assert DECK.card_id("Park Place") == "PARK-PLACE"
    assert DECK.card_id("3rd house") == "H3"
    assert DECK.card_id("3rd") == "H3"
    assert DECK.card_id("mr monopoly") == "MR-MONOPOLY"
    assert DECK.card_id("Marvin Gardens") == "MARVIN"
    assert DECK.card_id("reading railroad") == "READING"


# --------------------------------------------------------------------------- scoring


def test_rulebook_yellow_example_is_3600():
    # "all three Yellow properties and 1st, 2nd, and 3rd house cards, plus 2 Token cards ...
    # your color-group's worth is $1200 ... your total winnings are $3,600."
    value = hand_value([*YELLOW, "H1", "H2", "H3", "TOKEN", "TOKEN"])
    assert value.groups[0].value == 1200
    assert value.token_value == 1200
    assert value.total == 3600


def test_hotel_adds_500_whatever_the_group():
    value = hand_value(["MEDITERRANEAN", "BALTIC", "H1", "H2", "H3", "H4", "HOTEL"])
    assert value.total == 50 * 5 + 500


def test_houses_out_of_sequence_are_worthless():
    value = hand_value([*YELLOW, "H1", "H2", "H4"])
    assert value.total == 300 * 3
    assert value.unused == ("H4",)


def test_no_houses_on_railroads_or_utilities():
    value = hand_value(["READING", "SHORT-LINE", "H1"])
    assert value.total == DECK.group("railroads").value(2)
    assert value.unused == ("H1",)


def test_go_and_mr_monopoly():
    a = hand_value([*YELLOW, "GO", "GO", "MR-MONOPOLY", "MR-MONOPOLY"])
    b = hand_value(["PARK-PLACE", "BOARDWALK", "MR-MONOPOLY"])
    c = hand_value(["MR-MONOPOLY", "GO"])
    scores = score_hands([a, b, c], [False, False, False])
    assert [s.total for s in scores] == [300 + 400 + 1000, 400, 200]


def test_tied_mr_monopoly_wins_nothing():
    a = hand_value(["MR-MONOPOLY", "MR-MONOPOLY"])
    b = hand_value(["MR-MONOPOLY", "MR-MONOPOLY"])
    assert [s.total for s in score_hands([a, b], [False, False])] == [0, 0]


def test_chance_holder_who_did_not_lay_down_scores_zero():
    a = hand_value([*YELLOW, "TOKEN"])
    b = hand_value([*YELLOW, "CHANCE", "GO"])
    scores = score_hands([a, b], [False, True])
    assert scores[0].total == 600 and scores[1].total == 0


# --------------------------------------------------------------------------- lay down


def test_rulebook_not_ready_hand_is_refused_with_the_reason():
    # "a single Orange property ... the 4th House card is worthless because the 3rd House card
    # is not present"
    plan = plan_laydown([*YELLOW, "H1", "H2", "H4", "NEW-YORK", "GO", "GO", "TOKEN", "TOKEN"])
    assert isinstance(plan, str)
    assert "Orange group is incomplete" in plan


def test_rulebook_ready_hand_uses_chance_as_3rd_house():
    # "you've drawn a Chance card and discarded the Orange property. You use the Chance card
    # to represent a 3rd House card, which makes the 4th House card valuable."
    plan = plan_laydown([*YELLOW, "H1", "H2", "H4", "CHANCE", "GO", "GO", "TOKEN"])
    assert isinstance(plan, LayDownPlan)
    assert plan.chances == ("H3",)
    assert plan.value.groups[0].houses == 4


def test_railroads_need_two_and_utilities_both():
    assert isinstance(plan_laydown(["READING", "GO"]), str)
    assert isinstance(plan_laydown(["READING", "SHORT-LINE"]), LayDownPlan)
    assert isinstance(plan_laydown([*YELLOW, "WATER"]), str)
    assert isinstance(plan_laydown([*YELLOW, "WATER", "ELECTRIC"]), LayDownPlan)


def test_bonus_cards_only_is_not_a_laydown():
    assert plan_laydown(["GO", "TOKEN"]) == "there is no complete colour-group"


def test_reward_card_replaces_the_chance_which_moves():
    # "you laid down Park Place and a Chance card to represent Boardwalk. As part of the
    # Reward, you draw the Boardwalk card. You may replace the Chance card with Boardwalk and
    # may now use the Chance card to represent a missing house, hotel or even a token."
    hand = ["PARK-PLACE", "CHANCE"]
    plan = plan_laydown(hand)
    assert isinstance(plan, LayDownPlan) and plan.chances == ("BOARDWALK",)
    value = reward_value(hand, plan, ["BOARDWALK", "KENTUCKY"])
    # Boardwalk + Park Place $400 and the freed Chance as a Token $400 (better than a house).
    assert value.total == 800
    assert "KENTUCKY" in value.unused


def test_chance_stays_where_it_was_laid_without_the_card():
    hand = ["PARK-PLACE", "CHANCE"]
    plan = plan_laydown(hand)
    assert isinstance(plan, LayDownPlan)
    value = reward_value(hand, plan, ["H1"])
    assert value.total == 800  # the 1st House on the dark blue group, the Chance still Boardwalk


def test_declared_chance_is_checked():
    assert isinstance(plan_laydown([*YELLOW, "CHANCE"], ["TOKEN"]), LayDownPlan)
    bad = plan_laydown([*YELLOW, "CHANCE"], ["BOARDWALK"])
    assert isinstance(bad, str) and "cannot stand for Boardwalk" in bad


@pytest.mark.parametrize("houses,total", [((), 300), (("H1",), 600), (("H1", "H2"), 900)])
def test_each_house_adds_the_set_value(houses, total):
    assert hand_value([*YELLOW, *houses]).total == total
