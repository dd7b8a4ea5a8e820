"""The SORRY! rules: the state (pawns, the draw pile, hands, whose turn) and the settings it
plays by (``SorryRules``: board, deck, colours, teams, hand size), and each move in words.

Every move is resolved on a copy of the pawns (``_resolve``) that raises ``IllegalAction``
when the rules refuse it, so validation and move listing share one code path and a refused
move changes nothing. Typed moves (words.py) and the game's table side (help, queries,
parsing: ``Sorry`` in __init__.py) sit above this module; it imports neither.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from companion.engine import (
    CHANCE,
    TERMINAL,
    Action,
    ChanceRequest,
    Draw,
    Event,
    Game,
    GameOver,
    IllegalAction,
    State,
    TurnPasses,
)
from companion.games.sorry.actions import (
    CARD_WORDS,
    FORWARD,
    LETTERS,
    Backward,
    Forward,
    Pass,
    SorryBump,
    Split,
    StartPawn,
    Switch,
    TeamSplit,
)
from companion.games.sorry.board import CARD_ORDER, START, SorryBoard, load_deck, load_sorry_board
from companion.games.sorry.events import (
    Bumped,
    CardDrawn,
    Dealt,
    DrawAgain,
    Forfeit,
    PawnHome,
    PawnMoved,
    Reshuffled,
    Slid,
    Switched,
)


class SorryRules(Game):
    """The settings the rules play by; ``Sorry`` (__init__.py) adds the table's side."""

    def __init__(self, players: Sequence[str], options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        self.board: SorryBoard = load_sorry_board(str(self.options["board"]))
        self.deck = load_deck()
        n = len(self.players)
        if n > len(self.board.colours):
            raise ValueError(f"the board has {len(self.board.colours)} colours, not {n}")
        self.colours = self.board.two_player_colours if n == 2 else tuple(range(n))
        self.variation = str(self.options["variation"])
        if self.variation == "team" and n != 4:
            raise ValueError("the Team variation needs four players")
        self._teams = tuple(self._team(seat) for seat in range(n))

    @property
    def hand_size(self) -> int:
        return 5 if self.variation == "points" else 0

    def _team(self, seat: int) -> tuple[int, ...]:
        if self.variation != "team":
            return (seat,)
        colour = self.colours[seat]
        for team in self.board.teams:
            if colour in team:
                return tuple(s for s in range(len(self.players)) if self.colours[s] in team)
        return (seat,)

    def team_of(self, seat: int) -> tuple[int, ...]:
        """The seats whose pawns ``seat`` may move (itself, and its partner in Team play)."""
        return self._teams[seat]

    def new_state(self) -> SorryState:
        return SorryState(self)

    def max_length(self) -> int:
        return 100_000  # probabilistic bound; random games end far sooner


class SorryState(State):
    game: SorryRules

    def __init__(self, game: SorryRules) -> None:
        self.game = game
        board = game.board
        n = len(game.players)
        self.pawns: list[list[int]] = [[START] * board.pawns for _ in range(n)]
        self.pile: Counter[str] = Counter(game.deck)
        self.discards: list[str] = []
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.turn = 0
        self.card: str | None = None  # the drawn card to play (standard and team)
        self.phase = "draw"  # deal | draw | play | refill | over
        self.again = False  # a 2 was played: the same player draws or plays again
        self.winner_seats: tuple[int, ...] = ()
        if game.hand_size:
            self.phase = "deal"
            for seat in range(n):  # "Put the fourth pawn on the circle outside your START"
                self.pawns[seat][-1] = board.start_squares[game.colours[seat]]

    # --- small queries -------------------------------------------------------------

    @property
    def board(self) -> SorryBoard:
        return self.game.board

    def colour(self, seat: int) -> int:
        return self.game.colours[seat]

    def opponents(self, seat: int) -> list[int]:
        team = self.game.team_of(seat)
        return [s for s in range(len(self.game.players)) if s not in team]

    def pawn_at(self, pawns: list[list[int]], square: int) -> tuple[int, int] | None:
        """The pawn on a track square (at most one), as (seat, index)."""
        for seat, row in enumerate(pawns):
            for i, pos in enumerate(row):
                if pos == square:
                    return seat, i
        return None

    def home_count(self, seat: int) -> int:
        return sum(1 for p in self.pawns[seat] if p == self.board.home)

    # --- move resolution (on copies) -----------------------------------------------

    def _land(self, pawns: list[list[int]], seat: int, idx: int, dest: int,
              events: list[Event]) -> None:
        """Put a pawn on ``dest``: refuse its own colour, bump, slide."""
        board = self.board
        if dest != board.home and any(p == dest for i, p in enumerate(pawns[seat]) if i != idx):
            raise IllegalAction(
                f"{LETTERS[idx]} would land on {board.words(dest)}, where another"
                f" {board.colours[self.colour(seat)]} pawn stands")
        pawns[seat][idx] = -99  # lifted off the board while it lands
        if board.on_track(dest):
            hit = self.pawn_at(pawns, dest)
            if hit is not None:
                pawns[hit[0]][hit[1]] = START
                events.append(Bumped(hit[0], hit[1], board.words(dest)))
            slide = board.slide_at(dest)
            if slide is not None and slide.colour != self.colour(seat):
                for square in slide.squares(board.track):
                    hit = self.pawn_at(pawns, square)
                    if hit is not None:
                        pawns[hit[0]][hit[1]] = START
                        events.append(Bumped(hit[0], hit[1], board.words(square)))
                events.append(Slid(seat, idx, board.words(dest), board.words(slide.end)))
                dest = slide.end
        pawns[seat][idx] = dest
        if dest == board.home:
            events.append(PawnHome(seat, idx))

    def _step(self, pawns: list[list[int]], seat: int, idx: int, steps: int, back: bool,
              events: list[Event]) -> None:
        board = self.board
        pos = pawns[seat][idx]
        if pos == START:
            raise IllegalAction(f"{LETTERS[idx]} is in START: only a 1 or a 2 starts a pawn")
        if pos == board.home:
            raise IllegalAction(f"{LETTERS[idx]} is HOME and does not move again")
        move = board.backward if back else board.forward
        dest = move(self.colour(seat), pos, steps)
        if dest is None:
            raise IllegalAction(f"{LETTERS[idx]} needs an exact count to reach HOME")
        events.append(PawnMoved(seat, idx, board.words(pos), board.words(dest)))
        self._land(pawns, seat, idx, dest, events)

    def _check_card(self, action: Action) -> str:
        card = str(getattr(action, "card", ""))
        player = getattr(action, "player", None)
        if player != self.turn:
            raise IllegalAction(f"It is {self.game.players[self.turn]}'s turn")
        if self.game.hand_size:
            if card not in self.hands[self.turn]:
                raise IllegalAction(f"There is no {CARD_WORDS.get(card, card)} in your hand")
        elif card != self.card:
            raise IllegalAction(f"The card to play is {CARD_WORDS.get(self.card or '', '?')}")
        return card

    def _check_owner(self, owner: int, pawn: int | None = None) -> None:
        if owner not in self.game.team_of(self.turn):
            raise IllegalAction("You may only move your own pawns" + (
                " or your partner's" if self.game.variation == "team" else ""))
        if pawn is not None and not 0 <= pawn < self.board.pawns:
            raise IllegalAction("There is no such pawn")

    def _resolve(self, action: Action) -> tuple[list[list[int]], list[Event]]:
        """The pawns after ``action`` and its events, or IllegalAction; self is unchanged."""
        card = self._check_card(action)
        pawns = [list(row) for row in self.pawns]
        events: list[Event] = []
        board = self.board
        if isinstance(action, StartPawn):
            self._check_owner(action.owner)
            if card not in ("1", "2"):
                raise IllegalAction("Only a 1 or a 2 starts a pawn")
            row = pawns[action.owner]
            if START not in row:
                raise IllegalAction("No pawn is in START")
            idx = row.index(START)
            square = board.start_squares[self.colour(action.owner)]
            events.append(PawnMoved(action.owner, idx, "start", board.words(square)))
            self._land(pawns, action.owner, idx, square, events)
        elif isinstance(action, Forward | Backward):
            self._check_owner(action.owner, action.pawn)
            back = isinstance(action, Backward)
            allowed = {"4": 4, "10": 1} if back else FORWARD
            if allowed.get(card) != action.steps:
                way = "backward" if back else "forward"
                raise IllegalAction(f"{CARD_WORDS[card]} does not move {action.steps} {way}")
            self._step(pawns, action.owner, action.pawn, action.steps, back, events)
        elif isinstance(action, Split):
            self._check_owner(action.owner, action.pawn)
            self._check_owner(action.owner2, action.pawn2)
            if card != "7":
                raise IllegalAction("Only a 7 may be split")
            if (action.owner, action.pawn) == (action.owner2, action.pawn2):
                raise IllegalAction("A 7 is split between two different pawns")
            if action.steps < 1 or action.steps2 < 1 or action.steps + action.steps2 != 7:
                raise IllegalAction("The two parts of a 7 must add up to 7")
            self._step(pawns, action.owner, action.pawn, action.steps, False, events)
            if pawns[action.owner2][action.pawn2] == START:
                raise IllegalAction(f"{LETTERS[action.pawn2]} cannot use the rest of the 7"
                                    " from START")
            self._step(pawns, action.owner2, action.pawn2, action.steps2, False, events)
        elif isinstance(action, TeamSplit):
            self._team_split(action, pawns, events)
        elif isinstance(action, Switch):
            self._check_owner(action.owner, action.pawn)
            if card != "11":
                raise IllegalAction("Only an 11 switches")
            if action.other not in self.opponents(self.turn):
                raise IllegalAction("Switch with an opponent's pawn")
            mine = pawns[action.owner][action.pawn]
            theirs = pawns[action.other][action.other_pawn]
            if not (board.on_track(mine) and board.on_track(theirs)):
                raise IllegalAction("An 11 switches only pawns on the open track, not at"
                                    " START, HOME or in a SAFETY ZONE")
            pawns[action.other][action.other_pawn] = mine
            events.append(Switched(action.owner, action.pawn, action.other, action.other_pawn))
            pawns[action.owner][action.pawn] = -99
            self._land(pawns, action.owner, action.pawn, theirs, events)
        elif isinstance(action, SorryBump):
            self._check_owner(action.owner)
            if card != "SORRY":
                raise IllegalAction("Only a SORRY! card does that")
            row = pawns[action.owner]
            if START not in row:
                raise IllegalAction("A SORRY! needs a pawn in your START")
            if action.other not in self._sorry_targets(action.owner):
                raise IllegalAction("That pawn cannot be picked on with this SORRY!")
            target = pawns[action.other][action.other_pawn]
            if not board.on_track(target):
                raise IllegalAction("SORRY! takes a pawn on the track, not in START, HOME"
                                    " or a SAFETY ZONE")
            idx = row.index(START)
            events.append(PawnMoved(action.owner, idx, "start", board.words(target)))
            self._land(pawns, action.owner, idx, target, events)
        else:
            raise IllegalAction(f"{action} means nothing in SORRY!")
        return pawns, events

    def _team_split(self, action: TeamSplit, pawns: list[list[int]],
                    events: list[Event]) -> None:
        """Rulebook 000, Team rules: "7 means you may split a move among any or all eight of
        your team's pawns". Every part forward, at least 1, the parts adding up to 7."""
        if self.game.variation != "team":
            raise IllegalAction("A 7 is split between two pawns; among more only in Team play")
        if action.card != "7":
            raise IllegalAction("Only a 7 may be split")
        parts = action.parts
        if len(parts) < 2:
            raise IllegalAction("A split needs two pawns or more")
        for owner, pawn, _ in parts:
            self._check_owner(owner, pawn)
        if len({(o, p) for o, p, _ in parts}) != len(parts):
            raise IllegalAction("Each part of a 7 moves a different pawn")
        if any(steps < 1 for _, _, steps in parts) or sum(st for _, _, st in parts) != 7:
            raise IllegalAction("The parts of a 7 must add up to 7, each at least 1")
        for owner, pawn, steps in parts:
            if pawns[owner][pawn] == START:
                raise IllegalAction(f"{LETTERS[pawn]} cannot use part of the 7 from START")
            self._step(pawns, owner, pawn, steps, False, events)

    def _team_splits(self, limit: int) -> list[Action]:
        """Up to ``limit`` legal three-or-more-way team splits of a 7 (there may be thousands:
        the listing gives examples; any typed one is checked in full)."""
        board = self.board
        p = self.turn
        movable = [(s, i) for s in self.game.team_of(p) for i, pos in enumerate(self.pawns[s])
                   if pos not in (START, board.home)]
        reach = {(s, i): [k for k in range(1, 6) if board.forward(
            self.colour(s), self.pawns[s][i], k) is not None] for s, i in movable}
        found: list[Action] = []

        def compositions(total: int, k: int) -> list[tuple[int, ...]]:
            if k == 1:
                return [(total,)] if total >= 1 else []
            return [(a, *rest) for a in range(1, total - k + 2)
                    for rest in compositions(total - a, k - 1)]

        for k in range(3, min(7, len(movable)) + 1):
            for group in combinations(movable, k):
                for steps in compositions(7, k):
                    if any(n not in reach[g] for g, n in zip(group, steps, strict=True)):
                        continue
                    action = TeamSplit(p, "7", tuple((s, i, n) for (s, i), n in
                                                     zip(group, steps, strict=True)))
                    try:
                        self._resolve(action)
                    except IllegalAction:
                        continue
                    found.append(action)
                    if len(found) >= limit:
                        return found
        return found

    def _sorry_targets(self, owner: int) -> list[int]:
        """Seats whose pawns a SORRY! from ``owner``'s START may bump."""
        board = self.board
        opp = [s for s in self.opponents(self.turn)
               if any(board.on_track(p) for p in self.pawns[s])]
        if opp or self.game.variation != "team":
            return opp
        return [s for s in self.game.team_of(self.turn) if s != owner]

    def _candidates(self, card: str) -> list[Action]:
        """Every move a card might allow (most are then checked by ``_resolve``)."""
        p = self.turn
        board = self.board
        team = self.game.team_of(p)
        out: list[Action] = []
        mine = [(s, i) for s in team for i, pos in enumerate(self.pawns[s])
                if pos not in (START, board.home)]
        if card in ("1", "2"):
            out += [StartPawn(p, card, s) for s in team if START in self.pawns[s]]
        if card in FORWARD:
            out += [Forward(p, card, s, i, FORWARD[card]) for s, i in mine]
        if card == "4":
            out += [Backward(p, card, s, i, 4) for s, i in mine]
        if card == "10":
            out += [Backward(p, card, s, i, 1) for s, i in mine]
        if card == "7":
            for s, i in mine:
                for s2, i2 in mine:
                    if (s, i) != (s2, i2):
                        out += [Split(p, card, s, i, a, s2, i2, 7 - a) for a in range(1, 7)]
        if card == "11":
            for s, i in mine:
                if board.on_track(self.pawns[s][i]):
                    out += [Switch(p, card, s, i, o, j) for o in self.opponents(p)
                            for j, pos in enumerate(self.pawns[o]) if board.on_track(pos)]
        if card == "SORRY":
            for s in team:
                if START in self.pawns[s]:
                    out += [SorryBump(p, card, s, o, j) for o in self._sorry_targets(s)
                            for j, pos in enumerate(self.pawns[o]) if board.on_track(pos)]
        return out

    def _quick_legal(self, action: Action) -> bool:
        """Legality of a generated candidate without resolving it (all but 7 splits)."""
        board = self.board
        if isinstance(action, StartPawn):
            row = self.pawns[action.owner]
            return board.start_squares[self.colour(action.owner)] not in row
        if isinstance(action, Forward | Backward):
            row = self.pawns[action.owner]
            move = board.backward if isinstance(action, Backward) else board.forward
            dest = move(self.colour(action.owner), row[action.pawn], action.steps)
            return dest is not None and (dest == board.home or dest not in row)
        if isinstance(action, Split):
            colour = self.colour
            first = board.forward(colour(action.owner), self.pawns[action.owner][action.pawn],
                                  action.steps)
            second = board.forward(colour(action.owner2),
                                   self.pawns[action.owner2][action.pawn2], action.steps2)
            if first is None or second is None:
                return False
            try:
                self._resolve(action)
            except IllegalAction:
                return False
            return True
        return True  # switches and SORRY! bumps are generated only where they are legal

    def moves_for(self, card: str) -> list[Action]:
        moves = [a for a in self._candidates(card) if self._quick_legal(a)]
        if card == "7" and self.game.variation == "team":
            moves += self._team_splits(limit=8)
        return moves

    def _may_pass(self, card: str, moves: list[Action]) -> bool:
        """An 11 that cannot go forward may be forfeited rather than switch."""
        return card == "11" and not any(isinstance(m, Forward) for m in moves)

    # --- protocol ------------------------------------------------------------------

    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        return self.turn if self.phase == "play" else CHANCE

    def _remaining(self) -> tuple[str, ...]:
        pile = self.pile if sum(self.pile.values()) else Counter(self.discards)
        return tuple(c for c in CARD_ORDER for _ in range(pile[c]))

    def _dealee(self) -> int:
        """Whose hand the next dealt card goes to (round-robin from the first seat)."""
        sizes = [len(h) for h in self.hands]
        return sizes.index(min(sizes))

    def chance(self) -> ChanceRequest | None:
        if self.phase not in ("deal", "draw", "refill"):
            return None
        who = self._dealee() if self.phase == "deal" else self.turn
        return ChanceRequest(kind="card", deck="sorry", cards=self._remaining(), who=who)

    def legal_actions(self) -> list[Action]:
        if self.phase != "play":
            return []
        if not self.game.hand_size:
            assert self.card is not None
            moves = self.moves_for(self.card)
            if not moves or self._may_pass(self.card, moves):
                moves.append(Pass(self.turn, self.card))
            return moves
        moves = []
        optional = []
        for card in sorted(set(self.hands[self.turn]), key=CARD_ORDER.index):
            these = self.moves_for(card)
            moves += these
            if self._may_pass(card, these) and these:
                optional.append(card)
        passes: list[Action] = [Pass(self.turn, c) for c in sorted(set(self.hands[self.turn]),
                                                     key=CARD_ORDER.index)]
        if not moves:
            return passes
        return moves + [Pass(self.turn, c) for c in optional]

    def apply(self, action: Action) -> list[Event]:
        if self.phase == "over":
            raise IllegalAction("The game is over.")
        if isinstance(action, Draw):
            request = self.chance()
            if request is None:
                raise IllegalAction(f"No card is expected now: {self.expected()}")
            request.check(action)
            return self._draw(action.card)
        if self.phase != "play":
            raise IllegalAction(f"Draw a card first. {self.expected()}")
        if isinstance(action, Pass):
            return self._pass(action)
        pawns, events = self._resolve(action)
        card = str(getattr(action, "card", ""))
        self.pawns = pawns
        return events + self._after_play(card, played=True)

    def _pass(self, action: Pass) -> list[Event]:
        card = self._check_card(action)
        if Pass(self.turn, card) not in self.legal_actions():
            raise IllegalAction(self.pass_refusal(card))
        return [Forfeit(self.turn, card), *self._after_play(card, played=False)]

    def pass_refusal(self, card: str) -> str:
        """Why ``card`` may not be forfeited (or, with a hand, discarded) now."""
        moves = self.moves_for(card)
        if card == "11":
            forward = [m for m in moves if isinstance(m, Forward)]
            if forward:
                return (f"The 11 can still move forward 11 ({describe_move(self, forward[0])}),"
                        f" so it must be played: \"You may forfeit your move if you do not wish"
                        f" to change places and it is impossible to go forward 11 spaces\"")
        if self.game.hand_size and not moves:
            return "A card is discarded only when no card in the hand can move a pawn"
        if self.game.hand_size:
            return (f"{CARD_WORDS[card]} can move a pawn, so a card must be played: a card is"
                    f" discarded only when no card in the hand can move")
        return (f"You can move with {CARD_WORDS[card]}, so you must: \"if at any time you can"
                f" move, you must move\"")

    def _draw(self, card: str) -> list[Event]:
        events: list[Event] = []
        if not sum(self.pile.values()):
            events.append(Reshuffled(len(self.discards)))
            self.pile = Counter(self.discards)
            self.discards = []
        self.pile[card] -= 1
        if self.phase == "deal":
            seat = self._dealee()
            self.hands[seat].append(card)
            events.append(Dealt(seat, len(self.hands[seat]), self.game.hand_size))
            if all(len(h) == self.game.hand_size for h in self.hands):
                self.phase = "play"
                events.append(TurnPasses(self.turn))
            return events
        if self.phase == "refill":
            self.hands[self.turn].append(card)
            return events + self._next_turn()
        self.card = card
        self.phase = "play"
        events.append(CardDrawn(self.turn, card))
        moves = self.moves_for(card)
        if not moves:
            return [*events, Forfeit(self.turn, card), *self._after_play(card, played=False)]
        if len(moves) == 1 and self.game.options["auto_move"] and not self._may_pass(card, moves):
            pawns, more = self._resolve(moves[0])
            self.pawns = pawns
            return events + more + self._after_play(card, played=True)
        return events  # the session says choices_text(): the legal moves

    def _after_play(self, card: str, played: bool) -> list[Event]:
        self.discards.append(card)
        if self.game.hand_size:
            self.hands[self.turn].remove(card)
        self.card = None
        winners = self._winners_now()
        if winners:
            self.phase = "over"
            self.winner_seats = winners
            return [GameOver(winners, self._score_detail())]
        self.again = card == "2" and (played or not self.game.hand_size)
        if self.game.hand_size:
            self.phase = "refill"
            return []
        return self._next_turn()

    def _next_turn(self) -> list[Event]:
        events: list[Event] = []
        if self.again:
            self.again = False
            events.append(DrawAgain(self.turn))
        else:
            self.turn = (self.turn + 1) % len(self.game.players)
            events.append(TurnPasses(self.turn))
        if self.game.hand_size:
            self.phase = "play"
            return events
        self.phase = "draw"
        return events

    def _winners_now(self) -> tuple[int, ...]:
        for seat in range(len(self.game.players)):
            team = self.game.team_of(seat)
            if all(self.home_count(s) == self.board.pawns for s in team):
                return tuple(sorted(team))
        return ()

    # --- scores and words ----------------------------------------------------------

    def points(self) -> list[int]:
        """Play-for-Points scores (rulebook 000): "All players score 5 points for each pawn on
        HOME. The WINNER also scores as follows: 5 points for each opponent's pawn not in its
        HOME / 25 points if no opponent has more than two pawns HOME / 50 points if no
        opponent has more than one pawn HOME / 100 points if no opponent's pawn reached HOME".
        Every line that applies scores (option bonus=all, the text's list); bonus=best gives
        only the highest of the 25, 50 and 100."""
        n = len(self.game.players)
        out = [5 * self.home_count(s) for s in range(n)]
        for w in self.winner_seats:
            others = [s for s in range(n) if s != w]
            out[w] += sum(5 * (self.board.pawns - self.home_count(s)) for s in others)
            most = max((self.home_count(s) for s in others), default=0)
            bonuses = [b for b, holds in ((25, most <= 2), (50, most <= 1), (100, most == 0))
                       if holds]
            if self.game.options["bonus"] == "best":
                bonuses = bonuses[-1:]
            out[w] += sum(bonuses)
        return out

    def _score_detail(self) -> str:
        if self.game.variation != "points":
            return ""
        return "Points: " + ", ".join(
            f"{n} {p}" for n, p in zip(self.game.players, self.points(), strict=True)) + "."

    def winners(self) -> tuple[int, ...]:
        return self.winner_seats

    def scores(self) -> list[float]:
        if self.game.variation == "points":
            return [float(p) for p in self.points()]
        return [float(self.home_count(s)) for s in range(len(self.game.players))]

    def describe_action(self, action: Action) -> str:
        return describe_move(self, action)

    def choices_text(self) -> str:
        if self.phase != "play":
            return ""
        actions = self.legal_actions()
        if len(actions) < 2 and not self.game.hand_size:
            return ""
        words = [self.describe_action(a) for a in actions[:12]]
        if len(actions) > 12:
            words.append(f"and {len(actions) - 12} more")
        return f"{self.game.players[self.turn]} may: " + "; ".join(words) + "."

    def pawns_text(self) -> str:
        parts = []
        for seat, name in enumerate(self.game.players):
            where = ", ".join(f"{LETTERS[i]} {self.board.words(p)}"
                              for i, p in enumerate(self.pawns[seat]))
            parts.append(f"{name}: {where}")
        return ". ".join(parts) + "."

    def expected(self) -> str:
        names = self.game.players
        if self.phase == "play":
            what = CARD_WORDS[self.card] if self.card else "a card from the hand"
            return f"{names[self.turn]} to play {what}"
        if self.phase == "refill":
            return f"{names[self.turn]} to draw a card to refill the hand"
        if self.phase == "deal":
            return ("Deal five cards face down to each player: "
                    + self.who_text()[:1].lower() + self.who_text()[1:-1])
        return super().expected()

    def who_text(self) -> str:
        """`who`: whose hand the next dealt card goes to, or whose turn it is."""
        names = self.game.players
        if self.phase == "deal":
            seat = self._dealee()
            return (f"The next card goes to {names[seat]}'s hand, card"
                    f" {len(self.hands[seat]) + 1} of {self.game.hand_size}.")
        if self.phase == "over":
            return "The game is over."
        return f"{self.expected()}."

    def status(self) -> str:
        return f"{self.expected()}. {self.pawns_text()}"

    def clone(self) -> SorryState:
        return copy.deepcopy(self)

    def to_json(self) -> dict[str, Any]:
        board = self.board
        return {
            "game": self.game.spec.name,
            "players": list(self.game.players),
            "options": dict(self.game.options),
            "colours": [board.colours[c] for c in self.game.colours],
            "teams": [list(self.game.team_of(s)) for s in range(len(self.game.players))],
            "phase": self.phase,
            "turn": self.turn,
            "card": self.card,
            "pawns": [[board.words(p) for p in row] for row in self.pawns],
            "positions": [list(row) for row in self.pawns],
            "hands": [sorted(h, key=CARD_ORDER.index) for h in self.hands],
            "draw_pile": sum(self.pile.values()),
            "discards": len(self.discards),
            "home": [self.home_count(s) for s in range(len(self.game.players))],
            "points": self.points() if self.game.variation == "points" else None,
            "winners": list(self.winner_seats),
        }


def describe_move(state: SorryState, action: Action) -> str:
    board = state.board
    names = state.game.players
    prefix = f"{CARD_WORDS.get(str(getattr(action, 'card', '')), '')}: " \
        if state.game.hand_size else ""

    def who(seat: int, pawn: int) -> str:
        own = "" if seat == state.turn else f"{names[seat]}'s "
        return f"{own}{LETTERS[pawn]}"

    def where_after(seat: int, pawn: int) -> str:
        try:
            pawns, _ = state._resolve(action)
        except IllegalAction:
            return "?"
        return board.words(pawns[seat][pawn])

    if isinstance(action, StartPawn):
        own = "" if action.owner == state.turn else f" of {names[action.owner]}"
        return f"{prefix}start a pawn{own}"
    if isinstance(action, Forward | Backward):
        way = " back" if isinstance(action, Backward) else ""
        start = board.words(state.pawns[action.owner][action.pawn])
        return (f"{prefix}{who(action.owner, action.pawn)}{way} from {start} to"
                f" {where_after(action.owner, action.pawn)}")
    if isinstance(action, Split):
        return (f"{prefix}{who(action.owner, action.pawn)} {action.steps} to"
                f" {where_after(action.owner, action.pawn)} and"
                f" {who(action.owner2, action.pawn2)} {action.steps2} to"
                f" {where_after(action.owner2, action.pawn2)}")
    if isinstance(action, TeamSplit):
        moved = []
        try:
            pawns, _ = state._resolve(action)
        except IllegalAction:
            pawns = None
        for owner, pawn, steps in action.parts:
            to = board.words(pawns[owner][pawn]) if pawns is not None else "?"
            moved.append(f"{who(owner, pawn)} {steps} to {to}")
        return prefix + ", ".join(moved[:-1]) + " and " + moved[-1]
    if isinstance(action, Switch):
        theirs = board.words(state.pawns[action.other][action.other_pawn])
        return (f"{prefix}switch {who(action.owner, action.pawn)} with"
                f" {who(action.other, action.other_pawn)} on {theirs}")
    if isinstance(action, SorryBump):
        theirs = board.words(state.pawns[action.other][action.other_pawn])
        return f"{prefix}SORRY! {who(action.other, action.other_pawn)} on {theirs}"
    if isinstance(action, Pass):
        if state.game.hand_size:
            return f"discard {CARD_WORDS.get(action.card, action.card)}"
        return f"forfeit the {CARD_WORDS.get(action.card, action.card)}"
    return str(action)
