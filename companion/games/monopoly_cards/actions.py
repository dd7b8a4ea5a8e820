"""Typed player actions of Monopoly The Card Game."""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine import Action


@dataclass(frozen=True)
class DrawCard(Action):
    """DRAW: take the top card of the draw pile (its identity arrives as a chance Draw)."""

    player: int

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True)
class Trade(Action):
    """TRADE: optionally ``add`` one hand card to your trade pile first, then swap the top
    ``count`` cards of your pile with the top of ``pile`` (a player's seat, or n, n+1 for the
    extra piles of 2 and 3 players; there ``count`` 2 also takes the draw pile's top card)."""

    player: int
    pile: int
    count: int = 1
    add: str = ""

    def __str__(self) -> str:
        extra = f" add {self.add}" if self.add else ""
        return f"trade {self.pile} {self.count}{extra}"


@dataclass(frozen=True)
class Discard(Action):
    """One card from hand onto your trade pile (5-6 players: your next trade card)."""

    player: int
    card: str

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True)
class LayDown(Action):
    """LAY DOWN. ``cards``: the hand shown (needed with deal=hidden; with deal=read the
    companion knows it). ``discards``: the excess over 10 put on the trade pile first.
    ``chances``: what each Chance card stands for (empty: the best reading is chosen)."""

    player: int
    cards: tuple[str, ...] = ()
    discards: tuple[str, ...] = ()
    chances: tuple[str, ...] = ()

    def __str__(self) -> str:
        parts = ["down", *self.cards]
        if self.discards:
            parts += ["discard", *self.discards]
        if self.chances:
            parts += ["as", *self.chances]
        return " ".join(parts)


@dataclass(frozen=True)
class Exchange(Action):
    """5-6 players: swap your trade card with another player's (both go into the hands)."""

    player: int
    other: int

    def __str__(self) -> str:
        return f"exchange {self.other}"


@dataclass(frozen=True)
class PassCard(Action):
    """5-6 players: the card passed face down to the left after each turn."""

    player: int
    card: str

    def __str__(self) -> str:
        return f"pass {self.card}"


@dataclass(frozen=True)
class Reward(Action):
    """deal=hidden: the reward cards the first player adds to the hand."""

    player: int
    cards: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join(["reward", *self.cards])


@dataclass(frozen=True)
class ShowHand(Action):
    """deal=hidden: an opposing player's whole hand, laid down at the end of the hand."""

    player: int
    cards: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join(["show", *self.cards])


ACTION_TYPES: dict[str, type[Action]] = {
    cls.__name__: cls
    for cls in (DrawCard, Trade, Discard, LayDown, Exchange, PassCard, Reward, ShowHand)
}
