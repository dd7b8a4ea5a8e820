"""A tiny registered game for testing the core: throw one die, or 'bank' your pot.

Each player has a pot and a bank. A throw adds to the pot (a 1 empties it and passes the turn);
'bank' moves the pot to the bank and passes the turn. First bank to reach the target wins.
"""

from __future__ import annotations

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
from companion.games import REGISTRY


@dataclass(frozen=True)
class Bank(Action):
    player: int

    def __str__(self) -> str:
        return "bank"


@dataclass(frozen=True)
class Roll(Action):
    """Decide to throw (the throw itself is the chance outcome that follows)."""

    player: int

    def __str__(self) -> str:
        return "throw"


@dataclass(frozen=True)
class Thrown(Event):
    player: int
    value: int
    pot: int
    key: ClassVar[str] = "toy_thrown"

    def describe(self, names: Sequence[str]) -> str:
        if self.value == 1:
            return f"{names[self.player]} throws one and loses the pot."
        return f"{names[self.player]} throws {self.value}: pot {self.pot}."


@dataclass(frozen=True)
class Banked(Event):
    player: int
    total: int
    key: ClassVar[str] = "toy_banked"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} banks, {self.total} in all."


class ToyGame(Game):
    spec = GameSpec(
        name="toy", title="Toy Pig", min_players=1, max_players=4, inputs=("dice",),
        rulebook="tests only", aliases=("pig-test",),
        options=(Option("target", 20, "bank total that wins"),),
    )
    action_types = {"Bank": Bank, "Roll": Roll}

    def new_state(self) -> ToyState:
        return ToyState(self)

    def max_length(self) -> int:
        return 100_000

    def parse_action(self, state: State, text: str) -> Action:
        word = text.strip().lower()
        player = state.current_player()
        if word == "bank":
            return Bank(player)
        if word in {"go", "throw"}:
            return Roll(player)
        return super().parse_action(state, text)


class ToyState(State):
    def __init__(self, game: ToyGame) -> None:
        self.game = game
        self.turn = 0
        self.pot = 0
        self.banks = [0] * len(game.players)
        self.throwing = False
        self.winner: int | None = None

    def current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        return CHANCE if self.throwing else self.turn

    def chance(self) -> ChanceRequest | None:
        if self.throwing and self.winner is None:
            return ChanceRequest("dice", 1, who=self.turn)
        return None

    def legal_actions(self) -> list[Action]:
        if self.current_player() < 0:
            return []
        return [Roll(self.turn), Bank(self.turn)]

    def apply(self, action: Action) -> list[Event]:
        if self.winner is not None:
            raise IllegalAction("The game is over")
        if isinstance(action, Throw):
            request = self.chance()
            if request is None:
                raise IllegalAction("No throw is expected now")
            request.check(action)
            value = action.values[0]
            self.throwing = False
            if value == 1:
                self.pot = 0
                events: list[Event] = [Thrown(self.turn, 1, 0)]
                return events + self._pass()
            self.pot += value
            return [Thrown(self.turn, value, self.pot)]
        if not isinstance(action, Bank | Roll):
            raise IllegalAction(f"{action} is not a move in this game")
        if self.throwing:
            raise IllegalAction("Throw the die first")
        if action.player != self.turn:
            raise IllegalAction(f"It is {self.game.players[self.turn]}'s turn")
        if isinstance(action, Roll):
            self.throwing = True
            return []
        self.banks[self.turn] += self.pot
        self.pot = 0
        banked: list[Event] = [Banked(self.turn, self.banks[self.turn])]
        if self.banks[self.turn] >= self.game.options["target"]:
            self.winner = self.turn
            return banked + [GameOver((self.turn,))]
        return banked + self._pass()

    def _pass(self) -> list[Event]:
        self.turn = (self.turn + 1) % len(self.game.players)
        return [TurnPasses(self.turn)]

    def clone(self) -> ToyState:
        other = ToyState.__new__(ToyState)
        other.__dict__.update(self.__dict__)
        other.banks = list(self.banks)
        return other

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "pot": self.pot, "banks": list(self.banks),
                "throwing": self.throwing, "winner": self.winner}

    def winners(self) -> tuple[int, ...]:
        return () if self.winner is None else (self.winner,)

    def scores(self) -> list[float]:
        return [float(b) for b in self.banks]


if "toy" not in REGISTRY.games:
    REGISTRY.register(ToyGame)
