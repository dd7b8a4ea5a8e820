"""Chance and Community Chest: shuffling, drawing (virtual deck order, or a physical card
identified from outside), a used card put back; the Short and Time Limit Games' deal of
title deeds. Following a card's instructions moves tokens: moves.py."""

from __future__ import annotations

from companion.engine import Draw, Event, Shuffle
from companion.games.monopoly import actions as A
from companion.games.monopoly import events as E
from companion.games.monopoly.edition import GOOJF
from companion.games.monopoly.moves import follow
from companion.games.monopoly.phases import CARD, RESOLVING, ROLL, SETUP, SHORT
from companion.games.monopoly.table import Table
from companion.games.monopoly.views import expected


def check_draw(st: Table, action: Draw) -> str | None:
    request = st.chance()
    if st.phase != CARD or request is None or request.kind != "card":
        return f"No card is expected now. {expected(st)}."
    if action.card not in request.cards:
        deck = st.ed.deck_names[request.deck]
        if action.card in st.ed.card_by_id[request.deck]:
            return f"{action.card} is held by a player, so it cannot be drawn from {deck}"
        return f"{action.card} is not a {deck} card"
    return None


def do_draw(st: Table, action: Draw, ev: list[Event]) -> None:
    deck = st._card_deck()
    st.phase = RESOLVING
    card = st.ed.card_by_id[deck][action.card]
    if st.virtual and card.op != GOOJF:
        st.decks[deck].append(card.id)  # drawn, so now known: it goes to the bottom
    follow(st, st.turn, card, ev)
    st.proceed(ev)


def check_shuffle(st: Table, action: Shuffle) -> str | None:
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


def _check_whole_deck(st: Table, action: Shuffle) -> str | None:
    """A virtual Chance or Community Chest deck given in full before any card of it is
    drawn: journals written when virtual decks were shuffled at the start (and the
    simulator) replay as they were, every card's place known."""
    if st.decks[action.deck] or len(st.unseen(action.deck)) != len(st.ed.decks[action.deck]):
        return f"The {st.ed.deck_names[action.deck]} deck is in play already"
    if sorted(action.order) != sorted(c.id for c in st.ed.decks[action.deck]):
        return f"A shuffled {action.deck} deck holds each of its cards exactly once"
    return None


def do_shuffle(st: Table, action: Shuffle, ev: list[Event]) -> None:
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


def deeds_each(st: Table) -> int:
    return 3 if st.variant == SHORT else 2


def _deal(st: Table, order: tuple[str, ...], ev: list[Event], free: bool) -> None:
    """Short Game: three free deeds each; Time Limit Game: two each, paid at once."""
    ed = st.ed
    each = deeds_each(st)
    index = {ed.names[s]: s for s in ed.properties}
    dealt: list[list[int]] = [[] for _ in range(st.n)]
    for k in range(each * st.n):
        dealt[k % st.n].append(index[order[k]])
    for p, spaces in enumerate(dealt):
        _hand_deeds(st, p, spaces, ev)


def _hand_deeds(st: Table, p: int, spaces: list[int] | tuple[int, ...],
                ev: list[Event]) -> None:
    ed = st.ed
    paid = 0 if st.variant == SHORT else sum(ed.price[s] for s in spaces)
    for s in spaces:
        st.owner[s] = p
    st.cash[p] -= paid
    st.collected += paid
    ev.append(E.Dealt(p, tuple(ed.names[s] for s in spaces), paid))


def check_deal(st: Table, a: A.Deal) -> str | None:
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


def do_deal(st: Table, a: A.Deal, ev: list[Event]) -> None:
    _hand_deeds(st, a.player, a.spaces, ev)
    if all(any(o == p for o in st.owner) for p in range(st.n)):
        st.setup.pop(0)
        if not st.setup:
            st.phase = ROLL


def return_card(st: Table, p: int, key: str, ev: list[Event]) -> None:
    """A used (or surrendered) Get Out of Jail Free card goes to the bottom of its deck."""
    st.held[p].remove(key)
    card = st.ed.cards[key]
    if st.virtual:
        st.decks[card.deck].append(card.id)
    ev.append(E.CardReturned(p, st.ed.deck_names[card.deck]))
