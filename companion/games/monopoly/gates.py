"""Whether a player may act "at any time" now: shared by the rule modules."""

from __future__ import annotations

from companion.games.monopoly import events as E
from companion.games.monopoly.phases import OVER, SETUP
from companion.games.monopoly.table import Table


def free_time(st: Table, p: int, spending: bool = False,
              raising: bool = False) -> str | None:
    """Whether ``p`` may act "at any time" now (build, mortgage, trade...), else why not.

    ``raising``: money raised from the Bank (mortgaging, selling buildings back), which the
    rulebook allows "at any time", so also by a bidder during the auction of a property (the
    Bank takes bids in cash, and a bidder may raise it to bid more; not in a building-shortage
    auction, whose winner must still be able to place the building)."""
    if st.phase == OVER:
        return "The game is over"
    if not 0 <= p < st.n:
        return "There is no such player"
    if st.out[p]:
        return f"{st.name_of(p)} is bankrupt and out of the game"
    if st.phase == SETUP:
        return "The game starts once the decks are shuffled"
    if st.trade is not None:
        t = st.trade
        return f"First {st.name_of(t.partner)} must accept or reject {st.name_of(t.player)}'s offer"
    if st.transfers:
        who, s = st.transfers[0]
        return (f"First {st.name_of(who)} must lift or keep the mortgage on"
                f" {st.ed.names[s]}")
    auction = st.auction
    if auction is not None and not (raising and p in auction.bidders and auction.space >= 0):
        return "Wait until the auction is over"
    if st.place is not None:
        return f"First {st.name_of(st.place[0])} must place the building won at auction"
    if spending and st.debts and st.debts[0][0] == p:
        return f"{st.name_of(p)} owes {E.money(st.debts[0][2])}: raise money before spending"
    return None
