"""Cribbage (rulebook 000, "Cribbage Instructions") for 2, 3 and 4 players.

``scoring`` counts hands, cribs and pegging, itemised; ``engine`` keeps the game; ``tools``
are the ``companion count|advise|stats cribbage`` commands. Design and choices:
docs/games/cribbage.md.
"""

from __future__ import annotations

from typing import ClassVar

from companion.engine import (
    CHANCE,
    Action,
    Draw,
    Game,
    GameSpec,
    IllegalAction,
    Option,
    State,
)
from companion.games import register
from companion.games.cribbage.engine import (
    ACTION_TYPES,
    CRIB,
    DISCARD,
    NO_CLAIM,
    PLAY,
    SHOW,
    CribbageState,
    Discard,
    Go,
    Muggins,
    Play,
    Reveal,
    Show,
    ShowCrib,
    normal_card,
)
from companion.observations import CardSeen, Observation

HOUSE_RULES = (
    "The first-named player deals first (option dealer=N); the deal passes to the left. Cards"
    " are dealt face down and learned when played (option deal=read reads every dealt card)."
    " Go and last card 1, 31 for 2 and no last-card point on top. The hand flush is the four"
    " hand cards; the crib flush needs all five (option crib_four_flush=yes counts four)."
    " Muggins (option muggins=yes): missed points go to the next opponent on the left;"
    " option muggins_call=yes: only if an opponent says muggins before the next play."
)

COMMANDS = """\
  play CARD (or just CARD)   play a card in the play (5H, 10D, TD, JC, A♠)
  go                         you cannot play without passing 31
  starter CARD               the starter turned up (also: cut CARD, card CARD)
  discard CARD [CARD]        deal=read: the cards you put in the crib
  show [CARDS] [N]           show your hand at the count (N: your claimed count);
                             or read/type the four cards one at a time (CARD)
  crib [CARDS] [N]           the dealer shows the crib (the cards are needed with deal=hidden)
  muggins [PLAYER]           muggins_call=yes: an opponent calls muggins on the count just
                             claimed (before anything else is played)"""


@register
class Cribbage(Game):
    spec = GameSpec(
        name="cribbage",
        title="Cribbage",
        min_players=2,
        max_players=4,
        inputs=("cards",),
        rulebook="000: Cribbage Instructions",
        aliases=("crib",),
        options=(
            Option("to", 121, "points to win: 121, or 61 for the short game", (121, 61)),
            Option("deal", "hidden", "hidden: cards learned when played; read: every dealt"
                   " card is read in", ("hidden", "read")),
            Option("muggins", False, "players say their own count; missed points go to the"
                   " opponent"),
            Option("muggins_call", False, "muggins as a call: players say their own count,"
                   " and missed points go to an opponent only if the opponent says muggins"
                   " before the next play; uncalled, they are lost"),
            Option("crib_four_flush", False, "count a four-card flush in the crib (the official"
                   " rule needs all five)"),
            Option("dealer", 0, "the first dealer (0 is the first-named player)", (0, 1, 2, 3)),
            Option("skunk", "acc", "acc: a skunk when the loser is short of 91 (31 in a game"
                   " to 61), a double skunk short of 61; lurch: Hoyle's lurch only, the loser"
                   " short of half way; none", ("acc", "lurch", "none")),
            Option("match", 1, "best of N games, in game points (ACC): a win 2, a skunk or"
                   " double skunk 3, a lurch 4; more than half of N wins' points win"),
        ),
        house_rules=HOUSE_RULES,
    )
    action_types: ClassVar = ACTION_TYPES
    tools: ClassVar = {
        "count": "companion.games.cribbage.tools:count_main",
        "advise": "companion.games.cribbage.tools:advise_main",
        "stats": "companion.games.cribbage.tools:stats_main",
    }

    def new_state(self) -> CribbageState:
        return CribbageState(self)

    def max_length(self) -> int:
        # Every hand pegs at least one point (the last card), so a game lasts at most
        # sides * (target - 1) + 1 hands of at most ~70 inputs.
        sides = 2 if len(self.players) == 4 else len(self.players)
        games = max(1, int(self.options["match"])) + 1  # best of N: at most N + 1 games
        return 70 * (sides * (int(self.options["to"]) - 1) + 1) * games

    def command_help(self) -> str:
        return COMMANDS

    def parse_action(self, state: State, text: str) -> Action:
        assert isinstance(state, CribbageState)
        words = text.replace(",", " ").split()
        if not words:
            raise IllegalAction("Say a command, like: play 5H")
        verb, args = words[0].lower(), words[1:]
        player = state.current_player()
        if verb in ("starter", "cut", "turn") or (verb == "card" and player == CHANCE):
            return Draw(normal_card(_one(args, verb)))
        if verb in ("play", "card") and state.phase in (SHOW, CRIB):
            return Reveal(player, normal_card(_one(args, verb)))
        if verb in ("play", "card"):
            if state.phase != PLAY:
                raise IllegalAction(f"No card is played now. {state.expected()}.")
            return Play(player, normal_card(_one(args, verb)))
        if verb == "go":
            return Go(player)
        if verb == "muggins":
            return Muggins(_caller(state, args))
        if verb == "discard":
            if state.phase != DISCARD:
                why = "" if state.read else " (with deal=hidden discards are not read)"
                raise IllegalAction(f"No discard now{why}. {state.expected()}.")
            return Discard(player, tuple(normal_card(a) for a in args))
        if verb in ("show", "crib", "count"):
            cards, claim = _cards_and_claim(args)
            if state.phase == CRIB or verb == "crib":
                return ShowCrib(player, cards, claim)
            return Show(player, cards, claim)
        if len(words) == 1 and player == CHANCE:
            return Draw(normal_card(words[0]))
        if len(words) == 1 and state.phase == PLAY:
            return Play(player, normal_card(words[0]))
        if len(words) == 1 and state.phase in (SHOW, CRIB) and words[0].isdigit():
            return (ShowCrib if state.phase == CRIB else Show)(player, (), int(words[0]))
        if len(words) == 1 and state.phase in (SHOW, CRIB):
            return Reveal(player, normal_card(words[0]))
        raise IllegalAction(f"I don't know the command {words[0]!r}. {state.expected()}.")

    def interpret(self, state: State, observation: Observation) -> Action:
        """A card read by a device: a dealt card or the starter at a chance node, a card played
        in the play, a card of the hand or crib being shown at the count."""
        assert isinstance(state, CribbageState)
        if isinstance(observation, CardSeen):
            card = normal_card(observation.card)
            if state.current_player() == CHANCE:
                return Draw(card)
            if state.phase == PLAY:
                return Play(state.current_player(), card)
            if state.phase in (SHOW, CRIB):
                return Reveal(state.current_player(), card)
            raise IllegalAction(f"No card is expected now. {state.expected()}.")
        return super().interpret(state, observation)


def _caller(state: CribbageState, args: list[str]) -> int:
    """Who calls muggins: the player named, else the next opponent on the claimer's left."""
    names = state.game.players
    if args:
        wanted = " ".join(args).lower()
        for i, name in enumerate(names):
            if name.lower() == wanted:
                return i
        raise IllegalAction(f"There is no player called {' '.join(args)}")
    if state.muggins_open is None:
        raise IllegalAction("There is no count to call muggins on now")
    return state._muggins_taker(state.muggins_open[0])


def _one(args: list[str], verb: str) -> str:
    if len(args) != 1:
        raise IllegalAction(f"Say one card, like: {verb} 5H")
    return args[0]


def _cards_and_claim(args: list[str]) -> tuple[tuple[str, ...], int]:
    claim = NO_CLAIM
    if args and args[-1].isdigit():
        claim = int(args[-1])
        args = args[:-1]
    if args and args[0].lower() == "claim":
        args = args[1:]
    return tuple(normal_card(a) for a in args), claim
