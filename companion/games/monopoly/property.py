"""Buying, auctions (properties and scarce buildings), building and mortgages."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine import Event
from companion.games.monopoly import actions as A
from companion.games.monopoly import events as E
from companion.games.monopoly.edition import LOT
from companion.games.monopoly.rent import HOTEL, tenth

if TYPE_CHECKING:
    from companion.games.monopoly.state import MonopolyState

from companion.games.monopoly.phases import BUY, RESOLVING

_LEVEL_WORDS = {1: "only one", 2: "only two", 3: "only three", 4: "only four"}


class AuctionState:
    """An auction in progress: a property (space >= 0) or one building (space -1)."""

    __slots__ = ("space", "hotel", "bidders", "high", "high_bidder", "to_act", "resume")

    def __init__(self, space: int, hotel: bool, bidders: list[int], to_act: int,
                 resume: bool) -> None:
        self.space = space
        self.hotel = hotel
        self.bidders = bidders
        self.high = 0
        self.high_bidder = -1
        self.to_act = to_act
        self.resume = resume

    def copy(self) -> AuctionState:
        a = AuctionState(self.space, self.hotel, list(self.bidders), self.to_act, self.resume)
        a.high, a.high_bidder = self.high, self.high_bidder
        return a



# ---------------------------------------------------------------- buying


def check_buy(st: MonopolyState, a: A.Buy) -> str | None:
    if st.phase != BUY or st.current_player() != a.player or a.player != st.turn:
        return f"Nothing is for sale to {st.name_of(a.player)} now. {st.expected()}."
    s = st.pending
    price = st.ed.price[s]
    if st.cash[a.player] < price:
        return (f"{st.name_of(a.player)} has {E.money(st.cash[a.player])} and"
                f" {st.ed.names[s]} costs {E.money(price)}: mortgage or sell first, or auction it")
    return None


def do_buy(st: MonopolyState, a: A.Buy, ev: list[Event]) -> None:
    s = st.pending
    price = st.ed.price[s]
    st.cash[a.player] -= price
    st.collected += price
    st.owner[s] = a.player
    st.pending = -1
    st.phase = RESOLVING
    ev.append(E.Bought(a.player, st.ed.names[s], price))
    st.proceed(ev)


def check_decline(st: MonopolyState, a: A.Auction) -> str | None:
    if st.phase != BUY or st.current_player() != a.player or a.player != st.turn:
        return f"Nothing is waiting to be bought or auctioned now. {st.expected()}."
    return None


def do_decline(st: MonopolyState, a: A.Auction, ev: list[Event]) -> None:
    s = st.pending
    st.pending = -1
    st.phase = RESOLVING
    start_auction(st, s, False, st.active(), a.player, True, ev)


# ---------------------------------------------------------------- auctions


def start_auction(st: MonopolyState, space: int, hotel: bool, bidders: list[int], after: int,
                  resume: bool, ev: list[Event]) -> None:
    first = _next_bidder(st, bidders, after)
    st.auction = AuctionState(space, hotel, list(bidders), first, resume)
    ev.append(E.AuctionOpened(_item(st, space, hotel), tuple(bidders)))


def _item(st: MonopolyState, space: int, hotel: bool) -> str:
    if space >= 0:
        return st.ed.names[space]
    return "a " + st.ed.words["hotel" if hotel else "house"]


def _next_bidder(st: MonopolyState, bidders: list[int], after: int) -> int:
    for step in range(1, st.n + 1):
        q = (after + step) % st.n
        if q in bidders:
            return q
    return bidders[0]


def check_bid(st: MonopolyState, a: A.Bid) -> str | None:
    auc = st.auction
    name = st.name_of(a.player)
    if auc is None or st.current_player() != auc.to_act:
        return f"No auction is open. {st.expected()}."
    if a.player not in auc.bidders:
        return f"{name} is not bidding in this auction"
    if st.debts:
        return f"First {st.name_of(st.debts[0][0])} must settle a debt"
    if a.amount <= auc.high:
        return f"A bid must beat {E.money(auc.high)}"
    if a.amount < 1:
        return "A bid is at least 1"
    if a.amount > st.cash[a.player]:
        return (f"{name} has only {E.money(st.cash[a.player])} in cash; the Bank takes bids"
                f" in cash")
    return None


def do_bid(st: MonopolyState, a: A.Bid, ev: list[Event]) -> None:
    auc = st.auction
    assert auc is not None
    auc.high, auc.high_bidder = a.amount, a.player
    ev.append(E.BidTaken(a.player, a.amount))
    auc.to_act = _next_bidder(st, [b for b in auc.bidders if b != a.player] or auc.bidders,
                              a.player)
    _maybe_close(st, ev)


def check_pass(st: MonopolyState, a: A.Pass) -> str | None:
    auc = st.auction
    if auc is None or st.current_player() != auc.to_act:
        return f"No auction is open. {st.expected()}."
    if a.player not in auc.bidders:
        return f"{st.name_of(a.player)} has already passed"
    if a.player == auc.high_bidder:
        return f"{st.name_of(a.player)} holds the high bid and cannot pass"
    return None


def do_pass(st: MonopolyState, a: A.Pass, ev: list[Event]) -> None:
    auc = st.auction
    assert auc is not None
    auc.bidders.remove(a.player)
    ev.append(E.BidderPassed(a.player))
    if auc.bidders:
        auc.to_act = _next_bidder(st, auc.bidders, a.player)
    _maybe_close(st, ev)


def drop_bidder(st: MonopolyState, p: int, ev: list[Event]) -> None:
    """A bidder who goes bankrupt leaves the auction (and any bid of theirs lapses)."""
    auc = st.auction
    if auc is None or p not in auc.bidders:
        return
    auc.bidders.remove(p)
    if auc.high_bidder == p:
        auc.high, auc.high_bidder = 0, -1
    if auc.bidders:
        auc.to_act = _next_bidder(st, auc.bidders, p)
    _maybe_close(st, ev)


def _maybe_close(st: MonopolyState, ev: list[Event]) -> None:
    auc = st.auction
    assert auc is not None
    if auc.bidders and not (len(auc.bidders) == 1 and auc.high_bidder == auc.bidders[0]):
        return
    st.auction = None
    item = _item(st, auc.space, auc.hotel)
    if auc.high_bidder < 0:
        ev.append(E.AuctionUnsold(item))
    else:
        w = auc.high_bidder
        st.cash[w] -= auc.high
        st.collected += auc.high
        ev.append(E.AuctionWon(w, item, auc.high))
        if auc.space >= 0:
            st.owner[auc.space] = w
        else:
            st.place = (w, auc.hotel)
    next_auction(st, ev)
    if st.auction is None and auc.resume:
        st.proceed(ev)


def next_auction(st: MonopolyState, ev: list[Event]) -> None:
    """Bank auctions after a bankruptcy to the Bank, one property after another."""
    if st.auction is None and st.auction_queue and st.place is None:
        s = st.auction_queue.pop(0)
        bidders = st.active()
        if len(bidders) >= 1:
            start_auction(st, s, False, bidders, st.turn - 1, False, ev)


def able_to_build(st: MonopolyState, p: int, hotel: bool) -> list[int]:
    return [s for s in st.ed.properties
            if st.owner[s] == p and build_reason(st, p, s, hotel, free=True, exact=True) is None]


def check_auction_building(st: MonopolyState, a: A.AuctionBuilding) -> str | None:
    from companion.games.monopoly.handlers import free_time

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


def do_auction_building(st: MonopolyState, a: A.AuctionBuilding, ev: list[Event]) -> None:
    wanting = [q for q in st.active() if able_to_build(st, q, a.hotel)]
    start_auction(st, -1, a.hotel, wanting, a.player - 1, False, ev)


# ---------------------------------------------------------------- building


def build_reason(st: MonopolyState, p: int, s: int, hotel: bool, free: bool = False,
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


def check_build(st: MonopolyState, a: A.Build) -> str | None:
    if st.place is not None and st.place[0] == a.player and st.current_player() == a.player:
        return build_reason(st, a.player, a.space, st.place[1], free=True, exact=True)
    from companion.games.monopoly.handlers import free_time

    return (free_time(st, a.player, spending=True)
            or build_reason(st, a.player, a.space, a.hotel))


def do_build(st: MonopolyState, a: A.Build, ev: list[Event]) -> None:
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


def check_sell_building(st: MonopolyState, a: A.SellBuilding) -> str | None:
    from companion.games.monopoly.handlers import free_time

    reason = free_time(st, a.player)
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


def do_sell_building(st: MonopolyState, a: A.SellBuilding, ev: list[Event]) -> None:
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


def _group_sale(st: MonopolyState, s: int, target: int) -> tuple[int, int, int]:
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


def check_sell_group(st: MonopolyState, a: A.SellGroup) -> str | None:
    from companion.games.monopoly.handlers import free_time

    reason = free_time(st, a.player)
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


def do_sell_group(st: MonopolyState, a: A.SellGroup, ev: list[Event]) -> None:
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


# ---------------------------------------------------------------- mortgages


def check_mortgage(st: MonopolyState, a: A.Mortgage) -> str | None:
    from companion.games.monopoly.handlers import free_time

    reason = free_time(st, a.player)
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


def do_mortgage(st: MonopolyState, a: A.Mortgage, ev: list[Event]) -> None:
    s, p = a.space, a.player
    value = st.ed.mortgage[s]
    st.mort[s] = True
    st.cash[p] += value
    st.issued += value
    ev.append(E.MortgageChanged(p, st.ed.names[s], value, False))
    st.settle(ev)


def lift_cost(st: MonopolyState, s: int) -> int:
    m = st.ed.mortgage[s]
    return m + tenth(m)


def check_unmortgage(st: MonopolyState, a: A.Unmortgage) -> str | None:
    from companion.games.monopoly.handlers import free_time

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


def do_unmortgage(st: MonopolyState, a: A.Unmortgage, ev: list[Event]) -> None:
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
        from companion.games.monopoly.trades import after_transfers

        after_transfers(st, ev)
