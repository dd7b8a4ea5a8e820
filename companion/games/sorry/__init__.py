"""SORRY! (rulebook 000), with the Team and the Play-for-Points variations.

Every turn a card is drawn (a chance outcome ``Draw(card)`` from the rest of the 45-card deck:
a physical card typed or read, or a seeded virtual draw) and the player makes one of the moves
it allows, chosen from ``legal_actions``; with no move the turn is forfeited, and a 2 always
draws again. In Play-for-Points each player holds five cards and plays one of them.

The folder: actions.py, events.py, state.py (the rules: ``SorryState`` and the settings
``SorryRules``), words.py (typed moves), board.py (the board and deck files); this module is
the game at the table (``Sorry``: help, queries, parsing) and names the rest for importers.
"""

from __future__ import annotations

from companion.engine import Action, GameSpec, Option, State
from companion.games import register
from companion.games.sorry.actions import (
    CARD_WORDS,
    FORWARD,
    LETTERS,
    PLAYS,
    Backward,
    Forward,
    Pass,
    SorryBump,
    Split,
    StartPawn,
    Switch,
    TeamSplit,
)
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
from companion.games.sorry.state import SorryRules, SorryState, describe_move
from companion.games.sorry.words import parse_move

__all__ = [
    "CARD_WORDS", "FORWARD", "LETTERS", "PLAYS", "Backward", "Bumped", "CardDrawn", "Dealt",
    "DrawAgain", "Forfeit", "Forward", "Pass", "PawnHome", "PawnMoved", "Reshuffled", "Slid",
    "Sorry", "SorryBump", "SorryRules", "SorryState", "Split", "StartPawn", "Switch",
    "Switched", "TeamSplit", "describe_move", "parse_move",
]

HOUSE_RULES = (
    "A pawn switched onto a slide triangle by an opponent's 11 does not slide (the rulebook"
    " slides only the player's own pawn after a switch); a pawn placed by a SORRY! card on a"
    " triangle slides. Team: a 7 may be split among any of the team's pawns; a SORRY! takes a"
    " pawn from either partner's START and bumps an opponent, or a partner when there is no"
    " opponent to pick on. Play-for-Points: after playing a 2 the player refills the hand and"
    " plays again; an 11 that cannot go forward may be discarded instead of switching."
    " With two players the colours sit opposite (Red and Yellow)."
)


@register
class Sorry(SorryRules):
    spec = GameSpec(
        name="sorry",
        title="SORRY!",
        min_players=2,
        max_players=4,
        inputs=("cards",),
        rulebook="000: SORRY!",
        aliases=("sorry!",),
        options=(
            Option("variation", "standard", "standard, team (Red+Yellow against Blue+Green,"
                   " four players) or points (Play for Points)", ("standard", "team", "points")),
            Option("board", "", "a board file instead of config/boards/sorry.json"),
            Option("auto_move", True, "make the move at once when only one is possible"),
            Option("bonus", "all", "Play for Points: all (every bonus line that applies scores:"
                   " 25, 50 and 100 add up) or best (only the highest of them)",
                   ("all", "best")),
        ),
        house_rules=HOUSE_RULES,
        default_players=("Red", "Blue", "Yellow", "Green"),
    )
    action_types = {c.__name__: c for c in (*PLAYS, Pass)}

    def command_help(self) -> str:
        return (
            "  card 7 / card sorry  the card drawn\n"
            "  start                start a pawn (team: start yellow)\n"
            "  move A               move pawn A by the card (10: back A for one back)\n"
            "  split A 3 B 4        split a 7\n"
            "  switch A 23          11: change places with the pawn on square 23\n"
            "  sorry 23             SORRY!: bump the pawn on square 23\n"
            "  pass                 forfeit an 11 (points: discard CARD)\n"
            "  play CARD ...        with a hand (points): which card, then the move\n"
            "  pawns                where every pawn is"
        )

    def parse_action(self, state: State, text: str) -> Action:
        assert isinstance(state, SorryState)
        return parse_move(state, text)

    def query(self, state: State, text: str) -> str | None:
        assert isinstance(state, SorryState)
        low = text.strip().lower()
        if low in {"pawns", "board", "where"}:
            return state.pawns_text()
        if low in {"who", "whose", "who next"}:
            return state.who_text()
        if low in {"hand", "cards"} and self.hand_size:
            hand = state.hands[state.turn]
            return "Hand: " + ", ".join(CARD_WORDS[c] for c in hand) + "."
        return None
