"""Building, selling, mortgages, trades and bankruptcy (rulebook 000, HOUSES to BANKRUPTCY)."""

from __future__ import annotations

import pytest

from companion.engine import CHANCE, IllegalAction, Throw
from companion.games.monopoly import actions as A
from tests.test_monopoly import CAR, DOG, HAT, SHIP, S, at, give, money_total, new, said

LIGHT_BLUE = ("Oriental Avenue", "Vermont Avenue", "Connecticut Avenue")


def blues(st, owner=CAR):
    give(st, owner, *LIGHT_BLUE)


def test_build_needs_the_whole_colour_group():
    game, st = new()
    give(st, CAR, "Oriental Avenue", "Vermont Avenue")
    with pytest.raises(IllegalAction, match="needs the whole Light Blue group"):
        st.apply(A.Build(CAR, S["Oriental Avenue"]))


def test_build_evenly_refusal_names_the_lot():
    game, st = new()
    blues(st)
    st.apply(A.Build(CAR, S["Vermont Avenue"]))
    with pytest.raises(IllegalAction) as err:
        st.apply(A.Build(CAR, S["Vermont Avenue"]))
    assert err.value.reason == "You must build evenly: Oriental Avenue has no house yet"
    st.apply(A.Build(CAR, S["Oriental Avenue"]))
    st.apply(A.Build(CAR, S["Connecticut Avenue"]))
    st.apply(A.Build(CAR, S["Vermont Avenue"]))
    assert [st.bld[S[n]] for n in LIGHT_BLUE] == [1, 2, 1]
    assert st.cash[CAR] == 1500 - 4 * 50 and st.bank_houses == 28


def test_no_building_while_a_lot_of_the_group_is_mortgaged():
    game, st = new()
    blues(st)
    st.mort[S["Connecticut Avenue"]] = True
    with pytest.raises(IllegalAction, match="Connecticut Avenue is mortgaged"):
        st.apply(A.Build(CAR, S["Oriental Avenue"]))


def test_double_rent_on_unimproved_lot_of_a_group_with_houses():
    game, st = new()
    blues(st)
    st.bld[S["Vermont Avenue"]] = 1
    at(st, DOG, 4)
    st.apply(Throw((1, 1)))  # Oriental, unimproved
    assert st.cash[CAR] == 1512


def test_hotel_needs_four_houses_on_every_lot_and_returns_them():
    game, st = new()
    blues(st)
    for s in LIGHT_BLUE:
        st.bld[S[s]] = 4
    st.bank_houses -= 12
    st.bld[S["Vermont Avenue"]] = 3
    st.bank_houses += 1
    with pytest.raises(IllegalAction, match="build evenly: Vermont Avenue has only three"):
        st.apply(A.Build(CAR, S["Oriental Avenue"]))
    st.apply(A.Build(CAR, S["Vermont Avenue"]))
    houses = st.bank_houses
    ev = st.apply(A.Build(CAR, S["Oriental Avenue"]))
    assert st.bld[S["Oriental Avenue"]] == 5 and st.bank_hotels == 11
    assert st.bank_houses == houses + 4
    assert said(game, ev) == ["Car pays 50: Oriental Avenue now has a hotel."]
    with pytest.raises(IllegalAction, match="already has a hotel"):
        st.apply(A.Build(CAR, S["Oriental Avenue"]))


def test_house_shortage_stops_building():
    game, st = new()
    blues(st)
    st.bank_houses = 0
    with pytest.raises(IllegalAction, match="no houses left"):
        st.apply(A.Build(CAR, S["Oriental Avenue"]))


def test_sell_houses_evenly_at_half_price():
    game, st = new()
    blues(st)
    for name, b in zip(LIGHT_BLUE, (2, 2, 1), strict=True):
        st.bld[S[name]] = b
    st.bank_houses -= 5
    with pytest.raises(IllegalAction, match="sell evenly: Oriental Avenue has two houses"):
        st.apply(A.SellBuilding(CAR, S["Connecticut Avenue"]))
    ev = st.apply(A.SellBuilding(CAR, S["Oriental Avenue"]))
    assert st.cash[CAR] == 1525 and st.bank_houses == 28
    assert "sells back to the Bank for 25" in said(game, ev)[0]


def test_hotel_broken_down_needs_four_houses_from_the_bank():
    game, st = new()
    give(st, CAR, "Park Place", "Boardwalk")
    st.bld[S["Park Place"]] = 5
    st.bld[S["Boardwalk"]] = 5
    st.bank_hotels = 10
    st.bank_houses = 3  # shortage
    with pytest.raises(IllegalAction, match="only 3 houses"):
        st.apply(A.SellBuilding(CAR, S["Boardwalk"]))
    # the whole group at once, down to one house each: 2 houses from the Bank
    total = money_total(st)
    st.apply(A.SellGroup(CAR, S["Boardwalk"], 1))
    assert st.bld[S["Park Place"]] == 1 and st.bld[S["Boardwalk"]] == 1
    assert st.bank_houses == 1 and st.bank_hotels == 12
    assert st.cash[CAR] == 1500 + 8 * 100  # four house-levels per lot at half of 200
    assert money_total(st) == total


def test_hotels_sold_at_once():
    game, st = new()
    give(st, CAR, "Park Place", "Boardwalk")
    st.bld[S["Park Place"]] = 5
    st.bld[S["Boardwalk"]] = 5
    st.bank_hotels = 10
    st.apply(A.SellGroup(CAR, S["Park Place"], 0))
    assert st.bld[S["Park Place"]] == st.bld[S["Boardwalk"]] == 0
    assert st.cash[CAR] == 1500 + 10 * 100 and st.bank_hotels == 12 and st.bank_houses == 32


def test_hotel_breakdown_one_house_at_a_time():
    game, st = new()
    give(st, CAR, "Park Place", "Boardwalk")
    st.bld[S["Park Place"]] = 5
    st.bld[S["Boardwalk"]] = 5
    st.bank_hotels = 10
    st.apply(A.SellBuilding(CAR, S["Boardwalk"]))
    assert st.bld[S["Boardwalk"]] == 4 and st.bank_houses == 28 and st.cash[CAR] == 1600
    with pytest.raises(IllegalAction, match="sell evenly: Park Place has a hotel"):
        st.apply(A.SellBuilding(CAR, S["Boardwalk"]))


def test_building_shortage_auction_and_placement():
    game, st = new()
    blues(st, CAR)
    give(st, HAT, "Park Place", "Boardwalk")
    st.bank_houses = 1
    with pytest.raises(IllegalAction, match="Dog cannot build a house now"):
        st.apply(A.AuctionBuilding(DOG))
    st.apply(A.AuctionBuilding(CAR))
    assert st.auction is not None and sorted(st.auction.bidders) == [CAR, HAT]
    st.apply(A.Bid(st.current_player(), 120))
    other = st.current_player()
    st.apply(A.Pass(other))
    winner = HAT if other == CAR else CAR
    assert st.place == (winner, False) and st.current_player() == winner
    where = S["Park Place"] if winner == HAT else S["Oriental Avenue"]
    assert A.Build(winner, where) in st.legal_actions()
    st.apply(A.Build(winner, where))
    assert st.bld[where] == 1 and st.bank_houses == 0 and st.cash[winner] == 1380
    assert st.place is None and st.current_player() == CHANCE


def test_only_one_player_able_to_build_buys_at_the_printed_price():
    game, st = new()
    blues(st)
    st.bank_houses = 1
    with pytest.raises(IllegalAction, match="Only Car can build"):
        st.apply(A.AuctionBuilding(CAR))


def test_mortgage_and_lift_with_ten_percent():
    game, st = new()
    give(st, CAR, "Electric Company")
    st.apply(A.Mortgage(CAR, S["Electric Company"]))
    assert st.cash[CAR] == 1575 and st.mort[S["Electric Company"]]
    st.apply(A.Unmortgage(CAR, S["Electric Company"]))
    assert st.cash[CAR] == 1575 - 83  # 75 + 7.50 rounded to the dollar
    assert not st.mort[S["Electric Company"]]


def test_no_mortgage_while_the_group_has_buildings():
    game, st = new()
    blues(st)
    st.bld[S["Oriental Avenue"]] = 1
    st.bank_houses -= 1
    with pytest.raises(IllegalAction, match="Sell the buildings of the Light Blue group first"):
        st.apply(A.Mortgage(CAR, S["Vermont Avenue"]))


def test_trade_refused_while_the_group_has_buildings():
    game, st = new()
    blues(st)
    st.bld[S["Oriental Avenue"]] = 1
    with pytest.raises(IllegalAction, match="cannot be sold while buildings stand"):
        st.apply(A.Trade(CAR, HAT, give=(S["Vermont Avenue"],), take_cash=300))


def test_trade_of_mortgaged_property_charges_ten_percent_now_and_again_on_lifting():
    game, st = new()
    give(st, CAR, "Boardwalk")
    st.mort[S["Boardwalk"]] = True
    st.apply(A.Trade(CAR, HAT, give=(S["Boardwalk"],), take_cash=150))
    assert st.current_player() == HAT
    ev = st.apply(A.Accept(HAT))
    assert st.owner[S["Boardwalk"]] == HAT and st.cash[CAR] == 1650
    assert "lift it now for 220, or keep it mortgaged paying 20 interest now" in said(game, ev)[-1]
    assert st.current_player() == HAT
    assert st.legal_actions() == [A.Unmortgage(HAT, S["Boardwalk"]),
                                  A.KeepMortgaged(HAT, S["Boardwalk"])]
    st.apply(A.KeepMortgaged(HAT, S["Boardwalk"]))
    assert st.cash[HAT] == 1500 - 150 - 20
    st.apply(A.Unmortgage(HAT, S["Boardwalk"]))
    assert st.cash[HAT] == 1330 - 220


def test_trade_of_mortgaged_property_lifted_at_once():
    game, st = new()
    give(st, CAR, "Boardwalk")
    st.mort[S["Boardwalk"]] = True
    st.apply(A.Trade(CAR, HAT, give=(S["Boardwalk"],), take_cash=150))
    st.apply(A.Accept(HAT))
    st.apply(A.Unmortgage(HAT, S["Boardwalk"]))
    assert st.cash[HAT] == 1500 - 150 - 220 and not st.mort[S["Boardwalk"]]
    assert st.current_player() == CHANCE


def test_rejected_trade_changes_nothing_but_closes():
    game, st = new()
    give(st, CAR, "Boardwalk")
    st.apply(A.Trade(CAR, HAT, give=(S["Boardwalk"],), take_cash=150))
    with pytest.raises(IllegalAction, match="First Hat must accept or reject"):
        st.apply(A.Mortgage(CAR, S["Boardwalk"]))
    ev = st.apply(A.Reject(HAT))
    assert said(game, ev) == ["Hat rejects Car's offer."]
    assert st.owner[S["Boardwalk"]] == CAR and st.cash[HAT] == 1500


def test_get_out_of_jail_free_card_sold_between_players():
    game, st = new()
    st.held[CAR].append("chest:GET-OUT-OF-JAIL-FREE")
    st.apply(A.Trade(CAR, DOG, give_cards=("chest:GET-OUT-OF-JAIL-FREE",), take_cash=40))
    st.apply(A.Accept(DOG))
    assert st.held[DOG] == ["chest:GET-OUT-OF-JAIL-FREE"] and st.cash[CAR] == 1540


def test_players_may_not_lend_money():
    game, st = new()
    with pytest.raises(IllegalAction, match="may not lend"):
        st.apply(A.Trade(CAR, HAT, give_cash=500))


def indebted(owner=CAR, payer=DOG, rent_space="Park Place", houses=5, cash=100):
    game, st = new()
    give(st, owner, "Park Place", "Boardwalk")
    st.bld[S["Park Place"]] = houses
    st.bank_hotels -= 1
    st.cash[payer] = cash
    at(st, payer, S[rent_space] - 6)
    st.apply(Throw((2, 4)))
    return game, st


def test_debt_waits_while_the_debtor_raises_money():
    game, st = indebted()
    give(st, DOG, "Baltic Avenue")
    assert st.current_player() == DOG and st.debts
    assert A.Mortgage(DOG, S["Baltic Avenue"]) in st.legal_actions()
    with pytest.raises(IllegalAction, match="raise money before spending"):
        st.apply(A.Unmortgage(DOG, S["Baltic Avenue"]))
    st.mort[S["Baltic Avenue"]] = False
    st.apply(A.Mortgage(DOG, S["Baltic Avenue"]))  # 130 < 1,500: still short
    assert st.debts and st.cash[DOG] == 130


def test_bankruptcy_to_a_player_hands_over_everything_with_buildings_at_half():
    game, st = indebted(owner=CAR, payer=DOG)
    give(st, DOG, "Oriental Avenue", "Vermont Avenue", "Connecticut Avenue", "Boardwalk")
    # Dog's buildings: two houses on each light blue
    give(st, CAR, "Park Place")
    for name in ("Oriental Avenue", "Vermont Avenue", "Connecticut Avenue"):
        st.owner[S[name]] = DOG
        st.bld[S[name]] = 2
    st.bank_houses -= 6
    st.owner[S["Boardwalk"]] = DOG
    st.mort[S["Boardwalk"]] = True
    st.held[DOG].append("chance:GET-OUT-OF-JAIL-FREE")
    total = money_total(st)
    ev = st.apply(A.DeclareBankruptcy(DOG))
    assert "Dog is bankrupt to Car and retires from the game." in said(game, ev)
    assert st.out[DOG] and st.cash[DOG] == 0
    assert st.cash[CAR] == 1500 + 100 + 6 * 25
    assert all(st.owner[S[n]] == CAR for n in ("Oriental Avenue", "Boardwalk"))
    assert st.bank_houses == 32 - 0 and st.bld[S["Oriental Avenue"]] == 0
    assert st.held[CAR] == ["chance:GET-OUT-OF-JAIL-FREE"]
    # the mortgaged Boardwalk: Car must pay the 10% at once (or lift it)
    assert st.current_player() == CAR and st.transfers == [(CAR, S["Boardwalk"])]
    st.apply(A.KeepMortgaged(CAR, S["Boardwalk"]))
    assert st.cash[CAR] == 1750 - 20
    assert money_total(st) == total
    assert st.turn == SHIP


def test_bankruptcy_to_the_bank_auctions_the_property():
    game, st = new(("Car", "Hat", "Dog"))
    give(st, DOG, "Boardwalk", "Baltic Avenue")
    st.mort[S["Baltic Avenue"]] = True
    st.mort[S["Boardwalk"]] = True  # nothing left to raise: 40 is all Dog can pay
    st.cash[DOG] = 40
    at(st, DOG, 35)
    st.apply(Throw((1, 2)))  # Luxury Tax 75
    assert st.debts and st.current_player() == DOG
    st.apply(A.DeclareBankruptcy(DOG))
    assert st.out[DOG] and st.collected == 40
    # in board order: Baltic Avenue (mortgage cancelled), then Boardwalk
    assert st.auction is not None and st.auction.space == S["Baltic Avenue"]
    st.apply(A.Pass(st.current_player()))
    st.apply(A.Pass(st.current_player()))
    assert st.owner[S["Baltic Avenue"]] == -1 and not st.mort[S["Baltic Avenue"]]
    assert st.auction is not None and st.auction.space == S["Boardwalk"]
    assert not st.mort[S["Boardwalk"]]
    st.apply(A.Bid(st.current_player(), 300))
    st.apply(A.Pass(st.current_player()))
    assert st.owner[S["Boardwalk"]] in (CAR, HAT) and st.collected == 340
    assert st.current_player() == CHANCE and st.turn == CAR


def test_last_player_standing_wins():
    game, st = new(("Car", "Hat"))
    give(st, CAR, "Boardwalk", "Park Place")
    st.bld[S["Boardwalk"]] = 5
    st.cash[HAT] = 10
    at(st, HAT, 33)
    st.apply(Throw((3, 3)))
    ev = st.apply(A.DeclareBankruptcy(HAT))
    assert st.is_terminal() and st.winners() == (CAR,)
    assert said(game, ev)[-1] == "Car wins the game!"
