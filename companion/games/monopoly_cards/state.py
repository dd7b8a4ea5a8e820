"""The state of a game of Monopoly The Card Game: deal, turns, lay down, reward, scoring.

Two ways for the companion to learn the cards (option ``deal``, docs/games/monopoly-card-game.md):

- ``read`` (default): every dealt and drawn card is read in as a chance outcome (``Draw``), so
  the companion knows every hand and trade pile and checks every play: draws, trades,
  discards, the lay-down, the reward, and the scoring of every hand.
- ``hidden``: the companion does not follow the play. When a player lays down, the table
  enters that hand, then the reward cards kept, then each other hand; the companion checks
  them (a complete hand, no more cards of a kind than the deck has) and keeps the money.
"""

from __future__ import annotations

import copy
from collections import Counter
from itertools import combinations
from typing import TYPE_CHECKING, Any

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
    TurnPasses,
)
from companion.games.monopoly_cards import events as ev
from companion.games.monopoly_cards.actions import (
    Discard,
    DrawCard,
    Exchange,
    LayDown,
    PassCard,
    Reward,
    ShowHand,
    Trade,
)
from companion.games.monopoly_cards.scoring import (
    HandValue,
    LayDownPlan,
    describe_value,
    hand_value,
    money,
    plan_laydown,
    reward_value,
    score_hands,
)

if TYPE_CHECKING:
    from companion.engine import Game
    from companion.games.monopoly_cards.deck import Deck

DECK_NAME = "monopoly-card-game"
HAND_LIMIT = 10
REWARD_CARDS = 5

# phases
DEAL, TURN, DRAWING, TRADE_DRAW, DISCARD, REWARD = (
    "deal", "turn", "drawing", "trade-draw", "discard", "reward")
REFILL, EXCHANGE, EXCHANGED, PASS = "refill", "exchange", "exchanged", "pass"  # 5-6 players
DOWN, REWARD_IN, SHOW = "down", "reward-in", "show"  # deal=hidden
OVER = "over"
CHANCE_PHASES = (DEAL, DRAWING, TRADE_DRAW, REWARD)


class MonopolyCardState(State):
    def __init__(self, game: Game, deck: Deck) -> None:
        self.game = game
        self.deck = deck
        self.n = n = len(game.players)
        self.read = game.options["deal"] == "read"
        self.big = n >= 5  # the 5-6 player rules: whole deck dealt, exchange and pass
        target = int(game.options["target"])
        self.target = target or (7000 if self.big else 10000)
        self.extras = {2: 2, 3: 1}.get(n, 0)  # extra trade piles of 2 and 3 players
        self.per_player = {5: 11, 6: 9}.get(n, 10)
        self.money = [0] * n
        self.dealer = int(game.options["dealer"]) % n
        self.hand_number = 0
        self.winners_: tuple[int, ...] = ()
        self.last_hand: list[dict[str, Any]] = []
        self.phase = OVER
        self._new_hand()

    # --- layout --------------------------------------------------------------------------

    def _new_hand(self) -> None:
        n = self.n
        self.hand_number += 1
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.piles: list[list[str]] = [[] for _ in range(n + self.extras)]
        self.seen: Counter[str] = Counter()  # cards read in this hand (read) / shown (hidden)
        self.turn = (self.dealer + 1) % n
        self.due = 0  # discards still due
        self.discarded = 0
        self.laid: int | None = None
        self.plan: LayDownPlan | None = None
        self.reward: list[str] = []
        self.reward_due = 0
        self.passes: list[str | None] = [None] * n
        self.shown: dict[int, list[str]] = {}
        # the deal: hands one card at a time from the dealer's left, then the trade cards
        order = [(self.dealer + 1 + i) % n for _ in range(self.per_player) for i in range(n)]
        order += [n + p for p in [(self.dealer + 1 + i) % n for i in range(n)]]
        order += [2 * n + e for e in range(self.extras)]
        self.deal_order = order  # < n: hand of p; n..2n-1: trade pile of p - n; 2n+e: extra
        self.dealt = 0
        self.draw_pile = 60 - len(order)
        self.phase = DEAL if self.read else DOWN

    def unseen(self) -> list[str]:
        return sorted((self.deck.full() - self.seen).elements())

    def left_of(self, p: int) -> int:
        return (p + 1) % self.n

    # --- the State API -------------------------------------------------------------------

    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.phase in CHANCE_PHASES:
            return CHANCE
        if self.phase == PASS:
            return self._next_passer()
        if self.phase == REWARD_IN:
            assert self.laid is not None
            return self.laid
        if self.phase == SHOW:
            return self._next_shower()
        return self.turn

    def may_act(self, player: int) -> bool:
        if self.phase == DOWN:
            return 0 <= player < self.n  # whoever lays down says so
        if self.phase == SHOW:  # the other hands, in any order
            return 0 <= player < self.n and player != self.laid and player not in self.shown
        return player == self.actor()

    def chance(self) -> ChanceRequest | None:
        if self.phase not in CHANCE_PHASES:
            return None
        who = self.dealer if self.phase == DEAL else (
            self.laid if self.phase == REWARD else self.turn)
        return ChanceRequest(kind="card", deck=DECK_NAME, cards=tuple(self.unseen()), who=who)

    def _next_passer(self) -> int:
        for i in range(self.n):
            p = (self.turn + i) % self.n
            if self.passes[p] is None:
                return p
        return self.turn

    def _next_shower(self) -> int:
        assert self.laid is not None
        for i in range(1, self.n):
            p = (self.laid + i) % self.n
            if p not in self.shown:
                return p
        return self.laid

    def legal_actions(self) -> list[Action]:
        p = self.current_player()
        if p < 0:
            return []
        handler = _LEGAL.get(self.phase)
        return handler(self, p) if handler else []

    def _legal_turn(self, p: int) -> list[Action]:
        out: list[Action] = []
        if self.draw_pile > 0:
            out.append(DrawCard(p))
        hand = self.hands[p]
        adds = ["", *sorted(set(hand))]
        for add in adds:
            mine = len(self.piles[p]) + (1 if add else 0)
            for q in range(self.n + self.extras):
                if q == p or not self.piles[q]:
                    continue
                if q < self.n:
                    top = min(mine, len(self.piles[q]))
                    out += [Trade(p, q, k, add) for k in range(1, top + 1)]
                else:
                    if mine >= 1:
                        out.append(Trade(p, q, 1, add))
                    if mine >= 2 and self.draw_pile > 0:
                        out.append(Trade(p, q, 2, add))
        out += self._laydown_examples(p)
        return out

    def _laydown_examples(self, p: int) -> list[Action]:
        hand = self.hands[p]
        excess = len(hand) - HAND_LIMIT if not self.big else 0
        if excess <= 0:
            return [LayDown(p)] if isinstance(plan_laydown(hand), LayDownPlan) else []
        # A few discard choices are tried (all of them can be many); any valid one typed is
        # accepted by apply().
        for tried, out in enumerate(combinations(sorted(hand), excess)):
            rest = list((Counter(hand) - Counter(out)).elements())
            if isinstance(plan_laydown(rest), LayDownPlan):
                return [LayDown(p, discards=out)]
            if tried >= 40:
                break
        return []

    def _legal_discard(self, p: int) -> list[Action]:
        return [Discard(p, c) for c in sorted(set(self.hands[p]))]

    def _legal_exchange(self, p: int) -> list[Action]:
        return [Exchange(p, q) for q in range(self.n) if q != p and self.piles[q]]

    def _legal_exchanged(self, p: int) -> list[Action]:
        out = self._legal_discard(p)
        if isinstance(plan_laydown(self.hands[p]), LayDownPlan):
            out.append(LayDown(p))
        return out

    def _legal_pass(self, p: int) -> list[Action]:
        return [PassCard(p, c) for c in sorted(set(self.hands[p]))]

    def _legal_down(self, p: int) -> list[Action]:
        left = Counter(self.unseen())
        for g in self.deck.groups:
            cards = self.deck.properties_of(g.id)
            if all(left[c] for c in cards):
                return [LayDown(p, cards=cards)]
        return []

    def _legal_reward_in(self, p: int) -> list[Action]:
        left = self.unseen()
        return [Reward(p, ()), *([Reward(p, (left[0],))] if left else [])]

    def _legal_show(self, p: int) -> list[Action]:
        left = self.unseen()
        return [ShowHand(p, tuple(left[:HAND_LIMIT])), ShowHand(p, ())]

    # --- apply ----------------------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        if self.phase == OVER:
            raise IllegalAction("The game is over.")
        if self.phase in CHANCE_PHASES:
            if not isinstance(action, Draw):
                raise IllegalAction(f"I need a card read now: {self.expected()}.")
            request = self.chance()
            assert request is not None
            request.check(action)
            return _CHANCE[self.phase](self, action.card)
        handler = _APPLY.get((self.phase, type(action)))
        if handler is None:
            raise IllegalAction(f"{self._verb(action)} is not possible now. {self.expected()}.")
        player = getattr(action, "player", None)
        if self.phase == SHOW and player in self.shown:
            who = self.game.players[player] if isinstance(player, int) else "that player"
            raise IllegalAction(f"{who} has shown already. {self.expected()}.")
        if not (isinstance(player, int) and self.may_act(player)):
            who = self.game.players[player] if isinstance(player, int) and \
                0 <= player < self.n else "that player"
            raise IllegalAction(f"It is not {who}'s turn. {self.expected()}.")
        return handler(self, action)

    def _verb(self, action: Action) -> str:
        words = {DrawCard: "Drawing", Trade: "Trading", Discard: "Discarding",
                 LayDown: "Laying down", Exchange: "Exchanging", PassCard: "Passing a card",
                 Reward: "Entering the reward", ShowHand: "Showing a hand", Draw: "A card"}
        return words.get(type(action), type(action).__name__)

    # chance outcomes

    def _dealt(self, card: str) -> list[Event]:
        target = self.deal_order[self.dealt]
        self.seen[card] += 1
        self.dealt += 1
        out: list[Event] = []
        if target < self.n:
            self.hands[target].append(card)
        else:
            pile = target - self.n  # a player's trade pile, then the extra piles
            self.piles[pile].append(card)
            out.append(ev.TradeCardDealt(pile, card))
        if self.dealt == len(self.deal_order):
            self.phase = EXCHANGE if self.big else TURN
            out += [ev.DealDone(self.draw_pile), TurnPasses(self.turn)]
        return out

    def _drawn(self, card: str) -> list[Event]:
        p = self.turn
        self.seen[card] += 1
        self.draw_pile -= 1
        self.hands[p].append(card)
        out: list[Event] = [ev.Drew(p, self.draw_pile)]
        if self.draw_pile == 0:
            out.append(ev.DrawPileEmpty())
        return out + self._start_discards(p)

    def _reward_drawn(self, card: str) -> list[Event]:
        self.seen[card] += 1
        self.draw_pile -= 1
        self.reward.append(card)
        if len(self.reward) < self.reward_due:
            return []
        assert self.laid is not None
        return [ev.RewardTaken(self.laid, tuple(self.reward)), *self._score()]

    def _start_discards(self, p: int) -> list[Event]:
        minimum = 1 if self.game.options["must_discard"] else 0
        self.due = max(minimum, len(self.hands[p]) - HAND_LIMIT)
        self.discarded = 0
        if self.due == 0:
            return self._end_turn()
        self.phase = DISCARD
        return [ev.MustDiscard(p, self.due)]

    def _end_turn(self) -> list[Event]:
        self.turn = self.left_of(self.turn)
        self.phase = TURN
        self.due = 0
        return [TurnPasses(self.turn)]

    # player actions, 2-4 players

    def _draw(self, action: Action) -> list[Event]:
        assert isinstance(action, DrawCard)
        if self.draw_pile == 0:
            raise IllegalAction("The draw pile is empty: trade or lay down.")
        self.phase = DRAWING
        return []

    def _trade(self, action: Action) -> list[Event]:
        assert isinstance(action, Trade)
        p, q, k = action.player, action.pile, action.count
        names = self.game.players
        if not 0 <= q < self.n + self.extras or q == p:
            raise IllegalAction("Trade with another player's trade pile"
                                + (" or an extra pile." if self.extras else "."))
        if action.add and action.add not in self.hands[p]:
            raise IllegalAction(f"{self.game.players[p]} does not hold"
                                f" {self._name(action.add)}.")
        mine = len(self.piles[p]) + (1 if action.add else 0)
        theirs = len(self.piles[q])
        if q >= self.n:
            if k not in (1, 2):
                raise IllegalAction("From an extra pile you take its top card (trade 1), or"
                                    " it and the top card of the draw pile (trade 2).")
            if k == 2 and self.draw_pile == 0:
                raise IllegalAction("The draw pile is empty: trade one card for it.")
        if theirs == 0:
            raise IllegalAction(f"{ev.upper_first(ev.pile_name(q, names))} is empty.")
        if k < 1 or k > mine:
            raise IllegalAction(f"Your trade pile has {mine} card{'s' if mine != 1 else ''}:"
                                f" you cannot trade {k}.")
        if q < self.n and k > theirs:
            raise IllegalAction(f"{ev.upper_first(ev.pile_name(q, names))} has only {theirs}"
                                f" card{'s' if theirs != 1 else ''}.")
        out: list[Event] = []
        if action.add:
            self.hands[p].remove(action.add)
            self.piles[p].append(action.add)
            out.append(ev.AddedToPile(p, action.add))
        given = self.piles[p][-k:]
        del self.piles[p][-k:]
        if q < self.n:
            taken = self.piles[q][-k:]
            del self.piles[q][-k:]
            self.hands[q] += given
        else:
            taken = [self.piles[q].pop()]
            self.piles[q] += given
        self.hands[p] += taken
        out.append(ev.Traded(p, q, tuple(given), tuple(taken)))
        if q >= self.n and k == 2:
            self.phase = TRADE_DRAW
            return out
        return out + self._start_discards(p)

    def _trade_drawn(self, card: str) -> list[Event]:
        p = self.turn
        self.seen[card] += 1
        self.draw_pile -= 1
        self.hands[p].append(card)
        out: list[Event] = [ev.DrawPileEmpty()] if self.draw_pile == 0 else []
        return out + self._start_discards(p)

    def _discard(self, action: Action) -> list[Event]:
        assert isinstance(action, Discard)
        p = action.player
        if action.card not in self.hands[p]:
            raise IllegalAction(f"{self.game.players[p]} does not hold {self._name(action.card)}.")
        self.hands[p].remove(action.card)
        self.piles[p].append(action.card)
        if self.phase == REFILL:
            self.phase = EXCHANGE
            return [ev.Discarded(p, action.card, 0)]
        if self.phase == EXCHANGED:
            self.phase = PASS
            self.passes = [None] * self.n
            return [ev.Discarded(p, action.card, 0)]
        self.due -= 1
        out: list[Event] = [ev.Discarded(p, action.card, self.due)]
        if self.due == 0:
            out += self._end_turn()
        return out

    def _laydown_read(self, action: Action) -> list[Event]:
        assert isinstance(action, LayDown)
        p = action.player
        hand = Counter(self.hands[p])
        if action.cards and Counter(action.cards) != hand - Counter(action.discards):
            raise IllegalAction(f"Those are not the cards {self.game.players[p]} holds.")
        if Counter(action.discards) - hand:
            bad = next(iter(Counter(action.discards) - hand))
            raise IllegalAction(f"{self.game.players[p]} does not hold {self._name(bad)}.")
        excess = 0 if self.big else max(0, len(self.hands[p]) - HAND_LIMIT)
        if len(action.discards) != excess:
            raise IllegalAction(
                f"Discard exactly {excess} card{'s' if excess != 1 else ''} to lay down"
                f" ({len(self.hands[p])} in hand; at most {HAND_LIMIT})." if excess else
                "No discard before laying down: your hand is not over ten cards.")
        rest = list((hand - Counter(action.discards)).elements())
        plan = plan_laydown(rest, action.chances)
        if isinstance(plan, str):
            raise IllegalAction(f"{self.game.players[p]} cannot lay down: {plan}.")
        out: list[Event] = []
        for card in action.discards:
            self.hands[p].remove(card)
            self.piles[p].append(card)
            out.append(ev.Discarded(p, card, 0))
        self.laid, self.plan = p, plan
        out.append(ev.LaidDown(p, tuple(sorted(rest)), plan.chances, plan.value.total,
                               describe_value(plan.value)))
        if self.big:  # the reward: every trade card on the table
            self.reward = [c for pile in self.piles for c in pile]
            for pile in self.piles:
                pile.clear()
            out.append(ev.RewardTaken(p, tuple(self.reward)))
            return out + self._score()
        self.reward_due = min(REWARD_CARDS, self.draw_pile)
        if self.reward_due == 0:
            return out + self._score()
        self.phase = REWARD
        return out

    # 5-6 players

    def _exchange(self, action: Action) -> list[Event]:
        assert isinstance(action, Exchange)
        p, q = action.player, action.other
        if not 0 <= q < self.n or q == p:
            raise IllegalAction("Exchange with another player.")
        if not self.piles[q]:
            raise IllegalAction(f"{self.game.players[q]} has no trade card now.")
        given, taken = self.piles[p].pop(), self.piles[q].pop()
        self.hands[q].append(given)
        self.hands[p].append(taken)
        self.phase = EXCHANGED
        return [ev.Exchanged(p, q, given, taken)]

    def _pass(self, action: Action) -> list[Event]:
        assert isinstance(action, PassCard)
        p = action.player
        if action.card not in self.hands[p]:
            raise IllegalAction(f"{self.game.players[p]} does not hold {self._name(action.card)}.")
        self.passes[p] = action.card
        if any(c is None for c in self.passes):
            return []
        for q, card in enumerate(self.passes):
            assert card is not None
            self.hands[q].remove(card)
            self.hands[self.left_of(q)].append(card)
        self.passes = [None] * self.n
        self.turn = self.left_of(self.turn)
        self.phase = EXCHANGE if self.piles[self.turn] else REFILL
        return [ev.CardsPassed(), TurnPasses(self.turn)]

    # deal=hidden: the hands are entered at the end of the hand

    def _check_cards(self, cards: tuple[str, ...], what: str) -> None:
        info = self.deck.info
        for c in cards:
            if c not in info:
                raise IllegalAction(f"{c} is not a card of this deck.")
        over = Counter(cards) - (self.deck.full() - self.seen)
        if over:
            c = sorted(over)[0]
            total = self.deck.full()[c]
            raise IllegalAction(f"{what} cannot hold {self._name(c)}: the deck has {total}"
                                f" and {total - (self.deck.full() - self.seen)[c]} already"
                                " shown this hand.")

    def _laydown_hidden(self, action: Action) -> list[Event]:
        assert isinstance(action, LayDown)
        p = action.player
        names = self.game.players
        if not action.cards:
            raise IllegalAction(f"Say the cards {names[p]} lays down, like: down Boardwalk,"
                                " Park Place, GO.")
        limit = self.per_player + 1 if self.big else HAND_LIMIT
        if len(action.cards) > limit:
            raise IllegalAction(f"A hand laid down has at most {limit} cards, not"
                                f" {len(action.cards)}.")
        self._check_cards(action.cards, names[p])
        plan = plan_laydown(action.cards, action.chances)
        if isinstance(plan, str):
            raise IllegalAction(f"{names[p]} cannot lay down: {plan}.")
        self.seen.update(action.cards)
        self.laid, self.plan = p, plan
        self.shown[p] = list(action.cards)
        self.turn = p
        self.phase = REWARD_IN
        return [ev.LaidDown(p, tuple(sorted(action.cards)), plan.chances, plan.value.total,
                            describe_value(plan.value))]

    def _reward_in(self, action: Action) -> list[Event]:
        assert isinstance(action, Reward)
        limit = self.n if self.big else REWARD_CARDS
        if len(action.cards) > limit:
            raise IllegalAction(f"The reward is at most {limit} cards, not {len(action.cards)}.")
        self._check_cards(action.cards, "The reward")
        self.seen.update(action.cards)
        self.reward = list(action.cards)
        self.phase = SHOW
        return [ev.RewardTaken(action.player, action.cards)]

    def _show(self, action: Action) -> list[Event]:
        assert isinstance(action, ShowHand)
        p = action.player
        self._check_cards(action.cards, self.game.players[p])
        self.seen.update(action.cards)
        self.shown[p] = list(action.cards)
        out: list[Event] = [ev.HandShown(p, action.cards)]
        if len(self.shown) == self.n:
            self.hands = [self.shown[q] for q in range(self.n)]
            out += self._score()
        return out

    # --- scoring -----------------------------------------------------------------------------

    def _score(self) -> list[Event]:
        laid, plan = self.laid, self.plan
        assert laid is not None and plan is not None
        values: list[HandValue] = []
        zero: list[bool] = []
        for p, hand in enumerate(self.hands):
            if p == laid:
                values.append(reward_value(hand, plan, self.reward))
                zero.append(False)
            else:
                values.append(hand_value(hand))
                zero.append("CHANCE" in hand)
        ignore = self.game.options["chance_mr_monopoly"] == "ignore"
        scores = score_hands(values, zero, ignore)
        out: list[Event] = []
        counts = [0 if (ignore and z) else v.mr_monopoly for v, z in zip(values, zero,
                                                                        strict=True)]
        top = max(counts)
        if top and counts.count(top) > 1:
            out.append(ev.MrMonopolyTie(top))
        self.last_hand = []
        for i in range(self.n):
            p = (laid + i) % self.n
            s = scores[p]
            self.money[p] += s.total
            self.last_hand.append({"player": p, "won": s.total, "chance_zero": s.chance_zero,
                                   "mr_monopoly": s.mr_monopoly_bonus > 0,
                                   "items": describe_value(s.value)})
            out.append(ev.HandScored(p, s.total, describe_value(s.value), s.chance_zero,
                                     s.mr_monopoly_bonus > 0, self.money[p]))
        self.last_hand.sort(key=lambda d: d["player"])
        best = max(self.money)
        if best >= self.target:
            leaders = tuple(p for p in range(self.n) if self.money[p] == best)
            if len(leaders) == 1 or self.game.options["tie"] == "share":
                self.winners_ = leaders
                self.phase = OVER
                return out + [GameOver(leaders, f"with {money(best)}.")]
        self.dealer = self.left_of(self.dealer)
        self._new_hand()
        return out + [ev.HandStarts(self.hand_number, self.dealer, self.per_player)]

    # --- views -------------------------------------------------------------------------------

    def describe_action(self, action: Action) -> str:
        names = self.game.players
        if isinstance(action, Trade):
            add = f", first adding {self._name(action.add)}" if action.add else ""
            return (f"trade {action.count} with {ev.pile_name(action.pile, names)}{add}")
        if isinstance(action, Exchange):
            return f"exchange with {names[action.other]}"
        if isinstance(action, Discard | PassCard):
            verb = "discard" if isinstance(action, Discard) else "pass"
            return f"{verb} {self._name(action.card)}"
        return str(action)

    def _name(self, card: str) -> str:
        return self.deck.name(card) if card in self.deck.info else card

    def clone(self) -> MonopolyCardState:
        # the game and the deck are immutable and shared; the rest is plain data
        other = copy.copy(self)
        other.money = list(self.money)
        other.hands = [list(h) for h in self.hands]
        other.piles = [list(p) for p in self.piles]
        other.seen = Counter(self.seen)
        other.reward = list(self.reward)
        other.passes = list(self.passes)
        other.shown = {p: list(c) for p, c in self.shown.items()}
        other.last_hand = [dict(d) for d in self.last_hand]
        other.deal_order = list(self.deal_order)
        return other

    def winners(self) -> tuple[int, ...]:
        return self.winners_

    def scores(self) -> list[float]:
        return [float(m) for m in self.money]

    def expected(self) -> str:
        names = self.game.players
        phase = self.phase
        if phase == OVER:
            return "The game is over"
        if phase == DEAL:
            target = self.deal_order[self.dealt]
            whom = names[target] if target < self.n else ev.pile_name(target - self.n, names)
            total = len(self.deal_order)
            return f"Read the next dealt card, for {whom} ({self.dealt + 1} of {total})"
        who = names[self.turn]
        if phase == PASS:
            return f"{names[self._next_passer()]} to pass a card to the left"
        if phase == SHOW:
            return f"{names[self._next_shower()]} to show the hand"
        laid = names[self.laid] if self.laid is not None else ""
        texts = {
            DRAWING: f"Read the card {who} draws",
            TRADE_DRAW: f"Read the top card of the draw pile, taken by {who}",
            REWARD: f"Read {laid}'s reward card {len(self.reward) + 1} of {self.reward_due}",
            TURN: f"{who} to draw, trade or lay down",
            DISCARD: f"{who} to discard {self.due} card{'s' if self.due != 1 else ''}",
            REFILL: f"{who} to put a card out as the new trade card",
            EXCHANGE: f"{who} to exchange trade cards with another player",
            EXCHANGED: f"{who} to lay down or discard the next trade card",
            DOWN: "The player who lays down: down and the cards",
            REWARD_IN: f"{laid} to say the reward cards kept",
        }
        return texts[phase]

    def choices_text(self) -> str:
        # Hands are secret: only the kinds of move are said, never a card.
        texts = {
            TURN: "Draw, trade, or lay down.",
            EXCHANGED: "Lay down, or discard your next trade card.",
            DOWN: "Say down and the cards laid down.",
        }
        return texts.get(self.phase, "")

    def choices_after_move(self) -> str:
        return ""

    def status(self) -> str:
        names = self.game.players
        balances = ", ".join(f"{names[p]} {money(m)}" for p, m in enumerate(self.money))
        return f"Hand {self.hand_number}. {balances}. {self.expected()}."

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "monopoly-card-game",
            "phase": self.phase,
            "deal": str(self.game.options["deal"]),
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "turn": self.current_player() if self.current_player() >= 0 else None,
            "target": self.target,
            "money": list(self.money),
            "draw_pile": self.draw_pile if self.read and not self.big else None,
            "trade_piles": [list(p) for p in self.piles] if self.read else None,
            "hand_sizes": [len(h) for h in self.hands] if self.read else None,
            "hands": [sorted(h) for h in self.hands] if self.read else None,
            "discards_due": self.due,
            "laid_down": self.laid,
            "chances": list(self.plan.chances) if self.plan else [],
            "reward": list(self.reward),
            "passes_made": [c is not None for c in self.passes],
            "shown": {str(p): sorted(c) for p, c in sorted(self.shown.items())},
            "last_hand": list(self.last_hand),
            "winners": list(self.winners_),
        }


_CHANCE = {
    DEAL: MonopolyCardState._dealt,
    DRAWING: MonopolyCardState._drawn,
    TRADE_DRAW: MonopolyCardState._trade_drawn,
    REWARD: MonopolyCardState._reward_drawn,
}

_LEGAL = {
    TURN: MonopolyCardState._legal_turn,
    DISCARD: MonopolyCardState._legal_discard,
    REFILL: MonopolyCardState._legal_discard,
    EXCHANGE: MonopolyCardState._legal_exchange,
    EXCHANGED: MonopolyCardState._legal_exchanged,
    PASS: MonopolyCardState._legal_pass,
    DOWN: MonopolyCardState._legal_down,
    REWARD_IN: MonopolyCardState._legal_reward_in,
    SHOW: MonopolyCardState._legal_show,
}

_APPLY: dict[tuple[str, type[Action]], Any] = {
    (TURN, DrawCard): MonopolyCardState._draw,
    (TURN, Trade): MonopolyCardState._trade,
    (TURN, LayDown): MonopolyCardState._laydown_read,
    (DISCARD, Discard): MonopolyCardState._discard,
    (REFILL, Discard): MonopolyCardState._discard,
    (EXCHANGE, Exchange): MonopolyCardState._exchange,
    (EXCHANGED, Discard): MonopolyCardState._discard,
    (EXCHANGED, LayDown): MonopolyCardState._laydown_read,
    (PASS, PassCard): MonopolyCardState._pass,
    (DOWN, LayDown): MonopolyCardState._laydown_hidden,
    (REWARD_IN, Reward): MonopolyCardState._reward_in,
    (SHOW, ShowHand): MonopolyCardState._show,
}
