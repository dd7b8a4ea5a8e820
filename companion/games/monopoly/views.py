"""What the table hears and sees: the JSON state, action wording, prompts and queries."""

from __future__ import annotations

from typing import Any

from companion.engine import Action, Draw, Shuffle, Throw, encode_action
from companion.games.monopoly import actions as A
from companion.games.monopoly.edition import KIND_NAMES, UTILITY, name_list
from companion.games.monopoly.events import money
from companion.games.monopoly.phases import (
    BUY,
    CARD,
    END,
    OVER,
    PHASE_NAMES,
    SETUP,
    TAX_CHOICE,
    UTIL_DICE,
)
from companion.games.monopoly.rent import HOTEL, rent, total_worth, valuation
from companion.games.monopoly.table import Table


def pending_json(st: Table) -> dict[str, Any] | None:
    ed = st.ed
    if st.phase == OVER:
        return None
    if st.trade is not None:
        return {"type": "trade", "player": st.trade.partner, "offer": encode_action(st.trade)}
    if st.transfers:
        p, s = st.transfers[0]
        return {"type": "mortgaged-transfer", "player": p, "space": s}
    if st.debts:
        d = st.debts[0]
        return {"type": "debt", "player": d[0], "creditor": d[1], "amount": d[2]}
    if st.auction is not None:
        a = st.auction
        return {"type": "auction", "player": a.to_act,
                "space": a.space if a.space >= 0 else None,
                "building": None if a.space >= 0 else ("hotel" if a.hotel else "house"),
                "bidders": list(a.bidders), "high_bid": a.high,
                "high_bidder": a.high_bidder if a.high_bidder >= 0 else None}
    if st.place is not None:
        return {"type": "place-building", "player": st.place[0],
                "building": "hotel" if st.place[1] else "house"}
    out: dict[str, Any] = {"type": PHASE_NAMES[st.phase], "player": st.turn}
    if st.phase in (BUY, TAX_CHOICE):
        out["space"] = st.pending
    if st.phase == CARD:
        out["deck"] = st._card_deck()
    if st.phase == 0 and st.setup:
        out["deck"] = st.setup[0]
    del ed
    return out


def state_json(st: Table) -> dict[str, Any]:
    ed = st.ed
    names = st.game.players
    players = [
        {"name": names[p], "cash": st.cash[p], "position": st.pos[p],
         "space": ed.names[st.pos[p]], "in_jail": st.jail[p], "jail_turns": st.jail_tries[p],
         "cards": list(st.held[p]), "bankrupt": st.out[p]}
        for p in range(st.n)
    ]
    spaces = []
    for s in range(ed.size):
        entry: dict[str, Any] = {"index": s, "name": ed.names[s], "kind": KIND_NAMES[ed.kind[s]]}
        if ed.is_property[s]:
            b = st.bld[s]
            entry.update(owner=st.owner[s] if st.owner[s] >= 0 else None,
                         houses=0 if b == HOTEL else b, hotel=b == HOTEL,
                         mortgaged=st.mort[s], price=ed.price[s])
        spaces.append(entry)
    return {
        "game": "monopoly",
        "edition": ed.name,
        "variant": st.variant,
        "cards": "virtual" if st.virtual else "physical",
        "turn": st.turn,
        "current_player": st.current_player(),
        "doubles": st.doubles,
        "pending": pending_json(st),
        "players": players,
        "spaces": spaces,
        "bank": {"houses": st.bank_houses, "hotels": st.bank_hotels, "issued": st.issued,
                 "collected": st.collected},
        # counts only: no command shows a deck's order during a game
        "decks": {d: {"cards": len(order) + len(st.unseen(d)), "unseen": len(st.unseen(d))}
                  for d, order in st.decks.items()} if st.virtual else None,
        "rent_claims": [{"payer": c[0], "owner": c[1], "amount": c[2]} for c in st.claims],
        "why": st.why,
        "winners": list(st.winners_),
        "over": st.phase == OVER,
    }


def trade_text(st: Table, t: A.Trade) -> str:
    def side(spaces: tuple[int, ...], cash: int, cards: tuple[str, ...]) -> str:
        parts = [st.ed.names[s] for s in spaces if 0 <= s < st.ed.size]
        parts += ["a Get Out of Jail Free card"] * len(cards)
        if cash:
            parts.append(money(cash))
        return " and ".join(parts) or "nothing"

    return (f"{side(t.give, t.give_cash, t.give_cards)} for"
            f" {side(t.take, t.take_cash, t.take_cards)}")


def describe_action(st: Table, a: Action) -> str:
    ed = st.ed
    names = st.game.players

    def sp(s: int) -> str:
        return ed.names[s] if 0 <= s < ed.size else f"space {s}"

    pl = getattr(a, "player", None)
    who = names[pl] if isinstance(pl, int) and 0 <= pl < len(names) else ""
    table: dict[type, Any] = {
        A.Buy: lambda: f"{who} buys {sp(st.pending)}" if st.pending >= 0 else "buy",
        A.Auction: lambda: "auction it",
        A.Bid: lambda: f"{who} bids {money(a.amount)}",  # type: ignore[attr-defined]
        A.Pass: lambda: f"{who} passes",
        A.Build: lambda: f"{who} builds on {sp(a.space)}",  # type: ignore[attr-defined]
        A.SellBuilding: lambda: f"{who} sells a building on {sp(a.space)}",  # type: ignore
        A.SellGroup: lambda: f"{who} sells {sp(a.space)}'s group down to"  # type: ignore
                             f" {a.houses}",  # type: ignore[attr-defined]
        A.Mortgage: lambda: f"{who} mortgages {sp(a.space)}",  # type: ignore[attr-defined]
        A.Unmortgage: lambda: f"{who} lifts the mortgage on {sp(a.space)}",  # type: ignore
        A.KeepMortgaged: lambda: f"{who} keeps {sp(a.space)} mortgaged",  # type: ignore
        A.Accept: lambda: f"{who} accepts",
        A.Reject: lambda: f"{who} rejects",
        A.PayFine: lambda: f"{who} pays the fine",
        A.UseCard: lambda: f"{who} uses a Get Out of Jail Free card",
        A.ChooseTax: lambda: "pay 10% of total worth" if a.percent  # type: ignore
        else "pay the flat tax",
        A.DeclareBankruptcy: lambda: f"{who} declares bankruptcy",
        A.Claim: lambda: f"{who} claims rent",
        A.TimeUp: lambda: "time is up",
        A.EndTurn: lambda: f"{who} ends the turn",
        A.Deal: lambda: f"{who} is dealt " + name_list(
            [sp(s) for s in a.spaces]),  # type: ignore[attr-defined]
    }
    fn = table.get(type(a))
    if fn is not None:
        return str(fn())
    if isinstance(a, A.Trade):
        return f"{who} offers {names[a.partner]} {trade_text(st, a)}"
    if isinstance(a, Throw | Draw | Shuffle):
        return str(a)
    return repr(a)


def choices_text(st: Table) -> str:
    """The decision now in one sentence (the turn's end, a purchase, an auction), or ""
    where the list of moves is the answer."""
    names = st.game.players
    cp = st.current_player()
    if cp < 0 or st.trade is not None or st.transfers or st.debts:
        return ""
    if st.auction is not None:
        auc = st.auction
        who = name_list([names[b] for b in auc.bidders])
        if auc.high_bidder < 0:
            return f"No bid yet; still in: {who}. {names[cp]}: bid or pass."
        return (f"High bid {money(auc.high)}, {names[auc.high_bidder]}'s; still in: {who}."
                f" {names[cp]}: bid more than {money(auc.high)}, or pass.")
    if st.place is not None:
        return ""
    if st.phase == BUY and cp == st.turn:
        s = st.pending
        return (f"{names[cp]}: buy {st.ed.names[s]} for {money(st.ed.price[s])}, or auction"
                " it.")
    if st.phase == END and cp == st.turn:
        return f"{names[cp]}: build, sell, mortgage or trade, or say end."
    return ""


def expected(st: Table) -> str:
    ed = st.ed
    names = st.game.players
    if st.phase == OVER:
        return "The game is over"
    if st.trade is not None:
        return f"{names[st.trade.partner]} to accept or reject the offer"
    if st.transfers:
        p, s = st.transfers[0]
        return f"{names[p]} to lift or keep the mortgage on {ed.names[s]}"
    if st.debts:
        d = st.debts[0]
        return (f"{names[d[0]]} to raise {money(d[2])} or declare bankruptcy")
    if st.auction is not None:
        high = st.auction.high
        return f"{names[st.auction.to_act]} to bid above {money(high)} or pass"
    if st.place is not None:
        return f"{names[st.place[0]]} to place the building won at auction"
    p = st.turn
    if st.phase == SETUP:
        if st.setup[0] == "deeds":
            return ("Deal the title deeds: type deal, the player and the deeds (or shuffle"
                    " them virtually)")
        return f"Shuffle the {st.setup[0]} deck"
    if st.phase == BUY:
        return f"{names[p]} to buy {ed.names[st.pending]} or auction it"
    if st.phase == TAX_CHOICE:
        return f"{names[p]} to choose the flat tax or 10%"
    if st.phase == CARD:
        return f"{names[p]} to draw a {ed.deck_names[st._card_deck()]} card"
    if st.phase == UTIL_DICE:
        return f"{names[p]} to throw the dice for the utility card"
    if st.phase == END:
        return f"{names[p]} to build, sell, mortgage or trade, or end the turn"
    if st.jail[p]:
        return (f"{names[p]} to throw for doubles in Jail, or first pay the fine or use a"
                f" card")
    return f"{names[p]} to throw the dice"


# ---------------------------------------------------------------- queries


def query(st: Table, text: str) -> str | None:
    """Answer ``balance``, ``worth``, ``owns PLAYER``, ``rent SPACE``, ``why``; else None."""
    words = text.strip().split(None, 1)
    if not words:
        return None
    head = words[0].lower()
    rest = words[1] if len(words) > 1 else ""
    names = st.game.players
    if head in ("balance", "balances", "cash"):
        ps = [_player(st, rest)] if rest else range(st.n)
        return "; ".join(f"{names[p]} has {money(st.cash[p])}"
                         + (" (bankrupt)" if st.out[p] else "") for p in ps) + "."
    if head == "worth":
        ps = [_player(st, rest)] if rest else st.active()
        parts = []
        for p in ps:
            total, detail = total_worth(st, p)
            parts.append(f"{names[p]}: {detail}; end-of-game valuation {money(valuation(st, p))}")
        return ". ".join(parts) + "."
    if head == "owns":
        p = _player(st, rest) if rest else st.turn
        return owns_text(st, p)
    if head == "rent":
        if not rest:
            return "Which space? Say rent and the space, e.g. rent Boardwalk."
        return rent_text(st, rest)
    if head == "why":
        return st.why
    if head in ("board", "deeds"):
        return board_text(st)
    if head == "who" and rest.lower().startswith("owns "):
        return who_owns(st, rest[5:])
    if head == "where":
        who = rest[3:] if rest.lower().startswith("is ") else rest
        return where_is(st, _player(st, who) if who.strip() else st.turn)
    if head in ("standings", "standing"):
        return standings(st)
    return None


def board_text(st: Table) -> str:
    """'board' / 'deeds': every property by group, with its owner, buildings, mortgage."""
    ed = st.ed
    groups: dict[str, list[str]] = {}
    for s in ed.properties:
        g = ed.group[s]
        label = (ed.group_names[g] if g >= 0 else
                 ed.words["railroads"].capitalize() if s in ed.railroads else
                 ed.words["utilities"].capitalize())
        groups.setdefault(label, []).append(f"{ed.names[s]} {_deed_state(st, s)}")
    return " ".join(f"{label}: {'; '.join(items)}." for label, items in groups.items())


def _deed_state(st: Table, s: int) -> str:
    o = st.owner[s]
    if o < 0:
        return "(unowned)"
    extra = [st.game.players[o]]
    if st.bld[s]:
        extra.append(st.ed.building_words(st.bld[s]))
    if st.mort[s]:
        extra.append("mortgaged")
    return f"({', '.join(extra)})"


def who_owns(st: Table, text: str) -> str:
    try:
        s = st.ed.space(text)
    except ValueError as err:
        reason = str(err)
        return reason[:1].upper() + reason[1:] + "."
    name = st.ed.names[s]
    if not st.ed.is_property[s]:
        return f"{name} is not a property: no one owns it."
    o = st.owner[s]
    if o < 0:
        return f"{name} is unowned: the price is {money(st.ed.price[s])}."
    detail = _deed_state(st, s)[1:-1].split(", ")[1:]
    more = f" ({', '.join(detail)})" if detail else ""
    return f"{st.game.players[o]} owns {name}{more}."


def where_is(st: Table, p: int) -> str:
    name = st.game.players[p]
    if st.out[p]:
        return f"{name} is bankrupt and out of the game."
    return f"{name} is {position_words(st, p)}."


def position_words(st: Table, p: int) -> str:
    """ "in Jail", "on Just Visiting", "on Boardwalk (space 39)"."""
    s = st.pos[p]
    if s == st.ed.jail:
        return "in Jail" if st.jail[p] else "just visiting Jail"
    return f"on {st.ed.names[s]}"


def standings(st: Table) -> str:
    """Players by net worth (the end-of-game valuation: cash, deeds at their printed price or
    half when mortgaged, buildings at cost), richest first."""
    names = st.game.players
    ranked = sorted(st.active(), key=lambda p: -valuation(st, p))
    parts = [f"{k}. {names[p]}, worth {money(valuation(st, p))} ({money(st.cash[p])} cash,"
             f" {position_words(st, p)})" for k, p in enumerate(ranked, 1)]
    out = [names[p] for p in range(st.n) if st.out[p]]
    gone = f" Bankrupt: {name_list(out)}." if out else ""
    return "Standings by net worth: " + "; ".join(parts) + "." + gone


def _player(st: Table, text: str) -> int:
    low = text.strip().lower()
    for p, name in enumerate(st.game.players):
        if name.lower() == low:
            return p
    for p, name in enumerate(st.game.players):
        if name.lower().startswith(low):
            return p
    raise ValueError(f"there is no player called {text.strip()!r}")


def owns_text(st: Table, p: int) -> str:
    ed = st.ed
    items = []
    for s in ed.properties:
        if st.owner[s] == p:
            extra = []
            if st.bld[s]:
                extra.append(ed.building_words(st.bld[s]))
            if st.mort[s]:
                extra.append("mortgaged")
            items.append(ed.names[s] + (f" ({', '.join(extra)})" if extra else ""))
    cards = len(st.held[p])
    if cards:
        items.append(f"{cards} Get Out of Jail Free card{'s' if cards > 1 else ''}")
    name = st.game.players[p]
    return f"{name} owns " + (name_list(items) if items else "nothing") + "."


def rent_text(st: Table, text: str) -> str:
    ed = st.ed
    try:
        s = ed.space(text)
    except ValueError as err:
        reason = str(err)  # not capitalize(): it would lower-case the names in it
        return reason[:1].upper() + reason[1:] + "."
    name = ed.names[s]
    if not ed.is_property[s]:
        return f"{name} is not a property: no rent."
    o = st.owner[s]
    if o < 0:
        return f"{name} is unowned: the price is {money(ed.price[s])}."
    if st.mort[s]:
        return f"{name} is mortgaged: no rent."
    if ed.kind[s] == UTILITY:
        amount, detail = rent(st, s, 1)
        return f"{name}: {amount} times the dice, paid to {st.game.players[o]}."
    amount, detail = rent(st, s, 0)
    why = f" ({detail})" if detail != name else ""
    return f"{name}: rent {money(amount)} to {st.game.players[o]}{why}."
