"""What each family of games adds to the page's document: the facts its page draws that the
state's JSON does not spell out (owner colours and worth, a pegboard's back pegs, a chess
board's SVG, a board's squares). One function per family, chosen by a table; games not in
it get the common page (players, scores, the table's public cards)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.engine import Priority

if TYPE_CHECKING:
    from companion.session import Session
    from companion.view.recent import Recent

Extra = Callable[["Session", dict[str, Any], "Recent"], dict[str, Any]]

FAMILIES: dict[str, str] = {
    "monopoly": "monopoly",
    "cribbage": "cribbage",
    "chess": "chess",
    "checkers": "board",
    "draughts": "board",
    "four-in-a-row": "board",
    "solitaire": "board",
    "snakes-ladders": "race",
    "goose": "race",
    "racing": "race",
    "ludo": "pawns",
    "sorry": "pawns",
    "dice": "dice",
    "poker-dice": "dice",
}


def family_of(game: str) -> str:
    return FAMILIES.get(game, "table")


def family_extra(session: Session, raw: dict[str, Any], recent: Recent) -> dict[str, Any]:
    extra = EXTRAS.get(family_of(session.game.spec.name))
    return extra(session, raw, recent) if extra is not None else {}


# --------------------------------------------------------------------------- Monopoly

PAYMENT_KEYS = frozenset({"monopoly.rent", "monopoly.paid", "monopoly.received",
                          "monopoly.salary", "monopoly.mortgage_received",
                          "monopoly.bought", "monopoly.auction_won", "monopoly.buildings",
                          "monopoly.mortgage", "monopoly.tax_choice", "monopoly.bankrupt"})


def monopoly(session: Session, raw: dict[str, Any], recent: Recent) -> dict[str, Any]:
    from companion.games.monopoly.rent import valuation

    state: Any = session.state
    ed = state.ed
    groups = [ed.group_keys[ed.group[s]] if ed.group[s] >= 0 else None for s in range(ed.size)]
    return {
        "currency": "$" if ed.currency == "dollars" else f"{ed.currency} ",
        "groups": groups,
        "worth": [valuation(state, p) for p in range(state.n)],
        "deeds": [[s for s in ed.properties if state.owner[s] == p] for p in range(state.n)],
        "payments": [e["text"] for e in recent.events if e["key"] in PAYMENT_KEYS][-6:],
    }


# --------------------------------------------------------------------------- cribbage


def cribbage(session: Session, raw: dict[str, Any], recent: Recent) -> dict[str, Any]:
    """Front and back pegs per side (the back peg is the score before the last peg), and the
    shows of this hand itemised."""
    from companion.cards import Card
    from companion.games.cribbage.scoring import show

    scores = list(raw.get("scores", []))
    pegs = recent.memo.setdefault("pegs", [[0, 0] for _ in scores])
    if len(pegs) != len(scores) or any(front > now for (front, _), now in zip(pegs, scores,
                                                                               strict=False)):
        pegs[:] = [[s, 0] for s in scores]  # an undo: start the back pegs again
    for peg, now in zip(pegs, scores, strict=True):
        if now != peg[0]:
            peg[:] = [now, peg[0]]
    starter = raw.get("starter")
    shows = []
    for shown in raw.get("shown", []):
        entry = {"player": shown.get("player"), "crib": bool(shown.get("crib")),
                 "cards": list(shown.get("cards", [])), "total": shown.get("total"),
                 "credited": shown.get("credited"), "phrases": []}
        try:
            count = show([Card.parse(c) for c in entry["cards"]],
                         Card.parse(starter) if starter else None, crib=entry["crib"])
            entry["phrases"] = count.to_json()["phrases"]
        except (ValueError, TypeError):  # a hand the scorer cannot read: its total only
            pass
        shows.append(entry)
    dealer = raw.get("dealer")
    players = len(session.game.players)
    return {
        "pegs": [list(peg) for peg in pegs],  # a copy: the memo changes, a snapshot not
        "sides": [[session.game.players[p] for p in side] for side in raw.get("sides", [])],
        "shows": shows,
        "next_dealer": session.game.players[(dealer + 1) % players]
        if isinstance(dealer, int) else None,
        "dealer": session.game.players[dealer] if isinstance(dealer, int) else None,
    }


# --------------------------------------------------------------------------- chess

START_COUNTS = {"p": 8, "n": 2, "b": 2, "r": 2, "q": 1}


def chess(session: Session, raw: dict[str, Any], recent: Recent) -> dict[str, Any]:
    import chess as pychess
    import chess.svg

    board = pychess.Board(raw["fen"])
    moves = raw.get("moves_uci", [])
    last = pychess.Move.from_uci(moves[-1]) if moves else None
    check = board.king(board.turn) if board.is_check() else None
    svg = chess.svg.board(board, lastmove=last, check=check, size=640, coordinates=True)
    captured: dict[str, list[str]] = {"white": [], "black": []}  # pieces each side has lost
    for colour, name in ((pychess.WHITE, "white"), (pychess.BLACK, "black")):
        for symbol, start in START_COUNTS.items():
            piece = pychess.Piece.from_symbol(symbol).piece_type
            lost = max(0, start - len(board.pieces(piece, colour)))
            captured[name] += [pychess.Piece(piece, colour).unicode_symbol()] * lost
    return {"svg": svg, "captured": captured, "moves": raw.get("moves_san", []),
            "last": moves[-1] if moves else None}


# --------------------------------------------------------------------------- boards


def _draughts_grid(fen: str, size: int) -> list[str]:
    """Rows top first: '.' empty dark square, ' ' light square, w/W b/B men and kings."""
    per_row = size // 2
    cells = [[" "] * size for _ in range(size)]
    for n in range(1, per_row * size + 1):
        r, k = divmod(n - 1, per_row)
        cells[r][2 * k + 1 if r % 2 == 0 else 2 * k] = "."
    for part in fen.split(":")[1:]:
        colour, squares = part[:1].lower(), part[1:]
        for item in filter(None, squares.split(",")):
            king = item.startswith("K")
            n = int(item.lstrip("K"))
            r, k = divmod(n - 1, per_row)
            cells[r][2 * k + 1 if r % 2 == 0 else 2 * k] = colour.upper() if king else colour
    return ["".join(row) for row in cells]


def board(session: Session, raw: dict[str, Any], recent: Recent) -> dict[str, Any]:
    name = session.game.spec.name
    if name in ("checkers", "draughts"):
        size = 10 if name == "draughts" else 8
        grid = _draughts_grid(raw["fen"], size)
        sides = {p["side"][:1]: p["name"] for p in raw.get("players", [])}
        history = [str(a) for a in session.applied]
        start = 12 if size == 8 else 20
        on_board = "".join(grid).lower()
        # the pieces each side has lost (a game set up from a position may start with fewer)
        colour = {"w": "white", "b": "black"}
        captured = {f"{sides.get(c, c)} ({colour[c]})": max(0, start - on_board.count(c))
                    for c in "wb"}
        return {"grid": grid, "kind": "draughts", "sides": sides, "moves": history,
                "captured": captured}
    if name == "four-in-a-row":
        return {"grid": list(raw["grid"]), "kind": "discs",
                "moves": [str(m) for m in raw.get("moves", [])]}
    return {"grid": list(raw.get("board", [])), "kind": "pegs",
            "moves": [str(m) for m in raw.get("moves", [])]}


# --------------------------------------------------------------------------- race games


def race(session: Session, raw: dict[str, Any], recent: Recent) -> dict[str, Any]:
    game: Any = session.game
    board_data = getattr(game, "board", None)
    squares = (getattr(board_data, "squares", None) or raw.get("last_square")
               or raw.get("finish") or raw.get("centre") or 63)
    jumps: dict[str, dict[str, Any]] = {}
    for square, target in getattr(board_data, "jumps", {}).items():
        name, to = target if isinstance(target, tuple) else ("", target)  # goose names them
        jumps[str(square)] = {"to": int(to), "name": str(name)}
    marks: dict[str, str] = {}  # squares with a name and no jump: geese, wells, lost turns
    for square in getattr(board_data, "geese", ()):
        marks[str(square)] = "goose"
    for square, name in getattr(board_data, "wells", {}).items():
        marks[str(square)] = str(name)
    for square, (name, _turns) in getattr(board_data, "misses", {}).items():
        marks[str(square)] = str(name)
    return {"squares": int(squares), "jumps": jumps, "marks": marks,
            "board": raw.get("board", "")}


def pawns(session: Session, raw: dict[str, Any], recent: Recent) -> dict[str, Any]:
    """A loop track (Ludo, Sorry!): its squares, each colour's start square, and every pawn
    as ``place`` (``start``, ``track`` with its 1-based ``square``, ``lane`` with its
    ``step`` in the home column or safety zone, ``home``)."""
    game: Any = session.game
    board = game.board
    track = int(getattr(board, "track_squares", 0) or getattr(board, "track", 0))
    starts = list(board.start_squares)
    sorry = not hasattr(board, "track_squares")  # Sorry! counts squares from 0
    rows = []
    for p, name in enumerate(game.players):
        colour = game.colours[p]
        places = []
        for k, item in enumerate(raw.get("pawns", [])[p]):
            places.append(_sorry_place(raw["positions"][p][k], k) if sorry
                          else _ludo_place(item, board))
        rows.append({"player": name, "colour": board.colours[colour],
                     "start": starts[colour] + (1 if sorry else 0), "pawns": places,
                     "where": [str(x.get("where", x)) if isinstance(x, dict) else str(x)
                               for x in raw.get("pawns", [])[p]]})
    return {"track": track, "rows": rows}


def _ludo_place(item: dict[str, Any], board: Any) -> dict[str, Any]:
    pawn, progress, square = item.get("pawn", ""), item.get("progress", -1), item.get("square")
    if square is not None:
        return {"pawn": pawn, "place": "track", "square": square}
    if progress < 0:
        return {"pawn": pawn, "place": "start"}
    if progress >= board.home:
        return {"pawn": pawn, "place": "home"}
    return {"pawn": pawn, "place": "lane", "step": progress - board.last_track_step}


def _sorry_place(position: int, k: int) -> dict[str, Any]:
    pawn = "ABCD"[k] if k < 4 else str(k + 1)
    if position < 0:
        return {"pawn": pawn, "place": "start"}
    if position < 100:
        return {"pawn": pawn, "place": "track", "square": position + 1}
    if position >= 106:
        return {"pawn": pawn, "place": "home"}
    return {"pawn": pawn, "place": "lane", "step": position - 100}


# --------------------------------------------------------------------------- dice


def dice(session: Session, raw: dict[str, Any], recent: Recent) -> dict[str, Any]:
    from companion.games.dice import boxes as _dice_boxes

    boxes = list(getattr(_dice_boxes, "BOXES", ()))
    names = getattr(_dice_boxes, "BOX_NAMES", {})
    return {"boxes": [{"key": b, "name": names.get(b, b.replace("_", " "))} for b in boxes],
            "last_throw": next((e["text"] for e in reversed(recent.events)
                                if e["priority"] >= Priority.INFO), "")}


EXTRAS: dict[str, Extra] = {
    "monopoly": monopoly,
    "cribbage": cribbage,
    "chess": chess,
    "board": board,
    "race": race,
    "pawns": pawns,
    "dice": dice,
}
