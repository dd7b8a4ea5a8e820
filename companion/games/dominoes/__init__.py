"""Dominoes (double-six set): every dominoes game of rulebooks 000 and 004.

One registered game per rulebook game. The line games (the 000 draw game, 004 Double-Six,
Block, Bergen) share one model (``state``): a line or spinner layout, hidden hands learned as
tiles are played (or every tile read in with tiles=read), draws, passes, blocked games and the
scoring of each text (``rules``). Poker (``poker``), Bingo (``bingo``) and Four Hand Texas
(``texas``) are games of other kinds and have their own modules. Design and choices:
docs/games/dominoes.md.
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
    counted,
)
from companion.games import register
from companion.games.dominoes import bingo, poker, texas  # noqa: F401  (they register their games)
from companion.games.dominoes.actions import (
    ACTION_TYPES,
    Pass,
    Pick,
    Pips,
    Play,
    Redeal,
    ShowHand,
)
from companion.games.dominoes.commands import named_player, player_index, seat
from companion.games.dominoes.events import ends_words
from companion.games.dominoes.rules import BERGEN, DRAW, Variant
from companion.games.dominoes.state import OPENING, PLAY, REVEAL, DominoState
from companion.games.dominoes.tiles import is_tile, parse_tile
from companion.observations import CardSeen, Observation

COMMANDS = """\
  play TILE [left|right|on N] [NAME]   lay a tile (6-4); the end only when it fits two;
                             the first tile (the highest double) with who sets it: play 6-6 Red
  TILE                       the same as play TILE (a tile reader sends just the tile)
  draw [TILE]                you cannot play: one tile from the boneyard (TILE if shown)
  pass                       you cannot play and the boneyard is empty (Block: you cannot play)
  redeal                     nobody drew a double: mix and draw again
  hand TILE ... [NAME]       the tiles left in a hand at the end of a round (hand empty: none)
  pips N [NAME]              the pips left in a hand (not in Bergen: it needs the doubles)
  ends | boneyard | score    questions: the open ends, tiles left to draw, the scores"""


def _options(
    variant: Variant, targets: tuple[int, ...], target_help: str, *, line_only: bool = False
) -> tuple[Option, ...]:
    options = [
        Option("tiles", "count", "count: hands hidden, tiles learned when played; read: every"
               " tile drawn is read in", ("count", "read")),
        Option("to", variant.target, target_help, targets),
    ]
    if line_only:  # Bergen scores the two ends of a line
        options.append(Option("spinners", "none", "a line with two ends (left and right)",
                              ("none",)))
    else:
        options.append(Option(
            "spinners", variant.spinners, "none: a line with two ends; first: the first"
            " double is open on all four sides; all: every double opens its ends too",
            ("none", "first", "all")))
    if variant.scoring != BERGEN:
        options.append(Option(
            "blocked_score", variant.blocked_score, "blocked game: difference (the lowest"
            " hand scores the others' pips minus its own) or opponents (the others' pips)",
            ("difference", "opponents")))
    return tuple(options)


class DominoGame(Game):
    """One dominoes game of the rulebooks; subclasses give the variant and the spec."""

    variant: ClassVar[Variant]
    action_types: ClassVar = ACTION_TYPES

    def new_state(self) -> DominoState:
        return DominoState(self, self.variant)

    def max_length(self) -> int:
        # A round: at most 28 tiles read, 28 drawn, 28 played, 3 passes between plays and a
        # few hands shown: under 200 inputs. A round may score nothing (a tied block), so
        # the bound is a generous count of rounds rather than a proof.
        rounds = 4 * int(self.options["to"]) + 20
        return 200 * rounds

    def command_help(self) -> str:
        return COMMANDS

    def parse_action(self, state: State, text: str) -> Action:
        assert isinstance(state, DominoState)
        words = text.replace(",", " ").split()
        if not words:
            raise IllegalAction("Say a command, like: play 6-4 left")
        who, words = named_player(self.players, words)
        verb, args = words[0].lower(), words[1:]
        if is_tile(verb):
            verb, args = "play", words
        actor = state.actor()
        player = who if who is not None else actor
        if verb in ("play", "card", "lay", "set"):
            if not args:
                raise IllegalAction("Say which tile, like: play 6-4")
            tile = parse_tile(args[0])
            if state.current_player() == CHANCE:
                return Draw(tile)
            if state.phase == OPENING and not state.read and who is None:
                raise IllegalAction(f"Who sets it? Say: play {tile} and the player's name.")
            return Play(seat(player), tile, " ".join(args[1:]))
        if verb in ("draw", "pick", "take"):
            if state.current_player() == CHANCE:
                if not args:
                    raise IllegalAction("Read the tile drawn, like: draw 6-4")
                return Draw(parse_tile(args[0]))
            if state.read and state.phase == PLAY:
                raise IllegalAction(f"{self.players[seat(player)]} can play: no draw now."
                                    f" The ends are {ends_words(state.end_values())}")
            return Pick(seat(player), parse_tile(args[0]) if args else "")
        if verb in ("pass", "knock"):
            return Pass(seat(player))
        if verb in ("redeal", "nodouble", "reshuffle"):
            return Redeal()
        if verb == "hand":
            if args in (["empty"], ["none"]):
                args = []
            return ShowHand(seat(player), tuple(parse_tile(a) for a in args))
        if verb == "pips":
            if len(args) != 1 or not args[0].isdigit():
                raise IllegalAction("Say the pips as a number, like: pips 13")
            return Pips(seat(player), int(args[0]))
        raise IllegalAction(f"I don't know the command {words[0]!r}. {state.expected()}.")

    def query(self, state: State, text: str) -> str | None:
        assert isinstance(state, DominoState)
        word = text.strip().lower()
        if word in ("ends", "open", "open ends"):
            if not state.ends:
                return "No tile is on the table yet."
            return f"The open ends are {ends_words(state.end_values())}."
        if word == "boneyard":
            return f"The boneyard has {counted(state.boneyard(), 'tile')}."
        if word in ("score", "scores"):
            return state.status()
        return None

    def card_id(self, text: str) -> str:
        return parse_tile(text)  # "4-6", "6:4", "64" -> "6-4"

    def interpret(self, state: State, observation: Observation) -> Action:
        """A tile read by a reader or camera: a drawn tile at a chance node, else a play."""
        assert isinstance(state, DominoState)
        if isinstance(observation, CardSeen):
            tile = parse_tile(observation.card)
            if state.current_player() == CHANCE:
                return Draw(tile)
            if state.phase == OPENING and not state.read:
                who = player_index(self.players, observation.player)
                if who is None:
                    raise IllegalAction(f"Who sets it? Say: play {tile} and the player's name.")
                return Play(who, tile)
            if state.phase == PLAY:
                return Play(state.turn, tile)
            if state.phase == REVEAL:
                raise IllegalAction("Type the tiles left in the hand: hand 6-4 3-3")
            raise IllegalAction(f"No tile is expected now. {state.expected()}.")
        return super().interpret(state, observation)


# --------------------------------------------------------------------------- the games

HOUSE_DRAW = (
    "The highest double held sets first; with hidden tiles the players say who (play 6-6"
    " Red). A line has two ends, named left and right; doubles lie crosswise but do not"
    " branch. A player who cannot play draws until able; with the boneyard empty, passes."
    " Blocked: the lowest hand wins and scores the others' pips minus its own (option"
    " blocked_score=opponents: the others' pips); a tie for lowest scores nothing."
)


@register
class Dominoes(DominoGame):
    tools: ClassVar = {"simulate": "companion.games.dominoes.tools:simulate_dominoes"}
    variant = Variant("dominoes", hand_size=5, draws=True, scoring=DRAW, spinners="none",
                      blocked_score="difference", target=100)
    spec = GameSpec(
        name="dominoes", title="Dominoes (draw game)", min_players=2, max_players=4,
        inputs=("cards",), rulebook="000: Dominoes Instructions, basic rules",
        aliases=("draw-dominoes", "domino"),
        options=_options(variant, (100, 50), "points to win: 100, or 50 for the short game"),
        house_rules=HOUSE_DRAW,
    )


HOUSE_DOUBLE_SIX = (
    "Rulebook 004: every double is a spinner: the first is open on both sides and both ends"
    " (four ways), a later double on its far side and both ends (option spinners=first: only"
    " the first double; none: a line). Ends are named by the number showing (play 6-4 on 6)."
    " The winner scores the opponents' pips; blocked: the lowest hand scores the opponents'"
    " pips minus its own (rulebook 004); a tie for lowest scores nothing."
)


@register
class DoubleSix(DominoGame):
    tools: ClassVar = {"simulate": "companion.games.dominoes.tools:simulate_double_six"}
    variant = Variant("double-six", hand_size=5, draws=True, scoring=DRAW, spinners="all",
                      blocked_score="difference", target=100)
    spec = GameSpec(
        name="double-six", title="Double-Six Dominoes", min_players=2, max_players=4,
        inputs=("cards",), rulebook="004: Double-Six Dominoes",
        aliases=("double-six-dominoes", "dominoes-004"),
        options=_options(variant, (100,), "points to win"),
        house_rules=HOUSE_DOUBLE_SIX,
    )


HOUSE_BLOCK = (
    "Block (rulebook 000): seven tiles each, no drawing: a player who cannot play passes."
    " The rulebook does not say who begins: as in the basic rules, the highest double is set"
    " first (redeal if nobody holds one). Going out or winning a blocked game (the lowest"
    " hand) earns the pips left in the opponents' hands, as the text says (option"
    " blocked_score=difference: minus the winner's own, as in 004). A tie for lowest scores"
    " nothing."
)


@register
class Block(DominoGame):
    tools: ClassVar = {"simulate": "companion.games.dominoes.tools:simulate_block"}
    variant = Variant("block", hand_size=7, draws=False, scoring=DRAW, spinners="none",
                      blocked_score="opponents", target=100)
    spec = GameSpec(
        name="block-dominoes", title="Block Dominoes", min_players=2, max_players=4,
        inputs=("cards",), rulebook="000: Dominoes Instructions, Block",
        aliases=("block", "dominoes-block"),
        options=_options(variant, (100,), "points to win"),
        house_rules=HOUSE_BLOCK,
    )


HOUSE_BERGEN = (
    "Bergen (rulebook 000): six tiles each; a line with two ends. Setting the first double"
    " scores 2. A play that leaves both ends the same number scores 2 (a double-header), or 3"
    " when a double lies at either end (a triple-header). Going out scores 1. Blocked: the"
    " lowest hand without a double scores 1; if every hand holds a double, the lowest count"
    " of the tiles that are not doubles scores 1; a tie scores nothing. The game ends as soon"
    " as a player reaches 15, even within a round."
)


@register
class Bergen(DominoGame):
    tools: ClassVar = {"simulate": "companion.games.dominoes.tools:simulate_bergen"}
    variant = Variant("bergen", hand_size=6, draws=True, scoring=BERGEN, spinners="none",
                      blocked_score="difference", target=15, out_call="Bergen!")
    spec = GameSpec(
        name="bergen", title="Bergen (dominoes)", min_players=2, max_players=4,
        inputs=("cards",), rulebook="000: Dominoes Instructions, Bergen",
        aliases=("dominoes-bergen",),
        options=(*_options(variant, (15,), "points to win", line_only=True), Option(
            "triple_header", "matching", "matching: 3 points when both ends match and one"
            " end is a double; any-double: 3 points whenever an end tile is a double",
            ("matching", "any-double")), Option(
            "blocked_lowest", "clean", "a blocked round: clean (the lowest hand without a"
            " double wins the point) or lowest (only the lowest hand, if it holds no double)",
            ("clean", "lowest"))),
        house_rules=HOUSE_BERGEN,
    )

    def max_length(self) -> int:
        # Every round scores at least the 2 points of the first double.
        return 200 * (len(self.players) * (int(self.options["to"]) // 2 + 1) + 1)
