"""Monopoly The Card Game (rulebook 003, Winning Moves 2000) for 2 to 6 players.

``deck`` loads the cards from config/decks/monopoly-card-game.json; ``scoring`` values hands
as the rulebook prints them; ``state`` keeps the deal, the turns and the money. Design and
choices: docs/games/monopoly-card-game.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from companion.engine import (
    CHANCE,
    Action,
    Draw,
    Game,
    GameSpec,
    IllegalAction,
    Option,
    State,
    counted,
)
from companion.games import register
from companion.games.monopoly_cards.actions import (
    ACTION_TYPES,
    Discard,
    DrawCard,
    Exchange,
    LayDown,
    PassCard,
    Reward,
    ShowHand,
    Trade,
)
from companion.games.monopoly_cards.deck import Deck, load_deck
from companion.games.monopoly_cards.scoring import describe_value, hand_value, money
from companion.games.monopoly_cards.state import (
    DISCARD,
    EXCHANGED,
    REFILL,
    MonopolyCardState,
)
from companion.observations import CardSeen, Observation

HOUSE_RULES = (
    "The first-named player deals first (option dealer=N); the player left of the dealer"
    " plays first. Every turn after a draw or trade ends with at least one discard, down to"
    " ten cards (option must_discard=no: only the excess). An empty draw pile cannot be drawn"
    " from; the reward is what is left of it. A Chance holder's Mr. Monopoly cards still count"
    " for 'most' (option chance_mr_monopoly=ignore). Several players on the same top money at"
    " the end share the win (option tie=play-on: another hand). 5-6 players: a player whose"
    " trade card was taken puts a new one out at the start of the next own turn."
)

COMMANDS = """\
  draw                         draw the top card (then read it: card NAME)
  trade NAME [N] [add CARD]    swap the top N cards of your trade pile with NAME's
                               (add CARD: first put CARD from your hand on your pile)
  trade extra [1|2] [add CARD] 2-3 players: the extra pile (2 also takes the draw pile's top)
  discard CARD                 onto your trade pile
  down [CARDS] [discard CARDS] [as CARDS]
                               lay down (deal=hidden: name the cards, comma-separated;
                               as: what each Chance card stands for)
  reward [CARDS]               deal=hidden: the reward cards the first player keeps
  show [CARDS]                 deal=hidden: your hand at the end of the hand
  exchange NAME                5-6 players: swap trade cards with NAME
  pass CARD                    5-6 players: the card you pass to the left
  money | value CARDS | piles  questions: balances, what cards are worth, the trade piles"""


@register
class MonopolyCardGame(Game):
    spec = GameSpec(
        name="monopoly-card-game",
        title="Monopoly The Card Game",
        min_players=2,
        max_players=6,
        inputs=("cards",),
        rulebook="003: Monopoly The Card Game",
        aliases=("monopoly-cards", "monopoly-card", "mcg"),
        options=(
            Option("deal", "read", "read: every dealt and drawn card is read in and every play"
                   " checked; hidden: only the hands laid down at the end are entered",
                   ("read", "hidden")),
            Option("target", 0, "money that wins (0: the rulebook's $10,000, or $7,000 with 5-6"
                   " players)"),
            Option("dealer", 0, "the first dealer (0 is the first-named player)",
                   (0, 1, 2, 3, 4, 5)),
            Option("must_discard", True, "every draw or trade ends with at least one discard"
                   " (no: discard only the cards over ten)"),
            Option("chance_mr_monopoly", "count", "count: a Chance holder's Mr. Monopoly cards"
                   " still count for most; ignore: they do not", ("count", "ignore")),
            Option("tie", "share", "several players on the same top money at the end: share"
                   " the win, or play another hand", ("share", "play-on")),
        ),
        house_rules=HOUSE_RULES,
        default_players=("Red", "Blue", "Green", "Yellow"),
    )
    action_types: ClassVar = ACTION_TYPES
    # A hand ends only when somebody lays down; random play need not: tests cut it short.
    bounded: ClassVar[bool] = False

    def __init__(self, players: Sequence[str], options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        # read while the game is set up, so that the session records the deck file and a
        # resumed game plays with the journal's copy
        self._deck = load_deck()

    def new_state(self) -> MonopolyCardState:
        return MonopolyCardState(self, self.deck)

    def max_length(self) -> int:
        return 1_000_000

    def command_help(self) -> str:
        return COMMANDS

    @property
    def deck(self) -> Deck:
        return self._deck

    def card_id(self, text: str) -> str:
        try:
            return self.deck.card_id(text)
        except IllegalAction:
            return text.strip().upper()

    def parse_action(self, state: State, text: str) -> Action:
        assert isinstance(state, MonopolyCardState)
        words = text.replace(",", " , ").split()
        if not words:
            raise IllegalAction("Say a command, like: draw")
        verb, rest = words[0].lower(), " ".join(words[1:])
        player = state.current_player()
        if player == CHANCE:
            if verb in ("card", "drawn", "read") and rest:
                return Draw(self.deck.card_id(rest))
            if verb in _VERBS:
                raise IllegalAction(f"First the card: {state.expected()}.")
            return Draw(self.deck.card_id(text))
        if verb == "lay" and words[1:2] and words[1].lower() == "down":
            verb, rest = "down", " ".join(words[2:])
        if verb in ("draw",):
            return DrawCard(player)
        if verb in ("trade", "exchange") and state.big:
            return Exchange(player, self._seat(_first(rest, verb)))
        if verb == "trade":
            return self._trade(player, rest)
        if verb in ("discard", "card") and state.phase in (DISCARD, REFILL, EXCHANGED):
            return Discard(player, self.deck.card_id(rest))
        if verb == "pass":
            return PassCard(player, self.deck.card_id(rest))
        if verb in ("down", "laydown", "out"):
            return self._laydown(player, rest)
        if verb == "reward":
            return Reward(player, parse_cards(self.deck, rest))
        if verb == "show":
            return ShowHand(player, parse_cards(self.deck, rest))
        raise IllegalAction(f"I don't know the command {words[0]!r}. {state.expected()}.")

    def _seat(self, word: str) -> int:
        for i, name in enumerate(self.players):
            if name.lower() == word.lower():
                return i
        raise IllegalAction(f"There is no player called {word}.")

    def _trade(self, player: int, rest: str) -> Trade:
        words = rest.split()
        if not words:
            raise IllegalAction("Say whose trade pile, like: trade Blue 2")
        add = ""
        if "add" in [w.lower() for w in words]:
            at = [w.lower() for w in words].index("add")
            add = self.deck.card_id(" ".join(words[at + 1:]))
            words = words[:at]
        if not words:
            raise IllegalAction("Say whose trade pile, like: trade Blue 2")
        target = words[0].lower()
        n = len(self.players)
        count_words = words[1:]
        if target in ("extra", "pile"):
            index = 1
            if count_words and count_words[0].isdigit() and target == "pile":
                index = int(count_words[0])
                count_words = count_words[1:]
            pile = n + index - 1
        else:
            pile = self._seat(words[0])
        count = 1
        if count_words:
            if not count_words[0].isdigit():
                raise IllegalAction(f"Say how many cards with a number, not {count_words[0]}.")
            count = int(count_words[0])
        return Trade(player, pile, count, add)

    def _laydown(self, player: int, rest: str) -> LayDown:
        parts: dict[str, list[str]] = {"cards": [], "discard": [], "chance": []}
        key = "cards"
        for word in rest.split():
            low = word.lower().rstrip(":")
            if low in ("discard", "discards", "as"):
                key = "discard" if low.startswith("discard") else "chance"
                continue
            parts[key].append(word)
        return LayDown(player, parse_cards(self.deck, " ".join(parts["cards"])),
                       parse_cards(self.deck, " ".join(parts["discard"])),
                       parse_cards(self.deck, " ".join(parts["chance"])))

    def query(self, state: State, text: str) -> str | None:
        assert isinstance(state, MonopolyCardState)
        words = text.split()
        if not words:
            return None
        verb = words[0].lower()
        if verb in ("money", "scores", "balance", "balances"):
            return ", ".join(f"{self.players[p]} {money(m)}"
                             for p, m in enumerate(state.money)) + "."
        if verb == "value" and len(words) > 1:
            cards = parse_cards(self.deck, " ".join(words[1:]))
            value = hand_value(cards)
            return f"{describe_value(value)}: {money(value.total)}."
        if verb == "piles" and state.read:
            from companion.games.monopoly_cards.events import card_names, pile_name, upper_first

            return " ".join(
                f"{upper_first(pile_name(i, self.players))}: top"
                f" {card_names(pile[-1:])}, {counted(len(pile), 'card')}." if pile else
                f"{upper_first(pile_name(i, self.players))}: empty."
                for i, pile in enumerate(state.piles))
        return None

    def interpret(self, state: State, observation: Observation) -> Action:
        """A card read by a reader: a dealt or drawn card at a chance node; a discard when a
        discard is due."""
        assert isinstance(state, MonopolyCardState)
        if isinstance(observation, CardSeen):
            card = self.card_id(observation.card)
            if state.current_player() == CHANCE:
                action: Action = Draw(card)
                request = state.chance()
                assert request is not None
                request.check(action)
                return action
            if state.phase in (DISCARD, REFILL, EXCHANGED):
                return Discard(state.current_player(), card)
            raise IllegalAction(f"No card is expected now. {state.expected()}.")
        return super().interpret(state, observation)


_VERBS = ("draw", "trade", "exchange", "discard", "pass", "down", "lay", "laydown", "out",
          "reward", "show", "card")


def _first(rest: str, verb: str) -> str:
    words = rest.split()
    if not words:
        raise IllegalAction(f"Say with whom, like: {verb} Blue")
    return words[0]


def parse_cards(deck: Deck, text: str) -> tuple[str, ...]:
    """Comma-separated card names ("Park Place, Boardwalk, 2 tokens, 3rd house"); a segment
    that is not one name is read word by word ("GO GO TOKEN")."""
    out: list[str] = []
    for segment in text.split(","):
        words = segment.split()
        if not words:
            continue
        times = 1
        if words[0].isdigit() or (words[0].lower().endswith("x") and words[0][:-1].isdigit()):
            times = int(words[0].rstrip("xX"))
            words = words[1:]
        name = " ".join(words)
        try:
            out += [_card(deck, name)] * times
        except IllegalAction:
            if len(words) == 1:
                raise
            for word in words:
                out.append(_card(deck, word))
    return tuple(out)


def _card(deck: Deck, name: str) -> str:
    try:
        return deck.card_id(name)
    except IllegalAction:
        if name.lower().endswith("s"):
            return deck.card_id(name[:-1])
        raise
