"""The Monopoly Game: options, typed-command parsing and spoken queries."""

from __future__ import annotations

import re
from typing import Any, ClassVar

from companion.engine import Action, Draw, Game, GameSpec, IllegalAction, Option, State, Throw
from companion.games.monopoly import actions as A
from companion.games.monopoly.edition import Edition, load_edition
from companion.games.monopoly.state import MonopolyState
from companion.hours import parse_hour

HOUSE_RULES = (
    "Rent is the owner's to claim, as printed (option rent=auto: the Bank collects it);"
    " the first player is the first named; the jail fine before throwing is allowed on the"
    " first two turns in Jail, as printed; 10% amounts round to the nearest dollar, halves up;"
    " mortgaged railroads, utilities and lots still count as owned for rent; property left"
    " unsold at a Bank auction stays with the Bank, unmortgaged; see docs/games/monopoly.md."
)


class Monopoly(Game):
    spec = GameSpec(
        name="monopoly",
        title="Monopoly",
        min_players=2,
        max_players=8,
        inputs=("dice", "cards"),
        rulebook="000: MONOPOLY; 001: Times Square Edition",
        aliases=("monopoly-classic",),
        options=(
            Option("edition", "classic", "board and decks: classic, times-square, or a JSON path"),
            Option("variant", "standard", "standard, short (Short Game) or time-limit",
                   ("standard", "short", "time-limit")),
            Option("cards", "physical",
                   "physical: the drawn card is read or typed; virtual: drawn by the companion",
                   ("physical", "virtual")),
            Option("rent", "claim", "auto: the Bank collects rent; claim: the owner must claim"
                   " it before the second player following throws", ("auto", "claim")),
            Option("ferris_wheel", False, "Times Square optional rule: Free Parking sends the"
                   " token to the next unowned property"),
            Option("end_turn", "auto", "auto: the turn passes once the throw is resolved;"
                   " manual: the player says end (after building, trading...)",
                   ("auto", "manual")),
            Option("end_time", "", "Time Limit Game: the agreed hour, HH:MM; the companion"
                   " says 'time up' then (or say it yourself)"),
        ),
        house_rules=HOUSE_RULES,
        default_players=("Car", "Hat"),
    )
    action_types = A.ACTION_TYPES
    tools = {"simulate": "companion.games.monopoly.simulate:main"}
    # No rule ends a game in which nobody builds: random play may go on for ever, so generic
    # random tests should cut Monopoly games at a cap instead of expecting the end.
    bounded: ClassVar[bool] = False  # random play need not end: tests cut it short

    def __init__(self, players: Any, options: Any = None) -> None:
        super().__init__(players, options)
        self.edition: Edition = load_edition(str(self.options["edition"]))
        low, high = self.edition.players
        if not low <= len(self.players) <= high:
            raise ValueError(f"{self.edition.title} is for {low} to {high} players, not"
                             f" {len(self.players)}")
        end_time = str(self.options["end_time"] or "")
        if end_time:
            if self.options["variant"] != "time-limit":
                raise ValueError("end_time is the agreed hour of the Time Limit Game: add "
                                 "--variant time-limit")
            parse_hour(end_time)  # refuses what is not an hour

    def new_state(self) -> MonopolyState:
        return MonopolyState(self, self.edition)

    def max_length(self) -> int:
        return 50_000

    def command_help(self) -> str:
        return "\n".join((
            "buy | auction                         buy the property landed on, or auction it",
            "bid PLAYER AMOUNT | pass [PLAYER]     bid in the auction, or drop out",
            "build [hotel] SPACE                   build on a lot (the owner builds)",
            "sell SPACE [to N]                     sell one building back (or the group to N)",
            "mortgage SPACE | lift SPACE | keep SPACE   mortgages",
            "trade A B give X, Y take Z            A offers B (spaces, cash, 'card')",
            "accept | reject                       answer the offer",
            "pay fine | use card                   leave Jail before throwing",
            "tax 200 | tax 10%                     the Income Tax choice",
            "auction house | auction hotel         building shortage auction",
            "bankrupt                              declare bankruptcy",
            "claim [PLAYER]                        claim the rent owed to you (or PLAYER)",
            "deal PLAYER DEED, DEED, DEED            deeds dealt by hand (Short/Time Limit)",
            "end                                   end the turn (option end_turn=manual)",
            "time up                               end a Time Limit Game",
            "balance | worth | owns PLAYER | rent SPACE | why   questions",
            "board | deeds | who owns SPACE | where is PLAYER | standings | cards   more",
        ))

    # ------------------------------------------------------------------ cards by their words

    def card_words(self, card: str) -> str:
        from companion.games.monopoly.card_words import short_name

        for deck, cards in self.edition.card_by_id.items():
            if card in cards:
                return f"the {self.edition.deck_names[deck]} card {short_name(cards[card])}"
        return super().card_words(card)

    def read_card(self, state: State, text: str) -> str:
        """A Chance or Community Chest card by its id, its words or a keyword ("card take a
        walk on boardwalk", "card boardwalk"), fuzzy; "did you mean" when it is ambiguous."""
        from companion.games.monopoly.card_words import find_card, short_name

        ed = self.edition
        request = state.chance()
        if request is not None and request.kind == "card":
            cards = list(ed.decks[request.deck])
            deck_name = ed.deck_names[request.deck]
        else:  # a correction after the draw: either deck
            cards = [c for deck in ed.decks.values() for c in deck]
            deck_name = " or ".join(ed.deck_names.values())
        exact = text.strip().upper()
        try:
            card = next((c for c in cards if c.id == exact), None) or find_card(
                cards, text, deck_name)  # an id (a tag reader's) or the words
        except ValueError as err:
            drawing = request is not None and request.kind == "card"
            # no draw now (a correction names a card that exists): the moment is the reason
            reason = str(err) if drawing else f"No card is expected now. {state.expected()}."
            raise IllegalAction(reason) from None
        if request is not None and request.kind == "card" and card.id not in request.cards:
            assert isinstance(state, MonopolyState)
            holder = next((p for p, held in enumerate(state.held) if card.key in held), None)
            where = ("is not in the deck now" if holder is None
                     else f"is held by {self.players[holder]}, so it cannot be drawn now")
            raise IllegalAction(f"The {deck_name} card {short_name(card)} {where}.")
        return card.id

    # ------------------------------------------------------------------ queries

    def query(self, state: State, text: str) -> str | None:
        """Answer a question (balance, worth, owns, rent, why), or None if it is not one."""
        from companion.games.monopoly.views import query

        assert isinstance(state, MonopolyState)
        if text.strip().lower() == "cards":
            return state.cards_text()
        try:
            return query(state, text)
        except ValueError as err:
            text = str(err)  # not capitalize(): it would lower-case the names in it
            return text[:1].upper() + text[1:] + "."

    # ------------------------------------------------------------------ parsing

    def parse_action(self, state: State, text: str) -> Action:
        assert isinstance(state, MonopolyState)
        try:
            return _Parser(self, state).parse(text)
        except ValueError as err:
            raise IllegalAction(str(err)[:1].upper() + str(err)[1:]) from None


class _Parser:
    def __init__(self, game: Monopoly, st: MonopolyState) -> None:
        self.game = game
        self.st = st
        self.ed = st.ed

    def parse(self, text: str) -> Action:
        words = text.strip().split()
        if not words:
            raise ValueError("say a command")
        head = words[0].lower()
        rest = " ".join(words[1:])
        fn = getattr(self, "cmd_" + head.replace("-", "_"), None)
        if fn is None:
            raise ValueError(f"I don't know the command {words[0]!r}")
        result: Action = fn(rest)
        return result

    # --- helpers
    def player(self, text: str) -> int:
        low = text.strip().lower()
        names = self.game.players
        for p, n in enumerate(names):
            if n.lower() == low:
                return p
        hits = [p for p, n in enumerate(names) if n.lower().startswith(low)] if low else []
        if len(hits) == 1:
            return hits[0]
        raise ValueError(f"there is no player called {text.strip()!r}")

    def split_player(self, text: str) -> tuple[int | None, str]:
        """A leading player name, if the text starts with one."""
        words = text.split()
        for k in range(len(words), 0, -1):
            try:
                return self.player(" ".join(words[:k])), " ".join(words[k:])
            except ValueError:
                continue
        return None, text

    def actor(self) -> int:
        cp = self.st.current_player()
        if cp >= 0:
            return cp
        return self.st.turn

    def space(self, text: str) -> int:
        return self.ed.space(text)

    def owner_of(self, s: int) -> int:
        o = self.st.owner[s]
        if o < 0:
            raise ValueError(f"{self.ed.names[s]} belongs to the Bank")
        return o

    # --- commands
    def cmd_buy(self, rest: str) -> Action:
        return A.Buy(self.st.turn)

    def cmd_auction(self, rest: str) -> Action:
        low = rest.lower()
        if low.startswith(("house", "hotel", self.ed.words["house"], self.ed.words["hotel"])):
            hotel = low.startswith(("hotel", self.ed.words["hotel"].lower()))
            who = rest.split(None, 1)[1] if len(rest.split()) > 1 else ""
            return A.AuctionBuilding(self.player(who) if who else self.actor(), hotel)
        return A.Auction(self.st.turn)

    def cmd_decline(self, rest: str) -> Action:
        return A.Auction(self.st.turn)

    def cmd_bid(self, rest: str) -> Action:
        p, tail = self.split_player(rest)
        amount = tail.replace(",", "").replace("$", "").strip()
        if not amount.isdigit():
            raise ValueError("say bid, the bidder and the amount, e.g. bid Hat 150")
        return A.Bid(self.actor() if p is None else p, int(amount))

    def cmd_pass(self, rest: str) -> Action:
        return A.Pass(self.player(rest) if rest else self.actor())

    def cmd_build(self, rest: str) -> Action:
        hotel = False
        low = rest.lower()
        for word in ("hotel", self.ed.words["hotel"].lower()):
            if low.startswith(word + " "):
                hotel, rest = True, rest[len(word) + 1:]
                break
        for word in ("house", self.ed.words["house"].lower()):
            if rest.lower().startswith(word + " "):
                rest = rest[len(word) + 1:]
        rest = re.sub(r"^(on|a|an)\s+", "", rest.strip(), flags=re.I)
        s = self.space(rest)
        return A.Build(self.owner_of(s), s, hotel)

    def cmd_sell(self, rest: str) -> Action:
        m = re.match(r"(.*?)\s+to\s+(\d)\s*$", rest)
        if m:
            s = self.space(m.group(1))
            return A.SellGroup(self.owner_of(s), s, int(m.group(2)))
        s = self.space(rest)
        return A.SellBuilding(self.owner_of(s), s)

    def cmd_mortgage(self, rest: str) -> Action:
        s = self.space(rest)
        return A.Mortgage(self.owner_of(s), s)

    def cmd_unmortgage(self, rest: str) -> Action:
        s = self.space(rest)
        return A.Unmortgage(self.owner_of(s), s)

    cmd_lift = cmd_unmortgage

    def cmd_keep(self, rest: str) -> Action:
        s = self.space(rest)
        return A.KeepMortgaged(self.owner_of(s), s)

    def cmd_accept(self, rest: str) -> Action:
        return A.Accept(self.player(rest) if rest else self.actor())

    def cmd_reject(self, rest: str) -> Action:
        return A.Reject(self.player(rest) if rest else self.actor())

    cmd_decline_offer = cmd_reject

    def cmd_pay(self, rest: str) -> Action:
        low = rest.lower().strip()
        if low in ("", "fine", "the fine", "50"):
            return A.PayFine(self.st.turn)
        raise ValueError("say pay fine to leave Jail; other payments are collected by the Bank")

    def cmd_use(self, rest: str) -> Action:
        low = rest.lower()
        deck = "chance" if "chance" in low else "chest" if "chest" in low else ""
        return A.UseCard(self.st.turn, deck)

    def cmd_tax(self, rest: str) -> Action:
        low = rest.lower().replace(" ", "")
        if low in ("10%", "10", "percent", "10percent", "%"):
            return A.ChooseTax(self.actor(), True)
        if low in ("200", "flat", "$200", "fixed"):
            return A.ChooseTax(self.actor(), False)
        raise ValueError("say tax 200 or tax 10%")

    def cmd_bankrupt(self, rest: str) -> Action:
        return A.DeclareBankruptcy(self.player(rest) if rest else self.actor())

    def cmd_declare(self, rest: str) -> Action:
        return self.cmd_bankrupt(re.sub(r"^bankruptcy\s*", "", rest, flags=re.I))

    def cmd_claim(self, rest: str) -> Action:
        if rest:
            return A.Claim(self.player(rest))
        owners = {c[1] for c in self.st.claims}
        if len(owners) == 1:
            return A.Claim(owners.pop())
        raise ValueError("say claim and the owner's name")

    def cmd_deal(self, rest: str) -> Action:
        p, tail = self.split_player(rest)
        if p is None:
            raise ValueError("say deal, the player and the deeds, e.g. deal Car Boardwalk,"
                             " Baltic Avenue, Reading Railroad")
        spaces = tuple(self.space(part) for part in self.ed.split_names(tail))
        return A.Deal(p, spaces)

    def cmd_end(self, rest: str) -> Action:
        return A.EndTurn(self.st.turn)

    cmd_done = cmd_end

    def cmd_time(self, rest: str) -> Action:
        return A.TimeUp()

    def cmd_roll(self, rest: str) -> Action:
        values = tuple(int(v) for v in re.findall(r"\d", rest))
        return Throw(values)

    def cmd_card(self, rest: str) -> Action:
        try:
            return Draw(self.game.read_card(self.st, rest))
        except IllegalAction as err:
            raise ValueError(err.reason) from None

    cmd_draw = cmd_card

    def cmd_trade(self, rest: str) -> Action:
        m = re.match(r"(.*?)\s+give\s+(.*?)(?:\s+take\s+(.*))?$", rest, flags=re.I)
        m2 = None if m else re.match(r"(.*?)\s+take\s+(.*)$", rest, flags=re.I)
        if m:
            who, give, take = m.group(1), m.group(2), m.group(3) or ""
        elif m2:
            who, give, take = m2.group(1), "", m2.group(2)
        else:
            raise ValueError("say trade FROM TO give ITEMS take ITEMS,"
                             " e.g. trade Car Hat give Boardwalk take 300")
        p, tail = self.split_player(who)
        q, tail2 = self.split_player(tail)
        if p is None or q is None or tail2.strip():
            raise ValueError("name both players: trade Car Hat give ... take ...")
        gs, gc, gk = self.items(give, p)
        ts, tc, tk = self.items(take, q)
        return A.Trade(p, q, gs, ts, gc, tc, gk, tk)

    def items(self, text: str, owner: int) -> tuple[tuple[int, ...], int, tuple[str, ...]]:
        spaces: list[int] = []
        cash = 0
        cards: list[str] = []
        held = list(self.st.held[owner])
        for part in self.ed.split_names(text):
            part = part.strip().replace("$", "")
            if not part:
                continue
            if part.replace(",", "").isdigit():
                cash += int(part.replace(",", ""))
            elif re.fullmatch(r"(a\s+)?(get out of jail free\s+|jail\s+)?card", part, re.I):
                if not held:
                    raise ValueError(f"{self.game.players[owner]} holds no Get Out of Jail"
                                     f" Free card")
                cards.append(held.pop(0))
            else:
                spaces.append(self.space(part))
        return tuple(spaces), cash, tuple(cards)
