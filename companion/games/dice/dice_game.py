"""The Dice game (rulebook 002): five dice, a score form of 13 boxes, up to three throws a turn.

A turn: a throw of five dice (a chance outcome), then the player either keeps some dice and
throws the rest (``Keep``, at most twice) or closes a box: ``Fill`` it with what the dice score,
or ``Cross`` it out. A box the dice do not qualify for cannot be filled, only crossed out; with
nothing to fill after the third throw the player *must* cross out a box (rulebook example
2-3-3-3-4). The game ends when every form is full; the highest total wins.

``hint`` (a question, see ``query``) names the keep or box that maximises the expected final
score under these rules, from the optimal solitaire strategy in ``optimal``.
"""

from __future__ import annotations

import argparse
import copy
import itertools
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
    sentence,
)
from companion.games import register
from companion.games.dice.boxes import (
    BOXES,
    KINDS_READINGS,
    SPOKEN,
    UPPER,
    UPPER_BONUS,
    UPPER_BONUS_AT,
    BoxError,
    all_scores,
    parse_box,
    parse_dice,
    score,
    totals,
)
from companion.observations import DiceSeen, Observation

THROWS_PER_TURN = 3

HOUSE_RULES = (
    "Three of a kind is exactly three equal dice and four of a kind exactly four, as the"
    " rulebook words them (option kinds=at-least: the Yahtzee reading, more also counts)."
    " Five of a kind is not a full house; a large straight also counts as a small one."
    " No five-of-a-kind bonus and no joker (the rulebook has none). A box can be filled only"
    " when the dice score in it; otherwise it is crossed out (worth 0)."
)


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Keep(Action):
    """Set these dice apart and throw the others."""

    player: int
    dice: tuple[int, ...]

    def __str__(self) -> str:
        return "keep " + (" ".join(map(str, self.dice)) if self.dice else "none")


@dataclass(frozen=True)
class Fill(Action):
    """Fill a box with what the dice on the table score in it."""

    player: int
    box: str

    def __str__(self) -> str:
        return f"fill {self.box}"


@dataclass(frozen=True)
class Cross(Action):
    """Cross out an open box (it scores nothing and stays crossed)."""

    player: int
    box: str

    def __str__(self) -> str:
        return f"cross {self.box}"


# --------------------------------------------------------------------------- events


DICE_WORDS = {1: "one die", 2: "two dice", 3: "three dice", 4: "four dice", 5: "five dice"}


def dice_words(dice: Sequence[int]) -> str:
    return " ".join(str(d) for d in dice)


@dataclass(frozen=True)
class Thrown(Event):
    player: int
    dice: tuple[int, ...]  # all five dice on the table
    throw: int  # 1, 2 or 3
    key: ClassVar[str] = "dice.thrown"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} has {dice_words(self.dice)}."


@dataclass(frozen=True)
class Kept(Event):
    player: int
    dice: tuple[int, ...]
    throwing: int
    key: ClassVar[str] = "dice.kept"

    def describe(self, names: Sequence[str]) -> str:
        kept = f"keeps {dice_words(self.dice)}" if self.dice else "keeps nothing"
        return f"{names[self.player]} {kept} and throws {self.throwing}."


@dataclass(frozen=True)
class Filled(Event):
    player: int
    box: str
    points: int
    total: int
    key: ClassVar[str] = "dice.filled"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return (f"{names[self.player]} fills {SPOKEN[self.box]} with {self.points}:"
                f" total {self.total}.")


@dataclass(frozen=True)
class Crossed(Event):
    player: int
    box: str
    key: ClassVar[str] = "dice.crossed"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} crosses out {SPOKEN[self.box]}."


@dataclass(frozen=True)
class BonusEarned(Event):
    player: int
    upper: int
    key: ClassVar[str] = "dice.bonus"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return (f"{names[self.player]} has {self.upper} in the top half: a bonus of"
                f" {UPPER_BONUS}.")


# --------------------------------------------------------------------------- game


@register
class DiceGame(Game):
    spec = GameSpec(
        name="dice",
        title="Dice",
        min_players=1,
        max_players=8,
        inputs=("dice",),
        rulebook="002: Dice (the five-dice score-form game)",
        aliases=("dice-game", "five-dice", "score-form"),
        options=(
            Option("kinds", "exactly",
                   "three/four of a kind: exactly (rulebook wording) or at-least (Yahtzee)",
                   KINDS_READINGS),
        ),
        house_rules=HOUSE_RULES,
    )
    action_types = {"Keep": Keep, "Fill": Fill, "Cross": Cross}
    tools = {
        "count": "companion.games.dice.dice_game:count_main",
        "advise": "companion.games.dice.dice_game:advise_main",
    }

    def new_state(self) -> DiceState:
        return DiceState(self)

    def max_length(self) -> int:
        # Per player and box: 3 throws, 2 keeps and the fill or cross.
        return len(self.players) * len(BOXES) * 6

    def command_help(self) -> str:
        return (
            "  keep 3 3 3        set those dice apart and throw the rest (keep none: all)\n"
            "  fill BOX          fill a box (full house, 3k, sixes, chance, ...)\n"
            "  cross BOX         cross a box out\n"
            "  scores            every box the dice on the table would score\n"
            "  form [NAME]       a score form\n"
            "  hint              the best keep or box (optimal solitaire strategy)"
        )

    def parse_action(self, state: State, text: str) -> Action:
        assert isinstance(state, DiceState)
        words = text.lower().replace(",", " ").split()
        if not words:
            raise IllegalAction("Say keep, fill or cross.")
        verb, rest = words[0], words[1:]
        player = state.turn
        try:
            if verb in {"keep", "hold"}:
                if rest in ([], ["none"], ["nothing"]):
                    return Keep(player, ())
                return Keep(player, tuple(sorted(parse_dice(rest))))
            if verb in {"reroll", "rethrow"} and not rest:
                return Keep(player, ())
            if verb in {"cross", "scratch", "strike"}:
                if rest[:1] == ["out"]:
                    rest = rest[1:]
                return Cross(player, parse_box(" ".join(rest)))
            if verb in {"fill", "score", "take"}:
                return Fill(player, parse_box(" ".join(rest)))
            return Fill(player, parse_box(text))
        except BoxError as err:
            raise IllegalAction(str(err)) from None

    def query(self, state: State, text: str) -> str | None:
        assert isinstance(state, DiceState)
        words = text.lower().split()
        if not words:
            return None
        if words[0] in {"hint", "advise", "best"}:
            return state.hint()
        if words[0] in {"scores", "count"}:
            return state.scores_text()
        if words[0] == "form":
            who = state.turn
            if len(words) > 1:
                low = [p.lower() for p in self.players]
                if words[1] not in low:
                    return f"No player called {words[1]}."
                who = low.index(words[1])
            return state.form_text(who)
        return None

    def dice_in_view(self, state: State) -> tuple[int, ...]:
        # the kept dice may stay on the table, in the camera's view, or be set apart
        counts = super().dice_in_view(state)
        assert isinstance(state, DiceState)
        return (*counts, 5) if counts and state.kept and 5 not in counts else counts

    def interpret(self, state: State, observation: Observation) -> Action:
        # A camera sees all five dice after a throw: the kept ones are taken off.
        request = state.chance()
        assert isinstance(state, DiceState)
        if (isinstance(observation, DiceSeen) and request is not None and request.kind == "dice"
                and state.kept and len(observation.values) == 5):
            rest = Counter(observation.values)
            rest.subtract(state.kept)
            if all(v >= 0 for v in rest.values()):
                action = Throw(tuple(sorted(rest.elements())))
                request.check(action)
                return action
        return super().interpret(state, observation)


class DiceState(State):
    game: DiceGame

    def __init__(self, game: DiceGame) -> None:
        self.game = game
        n = len(game.players)
        self.turn = 0
        self.throws = 0  # throws made this turn
        self.dice: tuple[int, ...] = ()  # the five dice on the table after a throw
        self.kept: tuple[int, ...] = ()  # dice set apart, waiting for the next throw
        self.awaiting_throw = True
        self.filled: list[dict[str, int]] = [{} for _ in range(n)]
        self.crossed: list[set[str]] = [set() for _ in range(n)]
        self.over = False

    # --- queries ----------------------------------------------------------------

    @property
    def kinds(self) -> str:
        return str(self.game.options["kinds"])

    def open_boxes(self, player: int) -> list[str]:
        return [b for b in BOXES if b not in self.filled[player] and b not in self.crossed[player]]

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return CHANCE if self.awaiting_throw else self.turn

    def chance(self) -> ChanceRequest | None:
        if self.over or not self.awaiting_throw:
            return None
        return ChanceRequest(kind="dice", count=5 - len(self.kept), who=self.turn)

    def throws_left(self) -> int:
        return THROWS_PER_TURN - self.throws

    def box_scores(self) -> dict[str, int]:
        """What each open box of the player to move would score with the dice on the table."""
        return {b: score(b, self.dice, self.kinds) for b in self.open_boxes(self.turn)}

    def _choices(self) -> tuple[tuple[str, int], ...]:
        scores = [(b, p) for b, p in self.box_scores().items() if p > 0]
        scores.sort(key=lambda bp: (-bp[1], BOXES.index(bp[0])))
        return tuple(scores)

    def legal_actions(self) -> list[Action]:
        if self.current_player() < 0:
            return []
        p = self.turn
        actions: list[Action] = []
        if self.throws < THROWS_PER_TURN:
            counts = Counter(self.dice)
            faces = sorted(counts)
            for pick in itertools.product(*(range(counts[f] + 1) for f in faces)):
                if sum(pick) < 5:
                    kept = tuple(f for f, c in zip(faces, pick, strict=True) for _ in range(c))
                    actions.append(Keep(p, kept))
        actions += [Fill(p, b) for b, _ in self._choices()]
        actions += [Cross(p, b) for b in self.open_boxes(p)]
        return actions

    def upper_total(self, player: int) -> int:
        return sum(v for k, v in self.filled[player].items() if k in UPPER)

    def total(self, player: int) -> int:
        return totals(self.filled[player]).total

    def scores(self) -> list[float]:
        return [float(self.total(p)) for p in range(len(self.game.players))]

    def winners(self) -> tuple[int, ...]:
        if not self.over:
            return ()
        best = max(self.scores())
        return tuple(p for p, s in enumerate(self.scores()) if s == best)

    # --- apply ------------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        if self.over:
            raise IllegalAction("The game is over.")
        if isinstance(action, Throw):
            request = self.chance()
            if request is None:
                raise IllegalAction(
                    f"No throw is expected now: {self.game.players[self.turn]} keeps dice,"
                    " fills or crosses out a box."
                )
            request.check(action)
            return self._throw(action.values)
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction(f"{action} means nothing in Dice")
        player = getattr(action, "player", None)
        if player != self.turn:
            raise IllegalAction(f"It is {self.game.players[self.turn]}'s turn, not theirs.")
        if self.awaiting_throw:
            raise IllegalAction(f"Throw {DICE_WORDS[5 - len(self.kept)]} first.")
        return handler(self, action)

    def _throw(self, values: tuple[int, ...]) -> list[Event]:
        self.dice = tuple(self.kept) + tuple(values)
        self.kept = ()
        self.throws += 1
        self.awaiting_throw = False
        # What the open boxes would score is said by the session from choices_text().
        return [Thrown(self.turn, self.dice, self.throws)]

    def _keep(self, action: Keep) -> list[Event]:
        if self.throws >= THROWS_PER_TURN:
            raise IllegalAction("That was the third throw: fill or cross out a box.")
        if len(action.dice) >= 5:
            raise IllegalAction("Keeping all five dice throws nothing: fill or cross out a box.")
        missing = Counter(action.dice) - Counter(self.dice)
        if missing:
            raise IllegalAction(
                f"You cannot keep {dice_words(sorted(missing.elements()))}: the dice are"
                f" {dice_words(self.dice)}."
            )
        self.kept = tuple(action.dice)
        self.dice = ()
        self.awaiting_throw = True
        return [Kept(self.turn, self.kept, 5 - len(self.kept))]

    def _check_open(self, box: str) -> None:
        if box not in BOXES:
            raise IllegalAction(f"{box} is not a box on the score form.")
        if box in self.crossed[self.turn]:
            raise IllegalAction(f"{SPOKEN[box].capitalize()} is crossed out and stays crossed.")
        if box in self.filled[self.turn]:
            raise IllegalAction(f"{SPOKEN[box].capitalize()} is already filled.")

    def _fill(self, action: Fill) -> list[Event]:
        self._check_open(action.box)
        points = score(action.box, self.dice, self.kinds)
        if points == 0:
            raise IllegalAction(
                f"{dice_words(self.dice)} scores nothing in {SPOKEN[action.box]}:"
                " cross a box out instead."
            )
        p = self.turn
        before = self.upper_total(p)
        self.filled[p][action.box] = points
        events: list[Event] = [Filled(p, action.box, points, self.total(p))]
        after = self.upper_total(p)
        if before < UPPER_BONUS_AT <= after:
            events.append(BonusEarned(p, after))
        return events + self._end_turn()

    def _cross(self, action: Cross) -> list[Event]:
        self._check_open(action.box)
        self.crossed[self.turn].add(action.box)
        return [Crossed(self.turn, action.box), *self._end_turn()]

    def _end_turn(self) -> list[Event]:
        self.dice, self.kept, self.throws = (), (), 0
        self.awaiting_throw = True
        n = len(self.game.players)
        if all(not self.open_boxes(p) for p in range(n)):
            self.over = True
            self.awaiting_throw = False
            totals_text = ", ".join(
                f"{self.game.players[p]} {self.total(p)}" for p in range(n))
            return [GameOver(self.winners(), f"Totals: {totals_text}.")]
        self.turn = (self.turn + 1) % n
        return [TurnPasses(self.turn)]

    # --- words ------------------------------------------------------------------

    def describe_action(self, action: Action) -> str:
        if isinstance(action, Keep):
            return "keep " + (dice_words(action.dice) if action.dice else "nothing")
        if isinstance(action, Fill):
            return f"{SPOKEN[action.box]} for {score(action.box, self.dice, self.kinds)}"
        if isinstance(action, Cross):
            return f"cross out {SPOKEN[action.box]}"
        return str(action)

    def choices_after_move(self) -> str:
        """After a throw, the three open boxes that score best (docs/games/dice.md); the
        whole list waits for ``options`` and ``scores``."""
        if self.current_player() < 0 or not self.dice:
            return ""
        best = [f"{SPOKEN[b]} for {p}" for b, p in self._choices()[:3]]
        if not best:
            return ("Nothing scores: cross out a box." if self.throws >= THROWS_PER_TURN
                    else "Nothing scores yet.")
        return sentence("Best open boxes: " + ", ".join(best))

    def prompt(self) -> str:
        # the narrator says this when the choices are too many to list (a throw's keeps)
        return self.choices_after_move()

    def choices_text(self) -> str:
        if self.current_player() < 0:
            return ""
        fills = [f"{SPOKEN[b]} for {p}" for b, p in self._choices()]
        parts = []
        if fills:
            parts.append("Fill " + ", ".join(fills))
        else:
            parts.append("Nothing scores")
        if self.throws < THROWS_PER_TURN:
            parts.append(f"keep dice and throw again ({self.throws_left()} left)")
        parts.append("cross out a box")
        return "; ".join(parts) + "."

    def scores_text(self) -> str:
        if not self.dice:
            return "No dice on the table yet."
        return "; ".join(f"{SPOKEN[b]} {p}" for b, p in self.box_scores().items()) + "."

    def form_text(self, player: int) -> str:
        parts = []
        for box in BOXES:
            if box in self.filled[player]:
                parts.append(f"{SPOKEN[box]} {self.filled[player][box]}")
            elif box in self.crossed[player]:
                parts.append(f"{SPOKEN[box]} crossed")
        t = totals(self.filled[player])
        body = "; ".join(parts) if parts else "nothing filled yet"
        return (f"{self.game.players[player]}: {body}. Top half {t.upper}, bonus {t.bonus},"
                f" total {t.total}.")

    def hint(self) -> str:
        if self.over:
            return "The game is over."
        if self.awaiting_throw:
            return f"Throw {5 - len(self.kept)} dice first."
        from companion.games.dice.optimal import advise

        p = self.turn
        closed = set(self.filled[p]) | self.crossed[p]
        advice = advise(closed, self.upper_total(p), self.dice, self.throws_left(), self.kinds)
        crossing = advice.box is not None and score(advice.box, self.dice, self.kinds) == 0
        return "Best: " + advice.describe(self.total(p), crossing) + "."

    def status(self) -> str:
        if self.over:
            return "The game is over. " + " ".join(
                self.form_text(p) for p in range(len(self.game.players)))
        names = self.game.players
        round_no = len(BOXES) - len(self.open_boxes(self.turn)) + 1
        if len(names) == 1:
            return f"Round {round_no}. {self.expected()}. {names[0]} has {self.total(0)}."
        totals = ", ".join(f"{names[p]} {self.total(p)}" for p in range(len(names)))
        return f"Round {round_no}. {self.expected()}. Totals: {totals}."

    def expected(self) -> str:
        if not self.over and not self.awaiting_throw:
            who = self.game.players[self.turn]
            if self.throws < THROWS_PER_TURN:
                return f"{who} to keep dice, fill or cross out a box"
            return f"{who} to fill or cross out a box"
        return super().expected()

    def clone(self) -> DiceState:
        return copy.deepcopy(self)

    def to_json(self) -> dict[str, Any]:
        n = len(self.game.players)
        return {
            "game": self.game.spec.name,
            "players": list(self.game.players),
            "options": dict(self.game.options),
            "turn": self.turn,
            "throws": self.throws,
            "dice": list(self.dice),
            "kept": list(self.kept),
            "awaiting_throw": self.awaiting_throw,
            "forms": [
                {
                    "filled": {b: self.filled[p][b] for b in BOXES if b in self.filled[p]},
                    "crossed": [b for b in BOXES if b in self.crossed[p]],
                    "upper": totals(self.filled[p]).upper,
                    "bonus": totals(self.filled[p]).bonus,
                    "total": self.total(p),
                }
                for p in range(n)
            ],
            "over": self.over,
            "winners": list(self.winners()),
        }


_HANDLERS: dict[type[Action], Any] = {
    Keep: DiceState._keep,
    Fill: DiceState._fill,
    Cross: DiceState._cross,
}


# --------------------------------------------------------------------------- CLI tools


def count_main(argv: list[str]) -> int:
    """``companion count dice 2 3 3 3 4 [--json] [--kinds at-least]``: every box's score."""
    parser = argparse.ArgumentParser(prog="companion count dice",
                                     description="What five dice score in every box.")
    parser.add_argument("dice", nargs="+", help="five values 1..6 (2 3 3 3 4 or 23334)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--kinds", choices=KINDS_READINGS, default="exactly")
    args = parser.parse_args(argv)
    try:
        dice = parse_dice(args.dice)
        if len(dice) != 5:
            raise BoxError(f"five dice are needed, not {len(dice)}")
    except BoxError as err:
        print(f"companion count dice: {err}")
        return 2
    scores = all_scores(dice, args.kinds)
    if args.json:
        print(json.dumps({"dice": list(dice), "kinds": args.kinds, "scores": scores}))
    else:
        print(f"dice {dice_words(dice)}")
        for box in BOXES:
            print(f"  {SPOKEN[box]:<16} {scores[box]:>3}")
    return 0


def advise_main(argv: list[str]) -> int:
    """``companion advise dice 2 3 3 3 4 --throws-left 1 --closed twos,chance --upper 6``."""
    parser = argparse.ArgumentParser(prog="companion advise dice",
                                     description="The optimal keep or box for a position.")
    parser.add_argument("dice", nargs="*", help="five values 1..6 (none: the game's value)")
    parser.add_argument("--throws-left", type=int, default=2, choices=(0, 1, 2))
    parser.add_argument("--closed", default="", help="boxes already filled or crossed, a,b,c")
    parser.add_argument("--upper", type=int, default=0, help="the top-half subtotal so far")
    parser.add_argument("--kinds", choices=KINDS_READINGS, default="exactly")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    from companion.games.dice.optimal import advise, table

    e = table(args.kinds)
    if not args.dice:
        value = float(e[0, 0])
        if args.json:
            print(json.dumps({"kinds": args.kinds, "expected_score": round(value, 4)}))
        else:
            print(f"optimal expected score ({args.kinds}): {value:.2f}")
        return 0
    try:
        dice = parse_dice(args.dice)
        if len(dice) != 5:
            raise BoxError(f"five dice are needed, not {len(dice)}")
        closed = {parse_box(b) for b in args.closed.split(",") if b.strip()}
    except BoxError as err:
        print(f"companion advise dice: {err}")
        return 2
    if len(closed) == len(BOXES):
        print("companion advise dice: every box is closed")
        return 2
    advice = advise(closed, args.upper, dice, args.throws_left, args.kinds, e)
    if args.json:
        print(json.dumps({"dice": list(dice), "keep": None if advice.keep is None
                          else list(advice.keep), "box": advice.box,
                          "expected_future": round(advice.expected, 4)}))
    else:
        crossing = advice.box is not None and score(advice.box, dice, args.kinds) == 0
        print(advice.describe(0, crossing, "score still to come"))
    return 0
