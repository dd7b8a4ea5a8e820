"""Chance and Community Chest: drawing (virtual deck order, or a physical card identified
from outside) and following a card's instructions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine import Draw, Event, Shuffle
from companion.games.monopoly import events as E
from companion.games.monopoly.edition import (
    ADVANCE,
    BACK,
    COLLECT,
    COLLECT_EACH,
    GOOJF,
    NEAREST,
    PAY,
    PAY_EACH,
    REPAIRS,
    TO_JAIL,
    Card,
)
from companion.games.monopoly.rent import HOTEL

if TYPE_CHECKING:
    from companion.games.monopoly.state import MonopolyState

from companion.games.monopoly import actions as A
from companion.games.monopoly.phases import BANK, CARD, RESOLVING, ROLL, SETUP, SHORT


def draw_top(st: MonopolyState, p: int, deck: str, ev: list[Event]) -> None:
    """Virtual deck: take the top card; it goes to the bottom unless it is kept."""
    order = st.decks[deck]
    card = st.ed.card_by_id[deck][order.pop(0)]
    if card.op != GOOJF:
        order.append(card.id)
    follow(st, p, card, ev)


def check_draw(st: MonopolyState, action: Draw) -> str | None:
    request = st.chance()
    if st.phase != CARD or request is None or request.kind != "card":
        return f"No card is expected now. {st.expected()}."
    if action.card not in request.cards:
        deck = st.ed.deck_names[request.deck]
        if action.card in st.ed.card_by_id[request.deck]:
            return f"{action.card} is held by a player, so it cannot be drawn from {deck}"
        return f"{action.card} is not a {deck} card"
    return None


def do_draw(st: MonopolyState, action: Draw, ev: list[Event]) -> None:
    deck = st._card_deck()
    st.phase = RESOLVING
    card = st.ed.card_by_id[deck][action.card]
    if st.virtual and card.op != GOOJF:
        st.decks[deck].append(card.id)  # drawn, so now known: it goes to the bottom
    follow(st, st.turn, card, ev)
    st.proceed(ev)


def check_shuffle(st: MonopolyState, action: Shuffle) -> str | None:
    if action.deck in st.decks:
        return _check_whole_deck(st, action)
    request = st.chance()
    if request is None or request.kind != "shuffle":
        return "No shuffle is expected now"
    if action.deck != request.deck:
        return f"I need the {request.deck} deck shuffled, not {action.deck}"
    if sorted(action.order) != sorted(request.cards):
        return f"A shuffled {request.deck} deck holds each of its cards exactly once"
    return None


def _check_whole_deck(st: MonopolyState, action: Shuffle) -> str | None:
    """A virtual Chance or Community Chest deck given in full before any card of it is
    drawn: journals written when virtual decks were shuffled at the start (and the
    simulator) replay as they were, every card's place known."""
    if st.decks[action.deck] or len(st.unseen(action.deck)) != len(st.ed.decks[action.deck]):
        return f"The {st.ed.deck_names[action.deck]} deck is in play already"
    if sorted(action.order) != sorted(c.id for c in st.ed.decks[action.deck]):
        return f"A shuffled {action.deck} deck holds each of its cards exactly once"
    return None


def do_shuffle(st: MonopolyState, action: Shuffle, ev: list[Event]) -> None:
    if action.deck in st.decks:
        st.decks[action.deck] = list(action.order)
        return
    st.setup.pop(0)
    if action.deck == "deeds":
        _deal(st, action.order, ev, free=st.variant == SHORT)
    else:
        st.decks[action.deck] = list(action.order)
    if not st.setup:
        st.phase = ROLL


def deeds_each(st: MonopolyState) -> int:
    return 3 if st.variant == SHORT else 2


def _deal(st: MonopolyState, order: tuple[str, ...], ev: list[Event], free: bool) -> None:
    """Short Game: three free deeds each; Time Limit Game: two each, paid at once."""
    ed = st.ed
    each = deeds_each(st)
    index = {ed.names[s]: s for s in ed.properties}
    dealt: list[list[int]] = [[] for _ in range(st.n)]
    for k in range(each * st.n):
        dealt[k % st.n].append(index[order[k]])
    for p, spaces in enumerate(dealt):
        _hand_deeds(st, p, spaces, ev)


def _hand_deeds(st: MonopolyState, p: int, spaces: list[int] | tuple[int, ...],
                ev: list[Event]) -> None:
    ed = st.ed
    paid = 0 if st.variant == SHORT else sum(ed.price[s] for s in spaces)
    for s in spaces:
        st.owner[s] = p
    st.cash[p] -= paid
    st.collected += paid
    ev.append(E.Dealt(p, tuple(ed.names[s] for s in spaces), paid))


def check_deal(st: MonopolyState, a: A.Deal) -> str | None:
    if st.phase != SETUP or not st.setup or st.setup[0] != "deeds":
        return "Title deeds are dealt only before the Short or Time Limit Game starts"
    ed = st.ed
    each = deeds_each(st)
    if any(o == a.player for o in st.owner):
        return f"{st.name_of(a.player)} has already been dealt their deeds"
    if len(a.spaces) != each or len(set(a.spaces)) != each:
        return f"Each player is dealt {each} different title deeds"
    for s in a.spaces:
        if not 0 <= s < ed.size or not ed.is_property[s]:
            return "Only title deeds of properties are dealt"
        if st.owner[s] >= 0:
            return f"{ed.names[s]} was dealt to {st.name_of(st.owner[s])} already"
    return None


def do_deal(st: MonopolyState, a: A.Deal, ev: list[Event]) -> None:
    _hand_deeds(st, a.player, a.spaces, ev)
    if all(any(o == p for o in st.owner) for p in range(st.n)):
        st.setup.pop(0)
        if not st.setup:
            st.phase = ROLL


def follow(st: MonopolyState, p: int, card: Card, ev: list[Event]) -> None:
    ed = st.ed
    ev.append(E.CardDrawn(p, ed.deck_names[card.deck], card.text))
    op = card.op
    if op == ADVANCE:
        st.move_to(p, card.arg, "advances to", ev)
        st.land(p, card.arg, ev)
    elif op == NEAREST:
        dest = ed.nearest[card.arg][st.pos[p]]
        st.move_to(p, dest, "advances to the nearest", ev)
        st.land(p, dest, ev, card_mult=card.arg2)
    elif op == BACK:
        dest = (st.pos[p] - card.arg) % ed.size
        st.pos[p] = dest
        ev.append(E.Moved(p, ed.names[dest], f"goes back {card.arg} spaces to"))
        st.land(p, dest, ev)
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


def return_card(st: MonopolyState, p: int, key: str, ev: list[Event]) -> None:
    """A used (or surrendered) Get Out of Jail Free card goes to the bottom of its deck."""
    st.held[p].remove(key)
    card = st.ed.cards[key]
    if st.virtual:
        st.decks[card.deck].append(card.id)
    ev.append(E.CardReturned(p, st.ed.deck_names[card.deck]))
