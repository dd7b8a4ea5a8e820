"""Domino Poker (rulebook 000, "Poker"): 20 tiles (no blanks, no 1-1), five each, and the
showdown ranked by the rulebook's table. Betting is the players' own (chips); the companion
takes the hands shown (or read), ranks them and says who wins each deal.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.engine import (
    CHANCE,
    TERMINAL,
    Action,
    ChanceRequest,
    Draw,
    Event,
    Game,
    GameOver,
    GameSpec,
    IllegalAction,
    Option,
    Priority,
    State,
)
from companion.games import register
from companion.games.dominoes.actions import ShowHand
from companion.games.dominoes.commands import named_player, seat
from companion.games.dominoes.tiles import (
    ALL_TILES,
    and_list,
    ends_of,
    is_double,
    is_tile,
    parse_tile,
    tile_name,
)
from companion.observations import CardSeen, Observation

# "Remove all blanks and 1-1 pieces and use 20 dominoes."
POKER_TILES: tuple[str, ...] = tuple(t for t in ALL_TILES if "0" not in t and t != "1-1")
HAND = 5

# The rulebook's table, lowest first; below them all, the highest piece decides.
CATEGORIES = (
    "the highest piece", "one pair", "a flush", "threes", "a four straight", "a full hand",
    "a five straight", "fours", "a six straight", "a royal",
)
_MEANING = {
    "one pair": "two doubles", "a flush": "five of a suit", "threes": "three doubles",
    "a four straight": "four of a suit in sequence", "a full hand": "three doubles and two of"
    " a suit", "a five straight": "five of a suit in sequence", "fours": "four doubles",
    "a six straight": "five sixes in sequence", "a royal": "five doubles",
}


def piece_key(tile: str) -> tuple[int, int]:
    """Pieces rank by their high end, then their low end: 6-6, 6-5, ... 2-2, 2-1."""
    return ends_of(tile)


def _run(values: set[int]) -> int:
    best = run = 0
    for v in range(1, 7):
        run = run + 1 if v in values else 0
        best = max(best, run)
    return best


def _suit_others(tiles: Sequence[str], suit: int) -> set[int]:
    out = set()
    for t in tiles:
        a, b = ends_of(t)
        if suit in (a, b):
            out.add(b if a == suit else a)
    return out


def rank(tiles: Sequence[str]) -> tuple[int, tuple[tuple[int, int], ...]]:
    """(category index in CATEGORIES, the pieces highest first for ties)."""
    tiles = [parse_tile(t) for t in tiles]
    doubles = sum(is_double(t) for t in tiles)
    suits = {s: _suit_others(tiles, s) for s in range(1, 7)}
    longest = max(_run(o) for o in suits.values())
    flush = any(len(o) == HAND for o in suits.values())
    others = [t for t in tiles if not is_double(t)]
    full = doubles == 3 and len(others) == 2 and bool(set(ends_of(others[0])) &
                                                      set(ends_of(others[1])))
    if doubles == 5:
        category = "a royal"
    elif _run(suits[6]) >= 5:
        category = "a six straight"
    elif doubles == 4:
        category = "fours"
    elif longest >= 5:
        category = "a five straight"
    elif full:
        category = "a full hand"
    elif longest >= 4:
        category = "a four straight"
    elif doubles == 3:
        category = "threes"
    elif flush:
        category = "a flush"
    elif doubles == 2:
        category = "one pair"
    else:
        category = "the highest piece"
    return CATEGORIES.index(category), tuple(sorted((piece_key(t) for t in tiles), reverse=True))


def hand_words(tiles: Sequence[str]) -> str:
    category = CATEGORIES[rank(tiles)[0]]
    if category == "the highest piece":
        best = max(tiles, key=piece_key)
        return f"no hand, the {tile_name(best)} highest"
    return f"{category} ({_MEANING[category]})"


# --------------------------------------------------------------------------- actions, events


@dataclass(frozen=True)
class Fold(Action):
    player: int

    def __str__(self) -> str:
        return "fold"


@dataclass(frozen=True)
class PokerDeal(Event):
    number: int
    first: int
    read: bool
    key: ClassVar[str] = "dominoes.poker_deal"

    def describe(self, names: Sequence[str]) -> str:
        text = f"Deal {self.number}: five tiles each from the twenty (no blanks, no double one)."
        if self.read:
            return f"{text} Read each player's tiles, {names[self.first]}'s first."
        return f"{text} At the showdown, {names[self.first]} shows first: hand 6-6 5-5 ..."


@dataclass(frozen=True)
class PokerShown(Event):
    player: int
    tiles: tuple[str, ...]
    words: str
    key: ClassVar[str] = "dominoes.poker_shown"

    def describe(self, names: Sequence[str]) -> str:
        shown = and_list([tile_name(t) for t in self.tiles])
        return f"{names[self.player]} shows {shown}: {self.words}."


@dataclass(frozen=True)
class Folded(Event):
    player: int
    key: ClassVar[str] = "dominoes.folded"

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.player]} folds."


@dataclass(frozen=True)
class DealWon(Event):
    winners: tuple[int, ...]
    words: str  # "" when everyone else folded
    key: ClassVar[str] = "dominoes.deal_won"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        who = and_list([names[p] for p in self.winners])
        if not self.words:
            return f"Everyone else folded: {who} wins the deal."
        verb = "wins" if len(self.winners) == 1 else "tie and share"
        return f"{who} {verb} the deal with {self.words}."


POKER_ACTIONS: dict[str, type[Action]] = {"ShowHand": ShowHand, "Fold": Fold}

DEAL, SHOW, OVER = "deal", "show", "over"


class PokerState(State):
    def __init__(self, game: DominoPoker) -> None:
        self.game = game
        self.n = len(game.players)
        self.read = game.options["tiles"] == "read"
        self.deals = int(game.options["deals"])
        if self.deals < 1:
            raise ValueError("option deals must be at least 1")
        self.wins = [0] * self.n
        self.deal_number = 0
        self.phase = OVER
        self.final: tuple[int, ...] = ()
        self._new_deal()

    def _new_deal(self) -> list[Event]:
        self.deal_number += 1
        self.hands: list[list[str]] = [[] for _ in range(self.n)]
        self.shown: list[tuple[str, ...] | None] = [None] * self.n
        self.folded = [False] * self.n
        self.dealt = 0
        self.first = (self.deal_number - 1) % self.n  # the first to show moves round
        self.turn = self.first
        self.phase = DEAL if self.read else SHOW
        return [PokerDeal(self.deal_number, self.first, self.read)]

    # --- State API ----------------------------------------------------------------------

    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.phase == DEAL:
            return CHANCE
        return self.turn

    def chance(self) -> ChanceRequest | None:
        if self.phase != DEAL:
            return None
        return ChanceRequest(kind="card", deck="dominoes-poker", cards=tuple(self.unseen()),
                             who=self._dealt_to())

    def _dealt_to(self) -> int:
        return (self.first + self.dealt // HAND) % self.n

    def seen(self) -> set[str]:
        out = {t for h in self.hands for t in h}
        for shown in self.shown:
            out.update(shown or ())
        return out

    def unseen(self) -> list[str]:
        seen = self.seen()
        return [t for t in POKER_TILES if t not in seen]

    def legal_actions(self) -> list[Action]:
        p = self.current_player()
        if p < 0:
            return []
        if self.read:
            out: list[Action] = [ShowHand(p, ())]
        else:
            pool = self.unseen()
            out = [ShowHand(p, tuple(pool[:HAND])), ShowHand(p, tuple(pool[-HAND:]))]
        return [*out, Fold(p)]  # the last player in takes the deal at once, so never alone

    def apply(self, action: Action) -> list[Event]:
        if isinstance(action, Draw):
            return self._draw(action)
        if isinstance(action, ShowHand):
            return self._show(action)
        if isinstance(action, Fold):
            return self._fold(action)
        raise IllegalAction(f"{action} means nothing in domino poker")

    def clone(self) -> PokerState:
        return copy.deepcopy(self)

    def winners(self) -> tuple[int, ...]:
        return self.final

    def scores(self) -> list[float]:
        return [float(w) for w in self.wins]

    # --- actions ------------------------------------------------------------------------

    def _draw(self, action: Draw) -> list[Event]:
        if self.phase != DEAL:
            raise IllegalAction(f"No tile is read now. {self.expected()}.")
        tile = parse_tile(action.card)
        if tile not in POKER_TILES:
            raise IllegalAction(f"The {tile_name(tile)} is not used in domino poker")
        if tile not in self.unseen():
            raise IllegalAction(f"The {tile_name(tile)} was dealt already")
        self.hands[self._dealt_to()].append(tile)
        self.dealt += 1
        if self.dealt == HAND * self.n:
            self.phase = SHOW
        return []

    def _check_turn(self, player: int) -> None:
        if not 0 <= player < len(self.game.players):
            raise IllegalAction(f"There is no player number {player}")
        if player != self.current_player():
            actor = self.actor()
            whose = self.game.players[actor] if actor is not None else "nobody"
            raise IllegalAction(f"It is {whose}'s turn, not {self.game.players[player]}'s")

    def _show(self, action: ShowHand) -> list[Event]:
        if self.phase != SHOW:
            raise IllegalAction(f"No hand is shown now. {self.expected()}.")
        p = action.player
        self._check_turn(p)
        name = self.game.players[p]
        tiles = tuple(parse_tile(t) for t in action.tiles)
        if self.read and not tiles:
            tiles = tuple(self.hands[p])
        if len(tiles) != HAND or len(set(tiles)) != HAND:
            raise IllegalAction(f"A poker hand is five different tiles, not {len(tiles)}")
        for tile in tiles:
            if tile not in POKER_TILES:
                raise IllegalAction(f"The {tile_name(tile)} is not used in domino poker")
            if self.read and tile not in self.hands[p]:
                raise IllegalAction(f"{name} was not dealt the {tile_name(tile)}")
            if not self.read and tile in self.seen():
                raise IllegalAction(f"The {tile_name(tile)} was shown already")
        self.shown[p] = tiles
        events: list[Event] = [PokerShown(p, tiles, hand_words(tiles))]
        return events + self._next()

    def _fold(self, action: Fold) -> list[Event]:
        if self.phase != SHOW:
            raise IllegalAction(f"No one folds now. {self.expected()}.")
        self._check_turn(action.player)
        self.folded[action.player] = True
        events: list[Event] = [Folded(action.player)]
        live = [p for p in range(self.n) if not self.folded[p]]
        if len(live) == 1:
            return events + self._settle(live, "")
        return events + self._next()

    def _next(self) -> list[Event]:
        for step in range(1, self.n + 1):
            q = (self.turn + step) % self.n
            if not self.folded[q] and self.shown[q] is None:
                self.turn = q
                return []
        shown = [p for p in range(self.n) if self.shown[p] is not None]
        best = max(rank(self.shown[p] or ()) for p in shown)
        winners = [p for p in shown if rank(self.shown[p] or ()) == best]
        return self._settle(winners, hand_words(self.shown[winners[0]] or ()))

    def _settle(self, winners: list[int], words: str) -> list[Event]:
        for p in winners:
            self.wins[p] += 1
        events: list[Event] = [DealWon(tuple(winners), words)]
        if self.deal_number >= self.deals:
            self.phase = OVER
            top = max(self.wins)
            self.final = tuple(p for p in range(self.n) if self.wins[p] == top)
            detail = "" if self.deals == 1 else f"{top} of {self.deals} deals."
            return events + [GameOver(self.final, detail)]
        return events + self._new_deal()

    # --- words --------------------------------------------------------------------------

    def expected(self) -> str:
        names = self.game.players
        if self.phase == OVER:
            return "The game is over"
        if self.phase == DEAL:
            p = self._dealt_to()
            return f"Read {names[p]}'s tile {self.dealt % HAND + 1} of {HAND}"
        how = "show (or fold)" if self.read else "show the hand (hand 6-6 5-5 ...) or fold"
        return f"{names[self.turn]} to {how}"

    def choices_text(self) -> str:
        """Show or fold, in words. The hands listed by ``legal_actions`` with hidden tiles are
        examples drawn from the unseen tiles, not the player's hand: never offer them."""
        p = self.current_player()
        if p < 0:
            return ""
        names = self.game.players
        if self.read:
            return f"{names[p]} may show the hand (show) or fold."
        return f"{names[p]} may show the hand, saying its five tiles (hand 6-6 5-5 ...), or fold."

    def status(self) -> str:
        names = self.game.players
        parts = ", ".join(f"{names[i]} {w}" for i, w in enumerate(self.wins))
        return f"Deal {self.deal_number} of {self.deals}. Deals won: {parts}. {self.expected()}."

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game.spec.name,
            "deal": self.deal_number,
            "deals": self.deals,
            "phase": self.phase,
            "turn": self.turn,
            "hands": [list(h) for h in self.hands],
            "shown": [list(s) if s is not None else None for s in self.shown],
            "folded": list(self.folded),
            "wins": list(self.wins),
            "winners": list(self.final),
        }


# --------------------------------------------------------------------------- the game

POKER_COMMANDS = """\
  hand TILE TILE TILE TILE TILE   show a hand at the showdown (tiles=read: hand, or show)
  fold                       leave the deal without showing"""


@register
class DominoPoker(Game):
    spec = GameSpec(
        name="domino-poker", title="Domino Poker", min_players=2, max_players=4,
        inputs=("cards",), rulebook="000: Dominoes Instructions, Poker",
        aliases=("dominoes-poker", "poker-dominoes"),
        options=(
            Option("tiles", "count", "count: hands shown at the showdown; read: every tile"
                   " dealt is read in", ("count", "read")),
            Option("deals", 1, "deals in the game; the most deals won wins"),
        ),
        house_rules=(
            "Betting (and any exchange of tiles) is the players' own; the companion ranks the"
            " showdown. The rulebook's table is read lowest first: one pair (two doubles),"
            " flush, threes, four straight, full hand, five straight, fours, six straight"
            " (five sixes in sequence), royal (five doubles). A straight is tiles of one suit"
            " whose other ends run in sequence. Equal hands, and hands with none of these, are"
            " compared piece by piece from the highest (pieces rank by high end, then low end:"
            " 6-6, 6-5 ... 2-1); identical ranks share the deal."
        ),
    )
    action_types: ClassVar = POKER_ACTIONS

    def new_state(self) -> PokerState:
        return PokerState(self)

    def max_length(self) -> int:
        return int(self.options["deals"]) * (HAND * len(self.players) + len(self.players)) + 1

    def command_help(self) -> str:
        return POKER_COMMANDS

    def parse_action(self, state: State, text: str) -> Action:
        assert isinstance(state, PokerState)
        words = text.replace(",", " ").split()
        if not words:
            raise IllegalAction("Say a command, like: hand 6-6 5-5 4-3 2-1 6-5")
        who, words = named_player(self.players, words)
        verb, args = words[0].lower(), words[1:]
        if is_tile(verb):
            verb, args = "hand", words
        if state.current_player() == CHANCE and verb in ("card", "draw", "hand") and args:
            return Draw(parse_tile(args[0]))
        player = seat(who if who is not None else state.actor())
        if verb in ("hand", "show"):
            return ShowHand(player, tuple(parse_tile(a) for a in args))
        if verb == "fold":
            return Fold(player)
        raise IllegalAction(f"I don't know the command {words[0]!r}. {state.expected()}.")

    def query(self, state: State, text: str) -> str | None:
        word = text.strip().lower()
        if word == "ranks":
            return "Lowest first: " + ", ".join(CATEGORIES[1:]) + "."
        return None

    def card_id(self, text: str) -> str:
        return parse_tile(text)  # "4-6", "6:4", "64" -> "6-4"

    def interpret(self, state: State, observation: Observation) -> Action:
        if isinstance(observation, CardSeen) and state.current_player() == CHANCE:
            return Draw(parse_tile(observation.card))
        return super().interpret(state, observation)
