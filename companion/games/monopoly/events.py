"""Typed Monopoly events. Spaces travel as names (events are spoken, not re-applied)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from companion.engine import Event, Priority
from companion.games.monopoly.edition import name_list

_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
            "ten", "eleven", "twelve")


def number_word(n: int) -> str:
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)

BANK = -1


def money(amount: int) -> str:
    return f"{amount:,}"


def _who(names: Sequence[str], player: int) -> str:
    return "the Bank" if player == BANK else names[player]


@dataclass(frozen=True, slots=True)
class Thrown(Event):
    player: int
    dice: tuple[int, ...]
    space: str
    key: ClassVar[str] = "monopoly.thrown"

    def describe(self, names: Sequence[str]) -> str:
        a, b = self.dice
        extra = ", doubles" if a == b else ""
        return (f"{names[self.player]} throws {number_word(a)} and {number_word(b)},"
                f" {number_word(a + b)}{extra}, to {self.space}.")


@dataclass(frozen=True, slots=True)
class ThrowsAgain(Event):
    """Doubles: once the throw is resolved, the same player throws again."""

    player: int
    key: ClassVar[str] = "monopoly.throws_again"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} throws again."


@dataclass(frozen=True, slots=True)
class StaysInJail(Event):
    player: int
    dice: tuple[int, ...]
    tries: int
    key: ClassVar[str] = "monopoly.stays_in_jail"

    def describe(self, names: Sequence[str]) -> str:
        a, b = self.dice
        nth = {1: "first", 2: "second", 3: "third"}.get(self.tries, str(self.tries))
        return (f"{names[self.player]} throws {number_word(a)} and {number_word(b)}: no doubles"
                f" on the {nth} try, stays in Jail.")


@dataclass(frozen=True, slots=True)
class ForSale(Event):
    player: int
    space: str
    price: int
    key: ClassVar[str] = "monopoly.for_sale"
    asks: ClassVar[bool] = True

    def describe(self, names: Sequence[str]) -> str:
        return f"Unowned, {money(self.price)} dollars: buy or auction?"


@dataclass(frozen=True, slots=True)
class Salary(Event):
    player: int
    amount: int
    landed: bool
    space: str = "GO"
    key: ClassVar[str] = "monopoly.salary"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        verb = "lands on" if self.landed else "passes"
        return f"{names[self.player]} {verb} {self.space} and collects {money(self.amount)}."


@dataclass(frozen=True, slots=True)
class Moved(Event):
    player: int
    space: str
    how: str  # "advances to", "goes back three spaces to", "rides the Ferris Wheel to"
    key: ClassVar[str] = "monopoly.moved"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} {self.how} {self.space}."


@dataclass(frozen=True, slots=True)
class RentPaid(Event):
    player: int
    owner: int
    amount: int
    detail: str
    key: ClassVar[str] = "monopoly.rent"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return (f"{names[self.player]} pays {names[self.owner]} {money(self.amount)} rent:"
                f" {self.detail}.")


@dataclass(frozen=True, slots=True)
class NoRent(Event):
    player: int
    space: str
    reason: str
    key: ClassVar[str] = "monopoly.no_rent"

    def describe(self, names: Sequence[str]) -> str:
        return f"{self.space}: {self.reason}."


@dataclass(frozen=True, slots=True)
class Paid(Event):
    """A payment other than rent: to the Bank (payee -1) or to a player."""

    player: int
    payee: int
    amount: int
    reason: str
    key: ClassVar[str] = "monopoly.paid"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        why = f": {self.reason}" if self.reason else ""  # "" after a card read out
        return f"{names[self.player]} pays {_who(names, self.payee)} {money(self.amount)}{why}."


@dataclass(frozen=True, slots=True)
class Received(Event):
    player: int
    amount: int
    reason: str
    key: ClassVar[str] = "monopoly.received"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        why = f": {self.reason}" if self.reason else ""  # "" after a card read out
        return f"{names[self.player]} collects {money(self.amount)} from the Bank{why}."


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    player: int
    deck: str
    text: str
    key: ClassVar[str] = "monopoly.card"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} draws {self.deck}: {self.text}"


@dataclass(frozen=True, slots=True)
class CardReturned(Event):
    player: int
    deck: str
    key: ClassVar[str] = "monopoly.card_returned"
    priority: ClassVar[int] = Priority.CHATTER

    def describe(self, names: Sequence[str]) -> str:
        return f"The Get Out of Jail Free card goes to the bottom of the {self.deck} deck."


@dataclass(frozen=True, slots=True)
class Bought(Event):
    player: int
    space: str
    price: int
    key: ClassVar[str] = "monopoly.bought"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} buys {self.space} for {money(self.price)}."


@dataclass(frozen=True, slots=True)
class AuctionOpened(Event):
    item: str
    bidders: tuple[int, ...]
    first: int = -1  # who is asked first
    key: ClassVar[str] = "monopoly.auction"
    asks: ClassVar[bool] = True

    def describe(self, names: Sequence[str]) -> str:
        who = name_list([names[b] for b in self.bidders])
        first = f" {names[self.first]} first: bid or pass." if self.first >= 0 else ""
        return (f"The Bank auctions {self.item} to {who}; bids may start at any price."
                f"{first}")


def _still_in(names: Sequence[str], bidders: tuple[int, ...], to_act: int) -> str:
    """ " Still in: Car and Hat; Car to beat it or pass." (nothing once the auction closes)"""
    if to_act < 0:
        return ""
    return (f" Still in: {name_list([names[b] for b in bidders])}; {names[to_act]} to beat it"
            " or pass.")


@dataclass(frozen=True, slots=True)
class BidTaken(Event):
    """A bid, with who is still in and who bids next (-1: the auction closes)."""

    player: int
    amount: int
    bidders: tuple[int, ...] = ()
    to_act: int = -1
    key: ClassVar[str] = "monopoly.bid"
    asks: ClassVar[bool] = True

    def describe(self, names: Sequence[str]) -> str:
        return (f"{names[self.player]} bids {money(self.amount)}."
                + _still_in(names, self.bidders, self.to_act))


@dataclass(frozen=True, slots=True)
class BidderPassed(Event):
    """A bidder drops out; the high bid so far, who is still in, and who bids next."""

    player: int
    high: int = 0
    high_bidder: int = -1
    bidders: tuple[int, ...] = ()
    to_act: int = -1
    key: ClassVar[str] = "monopoly.pass"
    asks: ClassVar[bool] = True

    def describe(self, names: Sequence[str]) -> str:
        text = f"{names[self.player]} passes."
        if self.to_act < 0:
            return text
        if self.high_bidder < 0:
            return (f"{text} No bid yet; still in: {name_list([names[b] for b in self.bidders])};"
                    f" {names[self.to_act]} to bid or pass.")
        return (f"{text} High bid {money(self.high)}, {names[self.high_bidder]}'s."
                + _still_in(names, self.bidders, self.to_act))


@dataclass(frozen=True, slots=True)
class AuctionWon(Event):
    player: int
    item: str
    amount: int
    key: ClassVar[str] = "monopoly.auction_won"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} wins {self.item} at auction for {money(self.amount)}."


@dataclass(frozen=True, slots=True)
class AuctionUnsold(Event):
    item: str
    key: ClassVar[str] = "monopoly.auction_unsold"

    def describe(self, names: Sequence[str]) -> str:
        return f"No bids: {self.item} stays with the Bank."


@dataclass(frozen=True, slots=True)
class Jailed(Event):
    player: int
    reason: str
    key: ClassVar[str] = "monopoly.jailed"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} goes to Jail: {self.reason}. No salary; the turn ends."


@dataclass(frozen=True, slots=True)
class Released(Event):
    player: int
    how: str
    key: ClassVar[str] = "monopoly.released"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} leaves Jail: {self.how}."


@dataclass(frozen=True, slots=True)
class BuildingsChanged(Event):
    """Built or sold back: ``now`` says what stands on the lot afterwards."""

    player: int
    space: str
    now: str
    amount: int
    sold: bool
    key: ClassVar[str] = "monopoly.buildings"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        if self.sold:
            return (f"{names[self.player]} sells back to the Bank for {money(self.amount)}:"
                    f" {self.space} now has {self.now}.")
        if self.amount == 0:
            return (f"{names[self.player]} erects the building won at auction: {self.space}"
                    f" now has {self.now}.")
        return (f"{names[self.player]} pays {money(self.amount)}: {self.space} now has"
                f" {self.now}.")


@dataclass(frozen=True, slots=True)
class MortgageChanged(Event):
    player: int
    space: str
    amount: int
    lifted: bool
    key: ClassVar[str] = "monopoly.mortgage"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        if self.lifted:
            return (f"{names[self.player]} pays {money(self.amount)} to lift the mortgage on"
                    f" {self.space}.")
        return f"{names[self.player]} mortgages {self.space} for {money(self.amount)}."


@dataclass(frozen=True, slots=True)
class TradeOffered(Event):
    player: int
    partner: int
    text: str
    key: ClassVar[str] = "monopoly.trade_offered"
    asks: ClassVar[bool] = True

    def describe(self, names: Sequence[str]) -> str:
        return (f"{names[self.player]} offers {names[self.partner]} {self.text}."
                f" {names[self.partner]}: accept or reject?")


@dataclass(frozen=True, slots=True)
class TradeClosed(Event):
    player: int
    partner: int
    accepted: bool
    key: ClassVar[str] = "monopoly.trade_closed"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        verb = "accepts" if self.accepted else "rejects"
        return f"{names[self.partner]} {verb} {names[self.player]}'s offer."


@dataclass(frozen=True, slots=True)
class MortgageReceived(Event):
    player: int
    space: str
    lift: int
    interest: int
    key: ClassVar[str] = "monopoly.mortgage_received"
    asks: ClassVar[bool] = True

    def describe(self, names: Sequence[str]) -> str:
        return (f"{names[self.player]} receives {self.space} mortgaged: lift it now for"
                f" {money(self.lift)}, or keep it mortgaged paying {money(self.interest)}"
                f" interest now.")


@dataclass(frozen=True, slots=True)
class TaxChoice(Event):
    player: int
    space: str
    amount: int
    percent: int
    key: ClassVar[str] = "monopoly.tax_choice"
    asks: ClassVar[bool] = True

    def describe(self, names: Sequence[str]) -> str:
        return (f"{self.space}: {names[self.player]}, pay {money(self.amount)} or"
                f" {self.percent}% of your total worth? Decide before adding it up.")


@dataclass(frozen=True, slots=True)
class InDebt(Event):
    player: int
    creditor: int
    amount: int
    cash: int
    raisable: int = -1  # what selling every building and mortgaging every deed would raise
    key: ClassVar[str] = "monopoly.debt"
    asks: ClassVar[bool] = True
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        owes = (f"{names[self.player]} owes {_who(names, self.creditor)} {money(self.amount)}"
                f" but has {money(self.cash)}")
        if self.raisable < 0:  # an event from before the figure was kept
            return f"{owes}: sell buildings, mortgage, trade, or declare bankruptcy."
        if self.cash + self.raisable >= self.amount:
            return (f"{owes}: sell buildings, mortgage or trade to raise it (selling and"
                    f" mortgaging everything would raise {money(self.raisable)}).")
        if self.raisable == 0:
            return f"{owes} and nothing to sell or mortgage: trade, or declare bankruptcy."
        return (f"{owes}; selling buildings and mortgaging everything would raise only"
                f" {money(self.raisable)}: trade, or declare bankruptcy.")


@dataclass(frozen=True, slots=True)
class WentBankrupt(Event):
    player: int
    creditor: int
    key: ClassVar[str] = "monopoly.bankrupt"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        to = "the Bank" if self.creditor == BANK else names[self.creditor]
        return f"{names[self.player]} is bankrupt to {to} and retires from the game."


@dataclass(frozen=True, slots=True)
class RentDue(Event):
    player: int
    owner: int
    amount: int
    detail: str
    key: ClassVar[str] = "monopoly.rent_due"

    def describe(self, names: Sequence[str]) -> str:
        return (f"{names[self.owner]} may claim {money(self.amount)} rent from"
                f" {names[self.player]}: {self.detail}. Claim before the second player"
                f" following throws.")


@dataclass(frozen=True, slots=True)
class RentLapsed(Event):
    player: int
    owner: int
    amount: int
    key: ClassVar[str] = "monopoly.rent_lapsed"

    def describe(self, names: Sequence[str]) -> str:
        return (f"Too late: {names[self.owner]} did not claim {money(self.amount)} rent from"
                f" {names[self.player]}.")


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    player: int
    spaces: tuple[str, ...]
    paid: int
    key: ClassVar[str] = "monopoly.dealt"

    def describe(self, names: Sequence[str]) -> str:
        cost = f", paying {money(self.paid)}" if self.paid else " free"
        return f"{names[self.player]} is dealt {name_list(self.spaces)}{cost}."
