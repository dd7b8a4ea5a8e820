"""The Monopoly table: flat lists of ints for speed, money, jail and whose turn it is.

Decisions other than the turn's own (auctions, trades, debts, mortgaged property received)
are *overlays* that take precedence in ``current_player()``; the turn phase underneath resumes
when they close. The rule modules (moves, cards, auctions, buildings, property, trades) work
on a Table and sit above it; it calls none of them. ``MonopolyState`` (state.py) adds the
rules engine's interface on top (apply, legal actions, words), which reaches every rule module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

from companion.engine import (
    CHANCE,
    TERMINAL,
    Action,
    ChanceRequest,
    Event,
    GameOver,
    State,
    TurnPasses,
)
from companion.games.monopoly import events as E
from companion.games.monopoly.actions import Trade
from companion.games.monopoly.edition import CHANCE_SPACE, LOT, Edition
from companion.games.monopoly.phases import (
    BANK,
    CARD,
    END,
    OVER,
    PHASE_NAMES,
    RESOLVING,
    ROLL,
    SETUP,
    SHORT,
    TIME_LIMIT,
    UTIL_DICE,
)
from companion.games.monopoly.rent import HOTEL, raisable, valuation

if TYPE_CHECKING:
    from companion.engine import Game  # not the Monopoly class: its module is above this one


class AuctionState:
    """An auction in progress: a property (space >= 0) or one building (space -1)."""

    __slots__ = ("space", "hotel", "bidders", "high", "high_bidder", "to_act", "resume")

    def __init__(self, space: int, hotel: bool, bidders: list[int], to_act: int,
                 resume: bool) -> None:
        self.space = space
        self.hotel = hotel
        self.bidders = bidders
        self.high = 0
        self.high_bidder = -1
        self.to_act = to_act
        self.resume = resume

    def copy(self) -> AuctionState:
        a = AuctionState(self.space, self.hotel, list(self.bidders), self.to_act, self.resume)
        a.high, a.high_bidder = self.high, self.high_bidder
        return a


class Table(State):
    """The table's facts and the moves every rule module makes on them (pay, charge, settle a
    debt, pass the turn, end the game); the rule modules take a Table."""

    __slots__ = (
        "game", "ed", "n", "variant", "virtual", "claim_rule", "ferris", "hotel_after",
        "hotel_level", "jail_limit", "cash", "pos", "jail", "jail_tries", "out", "held",
        "owner", "bld", "mort", "bank_houses", "bank_hotels", "issued", "collected", "turn",
        "doubles", "again", "phase", "pending", "card_mult", "decks", "setup", "auction",
        "auction_queue", "place", "trade", "transfers", "debts", "claims", "turn_no", "why",
        "winners_", "last_dice", "requests", "manual_end",
    )

    def __init__(self, game: Game, edition: Edition) -> None:
        self.game = game
        self.ed = edition
        n = self.n = len(game.players)
        opts = game.options
        self.variant: str = opts["variant"]
        self.virtual: bool = opts["cards"] == "virtual"
        self.claim_rule: bool = opts["rent"] == "claim"
        self.ferris: bool = bool(opts["ferris_wheel"])
        self.manual_end: bool = opts["end_turn"] == "manual"
        short = self.variant == SHORT
        self.hotel_after = 3 if short else 4  # houses on each lot before a hotel
        self.hotel_level = self.hotel_after + 1  # a hotel's worth in houses
        self.jail_limit = 1 if short else 3
        self.cash = [edition.start_cash] * n
        self.pos = [edition.go] * n
        self.jail = [False] * n
        self.jail_tries = [0] * n
        self.out = [False] * n
        self.held: list[list[str]] = [[] for _ in range(n)]
        size = edition.size
        self.owner = [-1] * size
        self.bld = [0] * size
        self.mort = [False] * size
        self.bank_houses = edition.houses
        self.bank_hotels = edition.hotels
        self.issued = 0
        self.collected = 0
        self.turn = 0
        self.doubles = 0
        self.again = False
        self.phase = SETUP
        self.pending = -1  # the space of a BUY or TAX decision
        self.card_mult = 0  # the utility card's multiplier while UTIL_DICE
        # Virtual decks: the cards whose place is known because they were drawn (and put at
        # the bottom), top first. The others have no order yet: each is drawn when it comes,
        # from the operating system's randomness (the session), so nothing stored predicts it.
        self.decks: dict[str, list[str]] = {"chance": [], "chest": []} if self.virtual else {}
        self.setup: list[str] = []
        if self.variant in (SHORT, TIME_LIMIT):
            self.setup.append("deeds")
        self.auction: AuctionState | None = None
        self.auction_queue: list[int] = []
        self.place: tuple[int, bool] | None = None  # a building won at auction, to erect
        self.trade: Trade | None = None  # the offer awaiting an answer
        self.transfers: list[tuple[int, int]] = []  # (new owner, mortgaged space)
        self.debts: list[list[Any]] = []  # [debtor, creditor, amount, event, announced]
        self.claims: list[list[Any]] = []  # [payer, owner, amount, detail, lapse_turn]
        self.turn_no = 0
        self.why = "No amount has been paid yet."
        self.winners_: tuple[int, ...] = ()
        self.last_dice: tuple[int, ...] = ()
        self.requests = tuple(
            ChanceRequest(kind="dice", count=2, who=p) for p in range(n)
        )
        if not self.setup:
            self.phase = ROLL

    # ------------------------------------------------------------------ the API

    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.trade is not None:
            return self.trade.partner
        if self.transfers:
            return self.transfers[0][0]
        if self.debts:
            return int(self.debts[0][0])
        if self.auction is not None:
            return self.auction.to_act
        if self.place is not None:
            return self.place[0]
        phase = self.phase
        if phase in (ROLL, CARD, UTIL_DICE, SETUP):
            return CHANCE
        return self.turn

    def chance(self) -> ChanceRequest | None:
        if self.current_player() != CHANCE:
            return None
        phase = self.phase
        if phase in (ROLL, UTIL_DICE):
            return self.requests[self.turn]
        if phase == CARD:
            deck = self.ed.decks[self._card_deck()]
            if self.virtual:
                cards = self.unseen(self._card_deck())
            else:
                held = {k for h in self.held for k in h}
                cards = tuple(c.id for c in deck if c.key not in held)
            return ChanceRequest(kind="card", deck=self._card_deck(), cards=cards, who=self.turn)
        if self.setup[0] == "deeds":
            names = tuple(self.ed.names[s] for s in self.ed.properties)
            return ChanceRequest(kind="shuffle", deck="deeds", cards=names)
        deck_name = self.setup[0]
        ids = tuple(c.id for c in self.ed.decks[deck_name])
        return ChanceRequest(kind="shuffle", deck=deck_name, cards=ids)

    def unseen(self, deck: str) -> tuple[str, ...]:
        """A virtual deck's cards not drawn yet (above those put back at the bottom)."""
        known = set(self.decks[deck])
        held = {k for h in self.held for k in h}
        return tuple(c.id for c in self.ed.decks[deck] if c.id not in known and c.key not in held)

    def _card_deck(self) -> str:
        return "chance" if self.ed.kind[self.pos[self.turn]] == CHANCE_SPACE else "chest"

    def _basic_reason(self, action: Action) -> str | None:
        p = getattr(action, "player", None)
        if p is not None:
            if not isinstance(p, int) or not 0 <= p < self.n:
                return f"There is no player {p}"
            if self.out[p]:
                return f"{self.game.players[p]} is bankrupt and out of the game"
        s = getattr(action, "space", None)
        if s is not None and (not isinstance(s, int) or not 0 <= s < self.ed.size):
            return f"There is no space {s}"
        if self.phase == OVER:
            return "The game is over"
        return None

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def may_act(self, player: int) -> bool:
        """Any player still in may speak at any time: bids, building, mortgages and trades
        are not bound to the turn; each action is then checked on its own."""
        return self.phase != OVER and 0 <= player < self.n and not self.out[player]

    def winners(self) -> tuple[int, ...]:
        return self.winners_

    def clone(self) -> Self:
        new = object.__new__(type(self))
        for name in Table.__slots__:
            value = getattr(self, name)
            if isinstance(value, list):
                value = [list(v) if isinstance(v, list) else v for v in value]
            elif isinstance(value, dict):
                value = {k: list(v) for k, v in value.items()}
            elif isinstance(value, AuctionState):
                value = value.copy()
            setattr(new, name, value)
        return new

    def position_text(self) -> str:
        names = self.game.players
        return (f"turn {names[self.turn]}, phase {PHASE_NAMES[self.phase]}, cash "
                + ", ".join(f"{names[p]} {self.cash[p]}" for p in range(self.n)))

    # ------------------------------------------------------------------ money

    def give(self, player: int, amount: int, reason: str, ev: list[Event]) -> None:
        """The Bank pays a player."""
        self.cash[player] += amount
        self.issued += amount
        ev.append(E.Received(player, amount, reason))

    def charge(self, player: int, creditor: int, amount: int, event: Event,
               ev: list[Event]) -> None:
        """Make ``player`` pay; if short of cash, the debt waits for them to raise money."""
        if amount <= 0:
            return
        if not self.debts and self.cash[player] >= amount:
            self._transfer(player, creditor, amount)
            ev.append(event)
            return
        self.debts.append([player, creditor, amount, event, False])
        self.settle(ev)

    def _transfer(self, player: int, creditor: int, amount: int) -> None:
        self.cash[player] -= amount
        if creditor == BANK:
            self.collected += amount
        else:
            self.cash[creditor] += amount

    def settle(self, ev: list[Event]) -> None:
        """Pay waiting debts in order while the debtor has the cash."""
        debts = self.debts
        while debts:
            debtor, creditor, amount, event, announced = debts[0]
            if self.out[debtor] or (creditor != BANK and self.out[creditor]):
                debts.pop(0)
                continue
            if self.cash[debtor] >= amount:
                debts.pop(0)
                self._transfer(debtor, creditor, amount)
                ev.append(event)
                continue
            if not announced:
                debts[0][4] = True
                ev.append(E.InDebt(debtor, creditor, amount, self.cash[debtor],
                                   raisable(self, debtor)[0]))
            return

    def explain(self, text: str) -> None:
        self.why = text

    # ------------------------------------------------------------------ turn flow

    def proceed(self, ev: list[Event]) -> None:
        """After a decision closes: finish the move if nothing else is pending."""
        if self.phase == RESOLVING:
            self.finish_move(ev)

    def finish_move(self, ev: list[Event]) -> None:
        p = self.turn
        if self.again and not self.jail[p] and not self.out[p]:
            self.phase = ROLL
            ev.append(E.ThrowsAgain(p))
        elif self.manual_end and not self.out[p]:
            self.phase = END
        else:
            self.next_turn(ev)

    def next_turn(self, ev: list[Event]) -> None:
        if self.phase == OVER:
            return
        p = self.turn
        for step in range(1, self.n + 1):
            q = (p + step) % self.n
            if not self.out[q]:
                break
        self.turn = q
        self.turn_no += 1
        self.doubles = 0
        self.again = False
        self.pending = -1
        self.phase = ROLL
        ev.append(TurnPasses(q))

    def move_to(self, p: int, dest: int, how: str, ev: list[Event]) -> None:
        """A card's forward move: salary when passing or reaching GO."""
        ed = self.ed
        start = self.pos[p]
        self.pos[p] = dest
        ev.append(E.Moved(p, ed.names[dest], how))
        if dest <= start or dest == ed.go:
            self.give(p, ed.salary, "salary", ev)
            ev[-1] = E.Salary(p, ed.salary, dest == ed.go, ed.names[ed.go])


    def send_to_jail(self, p: int, reason: str, ev: list[Event]) -> None:
        self.pos[p] = self.ed.jail
        self.jail[p] = True
        self.jail_tries[p] = 0
        self.again = False
        ev.append(E.Jailed(p, reason))


    def active(self) -> list[int]:
        return [p for p in range(self.n) if not self.out[p]]

    def end_game(self, ev: list[Event], detail: str = "") -> None:
        alive = self.active()
        if len(alive) == 1:
            self.winners_ = (alive[0],)
        else:
            worth = {p: valuation(self, p) for p in alive}
            best = max(worth.values())
            self.winners_ = tuple(p for p in alive if worth[p] == best)
            names = self.game.players
            detail = (detail + " Valuation: " + ", ".join(
                f"{names[p]} {E.money(worth[p])}" for p in alive) + ".").strip()
        self.phase = OVER
        self.auction = None
        self.auction_queue = []
        self.debts = []
        self.trade = None
        self.transfers = []
        self.place = None
        ev.append(GameOver(self.winners_, detail))

    # ------------------------------------------------------------------ helpers for rules

    def level(self, s: int) -> int:
        b = self.bld[s]
        return self.hotel_level if b == HOTEL else b

    def group_has_buildings(self, s: int) -> bool:
        if self.ed.kind[s] != LOT:
            return False
        bld = self.bld
        return any(bld[m] for m in self.ed.kin[s])

    def name_of(self, player: int) -> str:
        return "the Bank" if player == BANK else self.game.players[player]

