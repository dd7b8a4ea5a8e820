"""The Crazy Eights state: deal, the up card, plays, draws, the empty stock, scoring.

``deal=hidden`` (default): hands are face down; the companion reads the up card and each card
played (all face up), counts the cards each player holds and the stock, and has the players
read their remaining cards at the end for the count. ``deal=read``: every dealt and drawn card
is read in too, so every play is checked against the hand.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from companion.cards import SUIT_NAMES, SUITS
from companion.engine import Action, Draw, Event, GameOver, IllegalAction
from companion.games.card_table import (
    CARDS,
    DRAW,
    OVER,
    PLAY,
    SHOW,
    UP,
    CardTable,
    normal_card,
)
from companion.games.crazy_eights.events import (
    Blocked,
    CardPlayed,
    Drew,
    FalsePass,
    HandScored,
    NewHand,
    PassedTurn,
    ShowCards,
    StockTurned,
    SuitCalled,
    UpCard,
    WentOut,
    card_name,
)


@dataclass(frozen=True)
class Play(Action):
    """A card played; ``suit`` is the suit nominated with an eight ("" otherwise)."""

    player: int
    card: str
    suit: str = ""

    def __str__(self) -> str:
        return f"play {self.card}" + (f" {SUIT_NAMES[self.suit]}" if self.suit else "")


@dataclass(frozen=True)
class DrawCard(Action):
    """The player takes a card from the stock (deal=read: the card is read next)."""

    player: int

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True)
class Pass(Action):
    """No play: the stock is empty, or (draw=one-then-play) keeping the card drawn."""

    player: int

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class CallSuit(Action):
    """The suit named after an eight was put down alone ("8H", then "spades")."""

    player: int
    suit: str

    def __str__(self) -> str:
        return f"call {SUIT_NAMES.get(self.suit, self.suit)}"


ACTION_TYPES: dict[str, type[Action]] = {"Play": Play, "DrawCard": DrawCard, "Pass": Pass,
                                         "CallSuit": CallSuit}


def rank(c: str) -> int:
    return CARDS[c].rank


def suit(c: str) -> str:
    return c[-1]


def penalty(c: str) -> int:
    """50 for an eight, 10 for a picture, spot cards at face value (ace 1)."""
    r = rank(c)
    return 50 if r == 8 else 10 if r > 10 else r


def matches(c: str, top: str | None, called: str) -> bool:
    """Whether ``c`` may go on ``top`` (with ``called`` the suit nominated on an eight)."""
    if rank(c) == 8 or top is None:
        return True
    if rank(top) == 8:
        return not called or suit(c) == called
    return rank(c) == rank(top) or suit(c) == suit(top)


@dataclass(frozen=True)
class Claim:
    """deal=hidden: a pass showed that the player held none of ``cards``."""

    top: str
    cards: frozenset[str]


CALL = "call"  # an eight was put down alone: its player names the suit next


class CrazyEightsState(CardTable):
    """The card table (deal=hidden: a hand's cards are counted, never known) with an eight's
    called suit, the draw rule and the passes that block a hand."""

    @property
    def each(self) -> int:
        return 7 if self.n == 2 else 5

    def _start_hand(self, dealer: int) -> list[Event]:
        self._start_table(dealer)
        self.buried: list[str] = []  # eights turned up and put back this hand
        self.called = ""
        self.drew = 0  # cards drawn this turn
        self.last_drawn: str | None = None
        self.passes = 0  # passes in a row with no card to draw
        self.claims: list[list[Claim]] = [[] for _ in range(self.n)]
        return [NewHand(self.hand_number, dealer, self.each, self.read)]

    # --- what is known --------------------------------------------------------------------

    def top(self) -> str | None:
        return self.discard[-1] if self.discard else None

    def table_cards(self) -> set[str]:
        return set(self.discard)

    def up_cards(self) -> list[str]:
        return [c for c in self.unseen() if c not in self.buried]

    def can_draw(self) -> bool:
        return self.stock_n > 0 or (self.game.options["empty_stock"] == "reshuffle"
                                    and len(self.discard) > 1)

    def where(self, c: str) -> str:
        if c in self.discard:
            return "it is in the discard pile"
        for p, cards in enumerate(self.hands):
            if c in cards:
                return f"{self.game.players[p]} holds it"
        return "it was seen this hand"

    # --- State API ------------------------------------------------------------------------

    def playable(self, p: int) -> list[str]:
        """deal=read: the cards of p's hand that may be played now."""
        top = self.top()
        cards = self.hands[p]
        if self.drew and self.game.options["draw"] == "one-then-play":
            cards = [self.last_drawn] if self.last_drawn in cards else []
        return [c for c in cards if matches(c, top, self.called)]

    def legal_actions(self) -> list[Action]:
        p = self.current_player()
        if p < 0:
            return []
        if self.phase == CALL:
            return [CallSuit(p, s) for s in SUITS]
        out: list[Action] = []
        if self.read:
            cards = self.playable(p)
        else:
            barred = {c for claim in self.claims[p] for c in claim.cards}
            pool = [c for c in self.unseen() if c not in barred]
            cards = [c for c in pool if matches(c, self.top(), self.called)]
        for c in cards:
            if rank(c) == 8:
                out += [Play(p, c, s) for s in SUITS]
            else:
                out.append(Play(p, c))
        if self._may_draw(p):
            out.append(DrawCard(p))
        if self._may_pass(p, bool(cards)):
            out.append(Pass(p))
        return out

    def _may_draw(self, p: int) -> bool:
        if not self.can_draw():
            return False
        rule = self.game.options["draw"]
        if self.drew == 0:
            return True
        if rule != "until":
            return False
        # Draw until able to play: deal=read knows when the player can.
        return not self.read or not self.playable(p)

    def _may_pass(self, p: int, can_play: bool) -> bool:
        if self.drew and self.game.options["draw"] in ("one-then-play", "until"):
            if self.game.options["draw"] == "one-then-play":
                return True
            return not self.can_draw() and (not self.read or not can_play)
        return not self.can_draw() and (not self.read or not can_play)

    # --- chance ---------------------------------------------------------------------------

    def _turned_up(self, c: str) -> list[Event]:
        if c in self.buried:
            raise IllegalAction(f"The {card_name(c)} went back into the middle of the stock")
        if rank(c) == 8 and self.game.options["first_eight"] == "bury":
            self.buried.append(c)
            return [UpCard(c, True)]
        self.discard.append(c)
        self.stock_n -= 1
        self.phase = PLAY
        return [UpCard(c, False)]

    def _drawn(self, c: str) -> list[Event]:
        self.hands[self.turn].append(c)
        self.last_drawn = c
        self.phase = PLAY
        return self._after_draw()

    # --- turns ----------------------------------------------------------------------------

    def _play(self, action: Action) -> list[Event]:
        assert isinstance(action, Play)
        p = action.player
        self._check_turn(p, "No play now")
        c = normal_card(action.card)
        name = self.game.players[p]
        top = self.top()
        if action.suit and action.suit not in SUITS:
            raise IllegalAction(f"Name a suit with the {card_name(c)}, like: {c} hearts")
        if rank(c) != 8 and action.suit:
            raise IllegalAction("Only an eight calls a suit")
        if self.read:
            if c not in self.hands[p]:
                raise IllegalAction(f"{name} cannot play the {card_name(c)}: {self.where(c)}"
                                    if c in self.seen() else
                                    f"{name} does not hold the {card_name(c)}")
            if (self.drew and self.game.options["draw"] == "one-then-play"
                    and c != self.last_drawn):
                assert self.last_drawn is not None
                raise IllegalAction(f"After drawing, only the card drawn may be played, the"
                                    f" {card_name(self.last_drawn)}")
        elif c in self.seen():
            raise IllegalAction(f"The {card_name(c)} cannot be played: {self.where(c)}")
        if not matches(c, top, self.called):
            assert top is not None
            need = (f"{SUIT_NAMES[self.called]} were called" if rank(top) == 8 and self.called
                    else f"it matches neither the rank nor the suit of the {card_name(top)}")
            raise IllegalAction(f"The {card_name(c)} cannot go on the pile: {need}. An eight"
                                " goes on anything.")
        # Validated: the state changes from here on.
        events: list[Event] = []
        if not self.read:
            for claim in list(self.claims[p]):
                if c in claim.cards:
                    events.append(FalsePass(p, c, claim.top))
                    self.claims[p].remove(claim)
            self.unknown[p] -= 1
        else:
            self.hands[p].remove(c)
        self.discard.append(c)
        self.called = action.suit
        self.passes = 0
        events.append(CardPlayed(p, c, action.suit, self.held(p)))
        if self.held(p) == 0:
            self.out = p
            events.append(WentOut(p))
            return events + self._end_hand()
        if rank(c) == 8 and not action.suit:
            self.phase = CALL  # the eight is down; its player names the suit next
            return events
        return events + self._next_turn()

    def _call_suit(self, action: Action) -> list[Event]:
        assert isinstance(action, CallSuit)
        p = action.player
        names = self.game.players
        if self.phase != CALL:
            raise IllegalAction(f"A suit is named with an eight, like: 8H hearts. "
                                f"{self.expected()}.")
        if p != self.turn:
            raise IllegalAction(f"{names[self.turn]} played the eight and names the suit,"
                                f" not {names[p]}.")
        if action.suit not in SUITS:
            raise IllegalAction("Say hearts, spades, diamonds or clubs.")
        self.called = action.suit
        self.phase = PLAY
        return [SuitCalled(p, action.suit), *self._next_turn()]

    def _next_turn(self) -> list[Event]:
        self.turn = self.left(self.turn)
        self.drew = 0
        self.last_drawn = None
        return []

    def _draw_card(self, action: Action) -> list[Event]:
        assert isinstance(action, DrawCard)
        p = action.player
        self._check_turn(p, "No play now")
        if not self._may_draw(p):
            if not self.can_draw():
                raise IllegalAction("The stock is empty: play a card, or pass")
            if self.game.options["draw"] == "until":
                raise IllegalAction(f"{self.game.players[p]} can play now: draw until you can"
                                    " play, then play")
            raise IllegalAction("Only one card is drawn in a turn")
        events: list[Event] = []
        if self.stock_n == 0:
            turned = self.discard[:-1]
            self.discard = self.discard[-1:]
            self.stock_n = len(turned)
            events.append(StockTurned(len(turned)))
        self.stock_n -= 1
        self.drew += 1
        self.passes = 0
        if self.read:
            self.phase = DRAW
            return events
        self.unknown[p] += 1
        return events + self._after_draw()

    def _after_draw(self) -> list[Event]:
        p = self.turn
        events: list[Event] = [Drew(p, self.held(p))]
        if self.game.options["draw"] == "one":
            return events + self._next_turn()
        return events

    def _pass(self, action: Action) -> list[Event]:
        assert isinstance(action, Pass)
        p = action.player
        self._check_turn(p, "No play now")
        can_play = self.read and bool(self.playable(p))
        if not self._may_pass(p, can_play):
            if self.can_draw() and not self.drew:
                raise IllegalAction("Play a card or draw one: there are cards in the stock")
            raise IllegalAction(f"{self.game.players[p]} can play, so must")
        counts = not self.drew  # a pass with nothing to draw (not a kept draw) may block
        if not self.read and not self.can_draw() and self.game.options["empty_stock"] == "pass":
            barred = [c for c in self.unseen() if matches(c, self.top(), self.called)]
            if barred:
                self.claims[p].append(Claim(self.top() or "", frozenset(barred)))
        events: list[Event] = [PassedTurn(p)]
        self.passes = self.passes + 1 if counts else 0
        if self.passes >= self.n:
            events.append(Blocked())
            return events + self._end_hand()
        return events + self._next_turn()

    # --- the count ------------------------------------------------------------------------

    def _end_hand(self) -> list[Event]:
        if not self.read and self.show_queue():
            self.phase = SHOW
            p = self.show_queue()[0]
            return [ShowCards(q, self.unknown[q] - len(self.shown[q])) for q in
                    [p, *self.show_queue()[1:]]]
        return self._score_hand()

    def _score_hand(self) -> list[Event]:
        held = self.hands if self.read else self.shown
        pens = tuple(sum(penalty(c) for c in held[p]) for p in range(self.n))
        if self.out is not None:
            winners: tuple[int, ...] = (self.out,)
        else:
            low = min(pens)
            winners = tuple(p for p in range(self.n) if pens[p] == low)
        for p in range(self.n):
            if p not in winners:
                self.totals[p] += pens[p]
        self.history.append({"hand": self.hand_number, "winners": list(winners),
                             "penalties": list(pens)})
        shown = tuple(0 if p in winners else pens[p] for p in range(self.n))
        events: list[Event] = [HandScored(self.hand_number, winners, shown, tuple(self.totals))]
        if self.target <= 0:
            self.winners_ = winners
            self.phase = OVER
            return [*events, GameOver(winners)]
        if max(self.totals) >= self.target:
            low = min(self.totals)
            self.winners_ = tuple(p for p in range(self.n) if self.totals[p] == low)
            self.phase = OVER
            return [*events, GameOver(self.winners_, f"{low} penalty points, the fewest.")]
        return events + self._start_hand(self.left(self.dealer))

    # --- words ----------------------------------------------------------------------------

    def expected_in_hand(self) -> str:
        names = self.game.players
        if self.phase == UP:
            return "Turn up the top card of the stock and read it"
        if self.phase == DRAW:
            return f"Read the card {names[self.turn]} draws"
        if self.phase == CALL:
            return f"{names[self.turn]}, name a suit for the eight"
        top = self.top()
        assert top is not None
        on = f"the {card_name(top)}"
        if rank(top) == 8 and self.called:
            on += f", {SUIT_NAMES[self.called]} called"
        after = " (after drawing)" if self.drew else ""
        return f"{names[self.turn]} to play on {on}{after}"

    def status(self) -> str:
        names = self.game.players
        held = ", ".join(f"{names[p]} {self.held(p)}" for p in range(self.n))
        text = f"Hand {self.hand_number}. Cards held: {held}; {self.stock_n} in the stock."
        totals = ", ".join(f"{names[p]} {self.totals[p]}" for p in range(self.n))
        if self.target > 0:
            text += f" Penalty totals: {totals}; game to {self.target}."
        elif any(self.totals):  # a single hand: the points it scored
            text += f" Penalty points: {totals}."
        return f"{text} {self.expected()}."

    def choices_after_move(self) -> str:
        return ""  # the playable cards said unasked would tell the table a hand

    def choices_text(self) -> str:
        if self.phase == CALL:
            return "Name a suit: hearts, spades, diamonds or clubs."
        if self.phase != PLAY:
            return ""
        top = self.top()
        assert top is not None
        if self.read:
            cards = self.playable(self.turn)
            if not cards:
                return "Nothing to play: draw." if self._may_draw(self.turn) else "Pass."
            return "Playable: " + ", ".join(card_name(c) for c in cards) + "."
        if rank(top) == 8 and self.called:
            return f"Play a {SUIT_NAMES[self.called][:-1]} or an eight, or draw."
        return (f"Play a {card_name(top).split(' of ')[0]}, a {SUIT_NAMES[suit(top)][:-1]} or an"
                " eight, or draw.")

    def describe_action(self, action: Action) -> str:
        if isinstance(action, Play):
            text = f"{self.game.players[action.player]} plays the {card_name(action.card)}"
            return text + (f" calling {SUIT_NAMES[action.suit]}" if action.suit else "")
        if isinstance(action, CallSuit):
            return f"{self.game.players[action.player]} calls {SUIT_NAMES[action.suit]}"
        return str(action)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "crazy-eights",
            "phase": self.phase,
            "deal": "read" if self.read else "hidden",
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "target": self.target,
            "turn": self.current_player() if self.current_player() >= 0 else None,
            "top": self.top(),
            "called": self.called or None,
            "discard": list(self.discard),
            "stock": self.stock_n,
            "held": [self.held(p) for p in range(self.n)],
            "hands": [list(h) for h in self.hands],
            "drew": self.drew,
            "passes": self.passes,
            "shown": [list(s) for s in self.shown],
            "totals": list(self.totals),
            "history": copy.deepcopy(self.history),
            "winners": list(self.winners_),
        }


CrazyEightsState.handlers = {
    Draw: CrazyEightsState._draw,
    Play: CrazyEightsState._play,
    DrawCard: CrazyEightsState._draw_card,
    Pass: CrazyEightsState._pass,
    CallSuit: CrazyEightsState._call_suit,
}
