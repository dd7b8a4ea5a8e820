"""Rent and worth: pure arithmetic over a table's holdings, with the explanation said by
``why``."""

from __future__ import annotations

from typing import Protocol

from companion.games.monopoly.edition import LOT, RAILROAD, UTILITY, Edition, name_list
from companion.games.monopoly.events import money

HOTEL = 5


class Holdings(Protocol):
    """What rent and worth read: deeds, buildings, mortgages and cash (a Table). Only read,
    never called back: this module sits below the table, which asks it for rent."""

    ed: Edition
    owner: list[int]
    bld: list[int]
    mort: list[bool]
    cash: list[int]
    hotel_level: int


def tenth(amount: int) -> int:
    """10% rounded to the nearest dollar, halves up (the Bank has no coins)."""
    return (amount + 5) // 10


def owns_group(st: Holdings, player: int, space: int) -> bool:
    owner = st.owner
    return all(owner[m] == player for m in st.ed.kin[space])


def rent(st: Holdings, space: int, dice_total: int, card_mult: int = 0) -> tuple[int, str]:
    """The rent due on ``space`` (owned, unmortgaged) and why.

    ``card_mult``: a card's multiplier (2x railroad rent; 10x the dice for a utility).
    Mortgaged lots still count as owned for the double rent, the railroad count and the
    utility count: the rulebook keeps the double rent "even if another property in that
    color-group is mortgaged", and we read railroads and utilities the same way.
    """
    ed = st.ed
    kind = ed.kind[space]
    name = ed.names[space]
    owner = st.owner[space]
    if kind == LOT:
        b = st.bld[space]
        if b:
            return ed.rent[space][b], f"{name} with {ed.building_words(b)}"
        base = ed.rent[space][0]
        if owns_group(st, owner, space):
            group = ed.group_names[ed.group[space]]
            return 2 * base, f"{name}, unimproved in the complete {group} group, {base} doubled"
        return base, name
    kin = ed.kin[space]
    count = sum(1 for m in kin if st.owner[m] == owner)
    if kind == RAILROAD:
        amount = ed.railroad_rent[count - 1]
        what = ed.words["railroad"] if count == 1 else ed.words["railroads"]
        detail = f"{name}, owner has {count} {what}"
        if card_mult > 1:
            return amount * card_mult, f"{detail}, {amount} doubled by the card"
        return amount, detail
    if kind == UTILITY:
        mult = card_mult or ed.utility_mult[min(count, len(ed.utility_mult)) - 1]
        how = "by the card" if card_mult else (
            "owner has both" if count >= 2 else "owner has one")
        return mult * dice_total, f"{name}, {mult} times the dice {dice_total}, {how}"
    return 0, name


def units(st: Holdings, space: int) -> int:
    """The buildings on a lot in houses (a hotel counts the houses turned in for it)."""
    b = st.bld[space]
    return st.hotel_level if b == HOTEL else b


def building_cost(st: Holdings, space: int) -> int:
    """Cost price of the buildings on a lot (a hotel counts the houses turned in)."""
    if not st.bld[space]:
        return 0
    return units(st, space) * st.ed.house_cost[space]


def total_worth(st: Holdings, player: int) -> tuple[int, str]:
    """Income-tax worth: cash, printed prices (mortgaged or not), buildings at cost."""
    ed = st.ed
    props = sum(ed.price[s] for s in ed.properties if st.owner[s] == player)
    build = sum(building_cost(st, s) for s in ed.properties if st.owner[s] == player)
    cash = st.cash[player]
    total = cash + props + build
    return total, (f"total worth {money(total)}: cash {money(cash)}, properties"
                   f" {money(props)}, buildings {money(build)}")


def valuation(st: Holdings, player: int) -> int:
    """The Short Game's printed end valuation: mortgaged property at half price."""
    ed = st.ed
    total = st.cash[player]
    for s in ed.properties:
        if st.owner[s] == player:
            total += ed.price[s] // 2 if st.mort[s] else ed.price[s]
            total += building_cost(st, s)
    return total


def lift_cost(st: Holdings, s: int) -> int:
    """Lifting a mortgage: the mortgage plus 10% interest."""
    m = st.ed.mortgage[s]
    return m + tenth(m)


def raisable(st: Holdings, p: int) -> tuple[int, str]:
    """What ``p`` can raise from the Bank by selling every building and mortgaging every
    deed, and how ("sell 6 houses for 150 and mortgage Baltic Avenue for 30")."""
    ed = st.ed
    houses = hotels = from_buildings = from_deeds = 0
    deeds: list[str] = []
    for s in ed.properties:
        if st.owner[s] != p:
            continue
        if st.bld[s] == HOTEL:
            hotels += 1
        else:
            houses += st.bld[s]
        from_buildings += units(st, s) * (ed.house_cost[s] // 2)
        if not st.mort[s]:
            deeds.append(ed.names[s])
            from_deeds += ed.mortgage[s]
    words = ed.words
    sold = []
    if houses:
        sold.append(f"{houses} {words['house' if houses == 1 else 'houses']}")
    if hotels:
        sold.append(f"{hotels} {words['hotel' if hotels == 1 else 'hotels']}")
    steps = []
    if sold:
        steps.append(f"sell {' and '.join(sold)} for {money(from_buildings)}")
    if deeds:
        steps.append(f"mortgage {name_list(deeds)} for {money(from_deeds)}")
    return from_buildings + from_deeds, " and ".join(steps) or "nothing"
