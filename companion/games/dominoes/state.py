"""The dominoes round and game: the deal, the opening double, plays, draws, passes, the end.

How the companion learns tiles (docs/games/dominoes.md):

- ``tiles=count`` (default): hands are hidden. A tile becomes known when it is played (or
  shown when drawn); draws are counted. At the end the tiles left (or their pips) are
  entered, and a pass made while holding a tile that fitted is pointed out then.
- ``tiles=read``: every tile drawn is read in (a chance outcome), so every hand is known: a
  player who cannot play draws (the companion expects the tile), plays are checked against
  the hand, and passes are checked at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.engine import (
    CHANCE,
    TERMINAL,
    Action,
    ChanceRequest,
    Draw,
    Event,
    GameOver,
    IllegalAction,
    State,
    TurnPasses,
    counted,
)
from companion.games.dominoes.actions import (
    Pass,
    Pick,
    Pips,
    Play,
    Redeal,
    ShowHand,
)
from companion.games.dominoes.events import (
    Blocked,
    EndsCount,
    FalsePass,
    HandCounted,
    HigherDouble,
    HighestDouble,
    NoDouble,
    Passed,
    RoundResult,
    RoundStarted,
    Scored,
    ShowHands,
    Standings,
    TileDrawn,
    TilePlayed,
    WentOut,
    ends_words,
    tiles_words,
)
from companion.games.dominoes.rules import BERGEN, score_round
from companion.games.dominoes.tiles import (
    ALL_TILES,
    DOUBLES,
    and_list,
    ends_of,
    fits,
    is_double,
    other_end,
    parse_tile,
    tile_name,
    total,
    value_word,
)

if TYPE_CHECKING:
    from companion.engine import Game
    from companion.games.dominoes.rules import Variant

DECK = "dominoes"
DEAL, OPENING, PLAY, REVEAL, OVER = "deal", "opening", "play", "reveal", "over"
LEFT, RIGHT = "left", "right"


@dataclass(frozen=True)
class End:
    """An open end of the layout: the value showing and whether its tile is a double."""

    value: int
    double: bool


# --------------------------------------------------------------------------- state


class DominoState(State):
    def __init__(self, game: Game, variant: Variant) -> None:
        self.game = game
        self.variant = variant
        self.n = len(game.players)
        self.read = game.options["tiles"] == "read"
        self.target = int(game.options["to"])
        self.spinners = str(game.options["spinners"])
        self.blocked_score = str(game.options.get("blocked_score", "difference"))
        if self.n * self.variant.hand_size > len(ALL_TILES):
            raise ValueError("not enough tiles for so many players")
        self.points = [0] * self.n  # game scores
        self.round_number = 0
        self.winner: int | None = None
        self.phase = OVER
        self._start_round()

    # --- setup --------------------------------------------------------------------------

    def _start_round(self) -> None:
        self.round_number += 1
        self._deal_afresh()

    def _deal_afresh(self) -> None:
        n, size = self.n, self.variant.hand_size
        self.hands: list[list[str]] = [[] for _ in range(n)]  # known tiles in each hand
        self.unknown = [0 if self.read else size] * n  # tiles held but not known
        self.layout: list[str] = []  # tiles on the table, in the order laid
        self.ends: list[End] = []  # open ends: [left, right] in a line
        self.bone = len(ALL_TILES) - n * size  # tiles in the boneyard once dealt
        self.dealt = 0
        self.turn = 0
        self.passes = 0  # consecutive passes
        self.pass_claims: list[tuple[int, tuple[int, ...]]] = []  # (player, ends) at a pass
        self.draws = [0] * n  # tiles each player drew this round
        self.out: int | None = None
        self.blocked = False
        self.shown: list[int | None] = [None] * n  # pips entered at the end (tiles=count)
        self.shown_tiles: list[tuple[str, ...] | None] = [None] * n
        self.phase = DEAL if self.read else OPENING

    # --- what is known ------------------------------------------------------------------

    @property
    def line(self) -> bool:
        return self.spinners == "none"

    def remaining(self, player: int) -> int:
        return len(self.hands[player]) + self.unknown[player]

    def seen(self) -> set[str]:
        out = set(self.layout)
        for hand in self.hands:
            out.update(hand)
        for tiles in self.shown_tiles:
            out.update(tiles or ())
        return out

    def unseen(self) -> list[str]:
        seen = self.seen()
        return [t for t in ALL_TILES if t not in seen]

    def boneyard(self) -> int:
        """Tiles left to draw."""
        return len(ALL_TILES) - self.dealt if self.phase == DEAL else self.bone

    def can_draw(self) -> bool:
        return self.variant.draws and self.boneyard() > 0

    def end_values(self) -> tuple[int, ...]:
        return tuple(e.value for e in self.ends)

    def places(self, tile: str) -> list[int]:
        """Indices of the open ends ``tile`` fits."""
        a, b = ends_of(tile)
        return [i for i, e in enumerate(self.ends) if e.value == a or e.value == b]

    def fitting(self, tiles: list[str]) -> list[str]:
        return [t for t in tiles if self.places(t)]

    def where_seen(self, tile: str) -> str:
        if tile in self.layout:
            return "it is already on the table"
        for p, hand in enumerate(self.hands):
            if tile in hand:
                return f"{self.game.players[p]} holds it"
        return "it was shown already"

    def deal_order(self) -> list[int]:
        size = self.variant.hand_size
        return [p for p in range(self.n) for _ in range(size)]

    # --- State API ----------------------------------------------------------------------

    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.phase == DEAL:
            return CHANCE
        if self.phase == REVEAL:
            return self.reveal_order()[0]
        if self.phase == PLAY and self.read and self._must_draw(self.turn):
            return CHANCE
        return self.turn

    def _must_draw(self, player: int) -> bool:
        return self.can_draw() and not self.fitting(self.hands[player])

    def may_act(self, player: int) -> bool:
        if self.phase == OPENING and not self.read:
            return 0 <= player < self.n  # whoever holds the highest double sets it
        if self.phase == REVEAL:
            return player in self.reveal_order()
        return player == self.actor()

    def chance(self) -> ChanceRequest | None:
        if self.phase == DEAL:
            return ChanceRequest(kind="card", deck=DECK, cards=tuple(self.unseen()),
                                 who=self.deal_order()[self.dealt])
        if self.current_player() == CHANCE:
            return ChanceRequest(kind="card", deck=DECK, cards=tuple(self.unseen()),
                                 who=self.turn)
        return None

    def reveal_order(self) -> list[int]:
        start = self.out if self.out is not None else self.turn
        order = [(start + i) % self.n for i in range(self.n)]
        return [p for p in order if self.shown[p] is None and self._needs_showing(p)]

    def _needs_showing(self, player: int) -> bool:
        if self.remaining(player) == 0:
            return False
        if self.variant.scoring == BERGEN and self.out is not None:
            return False  # going out in Bergen scores one point whatever the others hold
        return self.unknown[player] > 0

    def legal_actions(self) -> list[Action]:
        p = self.current_player()
        if p < 0:
            return []
        if self.phase == OPENING:
            if self.read:
                holder, double = self.highest_double()
                return [Play(holder, double)]
            out: list[Action] = [Play(q, d) for q in range(self.n) for d in self._open_doubles()]
            return out + [Redeal()]
        if self.phase == REVEAL:
            return self._reveal_examples(p)
        candidates = list(self.hands[p])
        if self.unknown[p]:
            candidates += self.unseen()
        plays: list[Action] = [
            Play(p, t, end) for t in candidates for end in self._end_names(t)
        ]
        if self.read:
            return plays or [Pass(p)]
        if self.fitting(self.hands[p]):
            return plays
        return plays + [Pick(p) if self.can_draw() else Pass(p)]

    def _open_doubles(self) -> list[str]:
        return [d for d in DOUBLES if d not in self.seen()]

    def _end_names(self, tile: str) -> list[str]:
        """The distinct ways to lay ``tile``, as Play.end values."""
        places = self.places(tile)
        if not places:
            return []
        if self.line:
            names = [(LEFT, RIGHT)[i] for i in places]
            return [""] if len(names) == 1 or self._same_ends() else names
        values = sorted({self.ends[i].value for i in places}, reverse=True)
        return [""] if len(values) == 1 else [str(v) for v in values]

    def _reveal_examples(self, p: int) -> list[Action]:
        pool = [t for t in self.unseen()]
        need = self.unknown[p]
        hand = tuple(self.hands[p]) + tuple(pool[:need])
        examples: list[Action] = [ShowHand(p, hand)]
        if need and len(pool) > need:
            examples.append(ShowHand(p, tuple(self.hands[p]) + tuple(pool[-need:])))
        if self.variant.scoring != BERGEN:
            examples.append(Pips(p, total(hand)))
        return examples

    def winners(self) -> tuple[int, ...]:
        return () if self.winner is None else (self.winner,)

    def scores(self) -> list[float]:
        return [float(s) for s in self.points]

    # --- the deal (tiles=read) ----------------------------------------------------------

    def highest_double(self) -> tuple[int, str]:
        for double in DOUBLES:
            for p, hand in enumerate(self.hands):
                if double in hand:
                    return p, double
        return -1, ""

    def _draw(self, action: Action) -> list[Event]:
        assert isinstance(action, Draw)
        if self.current_player() != CHANCE:
            raise IllegalAction(f"No tile is read now. {self.expected()}.")
        tile = parse_tile(action.card)
        if tile not in self.unseen():
            raise IllegalAction(f"The {tile_name(tile)} cannot be drawn: {self.where_seen(tile)}")
        if self.phase == DEAL:
            self.hands[self.deal_order()[self.dealt]].append(tile)
            self.dealt += 1
            if self.dealt < len(self.deal_order()):
                return []
            holder, double = self.highest_double()
            if holder < 0:
                self._deal_afresh()
                return [NoDouble(), RoundStarted(self.round_number, self.variant.hand_size, True)]
            self.phase = OPENING
            self.turn = holder
            return [HighestDouble(holder, double)]
        p = self.turn
        self.hands[p].append(tile)
        self.bone -= 1
        events: list[Event] = [TileDrawn(p, tile, self.boneyard())]
        events += self._after_change(moved=False)
        return events

    # --- plays --------------------------------------------------------------------------

    def _check_turn(self, player: int) -> None:
        if not 0 <= player < self.n:
            raise IllegalAction(f"There is no player number {player}")
        if player != self.current_player():
            actor = self.actor()
            whose = self.game.players[actor] if actor is not None else "nobody"
            raise IllegalAction(f"It is {whose}'s turn, not {self.game.players[player]}'s")

    def _check_holds(self, player: int, tile: str) -> None:
        name = self.game.players[player]
        if tile in self.hands[player]:
            return
        if tile in self.seen():
            raise IllegalAction(
                f"{name} cannot play the {tile_name(tile)}: {self.where_seen(tile)}")
        if self.unknown[player] == 0:
            held = and_list([tile_name(t) for t in self.hands[player]]) or "no tiles"
            raise IllegalAction(f"{name} does not hold the {tile_name(tile)}; {name} holds {held}")

    def _play(self, action: Action) -> list[Event]:
        assert isinstance(action, Play)
        if self.phase == OPENING:
            return self._open(action)
        if self.phase != PLAY:
            raise IllegalAction(f"No tile is played now. {self.expected()}.")
        p = action.player
        self._check_turn(p)
        tile = parse_tile(action.tile)
        self._check_holds(p, tile)
        index, where = self._place(tile, action.end)
        # Validated: now change the state.
        if tile in self.hands[p]:
            self.hands[p].remove(tile)
        else:
            self.unknown[p] -= 1
        self.layout.append(tile)
        value = self.ends[index].value
        new = End(other_end(tile, value), is_double(tile))
        if not self.line and is_double(tile) and self.spinners == "all":
            self.ends[index:index + 1] = [new, new, new]  # its far side and both ends
        else:
            self.ends[index] = new
        if not self.line:
            self.ends.sort(key=lambda e: -e.value)
        self.passes = 0
        events: list[Event] = [TilePlayed(p, tile, where, self.end_values())]
        events += self._higher_double(p, (tile,))
        if self.variant.scoring == BERGEN:
            events += self._bergen_ends(p)
            if self.phase == OVER:
                return events
        if self.remaining(p) == 0:
            self.out = p
            events.append(WentOut(p, self.variant.out_call))
            return events + self._round_over()
        self.turn = (p + 1) % self.n
        return events + self._after_change()

    def _place(self, tile: str, end: str) -> tuple[int, str]:
        """The open end ``tile`` goes on, and how to say it; refuses a tile that fits nowhere
        and an end that is ambiguous or wrong."""
        places = self.places(tile)
        ends = ends_words(self.end_values())
        name = tile_name(tile)
        if not places:
            what = "neither end" if self.line else "no open end"
            raise IllegalAction(f"The {name} fits {what}: the open ends are {ends}")
        end = end.strip().lower()
        if end.startswith("on"):
            end = end[2:].strip()
        if self.line:
            if end in ("l", "left"):
                wanted, said = [0], "the left"
            elif end in ("r", "right"):
                wanted, said = [1], "the right"
            elif end.isdigit():
                wanted = [i for i in range(2) if self.ends[i].value == int(end)]
                said = f"a {value_word(int(end))}" if int(end) <= 6 else end
            elif not end:
                wanted, said = places, ""
            else:
                raise IllegalAction(f"Say left or right, not {end}")
            chosen = [i for i in wanted if i in places]
            if not chosen:
                raise IllegalAction(f"The {name} does not fit on {said}: the ends are {ends}")
            if len(chosen) > 1 and self._same_ends():
                # Both ends alike (a lone double): either side gives the same game; no question.
                value = self.ends[1].value
                return 1, f"a {value_word(value)}" if value <= 6 else str(value)
            if len(chosen) > 1 and self.ends[0].value != self.ends[1].value:
                # Named by number, which cannot be mirrored as left and right can.
                a, b = (self.ends[i].value for i in chosen)
                raise IllegalAction(f"The {name} fits on {value_word(a)} and on {value_word(b)}:"
                                    f" say play {tile} on {a} or on {b}.")
            if len(chosen) > 1:
                raise IllegalAction(f"The {name} fits both ends: say play {tile} left or right.")
            return chosen[0], f"the {(LEFT, RIGHT)[chosen[0]]}"
        values = {self.ends[i].value for i in places}
        if end:
            if not end.isdigit() or int(end) not in values:
                raise IllegalAction(f"The {name} does not fit on {end}: the open ends are {ends}")
            values = {int(end)}
        if len(values) > 1:
            a, b = sorted(values, reverse=True)
            raise IllegalAction(f"The {name} fits on {value_word(a)} and on {value_word(b)}: say"
                                f" play {tile} on {a} or on {b}")
        value = values.pop()
        index = next(i for i in places if self.ends[i].value == value)
        return index, f"a {value_word(value)}"

    def _same_ends(self) -> bool:
        """A line whose two open ends are alike (the same number, both doubles or neither):
        a tile laid on either leaves the same game."""
        return len(self.ends) == 2 and self.ends[0] == self.ends[1]

    def _open(self, action: Play) -> list[Event]:
        p, tile = action.player, parse_tile(action.tile)
        if not 0 <= p < self.n:
            raise IllegalAction(f"There is no player number {p}")
        name = self.game.players[p]
        if not is_double(tile):
            raise IllegalAction(f"The first tile is the highest double, not the {tile_name(tile)}")
        if self.read:
            holder, double = self.highest_double()
            if tile != double:
                raise IllegalAction(f"The {tile_name(double)} is the highest double: "
                                    f"{self.game.players[holder]} sets it")
            if p != holder:
                raise IllegalAction(f"{self.game.players[holder]} holds the {tile_name(double)},"
                                    f" not {name}")
            self.hands[p].remove(tile)
        else:
            self.unknown[p] -= 1
        self.layout.append(tile)
        value = ends_of(tile)[0]
        self.ends = [End(value, True)] * (2 if self.line else 4)
        self.phase = PLAY
        self.turn = (p + 1) % self.n
        events: list[Event] = [TilePlayed(p, tile, "", self.end_values())]
        if self.variant.scoring == BERGEN:
            events += self._add_points(p, 2, "setting the first double")
            if self.phase == OVER:
                return events
        return events + self._after_change()

    def _bergen_ends(self, p: int) -> list[Event]:
        left, right = self.ends
        double_end = left.double or right.double
        if left.value != right.value:
            if self.game.options.get("triple_header") == "any-double" and double_end:
                return [EndsCount(self.end_values(), 3), *self._add_points(p, 3, "a double at"
                                                                          " an end")]
            return []
        points = 3 if double_end else 2
        why = "a triple-header" if points == 3 else "a double-header"
        return [EndsCount(self.end_values(), points), *self._add_points(p, points, why)]

    def _add_points(self, p: int, points: int, why: str) -> list[Event]:
        self.points[p] += points
        events: list[Event] = [Scored(p, points, why, self.points[p])]
        if self.points[p] >= self.target:
            self.winner = p
            self.phase = OVER
            events.append(GameOver((p,), f"{counted(self.points[p], 'point')}."))
        return events

    # --- draws and passes ---------------------------------------------------------------

    def _pick(self, action: Action) -> list[Event]:
        assert isinstance(action, Pick)
        if self.read:
            raise IllegalAction("With tiles=read, read the drawn tile in: card 6-4")
        if self.phase != PLAY:
            raise IllegalAction(f"No tile is drawn now. {self.expected()}.")
        p = action.player
        self._check_turn(p)
        if not self.variant.draws:
            raise IllegalAction("There is no drawing in this game: pass if you cannot play")
        if not self.can_draw():
            raise IllegalAction("The boneyard is empty: pass if you cannot play")
        self._check_cannot_play(p, "draw")
        tile = parse_tile(action.tile) if action.tile else ""
        if tile and tile not in self.unseen():
            raise IllegalAction(f"The {tile_name(tile)} cannot be drawn: {self.where_seen(tile)}")
        self.bone -= 1
        if tile:
            self.hands[p].append(tile)
        else:
            self.unknown[p] += 1
        self.draws[p] += 1
        self.passes = 0
        return [TileDrawn(p, tile, self.boneyard()), *self._after_change(moved=False)]

    def _check_cannot_play(self, p: int, verb: str) -> None:
        playable = self.fitting(self.hands[p])
        if playable:
            name = self.game.players[p]
            raise IllegalAction(f"{name} cannot {verb}: the {tile_name(playable[0])} fits on"
                                f" {ends_words(self.end_values())}")

    def _pass(self, action: Action) -> list[Event]:
        assert isinstance(action, Pass)
        if self.phase != PLAY:
            raise IllegalAction(f"No pass now. {self.expected()}.")
        p = action.player
        self._check_turn(p)
        self._check_cannot_play(p, "pass")
        if self.can_draw():
            raise IllegalAction(f"The boneyard still has {tiles_words(self.boneyard())}: draw"
                                " until you can play")
        self.passes += 1
        self.pass_claims.append((p, self.end_values()))
        events: list[Event] = [Passed(p, self.end_values())]
        self.turn = (p + 1) % self.n
        if self.passes >= self.n:
            return events + self._block()
        return events + self._after_change()

    def _after_change(self, moved: bool = True) -> list[Event]:
        """After a play, draw or pass: block the game when no one can play any more."""
        if self.can_draw():
            return self._turn_event(moved)
        if self.read:
            nobody = not any(self.fitting(h) for h in self.hands)
        else:
            held = [t for h in self.hands for t in h]
            nobody = not self.fitting(self.unseen()) and not self.fitting(held)
        if nobody:
            return self._block()
        return self._turn_event(moved)

    def _turn_event(self, moved: bool) -> list[Event]:
        return [TurnPasses(self.turn)] if moved and self.current_player() >= 0 else []

    def _block(self) -> list[Event]:
        self.blocked = True
        reveal = any(self._needs_showing(p) for p in range(self.n))
        return [Blocked(self.end_values(), reveal), *self._round_over()]

    # --- the end of a round -------------------------------------------------------------

    def _round_over(self) -> list[Event]:
        pending = self.reveal_order()
        if pending:
            self.phase = REVEAL
            return [] if self.blocked else [ShowHands(tuple(pending))]
        return self._score()

    def _show(self, action: Action) -> list[Event]:
        assert isinstance(action, ShowHand | Pips)
        if self.phase != REVEAL:
            raise IllegalAction(f"No hand is shown now. {self.expected()}.")
        p = action.player
        if not 0 <= p < self.n:
            raise IllegalAction(f"There is no player number {p}")
        name = self.game.players[p]
        if p not in self.reveal_order():
            raise IllegalAction(f"{name}'s tiles are known already")
        count = self.remaining(p)
        if isinstance(action, Pips):
            if self.variant.scoring == BERGEN:
                raise IllegalAction("Bergen needs the tiles, to see the doubles: hand 6-4 3-3")
            pool = sorted(total([t]) for t in self.unseen())
            known = total(self.hands[p])
            need = self.unknown[p]
            low, high = known + sum(pool[:need]), known + sum(pool[len(pool) - need:])
            if not low <= action.pips <= high:
                raise IllegalAction(f"{name}'s {tiles_words(count)} cannot make {action.pips}"
                                    f" pips: between {low} and {high} is possible")
            self.shown[p] = action.pips
            return [HandCounted(p, action.pips, ())] + self._next_reveal()
        tiles = tuple(parse_tile(t) for t in action.tiles)
        if len(tiles) != count:
            raise IllegalAction(f"{name} has {tiles_words(count)} left, not {len(tiles)}")
        if len(set(tiles)) != len(tiles):
            raise IllegalAction("A tile is named twice: each tile is in the set once")
        for tile in self.hands[p]:
            if tile not in tiles:
                raise IllegalAction(f"{name} drew the {tile_name(tile)}: it must be in the hand")
        unseen = self.unseen()
        for tile in tiles:
            if tile not in self.hands[p] and tile not in unseen:
                raise IllegalAction(f"{name} cannot hold the {tile_name(tile)}:"
                                    f" {self.where_seen(tile)}")
        self.shown[p] = total(tiles)
        self.shown_tiles[p] = tiles
        events: list[Event] = [HandCounted(p, total(tiles), tiles)]
        events += self._false_passes(p, tiles) + self._higher_double(p, tiles)
        return events + self._next_reveal()

    def _higher_double(self, p: int, tiles: tuple[str, ...]) -> list[Event]:
        """tiles=count: a player who has drawn nothing held from the start every tile they
        play or show; a double higher than the first one set means the wrong double began."""
        if self.read or self.draws[p] or not self.layout:
            return []
        first = self.layout[0]
        higher = [t for t in tiles if is_double(t) and t[0] > first[0]]
        return [HigherDouble(p, max(higher), first)] if higher else []

    def _false_passes(self, p: int, tiles: tuple[str, ...]) -> list[Event]:
        """A pass is only made with the boneyard empty, so every tile shown now was held then."""
        out: list[Event] = []
        noted: set[str] = set()
        for who, ends in self.pass_claims:
            if who != p:
                continue
            for tile in tiles:
                if tile not in noted and any(fits(tile, v) for v in ends):
                    noted.add(tile)
                    out.append(FalsePass(p, tile, ends))
        return out

    def _next_reveal(self) -> list[Event]:
        if self.reveal_order():
            return []
        return self._score()

    def hand_pips(self, p: int) -> int:
        shown = self.shown[p]
        return shown if shown is not None else total(self.hands[p])

    def hand_tiles(self, p: int) -> tuple[str, ...] | None:
        shown = self.shown_tiles[p]
        if shown is not None:
            return shown
        return tuple(self.hands[p]) if self.unknown[p] == 0 else None

    def _score(self) -> list[Event]:
        pips = [self.hand_pips(p) for p in range(self.n)]
        hands = [self.hand_tiles(p) for p in range(self.n)]
        result = score_round(self.variant, self.out, pips, hands, self.blocked_score,
                             self.game.players,
                             str(self.game.options.get("blocked_lowest", "clean")))
        events: list[Event] = [RoundResult(result.winner, result.points, result.detail)]
        if result.winner >= 0 and result.points:
            self.points[result.winner] += result.points
        events.append(Standings(tuple(self.points), self.target))
        best = max(self.points)
        if best >= self.target:
            leaders = [p for p, s in enumerate(self.points) if s == best]
            self.winner = leaders[0]
            self.phase = OVER
            return events + [GameOver((self.winner,), f"{counted(best, 'point')}.")]
        self._start_round()
        return events + [RoundStarted(self.round_number, self.variant.hand_size, self.read)]

    def _redeal(self, action: Action) -> list[Event]:
        if self.phase != OPENING or self.read:
            why = " (the tiles read show who holds a double)" if self.read else ""
            raise IllegalAction(f"No redeal now{why}. {self.expected()}.")
        self._deal_afresh()
        return [NoDouble(), RoundStarted(self.round_number, self.variant.hand_size, False)]

    # --- words --------------------------------------------------------------------------

    def describe_action(self, action: Action) -> str:
        names = self.game.players
        if isinstance(action, Play):
            where = f" on the {action.end}" if action.end in (LEFT, RIGHT) else (
                f" on a {value_word(int(action.end))}" if action.end else "")
            return f"{names[action.player]} plays the {tile_name(action.tile)}{where}"
        if isinstance(action, Draw):
            return f"the {tile_name(parse_tile(action.card))}"
        return str(action)

    def expected(self) -> str:
        names = self.game.players
        if self.phase == OVER:
            return "The game is over"
        if self.phase == DEAL:
            p = self.deal_order()[self.dealt]
            k = self.dealt - p * self.variant.hand_size + 1
            return f"Read {names[p]}'s tile {k} of {self.variant.hand_size}"
        if self.phase == OPENING:
            if self.read:
                holder, double = self.highest_double()
                return f"{names[holder]} to set the {tile_name(double)}"
            return ("Whoever holds the highest double sets it: play 6-6 and the name;"
                    " redeal if nobody drew a double")
        if self.phase == REVEAL:
            who = and_list([names[p] for p in self.reveal_order()])
            how = "hand 6-4 3-3" if self.variant.scoring == BERGEN else "hand 6-4 3-3 or pips 13"
            return f"{who} to show the tiles left: {how}"
        p = self.turn
        ends = ends_words(self.end_values())
        if self.current_player() == CHANCE:
            return f"{names[p]} cannot play on {ends}: read the tile {names[p]} draws"
        if self.read:
            return f"{names[p]} to play on {ends}"
        other = "draw" if self.can_draw() else "pass"
        return f"{names[p]} to play on {ends}, or {other}"

    def choices_after_move(self) -> str:
        if not self.read or self.phase != PLAY or self.current_player() < 0:
            return ""
        return self.choices_text() if len(self.legal_actions()) > 1 else ""

    def choices_text(self) -> str:
        if self.phase != PLAY or self.current_player() < 0:
            return ""
        if not self.read:
            return f"The open ends are {ends_words(self.end_values())}."
        return super().choices_text()

    def status(self) -> str:
        names = self.game.players
        parts = ", ".join(f"{names[i]} {s}" for i, s in enumerate(self.points))
        bone = f" Boneyard: {self.boneyard()}." if self.variant.draws and self.phase == PLAY else ""
        return f"Round {self.round_number}. Scores: {parts}.{bone} {self.expected()}."

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game.spec.name,
            "round": self.round_number,
            "phase": self.phase,
            "turn": self.turn,
            "target": self.target,
            "scores": list(self.points),
            "layout": list(self.layout),
            "ends": list(self.end_values()),
            "end_doubles": [e.double for e in self.ends],
            "boneyard": self.boneyard(),
            "hands": [
                {"known": list(h), "unknown": u, "count": len(h) + u}
                for h, u in zip(self.hands, self.unknown, strict=True)
            ],
            "passes": self.passes,
            "out": self.out,
            "blocked": self.blocked,
            "shown_pips": list(self.shown),
            "winner": self.winner,
        }


DominoState.handlers = {
    Draw: DominoState._draw,
    Play: DominoState._play,
    Pick: DominoState._pick,
    Pass: DominoState._pass,
    Redeal: DominoState._redeal,
    ShowHand: DominoState._show,
    Pips: DominoState._show,
}
