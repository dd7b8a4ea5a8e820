"""The Rummy state: deal, the up card, draw (stock or discard), one meld, lay-offs, the
discard, going out, the count, the game to a target or a number of deals.

``deal=hidden`` (default): hands are face down. The companion knows every card on the table
(the discard pile, the melds) and the cards a player took from the discard pile; it counts
the cards each player holds, and has the players read their remaining cards at the end for the
count. ``deal=read``: every dealt and drawn card is read in, so every card is checked against
the hand. A stock made by turning the discard pile over is known card by card either way.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.engine import Action, Draw, Event, GameOver, IllegalAction, counted
from companion.games.card_table import (
    DRAW,
    OVER,
    PLAY,
    SHOW,
    UP,
    CardTable,
    card_name,
    normal_card,
)
from companion.games.rummy import melds as M
from companion.games.rummy.events import (
    Discarded,
    HandScored,
    LaidOff,
    Melded,
    NewHand,
    ShowCards,
    StockTurned,
    Took,
    UpCard,
    WentOut,
)

if TYPE_CHECKING:
    from companion.engine import Game  # not the Rummy class: its package imports this module


@dataclass(frozen=True)
class TakeStock(Action):
    player: int

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True)
class TakeDiscard(Action):
    player: int

    def __str__(self) -> str:
        return "take"


@dataclass(frozen=True)
class Meld(Action):
    player: int
    cards: tuple[str, ...]

    def __str__(self) -> str:
        return "meld " + " ".join(self.cards)


@dataclass(frozen=True)
class LayOff(Action):
    """A card added to meld number ``meld`` (1 for the first meld on the table)."""

    player: int
    card: str
    meld: int

    def __str__(self) -> str:
        return f"lay {self.card} {self.meld}"


@dataclass(frozen=True)
class Discard(Action):
    player: int
    card: str

    def __str__(self) -> str:
        return f"discard {self.card}"


ACTION_TYPES: dict[str, type[Action]] = {
    "TakeStock": TakeStock, "TakeDiscard": TakeDiscard, "Meld": Meld, "LayOff": LayOff,
    "Discard": Discard,
}


EACH = {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}


class RummyState(CardTable):
    """The card table (deal=hidden: the cards taken from the discard pile are known) with the
    melds, a stock turned over from the discard pile (known card by card), and a turn's draw
    then meld, lay-offs and the discard."""

    def __init__(self, game: Game) -> None:
        self.deals = int(game.options["deals"])
        self.ace_high = bool(game.options["ace_high"])
        super().__init__(game)

    @property
    def each(self) -> int:
        return EACH[self.n]

    def _start_hand(self, dealer: int) -> list[Event]:
        self._start_table(dealer)
        self.stock_known: list[str] = []  # a turned-over discard pile, top first
        self.melds: list[dict[str, Any]] = []  # {"owner": p, "cards": [...]}
        self.stage = "draw"
        self.taken: str | None = None  # the discard taken this turn
        self.melded = False
        return [NewHand(self.hand_number, dealer, self.each, self.read)]

    # --- what is known --------------------------------------------------------------------

    def stock_size(self) -> int:
        return self.stock_n + len(self.stock_known)

    def table_cards(self) -> set[str]:
        out = set(self.discard) | set(self.stock_known)
        for meld in self.melds:
            out.update(meld["cards"])
        return out

    def where(self, c: str) -> str:
        if c in self.discard:
            return "it is in the discard pile"
        if c in self.stock_known:
            return "it is in the stock"
        for i, meld in enumerate(self.melds):
            if c in meld["cards"]:
                return f"it is in meld {i + 1}"
        for p, cards in enumerate(self.hands):
            if c in cards:
                return f"{self.game.players[p]} holds it"
        return "it was seen this hand"

    # --- State API ------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        p = self.current_player()
        if p < 0:
            return []
        if self.stage == "draw":
            out: list[Action] = [TakeStock(p)]
            if self.discard:
                out.append(TakeDiscard(p))
            return out
        pool = list(self.hands[p])
        extra: list[str] = []
        if self.unknown[p]:
            extra = self.unseen()
        actions: list[Action] = []
        if not self.melded:
            for combo in M.melds_in(pool + extra, self.ace_high, limit=60):
                hidden = sum(1 for c in combo if c not in self.hands[p])
                if hidden <= self.unknown[p] and not self._stuck(p, combo):
                    actions.append(Meld(p, combo))
        for i, table_meld in enumerate(self.melds):
            for c in pool + extra:
                if M.fits(table_meld["cards"], c, self.ace_high) and not self._stuck(p, (c,)):
                    actions.append(LayOff(p, c, i + 1))
        discards = [c for c in pool if c != self.taken] + extra[:6]
        actions += [Discard(p, c) for c in discards]
        return actions

    def _stuck(self, p: int, cards: tuple[str, ...]) -> bool:
        """A meld or lay-off that would leave only the card taken from the discard pile (which
        may not be discarded this turn) is not allowed. Only while that card is still in the
        hand: once it is melded or laid off, the card left is another one."""
        if self.taken is None or self.taken in cards or self.taken not in self.hands[p]:
            return False
        return self.held(p) - len(cards) == 1

    # --- chance ---------------------------------------------------------------------------

    def _turned_up(self, c: str) -> list[Event]:
        self.discard.append(c)
        self.stock_n -= 1
        self.phase = PLAY
        return [UpCard(c)]

    def _drawn(self, c: str) -> list[Event]:
        self.hands[self.turn].append(c)
        self.stock_n -= 1
        self.phase = PLAY
        return [Took(self.turn, "")]

    # --- a turn ---------------------------------------------------------------------------

    def _check(self, p: int, stage: str) -> None:
        self._check_turn(p, "Not now")
        names = self.game.players
        if stage == "draw" and self.stage != "draw":
            raise IllegalAction(f"{names[p]} has drawn already this turn")
        if stage == "play" and self.stage != "play":
            raise IllegalAction(f"{names[p]}, first draw: from the stock or the discard pile.")

    def _take_stock(self, action: Action) -> list[Event]:
        assert isinstance(action, TakeStock)
        p = action.player
        self._check(p, "draw")
        if not self.stock_size() and not self.discard:
            raise IllegalAction("There is no card to draw")
        events: list[Event] = []
        if not self.stock_size():
            self.stock_known = list(self.discard)  # face down: the bottom card is on top
            self.discard = []
            events.append(StockTurned(len(self.stock_known)))
        self.stage = "play"
        if self.stock_n:
            if self.read:
                self.phase = DRAW
                return events
            self.stock_n -= 1
            self.unknown[p] += 1
        else:
            self.hands[p].append(self.stock_known.pop(0))
        return [*events, Took(p, "")]

    def _take_discard(self, action: Action) -> list[Event]:
        assert isinstance(action, TakeDiscard)
        p = action.player
        self._check(p, "draw")
        if not self.discard:
            raise IllegalAction("The discard pile is empty: draw from the stock")
        c = self.discard.pop()
        self.hands[p].append(c)
        self.taken = c
        self.stage = "play"
        return [Took(p, c)]

    def _from_hand(self, p: int, cards: tuple[str, ...]) -> tuple[list[str], int]:
        """Check that p can hold ``cards``: (the known ones, how many come from unknown)."""
        name = self.game.players[p]
        known: list[str] = []
        hidden = 0
        for c in cards:
            if c in self.hands[p]:
                known.append(c)
            elif c in self.seen():
                raise IllegalAction(f"{name} cannot use the {card_name(c)}: {self.where(c)}.")
            elif self.read:
                raise IllegalAction(f"{name} does not hold the {card_name(c)}")
            else:
                hidden += 1
        if hidden > self.unknown[p]:
            raise IllegalAction(f"{name} does not hold that many cards")
        return known, hidden

    def _remove(self, p: int, cards: tuple[str, ...], known: list[str], hidden: int) -> None:
        for c in known:
            self.hands[p].remove(c)
        self.unknown[p] -= hidden

    def _meld(self, action: Action) -> list[Event]:
        assert isinstance(action, Meld)
        p = action.player
        self._check(p, "play")
        cards = tuple(normal_card(c) for c in action.cards)
        if self.melded:
            raise IllegalAction("Only one meld a turn: lay off or discard")
        if not M.is_meld(cards, self.ace_high):
            raise IllegalAction(f"{' '.join(cards)} is not a meld: a group is three or four of a"
                                " rank, a sequence three or more of a suit in order")
        known, hidden = self._from_hand(p, cards)
        if self._stuck(p, cards):
            raise IllegalAction(_STUCK)
        self._remove(p, cards, known, hidden)
        arranged = M.arranged(cards, self.ace_high)
        self.melds.append({"owner": p, "cards": arranged})
        self.melded = True
        events: list[Event] = [Melded(p, tuple(arranged), len(self.melds),
                                      M.kind(cards, self.ace_high))]
        return events + self._maybe_out(p)

    def _lay_off(self, action: Action) -> list[Event]:
        assert isinstance(action, LayOff)
        p = action.player
        self._check(p, "play")
        c = normal_card(action.card)
        if not 1 <= action.meld <= len(self.melds):
            raise IllegalAction(f"There is no meld {action.meld}")
        meld = self.melds[action.meld - 1]
        if not M.fits(meld["cards"], c, self.ace_high):
            raise IllegalAction(f"The {card_name(c)} does not fit meld {action.meld},"
                                f" {' '.join(meld['cards'])}")
        known, hidden = self._from_hand(p, (c,))
        if self._stuck(p, (c,)):
            raise IllegalAction(_STUCK)
        self._remove(p, (c,), known, hidden)
        meld["cards"] = M.arranged([*meld["cards"], c], self.ace_high)
        return [LaidOff(p, c, action.meld), *self._maybe_out(p)]

    def _discard(self, action: Action) -> list[Event]:
        assert isinstance(action, Discard)
        p = action.player
        self._check(p, "play")
        c = normal_card(action.card)
        if c == self.taken:
            raise IllegalAction(f"The {card_name(c)} was taken from the discard pile this turn:"
                                " discard a different card.")
        known, hidden = self._from_hand(p, (c,))
        self._remove(p, (c,), known, hidden)
        self.discard.append(c)
        events: list[Event] = [Discarded(p, c, self.held(p))]
        if self.held(p) == 0:
            return events + self._maybe_out(p)
        self.turn = self.left(p)
        self.stage = "draw"
        self.taken = None
        self.melded = False
        return events

    def _maybe_out(self, p: int) -> list[Event]:
        if self.held(p):
            return []
        self.out = p
        events: list[Event] = [WentOut(p)]
        if self.show_queue():
            self.phase = SHOW
            return events + [ShowCards(q, self.unknown[q]) for q in self.show_queue()]
        return events + self._score_hand()

    # --- the count ------------------------------------------------------------------------

    def _score_hand(self) -> list[Event]:
        assert self.out is not None
        w = self.out
        left = tuple(sum(M.value(c) for c in [*self.hands[p], *self.shown[p]])
                     for p in range(self.n))
        gained = sum(left)
        self.totals[w] += gained
        self.history.append({"hand": self.hand_number, "winner": w, "left": list(left),
                             "gained": gained})
        events: list[Event] = [HandScored(self.hand_number, w, left, gained, tuple(self.totals))]
        done = (self.deals and self.hand_number >= self.deals) or (
            self.target and max(self.totals) >= self.target)
        if done:
            high = max(self.totals)
            self.winners_ = tuple(p for p in range(self.n) if self.totals[p] == high)
            self.phase = OVER
            return [*events,
                    GameOver(self.winners_, f"{counted(high, 'point')}, the highest total.")]
        return events + self._start_hand(self.left(self.dealer))

    # --- words ----------------------------------------------------------------------------

    def expected_in_hand(self) -> str:
        names = self.game.players
        if self.phase == UP:
            return "Turn up the next card and read it"
        if self.phase == DRAW:
            return f"Read the card {names[self.turn]} draws from the stock"
        if self.stage == "draw":
            top = f"the {card_name(self.discard[-1])}" if self.discard else "nothing"
            return f"{names[self.turn]} to draw: the stock, or take {top}"
        return f"{names[self.turn]} to meld, lay off, or discard"

    def status(self) -> str:
        names = self.game.players
        held = ", ".join(f"{names[p]} {self.held(p)}" for p in range(self.n))
        totals = ", ".join(f"{names[p]} {self.totals[p]}" for p in range(self.n))
        goal = []
        if self.target:
            goal.append(f"game to {self.target}")
        if self.deals:
            goal.append(f"{self.deals} deals")
        return (f"Hand {self.hand_number}. Scores: {totals}; {' or '.join(goal)}. Cards held:"
                f" {held}; {self.stock_size()} in the stock. {self.expected()}.")

    def melds_text(self) -> str:
        if not self.melds:
            return "No melds on the table."
        names = self.game.players
        parts = [f"{i + 1}: {' '.join(m['cards'])} ({names[m['owner']]})"
                 for i, m in enumerate(self.melds)]
        return "Melds: " + "; ".join(parts) + "."

    def choices_after_move(self) -> str:
        return ""  # the cards a player could use, said unasked, would tell the table a hand

    def choices_text(self) -> str:
        if self.phase != PLAY:
            return ""
        if self.stage == "draw":
            return "Draw from the stock, or take the top discard."
        if not self.read:
            return "Meld one group or sequence, lay off on the melds, then discard."
        actions = self.legal_actions()
        melds = [a for a in actions if isinstance(a, Meld)]
        lays = [a for a in actions if isinstance(a, LayOff)]
        parts = []
        if melds:
            parts.append("meld " + " or ".join(" ".join(m.cards) for m in melds[:6]))
        if lays:
            parts.append("lay off " + ", ".join(f"{a.card} on {a.meld}" for a in lays[:8]))
        parts.append("discard" + (f" (not the {card_name(self.taken)})" if self.taken else ""))
        return "You may " + "; ".join(parts) + "."

    def describe_action(self, action: Action) -> str:
        return str(action)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "rummy",
            "phase": self.phase,
            "deal": "read" if self.read else "hidden",
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "target": self.target,
            "deals": self.deals,
            "turn": self.current_player() if self.current_player() >= 0 else None,
            "stage": self.stage,
            "taken": self.taken,
            "melded": self.melded,
            "discard": list(self.discard),
            "stock": self.stock_size(),
            "stock_known": list(self.stock_known),
            "melds": copy.deepcopy(self.melds),
            "hands": [list(h) for h in self.hands],
            "unknown": list(self.unknown),
            "held": [self.held(p) for p in range(self.n)],
            "shown": [list(s) for s in self.shown],
            "totals": list(self.totals),
            "history": copy.deepcopy(self.history),
            "winners": list(self.winners_),
        }


_STUCK = ("That would leave only the card taken from the discard pile, which may not be"
          " discarded this turn")

RummyState.handlers = {
    Draw: RummyState._draw,
    TakeStock: RummyState._take_stock,
    TakeDiscard: RummyState._take_discard,
    Meld: RummyState._meld,
    LayOff: RummyState._lay_off,
    Discard: RummyState._discard,
}
