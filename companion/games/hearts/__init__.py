"""Hearts (rulebook 000, "Hearts") for 3 to 6 players, with the rulebook's optional rules.

``rules`` holds the pure rules (legal cards, passing, scoring); ``state`` keeps the game;
``events`` say what happened. Design and choices: docs/games/hearts.md.
"""

from __future__ import annotations

from typing import ClassVar

from companion.engine import CHANCE, Action, Draw, Game, GameSpec, IllegalAction, Option, State
from companion.games import register
from companion.games.hearts import rules
from companion.games.hearts.state import (
    ACTION_TYPES,
    MOON,
    PASS,
    PLAY,
    TALLY,
    HeartsState,
    Moon,
    Pass,
    Play,
    Tally,
    normal_card,
)
from companion.observations import CardSeen, Observation

HOUSE_RULES = (
    "The rulebook's game by default: no passing, the eldest hand leads any card, no hearts-broken"
    " rule, no moon; the optional rules are options. The game ends when a score passes the"
    " target (option end=reaches for reaching it); the lowest score wins, ties share the win."
    " Cards are dealt face down and learned when played (option deal=read reads every dealt"
    " card). Hearts are broken by a heart played out of suit, as printed (option"
    " lead_breaks=yes: also by a heart led)."
)

COMMANDS = """\
  CARD (or play CARD)      play a card (5H, 10D or TD, QS, A♠)
  CARD NAME                deal=hidden, two_clubs: who leads the opening club (2C Blue)
  pass CARD CARD CARD      deal=read: the cards you pass
  moon subtract|add        moon=choose: the shooter's choice
  points N N N N           deal=tally: the points each player took, in seat order
  scores                   the scores (also: points, trick)"""


@register
class Hearts(Game):
    spec = GameSpec(
        name="hearts",
        title="Hearts",
        min_players=3,
        max_players=6,
        inputs=("cards",),
        rulebook="000: Hearts",
        options=(
            Option("deal", "hidden", "hidden: cards learned when played; read: every dealt card"
                   " is read in; tally: only the points of each hand are said",
                   ("hidden", "read", "tally")),
            Option("to", 100, "the score that ends the game"),
            Option("end", "passes", "the game ends when a score passes the target (rulebook), or"
                   " reaches it", ("passes", "reaches")),
            Option("pass", "none", "passing: none, right (the rulebook's passing rule), left,"
                   " cycle-left / cycle-right (left, right, across, hold), alternate-left /"
                   " alternate-right", rules.PASS_CHOICES),
            Option("widow", "no", "no: strip low cards (rulebook); first-trick / first-points:"
                   " deal the excess into a widow taken by the first (point) trick",
                   ("no", "first-trick", "first-points")),
            Option("two_clubs", False, "the holder of the two of clubs (the lowest club in play)"
                   " leads it"),
            Option("lowest_club", False, "on the first trick only a player's lowest club may be"
                   " played"),
            Option("first_trick", "allowed", "points on the first trick: allowed, no-discard (no"
                   " point cards out of suit), none (not led either)",
                   ("allowed", "no-discard", "none")),
            Option("hearts_broken", False, "hearts cannot be led until a heart has been played"),
            Option("queen_breaks", False, "the queen of spades breaks hearts too"),
            Option("lead_breaks", False, "a heart led (by a player holding only hearts) breaks"
                   " hearts too; the rulebook: only a heart played out of suit"),
            Option("queen_waits", False, "the queen of spades cannot be played until hearts are"
                   " broken"),
            Option("moon", "none", "shooting the moon: none, subtract (26 off the shooter),"
                   " add (26 to each other player), choose (the shooter chooses)",
                   ("none", "subtract", "add", "choose")),
            Option("moon_needs_queen", True, "the moon needs the queen of spades as well as"
                   " every heart"),
            Option("dealer", 0, "the first dealer (0 is the first-named player)",
                   (0, 1, 2, 3, 4, 5)),
        ),
        house_rules=HOUSE_RULES,
        default_players=("Red", "Blue", "Green", "Yellow"),
    )
    action_types: ClassVar = ACTION_TYPES

    def new_state(self) -> HeartsState:
        return HeartsState(self)

    def max_length(self) -> int:
        # Each hand adds 26 points in all (a subtracted moon takes 26 off instead), so some
        # score passes the target within n * target / 26 + 1 hands when no moon is
        # subtracted; the factor 4 leaves room for moons. A hand is at most 52 dealt cards,
        # n passes, 52 plays, the widow and a moon choice.
        n = len(self.players)
        hands = 4 * (n * int(self.options["to"]) // 26 + 2)
        return hands * (52 + n + 52 + 4 + 1)

    def command_help(self) -> str:
        return COMMANDS

    def parse_action(self, state: State, text: str) -> Action:
        assert isinstance(state, HeartsState)
        words = text.replace(",", " ").split()
        if not words:
            raise IllegalAction("Say a card, like: 5H")
        verb, args = words[0].lower(), words[1:]
        player = state.current_player()
        if player == CHANCE and (verb == "card" or len(words) == 1):
            return Draw(normal_card(args[0] if verb == "card" and args else words[0]))
        if verb == "pass":
            if state.phase != PASS:
                why = "" if state.read else " (with deal=hidden the pass is not read)"
                raise IllegalAction(f"No passing now{why}. {state.expected()}.")
            cards = tuple(normal_card(a) for a in args)
            return Pass(_passer(state, cards), cards)
        if state.phase == TALLY:
            numbers = args if verb in ("points", "score", "tally") else words
            if not numbers or not all(w.lstrip("-").isdigit() for w in numbers):
                raise IllegalAction(f"Say the points in seat order. {state.expected()}.")
            return Tally(tuple(int(w) for w in numbers))
        said = args if verb in ("points", "score", "tally") else words
        if _numbers(said):  # points said out of their time: the rules say why
            return Tally(tuple(int(w) for w in said))
        if verb == "moon":
            if state.phase != MOON:
                raise IllegalAction(f"Nobody shot the moon. {state.expected()}.")
            return Moon(player, args[0].lower() if args else "")
        if verb in ("play", "card", "lead"):
            words = args
        if state.phase != PLAY or not words:
            raise IllegalAction(f"I don't know the command {text!r}. {state.expected()}.")
        if state.hidden_opening_due():
            return _opening(state, words)
        if len(words) != 1:
            raise IllegalAction("Say one card, like: play 5H")
        return Play(player, normal_card(words[0]))

    def parse_spoken(self, state: State, text: str, player: int | None) -> Action:
        assert isinstance(state, HeartsState)
        if player is not None and state.hidden_opening_due():
            # "Blue 2C": the speaker is who holds the opening card.
            return self.parse_action(state, f"{text} {self.players[player]}")
        return super().parse_spoken(state, text, player)

    def query(self, state: State, text: str) -> str | None:
        assert isinstance(state, HeartsState)
        word = text.strip().lower()
        names = self.players
        if word in ("score", "scores"):
            parts = [f"{names[p]} {state.scores_[p]}" for p in range(len(names))]
            return f"Scores: {', '.join(parts)}."
        if word == "points":
            parts = [f"{names[p]} {sum(rules.points(c) for c in state.taken[p])}"
                     for p in range(len(names))]
            return f"Points taken this hand: {', '.join(parts)}."
        if word == "trick":
            if not state.trick:
                return f"No card in this trick yet. {state.expected()}."
            cards = ", ".join(f"{names[p]} the {rules.card_name(c)}" for p, c in state.trick)
            return f"This trick: {cards}."
        return None

    def interpret(self, state: State, observation: Observation) -> Action:
        """A card read by a device: a dealt card at a chance node, else a card played (at a
        deal=hidden opening, by the player the reading names)."""
        assert isinstance(state, HeartsState)
        if isinstance(observation, CardSeen) and state.current_player() != CHANCE:
            card = normal_card(observation.card)
            if state.hidden_opening_due():
                return _opening(state, [card, *([observation.player] if observation.player
                                                else [])])
            if state.phase == PLAY:
                return Play(state.current_player(), card)
            raise IllegalAction(f"No card is played now. {state.expected()}.")
        return super().interpret(state, observation)


def _numbers(words: list[str]) -> bool:
    return bool(words) and all(w.lstrip("-").isdigit() and w.isascii() for w in words)


def _passer(state: HeartsState, cards: tuple[str, ...]) -> int:
    """Who passes these cards: the player yet to pass who holds the first (deal=read)."""
    for p in range(state.n):
        if cards and (cards[0] in state.hands[p] or cards[0] in (state.passes[p] or ())):
            return p
    return state.current_player()


def _opening(state: HeartsState, words: list[str]) -> Action:
    """deal=hidden with two_clubs: the companion cannot know who holds the opening club."""
    names = [w for w in words if any(w.lower() == n.lower() for n in state.game.players)]
    cards = [w for w in words if w not in names]
    opening = state.hidden_openings()[0]
    if len(names) != 1 or len(cards) > 1:
        raise IllegalAction(f"Who leads the {rules.card_name(opening)}? Say, for example:"
                            f" {opening} {state.game.players[0]}")
    player = next(i for i, n in enumerate(state.game.players) if n.lower() == names[0].lower())
    return Play(player, normal_card(cards[0]) if cards else opening)
