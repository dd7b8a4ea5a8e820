"""The generic rules-engine API every game implements.

A *Game* is immutable configuration (spec, options, player names); a *State* is one position
of it. States are pure: no I/O, no clock, no hidden randomness. Chance outcomes (a die throw,
a card draw) are actions that come from outside, applied when ``current_player() == CHANCE``.

``State.apply`` validates first and only then mutates: an illegal action raises
:class:`IllegalAction` (with a reason a person can hear) and leaves the state exactly as it was.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.cards import Card, CardError
from companion.observations import CardSeen, DiceSeen, Observation

CHANCE = -1
TERMINAL = -2


class IllegalAction(Exception):
    """An action or input the rules refuse. ``reason`` is a sentence fit to be spoken.

    ``quiet`` readings are not errors yet (a chess piece in the air): logged, never spoken or
    journaled. A quiet one that ``settles`` (the board matches again) is spoken only when the
    same source's previous input was refused aloud.
    """

    quiet: ClassVar[bool] = False
    settles: ClassVar[bool] = False

    def __init__(self, reason: str, *, position: str = "") -> None:
        super().__init__(f"{reason} [{position}]" if position else reason)
        self.reason = reason
        self.position = position


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Action:
    """Base of every typed action. Subclasses are frozen dataclasses of ints, strs and tuples.

    The JSON form (``encode_action``) is ``{"type": ClassName, **fields}``; games list their
    action classes in ``Game.action_types`` so the journal can decode them.
    """


@dataclass(frozen=True)
class Throw(Action):
    """A chance outcome: the values of the dice thrown, in the order read."""

    values: tuple[int, ...]

    def __str__(self) -> str:
        return "roll " + " ".join(str(v) for v in self.values)


@dataclass(frozen=True)
class Draw(Action):
    """A chance outcome: one card drawn (card id as the game's deck names it)."""

    card: str

    def __str__(self) -> str:
        return f"card {self.card}"


@dataclass(frozen=True)
class Shuffle(Action):
    """A chance outcome: the order of a deck after shuffling (top card first)."""

    deck: str
    order: tuple[str, ...]

    def __str__(self) -> str:
        return f"shuffle {self.deck}"


def as_player(action: Action, player: int) -> Action:
    """The action as given by ``player``: whoever speaks a command is its actor. Actions
    without a ``player`` field are returned unchanged."""
    if any(f.name == "player" for f in dataclasses.fields(action)):
        return dataclasses.replace(action, player=player)  # type: ignore[call-arg]
    return action


def encode_action(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"type": type(action).__name__}
    for f in dataclasses.fields(action):
        out[f.name] = _to_json(getattr(action, f.name))
    return out


def decode_action(payload: Mapping[str, Any], types: Mapping[str, type[Action]]) -> Action:
    data = dict(payload)
    name = data.pop("type")
    cls = types.get(name) or _COMMON_ACTIONS.get(name)
    if cls is None:
        raise ValueError(f"unknown action type {name!r}")
    return cls(**{k: _from_json(v) for k, v in data.items()})


def _to_json(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_to_json(v) for v in value]
    return value


def _from_json(value: Any) -> Any:
    # Actions are frozen and hashable, so every JSON list comes back as a tuple.
    if isinstance(value, list):
        return tuple(_from_json(v) for v in value)
    return value


_COMMON_ACTIONS: dict[str, type[Action]] = {"Throw": Throw, "Draw": Draw, "Shuffle": Shuffle}


# --------------------------------------------------------------------------- chance


@dataclass(frozen=True)
class ChanceRequest:
    """The chance outcome a state expects now: some dice, or a card from a named deck."""

    kind: str  # "dice", "card", or "shuffle" (a whole deck order, for virtual decks)
    count: int = 1  # number of dice
    faces: tuple[int, ...] = (1, 2, 3, 4, 5, 6)  # values a die can show
    deck: str = ""  # for cards: which deck
    cards: tuple[str, ...] = ()  # for cards: those that may come now (the rest of the deck)
    who: int | None = None  # the player who throws or draws, if any

    def describe(self) -> str:
        if self.kind == "dice":
            n = _NUMBER_WORDS.get(self.count, str(self.count))
            return f"{n} {'die' if self.count == 1 else 'dice'}"
        if self.kind == "shuffle":
            return f"the {self.deck} deck shuffled"
        return f"a {self.deck} card" if self.deck else "a card"

    def sample(self, rng: random.Random) -> Action:
        if self.kind == "dice":
            return Throw(tuple(rng.choice(self.faces) for _ in range(self.count)))
        if self.kind == "shuffle":
            order = list(self.cards)
            rng.shuffle(order)
            return Shuffle(self.deck, tuple(order))
        if not self.cards:
            raise IllegalAction("the deck is empty")
        return Draw(rng.choice(self.cards))

    def check(self, action: Action) -> None:
        """Raise IllegalAction unless ``action`` is an outcome this request allows."""
        if self.kind == "dice":
            if not isinstance(action, Throw):
                raise IllegalAction(f"I need {self.describe()} now")
            if len(action.values) != self.count:
                raise IllegalAction(
                    f"I need {self.describe()}, not {len(action.values)} values"
                )
            bad = [v for v in action.values if v not in self.faces]
            if bad:
                raise IllegalAction(f"{bad[0]} is not a value a die can show")
            return
        if self.kind == "shuffle":
            if not isinstance(action, Shuffle) or sorted(action.order) != sorted(self.cards):
                raise IllegalAction(f"I need the {self.deck} deck shuffled")
            return
        if not isinstance(action, Draw):
            raise IllegalAction(f"I need {self.describe()} now")
        if self.cards and action.card not in self.cards:
            raise IllegalAction(f"{action.card} cannot be drawn now: it is not in the deck")


_NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def sentence(text: str) -> str:
    """``text`` ending in exactly one full stop (or its own ! or ?; a closing bracket after
    one ends it too: "... ('companion read --help' shows what it takes.)")."""
    text = text.strip()
    ended = text.rstrip(")")
    return text if not ended or ended[-1] in ".!?" else text + "."


def counted(n: int, one: str, many: str = "") -> str:
    """ "1 pip", "13 pips": a number with its noun in the right number."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def number_word(n: int) -> str:
    return {0: "zero", **_NUMBER_WORDS}.get(n, str(n))


# --------------------------------------------------------------------------- events


class Priority:
    CHATTER = 0  # may be dropped when stale ("Red's turn")
    INFO = 1  # moves, counts
    RESULT = 2  # never dropped: scores, wins, payments
    REFUSAL = 3  # never dropped: why an input was refused
    ALERT = 4  # said even when the journal cannot be saved (a disk error): nothing else is


@dataclass(frozen=True)
class Event:
    """Base of typed events. ``describe`` renders the spoken sentence given player names.

    ``key`` names the phrase in config/phrases/*.json that may override the wording; the
    template is formatted with the event's fields plus ``name`` (the player's name when the
    event has a ``player`` field).
    """

    key: ClassVar[str] = "event"
    priority: ClassVar[int] = Priority.INFO
    # The sentence itself asks for the decision that follows ("buy or auction?"): the choices
    # are then not listed after it (companion/narrator.py: each fact once).
    asks: ClassVar[bool] = False

    def describe(self, names: Sequence[str]) -> str:
        return self.key

    def fields(self, names: Sequence[str]) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        player = out.get("player")
        if isinstance(player, int) and 0 <= player < len(names):
            out["name"] = names[player]
        return out


@dataclass(frozen=True)
class TurnPasses(Event):
    player: int
    key: ClassVar[str] = "turn"
    priority: ClassVar[int] = Priority.CHATTER

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]}'s turn."


@dataclass(frozen=True)
class GameOver(Event):
    winners: tuple[int, ...]
    detail: str = ""
    key: ClassVar[str] = "game_over"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        who = " and ".join(names[w] for w in self.winners)
        if not self.winners:
            text = "The game is over: a draw."
        else:
            text = f"{who} {'wins' if len(self.winners) == 1 else 'win'} the game!"
        return f"{text} {self.detail}".strip()


@dataclass(frozen=True)
class Note(Event):
    """Free text an engine wants said (prefer a typed event where the fact is reused)."""

    text: str
    key: ClassVar[str] = "note"

    def describe(self, names: Sequence[str]) -> str:
        return self.text


# --------------------------------------------------------------------------- game and state


@dataclass(frozen=True)
class Option:
    """A game option with its default; ``choices`` empty means any value of ``default``'s type."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] = ()

    def parse(self, text: str) -> Any:
        kind = type(self.default)
        if kind is bool:
            low = text.strip().lower()
            if low not in {"1", "0", "yes", "no", "true", "false", "on", "off"}:
                raise ValueError(f"The option {self.name} takes yes or no, not \"{text}\".")
            value: Any = low in {"1", "yes", "true", "on"}
        elif kind in (int, float):
            try:
                value = kind(text)
            except ValueError:
                what = "a whole number" if kind is int else "a number"
                raise ValueError(f"The option {self.name} takes {what}, not \"{text}\"."
                                 ) from None
        else:
            value = text
        if self.choices and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise ValueError(f"The option {self.name} must be one of {allowed}; not "
                             f"\"{text}\".")
        return value


@dataclass(frozen=True)
class GameSpec:
    name: str  # registry key, e.g. "snakes-ladders"
    title: str  # "Snakes and Ladders"
    min_players: int
    max_players: int
    inputs: tuple[str, ...]  # of "dice", "cards", "board"
    rulebook: str  # e.g. "002: Snakes and Ladders"
    aliases: tuple[str, ...] = ()
    options: tuple[Option, ...] = ()
    house_rules: str = ""  # the choices made where the rulebook is silent (also in docs/)
    default_players: tuple[str, ...] = ("Red", "Blue")

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        raise KeyError(name)


class Game(ABC):
    """Immutable configuration of one game: spec, resolved options and the seated players."""

    spec: ClassVar[GameSpec]
    action_types: ClassVar[Mapping[str, type[Action]]] = {}
    # CLI tools: "count", "advise", "stats", "perft", "simulate" -> "module:function(argv)->int"
    tools: ClassVar[Mapping[str, str]] = {}
    # False where random legal play need not end (Monopoly without a time limit): the generic
    # test then plays such a game for a bounded number of steps instead of to its end.
    bounded: ClassVar[bool] = True

    def __init__(self, players: Sequence[str], options: Mapping[str, Any] | None = None):
        spec = self.spec
        if not spec.min_players <= len(players) <= spec.max_players:
            raise ValueError(
                f"{spec.title} takes {spec.min_players} to {spec.max_players} players,"
                f" not {len(players)}"
            )
        if len({p.lower() for p in players}) != len(players):
            raise ValueError("player names must differ")
        known = {o.name: o for o in spec.options}
        resolved = {o.name: o.default for o in spec.options}
        for key, value in (options or {}).items():
            if key not in known:
                raise ValueError(f"{spec.title} has no option {key!r}")
            resolved[key] = known[key].parse(value) if isinstance(value, str) else value
        self.players: tuple[str, ...] = tuple(players)
        self.options: Mapping[str, Any] = resolved

    @abstractmethod
    def new_state(self) -> State: ...

    def max_length(self) -> int:
        """An upper bound on actions (chance outcomes included) in one game; used by tests."""
        return 10_000

    # --- interpretation: turning typed text into this game's actions ---------------

    def parse_action(self, state: State, text: str) -> Action:
        """Turn a typed game command ("buy", "e4", "11-15") into an action, or refuse."""
        raise IllegalAction(f"I don't know the command {text.split()[0]!r}")

    def parse_spoken(self, state: State, text: str, player: int | None) -> Action:
        """``parse_action`` for a line that may name its speaker ("Blue play 5H"): the speaker
        is the action's actor. Games that need the speaker while parsing override this."""
        action = self.parse_action(state, text)
        return action if player is None else as_player(action, player)

    def query(self, state: State, text: str) -> str | None:
        """Answer a question that changes nothing ("balance", "rent Boardwalk"), or None."""
        return None

    def command_help(self) -> str:
        """One line per game-specific console command, for ``help``."""
        return ""

    def throw_values(self, words: Sequence[str]) -> tuple[int, ...] | None:
        """A throw typed in this game's own words, as pips ("roll A A K K K" in Poker Dice),
        or None where dice are only numbers."""
        return None

    def card_id(self, text: str) -> str:
        """This game's own name for a card typed or read ("10d", "T♦" -> "10D"). Games with
        decks of their own (dominoes "4-6" -> "6-4", Sorry!, Monopoly) override it."""
        try:
            return str(Card.parse(text))
        except CardError:
            return text.strip().upper()

    def card_words(self, card: str) -> str:
        """A card as said ("the card 5H"); games whose card ids are not words override it."""
        return f"the card {card}"

    def read_card(self, state: State, text: str) -> str:
        """The card a player typed (``card ...``), read in the light of the state: Monopoly
        takes a Chance card's words ("card advance to go"). The default is ``card_id``."""
        return self.card_id(text)

    def dice_in_view(self, state: State) -> tuple[int, ...]:
        """How many dice a camera may see at a dice chance node, the throw's count first
        (the session takes the camera's reading of such a count: companion/dice_count.py);
        none elsewhere."""
        request = state.chance()
        return (request.count,) if request is not None and request.kind == "dice" else ()

    def interpret(self, state: State, observation: Observation) -> Action:
        """Turn a device or camera observation into an action, or refuse with the reason.

        The default reads dice at a dice chance node and a card at a card chance node; games
        with boards or buttons override this (and call ``super().interpret`` for the rest).
        """
        request = state.chance()
        if isinstance(observation, DiceSeen):
            if request is None or request.kind != "dice":
                raise IllegalAction("No throw is expected now. " + sentence(state.expected()))
            action: Action = Throw(tuple(observation.values))
        elif isinstance(observation, CardSeen):
            if request is None or request.kind != "card":
                raise IllegalAction("No card is expected now. " + sentence(state.expected()))
            action = Draw(self.card_id(observation.card))
        else:
            raise IllegalAction(f"{type(observation).__name__} means nothing in this game")
        request.check(action)
        return action

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self.players)!r}, {dict(self.options)!r})"


class State(ABC):
    """One position. ``apply`` validates, then mutates, and returns typed events."""

    game: Game

    @abstractmethod
    def current_player(self) -> int:
        """Index of the player to act, CHANCE when an outcome is expected, or TERMINAL."""

    def actor(self) -> int | None:
        """The player whose turn it is, also at a chance node (who throws); None at the end."""
        cp = self.current_player()
        if cp >= 0:
            return cp
        if cp == CHANCE:
            request = self.chance()
            return request.who if request else None
        return None

    def chance(self) -> ChanceRequest | None:
        """What chance outcome is expected now (None unless current_player() == CHANCE)."""
        return None

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every legal player action now (outcomes with free parameters, e.g. bids, excepted)."""

    # Action type -> the method that validates and applies it. A game fills this table (after
    # its class, as ``MyState.handlers = {...}``) or writes ``apply`` itself.
    handlers: ClassVar[Mapping[type[Action], Callable[[Any, Any], list[Event]]]] = {}

    def apply(self, action: Action) -> list[Event]:
        """Validate and apply. Raises IllegalAction and changes nothing if illegal."""
        handler = self.handlers.get(type(action))
        if handler is None:
            raise IllegalAction(f"{action} means nothing in {self.game.spec.title}")
        return handler(self, action)

    def clone(self) -> State:
        """An independent copy. Override where a faster copy matters (search, simulation)."""
        return copy.deepcopy(self)

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The documented, stable state view (see docs/json.md)."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def winners(self) -> tuple[int, ...]:
        return ()

    def scores(self) -> list[float]:
        """Current scores (or final returns at the end); meaning is per game."""
        return [0.0] * len(self.game.players)

    def describe_action(self, action: Action) -> str:
        return str(action)

    def expected(self) -> str:
        """What input the game expects now, in words ("Red to throw one die")."""
        names = self.game.players
        if self.is_terminal():
            return "The game is over"
        request = self.chance()
        if request is not None:
            who = f"{names[request.who]} to " if request.who is not None else ""
            verb = "throw" if request.kind == "dice" else "draw"
            text = f"{who}{verb} {request.describe()}"
            return text[:1].upper() + text[1:]  # not capitalize(): "McCoy" stays "McCoy"
        return f"{names[self.current_player()]} to move"

    def may_act(self, player: int) -> bool:
        """Whether ``player`` may give input now (auctions and discards let anyone act)."""
        return player == self.actor()

    def sample_chance(self, rng: random.Random) -> Action:
        request = self.chance()
        if request is None:
            raise IllegalAction("no chance outcome is expected now")
        return request.sample(rng)

    def put_back(self, action: Action) -> str:
        """After ``action`` was undone from the keyboard (this state is the one before it),
        what to put back on a board that reads the pieces ("Put the knight back from f3 to
        g1."); "" where nothing physical needs moving."""
        return ""

    def choices_after_move(self) -> str:
        """What is said unasked after each move: the choices when there are a handful (a long
        list, like chess's twenty openings, waits for ``options``). Games may override."""
        if self.current_player() < 0 or len(self.legal_actions()) > 8:
            return ""
        return self.choices_text()

    def prompt(self) -> str:
        """Said unasked after a move when the choices are too many to list (the narrator's
        rule): a short summary of the decision, like an auction's high bid and who is still
        in. Most games need none: their events and ``options`` say enough."""
        return ""

    def choices_text(self) -> str:
        """The legal choices in words, said when a player must choose (and on ``options``)."""
        if self.current_player() < 0:
            return ""
        actions = self.legal_actions()
        if len(actions) < 2:
            return ""
        return "Choose: " + "; ".join(self.describe_action(a) for a in actions) + "."

    def options_text(self) -> str:
        """The answer to ``options`` (and to a game's own ``moves``): the choices, the only
        move when there is just one, or what is expected."""
        text = self.choices_text()
        if text:
            return text
        actions = self.legal_actions() if self.current_player() >= 0 else []
        if len(actions) == 1:
            return f"Only one move: {self.describe_action(actions[0])}."
        return sentence(self.expected())

    def status(self) -> str:
        """``status``: whose turn it is and the scoreboard (every player's score, cash or
        place, as fits the game)."""
        return self.expected()

    def scoreboard(self) -> str:
        """``scores`` (where the game has no question of that name): the scores, cash or
        places. Most games' ``status`` is their scoreboard with whose turn it is."""
        return sentence(self.status())

