"""Dominoes (double-six set): the draw games of rulebooks 000 and 004, Block and Bergen.

One registered game per rulebook game, sharing one model (``state``): a line or spinner
layout, hidden hands learned as tiles are played (or every tile read in with tiles=read),
draws, passes, blocked games and the scoring of each text (``rules``). Design and choices:
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
    Shuffle,
    State,
)
from companion.games import register
from companion.games.dominoes.bingo import BINGO_ACTIONS, IDLE_PASSES, BingoState, Take
from companion.games.dominoes.events import ends_words
from companion.games.dominoes.poker import (
    CATEGORIES,
    HAND,
    POKER_ACTIONS,
    Fold,
    PokerState,
)
from companion.games.dominoes.rules import BERGEN, DRAW, Variant
from companion.games.dominoes.state import (
    ACTION_TYPES,
    OPENING,
    PLAY,
    REVEAL,
    DominoState,
    Pass,
    Pick,
    Pips,
    Play,
    Redeal,
    ShowHand,
)
from companion.games.dominoes.texas import TEXAS_ACTIONS, Bid, NameTrump, TexasState
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
        return DominoState(self)

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
        who, words = _named_player(self.players, words)
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
                raise IllegalAction(f"Who sets it? Say: play {tile} and the player's name")
            return Play(_seat(player), tile, " ".join(args[1:]))
        if verb in ("draw", "pick", "take"):
            if state.current_player() == CHANCE:
                if not args:
                    raise IllegalAction("Read the tile drawn, like: draw 6-4")
                return Draw(parse_tile(args[0]))
            if state.read and state.phase == PLAY:
                raise IllegalAction(f"{self.players[_seat(player)]} can play: no draw now."
                                    f" The ends are {ends_words(state.end_values())}")
            return Pick(_seat(player), parse_tile(args[0]) if args else "")
        if verb in ("pass", "knock"):
            return Pass(_seat(player))
        if verb in ("redeal", "nodouble", "reshuffle"):
            return Redeal()
        if verb == "hand":
            if args in (["empty"], ["none"]):
                args = []
            return ShowHand(_seat(player), tuple(parse_tile(a) for a in args))
        if verb == "pips":
            if len(args) != 1 or not args[0].isdigit():
                raise IllegalAction("Say the pips as a number, like: pips 13")
            return Pips(_seat(player), int(args[0]))
        raise IllegalAction(f"I don't know the command {words[0]!r}. {state.expected()}.")

    def query(self, state: State, text: str) -> str | None:
        assert isinstance(state, DominoState)
        word = text.strip().lower()
        if word in ("ends", "open", "open ends"):
            if not state.ends:
                return "No tile is on the table yet."
            return f"The open ends are {ends_words(state.end_values())}."
        if word == "boneyard":
            return f"The boneyard has {state.boneyard()} tiles."
        if word in ("score", "scores"):
            return state.status()
        return None

    def interpret(self, state: State, observation: Observation) -> Action:
        """A tile read by a reader or camera: a drawn tile at a chance node, else a play."""
        assert isinstance(state, DominoState)
        if isinstance(observation, CardSeen):
            tile = parse_tile(observation.card)
            if state.current_player() == CHANCE:
                return Draw(tile)
            if state.phase == OPENING and not state.read:
                who = _index(self.players, observation.player)
                if who is None:
                    raise IllegalAction(f"Who sets it? Say: play {tile} and the player's name")
                return Play(who, tile)
            if state.phase == PLAY:
                return Play(state.turn, tile)
            if state.phase == REVEAL:
                raise IllegalAction("Type the tiles left in the hand: hand 6-4 3-3")
            raise IllegalAction(f"No tile is expected now. {state.expected()}.")
        return super().interpret(state, observation)


def _named_player(players: tuple[str, ...], words: list[str]) -> tuple[int | None, list[str]]:
    for i, word in enumerate(words):
        who = _index(players, word)
        if who is not None and i > 0:
            return who, words[:i] + words[i + 1:]
    return None, words


def _index(players: tuple[str, ...], name: str | None) -> int | None:
    if name is None:
        return None
    for i, player in enumerate(players):
        if player.lower() == name.lower():
            return i
    return None


def _seat(player: int | None) -> int:
    if player is None:
        raise IllegalAction("The game is over")
    return player


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
    variant = Variant("bergen", hand_size=6, draws=True, scoring=BERGEN, spinners="none",
                      blocked_score="difference", target=15, out_call="Bergen!")
    spec = GameSpec(
        name="bergen", title="Bergen (dominoes)", min_players=2, max_players=4,
        inputs=("cards",), rulebook="000: Dominoes Instructions, Bergen",
        aliases=("dominoes-bergen",),
        options=_options(variant, (15,), "points to win", line_only=True),
        house_rules=HOUSE_BERGEN,
    )

    def max_length(self) -> int:
        # Every round scores at least the 2 points of the first double.
        return 200 * (len(self.players) * (int(self.options["to"]) // 2 + 1) + 1)


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
        who, words = _named_player(self.players, words)
        verb, args = words[0].lower(), words[1:]
        if is_tile(verb):
            verb, args = "hand", words
        if state.current_player() == CHANCE and verb in ("card", "draw", "hand") and args:
            return Draw(parse_tile(args[0]))
        player = _seat(who if who is not None else state.actor())
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

    def interpret(self, state: State, observation: Observation) -> Action:
        if isinstance(observation, CardSeen) and state.current_player() == CHANCE:
            return Draw(parse_tile(observation.card))
        return super().interpret(state, observation)


BINGO_COMMANDS = """\
  row TILE ... (28 tiles)    the whole row, left to right (or read it tile by tile: card 6-4)
  remove                     take out the tile that matches the count (also: take, next)
  keep                       remove=may: leave it in the row"""


@register
class Bingo(Game):
    spec = GameSpec(
        name="domino-bingo", title="Bingo (dominoes patience)", min_players=1, max_players=1,
        inputs=("cards",), rulebook="000: Dominoes Instructions, Bingo",
        aliases=("dominoes-bingo",), default_players=("Player",),
        options=(
            Option("remove", "must", "must: a tile matching the count is removed; may: the"
                   " player may leave it", ("must", "may")),
        ),
        house_rules=(
            "The count runs on without restarting when the row is closed up. A tile that"
            " matches is removed (option remove=may: the player chooses). The patience is"
            " lost when the count has gone along the row thirteen times in a row without a"
            " removal: every starting number has then been tried on the same row."
        ),
    )
    action_types: ClassVar = BINGO_ACTIONS

    def new_state(self) -> BingoState:
        return BingoState(self)

    def max_length(self) -> int:
        # 28 tiles read, 28 removals; kept matches between removals are limited by the
        # thirteen idle passes of at most 28 tiles.
        return 28 + 28 * (IDLE_PASSES * 28 + 1) + 1

    def command_help(self) -> str:
        return BINGO_COMMANDS

    def parse_action(self, state: State, text: str) -> Action:
        assert isinstance(state, BingoState)
        words = text.replace(",", " ").split()
        if not words:
            raise IllegalAction("Say remove, or read the row")
        verb, args = words[0].lower(), words[1:]
        if verb == "row":
            return Shuffle("dominoes", tuple(parse_tile(a) for a in args))
        if verb in ("card", "tile") and args:
            return Draw(parse_tile(args[0]))
        if is_tile(verb) and state.current_player() == CHANCE:
            return Draw(parse_tile(verb))
        if verb in ("remove", "take", "next"):
            return Take(0, True)
        if verb == "keep":
            return Take(0, False)
        raise IllegalAction(f"I don't know the command {words[0]!r}. {state.expected()}.")

    def interpret(self, state: State, observation: Observation) -> Action:
        if isinstance(observation, CardSeen) and state.current_player() == CHANCE:
            return Draw(parse_tile(observation.card))
        return super().interpret(state, observation)


TEXAS_COMMANDS = """\
  bid N | pass               bid 30 to 42 (after 42: double it, 84, 168 ...), or pass
  trump N | trump doubles | trump none    the bid winner names trumps (also: no trump)
  play TILE (or just TILE)   play a tile to the trick"""


@register
class Texas(Game):
    spec = GameSpec(
        name="texas-42", title="Four Hand Texas (42)", min_players=4, max_players=4,
        inputs=("cards",), rulebook="000: Dominoes Instructions, Four Hand Texas",
        aliases=("42", "four-hand-texas", "texas"),
        default_players=("Red", "Blue", "Green", "Yellow"),
        options=(
            Option("tiles", "count", "count: tiles learned when played; read: every dealt"
                   " tile is read in", ("count", "read")),
            Option("to", 250, "points to win"),
            Option("dealer", 0, "the first dealer (0 is the first-named player)", (0, 1, 2, 3)),
        ),
        house_rules=(
            "Partners sit opposite: players 1 and 3 against 2 and 4 as named. Each player"
            " bids once, from the dealer's left, the dealer last; a bid must top the one"
            " before; if all pass, the next dealer deals again. A non-trump tile led belongs"
            " to its higher end (a double to its number); a tile holding the trump number is a"
            " trump only. All seven tricks are played. A bid under 42 is made with that many"
            " points; a bid of 42 or more needs all 42."
        ),
    )
    action_types: ClassVar = TEXAS_ACTIONS

    def new_state(self) -> TexasState:
        return TexasState(self)

    def max_length(self) -> int:
        # A round: 28 tiles read, 4 bids, trumps, 28 plays. Each scored round adds at least
        # 30 to one side; a round where all pass is dealt again (rare in random play).
        rounds = 2 * (int(self.options["to"]) // 30 + 1) + 40
        return 61 * rounds

    def command_help(self) -> str:
        return TEXAS_COMMANDS

    def parse_action(self, state: State, text: str) -> Action:
        assert isinstance(state, TexasState)
        words = text.replace(",", " ").lower().split()
        if not words:
            raise IllegalAction("Say a command, like: bid 30")
        verb, args = words[0], words[1:]
        if is_tile(verb):
            verb, args = "play", words
        if state.current_player() == CHANCE:
            if verb in ("card", "play", "draw") and args:
                return Draw(parse_tile(args[0]))
            raise IllegalAction(f"Read the tiles dealt first. {state.expected()}.")
        player = _seat(state.actor())
        if verb == "pass":
            return Bid(player, 0)
        if verb == "bid":
            if len(args) != 1 or not args[0].isdigit():
                raise IllegalAction("Say the bid as a number, like: bid 30")
            return Bid(player, int(args[0]))
        if verb == "no" and args[:1] == ["trump"]:
            return NameTrump(player, "none")
        if verb in ("trump", "trumps"):
            if len(args) != 1:
                raise IllegalAction("Say trump and a number 0 to 6, doubles, or none")
            word = {"blanks": "0", "blank": "0", "notrump": "none", "double": "doubles"}.get(
                args[0], args[0])
            return NameTrump(player, word)
        if verb in ("play", "card"):
            if len(args) != 1:
                raise IllegalAction("Say which tile, like: play 6-4")
            return Play(player, parse_tile(args[0]))
        raise IllegalAction(f"I don't know the command {words[0]!r}. {state.expected()}.")

    def interpret(self, state: State, observation: Observation) -> Action:
        assert isinstance(state, TexasState)
        if isinstance(observation, CardSeen):
            tile = parse_tile(observation.card)
            if state.current_player() == CHANCE:
                return Draw(tile)
            if state.phase == "play":
                return Play(state.turn, tile)
            raise IllegalAction(f"No tile is expected now. {state.expected()}.")
        return super().interpret(state, observation)
