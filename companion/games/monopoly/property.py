"""Buying at the printed price (or declining into an auction) and mortgages."""

from __future__ import annotations

from companion.engine import Event
from companion.games.monopoly import actions as A
from companion.games.monopoly import events as E
from companion.games.monopoly.auctions import start_auction
from companion.games.monopoly.gates import free_time
from companion.games.monopoly.phases import BUY, RESOLVING
from companion.games.monopoly.rent import lift_cost
from companion.games.monopoly.table import Table
from companion.games.monopoly.trades import after_transfers
from companion.games.monopoly.views import expected

# ---------------------------------------------------------------- buying


def check_buy(st: Table, a: A.Buy) -> str | None:
    if st.phase != BUY or st.current_player() != a.player or a.player != st.turn:
        return f"Nothing is for sale to {st.name_of(a.player)} now. {expected(st)}."
    s = st.pending
    price = st.ed.price[s]
    if st.cash[a.player] < price:
        return (f"{st.name_of(a.player)} has {E.money(st.cash[a.player])} and"
                f" {st.ed.names[s]} costs {E.money(price)}: mortgage or sell first, or auction it")
    return None


def do_buy(st: Table, a: A.Buy, ev: list[Event]) -> None:
    s = st.pending
    price = st.ed.price[s]
    st.cash[a.player] -= price
    st.collected += price
    st.owner[s] = a.player
    st.pending = -1
    st.phase = RESOLVING
    st.explain(f"{st.name_of(a.player)} paid the Bank {E.money(price)} for {st.ed.names[s]},"
               " its printed price.")
    ev.append(E.Bought(a.player, st.ed.names[s], price))
    st.proceed(ev)


def check_decline(st: Table, a: A.Auction) -> str | None:
    if st.phase != BUY or st.current_player() != a.player or a.player != st.turn:
        return f"Nothing is waiting to be bought or auctioned now. {expected(st)}."
    return None


def do_decline(st: Table, a: A.Auction, ev: list[Event]) -> None:
    s = st.pending
    st.pending = -1
    st.phase = RESOLVING
    start_auction(st, s, False, st.active(), a.player, True, ev)


# ---------------------------------------------------------------- mortgages


def check_mortgage(st: Table, a: A.Mortgage) -> str | None:
    reason = free_time(st, a.player, raising=True)
    if reason:
        return reason
    ed = st.ed
    s, p = a.space, a.player
    if not 0 <= s < ed.size or not ed.is_property[s]:
        return "Only lots, railroads and utilities can be mortgaged"
    if st.owner[s] != p:
        return f"{st.name_of(p)} does not own {ed.names[s]}"
    if st.mort[s]:
        return f"{ed.names[s]} is already mortgaged"
    if st.group_has_buildings(s):
        built = next(m for m in ed.kin[s] if st.bld[m])
        return (f"Sell the buildings of the {ed.group_names[ed.group[s]]} group first:"
                f" {ed.names[built]} has {ed.building_words(st.bld[built])}")
    return None


def do_mortgage(st: Table, a: A.Mortgage, ev: list[Event]) -> None:
    s, p = a.space, a.player
    value = st.ed.mortgage[s]
    st.mort[s] = True
    st.cash[p] += value
    st.issued += value
    ev.append(E.MortgageChanged(p, st.ed.names[s], value, False))
    st.settle(ev)


def check_unmortgage(st: Table, a: A.Unmortgage) -> str | None:
    s, p = a.space, a.player
    at_transfer = bool(st.transfers) and st.transfers[0] == (p, s) and st.trade is None
    if not at_transfer:
        reason = free_time(st, p, spending=True)
        if reason:
            return reason
    ed = st.ed
    if not 0 <= s < ed.size or not ed.is_property[s]:
        return "Only lots, railroads and utilities carry mortgages"
    if st.owner[s] != p:
        return f"{st.name_of(p)} does not own {ed.names[s]}"
    if not st.mort[s]:
        return f"{ed.names[s]} is not mortgaged"
    cost = lift_cost(st, s)
    if st.cash[p] < cost:
        return (f"Lifting the mortgage on {ed.names[s]} costs {E.money(cost)} (the mortgage"
                f" plus 10%), and {st.name_of(p)} has {E.money(st.cash[p])}")
    return None


def do_unmortgage(st: Table, a: A.Unmortgage, ev: list[Event]) -> None:
    s, p = a.space, a.player
    cost = lift_cost(st, s)
    st.mort[s] = False
    st.cash[p] -= cost
    st.collected += cost
    st.explain(f"Lifting the mortgage on {st.ed.names[s]}: {st.ed.mortgage[s]} plus 10%"
               f" interest, {cost}.")
    ev.append(E.MortgageChanged(p, st.ed.names[s], cost, True))
    if st.transfers and st.transfers[0] == (p, s):
        st.transfers.pop(0)
        after_transfers(st, ev)
