"""The Hearts game state: deal (read), passing, tricks, the widow, scoring, the game's end.

``deal=hidden`` (default): cards are dealt face down; the companion learns each card when it
is played. It refuses what is certainly wrong (a card already played or taken out of the pack,
a wrong opening lead, a play out of turn) and remembers what each play shows about the hand:
a player who did not follow clubs has no club, so a club played by that player later reveals a
revoke, which is pointed out. ``deal=read``: every dealt card is read in (a chance outcome),
passes are named, and every rule is checked before a card is accepted.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.cards import Card, CardError
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
    counted,
)
from companion.games.hearts import rules
from companion.games.hearts.events import (
    CardPlayed,
    DealRead,
    FirstLead,
    HandScored,
    HeartsBroken,
    MoonChoice,
    NewHand,
    PassDone,
    Passed,
    RevokeRevealed,
    TrickTaken,
    WidowTaken,
)
from companion.games.hearts.rules import QUEEN, Context, card_name

if TYPE_CHECKING:
    from companion.engine import Game  # not the Hearts class: its package imports this module


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Pass(Action):
    """deal=read: the cards a player passes."""

    player: int
    cards: tuple[str, ...]

    def __str__(self) -> str:
        return "pass " + " ".join(self.cards)


@dataclass(frozen=True)
class Play(Action):
    player: int
    card: str

    def __str__(self) -> str:
        return f"play {self.card}"


@dataclass(frozen=True)
class Tally(Action):
    """deal=tally: the points each player took this hand, in seat order (26 in all)."""

    points: tuple[int, ...]

    def __str__(self) -> str:
        return "points " + " ".join(str(p) for p in self.points)


@dataclass(frozen=True)
class Moon(Action):
    """Option moon=choose: the shooter's choice, "subtract" or "add"."""

    player: int
    how: str

    def __str__(self) -> str:
        return f"moon {self.how}"


ACTION_TYPES: dict[str, type[Action]] = {"Pass": Pass, "Play": Play, "Moon": Moon,
                                         "Tally": Tally}


def normal_card(text: str) -> str:
    """"td" -> "10D"; not a card: refused with the reason."""
    if rules.is_card(text):
        return text
    try:
        return str(Card.parse(text))
    except CardError as err:
        raise IllegalAction(str(err).replace("'", "")) from None


@dataclass(frozen=True)
class Claim:
    """deal=hidden: a play showed that ``player`` held none of ``cards`` (at trick ``trick``)."""

    played: str
    cards: frozenset[str]
    trick: int
    ctx: Context
    rule: str = ""  # the rule in words, when not the one ``ctx`` gives


DEAL, PASS, PLAY, WIDOW, MOON, TALLY, OVER = (
    "deal", "pass", "play", "widow", "moon", "tally", "over")


class HeartsState(State):
    def __init__(self, game: Game) -> None:
        self.game = game
        opts = game.options
        self.n = n = len(game.players)
        self.read = opts["deal"] == "read"
        self.tallying = opts["deal"] == "tally"
        self.target = int(opts["to"])
        self.widow_rule = str(opts["widow"])
        self.deck = rules.deck(n, self.widow_rule != "no")
        self.widow_n = rules.widow_size(n, self.widow_rule != "no")
        self.cycle = rules.pass_cycle(str(opts["pass"]), n)
        self.scores_ = [0] * n
        self.dealer = int(opts["dealer"])
        if not 0 <= self.dealer < n:
            raise ValueError(f"option dealer must be 0 to {n - 1}, not {self.dealer}")
        self.hand_number = 0
        self.winners_: tuple[int, ...] = ()
        self.history: list[dict[str, Any]] = []  # scores of finished hands
        self.phase = OVER
        self._start_hand(self.dealer)

    # --- layout ---------------------------------------------------------------------------

    def left(self, p: int, k: int = 1) -> int:
        return (p + k) % self.n

    @property
    def eldest(self) -> int:
        return self.left(self.dealer)

    @property
    def tricks_per_hand(self) -> int:
        return (len(self.deck) - self.widow_n) // self.n

    def shift(self) -> int:
        return self.cycle[(self.hand_number - 1) % len(self.cycle)]

    def passing(self) -> int:
        return rules.pass_count(self.n) if self.shift() else 0

    def _start_hand(self, dealer: int) -> list[Event]:
        self.dealer = dealer
        self.hand_number += 1
        n = self.n
        self.hands: list[list[str]] = [[] for _ in range(n)]  # known, unplayed (deal=read)
        self.unknown = [0 if self.read else self.tricks_per_hand] * n
        self.widow: list[str] = []  # known widow cards
        self.widow_taker: int | None = None
        self.dealt = 0
        self.passes: list[tuple[str, ...] | None] = [None] * n
        self.trick: list[tuple[int, str]] = []
        self.tricks_done = 0
        self.played: list[str] = []
        self.taken: list[list[str]] = [[] for _ in range(n)]
        self.broken = False
        self.claims: list[list[Claim]] = [[] for _ in range(n)]
        self.moon_shooter: int | None = None
        self.tally: tuple[int, ...] | None = None  # deal=tally: the points said this hand
        self.leader: int | None = self.eldest
        self.turn = self.eldest
        events: list[Event] = [NewHand(self.hand_number, dealer, self.shift(), self.passing(),
                                       self.read)]
        if self.read:
            self.phase = DEAL
        elif self.tallying:
            self.phase = TALLY
        else:
            events += self._begin_play()
        return events

    def _begin_play(self) -> list[Event]:
        """After the deal and the pass: who leads."""
        self.phase = PLAY
        opening = self.opening()
        if opening is None:
            self.leader = self.turn = self.eldest
        elif self.read:
            self.leader = self.turn = self.holder(opening)
        else:
            self.leader = None  # whoever holds it
        return [FirstLead(self.leader, opening)]

    # --- what is known --------------------------------------------------------------------

    def seen(self) -> set[str]:
        out = set(self.played)
        out.update(self.widow)
        if self.read:
            for hand in self.hands:
                out.update(hand)
            for cards in self.passes:
                out.update(cards or ())
        return out

    def unseen(self) -> list[str]:
        seen = self.seen()
        return [c for c in self.deck if c not in seen]

    def holder(self, c: str) -> int:
        return next(p for p in range(self.n) if c in self.hands[p])

    def opening(self) -> str | None:
        """The club that opens the hand (option two_clubs): the lowest club in play, out of the
        widow. deal=hidden with a widow: the lowest club of the pack (see hidden_openings)."""
        if not self.game.options["two_clubs"]:
            return None
        clubs = [c for c in self.deck if rules.suit(c) == "C"]
        clubs.sort(key=rules.strength)
        return next(c for c in clubs if c not in self.widow)

    def hidden_openings(self) -> list[str]:
        """deal=hidden: clubs that may open (a lower club may lie unseen in the widow)."""
        clubs = sorted((c for c in self.deck if rules.suit(c) == "C"), key=rules.strength)
        return clubs[: self.widow_n + 1]

    def where(self, c: str) -> str:
        if c not in self.deck:
            return "it was taken out of the pack"
        if c in self.played:
            return "it was played this hand"
        if c in self.widow:
            return "it is in the widow"
        if any(c in (cards or ()) for cards in self.passes):
            return "it was passed"
        for p, hand in enumerate(self.hands):
            if c in hand:
                return f"{self.game.players[p]} holds it"
        return "it was seen this hand"

    def context(self) -> Context:
        opts = self.game.options
        first = self.tricks_done == 0
        leading = not self.trick
        opening = None
        if leading and first and opts["two_clubs"]:
            opening = self.opening() if self.read else None
        return Context(
            led=None if leading else rules.suit(self.trick[0][1]),
            first_trick=first,
            broken=self.broken or not opts["hearts_broken"],
            opening=opening,
            no_points_first=str(opts["first_trick"]),
            queen_waits=bool(opts["queen_waits"]) and not self.broken,
            lowest_club=bool(opts["lowest_club"]),
        )

    def hidden_opening_due(self) -> bool:
        return not self.read and self.leader is None and self.phase == PLAY

    # --- State API ------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.phase in (DEAL, WIDOW):
            return CHANCE
        if self.phase == PASS:
            return next(p for p in self._pass_order() if self.passes[p] is None)
        if self.phase == MOON:
            assert self.moon_shooter is not None
            return self.moon_shooter
        if self.phase == TALLY:
            return self.dealer  # the scorer: anyone may say the points
        return self.turn

    def _pass_order(self) -> list[int]:
        return [self.left(self.eldest, i) for i in range(self.n)]

    def may_act(self, player: int) -> bool:
        if self.phase == TALLY:
            return True
        if self.phase == PASS:
            return self.passes[player] is None
        if self.hidden_opening_due():
            return True
        return player == self.actor()

    def chance(self) -> ChanceRequest | None:
        if self.phase == DEAL:
            return ChanceRequest(kind="card", deck="hearts", cards=tuple(self.unseen()),
                                 who=self.dealer)
        if self.phase == WIDOW:
            return ChanceRequest(kind="card", deck="hearts", cards=tuple(self.unseen()),
                                 who=self.widow_taker)
        return None

    def deal_target(self) -> int | None:
        """Who gets the next dealt card: one at a time from the eldest; the widow (None) last."""
        per = self.tricks_per_hand
        if self.dealt < per * self.n:
            return self.left(self.eldest, self.dealt)
        return None

    def legal_actions(self) -> list[Action]:
        p = self.current_player()
        if p < 0:
            return []
        if self.phase == MOON:
            return [Moon(p, "subtract"), Moon(p, "add")]
        if self.phase == TALLY:  # any split of 26 is legal: a few examples
            n = self.n
            splits = {tuple(26 if q == i else 0 for q in range(n)) for i in range(n)}
            splits.add(tuple([13, 13] + [0] * (n - 2)))
            splits.add(tuple([26 - (n - 1)] + [1] * (n - 1)))
            return [Tally(s) for s in sorted(splits)]
        if self.phase == PASS:
            hand = sorted(self.hands[p], key=_order)
            k = rules.pass_count(self.n)
            # Every pass is legal; a few examples (the lowest, the highest, the points).
            picks = {tuple(hand[:k]), tuple(hand[-k:]), tuple(hand[::2][:k])}
            return [Pass(p, cards) for cards in sorted(picks) if len(set(cards)) == k]
        if self.hidden_opening_due():
            openings = [c for c in self.hidden_openings() if c not in self.played]
            return [Play(q, c) for q in range(self.n) for c in openings]
        ctx = self.context()
        if self.read:
            return [Play(p, c) for c in rules.legal_from(self.hands[p], ctx)]
        # deal=hidden: any unseen card may be the one played; list those a hand consistent
        # with what the player has shown could hold, best-ranked first.
        unseen = self.unseen()
        barred = {c for claim in self.claims[p] for c in claim.cards}
        plausible = [c for c in unseen if c not in barred]
        choices = rules.legal_from(plausible, ctx) or unseen
        return [Play(p, c) for c in choices]

    def winners(self) -> tuple[int, ...]:
        return self.winners_

    def scores(self) -> list[float]:
        return [float(s) for s in self.scores_]

    # --- chance: the deal and the widow ---------------------------------------------------

    def _draw(self, action: Action) -> list[Event]:
        assert isinstance(action, Draw)
        if self.phase not in (DEAL, WIDOW):
            raise IllegalAction(f"No card is dealt now. {self.expected()}.")
        c = normal_card(action.card)
        if c not in self.deck or c in self.seen():
            raise IllegalAction(f"The {card_name(c)} cannot come now: {self.where(c)}")
        if self.phase == WIDOW:
            self.widow.append(c)
            if len(self.widow) < self.widow_n:
                return []
            assert self.widow_taker is not None
            self.taken[self.widow_taker] += self.widow
            self.phase = PLAY
            events: list[Event] = [WidowTaken(self.widow_taker, tuple(self.widow))]
            return events + self._after_trick()
        who = self.deal_target()
        if who is None:
            self.widow.append(c)
        else:
            self.hands[who].append(c)
        self.dealt += 1
        if self.dealt < len(self.deck):
            return []
        if self.passing():
            self.phase = PASS
            return [DealRead(self.shift(), self.passing())]
        return [DealRead(0, 0), *self._begin_play()]

    # --- passing --------------------------------------------------------------------------

    def _pass(self, action: Action) -> list[Event]:
        assert isinstance(action, Pass)
        if self.phase != PASS:
            raise IllegalAction(f"No passing now. {self.expected()}.")
        p = action.player
        if not 0 <= p < self.n:
            raise IllegalAction(f"There is no player {p}")
        name = self.game.players[p]
        if self.passes[p] is not None:
            raise IllegalAction(f"{name} has passed already")
        cards = tuple(normal_card(c) for c in action.cards)
        k = self.passing()
        if len(cards) != k or len(set(cards)) != k:
            raise IllegalAction(f"Pass {rules_number(k)} different cards")
        for c in cards:
            if c not in self.hands[p]:
                raise IllegalAction(f"{name} does not hold the {card_name(c)}")
        for c in cards:
            self.hands[p].remove(c)
        self.passes[p] = cards
        to = self.left(p, self.shift())
        events: list[Event] = [Passed(p, to)]
        if any(x is None for x in self.passes):
            return events
        for q in range(self.n):
            self.hands[self.left(q, self.shift())] += list(self.passes[q] or ())
        self.passes = [None] * self.n
        begin = self._begin_play()
        assert isinstance(begin[0], FirstLead)
        return [*events, PassDone(begin[0].leader, begin[0].opening)]

    # --- the play -------------------------------------------------------------------------

    def _check_turn(self, p: int) -> None:
        if not 0 <= p < self.n:
            raise IllegalAction(f"There is no player {p}")
        if self.hidden_opening_due():
            return
        if p != self.turn:
            names = self.game.players
            raise IllegalAction(f"It is {names[self.turn]}'s turn, not {names[p]}'s")

    def _play(self, action: Action) -> list[Event]:
        assert isinstance(action, Play)
        if self.phase != PLAY:
            raise IllegalAction(f"No card is played now. {self.expected()}.")
        p = action.player
        self._check_turn(p)
        c = normal_card(action.card)
        name = self.game.players[p]
        ctx = self.context()
        events: list[Event] = []
        if self.read:
            if c not in self.hands[p]:
                where = self.where(c)
                raise IllegalAction(f"{name} cannot play the {card_name(c)}: {where}")
            legal = rules.legal_from(self.hands[p], ctx)
            if c not in legal:
                why = rules.reason_for(c, legal[0], ctx)
                raise IllegalAction(f"{name} cannot play the {card_name(c)}: {why}")
        else:
            if c not in self.deck or c in self.seen():
                raise IllegalAction(f"The {card_name(c)} cannot be played: {self.where(c)}")
            if self.hidden_opening_due():
                openings = [o for o in self.hidden_openings() if o not in self.played]
                if c not in openings:
                    first = card_name(openings[0])
                    raise IllegalAction(f"The hand opens with the {first}, not the"
                                        f" {card_name(c)}")
        # Validated: from here on the state changes.
        if not self.read:
            if self.hidden_opening_due():
                self.leader = self.turn = p
                lower = [o for o in self.hidden_openings() if rules.strength(o) < rules.strength(c)]
                rule = "the holder of the lowest club out of the widow opens the hand with it"
                for q in range(self.n):  # a lower club held by anyone shows a wrong opening
                    if lower:
                        self.claims[q].append(Claim(c, frozenset(lower), 1,
                                                    _opening_ctx(lower[0]), rule))
            events += self._revealed(p, c)
            barred = rules.better_than(c, [x for x in self.unseen() if x != c], ctx)
            if barred:
                self.claims[p].append(Claim(c, frozenset(barred), self.tricks_done + 1, ctx))
            self.unknown[p] -= 1
        else:
            self.hands[p].remove(c)
        # "Hearts are broken when at least one heart has been played out of suit on a trick":
        # a heart led (by a player holding only hearts) or following a heart lead does not
        # break them, unless option lead_breaks (the published reading) says it does.
        led = rules.suit(self.trick[0][1]) if self.trick else None
        out_of_suit = led is not None and led != "H"
        heart = rules.suit(c) == "H" and (
            out_of_suit or (led is None and bool(self.game.options["lead_breaks"])))
        self.played.append(c)
        self.trick.append((p, c))
        events.append(CardPlayed(p, c))
        breaks = heart or (c == QUEEN and self.game.options["queen_breaks"])
        if self.game.options["hearts_broken"] and not self.broken and breaks:
            self.broken = True
            events.append(HeartsBroken(rules.suit(c) != "H"))
        if len(self.trick) < self.n:
            self.turn = self.left(p)
            return events
        return events + self._end_trick()

    def _revealed(self, p: int, c: str) -> list[Event]:
        out: list[Event] = []
        for claim in list(self.claims[p]):
            if c in claim.cards:
                rule = claim.rule or rules.reason_for(claim.played, c, claim.ctx)
                out.append(RevokeRevealed(p, c, claim.trick, rule))
                self.claims[p].remove(claim)
        return out

    def _end_trick(self) -> list[Event]:
        winner, best = rules.trick_winner(self.trick)
        cards = [c for _, c in self.trick]
        worth = sum(rules.points(c) for c in cards)
        self.taken[winner] += cards
        self.tricks_done += 1
        self.trick = []
        self.leader = self.turn = winner
        events: list[Event] = [TrickTaken(winner, best, worth, self.tricks_done)]
        last = self.tricks_done == self.tricks_per_hand
        if self.widow_n and self.widow_taker is None and (
            self.widow_rule == "first-trick" or worth > 0 or last
        ):
            self.widow_taker = winner
            if not self.read:
                self.phase = WIDOW
                return [*events, WidowTaken(winner, ())]
            self.taken[winner] += self.widow
            events.append(WidowTaken(winner, tuple(self.widow)))
        return events + self._after_trick()

    def _after_trick(self) -> list[Event]:
        if self.tricks_done < self.tricks_per_hand:
            return []
        return self._score_hand()

    # --- scoring --------------------------------------------------------------------------

    def _tally(self, action: Action) -> list[Event]:
        assert isinstance(action, Tally)
        if self.phase == OVER:
            final = ", ".join(f"{name} {points}" for name, points
                              in zip(self.game.players, self.scores_, strict=True))
            raise IllegalAction(f"The game is over: no more points are said. Final scores:"
                                f" {final}.")
        if self.phase != TALLY:
            why = "" if self.tallying else " (only with deal=tally)"
            raise IllegalAction(f"No points are said now{why}. {self.expected()}.")
        points = tuple(int(x) for x in action.points)
        names = ", ".join(self.game.players)
        if len(points) != self.n:
            raise IllegalAction(f"Say {self.n} numbers, the points of {names}, in that order")
        if any(not 0 <= x <= 26 for x in points) or sum(points) != 26:
            raise IllegalAction(f"The points of a hand add up to 26 (thirteen hearts and the"
                                f" queen), not {sum(points)}")
        if max(points) < 13:
            raise IllegalAction("Somebody took the queen of spades: at least one player has 13"
                                " or more")
        self.tally = points
        return self._score_hand()

    def _score_hand(self, choice: str = "") -> list[Event]:
        opts = self.game.options
        moon = choice or str(opts["moon"])
        needs_queen = bool(opts["moon_needs_queen"])
        if self.tally is not None:
            shooter = rules.tally_shooter(self.tally) if moon != "none" else None
        else:
            shooter = rules.moon_shooter(self.taken, needs_queen) if moon != "none" else None
        if moon == "choose":
            if shooter is not None:
                self.phase = MOON
                self.moon_shooter = shooter
                return [MoonChoice(shooter)]
            moon = "none"
        if self.tally is not None:
            result = rules.score(self.tally, shooter if moon != "none" else None, moon, None)
        else:
            result = rules.hand_result(self.taken, moon, needs_queen)
        for p in range(self.n):
            self.scores_[p] += result.added[p]
        self.history.append({"hand": self.hand_number, "taken": list(result.taken),
                             "added": list(result.added), "shooter": result.shooter})
        events: list[Event] = [HandScored(
            self.hand_number, result.taken, result.added, tuple(self.scores_), result.shooter,
            moon if result.shooter is not None else "")]
        over = (max(self.scores_) >= self.target if opts["end"] == "reaches"
                else max(self.scores_) > self.target)
        if over:
            low = min(self.scores_)
            self.winners_ = tuple(p for p in range(self.n) if self.scores_[p] == low)
            self.phase = OVER
            detail = f"{counted(low, 'point')}, the lowest score."
            return [*events, GameOver(self.winners_, detail)]
        return events + self._start_hand(self.left(self.dealer))

    def _moon(self, action: Action) -> list[Event]:
        assert isinstance(action, Moon)
        if self.phase != MOON:
            raise IllegalAction(f"Nobody shot the moon. {self.expected()}.")
        if action.player != self.moon_shooter:
            assert self.moon_shooter is not None
            shooter = self.game.players[self.moon_shooter]
            raise IllegalAction(f"{shooter} shot the moon and chooses")
        if action.how not in ("subtract", "add"):
            raise IllegalAction("Say moon subtract or moon add")
        self.moon_shooter = None
        return self._score_hand(action.how)

    # --- words ----------------------------------------------------------------------------

    def expected(self) -> str:
        names = self.game.players
        if self.phase == OVER:
            return "The game is over"
        if self.phase == DEAL:
            who = self.deal_target()
            whom = "the widow" if who is None else names[who]
            return f"Read the next dealt card, for {whom} ({self.dealt + 1} of {len(self.deck)})"
        if self.phase == WIDOW:
            return (f"Read the widow's cards ({len(self.widow) + 1} of {self.widow_n}), taken"
                    f" by {names[self.widow_taker or 0]}")
        if self.phase == PASS:
            waiting = [names[p] for p in self._pass_order() if self.passes[p] is None]
            return (f"{rules.pass_words(self.shift(), self.n).capitalize()}: waiting for"
                    f" {', '.join(waiting)}")
        if self.phase == MOON:
            return f"{names[self.current_player()]} to choose: moon subtract or moon add"
        if self.phase == TALLY:
            first = (f"{rules.pass_words(self.shift(), self.n).capitalize()}. "
                     if self.shift() else "")
            return (f"{first}After the hand, say the points taken by {', '.join(names)}, like:"
                    f" points {' '.join(['0'] * (self.n - 1))} 26")
        first = ""
        if not self.read and not self.played and self.shift():
            k = rules_number(self.passing())
            first = f"First {rules.pass_words(self.shift(), self.n)}, {k} cards; then "
        if self.hidden_opening_due():
            opening = self.hidden_openings()[0]
            text = f"whoever holds the {card_name(opening)} leads it (say: {opening} NAME)"
            return first + text if first else text[0].upper() + text[1:]
        if not self.trick:
            return f"{first}{names[self.turn]} to lead"
        led = rules.suit_name(rules.suit(self.trick[0][1]))
        return f"{names[self.turn]} to play to {led}"

    def status(self) -> str:
        names = self.game.players
        parts = [f"{names[p]} {self.scores_[p]}" for p in range(self.n)]
        text = f"Hand {self.hand_number}. Scores: {', '.join(parts)}; game to {self.target}."
        if self.phase == PLAY and any(self.taken):
            taken = [f"{names[p]} {sum(rules.points(c) for c in self.taken[p])}"
                     for p in range(self.n)]
            text += f" Points taken this hand: {', '.join(taken)}."
        return f"{text} {self.expected()}."

    def choices_after_move(self) -> str:
        # Saying the legal cards unasked would tell the table what a player holds.
        return ""

    def choices_text(self) -> str:
        if self.phase == MOON:
            return "Choose: moon subtract (26 off your score), or moon add (26 to the others)."
        if self.phase != PLAY or self.hidden_opening_due():
            return ""
        ctx = self.context()
        if self.read:
            legal = rules.legal_from(self.hands[self.turn], ctx)
            return "Playable: " + ", ".join(card_name(c) for c in sorted(legal, key=_order)) + "."
        if ctx.led is not None:
            return f"Follow {rules.suit_name(ctx.led)} if you can."
        if not ctx.broken:
            return "Lead anything but a heart, unless you hold only hearts."
        return "Lead any card."

    def describe_action(self, action: Action) -> str:
        if isinstance(action, Play):
            return f"{self.game.players[action.player]} plays the {card_name(action.card)}"
        return str(action)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "hearts",
            "phase": self.phase,
            "deal": str(self.game.options["deal"]),
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "target": self.target,
            "pass": rules.pass_words(self.shift(), self.n),
            "pass_shift": self.shift(),
            "scores": list(self.scores_),
            "turn": self.current_player() if self.current_player() >= 0 else None,
            "leader": self.leader,
            "trick": [{"player": p, "card": c} for p, c in self.trick],
            "tricks_done": self.tricks_done,
            "broken": self.broken,
            "played": list(self.played),
            "taken": [sorted(t, key=_order) for t in self.taken],
            "points_taken": [sum(rules.points(c) for c in t) for t in self.taken],
            "hands": [sorted(h, key=_order) for h in self.hands],
            "unknown": list(self.unknown),
            "widow": list(self.widow),
            "widow_taker": self.widow_taker,
            "passed": [p is not None for p in self.passes],
            "history": copy.deepcopy(self.history),
            "winners": list(self.winners_),
        }


def _opening_ctx(lowest: str) -> Context:
    """The rule a wrong opening broke: the lowest club out of the widow opens."""
    return Context(led=None, first_trick=True, broken=True, opening=lowest,
                   no_points_first="allowed",
                   queen_waits=False, lowest_club=False)


def _order(c: str) -> tuple[int, int]:
    return ("CDSH".index(rules.suit(c)), rules.strength(c))


def rules_number(k: int) -> str:
    return {2: "two", 3: "three"}.get(k, str(k))


HeartsState.handlers = {
    Draw: HeartsState._draw,
    Pass: HeartsState._pass,
    Play: HeartsState._play,
    Moon: HeartsState._moon,
    Tally: HeartsState._tally,
}
