"""SORRY! actions: a pawn started, moved forward or back, a 7 split, an 11's switch, a
SORRY! bump, a card forfeited or discarded; and the pawn letters and card words."""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine import Action
from companion.games.sorry.board import CARD_ORDER

LETTERS = "ABCDEFGH"
FORWARD = {"1": 1, "2": 2, "3": 3, "5": 5, "7": 7, "8": 8, "10": 10, "11": 11, "12": 12}
CARD_WORDS = {c: c for c in CARD_ORDER} | {"SORRY": "SORRY!"}


@dataclass(frozen=True)
class StartPawn(Action):
    """Take a pawn of ``owner`` (a seat: the player, or the partner in Team play) out of START."""

    player: int
    card: str
    owner: int

    def __str__(self) -> str:
        return f"play {self.card} start"


@dataclass(frozen=True)
class Forward(Action):
    player: int
    card: str
    owner: int
    pawn: int
    steps: int

    def __str__(self) -> str:
        return f"play {self.card} move {LETTERS[self.pawn]} {self.steps}"


@dataclass(frozen=True)
class Backward(Action):
    player: int
    card: str
    owner: int
    pawn: int
    steps: int

    def __str__(self) -> str:
        return f"play {self.card} back {LETTERS[self.pawn]} {self.steps}"


@dataclass(frozen=True)
class Split(Action):
    """A 7 split: ``steps`` forward for the first pawn, then ``steps2`` for the second."""

    player: int
    card: str
    owner: int
    pawn: int
    steps: int
    owner2: int
    pawn2: int
    steps2: int

    def __str__(self) -> str:
        return (f"play {self.card} split {LETTERS[self.pawn]} {self.steps}"
                f" {LETTERS[self.pawn2]} {self.steps2}")


@dataclass(frozen=True)
class TeamSplit(Action):
    """Team play: a 7 split among three or more of the team's pawns, in the order given;
    ``parts`` holds (owner, pawn, steps) for each."""

    player: int
    card: str
    parts: tuple[tuple[int, int, int], ...]

    def __str__(self) -> str:
        return f"play {self.card} split " + " ".join(
            f"{LETTERS[pawn]} {steps}" for _, pawn, steps in self.parts)


@dataclass(frozen=True)
class Switch(Action):
    """An 11: change places with an opponent's pawn on the open track."""

    player: int
    card: str
    owner: int
    pawn: int
    other: int
    other_pawn: int

    def __str__(self) -> str:
        return f"play {self.card} switch {LETTERS[self.pawn]}"


@dataclass(frozen=True)
class SorryBump(Action):
    """A SORRY! card: a pawn from START replaces an opponent's pawn, bumped to its START."""

    player: int
    card: str
    owner: int
    other: int
    other_pawn: int

    def __str__(self) -> str:
        return f"play {self.card} sorry"


@dataclass(frozen=True)
class Pass(Action):
    """Forfeit the move (an 11 that cannot go forward) or, with a hand, discard a card."""

    player: int
    card: str

    def __str__(self) -> str:
        return f"pass {self.card}"


PLAYS = (StartPawn, Forward, Backward, Split, TeamSplit, Switch, SorryBump)
