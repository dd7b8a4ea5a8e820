"""Auctions: a declined property, the Bank's sale of a bankrupt's property, and one of
the last houses or hotels in a building shortage."""

from __future__ import annotations

from companion.engine import Event
from companion.games.monopoly import actions as A
from companion.games.monopoly import events as E
from companion.games.monopoly.table import AuctionState, Table
from companion.games.monopoly.views import expected


def start_auction(st: Table, space: int, hotel: bool, bidders: list[int], after: int,
                  resume: bool, ev: list[Event]) -> None:
    first = _next_bidder(st, bidders, after)
    st.auction = AuctionState(space, hotel, list(bidders), first, resume)
    ev.append(E.AuctionOpened(_item(st, space, hotel), tuple(bidders), first))


def _item(st: Table, space: int, hotel: bool) -> str:
    if space >= 0:
        return st.ed.names[space]
    return "a " + st.ed.words["hotel" if hotel else "house"]


def _next_bidder(st: Table, bidders: list[int], after: int) -> int:
    for step in range(1, st.n + 1):
        q = (after + step) % st.n
        if q in bidders:
            return q
    return bidders[0]


def check_bid(st: Table, a: A.Bid) -> str | None:
    auc = st.auction
    name = st.name_of(a.player)
    if auc is None or st.current_player() != auc.to_act:
        return f"No auction is open. {expected(st)}."
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
                f" in cash: mortgage or sell buildings first to bid more")
    return None


def do_bid(st: Table, a: A.Bid, ev: list[Event]) -> None:
    auc = st.auction
    assert auc is not None
    auc.high, auc.high_bidder = a.amount, a.player
    auc.to_act = _next_bidder(st, [b for b in auc.bidders if b != a.player] or auc.bidders,
                              a.player)
    ev.append(E.BidTaken(a.player, a.amount, tuple(auc.bidders), _open_to(auc)))
    _maybe_close(st, ev)


def check_pass(st: Table, a: A.Pass) -> str | None:
    auc = st.auction
    if auc is None or st.current_player() != auc.to_act:
        return f"No auction is open. {expected(st)}."
    if a.player not in auc.bidders:
        return f"{st.name_of(a.player)} has already passed"
    if a.player == auc.high_bidder:
        return f"{st.name_of(a.player)} holds the high bid and cannot pass"
    return None


def do_pass(st: Table, a: A.Pass, ev: list[Event]) -> None:
    auc = st.auction
    assert auc is not None
    auc.bidders.remove(a.player)
    if auc.bidders:
        auc.to_act = _next_bidder(st, auc.bidders, a.player)
    ev.append(E.BidderPassed(a.player, auc.high, auc.high_bidder, tuple(auc.bidders),
                             _open_to(auc)))
    _maybe_close(st, ev)


def _open_to(auc: AuctionState) -> int:
    """Who bids next, or -1 when the auction closes (the high bidder alone is left)."""
    closing = not auc.bidders or (len(auc.bidders) == 1 and auc.high_bidder == auc.bidders[0])
    return -1 if closing else auc.to_act


def drop_bidder(st: Table, p: int, ev: list[Event]) -> None:
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


def _maybe_close(st: Table, ev: list[Event]) -> None:
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
        st.explain(f"{st.name_of(w)} paid the Bank {E.money(auc.high)} for {item}: the"
                   " winning bid at auction.")
        ev.append(E.AuctionWon(w, item, auc.high))
        if auc.space >= 0:
            st.owner[auc.space] = w
        else:
            st.place = (w, auc.hotel)
    next_auction(st, ev)
    if st.auction is None and auc.resume:
        st.proceed(ev)


def next_auction(st: Table, ev: list[Event]) -> None:
    """Bank auctions after a bankruptcy to the Bank, one property after another."""
    if st.auction is None and st.auction_queue and st.place is None:
        s = st.auction_queue.pop(0)
        bidders = st.active()
        if len(bidders) >= 1:
            start_auction(st, s, False, bidders, st.turn - 1, False, ev)
