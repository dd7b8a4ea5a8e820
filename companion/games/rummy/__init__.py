"""Rummy (rulebook 000, "Basic Rummy") for 2 to 6 players.

``melds`` says what a group, a sequence and a lay-off are; ``state`` keeps the game;
``events`` say what happened. Design and choices: docs/games/rummy.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from companion.engine import CHANCE, Action, Game, GameSpec, IllegalAction, Option, State
from companion.games import register
from companion.games.card_table import PLAY, normal_card, read_card_words
from companion.games.rummy import melds as M
from companion.games.rummy.state import (
    ACTION_TYPES,
    Discard,
    LayOff,
    Meld,
    RummyState,
    TakeDiscard,
    TakeStock,
)
from companion.observations import CardSeen, Observation

HOUSE_RULES = (
    "The game is to 100 points unless agreed otherwise (option to=N, or deals=N for a fixed"
    " number of deals). Aces are low: no Q-K-A (option ace_high=yes allows it, never round the"
    " corner). A meld or lay-off that would leave only the card just taken from the discard"
    " pile is refused (it could not be discarded). Cards are dealt face down and learned when"
    " they reach the table (option deal=read reads every dealt and drawn card)."
)

COMMANDS = """\
  draw (or stock)            take the top card of the stock
  take (or pile)             take the top card of the discard pile
  meld CARD CARD CARD ...    lay down one group or sequence (one a turn)
  lay CARD [N]               lay a card off on meld N (N needed when it fits two melds)
  discard CARD (or CARD)     end your turn
  melds, scores, held        what is on the table, the scores, the cards each player holds"""


@register
class Rummy(Game):
    spec = GameSpec(
        name="rummy",
        title="Rummy",
        min_players=2,
        max_players=6,
        inputs=("cards",),
        rulebook="000: Rummy (Basic Rummy)",
        aliases=("basic-rummy", "rum"),
        options=(
            Option("deal", "hidden", "hidden: hands unseen, cards learned on the table; read:"
                   " every dealt and drawn card is read in", ("hidden", "read")),
            Option("to", 100, "the points target (0: none, play a number of deals)"),
            Option("deals", 0, "a fixed number of deals (0: play to the target)"),
            Option("ace_high", False, "a sequence may end Q-K-A (never K-A-2)"),
            Option("dealer", 0, "the first dealer (0 is the first-named player)",
                   (0, 1, 2, 3, 4, 5)),
        ),
        house_rules=HOUSE_RULES,
    )
    action_types: ClassVar = ACTION_TYPES
    # Melding is optional and the discard pile is turned over when the stock runs out, so
    # random play need not end (as people could, in principle, draw and discard forever).
    bounded: ClassVar[bool] = False

    def __init__(self, players: Sequence[str], options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        if not self.options["to"] and not self.options["deals"]:
            raise ValueError("Rummy needs a target (to=N) or a number of deals (deals=N)")

    def new_state(self) -> RummyState:
        return RummyState(self)

    def max_length(self) -> int:
        return 1_000_000  # no bound (see ``bounded``); used as a safety cap only

    def command_help(self) -> str:
        return COMMANDS

    def parse_action(self, state: State, text: str) -> Action:
        assert isinstance(state, RummyState)
        words = text.replace(",", " ").split()
        if not words:
            raise IllegalAction("Say a command, like: draw")
        verb, args = words[0].lower(), words[1:]
        player = state.current_player()
        if player == CHANCE:
            return read_card_words(words, state.expected())
        if state.phase != PLAY:
            raise IllegalAction(f"Not now. {state.expected()}.")
        if verb in ("draw", "stock"):
            return TakeStock(player)
        if verb in ("take", "pile", "pick"):
            return TakeDiscard(player)
        if verb == "meld":
            return Meld(player, tuple(normal_card(a) for a in args))
        if verb in ("lay", "layoff", "lay-off"):
            if args and args[0].lower() == "off":
                args = args[1:]
            if args and args[-1].lower() == "on":
                args = args[:-1]
            args = [a for a in args if a.lower() != "on"]
            return _lay_off(state, player, args)
        if verb in ("discard", "card") and len(args) == 1:
            return Discard(player, normal_card(args[0]))
        if len(words) == 1 and (state.stage == "play" or _is_card(words[0])):
            # A card before drawing is a discard said too early: the rules say why it waits.
            return Discard(player, normal_card(words[0]))
        raise IllegalAction(f"I don't know the command {text!r}. {state.expected()}.")

    def query(self, state: State, text: str) -> str | None:
        assert isinstance(state, RummyState)
        word = text.strip().lower()
        names = self.players
        if word == "melds":
            return state.melds_text()
        if word in ("score", "scores"):
            return "Scores: " + ", ".join(
                f"{names[p]} {state.totals[p]}" for p in range(len(names))) + "."
        if word == "held":
            return state.held_text()
        return None

    def interpret(self, state: State, observation: Observation) -> Action:
        """A card read by a device: a dealt, turned, drawn or shown card at a chance node; in
        a turn, the card discarded (melds and lay-offs are typed)."""
        assert isinstance(state, RummyState)
        if isinstance(observation, CardSeen) and state.current_player() >= 0:
            if state.stage != "play":
                raise IllegalAction(f"Draw first. {state.expected()}.")
            return Discard(state.current_player(), normal_card(observation.card))
        return super().interpret(state, observation)


def _is_card(text: str) -> bool:
    try:
        normal_card(text)
    except IllegalAction:
        return False
    return True


def _lay_off(state: RummyState, player: int, args: list[str]) -> Action:
    if not args or len(args) > 2:
        raise IllegalAction("Say the card and the meld, like: lay 7C 1")
    card = normal_card(args[0])
    if len(args) == 2:
        if not args[1].isdigit():
            raise IllegalAction(f"{args[1]} is not a meld number: say melds to hear them")
        return LayOff(player, card, int(args[1]))
    fitting = [i + 1 for i, m in enumerate(state.melds) if M.fits(m["cards"], card,
                                                                   state.ace_high)]
    if not fitting:
        raise IllegalAction(f"The {M.card_name(card)} fits none of the melds")
    if len(fitting) > 1:
        numbers = " and ".join(str(i) for i in fitting)
        raise IllegalAction(f"The {M.card_name(card)} fits melds {numbers}: say which, like:"
                            f" lay {card} {fitting[0]}")
    return LayOff(player, card, fitting[0])
