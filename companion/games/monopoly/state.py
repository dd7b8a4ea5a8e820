"""The Monopoly state: flat lists of ints for speed, the turn flow, money, jail and landing.

Decisions other than the turn's own (auctions, trades, debts, mortgaged property received)
are *overlays* that take precedence in ``current_player()``; the turn phase underneath resumes
when they close. Player actions are checked by a ``check_*`` function (returns a reason or
None) before any ``do_*`` function mutates, so a refused action changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.engine import (
    CHANCE,
    TERMINAL,
    Action,
    ChanceRequest,
    Event,
    GameOver,
    IllegalAction,
    Note,
    State,
    Throw,
    TurnPasses,
)
from companion.games.monopoly import events as E
from companion.games.monopoly.actions import Trade
from companion.games.monopoly.auctions import AuctionState
from companion.games.monopoly.cards import draw_top
from companion.games.monopoly.edition import (
    CHANCE_SPACE,
    CHEST_SPACE,
    FREE,
    GOTOJAIL,
    LOT,
    TAX,
    UTILITY,
    Edition,
)
from companion.games.monopoly.phases import (
    BANK,
    BUY,
    CARD,
    END,
    OVER,
    PHASE_NAMES,
    RESOLVING,
    ROLL,
    SETUP,
    SHORT,
    TAX_CHOICE,
    TIME_LIMIT,
    UTIL_DICE,
)
from companion.games.monopoly.rent import HOTEL, rent, valuation

if TYPE_CHECKING:
    from companion.engine import Game  # not the Monopoly class: its module imports this one

_HANDLERS: dict[type, Any] = {}


class MonopolyState(State):
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

    def legal_actions(self) -> list[Action]:
        from companion.games.monopoly import choices

        return choices.legal_actions(self)

    def apply(self, action: Action) -> list[Event]:
        if not _HANDLERS:
            from companion.games.monopoly.handlers import HANDLERS

            _HANDLERS.update(HANDLERS)
        entry = _HANDLERS.get(type(action))
        if entry is None:
            raise IllegalAction(f"{type(action).__name__} is not a Monopoly action")
        check, do = entry
        reason = (None if type(action) is Throw else self._basic_reason(action)) or check(
            self, action)
        if reason is not None:
            raise IllegalAction(reason, position=self.position_text())
        events: list[Event] = []
        do(self, action, events)
        return events

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

    def scores(self) -> list[float]:
        return [float(valuation(self, p)) if not self.out[p] else 0.0 for p in range(self.n)]

    def clone(self) -> MonopolyState:
        new = object.__new__(MonopolyState)
        for name in MonopolyState.__slots__:
            value = getattr(self, name)
            if isinstance(value, list):
                value = [list(v) if isinstance(v, list) else v for v in value]
            elif isinstance(value, dict):
                value = {k: list(v) for k, v in value.items()}
            elif isinstance(value, AuctionState):
                value = value.copy()
            setattr(new, name, value)
        return new

    def to_json(self) -> dict[str, Any]:
        from companion.games.monopoly.views import state_json

        return state_json(self)

    def describe_action(self, action: Action) -> str:
        from companion.games.monopoly.views import describe_action

        return describe_action(self, action)

    def expected(self) -> str:
        from companion.games.monopoly.views import expected

        return expected(self)

    def choices_text(self) -> str:
        from companion.games.monopoly.views import choices_text

        return choices_text(self) or super().choices_text()

    def choices_after_move(self) -> str:
        from companion.games.monopoly.views import choices_text

        # an auction's bidders, a purchase: said in one sentence, never as a list of moves
        return choices_text(self) if self.current_player() >= 0 else ""

    def prompt(self) -> str:
        # many moves (an auction with bids to choose, the turn's end): the one sentence
        return self.choices_after_move()

    def cards_text(self) -> str:
        """'cards': what may be drawn now (physical decks: the cards by their words)."""
        from companion.games.monopoly.card_words import deck_list

        request = self.chance()
        if request is None or request.kind != "card":
            return f"No card is being drawn now. {self.expected()}."
        deck = request.deck
        if self.virtual:
            return (f"The {self.ed.deck_names[deck]} card is drawn by the companion:"
                    f" {len(request.cards)} not drawn yet.")
        cards = [self.ed.card_by_id[deck][i] for i in request.cards]
        return deck_list(cards, self.ed.deck_names[deck])

    def options_text(self) -> str:
        request = self.chance()
        if request is not None and request.kind == "card":
            return self.cards_text()
        return super().options_text()

    def status(self) -> str:
        return f"{self.expected()}. {self.scoreboard()}"

    def scoreboard(self) -> str:
        from companion.games.monopoly.views import standings

        return standings(self)

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
                from companion.games.monopoly.trades import raisable

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

    # ------------------------------------------------------------------ throws

    def do_throw(self, values: tuple[int, ...], ev: list[Event]) -> None:
        if self.phase == UTIL_DICE:
            self._utility_card_rent(values, ev)
            return
        p = self.turn
        a, b = values
        self.last_dice = values
        if self.claims:
            self._lapse_claims(ev)
        if self.jail[p]:
            self._jail_throw(p, a, b, ev)
            return
        if a == b:
            self.doubles += 1
            if self.doubles == 3:
                self.send_to_jail(p, "third doubles in a row", ev)
                self.finish_move(ev)
                return
            self.again = True
        else:
            self.again = False
        self.phase = RESOLVING
        self.move_by(p, a + b, ev, values)
        if self.phase == RESOLVING:
            self.finish_move(ev)

    def _jail_throw(self, p: int, a: int, b: int, ev: list[Event]) -> None:
        self.again = False
        self.phase = RESOLVING
        if a == b:
            self.jail[p] = False
            self.jail_tries[p] = 0
            ev.append(E.Released(p, "doubles; no further throw this turn"))
            self.move_by(p, a + b, ev, (a, b))
        else:
            self.jail_tries[p] += 1
            if self.jail_tries[p] >= self.jail_limit:
                fine = self.ed.jail_fine
                self.jail[p] = False
                self.jail_tries[p] = 0
                self.explain(f"The {fine} Jail fine, due after failing to throw doubles.")
                self.charge(p, BANK, fine, E.Paid(p, BANK, fine, "the Jail fine"), ev)
                ev.append(E.Released(p, "no doubles, so the fine is due and the token moves"))
                self.move_by(p, a + b, ev, (a, b))
            else:
                ev.append(E.StaysInJail(p, (a, b), self.jail_tries[p]))
        if self.phase == RESOLVING:
            self.finish_move(ev)

    def move_by(self, p: int, steps: int, ev: list[Event], dice: tuple[int, ...]) -> None:
        ed = self.ed
        start = self.pos[p]
        dest = (start + steps) % ed.size
        self.pos[p] = dest
        if dice:  # a throw that stops on the Jail square is Just Visiting
            ev.append(E.Thrown(p, dice, "Just Visiting" if dest == ed.jail else ed.names[dest]))
        if dest < start or dest == ed.go:
            self.give(p, ed.salary, "salary", ev)
            ev[-1] = E.Salary(p, ed.salary, dest == ed.go, ed.names[ed.go])
        self.land(p, dest, ev)

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

    # ------------------------------------------------------------------ landing

    def land(self, p: int, s: int, ev: list[Event], card_mult: int = 0) -> None:
        ed = self.ed
        kind = ed.kind[s]
        if ed.is_property[s]:
            o = self.owner[s]
            if o < 0:
                self.pending = s
                self.phase = BUY
                ev.append(E.ForSale(p, ed.names[s], ed.price[s]))
            elif o == p:
                pass
            elif self.mort[s]:
                ev.append(E.NoRent(p, ed.names[s], "mortgaged, no rent"))
            elif kind == UTILITY and card_mult:
                self.card_mult = card_mult
                self.phase = UTIL_DICE
            else:
                amount, detail = rent(self, s, sum(self.last_dice), card_mult)
                self.owe_rent(p, o, amount, detail, ev)
        elif kind in (CHANCE_SPACE, CHEST_SPACE):
            deck = "chance" if kind == CHANCE_SPACE else "chest"
            if self.virtual and not self.unseen(deck):
                draw_top(self, p, deck, ev)  # every card's place is known: the top one
            else:
                self.phase = CARD  # a card to read, type or (virtual) draw
        elif kind == TAX:
            if ed.tax_percent[s] and self.variant != SHORT:
                self.pending = s
                self.phase = TAX_CHOICE
                ev.append(E.TaxChoice(p, ed.names[s], ed.tax_amount[s], ed.tax_percent[s]))
            else:
                amount = ed.tax_amount[s]
                self.explain(f"{ed.names[s]}: a flat {amount}.")
                self.charge(p, BANK, amount, E.Paid(p, BANK, amount, ed.names[s]), ev)
        elif kind == GOTOJAIL:
            self.send_to_jail(p, f"landed on {ed.names[s]}", ev)
        elif kind == FREE and self.ferris:
            self._ferris_wheel(p, s, ev)

    def owe_rent(self, p: int, owner: int, amount: int, detail: str, ev: list[Event]) -> None:
        self.explain(f"Rent {E.money(amount)}: {detail}.")
        if self.claim_rule:
            self.claims.append([p, owner, amount, detail, self.turn_no + 2])
            ev.append(E.RentDue(p, owner, amount, detail))
            return
        self.charge(p, owner, amount, E.RentPaid(p, owner, amount, detail), ev)

    def _utility_card_rent(self, values: tuple[int, ...], ev: list[Event]) -> None:
        p = self.turn
        s = self.pos[p]
        total = values[0] + values[1]
        ev.append(Note(f"{self.game.players[p]} throws {total} for the card."))
        amount, detail = rent(self, s, total, self.card_mult)
        self.card_mult = 0
        self.phase = RESOLVING
        self.owe_rent(p, self.owner[s], amount, detail, ev)
        self.proceed(ev)

    def _ferris_wheel(self, p: int, s: int, ev: list[Event]) -> None:
        ed = self.ed
        for step in range(1, ed.size):
            t = (s + step) % ed.size
            if ed.is_property[t] and self.owner[t] < 0:
                self.move_to(p, t, "rides the Ferris Wheel to", ev)
                self.land(p, t, ev)
                return
        ev.append(Note("Every property is owned: no Ferris Wheel ride."))

    def _lapse_claims(self, ev: list[Event]) -> None:
        keep = []
        for claim in self.claims:
            if self.turn_no >= claim[4]:
                ev.append(E.RentLapsed(claim[0], claim[1], claim[2]))
            else:
                keep.append(claim)
        self.claims = keep

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

