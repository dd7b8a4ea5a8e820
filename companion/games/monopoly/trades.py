"""Trades between players, mortgaged property changing hands, and bankruptcy."""

from __future__ import annotations

from companion.engine import Event
from companion.games.monopoly import actions as A
from companion.games.monopoly import events as E
from companion.games.monopoly.auctions import drop_bidder, next_auction
from companion.games.monopoly.cards import return_card
from companion.games.monopoly.gates import free_time
from companion.games.monopoly.phases import (
    BANK,
    BUY,
    CARD,
    OVER,
    RESOLVING,
    SHORT,
    TAX_CHOICE,
    UTIL_DICE,
)
from companion.games.monopoly.rent import HOTEL, lift_cost, raisable, tenth
from companion.games.monopoly.table import Table
from companion.games.monopoly.views import trade_text


def check_trade(st: Table, t: A.Trade) -> str | None:
    p, q = t.player, t.partner
    if not (0 <= q < st.n) or st.out[q]:
        return "Trade with a player still in the game"
    if p == q:
        return "A player cannot trade with themselves"
    reason = free_time(st, p)
    if reason:
        return reason
    if st.debts and st.debts[0][0] not in (p,):
        return f"First {st.name_of(st.debts[0][0])} must settle a debt"
    return trade_reason(st, t)


def trade_reason(st: Table, t: A.Trade) -> str | None:
    ed = st.ed
    p, q = t.player, t.partner
    if not (t.give or t.take or t.give_cards or t.take_cards):
        return ("Players may not lend or give each other money: a trade must include a"
                " property or a card")
    if t.give_cash < 0 or t.take_cash < 0:
        return "Amounts of money are positive"
    if len(set(t.give)) != len(t.give) or len(set(t.take)) != len(t.take):
        return "Name each property once"
    for who, spaces in ((p, t.give), (q, t.take)):
        for s in spaces:
            if not 0 <= s < ed.size or not ed.is_property[s]:
                return "Only lots, railroads and utilities can be traded"
            if st.owner[s] != who:
                return f"{st.name_of(who)} does not own {ed.names[s]}"
            if st.group_has_buildings(s):
                built = next(m for m in ed.kin[s] if st.bld[m])
                return (f"{ed.names[s]} cannot be sold while buildings stand on its group:"
                        f" {ed.names[built]} has {ed.building_words(st.bld[built])}."
                        f" Sell them to the Bank first")
    for who, cards in ((p, t.give_cards), (q, t.take_cards)):
        held = list(st.held[who])
        for c in cards:
            if c not in held:
                return f"{st.name_of(who)} holds no such Get Out of Jail Free card"
            held.remove(c)
    if st.cash[p] < t.give_cash:
        return f"{st.name_of(p)} has only {E.money(st.cash[p])}"
    if st.cash[q] < t.take_cash:
        return f"{st.name_of(q)} has only {E.money(st.cash[q])}"
    return None


def do_trade(st: Table, t: A.Trade, ev: list[Event]) -> None:
    st.trade = t
    ev.append(E.TradeOffered(t.player, t.partner, trade_text(st, t)))


def check_answer(st: Table, a: A.Accept | A.Reject) -> str | None:
    t = st.trade
    if t is None:
        return "No offer is waiting for an answer"
    if a.player != t.partner:
        return f"The offer is for {st.name_of(t.partner)} to answer"
    if isinstance(a, A.Accept):
        return trade_reason(st, t)
    return None


def do_reject(st: Table, a: A.Reject, ev: list[Event]) -> None:
    t = st.trade
    assert t is not None
    st.trade = None
    ev.append(E.TradeClosed(t.player, t.partner, False))


def do_accept(st: Table, a: A.Accept, ev: list[Event]) -> None:
    t = st.trade
    assert t is not None
    st.trade = None
    p, q = t.player, t.partner
    st.cash[p] += t.take_cash - t.give_cash
    st.cash[q] += t.give_cash - t.take_cash
    for s in t.give:
        _hand_over(st, s, q)
    for s in t.take:
        _hand_over(st, s, p)
    for c in t.give_cards:
        st.held[p].remove(c)
        st.held[q].append(c)
    for c in t.take_cards:
        st.held[q].remove(c)
        st.held[p].append(c)
    ev.append(E.TradeClosed(p, q, True))
    announce_transfers(st, ev)


def _hand_over(st: Table, s: int, to: int) -> None:
    st.owner[s] = to
    if st.mort[s]:
        st.transfers.append((to, s))


def announce_transfers(st: Table, ev: list[Event]) -> None:
    if st.transfers:
        to, s = st.transfers[0]
        m = st.ed.mortgage[s]
        ev.append(E.MortgageReceived(to, st.ed.names[s], lift_cost(st, s), tenth(m)))
    else:
        st.settle(ev)


def after_transfers(st: Table, ev: list[Event]) -> None:
    announce_transfers(st, ev)
    if not st.transfers:
        next_auction(st, ev)


def check_keep(st: Table, a: A.KeepMortgaged) -> str | None:
    if st.trade is not None or not st.transfers or st.transfers[0] != (a.player, a.space):
        return "No mortgaged property is waiting for that decision"
    return None


def do_keep(st: Table, a: A.KeepMortgaged, ev: list[Event]) -> None:
    st.transfers.pop(0)
    interest = tenth(st.ed.mortgage[a.space])
    name = st.ed.names[a.space]
    st.explain(f"10% interest on the {st.ed.mortgage[a.space]} mortgage of {name},"
               f" due when mortgaged property changes hands: {interest}.")
    st.charge(a.player, BANK, interest, E.Paid(a.player, BANK, interest,
                                                f"interest on mortgaged {name}"), ev)
    after_transfers(st, ev)


# ---------------------------------------------------------------- bankruptcy


def check_bankruptcy(st: Table, a: A.DeclareBankruptcy) -> str | None:
    if st.trade is not None or st.transfers:
        return "Answer the pending offer or decision first"
    p = a.player
    if not st.debts or st.debts[0][0] != p:
        return (f"{st.name_of(p)} owes nothing they cannot pay: bankruptcy is only for"
                f" a debt larger than all one can raise")
    # Rulebook 000: bankrupt is who "owe[s] more than you can pay", to the Bank "even by
    # selling off buildings and mortgaging property": cash alone is not what one can pay.
    owed = sum(int(d[2]) for d in st.debts if d[0] == p)
    raised, how = raisable(st, p)
    if st.cash[p] + raised >= owed:
        return (f"{st.name_of(p)} owes {E.money(owed)} and has {E.money(st.cash[p])}, but can"
                f" raise {E.money(raised)} more: {how}. Bankruptcy is only for a debt larger"
                f" than all one can raise")
    return None


def do_bankruptcy(st: Table, a: A.DeclareBankruptcy, ev: list[Event]) -> None:
    p = a.player
    creditor = st.debts[0][1]
    ed = st.ed
    mine = [s for s in ed.properties if st.owner[s] == p]
    # buildings go back to the Bank at half price; the cash goes to the creditor
    for s in mine:
        b = st.bld[s]
        if b:
            levels = st.hotel_level if b == HOTEL else b
            refund = levels * (ed.house_cost[s] // 2)
            if b == HOTEL:
                st.bank_hotels += 1
            else:
                st.bank_houses += b
            st.bld[s] = 0
            if creditor != BANK:
                st.cash[p] += refund
                st.issued += refund
    cash = st.cash[p]
    st.cash[p] = 0
    st.out[p] = True
    st.jail[p] = False
    st.debts = [d for d in st.debts if d[0] != p and d[1] != p]
    st.claims = [c for c in st.claims if c[0] != p and c[1] != p]
    ev.append(E.WentBankrupt(p, creditor))
    if st.place is not None and st.place[0] == p:
        st.place = None  # the building won at auction stays with the Bank
    drop_bidder(st, p, ev)
    if creditor != BANK:
        st.cash[creditor] += cash
        for s in mine:
            _hand_over(st, s, creditor)
        st.held[creditor].extend(st.held[p])
        st.held[p] = []
    else:
        st.collected += cash
        for key in list(st.held[p]):
            return_card(st, p, key, ev)
        for s in mine:
            st.owner[s] = -1
            st.mort[s] = False
        st.auction_queue.extend(mine)
    alive = st.active()
    if len(alive) <= 1 or st.variant == SHORT:
        st.end_game(ev, "The game ends at the first bankruptcy." if st.variant == SHORT else "")
        return
    if p == st.turn and st.phase in (BUY, TAX_CHOICE, CARD, UTIL_DICE, RESOLVING):
        st.phase = RESOLVING
        st.again = False
    if p == st.turn:
        st.again = False
        st.next_turn(ev)
    if st.phase != OVER:
        announce_transfers(st, ev)
        if not st.transfers:
            next_auction(st, ev)
