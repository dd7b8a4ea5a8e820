"""Four Hand Texas (rulebook 000), "42": partners, bidding, trumps and seven tricks.

Partners sit opposite: players 1 and 3 against 2 and 4 in the order named. The count tiles
(5-5 and 6-4 ten each; 5-0, 3-2 and 4-1 five each) and one point a trick make 42 a round.
Tiles are learned when played (tiles=count) or every dealt tile is read in (tiles=read); as
every tile is played in a round and none is drawn, a tile played after its player did not
follow that suit shows a renege, which is pointed out (refused at once with tiles=read).
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
    Draw,
    Event,
    Game,
    GameOver,
    GameSpec,
    IllegalAction,
    Option,
    Priority,
    State,
    TurnPasses,
    counted,
)
from companion.games import register
from companion.games.dominoes.actions import Play
from companion.games.dominoes.commands import seat
from companion.games.dominoes.tiles import (
    ALL_TILES,
    and_list,
    ends_of,
    is_double,
    is_tile,
    parse_tile,
    tile_name,
    value_word,
)
from companion.observations import CardSeen, Observation

HAND = 7
MIN_BID = 30
LIMIT = 42
COUNT_TILES = {"5-5": 10, "6-4": 10, "5-0": 5, "3-2": 5, "4-1": 5}
TRUMPS = ("6", "5", "4", "3", "2", "1", "0", "doubles", "none")
DEAL, BID, TRUMP, PLAY, OVER = "deal", "bid", "trump", "play", "over"
TRUMP_SUIT = -1  # the led "suit" when a trump is led


@dataclass(frozen=True)
class Bid(Action):
    player: int
    amount: int  # 0: pass

    def __str__(self) -> str:
        return f"bid {self.amount}" if self.amount else "pass"


@dataclass(frozen=True)
class NameTrump(Action):
    player: int
    trump: str  # "0".."6", "doubles" or "none"

    def __str__(self) -> str:
        return f"trump {self.trump}"


TEXAS_ACTIONS: dict[str, type[Action]] = {"Bid": Bid, "NameTrump": NameTrump, "Play": Play}


def trump_words(trump: str) -> str:
    if trump == "none":
        return "no trump"
    if trump == "doubles":
        return "doubles"
    return {"0": "blanks", "6": "sixes"}.get(trump, value_word(int(trump)) + "s")


def suit_words(suit: int) -> str:
    return "trumps" if suit == TRUMP_SUIT else {0: "blanks", 6: "sixes"}.get(
        suit, value_word(suit) + "s")


def count_of(tile: str) -> int:
    return COUNT_TILES.get(tile, 0)


def is_trump(tile: str, trump: str) -> bool:
    if trump == "doubles":
        return is_double(tile)
    if trump == "none":
        return False
    return int(trump) in ends_of(tile)


def led_suit(tile: str, trump: str) -> int:
    """A trump leads trumps; otherwise the higher end (a double: its number)."""
    return TRUMP_SUIT if is_trump(tile, trump) else ends_of(tile)[0]


def follows(tile: str, suit: int, trump: str) -> bool:
    if suit == TRUMP_SUIT:
        return is_trump(tile, trump)
    return not is_trump(tile, trump) and suit in ends_of(tile)


def strength(tile: str, suit: int, trump: str) -> tuple[int, int]:
    """Higher wins the trick: a trump beats the led suit; within one, the double is highest,
    then the other end (doubles as trump: by their number)."""
    a, b = ends_of(tile)
    if is_trump(tile, trump):
        if trump == "doubles":
            return 2, a
        t = int(trump)
        return 2, 7 if a == b else (b if a == t else a)
    if suit != TRUMP_SUIT and suit in (a, b):
        return 1, 7 if a == b else (b if a == suit else a)
    return 0, 0


# --------------------------------------------------------------------------- events


def side_words(names: Sequence[str], side: int) -> str:
    return f"{names[side]} and {names[side + 2]}"


@dataclass(frozen=True)
class NewDeal(Event):
    number: int
    dealer: int
    read: bool
    key: ClassVar[str] = "dominoes.texas_deal"

    def describe(self, names: Sequence[str]) -> str:
        first = names[(self.dealer + 1) % 4]
        text = f"Round {self.number}: {names[self.dealer]} deals, seven tiles each."
        if self.read:
            return f"{text} Read each player's tiles, {first}'s first."
        return f"{text} {first} bids first: 30 to 42, 84 and up after 42, or pass."


@dataclass(frozen=True)
class BidSaid(Event):
    player: int
    amount: int
    key: ClassVar[str] = "dominoes.texas_bid"

    def describe(self, names: Sequence[str]) -> str:
        if not self.amount:
            return f"{names[self.player]} passes."
        return f"{names[self.player]} bids {self.amount}."


@dataclass(frozen=True)
class AllPassed(Event):
    dealer: int
    key: ClassVar[str] = "dominoes.texas_all_passed"

    def describe(self, names: Sequence[str]) -> str:
        return f"Everyone passed: the tiles are mixed again and {names[self.dealer]} deals."


@dataclass(frozen=True)
class BidWon(Event):
    player: int
    amount: int
    key: ClassVar[str] = "dominoes.texas_bid_won"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return (f"{names[self.player]} wins the bid at {self.amount}. {names[self.player]},"
                " name trumps: a number, doubles, or no trump.")


@dataclass(frozen=True)
class TrumpNamed(Event):
    player: int
    trump: str
    key: ClassVar[str] = "dominoes.texas_trump"

    def describe(self, names: Sequence[str]) -> str:
        return f"{trump_words(self.trump).capitalize()} are trumps; {names[self.player]} leads."


@dataclass(frozen=True)
class Laid(Event):
    player: int
    tile: str
    suit: int  # the suit led (the trick's)
    lead: bool
    key: ClassVar[str] = "dominoes.texas_laid"

    def describe(self, names: Sequence[str]) -> str:
        if self.lead:
            return (f"{names[self.player]} leads the {tile_name(self.tile)}:"
                    f" {suit_words(self.suit)}.")
        return f"{names[self.player]} plays the {tile_name(self.tile)}."


@dataclass(frozen=True)
class TrickWon(Event):
    player: int
    tile: str
    points: int
    count: tuple[str, ...]
    key: ClassVar[str] = "dominoes.texas_trick"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        extra = ""
        if self.count:
            extra = " with " + and_list([f"the {tile_name(t)}" for t in self.count])
        return (f"{names[self.player]} takes the trick with the {tile_name(self.tile)}: "
                f"{self.points} point{'s' * (self.points != 1)}{extra}.")


@dataclass(frozen=True)
class Renege(Event):
    player: int
    tile: str
    suit: int
    trick: int
    key: ClassVar[str] = "dominoes.texas_renege"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        return (f"Note: {names[self.player]} did not follow {suit_words(self.suit)} in trick"
                f" {self.trick} while holding the {tile_name(self.tile)}.")


@dataclass(frozen=True)
class RoundScored(Event):
    bidder: int
    bid: int
    taken: tuple[int, int]  # points taken by each side this round
    made: bool
    added: tuple[int, int]
    scores: tuple[int, int]
    key: ClassVar[str] = "dominoes.texas_round"
    priority: ClassVar[int] = Priority.RESULT

    def describe(self, names: Sequence[str]) -> str:
        side = self.bidder % 2
        bidders = side_words(names, side)
        verdict = "make" if self.made else "are set on"
        return (f"{bidders} take {self.taken[side]} and {verdict} the bid of {self.bid}."
                f" {side_words(names, 0)} add {self.added[0]}, {side_words(names, 1)} add"
                f" {self.added[1]}: {self.scores[0]} to {self.scores[1]}.")


# --------------------------------------------------------------------------- state


class TexasState(State):
    def __init__(self, game: Texas) -> None:
        self.game = game
        self.read = game.options["tiles"] == "read"
        self.target = int(game.options["to"])
        self.scores_by_side = [0, 0]
        self.round_number = 0
        self.winner_side: int | None = None
        self.dealer = int(game.options["dealer"])
        self.phase = OVER
        self._new_round(self.dealer)

    def _new_round(self, dealer: int) -> list[Event]:
        self.round_number += 1
        self.dealer = dealer % 4
        self.hands: list[list[str]] = [[] for _ in range(4)]
        self.unknown = [0 if self.read else HAND] * 4
        self.dealt = 0
        self.bids: list[int] = []  # in bidding order; 0 is a pass
        self.high = 0
        self.bidder = -1
        self.trump = ""
        self.turn = (self.dealer + 1) % 4
        self.trick: list[tuple[int, str]] = []
        self.tricks_done = 0
        self.taken = [0, 0]
        self.played: list[str] = []
        self.failed: list[tuple[int, int, int]] = []  # (player, suit not followed, trick)
        self.phase = DEAL if self.read else BID
        return [NewDeal(self.round_number, self.dealer, self.read)]

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
        return ChanceRequest(kind="card", deck="dominoes", cards=tuple(self.unseen()),
                             who=self._dealt_to())

    def _dealt_to(self) -> int:
        return (self.dealer + 1 + self.dealt // HAND) % 4

    def unseen(self) -> list[str]:
        seen = set(self.played) | {t for h in self.hands for t in h}
        return [t for t in ALL_TILES if t not in seen]

    def bid_choices(self) -> list[int]:
        if self.high >= LIMIT:
            return [2 * self.high]
        return list(range(max(MIN_BID, self.high + 1), LIMIT + 1))

    def legal_actions(self) -> list[Action]:
        p = self.current_player()
        if p < 0:
            return []
        if self.phase == BID:
            return [Bid(p, 0), *(Bid(p, b) for b in self.bid_choices())]
        if self.phase == TRUMP:
            return [NameTrump(p, t) for t in TRUMPS]
        candidates = list(self.hands[p]) + (self.unseen() if self.unknown[p] else [])
        if self.trick and self.read:
            suit = led_suit(self.trick[0][1], self.trump)
            following = [t for t in candidates if follows(t, suit, self.trump)]
            candidates = following or candidates
        return [Play(p, t) for t in candidates]

    def winners(self) -> tuple[int, ...]:
        side = self.winner_side
        return () if side is None else (side, side + 2)

    def scores(self) -> list[float]:
        return [float(self.scores_by_side[p % 2]) for p in range(4)]

    # --- the deal, bids and trumps ------------------------------------------------------

    def _check_turn(self, player: int) -> None:
        if not 0 <= player < len(self.game.players):
            raise IllegalAction(f"There is no player number {player}")
        if player != self.current_player():
            actor = self.actor()
            whose = self.game.players[actor] if actor is not None else "nobody"
            raise IllegalAction(f"It is {whose}'s turn, not {self.game.players[player]}'s")

    def _draw(self, action: Action) -> list[Event]:
        assert isinstance(action, Draw)
        if self.phase != DEAL:
            raise IllegalAction(f"No tile is read now. {self.expected()}.")
        tile = parse_tile(action.card)
        if tile not in self.unseen():
            raise IllegalAction(f"The {tile_name(tile)} was dealt already")
        self.hands[self._dealt_to()].append(tile)
        self.dealt += 1
        if self.dealt == HAND * 4:
            self.phase = BID
            self.turn = (self.dealer + 1) % 4
            return [TurnPasses(self.turn)]
        return []

    def _bid(self, action: Action) -> list[Event]:
        assert isinstance(action, Bid)
        if self.phase != BID:
            raise IllegalAction(f"No bidding now. {self.expected()}.")
        p = action.player
        self._check_turn(p)
        if action.amount and action.amount not in self.bid_choices():
            choices = self.bid_choices()
            need = (f"{choices[0]}" if len(choices) == 1 else f"{choices[0]} to {choices[-1]}")
            raise IllegalAction(f"A bid now must be {need}, or pass")
        self.bids.append(action.amount)
        if action.amount:
            self.high, self.bidder = action.amount, p
        events: list[Event] = [BidSaid(p, action.amount)]
        if len(self.bids) < 4:
            self.turn = (p + 1) % 4
            return events
        if self.bidder < 0:  # everyone passed: the next dealer deals again
            nxt = (self.dealer + 1) % 4
            self.round_number -= 1
            return events + [AllPassed(nxt)] + self._new_round(nxt)
        self.phase = TRUMP
        self.turn = self.bidder
        return events + [BidWon(self.bidder, self.high)]

    def _name_trump(self, action: Action) -> list[Event]:
        assert isinstance(action, NameTrump)
        if self.phase != TRUMP:
            raise IllegalAction(f"No trumps are named now. {self.expected()}.")
        self._check_turn(action.player)
        if action.trump not in TRUMPS:
            raise IllegalAction("Name trumps as a number 0 to 6, doubles, or none")
        self.trump = action.trump
        self.phase = PLAY
        self.turn = self.bidder
        return [TrumpNamed(self.bidder, self.trump)]

    # --- tricks -------------------------------------------------------------------------

    def _play(self, action: Action) -> list[Event]:
        assert isinstance(action, Play)
        if self.phase != PLAY:
            raise IllegalAction(f"No tile is played now. {self.expected()}.")
        p = action.player
        self._check_turn(p)
        if action.end:
            raise IllegalAction("In Texas 42 a tile is played to the trick: no end")
        tile = parse_tile(action.tile)
        name = self.game.players[p]
        if tile in self.played:
            raise IllegalAction(f"The {tile_name(tile)} was played already")
        if tile not in self.hands[p]:
            holder = next((q for q in range(4) if tile in self.hands[q]), None)
            if holder is not None:
                raise IllegalAction(f"{self.game.players[holder]} holds the {tile_name(tile)}")
            if not self.unknown[p]:
                raise IllegalAction(f"{name} does not hold the {tile_name(tile)}")
        events: list[Event] = []
        if self.trick:
            suit = led_suit(self.trick[0][1], self.trump)
            if not follows(tile, suit, self.trump):
                if self.read:
                    held = [t for t in self.hands[p] if follows(t, suit, self.trump)]
                    if held:
                        raise IllegalAction(f"{name} must follow {suit_words(suit)}: {name}"
                                            f" holds the {tile_name(held[0])}")
                self.failed.append((p, suit, self.tricks_done + 1))
        else:
            suit = led_suit(tile, self.trump)
        for who, missed, trick in self.failed:
            if who == p and follows(tile, missed, self.trump):
                events.append(Renege(p, tile, missed, trick))
                self.failed.remove((who, missed, trick))
                break
        if tile in self.hands[p]:
            self.hands[p].remove(tile)
        else:
            self.unknown[p] -= 1
        self.played.append(tile)
        self.trick.append((p, tile))
        events.insert(0, Laid(p, tile, suit, len(self.trick) == 1))
        if len(self.trick) < 4:
            self.turn = (p + 1) % 4
            return events
        return events + self._close_trick(suit)

    def _close_trick(self, suit: int) -> list[Event]:
        winner, tile = max(self.trick, key=lambda pt: strength(pt[1], suit, self.trump))
        count = tuple(t for _, t in self.trick if count_of(t))
        points = 1 + sum(count_of(t) for t in count)
        self.taken[winner % 2] += points
        self.tricks_done += 1
        self.trick = []
        self.turn = winner
        events: list[Event] = [TrickWon(winner, tile, points, count)]
        if self.tricks_done < HAND:
            return events
        return events + self._score_round()

    def _score_round(self) -> list[Event]:
        side, other = self.bidder % 2, 1 - self.bidder % 2
        bid = self.high
        made = self.taken[side] >= min(bid, LIMIT)
        added = [0, 0]
        if bid >= LIMIT:
            added[side if made else other] = bid
        elif made:
            added = list(self.taken)
        else:
            added[other] = self.taken[other] + bid
        for s in (0, 1):
            self.scores_by_side[s] += added[s]
        events: list[Event] = [RoundScored(self.bidder, bid, (self.taken[0], self.taken[1]),
                                           made, (added[0], added[1]),
                                           (self.scores_by_side[0], self.scores_by_side[1]))]
        out = [s for s in (0, 1) if self.scores_by_side[s] >= self.target]
        if out:
            # "If the game is close when both sides go out, the bidder is always the winner."
            self.winner_side = side if len(out) == 2 else out[0]
            self.phase = OVER
            top = self.scores_by_side[self.winner_side]
            return events + [GameOver((self.winner_side, self.winner_side + 2),
                                      f"{counted(top, 'point')}.")]
        return events + self._new_round(self.dealer + 1)

    # --- words --------------------------------------------------------------------------

    def expected(self) -> str:
        names = self.game.players
        if self.phase == OVER:
            return "The game is over"
        if self.phase == DEAL:
            p = self._dealt_to()
            return f"Read {names[p]}'s tile {self.dealt % HAND + 1} of {HAND}"
        p = self.turn
        if self.phase == BID:
            choices = self.bid_choices()
            bid = str(choices[0]) if len(choices) == 1 else f"{choices[0]} to {choices[-1]}"
            return f"{names[p]} to bid {bid}, or pass"
        if self.phase == TRUMP:
            return f"{names[p]} to name trumps"
        if not self.trick:
            return f"{names[p]} to lead"
        suit = led_suit(self.trick[0][1], self.trump)
        return f"{names[p]} to play: {suit_words(suit)} led"

    def choices_after_move(self) -> str:
        return ""

    def status(self) -> str:
        names = self.game.players
        s0, s1 = self.scores_by_side
        trump = f" {trump_words(self.trump).capitalize()} are trumps." if self.trump else ""
        return (f"{side_words(names, 0)} {s0}, {side_words(names, 1)} {s1}.{trump}"
                f" {self.expected()}.")

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game.spec.name,
            "round": self.round_number,
            "phase": self.phase,
            "dealer": self.dealer,
            "turn": self.turn,
            "bids": list(self.bids),
            "high_bid": self.high,
            "bidder": self.bidder if self.bidder >= 0 else None,
            "trump": self.trump or None,
            "trick": [[p, t] for p, t in self.trick],
            "tricks_done": self.tricks_done,
            "taken": list(self.taken),
            "scores": list(self.scores_by_side),
            "target": self.target,
            "hands": [{"known": list(h), "unknown": u} for h, u in zip(self.hands, self.unknown,
                                                                       strict=True)],
            "played": list(self.played),
            "winners": list(self.winners()),
        }


TexasState.handlers = {
    Draw: TexasState._draw,
    Bid: TexasState._bid,
    NameTrump: TexasState._name_trump,
    Play: TexasState._play,
}


# --------------------------------------------------------------------------- the game

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
        player = seat(state.actor())
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
