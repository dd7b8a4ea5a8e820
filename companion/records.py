"""Game records in the formats every chess and draughts program reads: PGN and PDN.

``pgn(session)`` and ``pdn(session)`` write a saved game; ``load_record(game class, path)``
reads one to start from (its start position as game options, its moves as typed actions to be
journaled). PGN is written and read by python-chess; PDN (draughts, checkers) is small enough
to write and read here, with the GameType tag: 20 for international draughts, 21 for English
draughts (checkers).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.engine import Action, Game, IllegalAction

if TYPE_CHECKING:
    from companion.session import Session

EVENT = "Table Companion game"


def _date(session: Session) -> str:
    first = next(iter(session.journal.entries()), None)
    if first is None:
        return "????.??.??"
    return datetime.fromtimestamp(first.time).strftime("%Y.%m.%d")


# --------------------------------------------------------------------------- PGN


def pgn(session: Session) -> str:
    """The chess game as PGN: the Seven Tag Roster, SetUp/FEN when it did not start from the
    initial position, the moves, clock comments (%clk) where the clock is known, the result."""
    import chess
    import chess.pgn

    from companion.games.chess import ChessState

    state = session.state
    if not isinstance(state, ChessState):
        raise ValueError(f"{session.game.spec.title} has no PGN record (PGN is for chess)")
    game = chess.pgn.Game()
    names = session.game.players
    outcome = state.outcome()
    game.headers["Event"] = EVENT
    game.headers["Site"] = "?"
    game.headers["Date"] = _date(session)
    game.headers["Round"] = "-"
    game.headers["White"] = names[0]
    game.headers["Black"] = names[1]
    game.headers["Result"] = outcome[0] if outcome else "*"
    if state.start_fen != chess.STARTING_FEN:
        game.setup(state.start_fen)
    from companion.game_clock import TimeControl, clock_times

    control = str(session.game.options.get("time") or "")
    if control:
        game.headers["TimeControl"] = TimeControl.parse(control).pgn()
    clocks = clock_times(session)  # when a clock was kept or read
    if state.ended is not None and state.ended[0].startswith("time forfeit"):
        game.headers["Termination"] = "time forfeit"
    node: chess.pgn.GameNode = game
    for ply, uci in enumerate(state.ucis, start=1):
        mover = 0 if node.board().turn == chess.WHITE else 1
        node = node.add_variation(chess.Move.from_uci(uci))
        if ply in clocks:
            node.set_clock(clocks[ply][mover])
    if outcome is not None and outcome[1]:
        node.comment = (node.comment + " " if node.comment else "") + outcome[1]
    return str(game) + "\n"


def _read_pgn(game: type[Game], text: str) -> tuple[dict[str, Any], list[Action], list[str]]:
    import chess.pgn

    from companion.games.chess import Move

    record = chess.pgn.read_game(io.StringIO(text))
    if record is None or (not record.headers and record.next() is None):
        raise ValueError("no chess game found in it")
    if record.errors:
        raise ValueError(f"it does not read as PGN: {record.errors[0]}")
    options: dict[str, Any] = {}
    if "FEN" in record.headers:
        options["fen"] = record.headers["FEN"]
    moves: list[Action] = [Move(m.uci()) for m in record.mainline_moves()]
    names = [record.headers.get("White", "?"), record.headers.get("Black", "?")]
    return options, moves, names


# --------------------------------------------------------------------------- PDN

GAME_TYPES = {"draughts": 20, "checkers": 21}
# PDN's colours: in international draughts White (player 0) moves first; in checkers Black
# (player 0, squares 1-12) moves first. Player 0 is the first name in each game.
WHITE_FIRST = {"draughts": True, "checkers": False}


def _pdn_result(game: str, winners: tuple[int, ...], over: bool) -> str:
    if not over:
        return "*"
    if game == "draughts":  # FMJD: points out of two
        return "1-1" if not winners else ("2-0" if winners == (0,) else "0-2")
    if not winners:
        return "1/2-1/2"
    white_won = (winners == (0,)) == WHITE_FIRST[game]
    return "1-0" if white_won else "0-1"


def pdn(session: Session) -> str:
    """A checkers or draughts game as PDN, with the GameType tag (20 or 21)."""
    from companion.games.draughts.common import BoardState
    from companion.games.draughts.core import parse_fen

    state = session.state
    name = session.game.spec.name
    if not isinstance(state, BoardState) or name not in GAME_TYPES:
        raise ValueError(f"{session.game.spec.title} has no PDN record (PDN is for checkers"
                         " and draughts)")
    names = session.game.players
    white, black = (names[0], names[1]) if WHITE_FIRST[name] else (names[1], names[0])
    result = _pdn_result(name, state.winners(), state.is_terminal())
    start = session.game.new_state()
    assert isinstance(start, BoardState)
    tags = [("Event", EVENT), ("Site", "?"), ("Date", _date(session)), ("Round", "-"),
            ("White", white), ("Black", black), ("Result", result),
            ("GameType", str(GAME_TYPES[name]))]
    standard = parse_fen(str(session.game.spec.option("position").default), start.geometry)
    if start.pos != standard:
        tags += [("SetUp", "1"), ("FEN", start.fen())]
    lines = [f'[{key} "{value}"]' for key, value in tags]
    words: list[str] = []
    mover_first = start.to_move() == 0
    number = 1
    for i, action in enumerate(session.applied):
        if i == 0 and not mover_first:
            words.append(f"{number}...")
        elif (i + (0 if mover_first else 1)) % 2 == 0:
            words.append(f"{number}.")
        words.append(str(action))
        if (i + (0 if mover_first else 1)) % 2 == 1:
            number += 1
    words.append(result)
    body, line = [], ""
    for word in words:  # PDN, like PGN, keeps lines under 80 characters
        if len(line) + len(word) + 1 > 79:
            body.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    body.append(line)
    return "\n".join(lines) + "\n\n" + "\n".join(body) + "\n"


_TAG = re.compile(r'^\s*\[(\w+)\s+"([^"]*)"\]\s*$', re.M)
_PDN_MOVE = re.compile(r"^\d+(?:[-x:]\d+)+$")


def _read_pdn(game: type[Game], text: str) -> tuple[dict[str, Any], list[str], list[str]]:
    """Tags and move texts of the first PDN game (comments, variations, numbers dropped)."""
    tags = dict(_TAG.findall(text))
    name = game.spec.name
    kind = tags.get("GameType", "").split(",")[0].strip()
    if kind and kind != str(GAME_TYPES[name]):
        raise ValueError(f"its GameType is {kind}, not {GAME_TYPES[name]} ({game.spec.title})")
    body = _TAG.sub("", text)
    body = re.sub(r"\{[^}]*\}", " ", body)
    while re.search(r"\([^()]*\)", body):
        body = re.sub(r"\([^()]*\)", " ", body)
    body = re.sub(r";[^\n]*", " ", body)
    moves = []
    for token in body.split():
        token = re.sub(r"^\d+\.+", "", token).rstrip("!?*+#")
        if token in {"", "1-0", "0-1", "2-0", "0-2", "1-1", "1/2-1/2", "0-0"}:
            continue
        if not _PDN_MOVE.match(token):
            raise ValueError(f"{token!r} is not a move in numbered-square notation")
        moves.append(token.replace(":", "x"))
    options: dict[str, Any] = {}
    if "FEN" in tags:
        options["position"] = tags["FEN"]
    white, black = tags.get("White", "?"), tags.get("Black", "?")
    names = [white, black] if WHITE_FIRST[name] else [black, white]
    return options, moves, names


# --------------------------------------------------------------------------- loading


def load_record(game: type[Game], path: str | Path,
                build: Callable[[dict[str, Any]], Game]) -> tuple[dict[str, Any], list[Action],
                                                                  list[str]]:
    """Read a PGN (chess) or PDN (checkers, draughts) file to start a game from: the game
    options of its start position, its moves as actions checked on that position, and the
    players' names in it. A clear ValueError for anything that does not read."""
    where = Path(path)
    try:
        text = where.read_text(encoding="utf-8", errors="replace")
    except OSError as err:
        raise ValueError(f"cannot read {where}: {err.strerror}") from None
    name = game.spec.name
    if name == "chess":
        options, actions, names = _read_pgn(game, text)
        trial = build(options).new_state()
        for n, action in enumerate(actions):
            _check(trial, action, n, where)
        return options, actions, names
    if name not in GAME_TYPES:
        raise ValueError(f"{game.spec.title} games cannot be read from a file")
    from companion.games.draughts.common import BoardState, parse_move

    options, texts, names = _read_pdn(game, text)
    state = build(options).new_state()
    assert isinstance(state, BoardState)
    moves: list[Action] = []
    for n, move_text in enumerate(texts):
        try:
            action = parse_move(state, move_text)
        except IllegalAction as err:
            raise ValueError(f"{where}: move {n + 1} ({move_text}): {err.reason}") from None
        _check(state, action, n, where)
        moves.append(action)
    return options, moves, names


def _check(state: Any, action: Action, n: int, where: Path) -> None:
    try:
        state.apply(action)
    except IllegalAction as err:
        raise ValueError(f"{where}: move {n + 1} ({action}) is illegal: {err.reason}") from None


# --------------------------------------------------------------------------- formats

# ``companion export GAME --FORMAT``: format -> writer(session) -> text
FORMATS: dict[str, Callable[[Session], str]] = {
    "pgn": pgn,
    "pdn": pdn,
}
