"""The dispatch table: action type -> (check, do), and the checks not owned by a rule module."""

from __future__ import annotations

from typing import Any

from companion.engine import CHANCE, Draw, Event, Shuffle, Throw
from companion.games.monopoly import actions as A
from companion.games.monopoly import auctions, buildings, cards, moves, property, trades
from companion.games.monopoly import events as E
from companion.games.monopoly.gates import free_time
from companion.games.monopoly.phases import (
    BANK,
    END,
    OVER,
    RESOLVING,
    ROLL,
    SHORT,
    TAX_CHOICE,
    TIME_LIMIT,
    UTIL_DICE,
)
from companion.games.monopoly.rent import total_worth
from companion.games.monopoly.table import Table
from companion.games.monopoly.views import expected


def _player(st: Table, p: int) -> str | None:
    if not 0 <= p < st.n:
        return "There is no such player"
    if st.out[p]:
        return f"{st.name_of(p)} is out of the game"
    return None


# ---------------------------------------------------------------- throws


def check_throw(st: Table, a: Throw) -> str | None:
    if st.phase not in (ROLL, UTIL_DICE) or st.current_player() != CHANCE:
        return f"No throw is expected now. {expected(st)}."
    v = a.values
    if len(v) != 2:
        return f"Monopoly takes two dice, not {len(v)}"
    if not (1 <= v[0] <= 6 and 1 <= v[1] <= 6):
        return "A die shows 1 to 6"
    return None


def do_throw(st: Table, a: Throw, ev: list[Event]) -> None:
    moves.do_throw(st, a.values, ev)


# ---------------------------------------------------------------- jail


def _jail_reason(st: Table, p: int) -> str | None:
    reason = _player(st, p)
    if reason:
        return reason
    if not st.jail[p]:
        return f"{st.name_of(p)} is not in Jail"
    if p != st.turn or st.phase != ROLL or st.current_player() != CHANCE:
        return f"Do this on {st.name_of(p)}'s turn, before throwing"
    return None


def check_pay_fine(st: Table, a: A.PayFine) -> str | None:
    reason = _jail_reason(st, a.player)
    if reason:
        return reason
    if st.variant != SHORT and st.jail_tries[a.player] >= 2:
        return ("The fine may be paid before throwing only on the first two turns in Jail;"
                " on the third, throw: it is paid automatically if no doubles come")
    fine = st.ed.jail_fine
    if st.cash[a.player] < fine:
        return f"The fine is {fine} and {st.name_of(a.player)} has {st.cash[a.player]}"
    return None


def do_pay_fine(st: Table, a: A.PayFine, ev: list[Event]) -> None:
    p = a.player
    fine = st.ed.jail_fine
    st.explain(f"The {fine} Jail fine, paid before throwing.")
    st.charge(p, BANK, fine, E.Paid(p, BANK, fine, "the Jail fine"), ev)
    st.jail[p] = False
    st.jail_tries[p] = 0
    ev.append(E.Released(p, "pays the fine, then throws as usual"))


def _card_for(st: Table, a: A.UseCard) -> str | None:
    for key in st.held[a.player]:
        if not a.deck or key.startswith(a.deck + ":"):
            return key
    return None


def check_use_card(st: Table, a: A.UseCard) -> str | None:
    reason = _jail_reason(st, a.player)
    if reason:
        return reason
    if _card_for(st, a) is None:
        return f"{st.name_of(a.player)} holds no Get Out of Jail Free card"
    return None


def do_use_card(st: Table, a: A.UseCard, ev: list[Event]) -> None:
    key = _card_for(st, a)
    assert key is not None
    p = a.player
    st.jail[p] = False
    st.jail_tries[p] = 0
    ev.append(E.Released(p, "uses a Get Out of Jail Free card, then throws as usual"))
    cards.return_card(st, p, key, ev)


# ---------------------------------------------------------------- tax


def check_tax(st: Table, a: A.ChooseTax) -> str | None:
    if st.phase != TAX_CHOICE or st.current_player() != a.player:
        return f"No tax choice is waiting. {expected(st)}."
    return None


def do_tax(st: Table, a: A.ChooseTax, ev: list[Event]) -> None:
    p, s = a.player, st.pending
    ed = st.ed
    if a.percent:
        worth, detail = total_worth(st, p)
        amount = (worth * ed.tax_percent[s] + 50) // 100
        st.explain(f"{ed.names[s]}: {ed.tax_percent[s]}% of {detail}, {E.money(amount)}"
                   f" (rounded to the dollar).")
    else:
        amount = ed.tax_amount[s]
        st.explain(f"{ed.names[s]}: the flat {amount}, chosen before adding up the worth.")
    st.pending = -1
    st.phase = RESOLVING
    st.charge(p, BANK, amount, E.Paid(p, BANK, amount, ed.names[s]), ev)
    st.proceed(ev)


# ---------------------------------------------------------------- rent claims, time limit


def check_claim(st: Table, a: A.Claim) -> str | None:
    if not st.claim_rule:
        return "The Bank collects rent by itself in this game (option rent=auto)"
    reason = free_time(st, a.player)
    if reason:
        return reason
    if not any(c[1] == a.player for c in st.claims):
        return f"{st.name_of(a.player)} has no rent to claim now"
    return None


def do_claim(st: Table, a: A.Claim, ev: list[Event]) -> None:
    mine = [c for c in st.claims if c[1] == a.player]
    st.claims = [c for c in st.claims if c[1] != a.player]
    for payer, owner, amount, detail, _ in mine:
        st.explain(f"Rent {E.money(amount)}: {detail}.")
        st.charge(payer, owner, amount, E.RentPaid(payer, owner, amount, detail), ev)


def check_end_turn(st: Table, a: A.EndTurn) -> str | None:
    if st.phase != END or st.current_player() != a.player or a.player != st.turn:
        return f"There is no turn to end now. {expected(st)}."
    return None


def do_end_turn(st: Table, a: A.EndTurn, ev: list[Event]) -> None:
    st.next_turn(ev)


def check_time_up(st: Table, a: A.TimeUp) -> str | None:
    if st.variant != TIME_LIMIT:
        return "Only the Time Limit Game ends at an agreed hour"
    if st.phase == OVER:
        return "The game is over"
    return None


def do_time_up(st: Table, a: A.TimeUp, ev: list[Event]) -> None:
    st.end_game(ev, "Time is up: the richest player wins.")


HANDLERS: dict[type, tuple[Any, Any]] = {
    Throw: (check_throw, do_throw),
    Draw: (cards.check_draw, cards.do_draw),
    Shuffle: (cards.check_shuffle, cards.do_shuffle),
    A.Buy: (property.check_buy, property.do_buy),
    A.Auction: (property.check_decline, property.do_decline),
    A.Bid: (auctions.check_bid, auctions.do_bid),
    A.Pass: (auctions.check_pass, auctions.do_pass),
    A.AuctionBuilding: (buildings.check_auction_building, buildings.do_auction_building),
    A.Build: (buildings.check_build, buildings.do_build),
    A.SellBuilding: (buildings.check_sell_building, buildings.do_sell_building),
    A.SellGroup: (buildings.check_sell_group, buildings.do_sell_group),
    A.Mortgage: (property.check_mortgage, property.do_mortgage),
    A.Unmortgage: (property.check_unmortgage, property.do_unmortgage),
    A.KeepMortgaged: (trades.check_keep, trades.do_keep),
    A.Trade: (trades.check_trade, trades.do_trade),
    A.Accept: (trades.check_answer, trades.do_accept),
    A.Reject: (trades.check_answer, trades.do_reject),
    A.DeclareBankruptcy: (trades.check_bankruptcy, trades.do_bankruptcy),
    A.PayFine: (check_pay_fine, do_pay_fine),
    A.UseCard: (check_use_card, do_use_card),
    A.ChooseTax: (check_tax, do_tax),
    A.Claim: (check_claim, do_claim),
    A.Deal: (cards.check_deal, cards.do_deal),
    A.EndTurn: (check_end_turn, do_end_turn),
    A.TimeUp: (check_time_up, do_time_up),
}
