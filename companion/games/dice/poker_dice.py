"""Poker Dice (rulebook 000): five dice of 9, 10, J, Q, K, A; one throw and an optional second.

A player throws all five dice, then stands pat or throws one, two or three of them again.
When every player in the hand has thrown, the best hand wins; players tied for best throw off
(a new hand among them only). Two players play the best three hands out of five.

Throws are ``Throw`` outcomes of pips 1..6, read as 1=9, 2=10, 3=J, 4=Q, 5=K, 6=A, so any
die reader or the keyboard's ``roll`` works; ``throw A A K K K`` types faces directly.
"""

from __future__ import annotations

import argparse
import copy
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.engine import (
    CHANCE,
    TERMINAL,
    Action,
    ChanceRequest,
    Event,
    Game,
    GameOver,
    GameSpec,
    IllegalAction,
    Option,
    Priority,
    State,
    Throw,
    TurnPasses,
)
from companion.games import register
from companion.games.dice.poker_hands import (
    CLASSES,
    LABELS,
    Hand,
    HandError,
    class_counts,
    evaluate,
    face_of_pips,
    labels,
    parse_faces,
)

HOUSE_RULES = (
    "Seats are in the order of the opening one-die throw (made at the table). A hand with none"
    " of the rulebook's combinations is 'nothing' and ranks below one pair. Within a class the"
    " ranks of the combination decide (a straight to the ace beats one to the king); odd dice"
    " never count. A throw-off is a new hand among the tied players, with the same one or two"
    " throws. In a two-player match every hand is led by the same player."
)


@dataclass(frozen=True)
class Stand(Action):
    """Stand pat: keep the five dice as thrown."""

    player: int

    def __str__(self) -> str:
        return "stand"


@dataclass(frozen=True)
class Redraw(Action):
    """Throw these dice (ranks 9..14, one to three of them) again."""

    player: int
    dice: tuple[int, ...]

    def __str__(self) -> str:
        return "redraw " + labels(self.dice)


@dataclass(frozen=True)
class HandThrown(Event):
    player: int
    dice: tuple[int, ...]
    hand: str  # Hand.describe()
    final: bool
    key: ClassVar[str] = "poker_dice.thrown"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} has {labels(self.dice)}: {self.hand}."


@dataclass(frozen=True)
class Stood(Event):
    player: int
    dice: tuple[int, ...]
    hand: str  # Hand.describe()
    key: ClassVar[str] = "poker_dice.stood"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} stands on {labels(self.dice)}: {self.hand}."


@dataclass(frozen=True)
class Redrawing(Event):
    player: int
    dice: tuple[int, ...]
    key: ClassVar[str] = "poker_dice.redraw"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} throws {labels(self.dice)} again."


@dataclass(frozen=True)
class HandWon(Event):
    player: int
    hand: str
    tally: tuple[int, ...]  # hands won per seat so far
    key: ClassVar[str] = "poker_dice.hand_won"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} wins the hand with {self.hand}."


@dataclass(frozen=True)
class ThrowOff(Event):
    players: tuple[int, ...]
    hand: str
    key: ClassVar[str] = "poker_dice.throw_off"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        who = " and ".join(names[p] for p in self.players)
        return f"{who} tie with {self.hand}: they throw off."


@register
class PokerDice(Game):
    spec = GameSpec(
        name="poker-dice",
        title="Poker Dice",
        min_players=2,
        max_players=10,
        inputs=("dice",),
        rulebook="000: Poker Dice",
        aliases=("pokerdice", "poker dice"),
        options=(
            Option("aces_wild", False, "aces are wild (the rulebook's option)"),
            Option("match", "auto",
                   "auto: best three of five hands for two players, one hand for more;"
                   " single: one hand; best-of-five", ("auto", "single", "best-of-five")),
        ),
        house_rules=HOUSE_RULES,
    )
    action_types = {"Stand": Stand, "Redraw": Redraw}
    tools = {"count": "companion.games.dice.poker_dice:count_main"}

    def new_state(self) -> PokerDiceState:
        return PokerDiceState(self)

    def hands_to_win(self) -> int:
        match = self.options["match"]
        if match == "best-of-five" or (match == "auto" and len(self.players) == 2):
            return 3
        return 1

    def max_length(self) -> int:
        # Ties are finite only in probability: bound generously (3 actions per player-hand).
        return 3 * len(self.players) * 400

    def command_help(self) -> str:
        return (
            "  roll A A K K K    the dice thrown, as faces or as pips (roll 6 6 5 5 5:\n"
            "                    1=9 2=10 3=J 4=Q 5=K 6=A)\n"
            "  stand             keep the hand (or: keep all)\n"
            "  keep A A K        keep those dice and throw the others again (two or more)\n"
            "  redraw 9 J        throw those one to three dice again\n"
            "  hand              name the hand on the table"
        )

    def parse_action(self, state: State, text: str) -> Action:
        assert isinstance(state, PokerDiceState)
        words = text.split()
        verb = words[0].lower() if words else ""
        try:
            if verb in {"stand", "pat", "stay"}:
                return Stand(state.turn)
            if verb in {"redraw", "draw", "again", "rethrow", "reroll"}:
                return Redraw(state.turn, tuple(sorted(parse_faces(words[1:]))))
            if verb in {"keep", "hold"}:
                return _keep(state, words[1:])
            if verb in {"throw", "dice", "faces"}:
                faces = parse_faces(words[1:])
                return Throw(tuple(f - 8 for f in faces))
        except HandError as err:
            raise IllegalAction(str(err)) from None
        return super().parse_action(state, text)

    def throw_values(self, words: Sequence[str]) -> tuple[int, ...] | None:
        try:
            return tuple(face - 8 for face in parse_faces(words))
        except HandError as err:
            raise IllegalAction(str(err)) from None

    def query(self, state: State, text: str) -> str | None:
        assert isinstance(state, PokerDiceState)
        if text.strip().lower() in {"hand", "hands"}:
            if len(state.dice) == 5:
                return f"{labels(state.dice)}: {state.hand_of(state.dice).describe()}."
            return "No hand on the table."
        return None


def _keep(state: PokerDiceState, words: list[str]) -> Action:
    """"keep A A K": the Dice game's word; the other dice are thrown again."""
    if state.phase != "decide":
        return Redraw(state.turn, ())  # the rules say why not now
    if [w.lower() for w in words] in (["all"], ["them"], ["everything"]):
        return Stand(state.turn)
    kept = parse_faces(words)
    if not kept:
        raise IllegalAction("Say which dice to keep, like: keep A A K.")
    missing = Counter(kept) - Counter(state.dice)
    if missing:
        raise IllegalAction(f"There is no {labels(sorted(missing.elements()))} to keep: the"
                            f" dice are {labels(state.dice)}.")
    if len(kept) == 5:
        return Stand(state.turn)
    if len(kept) < 2:
        raise IllegalAction("Keep two dice or more: one to three are thrown again.")
    rest = Counter(state.dice) - Counter(kept)
    return Redraw(state.turn, tuple(sorted(rest.elements())))


class PokerDiceState(State):
    game: PokerDice

    def __init__(self, game: PokerDice) -> None:
        self.game = game
        n = len(game.players)
        self.in_hand: list[int] = list(range(n))  # who throws in this hand (tied after a tie)
        self.order_pos = 0
        self.turn = 0
        self.dice: tuple[int, ...] = ()  # ranks 9..14 on the table
        self.redraw: tuple[int, ...] = ()  # dice being thrown again
        self.phase = "throw"  # throw | decide | redraw | over
        self.results: dict[int, tuple[int, ...]] = {}  # final dice of this hand, per seat
        self.tally = [0] * n
        self.hands_played = 0

    def hand_of(self, dice: Sequence[int]) -> Hand:
        return evaluate(dice, bool(self.game.options["aces_wild"]))

    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        return self.turn if self.phase == "decide" else CHANCE

    def chance(self) -> ChanceRequest | None:
        if self.phase == "throw":
            return ChanceRequest(kind="dice", count=5, who=self.turn)
        if self.phase == "redraw":
            return ChanceRequest(kind="dice", count=len(self.redraw), who=self.turn)
        return None

    def legal_actions(self) -> list[Action]:
        if self.phase != "decide":
            return []
        actions: list[Action] = [Stand(self.turn)]
        seen: set[tuple[int, ...]] = set()
        dice = self.dice
        for mask in range(1, 32):
            picked = tuple(sorted(dice[i] for i in range(5) if mask >> i & 1))
            if len(picked) <= 3 and picked not in seen:
                seen.add(picked)
                actions.append(Redraw(self.turn, picked))
        return actions

    def apply(self, action: Action) -> list[Event]:
        if self.phase == "over":
            raise IllegalAction("The game is over.")
        if isinstance(action, Throw):
            request = self.chance()
            if request is None:
                raise IllegalAction(
                    f"No throw is expected now: {self.game.players[self.turn]} stands or"
                    " throws one to three dice again.")
            request.check(action)
            faces = tuple(face_of_pips(v) for v in action.values)
            if self.phase == "throw":
                self.dice = tuple(sorted(faces))
                self.phase = "decide"
                return [HandThrown(self.turn, self.dice, self.hand_of(self.dice).describe(),
                                   False)]
            kept = Counter(self.dice)
            kept.subtract(self.redraw)
            self.dice = tuple(sorted(list(kept.elements()) + list(faces)))
            return self._finish_player()
        if not isinstance(action, Stand | Redraw):
            raise IllegalAction(f"{action} means nothing in Poker Dice.")
        if self.phase != "decide":
            raise IllegalAction(f"{self.game.players[self.turn]} must throw first.")
        if action.player != self.turn:
            raise IllegalAction(f"It is {self.game.players[self.turn]}'s turn.")
        if isinstance(action, Stand):
            stood = Stood(self.turn, self.dice, self.hand_of(self.dice).describe())
            return [stood, *self._finish_player()]
        if not 1 <= len(action.dice) <= 3:
            raise IllegalAction("Throw one, two or three dice again, or stand.")
        missing = Counter(action.dice) - Counter(self.dice)
        if missing:
            raise IllegalAction(
                f"There is no {labels(sorted(missing.elements()))} to throw again:"
                f" the dice are {labels(self.dice)}.")
        self.redraw = tuple(sorted(action.dice))
        self.phase = "redraw"
        return [Redrawing(self.turn, self.redraw)]

    def _finish_player(self) -> list[Event]:
        events: list[Event] = []
        if self.phase == "redraw":
            events.append(HandThrown(self.turn, self.dice,
                                     self.hand_of(self.dice).describe(), True))
        self.results[self.turn] = self.dice
        self.dice, self.redraw = (), ()
        self.order_pos += 1
        if self.order_pos < len(self.in_hand):
            self.turn = self.in_hand[self.order_pos]
            self.phase = "throw"
            return [*events, TurnPasses(self.turn)]
        return events + self._resolve()

    def _resolve(self) -> list[Event]:
        hands = {p: self.hand_of(d) for p, d in self.results.items()}
        best = max(hands.values())
        top = [p for p in self.in_hand if hands[p] == best]
        self.results = {}
        self.order_pos = 0
        self.phase = "throw"
        if len(top) > 1:
            self.in_hand = top
            self.turn = top[0]
            return [ThrowOff(tuple(top), best.describe()), TurnPasses(self.turn)]
        winner = top[0]
        self.tally[winner] += 1
        self.hands_played += 1
        events: list[Event] = [HandWon(winner, best.describe(), tuple(self.tally))]
        if self.tally[winner] >= self.game.hands_to_win():
            self.phase = "over"
            detail = ""
            if self.game.hands_to_win() > 1:
                detail = "Hands won: " + ", ".join(
                    f"{n} {t}" for n, t in zip(self.game.players, self.tally, strict=True)) + "."
            return [*events, GameOver((winner,), detail)]
        self.in_hand = list(range(len(self.game.players)))
        self.turn = 0
        return [*events, TurnPasses(self.turn)]

    def winners(self) -> tuple[int, ...]:
        if self.phase != "over":
            return ()
        return (max(range(len(self.tally)), key=lambda p: self.tally[p]),)

    def scores(self) -> list[float]:
        return [float(t) for t in self.tally]

    def describe_action(self, action: Action) -> str:
        if isinstance(action, Redraw):
            return "throw " + labels(action.dice) + " again"
        return str(action)

    def choices_text(self) -> str:
        if self.phase != "decide":
            return ""
        return (f"{labels(self.dice)} is {self.hand_of(self.dice).describe()}: stand, or"
                " throw one, two or three of the dice again (redraw 9 J).")

    def status(self) -> str:
        tally = ", ".join(f"{n} {t}" for n, t in zip(self.game.players, self.tally, strict=True))
        return f"{self.expected()}. Hands won: {tally}."

    def clone(self) -> PokerDiceState:
        return copy.deepcopy(self)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game.spec.name,
            "players": list(self.game.players),
            "options": dict(self.game.options),
            "phase": self.phase,
            "turn": self.turn,
            "in_hand": list(self.in_hand),
            "dice": [LABELS[d] for d in self.dice],
            "hand": self.hand_of(self.dice).describe() if len(self.dice) == 5 else None,
            "redraw": [LABELS[d] for d in self.redraw],
            "thrown": {str(p): [LABELS[d] for d in dice]
                       for p, dice in sorted(self.results.items())},
            "hands_won": list(self.tally),
            "hands_to_win": self.game.hands_to_win(),
            "winners": list(self.winners()),
        }




def count_main(argv: list[str]) -> int:
    """``companion count poker-dice A A K K K [--wild] [--json]``, or ``--table``."""
    parser = argparse.ArgumentParser(prog="companion count poker-dice",
                                     description="Name a poker dice hand, or count all 7,776.")
    parser.add_argument("dice", nargs="*", help="five faces: 9 10 J Q K A")
    parser.add_argument("--wild", action="store_true", help="aces wild")
    parser.add_argument("--table", action="store_true",
                        help="count every hand class over all 7,776 throws")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.table:
        counts = class_counts(args.wild)
        if args.json:
            print(json.dumps({"aces_wild": args.wild, "throws": 6**5, "counts": counts}))
        else:
            for name in reversed(CLASSES):
                print(f"  {name:<16} {counts[name]:>5}")
            print(f"  {'total':<16} {sum(counts.values()):>5}")
        return 0
    try:
        dice = parse_faces(args.dice)
        hand = evaluate(dice, args.wild)
    except HandError as err:
        print(f"companion count poker-dice: {err}")
        return 2
    if args.json:
        print(json.dumps({"dice": [LABELS[d] for d in dice], "aces_wild": args.wild,
                          "class": hand.name, "rank": hand.rank,
                          "key": [LABELS[k] for k in hand.key], "hand": hand.describe()}))
    else:
        print(f"{labels(dice)}: {hand.describe()}")
    return 0
