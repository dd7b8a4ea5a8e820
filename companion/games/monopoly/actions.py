"""Typed player actions of Monopoly. Spaces are board indices; players are seat indices.

Dice throws and card draws are the engine's common chance outcomes (Throw, Draw, Shuffle).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine import Action


@dataclass(frozen=True)
class Buy(Action):
    player: int


@dataclass(frozen=True)
class Auction(Action):
    """Decline to buy at the printed price: the Bank auctions the property."""

    player: int


@dataclass(frozen=True)
class Bid(Action):
    player: int
    amount: int


@dataclass(frozen=True)
class Pass(Action):
    """Leave the auction in progress (final)."""

    player: int


@dataclass(frozen=True)
class AuctionBuilding(Action):
    """Ask the Bank to auction one of its last houses or hotels (building shortage)."""

    player: int
    hotel: bool = False


@dataclass(frozen=True)
class Build(Action):
    player: int
    space: int
    hotel: bool = False  # only needed in the Short Game, to choose a hotel over a 4th house


@dataclass(frozen=True)
class SellBuilding(Action):
    """Sell one building level back (a hotel breaks down to houses, if the Bank has them)."""

    player: int
    space: int


@dataclass(frozen=True)
class SellGroup(Action):
    """Sell buildings on a whole colour group down to ``houses`` on every lot at once."""

    player: int
    space: int
    houses: int = 0


@dataclass(frozen=True)
class Mortgage(Action):
    player: int
    space: int


@dataclass(frozen=True)
class Unmortgage(Action):
    player: int
    space: int


@dataclass(frozen=True)
class KeepMortgaged(Action):
    """Keep a received mortgaged property mortgaged, paying the 10% interest now."""

    player: int
    space: int


@dataclass(frozen=True)
class Trade(Action):
    """``player`` offers ``partner``: gives spaces, cash and held cards; takes the same."""

    player: int
    partner: int
    give: tuple[int, ...] = ()
    take: tuple[int, ...] = ()
    give_cash: int = 0
    take_cash: int = 0
    give_cards: tuple[str, ...] = ()
    take_cards: tuple[str, ...] = ()


@dataclass(frozen=True)
class Accept(Action):
    player: int


@dataclass(frozen=True)
class Reject(Action):
    player: int


@dataclass(frozen=True)
class PayFine(Action):
    player: int


@dataclass(frozen=True)
class UseCard(Action):
    player: int
    deck: str = ""  # "" = whichever Get Out of Jail Free card is held


@dataclass(frozen=True)
class ChooseTax(Action):
    player: int
    percent: bool  # True: 10% of total worth; False: the flat amount


@dataclass(frozen=True)
class DeclareBankruptcy(Action):
    player: int


@dataclass(frozen=True)
class Claim(Action):
    """Claim rent (only with the option rent=claim)."""

    player: int


@dataclass(frozen=True)
class Deal(Action):
    """Short and Time Limit Games with physical deeds: the deeds the Banker dealt a player."""

    player: int
    spaces: tuple[int, ...]


@dataclass(frozen=True)
class EndTurn(Action):
    """Option end_turn=manual: the player has finished building, trading and mortgaging."""

    player: int


@dataclass(frozen=True)
class TimeUp(Action):
    """The agreed hour of the Time Limit Game has come: the richest player wins."""


ACTION_TYPES: dict[str, type[Action]] = {
    cls.__name__: cls
    for cls in (
        Buy, Auction, Bid, Pass, AuctionBuilding, Build, SellBuilding, SellGroup, Mortgage,
        Unmortgage, KeepMortgaged, Trade, Accept, Reject, PayFine, UseCard, ChooseTax,
        DeclareBankruptcy, Claim, Deal, EndTurn, TimeUp,
    )
}
