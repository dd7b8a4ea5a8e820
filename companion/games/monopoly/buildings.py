"""Houses and hotels: building evenly, selling back evenly, hotels broken down, and the
auction of one of the last houses or hotels in a building shortage."""

from __future__ import annotations

from companion.engine import Event
from companion.games.monopoly import actions as A
from companion.games.monopoly import events as E
from companion.games.monopoly.auctions import next_auction, start_auction
from companion.games.monopoly.edition import LOT
from companion.games.monopoly.gates import free_time
from companion.games.monopoly.rent import HOTEL
from companion.games.monopoly.table import Table

_LEVEL_WORDS = {1: "only one", 2: "only two", 3: "only three", 4: "only four"}


def able_to_build(st: Table, p: int, hotel: bool) -> list[int]:
    return [s for s in st.ed.properties
            if st.owner[s] == p and build_reason(st, p, s, hotel, free=True, exact=True) is None]



def build_reason(st: Table, p: int, s: int, hotel: bool, free: bool = False,
                 exact: bool = False) -> str | None:
    """Why ``p`` may not build on ``s`` now (None if allowed).

    ``exact``: the kind must be exactly ``hotel`` (auctioned buildings, shortage checks).
    """
    ed = st.ed
    words = ed.words
    if not 0 <= s < ed.size:
        return "There is no such space"
    name = ed.names[s]
    who = st.name_of(p)
    if ed.kind[s] != LOT:
        return f"{name} is not a lot of a colour group: nothing can be built on it"
    if st.owner[s] != p:
        return f"{who} does not own {name}"
    group = ed.kin[s]
    gname = ed.group_names[ed.group[s]]
    for m in group:
        if st.owner[m] != p:
            return f"{who} needs the whole {gname} group to build: {ed.names[m]} is not theirs"
    for m in group:
        if st.mort[m]:
            return (f"{ed.names[m]} is mortgaged: lift every mortgage in the {gname} group"
                    f" before building")
    b = st.bld[s]
    if b == HOTEL:
        return f"{name} already has a {words['hotel']}; one is the limit"
    makes_hotel = b == 4 or (hotel and b >= st.hotel_after)
    if hotel and not makes_hotel:
        return (f"A {words['hotel']} needs {st.hotel_after} {words['houses']} on every lot of"
                f" the {gname} group first")
    if exact and makes_hotel != hotel:
        return f"{name} takes a {words['hotel' if makes_hotel else 'house']} next"
    lowest = min(group, key=st.level)
    if st.level(lowest) < st.level(s):
        have = st.level(lowest)
        unit = words["house" if have == 1 else "houses"]
        what = (f"no {words['house']} yet" if have == 0
                else f"{_LEVEL_WORDS.get(have, str(have))} {unit}")
        return f"You must build evenly: {ed.names[lowest]} has {what}"
    if makes_hotel:
        if st.bank_hotels == 0:
            return f"The Bank has no {words['hotels']} left: wait until one is sold back"
    elif st.bank_houses == 0:
        return f"The Bank has no {words['houses']} left: wait until some are sold back"
    if not free and st.cash[p] < ed.house_cost[s]:
        kind = words["hotel" if makes_hotel else "house"]
        return (f"{who} has {E.money(st.cash[p])} and a {kind} on {name} costs"
                f" {E.money(ed.house_cost[s])}")
    return None


def check_build(st: Table, a: A.Build) -> str | None:
    if st.place is not None and st.place[0] == a.player and st.current_player() == a.player:
        return build_reason(st, a.player, a.space, st.place[1], free=True, exact=True)
    return (free_time(st, a.player, spending=True)
            or build_reason(st, a.player, a.space, a.hotel))


def do_build(st: Table, a: A.Build, ev: list[Event]) -> None:
    s, p = a.space, a.player
    ed = st.ed
    free = st.place is not None and st.place[0] == p and st.current_player() == p
    b = st.bld[s]
    cost = 0 if free else ed.house_cost[s]
    hotel = st.place[1] if free and st.place is not None else a.hotel
    if b == 4 or (hotel and b >= st.hotel_after):
        st.bank_hotels -= 1
        st.bank_houses += b
        st.bld[s] = HOTEL
    else:
        st.bank_houses -= 1
        st.bld[s] = b + 1
    st.cash[p] -= cost
    st.collected += cost
    ev.append(E.BuildingsChanged(p, ed.names[s], ed.building_words(st.bld[s]), cost, False))
    if free:
        st.place = None
        next_auction(st, ev)


def check_sell_building(st: Table, a: A.SellBuilding) -> str | None:
    reason = free_time(st, a.player, raising=True)
    if reason:
        return reason
    ed = st.ed
    s, p = a.space, a.player
    if not 0 <= s < ed.size or ed.kind[s] != LOT or st.owner[s] != p or not st.bld[s]:
        where = ed.names[s] if 0 <= s < ed.size else "that space"
        return f"{st.name_of(p)} has no buildings on {where}"
    highest = max(ed.kin[s], key=st.level)
    if st.level(highest) > st.level(s):
        return (f"You must sell evenly: {ed.names[highest]} has"
                f" {ed.building_words(st.bld[highest])}")
    if st.bld[s] == HOTEL and st.bank_houses < st.hotel_after:
        words = ed.words
        return (f"The Bank has only {st.bank_houses} {words['houses']}, and a {words['hotel']}"
                f" breaks down to {st.hotel_after}: sell the group down at once instead"
                f" (sell {ed.names[s]} to {st.bank_houses // len(ed.kin[s])})")
    return None


def do_sell_building(st: Table, a: A.SellBuilding, ev: list[Event]) -> None:
    s, p = a.space, a.player
    ed = st.ed
    if st.bld[s] == HOTEL:
        st.bld[s] = st.hotel_after
        st.bank_hotels += 1
        st.bank_houses -= st.hotel_after
    else:
        st.bld[s] -= 1
        st.bank_houses += 1
    refund = ed.house_cost[s] // 2
    st.cash[p] += refund
    st.issued += refund
    ev.append(E.BuildingsChanged(p, ed.names[s], ed.building_words(st.bld[s]), refund, True))
    st.settle(ev)


def _group_sale(st: Table, s: int, target: int) -> tuple[int, int, int]:
    """(levels sold, houses taken from the Bank net, hotels returned) selling to ``target``."""
    levels = taken = hotels = 0
    for m in st.ed.kin[s]:
        b = st.bld[m]
        lvl = st.level(m)
        if lvl <= target:
            continue
        levels += lvl - target
        if b == HOTEL:
            hotels += 1
            taken += target
        else:
            taken -= b - target
    return levels, taken, hotels


def check_sell_group(st: Table, a: A.SellGroup) -> str | None:
    reason = free_time(st, a.player, raising=True)
    if reason:
        return reason
    ed = st.ed
    s, p = a.space, a.player
    if not 0 <= s < ed.size or ed.kind[s] != LOT or st.owner[s] != p:
        return f"{st.name_of(p)} does not own that lot"
    if not 0 <= a.houses <= st.hotel_after:
        return f"Sell down to 0 to {st.hotel_after} {ed.words['houses']} a lot"
    levels, taken, _ = _group_sale(st, s, a.houses)
    if levels == 0:
        return f"Nothing on the {ed.group_names[ed.group[s]]} group stands above that"
    if taken > st.bank_houses:
        return (f"The Bank has only {st.bank_houses} {ed.words['houses']}: breaking the"
                f" {ed.words['hotels']} down to {a.houses} each needs {taken}")
    return None


def do_sell_group(st: Table, a: A.SellGroup, ev: list[Event]) -> None:
    ed = st.ed
    s, p = a.space, a.player
    levels, taken, hotels = _group_sale(st, s, a.houses)
    for m in ed.kin[s]:
        if st.level(m) > a.houses:
            st.bld[m] = a.houses
    st.bank_houses -= taken
    st.bank_hotels += hotels
    refund = levels * (ed.house_cost[s] // 2)
    st.cash[p] += refund
    st.issued += refund
    ev.append(E.BuildingsChanged(p, f"every lot of the {ed.group_names[ed.group[s]]} group",
                                 ed.building_words(a.houses), refund, True))
    st.settle(ev)


# ---------------------------------------------------------------- building shortage


def check_auction_building(st: Table, a: A.AuctionBuilding) -> str | None:
    reason = free_time(st, a.player, spending=True)
    if reason:
        return reason
    if st.debts:
        return f"First {st.name_of(st.debts[0][0])} must settle a debt"
    words = st.ed.words
    kind = words["hotel" if a.hotel else "house"]
    supply = st.bank_hotels if a.hotel else st.bank_houses
    if supply == 0:
        return f"The Bank has no {words['hotels' if a.hotel else 'houses']} left to auction"
    wanting = [q for q in st.active() if able_to_build(st, q, a.hotel)]
    if a.player not in wanting:
        return f"{st.name_of(a.player)} cannot build a {kind} now"
    if len(wanting) < 2:
        return (f"Only {st.name_of(a.player)} can build a {kind} now: build it at the"
                f" printed price")
    return None


def do_auction_building(st: Table, a: A.AuctionBuilding, ev: list[Event]) -> None:
    wanting = [q for q in st.active() if able_to_build(st, q, a.hotel)]
    start_auction(st, -1, a.hotel, wanting, a.player - 1, False, ev)
