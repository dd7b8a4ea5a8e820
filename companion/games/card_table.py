"""The card table shared by Crazy Eights and Rummy, whose tables are really the same: one
standard deck, a deal either read in card by card (``deal=read``) or left face down
(``deal=hidden``: each player's cards are counted, not known), an up card turned from the
stock to start the discard pile, and at the end of a hand the count, for which the players
still holding unknown cards read them in. What a card table knows: the hands (the known cards,
and how many unknown ones), the stock's unknown cards, the discard pile, and so every card seen
this hand.

Each game keeps what differs: its actions, what the up card and a drawn card do, its turns,
its scoring and its words. A game's state subclasses ``CardTable``, writes ``each``,
``_start_hand`` (calling ``_start_table``), ``seen``, ``where``, ``_turned_up``, ``_drawn``
and ``_score_hand``, and puts ``Draw: its_class._draw`` in its handlers.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from companion.cards import FULL_DECK, Card, CardError
from companion.engine import (
    CHANCE,
    TERMINAL,
    Action,
    ChanceRequest,
    Draw,
    Event,
    IllegalAction,
    State,
)

if TYPE_CHECKING:
    from companion.engine import Game

DECK = tuple(str(c) for c in FULL_DECK)
CARDS = {str(c): c for c in FULL_DECK}

DEAL, UP, PLAY, DRAW, SHOW, OVER = "deal", "up", "play", "draw", "show", "over"


def card_name(c: str) -> str:
    return Card.parse(c).name


def normal_card(text: str) -> str:
    """"td" -> "10D"; not a card: refused with the reason."""
    if text in CARDS:
        return text
    try:
        return str(Card.parse(text))
    except CardError as err:
        raise IllegalAction(str(err).replace("'", "")) from None


def read_card_words(words: Sequence[str], expected: str) -> Draw:
    """A card read in when one is expected: "5H" or "card 5H"."""
    if words[0].lower() == "card" and len(words) > 1:
        return Draw(normal_card(words[1]))
    if len(words) == 1:
        return Draw(normal_card(words[0]))
    raise IllegalAction(f"A card is expected now. {expected}.")


def _cards(n: int) -> str:
    return "one card" if n == 1 else f"{n} cards"


@dataclass(frozen=True)
class NewHand(Event):
    """A hand is dealt; a game names its own ``key`` and how its up card is turned."""

    number: int
    dealer: int
    each: int
    read: bool
    turn_up: ClassVar[str] = "Then turn up the next card and read it."

    def describe(self, names: Sequence[str]) -> str:
        text = f"Hand {self.number}: {names[self.dealer]} deals {_cards(self.each)} each."
        if self.read:
            return text + " Read each card as it is dealt, then the card turned up."
        return f"{text} {self.turn_up}"


@dataclass(frozen=True)
class ShowCards(Event):
    """deal=hidden: a player still holding cards reads them in for the count."""

    player: int
    count: int
    one: ClassVar[str] = "one card"  # the words for a single card

    def describe(self, names: Sequence[str]) -> str:
        n = self.one if self.count == 1 else f"{self.count} cards"
        return f"{names[self.player]}, read your {n} for the count."


class CardTable(State):
    """The deal, the up card, the hands, the stock, the discard pile and the count."""

    def __init__(self, game: Game) -> None:
        self.game = game
        opts = game.options
        self.n = n = len(game.players)
        self.read = opts["deal"] == "read"
        self.target = int(opts["to"])
        self.totals = [0] * n
        self.dealer = int(opts["dealer"])
        if not 0 <= self.dealer < n:
            raise ValueError(f"option dealer must be 0 to {n - 1}, not {self.dealer}")
        self.hand_number = 0
        self.winners_: tuple[int, ...] = ()
        self.history: list[dict[str, Any]] = []
        self.phase = OVER
        self._start_hand(self.dealer)

    @property
    @abstractmethod
    def each(self) -> int:
        """How many cards each player is dealt."""

    @abstractmethod
    def _start_hand(self, dealer: int) -> list[Event]:
        """A new hand: ``_start_table``, then what the game adds; its NewHand event."""

    def _start_table(self, dealer: int) -> None:
        self.dealer = dealer
        self.hand_number += 1
        n = self.n
        self.hands: list[list[str]] = [[] for _ in range(n)]  # cards known to be held
        self.unknown = [0 if self.read else self.each] * n  # cards held, not known
        self.dealt = 0
        self.stock_n = 52 - (0 if self.read else n * self.each)  # the stock's unknown cards
        self.discard: list[str] = []
        self.turn = self.left(dealer)
        self.out: int | None = None
        self.shown: list[list[str]] = [[] for _ in range(n)]  # deal=hidden: read for the count
        self.phase = DEAL if self.read else UP

    # --- what is known --------------------------------------------------------------------

    def left(self, p: int, k: int = 1) -> int:
        return (p + k) % self.n

    def held(self, p: int) -> int:
        return len(self.hands[p]) + self.unknown[p]

    def deal_target(self) -> int:
        return self.left(self.dealer, 1 + self.dealt)

    def seen(self) -> set[str]:
        """Every card seen this hand: the table's (``table_cards``), the hands, those shown."""
        out = self.table_cards()
        for cards in (*self.hands, *self.shown):
            out.update(cards)
        return out

    @abstractmethod
    def table_cards(self) -> set[str]:
        """The cards face up on the table (the discard pile, and what the game adds)."""

    def unseen(self) -> list[str]:
        seen = self.seen()
        return [c for c in DECK if c not in seen]

    @abstractmethod
    def where(self, c: str) -> str:
        """Where a card already seen is, in words ("it is in the discard pile")."""

    def held_text(self) -> str:
        """The answer to "held": how many cards each player holds."""
        names = self.game.players
        return "Cards held: " + ", ".join(f"{names[p]} {self.held(p)}" for p in range(self.n)) + "."

    def show_queue(self) -> list[int]:
        """deal=hidden, the count: players still holding cards not yet read, from the left of
        the player out (or of the dealer)."""
        start = self.out if self.out is not None else self.dealer
        order = [self.left(start, i) for i in range(1, self.n + 1)]
        return [p for p in order if len(self.shown[p]) < self.unknown[p]]

    # --- State API ------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.phase in (DEAL, UP, DRAW, SHOW):
            return CHANCE
        return self.turn

    def chance(self) -> ChanceRequest | None:
        who = {DEAL: self.deal_target, UP: lambda: self.dealer, DRAW: lambda: self.turn,
               SHOW: lambda: self.show_queue()[0]}.get(self.phase)
        if who is None:
            return None
        cards = self.up_cards() if self.phase == UP else self.unseen()
        return ChanceRequest(kind="card", deck="standard", cards=tuple(cards), who=who())

    def up_cards(self) -> list[str]:
        """The cards that may be turned up now."""
        return self.unseen()

    def winners(self) -> tuple[int, ...]:
        return self.winners_

    def scores(self) -> list[float]:
        return [float(t) for t in self.totals]

    # --- a card read in -------------------------------------------------------------------

    def _draw(self, action: Action) -> list[Event]:
        assert isinstance(action, Draw)
        if self.phase not in (DEAL, UP, DRAW, SHOW):
            raise IllegalAction(f"No card is expected now. {self.expected()}.")
        c = normal_card(action.card)
        if c in self.seen():
            raise IllegalAction(f"The {card_name(c)} cannot come now: {self.where(c)}")
        if self.phase == DEAL:
            self.hands[self.deal_target()].append(c)
            self.dealt += 1
            self.stock_n -= 1
            if self.dealt == self.n * self.each:
                self.phase = UP
            return []
        if self.phase == UP:
            return self._turned_up(c)
        if self.phase == DRAW:
            return self._drawn(c)
        p = self.show_queue()[0]
        self.shown[p].append(c)
        if self.show_queue():
            return []
        return self._score_hand()

    @abstractmethod
    def _turned_up(self, c: str) -> list[Event]:
        """The card turned up from the stock to start the discard pile."""

    @abstractmethod
    def _drawn(self, c: str) -> list[Event]:
        """deal=read: the card the player to move drew from the stock."""

    @abstractmethod
    def _score_hand(self) -> list[Event]:
        """The count, once every card still held is known."""

    def _check_turn(self, p: int, not_now: str) -> None:
        """``p`` may act now (``not_now``: the refusal's start outside the play)."""
        if not 0 <= p < self.n:
            raise IllegalAction(f"There is no player {p}")
        if self.phase != PLAY:
            raise IllegalAction(f"{not_now}. {self.expected()}.")
        if p != self.turn:
            names = self.game.players
            raise IllegalAction(f"It is {names[self.turn]}'s turn, not {names[p]}'s")

    # --- words ----------------------------------------------------------------------------

    def expected(self) -> str:
        """What the table does next, in words (no full stop): at the phases every card table
        shares (over, the deal, the count) here, else the game's ``expected_in_hand``."""
        names = self.game.players
        if self.phase == OVER:
            return "The game is over"
        if self.phase == DEAL:
            return (f"Read the next dealt card, for {names[self.deal_target()]}"
                    f" ({self.dealt + 1} of {self.n * self.each})")
        if self.phase == SHOW:
            p = self.show_queue()[0]
            return (f"{names[p]}, read your cards for the count ({len(self.shown[p]) + 1} of"
                    f" {self.unknown[p]})")
        return self.expected_in_hand()

    @abstractmethod
    def expected_in_hand(self) -> str:
        """``expected`` at the game's own phases: the up card, a draw, the play."""
