"""Crazy Eights (rulebook 000, "Crazy Eights") for 2 to 8 players.

``state`` keeps the game; ``events`` say what happened. Design and choices:
docs/games/crazy-eights.md.
"""

from __future__ import annotations

from typing import ClassVar

from companion.cards import SUIT_NAMES
from companion.engine import CHANCE, Action, Game, GameSpec, IllegalAction, Option, State
from companion.games import register
from companion.games.card_table import PLAY, normal_card, read_card_words
from companion.games.crazy_eights.state import (
    ACTION_TYPES,
    CallSuit,
    CrazyEightsState,
    DrawCard,
    Pass,
    Play,
    penalty,
)
from companion.observations import CardSeen, Observation

HOUSE_RULES = (
    "One hand by default: the player who goes out wins and the others' penalty points are said"
    " (option to=N plays hands until a penalty total reaches N; the fewest wins). A draw is one"
    " card and ends the turn, as the rulebook says (option draw=one-then-play or until). An"
    " eight turned up first goes back into the stock (option first_eight=any). When the stock"
    " is empty a player who cannot play passes; all passing in a row blocks the hand, won by the"
    " fewest penalty points (option empty_stock=reshuffle turns the discards over instead)."
)

COMMANDS = """\
  CARD (or play CARD)      play a card (5H, 10D or TD, KC, A♠)
  8H spades (8H S)         an eight, and the suit you call (or 8H, then: spades)
  draw                     take a card from the stock (deal=read: then read it)
  pass                     the stock is empty and you cannot play (or: keep the card drawn)
  held                     how many cards each player holds; also: scores, top"""

_SUIT_WORDS = {
    **{s.lower(): s for s in SUIT_NAMES},
    **{name: s for s, name in SUIT_NAMES.items()},
    **{name[:-1]: s for s, name in SUIT_NAMES.items()},
    "♠": "S", "♥": "H", "♦": "D", "♣": "C",
}


@register
class CrazyEights(Game):
    spec = GameSpec(
        name="crazy-eights",
        title="Crazy Eights",
        min_players=2,
        max_players=8,
        inputs=("cards",),
        rulebook="000: Crazy Eights",
        aliases=("eights", "crazy8s", "switch", "rockaway"),
        options=(
            Option("deal", "hidden", "hidden: hands unseen, cards learned when played; read:"
                   " every dealt and drawn card is read in", ("hidden", "read")),
            Option("to", 0, "0: one hand; N: hands until a player's penalty points reach N"),
            Option("draw", "one", "one: draw one card, the turn ends (rulebook); one-then-play:"
                   " the card drawn may be played; until: draw until you can play",
                   ("one", "one-then-play", "until")),
            Option("first_eight", "bury", "an eight turned up first: bury it in the stock and"
                   " turn another, or any: the first player plays any card", ("bury", "any")),
            Option("empty_stock", "pass", "the stock empty: pass (all passing blocks the hand),"
                   " or reshuffle (turn the discards over)", ("pass", "reshuffle")),
            Option("dealer", 0, "the first dealer (0 is the first-named player)",
                   tuple(range(8))),
        ),
        house_rules=HOUSE_RULES,
    )
    action_types: ClassVar = ACTION_TYPES

    def new_state(self) -> CrazyEightsState:
        return CrazyEightsState(self)

    def max_length(self) -> int:
        # A hand: 52 cards dealt or drawn (each draw two inputs), at most 52 plays each
        # followed by at most n - 1 passes, n final passes, 52 cards shown: under
        # 52 * (n + 4) inputs. Every hand adds at least one penalty point to somebody's total
        # (a player out of cards wins; the others hold cards worth at least one each), so a
        # game to N lasts at most n * N hands. With empty_stock=reshuffle there is no bound.
        n = len(self.players)
        hands = max(1, n * int(self.options["to"]))
        return hands * 52 * (n + 5)

    def command_help(self) -> str:
        return COMMANDS

    def parse_action(self, state: State, text: str) -> Action:
        assert isinstance(state, CrazyEightsState)
        words = text.replace(",", " ").split()
        if not words:
            raise IllegalAction("Say a card, like: 5H")
        verb, args = words[0].lower(), words[1:]
        player = state.current_player()
        if player == CHANCE:
            return read_card_words(words, state.expected())
        if verb == "call" and len(args) == 1:
            words = args
        if len(words) == 1 and words[0].lower() in _SUIT_WORDS:
            # A suit alone names the suit for an eight just put down (or is told why not).
            return CallSuit(player, _SUIT_WORDS[words[0].lower()])
        if verb == "draw":
            return DrawCard(player)
        if verb == "pass":
            return Pass(player)
        if verb in ("play", "card"):
            words = args
        if state.phase != PLAY or not words or len(words) > 2:
            raise IllegalAction(f"I don't know the command {text!r}. {state.expected()}.")
        card = normal_card(words[0])
        called = ""
        if len(words) == 2:
            called = _SUIT_WORDS.get(words[1].lower(), "")
            if not called:
                raise IllegalAction(f"{words[1]} is not a suit: say hearts, spades, diamonds or"
                                    " clubs")
        return Play(player, card, called)

    def query(self, state: State, text: str) -> str | None:
        assert isinstance(state, CrazyEightsState)
        word = text.strip().lower()
        names = self.players
        if word == "held":
            return state.held_text()
        if word in ("score", "scores"):
            return "Penalty totals: " + ", ".join(
                f"{names[p]} {state.totals[p]}" for p in range(len(names))) + "."
        if word == "top":
            return state.expected() + "."
        if word.startswith("value "):
            cards = [normal_card(w) for w in word.split()[1:]]
            return f"{sum(penalty(c) for c in cards)} penalty points."
        return None

    def interpret(self, state: State, observation: Observation) -> Action:
        """A card read by a device: a dealt, turned, drawn or shown card at a chance node; a
        card played otherwise (an eight's player then names the suit)."""
        assert isinstance(state, CrazyEightsState)
        if isinstance(observation, CardSeen) and state.current_player() >= 0:
            return Play(state.current_player(), normal_card(observation.card))
        return super().interpret(state, observation)
