"""A token's moves: a throw (doubles, Jail), moving, landing on a space, and following a
Chance or Community Chest card, which moves tokens and lands them again (so the two are one
module: landing on a card space may draw the top card of a virtual deck)."""

from __future__ import annotations

from companion.engine import Event, Note
from companion.games.monopoly import events as E
from companion.games.monopoly.edition import (
    ADVANCE,
    BACK,
    CHANCE_SPACE,
    CHEST_SPACE,
    COLLECT,
    COLLECT_EACH,
    FREE,
    GOOJF,
    GOTOJAIL,
    NEAREST,
    PAY,
    PAY_EACH,
    REPAIRS,
    TAX,
    TO_JAIL,
    UTILITY,
    Card,
)
from companion.games.monopoly.phases import (
    BANK,
    BUY,
    CARD,
    RESOLVING,
    SHORT,
    TAX_CHOICE,
    UTIL_DICE,
)
from companion.games.monopoly.rent import HOTEL, rent
from companion.games.monopoly.table import Table


def do_throw(st: Table, values: tuple[int, ...], ev: list[Event]) -> None:
    if st.phase == UTIL_DICE:
        _utility_card_rent(st, values, ev)
        return
    p = st.turn
    a, b = values
    st.last_dice = values
    if st.claims:
        _lapse_claims(st, ev)
    if st.jail[p]:
        _jail_throw(st, p, a, b, ev)
        return
    if a == b:
        st.doubles += 1
        if st.doubles == 3:
            st.send_to_jail(p, "third doubles in a row", ev)
            st.finish_move(ev)
            return
        st.again = True
    else:
        st.again = False
    st.phase = RESOLVING
    move_by(st, p, a + b, ev, values)
    if st.phase == RESOLVING:
        st.finish_move(ev)

def _jail_throw(st: Table, p: int, a: int, b: int, ev: list[Event]) -> None:
    st.again = False
    st.phase = RESOLVING
    if a == b:
        st.jail[p] = False
        st.jail_tries[p] = 0
        ev.append(E.Released(p, "doubles; no further throw this turn"))
        move_by(st, p, a + b, ev, (a, b))
    else:
        st.jail_tries[p] += 1
        if st.jail_tries[p] >= st.jail_limit:
            fine = st.ed.jail_fine
            st.jail[p] = False
            st.jail_tries[p] = 0
            st.explain(f"The {fine} Jail fine, due after failing to throw doubles.")
            st.charge(p, BANK, fine, E.Paid(p, BANK, fine, "the Jail fine"), ev)
            ev.append(E.Released(p, "no doubles, so the fine is due and the token moves"))
            move_by(st, p, a + b, ev, (a, b))
        else:
            ev.append(E.StaysInJail(p, (a, b), st.jail_tries[p]))
    if st.phase == RESOLVING:
        st.finish_move(ev)

def move_by(st: Table, p: int, steps: int, ev: list[Event], dice: tuple[int, ...]) -> None:
    ed = st.ed
    start = st.pos[p]
    dest = (start + steps) % ed.size
    st.pos[p] = dest
    if dice:  # a throw that stops on the Jail square is Just Visiting
        ev.append(E.Thrown(p, dice, "Just Visiting" if dest == ed.jail else ed.names[dest]))
    if dest < start or dest == ed.go:
        st.give(p, ed.salary, "salary", ev)
        ev[-1] = E.Salary(p, ed.salary, dest == ed.go, ed.names[ed.go])
    land(st, p, dest, ev)


def land(st: Table, p: int, s: int, ev: list[Event], card_mult: int = 0) -> None:
    ed = st.ed
    kind = ed.kind[s]
    if ed.is_property[s]:
        o = st.owner[s]
        if o < 0:
            st.pending = s
            st.phase = BUY
            ev.append(E.ForSale(p, ed.names[s], ed.price[s]))
        elif o == p:
            pass
        elif st.mort[s]:
            ev.append(E.NoRent(p, ed.names[s], "mortgaged, no rent"))
        elif kind == UTILITY and card_mult:
            st.card_mult = card_mult
            st.phase = UTIL_DICE
        else:
            amount, detail = rent(st, s, sum(st.last_dice), card_mult)
            owe_rent(st, p, o, amount, detail, ev)
    elif kind in (CHANCE_SPACE, CHEST_SPACE):
        deck = "chance" if kind == CHANCE_SPACE else "chest"
        if st.virtual and not st.unseen(deck):
            draw_top(st, p, deck, ev)  # every card's place is known: the top one
        else:
            st.phase = CARD  # a card to read, type or (virtual) draw
    elif kind == TAX:
        if ed.tax_percent[s] and st.variant != SHORT:
            st.pending = s
            st.phase = TAX_CHOICE
            ev.append(E.TaxChoice(p, ed.names[s], ed.tax_amount[s], ed.tax_percent[s]))
        else:
            amount = ed.tax_amount[s]
            st.explain(f"{ed.names[s]}: a flat {amount}.")
            st.charge(p, BANK, amount, E.Paid(p, BANK, amount, ed.names[s]), ev)
    elif kind == GOTOJAIL:
        st.send_to_jail(p, f"landed on {ed.names[s]}", ev)
    elif kind == FREE and st.ferris:
        _ferris_wheel(st, p, s, ev)

def owe_rent(st: Table, p: int, owner: int, amount: int, detail: str, ev: list[Event]) -> None:
    st.explain(f"Rent {E.money(amount)}: {detail}.")
    if st.claim_rule:
        st.claims.append([p, owner, amount, detail, st.turn_no + 2])
        ev.append(E.RentDue(p, owner, amount, detail))
        return
    st.charge(p, owner, amount, E.RentPaid(p, owner, amount, detail), ev)

def _utility_card_rent(st: Table, values: tuple[int, ...], ev: list[Event]) -> None:
    p = st.turn
    s = st.pos[p]
    total = values[0] + values[1]
    ev.append(Note(f"{st.game.players[p]} throws {total} for the card."))
    amount, detail = rent(st, s, total, st.card_mult)
    st.card_mult = 0
    st.phase = RESOLVING
    owe_rent(st, p, st.owner[s], amount, detail, ev)
    st.proceed(ev)

def _ferris_wheel(st: Table, p: int, s: int, ev: list[Event]) -> None:
    ed = st.ed
    for step in range(1, ed.size):
        t = (s + step) % ed.size
        if ed.is_property[t] and st.owner[t] < 0:
            st.move_to(p, t, "rides the Ferris Wheel to", ev)
            land(st, p, t, ev)
            return
    ev.append(Note("Every property is owned: no Ferris Wheel ride."))

def _lapse_claims(st: Table, ev: list[Event]) -> None:
    keep = []
    for claim in st.claims:
        if st.turn_no >= claim[4]:
            ev.append(E.RentLapsed(claim[0], claim[1], claim[2]))
        else:
            keep.append(claim)
    st.claims = keep


# ---------------------------------------------------------------- cards


def draw_top(st: Table, p: int, deck: str, ev: list[Event]) -> None:
    """Virtual deck: take the top card; it goes to the bottom unless it is kept."""
    order = st.decks[deck]
    card = st.ed.card_by_id[deck][order.pop(0)]
    if card.op != GOOJF:
        order.append(card.id)
    follow(st, p, card, ev)


def follow(st: Table, p: int, card: Card, ev: list[Event]) -> None:
    ed = st.ed
    ev.append(E.CardDrawn(p, ed.deck_names[card.deck], card.text))
    op = card.op
    if op == ADVANCE:
        st.move_to(p, card.arg, "advances to", ev)
        land(st, p, card.arg, ev)
    elif op == NEAREST:
        dest = ed.nearest[card.arg][st.pos[p]]
        st.move_to(p, dest, "advances to the nearest", ev)
        land(st, p, dest, ev, card_mult=card.arg2)
    elif op == BACK:
        dest = (st.pos[p] - card.arg) % ed.size
        st.pos[p] = dest
        ev.append(E.Moved(p, ed.names[dest], f"goes back {card.arg} spaces to"))
        land(st, p, dest, ev)
    elif op == TO_JAIL:
        st.send_to_jail(p, "the card says so", ev)
    elif op == COLLECT:
        st.give(p, card.arg, "", ev)
    elif op == PAY:
        st.explain(f"The card: {card.text}")
        st.charge(p, BANK, card.arg, E.Paid(p, BANK, card.arg, ""), ev)
    elif op == PAY_EACH:
        st.explain(f"The card: {card.text}")
        for q in st.active():
            if q != p:
                st.charge(p, q, card.arg, E.Paid(p, q, card.arg, ""), ev)
    elif op == COLLECT_EACH:
        st.explain(f"The card: {card.text}")
        for q in st.active():
            if q != p:
                st.charge(q, p, card.arg, E.Paid(q, p, card.arg, ""), ev)
    elif op == REPAIRS:
        houses = sum(b for s, b in enumerate(st.bld) if st.owner[s] == p and b != HOTEL)
        hotels = sum(1 for s, b in enumerate(st.bld) if st.owner[s] == p and b == HOTEL)
        amount = houses * card.arg + hotels * card.arg2
        words = ed.words
        st.explain(f"The card: {houses} {words['houses']} at {card.arg} and {hotels}"
                   f" {words['hotels']} at {card.arg2}, {E.money(amount)}.")
        if amount:
            st.charge(p, BANK, amount, E.Paid(p, BANK, amount, "repairs"), ev)
    elif op == GOOJF:
        st.held[p].append(card.key)
