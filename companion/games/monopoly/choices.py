"""Legal actions at a decision point, and the "any time" actions a player may take."""

from __future__ import annotations

from companion.engine import Action
from companion.games.monopoly import actions as A
from companion.games.monopoly.buildings import able_to_build
from companion.games.monopoly.edition import LOT
from companion.games.monopoly.handlers import HANDLERS
from companion.games.monopoly.phases import BUY, END, TAX_CHOICE
from companion.games.monopoly.rent import HOTEL
from companion.games.monopoly.table import Table


def legal_actions(st: Table) -> list[Action]:
    """The actions that answer the decision now (empty only at chance nodes and the end)."""
    cp = st.current_player()
    if cp < 0:
        return []
    if st.trade is not None:
        return _valid(st, [A.Accept(cp), A.Reject(cp)])
    if st.transfers:
        s = st.transfers[0][1]
        return _valid(st, [A.Unmortgage(cp, s), A.KeepMortgaged(cp, s)])
    if st.debts:
        return raise_money(st, cp) + _valid(st, [A.DeclareBankruptcy(cp)])
    if st.auction is not None:
        auc = st.auction
        bids = sorted({auc.high + 1, auc.high + 10, auc.high + 50,
                       (st.ed.price[auc.space] if auc.space >= 0 else 0)})
        out: list[Action] = [A.Pass(cp)]
        out += [A.Bid(cp, b) for b in bids if auc.high < b <= st.cash[cp]]
        return _valid(st, out)
    if st.place is not None:
        return [A.Build(cp, s, st.place[1]) for s in able_to_build(st, cp, st.place[1])]
    if st.phase == BUY:
        return _valid(st, [A.Buy(cp), A.Auction(cp)])
    if st.phase == TAX_CHOICE:
        return [A.ChooseTax(cp, False), A.ChooseTax(cp, True)]
    if st.phase == END:
        return [A.EndTurn(cp), *anytime_actions(st, cp)]
    return []


def _valid(st: Table, actions: list[Action]) -> list[Action]:
    out = []
    for a in actions:
        check = HANDLERS[type(a)][0]
        if st._basic_reason(a) is None and check(st, a) is None:
            out.append(a)
    return out


def raise_money(st: Table, p: int) -> list[Action]:
    """Selling buildings and mortgaging: what a player short of cash can do."""
    ed = st.ed
    cands: list[Action] = []
    for s in ed.properties:
        if st.owner[s] != p:
            continue
        if st.bld[s]:
            cands.append(A.SellBuilding(p, s))
            if st.bld[s] == HOTEL:
                cands.append(A.SellGroup(p, s, 0))
        elif not st.mort[s]:
            cands.append(A.Mortgage(p, s))
    return _valid(st, cands)


def anytime_actions(st: Table, p: int) -> list[Action]:
    """Build, sell, mortgage, lift, jail exits and a few trade offers ``p`` may make now."""
    ed = st.ed
    cands: list[Action] = [A.PayFine(p), A.UseCard(p)]
    for s in ed.properties:
        if st.owner[s] == p:
            if ed.kind[s] == LOT:
                cands.append(A.Build(p, s))
                if st.bld[s] >= st.hotel_after:
                    cands.append(A.Build(p, s, True))
            cands.append(A.Unmortgage(p, s))
    cands += raise_money(st, p)
    for q in st.active():
        if q == p:
            continue
        mine = [s for s in ed.properties if st.owner[s] == p]
        theirs = [s for s in ed.properties if st.owner[s] == q]
        if mine:
            cands.append(A.Trade(p, q, give=(mine[0],), take_cash=ed.price[mine[0]]))
        if theirs:
            cands.append(A.Trade(p, q, take=(theirs[-1],), give_cash=ed.price[theirs[-1]] // 2))
        if st.held[p]:
            cands.append(A.Trade(p, q, give_cards=(st.held[p][0],), take_cash=25))
    cands.append(A.AuctionBuilding(p, False))
    cands.append(A.AuctionBuilding(p, True))
    if st.claim_rule:
        cands.append(A.Claim(p))
    return _valid(st, cands)
