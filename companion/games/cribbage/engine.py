"""The cribbage game state: deal, discards, starter, the play, the show, game end.

How the companion learns cards (see docs/games/cribbage.md):

- ``deal=hidden`` (default): cards are dealt face down and the companion does not see them.
  It learns a card when it is played, and the crib when the dealer shows it. A go is accepted
  when it is possible at all (enough unseen cards too big for the count); if a card played
  later shows the go was not true, that is pointed out. Each hand shown at the count must be
  the four cards that player played.
- ``deal=read``: every dealt card is read in, card by card in deal order (a chance outcome per
  card, e.g. from a reader at each seat), so the companion knows every hand: discards are
  chosen from it, a player who cannot play says go automatically, and nothing is taken on
  trust.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any

from companion.cards import FULL_DECK, Card, CardError
from companion.engine import (
    CHANCE,
    TERMINAL,
    Action,
    ChanceRequest,
    Draw,
    Event,
    GameOver,
    IllegalAction,
    State,
)
from companion.games.cribbage import scoring
from companion.games.cribbage.events import (
    CardPlayed,
    CardShown,
    ClaimChecked,
    ClaimPegged,
    CountReset,
    DealRead,
    Discarded,
    FalseGo,
    GameWon,
    HandCounted,
    MugginsCalled,
    NewHand,
    PeggingTotals,
    SaidGo,
    Scored,
    StarterTurned,
    card_name,
    cards_named,
    side_name,
)
from companion.games.cribbage.scoring import Count, value

if TYPE_CHECKING:
    from companion.engine import Game  # not the Cribbage class: its package imports this module

DECK = tuple(str(c) for c in FULL_DECK)
NO_CLAIM = -1


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Discard(Action):
    """deal=read: the cards a player puts in the crib."""

    player: int
    cards: tuple[str, ...]

    def __str__(self) -> str:
        return "discard " + " ".join(self.cards)


@dataclass(frozen=True)
class Play(Action):
    player: int
    card: str

    def __str__(self) -> str:
        return f"play {self.card}"


@dataclass(frozen=True)
class Go(Action):
    player: int

    def __str__(self) -> str:
        return "go"


@dataclass(frozen=True)
class Show(Action):
    """A hand shown at the count. ``cards`` empty: the cards the player played; ``claim`` is
    the count the player says (muggins), NO_CLAIM for none."""

    player: int
    cards: tuple[str, ...] = ()
    claim: int = NO_CLAIM

    def __str__(self) -> str:
        return " ".join(["show", *self.cards, *([str(self.claim)] if self.claim >= 0 else [])])


@dataclass(frozen=True)
class ShowCrib(Action):
    """The dealer shows the crib (the cards are needed with deal=hidden)."""

    player: int
    cards: tuple[str, ...] = ()
    claim: int = NO_CLAIM

    def __str__(self) -> str:
        return " ".join(["crib", *self.cards, *([str(self.claim)] if self.claim >= 0 else [])])


@dataclass(frozen=True)
class Reveal(Action):
    """One card of the hand (or crib) being shown, as a card reader reads them one by one;
    the fourth one counts the hand (with muggins, the count waits for the claim)."""

    player: int
    card: str

    def __str__(self) -> str:
        return f"card {self.card}"


@dataclass(frozen=True)
class Muggins(Action):
    """Muggins by call (option muggins_call): ``player`` calls muggins on the count just
    claimed by an opponent, taking the points it missed."""

    player: int

    def __str__(self) -> str:
        return "muggins"


ACTION_TYPES: dict[str, type[Action]] = {
    "Discard": Discard, "Play": Play, "Go": Go, "Show": Show, "ShowCrib": ShowCrib,
    "Reveal": Reveal, "Muggins": Muggins,
}


def normal_card(text: str) -> str:
    """"td" -> "10D"; an unknown card is refused with the reason."""
    if text in _VALUES:
        return text
    try:
        return str(Card.parse(text))
    except CardError as err:
        raise IllegalAction(str(err).replace("'", "")) from None


def card_value(card: str) -> int:
    return _VALUES[card]


_VALUES = {str(c): value(c) for c in FULL_DECK}
_CARDS = {str(c): c for c in FULL_DECK}


# --------------------------------------------------------------------------- state

WIN_POINTS, SKUNK_POINTS = 2, 3  # game points of a match (ACC)
DEAL, DISCARD, STARTER, PLAY, SHOW, CRIB, OVER = (
    "deal", "discard", "starter", "play", "show", "crib", "over",
)


class CribbageState(State):
    def __init__(self, game: Game) -> None:
        self.game = game
        n = len(game.players)
        self.n = n
        self.read = game.options["deal"] == "read"
        self.target = int(game.options["to"])
        self.sides: tuple[tuple[int, ...], ...] = (
            ((0, 2), (1, 3)) if n == 4 else tuple((p,) for p in range(n))
        )
        self.side_scores = [0] * len(self.sides)
        self.dealer = int(game.options["dealer"])
        if not 0 <= self.dealer < n:
            raise ValueError(f"option dealer must be 0 to {n - 1}, not {self.dealer}")
        self.hand_number = 0
        self.winner_side: int | None = None
        self.ended_now = False  # a game ended during the action being applied
        if int(game.options["match"]) < 1:
            raise ValueError("option match must be 1 or more (best of N games)")
        self.match_points = [0] * len(self.sides)  # game points won (option match)
        self.game_number = 1
        self.games: list[dict[str, Any]] = []  # each game's scores and what it was worth
        self.phase = OVER
        # muggins by call: the last claim, open to a call until the next action
        # (player, claim, worth, the count kept back)
        self.muggins_open: tuple[int, int, int, HandCounted] | None = None
        self._start_hand(self.dealer)

    # --- layout -------------------------------------------------------------------------

    @property
    def dealt(self) -> int:
        return 6 if self.n == 2 else 5

    @property
    def discards_each(self) -> int:
        return 2 if self.n == 2 else 1

    def side_of(self, player: int) -> int:
        return player % 2 if self.n == 4 else player

    def left_of(self, player: int) -> int:
        return (player + 1) % self.n

    def deal_order(self) -> list[int | None]:
        """Recipients in deal order: one at a time from the dealer's left; 3 players: one to
        the crib (None) last."""
        order: list[int | None] = [
            (self.dealer + 1 + i) % self.n for _ in range(self.dealt) for i in range(self.n)
        ]
        if self.n == 3:
            order.append(None)
        return order

    def _start_hand(self, dealer: int) -> None:
        self.dealer = dealer
        self.hand_number += 1
        n = self.n
        self.hands: list[list[str]] = [[] for _ in range(n)]  # known, unplayed
        self.unknown = [0 if self.read else 4] * n  # unplayed cards not known
        self.played: list[list[str]] = [[] for _ in range(n)]
        self.crib: list[str] = []  # known crib cards
        self.starter: str | None = None
        self.dealt_count = 0
        self.discarded = [False] * n
        self.count = 0
        self.series: list[str] = []
        self.said_go = [False] * n
        self.go_counts: list[list[int]] = [[] for _ in range(n)]  # counts at which p said go
        self.last_player: int | None = None
        self.turn = self.left_of(dealer)
        self.pegged = [0] * len(self.sides)
        self.shown: list[dict[str, Any]] = []
        self.show_index = 0
        self.revealed: list[str] = []  # cards of the hand being shown, read one by one
        self.phase = DEAL if self.read else STARTER

    # --- what is known ------------------------------------------------------------------

    def seen(self) -> set[str]:
        """Every card the companion has seen this hand."""
        out = {c for hand in self.hands for c in hand}
        out.update(c for cards in self.played for c in cards)
        out.update(self.crib)
        if self.starter:
            out.add(self.starter)
        return out

    def unseen(self) -> list[str]:
        seen = self.seen()
        return [c for c in DECK if c not in seen]

    def remaining(self, player: int) -> int:
        return len(self.hands[player]) + self.unknown[player]

    def where_seen(self, card: str) -> str:
        if card == self.starter:
            return "it is the starter"
        for p, cards in enumerate(self.played):
            if card in cards:
                return f"{self.game.players[p]} played it this hand"
        if card in self.crib:
            return "it is in the crib"
        return "it was dealt to another player" if self.read else "it was seen this hand"

    # --- State API ----------------------------------------------------------------------

    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.phase in (DEAL, STARTER):
            return CHANCE
        if self.phase == DISCARD:
            return self.turn
        if self.phase == PLAY:
            return self.turn
        if self.phase == SHOW:
            return self.show_order()[self.show_index]
        return self.dealer  # CRIB

    def show_order(self) -> list[int]:
        return [(self.dealer + 1 + i) % self.n for i in range(self.n)]

    def chance(self) -> ChanceRequest | None:
        if self.phase == DEAL:
            who = self.deal_order()[self.dealt_count]
            return ChanceRequest(kind="card", deck="cribbage", cards=tuple(self.unseen()),
                                 who=self.dealer if who is None else who)
        if self.phase == STARTER:
            return ChanceRequest(kind="card", deck="cribbage", cards=tuple(self.unseen()),
                                 who=self.dealer)
        return None

    def legal_actions(self) -> list[Action]:
        p = self.current_player()
        if p < 0:
            return []
        if self.phase == DISCARD:
            return [Discard(p, combo) for combo in combinations(self.hands[p], self.discards_each)]
        if self.phase == PLAY:
            candidates = self.hands[p] if self.read else (
                self.unseen() if self.unknown[p] else []
            )
            out: list[Action] = [
                Play(p, c) for c in candidates if self.count + card_value(c) <= 31
            ]
            if not self.read and self._go_possible(p):
                out.append(Go(p))
            return out
        claims = [NO_CLAIM]
        if self.game.options["muggins"] or self.muggins_call:
            worth = self._worth(p, self.phase == CRIB, ())
            claims = sorted({worth, max(worth - 2, 0), worth + 1})
        if self.phase == SHOW:
            return [Show(p, (), c) for c in claims]
        # CRIB: with deal=hidden the crib's cards must be said: a few examples.
        if self.read:
            return [ShowCrib(p, (), c) for c in claims]
        unseen = self.unseen()
        examples = [tuple(unseen[i : i + 4]) for i in range(0, min(len(unseen) - 3, 12), 4)]
        return [ShowCrib(p, cards, c) for cards in examples for c in claims]

    def apply(self, action: Action) -> list[Event]:
        self.ended_now = False
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction(f"{action} means nothing in cribbage")
        pending = self.muggins_open
        if pending is None or isinstance(action, Muggins):
            result: list[Event] = handler(self, action)
            return result
        # Any other input closes the chance to call muggins on the last claim: its count is
        # said, and points missed and not called are lost. Validation comes first: a refused
        # input leaves the chance open.
        self.muggins_open = None
        try:
            events: list[Event] = handler(self, action)
        except IllegalAction:
            self.muggins_open = pending
            raise
        return self._muggins_closed(pending) + events

    @property
    def muggins_call(self) -> bool:
        return bool(self.game.options["muggins_call"])

    def may_act(self, player: int) -> bool:
        """An opponent may call muggins out of turn while a claim is open to it."""
        if self.muggins_open is not None and self.side_of(player) != self.side_of(
                self.muggins_open[0]):
            return True
        return super().may_act(player)

    def _muggins_closed(self, pending: tuple[int, int, int, HandCounted]) -> list[Event]:
        player, claim, worth, counted = pending
        return [counted, ClaimChecked(player, claim, worth, None)]

    def _muggins(self, action: Action) -> list[Event]:
        assert isinstance(action, Muggins)
        names = self.game.players
        if not self.muggins_call:
            raise IllegalAction("Muggins is called only with option muggins_call=yes"
                                + (": here missed points are taken at once"
                                   if self.game.options["muggins"] else ""))
        if self.muggins_open is None:
            raise IllegalAction("There is no count to call muggins on now")
        player, claim, worth, counted = self.muggins_open
        caller = action.player
        if not 0 <= caller < self.n:
            raise IllegalAction(f"There is no player {caller}")
        if self.side_of(caller) == self.side_of(player):
            raise IllegalAction(f"Only an opponent of {names[player]} may call muggins")
        if claim >= worth:
            raise IllegalAction(f"No muggins: {names[player]}'s count of {claim} misses"
                                f" nothing")
        self.muggins_open = None
        missed = worth - claim
        events: list[Event] = [counted, MugginsCalled(caller, player, missed)]
        events += self._peg(caller, scoring.single("muggins", [], missed, "muggins"),
                            "muggins")
        return events

    def clone(self) -> CribbageState:
        return copy.deepcopy(self)

    def winners(self) -> tuple[int, ...]:
        return () if self.winner_side is None else self.sides[self.winner_side]

    def scores(self) -> list[float]:
        """Each player's score (partners share their side's)."""
        return [float(self.side_scores[self.side_of(p)]) for p in range(self.n)]

    # --- chance: the deal and the starter -----------------------------------------------

    def _draw(self, action: Action) -> list[Event]:
        assert isinstance(action, Draw)
        if self.phase not in (DEAL, STARTER):
            raise IllegalAction(f"No card is expected now. {self.expected()}.")
        card = normal_card(action.card)
        if card in self.seen():
            raise IllegalAction(f"The {card_name(card)} cannot come now: {self.where_seen(card)}")
        if self.phase == DEAL:
            who = self.deal_order()[self.dealt_count]
            if who is None:
                self.crib.append(card)
            else:
                self.hands[who].append(card)
            self.dealt_count += 1
            if self.dealt_count < len(self.deal_order()):
                return []
            self.phase = DISCARD
            self.turn = self.left_of(self.dealer)
            return [DealRead(self.turn, self.discards_each)]
        self.starter = card
        self.phase = PLAY
        self.turn = self.left_of(self.dealer)
        events: list[Event] = [StarterTurned(card)]
        if Card.parse(card).rank == 11:
            heels = scoring.single(scoring.HEELS, [Card.parse(card)], 2, "his heels")
            events += self._peg(self.dealer, heels, "heels")
        return events

    def _discard(self, action: Action) -> list[Event]:
        assert isinstance(action, Discard)
        if self.phase != DISCARD:
            raise IllegalAction(f"No discard now. {self.expected()}.")
        self._check_turn(action.player)
        cards = [normal_card(c) for c in action.cards]
        need = self.discards_each
        if len(cards) != need or len(set(cards)) != need:
            raise IllegalAction(f"Discard {number(need)} different card{'s' * (need > 1)}")
        name = self.game.players[action.player]
        for c in cards:
            if c not in self.hands[action.player]:
                raise IllegalAction(f"{name} does not hold the {card_name(c)}")
        for c in cards:
            self.hands[action.player].remove(c)
            self.crib.append(c)
        self.discarded[action.player] = True
        events: list[Event] = [Discarded(action.player, need)]
        if all(self.discarded):
            self.phase = STARTER
        else:
            self.turn = self.left_of(action.player)
        return events

    # --- the play -----------------------------------------------------------------------

    def _check_turn(self, player: int) -> None:
        if player != self.current_player():
            actor = self.current_player()
            whose = self.game.players[actor] if actor >= 0 else "nobody"
            raise IllegalAction(f"It is {whose}'s turn, not {self.game.players[player]}'s")

    def _play(self, action: Action) -> list[Event]:
        assert isinstance(action, Play)
        if self.phase != PLAY:
            raise IllegalAction(f"No card is played now. {self.expected()}.")
        p = action.player
        self._check_turn(p)
        card = normal_card(action.card)
        name = self.game.players[p]
        if self.read:
            if card not in self.hands[p]:
                if card in self.seen() and card not in self.hands[p]:
                    raise IllegalAction(
                        f"{name} cannot play the {card_name(card)}: {self.where_seen(card)}")
                raise IllegalAction(f"{name} does not hold the {card_name(card)}")
        elif card in self.seen():
            raise IllegalAction(f"The {card_name(card)} cannot be played: {self.where_seen(card)}")
        if self.count + card_value(card) > 31:
            raise IllegalAction(
                f"The {card_name(card)} would take the count past 31, to"
                f" {self.count + card_value(card)}. Play a smaller card or say go")
        events: list[Event] = []
        false_go = next((t for t in self.go_counts[p] if t + card_value(card) <= 31), None)
        if false_go is not None:  # said once per go
            events.append(FalseGo(p, card, false_go))
            self.go_counts[p].remove(false_go)
        if self.read:
            self.hands[p].remove(card)
        else:
            self.unknown[p] -= 1
        self.played[p].append(card)
        self.series.append(card)
        self.count += card_value(card)
        self.last_player = p
        count = scoring.peg([_CARDS[c] for c in self.series])
        finished = all(self.remaining(q) == 0 for q in range(self.n))
        if finished and self.count != 31:
            count = count + scoring.single(scoring.LAST_CARD, [Card.parse(card)], 1, "last card")
        side = self.side_of(p)
        self.side_scores[side] += count.total
        self.pegged[side] += count.total
        score = self.side_scores[side]
        events.append(CardPlayed(p, self.sides[side], card, self.count, count, score))
        if self._check_win(events):
            return events
        if self.count == 31:
            self._reset()
            if not finished:
                events += self._pass_turn(p, reset=True)
                return events
        events += self._pass_turn(p)
        return events

    def _go_possible(self, p: int) -> bool:
        """deal=hidden: a go is believable only if enough unseen cards are too big."""
        if self.count == 0 or self.remaining(p) == 0:
            return False
        too_big = sum(1 for c in self.unseen() if self.count + card_value(c) > 31)
        return too_big >= self.unknown[p]

    def _can_play(self, p: int) -> bool:
        return any(self.count + card_value(c) <= 31 for c in self.hands[p])

    def _go(self, action: Action) -> list[Event]:
        assert isinstance(action, Go)
        if self.phase != PLAY:
            raise IllegalAction(f"There is no go now. {self.expected()}.")
        p = action.player
        self._check_turn(p)
        if self.read and self._can_play(p):
            raise IllegalAction(f"{self.game.players[p]} can play a card without passing 31")
        if not self.read and not self._go_possible(p):
            room = 31 - self.count
            if room >= 10:
                raise IllegalAction(f"At {self.count} every card fits: play a card")
            raise IllegalAction(
                f"A go at {self.count} cannot be true: too few unseen cards are above {room}"
                f" for the {self.unknown[p]} you hold")
        self.said_go[p] = True
        self.go_counts[p].append(self.count)
        return [SaidGo(p, self.count), *self._pass_turn(p)]

    def _reset(self) -> None:
        self.count = 0
        self.series = []
        self.said_go = [False] * self.n

    def _pass_turn(self, after: int, reset: bool = False) -> list[Event]:
        """Give the turn to the next player who may still play; end the series with the go
        point when nobody can; end the play when every card is played."""
        events: list[Event] = []
        while True:
            if all(self.remaining(q) == 0 for q in range(self.n)):
                return events + self._end_play()
            nxt = self._next_in_series(after)
            if nxt is None:
                assert self.last_player is not None
                go = scoring.single(scoring.GO, [], 1, "the go")
                events += self._peg(self.last_player, go, "go")
                if self.ended_now:
                    return events
                self._reset()
                after, reset = self.last_player, True
                continue
            self.turn = nxt
            if reset:
                events.append(CountReset(nxt))
                reset = False
            if self.read and not self._can_play(nxt):
                self.said_go[nxt] = True
                self.go_counts[nxt].append(self.count)
                events.append(SaidGo(nxt, self.count))
                after = nxt
                continue
            return events

    def _next_in_series(self, after: int) -> int | None:
        for i in range(1, self.n + 1):
            q = (after + i) % self.n
            if self.remaining(q) and not self.said_go[q]:
                return q
        return None

    def _end_play(self) -> list[Event]:
        self._reset()
        self.phase = SHOW
        self.show_index = 0
        return [PeggingTotals(self.sides, tuple(self.pegged))]

    # --- the show -----------------------------------------------------------------------

    def _worth(self, player: int, crib: bool, cards: tuple[str, ...]) -> int:
        hand = list(cards) or (self.crib if crib else self.played[player])
        return self._count(hand, crib).total

    def _count(self, hand: list[str], crib: bool) -> Count:
        assert self.starter is not None
        return scoring.show(
            [Card.parse(c) for c in hand], Card.parse(self.starter), crib=crib,
            crib_four_flush=bool(self.game.options["crib_four_flush"]),
        )

    def _shown_cards(self, player: int, cards: tuple[str, ...], crib: bool) -> list[str]:
        name = self.game.players[player]
        given = [normal_card(c) for c in cards]
        if len(set(given)) != len(given):
            raise IllegalAction("A card is named twice")
        if given and len(given) != 4:
            raise IllegalAction(f"Show four cards, not {len(given)}")
        if not crib:
            mine = self.played[player]
            if given and set(given) != set(mine):
                wrong = [c for c in given if c not in mine]
                raise IllegalAction(
                    f"That is not the hand {name} played: {name} played {cards_named(mine)};"
                    f" {cards_named(wrong)} {'was' if len(wrong) == 1 else 'were'} not among"
                    " them")
            return list(mine)
        if self.read or len(self.crib) == 4:
            if given and set(given) != set(self.crib):
                wrong = [c for c in given if c not in self.crib]
                raise IllegalAction(f"That is not the crib: {cards_named(wrong)}"
                                    f" {'was' if len(wrong) == 1 else 'were'} not in it")
            return list(self.crib)
        if not given:
            raise IllegalAction("Name the four cards of the crib, like: crib 5H 5D JC QS")
        seen = self.seen()
        for c in given:
            if c in seen and c not in self.crib:
                raise IllegalAction(
                    f"The {card_name(c)} cannot be in the crib: {self.where_seen(c)}")
        missing = [c for c in self.crib if c not in given]
        if missing:
            raise IllegalAction(f"The crib holds the {card_name(missing[0])}")
        return given

    def _show(self, action: Action) -> list[Event]:
        assert isinstance(action, Show | ShowCrib)
        crib = isinstance(action, ShowCrib)
        if self.phase != (CRIB if crib else SHOW):
            if self.phase == OVER:
                raise IllegalAction(f"The game is over: the hands are not counted once a side"
                                    f" has won. {self.status()}")
            if self.phase in (SHOW, CRIB):
                raise IllegalAction(f"Not yet. {self.expected()}.")
            raise IllegalAction(f"The count comes after the play. {self.expected()}.")
        p = action.player
        self._check_turn(p)
        muggins = bool(self.game.options["muggins"]) or self.muggins_call
        if muggins and action.claim < 0:
            raise IllegalAction(
                f"Muggins is on: say your count, like: {'crib' if crib else 'show'} 8")
        given = action.cards or (tuple(self.revealed) if len(self.revealed) == 4 else ())
        hand = self._shown_cards(p, given, crib)
        count = self._count(hand, crib)
        self.revealed = []
        if crib:
            self.crib = hand
        credited, taker = count.total, None
        if action.claim >= 0 and muggins and action.claim < count.total:
            credited = action.claim
            taker = None if self.muggins_call else self._muggins_taker(p)
        side = self.side_of(p)
        self.side_scores[side] += credited
        assert self.starter is not None
        counted = HandCounted(p, self.sides[side], crib, tuple(hand), self.starter, count,
                              self.side_scores[side])
        events: list[Event]
        if (self.muggins_call and action.claim <= count.total
                and self.side_scores[side] < self.target):
            # the count is kept back, so the claim alone does not tell the table it was short
            events = [ClaimPegged(p, self.sides[side], crib, credited, self.side_scores[side])]
            self.muggins_open = (p, action.claim, count.total, counted)
        else:
            events = [counted]
            if action.claim >= 0:
                events.append(ClaimChecked(p, action.claim, count.total, taker))
        self.shown.append({"player": p, "crib": crib, "cards": hand,
                           "total": count.total, "credited": credited})
        if self._check_win(events):
            return events
        if taker is not None:
            missed = scoring.single("muggins", [], count.total - credited,
                                    "muggins")
            events += self._peg(taker, missed, "muggins")
            if self.ended_now:
                return events
        if crib:
            self._start_hand(self.left_of(self.dealer))
            events.append(NewHand(self.dealer, self.hand_number, self.read))
        elif self.show_index == self.n - 1:
            self.phase = CRIB
        else:
            self.show_index += 1
        return events

    def _reveal(self, action: Action) -> list[Event]:
        assert isinstance(action, Reveal)
        if self.phase not in (SHOW, CRIB):
            raise IllegalAction(f"No hand is being shown now. {self.expected()}.")
        p = action.player
        self._check_turn(p)
        card = normal_card(action.card)
        name = self.game.players[p]
        if card in self.revealed:
            raise IllegalAction(f"The {card_name(card)} has been shown already")
        if len(self.revealed) == 4:
            raise IllegalAction("Four cards are shown: say the count, like: show 8")
        if self.phase == SHOW and card not in self.played[p]:
            raise IllegalAction(
                f"{name} did not play the {card_name(card)}: {name} played"
                f" {cards_named(self.played[p])}")
        if self.phase == CRIB:
            if (self.read or len(self.crib) == 4) and card not in self.crib:
                raise IllegalAction(f"The {card_name(card)} did not go in the crib")
            if card in self.seen() and card not in self.crib:
                raise IllegalAction(
                    f"The {card_name(card)} cannot be in the crib: {self.where_seen(card)}")
        cards = (*self.revealed, card)
        if len(cards) == 4 and not (self.game.options["muggins"] or self.muggins_call):
            shower = ShowCrib if self.phase == CRIB else Show
            return self._show(shower(p, cards))
        self.revealed.append(card)
        return [CardShown(p, card, len(self.revealed))]

    def _muggins_taker(self, player: int) -> int:
        """The next player to the left on the other side (2 and 4 players: an opponent)."""
        for i in range(1, self.n):
            q = (player + i) % self.n
            if self.side_of(q) != self.side_of(player):
                return q
        return player

    # --- scores -------------------------------------------------------------------------

    def _peg(self, player: int, count: Count, reason: str) -> list[Event]:
        side = self.side_of(player)
        self.side_scores[side] += count.total
        if reason == "go":
            self.pegged[side] += count.total
        score = self.side_scores[side]
        events: list[Event] = [Scored(player, self.sides[side], reason, count, score)]
        self._check_win(events)
        return events

    def _check_win(self, events: list[Event]) -> bool:
        """The game ends the moment a side reaches the target, even in the middle of play; in
        a match (option match) the next game starts at once, the loser dealing, until a side
        has the game points to win."""
        for side, score in enumerate(self.side_scores):
            if score >= self.target:
                self.ended_now = True
                names = self.game.players
                detail = ", ".join(
                    f"{side_name(names, s)} {v}" for s, v in zip(self.sides, self.side_scores,
                                                                 strict=True)) + "."
                worth, kind = self._game_worth(side)
                losers = [s for s in range(len(self.sides)) if s != side]
                low = min(losers, key=lambda s: self.side_scores[s])
                if kind:
                    line = self._skunk_lines()[0 if kind != "double skunk" else 1]
                    detail += (f" A {kind}: {side_name(names, self.sides[low])} did not reach"
                               f" {line}.")
                self.match_points[side] += worth
                self.games.append({"game": self.game_number, "scores": list(self.side_scores),
                                   "winner": side, "kind": kind or "win", "points": worth})
                if self.match_points[side] < self.match_target():
                    events.append(GameWon(self.sides[side], self.game_number, kind, worth,
                                          self._match_words()))
                    self.game_number += 1
                    self.side_scores = [0] * len(self.sides)
                    self.muggins_open = None
                    self._start_hand(self.sides[low][0])  # the loser deals the next game
                    events.append(NewHand(self.dealer, self.hand_number, self.read))
                    return True
                self.winner_side = side
                self.phase = OVER
                if int(self.game.options["match"]) > 1:
                    detail += f" {self._match_words()}"
                events.append(GameOver(self.sides[side], detail))
                return True
        return False

    def match_target(self) -> int:
        """Game points that win: best of N is won with the points of more than half of N
        plain wins (two game points each, as the club standings count them)."""
        return (int(self.game.options["match"]) // 2 + 1) * WIN_POINTS

    def _skunk_lines(self) -> tuple[int, int]:
        """The scores a loser must reach to escape a skunk and a double skunk (0: none)."""
        rule = self.game.options["skunk"]
        if rule == "none":
            return 0, 0
        if rule == "lurch":  # Hoyle: short of half way
            return self.target // 2 + 1, 0
        return (91, 61) if self.target == 121 else (31, 0)

    def _game_worth(self, side: int) -> tuple[int, str]:
        """Game points for the winner of a game, and "", "skunk", "double skunk" or
        "lurch", measured against the best of the losers: ACC, a win 2 and a skunk 3 (a
        double skunk too, as companion/club/standings.py counts them); a lurch is two games."""
        best = max(v for s, v in enumerate(self.side_scores) if s != side)
        skunk, double = self._skunk_lines()
        if double and best < double:
            return SKUNK_POINTS, "double skunk"
        if skunk and best < skunk:
            if self.game.options["skunk"] == "lurch":
                return 2 * WIN_POINTS, "lurch"
            return SKUNK_POINTS, "skunk"
        return WIN_POINTS, ""

    def _match_words(self) -> str:
        names = self.game.players
        points = ", ".join(f"{side_name(names, s)} {v}"
                           for s, v in zip(self.sides, self.match_points, strict=True))
        return (f"Match, best of {self.game.options['match']}: {points} game points;"
                f" {self.match_target()} win.")

    # --- words and views ----------------------------------------------------------------

    def expected(self) -> str:
        names = self.game.players
        if self.phase == OVER:
            return "The game is over"
        if self.phase == DEAL:
            who = self.deal_order()[self.dealt_count]
            whom = "the crib" if who is None else names[who]
            return f"Read the next dealt card, for {whom} ({self.dealt_count + 1} of" \
                   f" {len(self.deal_order())})"
        if self.phase == DISCARD:
            return f"{names[self.turn]} to discard {number(self.discards_each)}"
        if self.phase == STARTER:
            return f"{names[self.dealer]} to turn the starter"
        if self.phase == PLAY:
            return f"{names[self.turn]} to play, the count is {self.count}"
        if self.phase == SHOW:
            return f"{names[self.current_player()]} to show their hand"
        return f"{names[self.dealer]} to show the crib"

    def status(self) -> str:
        names = self.game.players
        parts = [
            f"{side_name(names, s)} {v}"
            for s, v in zip(self.sides, self.side_scores, strict=True)
        ]
        text = f"{', '.join(parts)}; playing to {self.target}."
        if int(self.game.options["match"]) > 1:
            text += f" Game {self.game_number}. {self._match_words()}"
        if self.phase != OVER:
            after = names[(self.dealer + 1) % self.n]
            text += f" Hand {self.hand_number}: {names[self.dealer]} deals; {after} deals next."
        return f"{text} {self.expected()}."

    def choices_text(self) -> str:
        # Listing the legal cards aloud would tell the table what a player holds.
        return ""

    def describe_action(self, action: Action) -> str:
        return str(action)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "cribbage",
            "phase": self.phase,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "target": self.target,
            "deal": "read" if self.read else "hidden",
            "sides": [list(s) for s in self.sides],
            "scores": list(self.side_scores),
            "game_number": self.game_number,
            "match_points": list(self.match_points),
            # copies one level deep, as deepcopy would (the club's publisher calls this at
            # every entry: deepcopy was most of it)
            "games": [{**g, "scores": list(g["scores"])} for g in self.games],
            "turn": self.current_player() if self.current_player() >= 0 else None,
            "count": self.count,
            "series": list(self.series),
            "starter": self.starter,
            "hands": [list(h) for h in self.hands],
            "unknown": list(self.unknown),
            "played": [list(p) for p in self.played],
            "crib": list(self.crib),
            "said_go": list(self.said_go),
            "pegged": list(self.pegged),
            "shown": [{**s, "cards": list(s["cards"])} for s in self.shown],
            "revealed": list(self.revealed),
            "muggins_open": None if self.muggins_open is None else {
                "player": self.muggins_open[0], "claim": self.muggins_open[1]},
            "winners": list(self.winners()),
        }


def number(n: int) -> str:
    return scoring.number_words(n)


_HANDLERS: dict[type[Action], Any] = {
    Draw: CribbageState._draw,
    Discard: CribbageState._discard,
    Play: CribbageState._play,
    Go: CribbageState._go,
    Show: CribbageState._show,
    ShowCrib: CribbageState._show,
    Reveal: CribbageState._reveal,
    Muggins: CribbageState._muggins,
}
