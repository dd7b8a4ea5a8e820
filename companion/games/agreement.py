"""What two players may agree on, in any two-player board game: a draw (offered, then accepted
or declined) and resignation.

FIDE's Laws (9.1.2) are the usual rule where the rulebooks are silent: a draw is offered by a
player, usually just after their move, and stands until the opponent accepts it, declines it,
or plays a move (which declines it). Accepting ends the game drawn; resigning ends it, the
opponent winning. The games (chess, checkers, draughts, four in a row) keep the offer in their
state (``draw_offer``: the player who offered, or None) and call these helpers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.engine import Action, Event, GameOver, IllegalAction, Priority


@dataclass(frozen=True)
class OfferDraw(Action):
    player: int

    def __str__(self) -> str:
        return "offer draw"


@dataclass(frozen=True)
class AcceptDraw(Action):
    player: int

    def __str__(self) -> str:
        return "accept draw"


@dataclass(frozen=True)
class DeclineDraw(Action):
    player: int

    def __str__(self) -> str:
        return "decline draw"


@dataclass(frozen=True)
class Resign(Action):
    player: int

    def __str__(self) -> str:
        return "resign"


@dataclass(frozen=True)
class FlagFall(Action):
    """The player's time has run out (said by a clock, or claimed: "flag")."""

    player: int

    def __str__(self) -> str:
        return "flag"


ACTIONS: dict[str, type[Action]] = {
    "OfferDraw": OfferDraw, "AcceptDraw": AcceptDraw, "DeclineDraw": DeclineDraw,
    "Resign": Resign, "FlagFall": FlagFall,
}


@dataclass(frozen=True)
class DrawOffered(Event):
    player: int
    key: ClassVar[str] = "draw_offered"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        other = names[1 - self.player]
        return (f"{names[self.player]} offers a draw. {other}, say accept draw or decline"
                " draw (a move declines it).")


@dataclass(frozen=True)
class DrawDeclined(Event):
    player: int
    by_moving: bool = False
    key: ClassVar[str] = "draw_declined"
    priority: ClassVar[int] = Priority.INFO

    def describe(self, names: Sequence[str]) -> str:
        how = " by playing on" if self.by_moving else ""
        return f"{names[self.player]} declines the draw{how}."


# --------------------------------------------------------------------------- words

_WORDS = {
    "offer draw": OfferDraw, "offer a draw": OfferDraw, "draw offer": OfferDraw,
    "draw?": OfferDraw, "offer": OfferDraw,
    "accept draw": AcceptDraw, "accept": AcceptDraw, "accept the draw": AcceptDraw,
    "agree draw": AcceptDraw, "agree": AcceptDraw,
    "decline draw": DeclineDraw, "decline": DeclineDraw, "decline the draw": DeclineDraw,
    "no draw": DeclineDraw, "refuse draw": DeclineDraw,
    "resign": Resign, "i resign": Resign, "resigns": Resign,
    "flag": FlagFall, "flag fall": FlagFall, "flag fallen": FlagFall, "time": FlagFall,
}

HELP = (
    "offer draw                  offer a draw (after your move; a move by the other declines)\n"
    "accept draw / decline draw  answer a draw offer\n"
    "resign                      resign (the player to move, or name the player: Black resign)\n"
    "flag                        the flag of the player to move has fallen (Black flag: hers)"
)


def help_text(indent: str = "") -> str:
    return "\n".join(indent + line for line in HELP.splitlines())


def parse(text: str, to_move: int, moved: int | None, offer: int | None) -> Action | None:
    """The agreement a line means, with its usual player (the speaker, when named, replaces
    it): an offer is made by the player who just moved, an answer by the other one, a
    resignation by the player to move. None when the line is something else."""
    kind = _WORDS.get(" ".join(text.lower().split()))
    if kind is None:
        return None
    if kind is OfferDraw:
        return OfferDraw(to_move if moved is None else moved)
    if kind in (AcceptDraw, DeclineDraw):
        return kind(to_move if offer is None else 1 - offer)
    return kind(to_move)


# --------------------------------------------------------------------------- rules


def apply(state: Any, action: Action, names: Sequence[str],
          end: Callable[[tuple[int, ...], str], None]) -> list[Event]:
    """Apply an agreement to ``state`` (which has ``draw_offer`` and ``is_terminal()``);
    ``end(winners, detail)`` ends the game. Validates first; refuses with a sentence."""
    if state.is_terminal():
        raise IllegalAction("The game is over.")
    player = getattr(action, "player", -1)
    if player not in (0, 1):
        raise IllegalAction("Only the two players can do that.")
    offer: int | None = state.draw_offer
    if isinstance(action, OfferDraw):
        if offer is not None:
            raise IllegalAction(f"{names[offer]}'s draw offer is waiting for an answer.")
        state.draw_offer = player
        return [DrawOffered(player)]
    if isinstance(action, AcceptDraw | DeclineDraw):
        if offer is None:
            raise IllegalAction("There is no draw offer to answer.")
        if offer == player:
            raise IllegalAction(f"{names[player]} made the offer: {names[1 - player]} answers"
                                " it.")
        state.draw_offer = None
        if isinstance(action, DeclineDraw):
            return [DrawDeclined(player)]
        end((), "Draw by agreement.")
        return [GameOver((), "Draw by agreement.")]
    if isinstance(action, Resign):
        state.draw_offer = None
        end((1 - player,), f"{names[player]} resigns.")
        return [GameOver((1 - player,), f"{names[player]} resigns.")]
    if isinstance(action, FlagFall):  # the usual rule: the player out of time loses
        state.draw_offer = None
        end((1 - player,), f"{names[player]}'s flag has fallen.")
        return [GameOver((1 - player,), f"{names[player]}'s flag has fallen.")]
    raise IllegalAction(f"{action} is not an agreement.")


def after_move(state: Any, mover: int) -> list[Event]:
    """A move by the player offered a draw declines it (FIDE 9.1.2.3)."""
    offer: int | None = state.draw_offer
    if offer is None or offer == mover:
        return []
    state.draw_offer = None
    return [DrawDeclined(mover, by_moving=True)]
