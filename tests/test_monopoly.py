"""Monopoly rules from the rulebook's wording (000 "MONOPOLY"), one behaviour per test."""

from __future__ import annotations

import pytest

from companion.engine import CHANCE, Draw, IllegalAction, Shuffle, Throw
from companion.games import find
from companion.games.monopoly import actions as A
from companion.games.monopoly.edition import load_edition
from companion.games.monopoly.game import Monopoly
from companion.games.monopoly.phases import BUY, TAX_CHOICE
from companion.games.monopoly.state import MonopolyState

CAR, HAT, DOG, SHIP = range(4)
ED = load_edition("classic")
S = {name: i for i, name in enumerate(ED.names) if ED.is_property[i]}
GO, JAIL = 0, 10


def new(players: tuple[str, ...] = ("Car", "Hat", "Dog", "Ship"), **opts: object):
    game = Monopoly(list(players), {"cards": "physical", "rent": "auto", **opts})
    return game, game.new_state()


def said(game: Monopoly, events: list) -> list[str]:
    return [e.describe(game.players) for e in events]


def at(st: MonopolyState, player: int, space: int) -> None:
    st.turn = player
    st.pos[player] = space


def give(st: MonopolyState, player: int, *names: str) -> None:
    for name in names:
        st.owner[S[name]] = player


def money_total(st: MonopolyState) -> int:
    return sum(st.cash) - st.issued + st.collected


def test_registered_and_edition_data():
    assert find("monopoly") is Monopoly
    assert len(ED.properties) == 28 and len(ED.railroads) == 4 and len(ED.utilities) == 2
    assert len(ED.decks["chance"]) == 16 and len(ED.decks["chest"]) == 16
    assert ED.rent[S["Park Place"]][3] == 1100
    assert ED.names[ED.nearest[2][7]] == "Pennsylvania Railroad"  # 2 == RAILROAD


def test_throw_moves_and_offers_the_property_in_words():
    game, st = new()
    at(st, HAT, GO)
    ev = st.apply(Throw((6, 2)))
    assert said(game, ev) == [
        "Hat throws six and two, eight, to Vermont Avenue.",
        "Unowned, 100 dollars: buy or auction?",
    ]
    assert st.phase == BUY and st.current_player() == HAT
    assert st.legal_actions() == [A.Buy(HAT), A.Auction(HAT)]
    st.apply(A.Buy(HAT))
    assert st.owner[S["Vermont Avenue"]] == HAT and st.cash[HAT] == 1400
    assert st.current_player() == CHANCE and st.turn == DOG


def test_passing_go_pays_salary_once():
    game, st = new()
    at(st, SHIP, 38)
    ev = st.apply(Throw((2, 3)))
    assert "Ship passes GO and collects 200." in said(game, ev)
    assert st.cash[SHIP] == 1700 and st.pos[SHIP] == 3


def test_landing_on_go_pays_salary():
    game, st = new()
    at(st, CAR, 35)
    ev = st.apply(Throw((2, 3)))
    assert "Car lands on GO and collects 200." in said(game, ev)
    assert st.cash[CAR] == 1700


def test_double_salary_when_advance_to_go_is_drawn_just_after_passing_it():
    game, st = new()
    at(st, CAR, 33)
    st.apply(Throw((4, 5)))  # passes GO to Community Chest, 2 spaces beyond
    assert st.pos[CAR] == 2 and st.cash[CAR] == 1700
    request = st.chance()
    assert request is not None and request.kind == "card" and request.deck == "chest"
    ev = st.apply(Draw("ADVANCE-GO"))
    assert st.cash[CAR] == 1900 and st.pos[CAR] == GO
    assert "Car lands on GO and collects 200." in said(game, ev)


def test_declined_property_is_auctioned_to_anyone_including_the_decliner():
    game, st = new()
    at(st, HAT, GO)
    st.apply(Throw((6, 2)))
    ev = st.apply(A.Auction(HAT))
    assert "bids may start at any price" in said(game, ev)[0]
    st.apply(A.Bid(DOG, 5))  # any player, any opening price
    st.apply(A.Bid(HAT, 60))
    with pytest.raises(IllegalAction, match="must beat 60"):
        st.apply(A.Bid(CAR, 60))
    for p in (SHIP, CAR, DOG):
        st.apply(A.Pass(p))
    assert st.owner[S["Vermont Avenue"]] == HAT and st.cash[HAT] == 1440
    assert st.collected == 60 and st.turn == DOG


def test_auction_with_no_bids_leaves_the_property_with_the_bank():
    game, st = new(("Car", "Hat"))
    at(st, HAT, GO)
    st.apply(Throw((6, 2)))
    st.apply(A.Auction(HAT))
    st.apply(A.Pass(CAR))
    ev = st.apply(A.Pass(HAT))
    assert said(game, ev)[1] == "No bids: Vermont Avenue stays with the Bank."
    assert st.owner[S["Vermont Avenue"]] == -1


def test_bid_above_cash_is_refused_and_changes_nothing():
    game, st = new()
    at(st, HAT, GO)
    st.apply(Throw((6, 2)))
    st.apply(A.Auction(HAT))
    before = st.to_json()
    with pytest.raises(IllegalAction, match="has only 1,500"):
        st.apply(A.Bid(DOG, 2000))
    assert st.to_json() == before


def rent_paid(st: MonopolyState, payer: int, start: int, dice: tuple[int, int]) -> int:
    at(st, payer, start)
    before = st.cash[payer]
    st.apply(Throw(dice))
    return before - st.cash[payer]


def test_rent_from_title_deed_and_complete_group():
    game, st = new()
    give(st, CAR, "Baltic Avenue")
    assert rent_paid(st, DOG, GO, (1, 2)) == 4
    give(st, CAR, "Mediterranean Avenue")
    assert rent_paid(st, HAT, GO, (1, 2)) == 8


def test_double_rent_holds_when_another_lot_of_the_group_is_mortgaged():
    game, st = new()
    give(st, CAR, "Baltic Avenue", "Mediterranean Avenue")
    st.mort[S["Mediterranean Avenue"]] = True
    assert rent_paid(st, DOG, GO, (1, 2)) == 8
    assert "unimproved in the complete Brown group" in st.why


def test_no_rent_on_mortgaged_property():
    game, st = new()
    give(st, CAR, "Baltic Avenue", "Mediterranean Avenue")
    st.mort[S["Baltic Avenue"]] = True
    at(st, DOG, GO)
    ev = st.apply(Throw((1, 2)))
    assert st.cash[DOG] == 1500 and st.cash[CAR] == 1500
    assert "Baltic Avenue: mortgaged, no rent." in said(game, ev)


def test_rent_with_houses_is_announced_with_the_buildings():
    game, st = new()
    give(st, CAR, "Park Place", "Boardwalk")
    st.bld[S["Park Place"]] = 3
    at(st, DOG, 30 + 1)
    ev = st.apply(Throw((3, 3)))
    assert "Dog pays Car 1,100 rent: Park Place with three houses." in said(game, ev)


@pytest.mark.parametrize("count,expected", [(1, 25), (2, 50), (3, 100), (4, 200)])
def test_railroad_rent_by_number_owned(count, expected):
    game, st = new()
    for s in ED.railroads[:count]:
        st.owner[s] = CAR
    st.owner[5] = CAR  # Reading is among them
    assert rent_paid(st, DOG, GO, (2, 3)) == expected


def test_utility_rent_is_four_or_ten_times_the_dice():
    game, st = new()
    give(st, CAR, "Electric Company")
    assert rent_paid(st, DOG, 4, (3, 5)) == 32
    give(st, CAR, "Water Works")
    assert rent_paid(st, HAT, 4, (3, 5)) == 80


def test_nearest_railroad_card_pays_twice_the_rent():
    game, st = new()
    give(st, CAR, "Pennsylvania Railroad", "Reading Railroad")
    at(st, DOG, 2)
    st.apply(Throw((2, 3)))  # Chance at 7
    st.apply(Draw("NEAREST-RAILROAD-1"))
    assert st.pos[DOG] == S["Pennsylvania Railroad"]
    assert st.cash[DOG] == 1500 - 100 and st.cash[CAR] == 1600
    assert "doubled by the card" in st.why


def test_nearest_railroad_card_offers_an_unowned_railroad_and_passes_go():
    game, st = new()
    at(st, DOG, 30)
    st.apply(Throw((3, 3)))  # Chance at 36
    ev = st.apply(Draw("NEAREST-RAILROAD-2"))
    assert st.pos[DOG] == S["Reading Railroad"] and st.cash[DOG] == 1700
    assert st.phase == BUY and "Unowned, 200 dollars: buy or auction?" in said(game, ev)


def test_nearest_utility_card_throws_again_and_pays_ten_times():
    game, st = new()
    give(st, CAR, "Electric Company")
    at(st, DOG, 4)
    st.apply(Throw((1, 2)))  # Chance at 7
    st.apply(Draw("NEAREST-UTILITY"))
    assert st.current_player() == CHANCE and st.chance().kind == "dice"
    st.apply(Throw((2, 2)))
    assert st.cash[DOG] == 1460 and st.cash[CAR] == 1540
    assert st.turn == SHIP  # the utility throw is not a move, and no doubles bonus from it


def test_income_tax_choice_is_made_before_worth_is_known():
    game, st = new()
    at(st, CAR, 1)
    ev = st.apply(Throw((1, 2)))
    assert st.phase == TAX_CHOICE and "Decide before adding it up" in said(game, ev)[-1]
    st.apply(A.ChooseTax(CAR, True))
    assert st.cash[CAR] == 1500 - 150  # 10% of 1,500 cash, no property
    game, st = new()
    give(st, CAR, "Boardwalk")
    st.bld[S["Boardwalk"]] = 0
    at(st, CAR, 1)
    st.apply(Throw((1, 2)))
    st.apply(A.ChooseTax(CAR, False))
    assert st.cash[CAR] == 1300


def test_income_tax_percent_counts_property_and_buildings_at_cost():
    game, st = new()
    give(st, CAR, "Park Place", "Boardwalk")
    st.bld[S["Park Place"]] = 5  # a hotel: 5 x 200
    st.mort[S["Boardwalk"]] = True  # printed price still counts
    at(st, CAR, 1)
    st.apply(Throw((1, 2)))
    st.apply(A.ChooseTax(CAR, True))
    assert st.cash[CAR] == 1500 - (1500 + 350 + 400 + 1000) // 10


def test_luxury_tax():
    game, st = new()
    at(st, CAR, 35)
    st.apply(Throw((1, 2)))
    assert st.cash[CAR] == 1425


def test_go_to_jail_space_no_salary_turn_ends():
    game, st = new()
    at(st, CAR, 24)
    ev = st.apply(Throw((3, 3)))  # doubles, but the turn ends in Jail
    assert st.jail[CAR] and st.pos[CAR] == JAIL and st.cash[CAR] == 1500
    assert st.turn == HAT
    assert any("goes to Jail" in t for t in said(game, ev))


def test_three_doubles_send_to_jail_without_moving():
    game, st = new()
    at(st, CAR, GO)
    st.apply(Throw((1, 1)))  # Community Chest
    st.apply(Draw("BEAUTY-CONTEST"))
    st.apply(Throw((2, 2)))  # 6 Oriental Avenue
    st.apply(A.Auction(CAR))
    for p in (HAT, DOG, SHIP, CAR):
        st.apply(A.Pass(p))
    st.apply(Throw((3, 3)))
    assert st.jail[CAR] and st.pos[CAR] == JAIL and st.turn == HAT


def test_just_visiting_is_no_penalty():
    game, st = new()
    at(st, CAR, 6)
    st.apply(Throw((1, 3)))
    assert not st.jail[CAR] and st.pos[CAR] == JAIL and st.cash[CAR] == 1500


def jailed(players=("Car", "Hat"), **opts):
    game, st = new(players, **opts)
    st.pos[CAR] = JAIL
    st.jail[CAR] = True
    st.turn = CAR
    return game, st


def test_doubles_in_jail_move_out_without_another_throw():
    game, st = jailed()
    st.apply(Throw((2, 2)))
    assert not st.jail[CAR] and st.pos[CAR] == 14 and st.current_player() == CAR
    st.apply(A.Auction(CAR))
    st.apply(A.Pass(HAT))
    st.apply(A.Pass(CAR))
    assert st.turn == HAT


def test_third_failed_throw_forces_the_fine_and_moves():
    game, st = jailed()
    for _ in range(2):
        st.apply(Throw((1, 2)))
        assert st.jail[CAR] and st.turn == HAT
        at(st, HAT, 20)
        st.apply(Throw((1, 2)))  # Hat: Kentucky is 21, 23 Indiana... 23
        st.apply(A.Auction(HAT))
        st.apply(A.Pass(CAR))
        st.apply(A.Pass(HAT))
    with pytest.raises(IllegalAction, match="first two turns"):
        st.apply(A.PayFine(CAR))
    ev = st.apply(Throw((1, 2)))
    assert not st.jail[CAR] and st.pos[CAR] == 13 and st.cash[CAR] == 1450
    assert "Car pays the Bank 50: the Jail fine." in said(game, ev)


def test_fine_before_throwing_then_doubles_throw_again():
    game, st = jailed()
    st.apply(A.PayFine(CAR))
    assert not st.jail[CAR] and st.cash[CAR] == 1450
    st.apply(Throw((3, 3)))
    st.apply(A.Buy(CAR))
    assert st.turn == CAR and st.current_player() == CHANCE  # doubles: throws again


def test_get_out_of_jail_free_card_is_held_used_and_returned_to_the_bottom():
    game, st = new(("Car", "Hat"), cards="virtual")
    chance_ids = [c.id for c in ED.decks["chance"]]
    order = ["GET-OUT-OF-JAIL-FREE"] + [c for c in chance_ids if c != "GET-OUT-OF-JAIL-FREE"]
    st.apply(Shuffle("chance", tuple(order)))
    st.apply(Shuffle("chest", tuple(c.id for c in ED.decks["chest"])))
    at(st, CAR, 2)
    st.apply(Throw((2, 3)))
    assert st.held[CAR] == ["chance:GET-OUT-OF-JAIL-FREE"]
    assert "GET-OUT-OF-JAIL-FREE" not in st.decks["chance"] and len(st.decks["chance"]) == 15
    st.jail[CAR] = True
    st.pos[CAR] = JAIL
    st.turn = CAR
    st.apply(A.UseCard(CAR))
    assert not st.jail[CAR] and st.held[CAR] == []
    assert st.decks["chance"][-1] == "GET-OUT-OF-JAIL-FREE"


def test_held_card_cannot_be_drawn_from_a_physical_deck():
    game, st = new(("Car", "Hat"))
    st.held[HAT].append("chance:GET-OUT-OF-JAIL-FREE")
    at(st, CAR, 2)
    st.apply(Throw((2, 3)))
    request = st.chance()
    assert "GET-OUT-OF-JAIL-FREE" not in request.cards
    with pytest.raises(IllegalAction, match="held by a player"):
        st.apply(Draw("GET-OUT-OF-JAIL-FREE"))


def test_card_pays_each_player_and_collects_from_every_player():
    game, st = new()
    at(st, CAR, 4)
    st.apply(Throw((1, 2)))
    st.apply(Draw("CHAIRMAN"))
    assert st.cash == [1350, 1550, 1550, 1550]
    at(st, HAT, 14)
    st.apply(Throw((1, 2)))
    st.apply(Draw("OPERA-NIGHT"))
    assert st.cash == [1300, 1700, 1500, 1500]


def test_go_back_three_from_chance_lands_on_income_tax():
    game, st = new()
    at(st, CAR, 4)
    st.apply(Throw((1, 2)))
    st.apply(Draw("GO-BACK-3"))
    assert st.pos[CAR] == 4 and st.phase == TAX_CHOICE


def test_repairs_card_counts_houses_and_hotels():
    game, st = new()
    give(st, CAR, "Park Place", "Boardwalk")
    st.bld[S["Park Place"]] = 4
    st.bld[S["Boardwalk"]] = 5
    at(st, CAR, 15)
    st.apply(Throw((1, 1)))
    st.apply(Draw("STREET-REPAIRS"))
    assert st.cash[CAR] == 1500 - (4 * 40 + 115)


def test_money_is_conserved_by_these_payments():
    game, st = new()
    total = money_total(st)
    at(st, CAR, 33)
    st.apply(Throw((4, 5)))
    st.apply(Draw("ADVANCE-GO"))
    assert money_total(st) == total


def test_illegal_actions_change_nothing_and_say_why():
    game, st = new()
    before = st.to_json()
    for action, reason in [
        (A.Buy(CAR), "Nothing is for sale"),
        (A.Build(CAR, S["Boardwalk"]), "does not own"),
        (A.PayFine(CAR), "not in Jail"),
        (Throw((7, 1)), "1 to 6"),
        (A.DeclareBankruptcy(CAR), "owes nothing"),
        (A.Trade(CAR, HAT, give_cash=100), "may not lend"),
    ]:
        with pytest.raises(IllegalAction, match=reason):
            st.apply(action)
        assert st.to_json() == before


def test_state_json_fields():
    game, st = new()
    data = st.to_json()
    assert data["players"][0] == {
        "name": "Car", "cash": 1500, "position": 0, "space": "GO", "in_jail": False,
        "jail_turns": 0, "cards": [], "bankrupt": False}
    assert data["spaces"][39]["name"] == "Boardwalk" and data["spaces"][39]["owner"] is None
    assert data["bank"] == {"houses": 32, "hotels": 12, "issued": 0, "collected": 0}
    assert data["pending"] == {"type": "roll", "player": 0}


def test_clone_is_independent():
    game, st = new()
    copy = st.clone()
    st.apply(Throw((6, 2)))
    assert copy.pos[CAR] == 0 and copy.to_json() != st.to_json()
    assert copy.current_player() == CHANCE


def test_a_player_in_jail_still_collects_rent_and_builds():
    game, st = new()
    give(st, CAR, "Baltic Avenue", "Mediterranean Avenue")
    st.jail[CAR] = True
    st.pos[CAR] = JAIL
    at(st, DOG, GO)
    st.apply(Throw((1, 2)))
    assert st.cash[CAR] == 1508
    st.apply(A.Build(CAR, S["Baltic Avenue"]))
    assert st.bld[S["Baltic Avenue"]] == 1


def test_a_get_out_of_jail_free_card_bought_from_another_player_is_played():
    game, st = new(("Car", "Hat"))
    st.held[HAT].append("chest:GET-OUT-OF-JAIL-FREE")
    st.jail[CAR] = True
    st.pos[CAR] = JAIL
    st.apply(A.Trade(CAR, HAT, give_cash=60, take_cards=("chest:GET-OUT-OF-JAIL-FREE",)))
    st.apply(A.Accept(HAT))
    ev = st.apply(A.UseCard(CAR))
    assert not st.jail[CAR] and st.held == [[], []] and st.cash == [1440, 1560]
    assert "Car leaves Jail: uses a Get Out of Jail Free card" in said(game, ev)[0]
