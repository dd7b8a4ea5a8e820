"""The typed actions of the dominoes games that lay tiles in a line (and their hands)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine import Action


@dataclass(frozen=True)
class Play(Action):
    """A tile laid. ``end``: "left"/"right" (a line), an open value "6" (with spinners), or
    "" when only one place fits."""

    player: int
    tile: str
    end: str = ""

    def __str__(self) -> str:
        return f"play {self.tile}{' ' + self.end if self.end else ''}"


@dataclass(frozen=True)
class Pick(Action):
    """tiles=count: a player who cannot play draws from the boneyard; ``tile`` if shown."""

    player: int
    tile: str = ""

    def __str__(self) -> str:
        return f"draw{' ' + self.tile if self.tile else ''}"


@dataclass(frozen=True)
class Pass(Action):
    player: int

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Redeal(Action):
    """tiles=count: nobody drew a double; the tiles are mixed and drawn again."""

    def __str__(self) -> str:
        return "redeal"


@dataclass(frozen=True)
class ShowHand(Action):
    """The tiles left in a hand, shown at the end of a round."""

    player: int
    tiles: tuple[str, ...]

    def __str__(self) -> str:
        return "hand " + " ".join(self.tiles) if self.tiles else "hand empty"


@dataclass(frozen=True)
class Pips(Action):
    """The pips left in a hand, said at the end of a round (tiles not shown)."""

    player: int
    pips: int

    def __str__(self) -> str:
        return f"pips {self.pips}"


ACTION_TYPES: dict[str, type[Action]] = {
    "Play": Play, "Pick": Pick, "Pass": Pass, "Redeal": Redeal, "ShowHand": ShowHand,
    "Pips": Pips,
}
