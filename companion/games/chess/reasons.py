"""Why a chess move is illegal, in words (in check, pinned, a piece in the way, not how that
piece moves), and the board as text with its coordinates. Pure: python-chess positions in,
sentences out."""

from __future__ import annotations

import re

import chess

NAMES = {chess.PAWN: "pawn", chess.KNIGHT: "knight", chess.BISHOP: "bishop",
         chess.ROOK: "rook", chess.QUEEN: "queen", chess.KING: "king"}
LETTERS = {"N": chess.KNIGHT, "B": chess.BISHOP, "R": chess.ROOK, "Q": chess.QUEEN,
           "K": chess.KING}
SAN = re.compile(r"^([NBRQK])?([a-h])?([1-8])?[x:-]?([a-h][1-8])(?:=?([NBRQ]))?[+#!?]*$")
HOW = {
    chess.PAWN: "a pawn moves straight ahead, one square (two from its first square), and"
                " takes one square diagonally ahead",
    chess.KNIGHT: "a knight moves two squares one way and one the other",
    chess.BISHOP: "a bishop moves along diagonals",
    chess.ROOK: "a rook moves along ranks and files",
    chess.QUEEN: "a queen moves along ranks, files and diagonals",
    chess.KING: "a king moves one square (or castles)",
}


def _on(board: chess.Board, square: int) -> str:
    piece = board.piece_at(square)
    assert piece is not None
    return f"the {NAMES[piece.piece_type]} on {chess.square_name(square)}"


def _attackers(board: chess.Board, color: bool, square: int) -> str:
    found = sorted(board.attackers(not color, square))
    return " and ".join(_on(board, s) for s in found)


def move_reason(board: chess.Board, move: chess.Move, side: str) -> str:
    """Why ``move`` (of a piece of the side to move) is illegal here: one sentence."""
    piece = board.piece_at(move.from_square)
    src, dst = chess.square_name(move.from_square), chess.square_name(move.to_square)
    if piece is None:
        return f"There is no piece on {src}."
    if piece.color != board.turn:
        return f"The {NAMES[piece.piece_type]} on {src} is not {side}'s: it is {side}'s move."
    name = f"The {NAMES[piece.piece_type]} on {src}"
    king = board.king(board.turn)
    if board.is_pseudo_legal(move):
        if board.is_castling(move):
            return _castling_reason(board, move, side)
        if piece.piece_type == chess.KING:
            after = board.copy(stack=False)
            after.push(move)
            return (f"The king cannot go to {dst}: it would be in check from"
                    f" {_attackers(after, piece.color, move.to_square)}.")
        if board.is_check() and king is not None:
            return (f"{side} is in check from {_attackers(board, board.turn, king)}, and"
                    f" {NAMES[piece.piece_type]} {src} to {dst} does not answer it.")
        if board.is_pinned(board.turn, move.from_square) and king is not None:
            pinners = list(board.pin(board.turn, move.from_square)
                           & chess.SquareSet(board.occupied_co[not board.turn]))
            by = f" by {_on(board, pinners[0])}" if pinners else ""
            return f"{name} is pinned to {side}'s king{by}: moving it to {dst} leaves the king" \
                   " in check."
        return f"{name} to {dst} would leave {side}'s king in check."
    own = board.piece_at(move.to_square)
    if own is not None and own.color == board.turn:
        return f"{dst} holds {side}'s own {NAMES[own.piece_type]}."
    if piece.piece_type == chess.KING and abs(move.to_square - move.from_square) == 2 \
            and chess.square_rank(move.to_square) == chess.square_rank(move.from_square):
        return _castling_reason(board, move, side)
    if piece.piece_type in (chess.BISHOP, chess.ROOK, chess.QUEEN):
        line = chess.ray(move.from_square, move.to_square)
        straight = chess.square_file(move.from_square) == chess.square_file(move.to_square) \
            or chess.square_rank(move.from_square) == chess.square_rank(move.to_square)
        fits = bool(line) and (piece.piece_type == chess.QUEEN
                               or straight == (piece.piece_type == chess.ROOK))
        if fits:
            between = chess.SquareSet(chess.between(move.from_square, move.to_square)
                                      & board.occupied)
            if between:
                first = min(between, key=lambda s: chess.square_distance(s, move.from_square))
                return f"{name} cannot reach {dst}: {_on(board, first)} is in the way."
    if piece.piece_type == chess.PAWN:
        step = 8 if piece.color == chess.WHITE else -8
        ahead = move.from_square + step
        if move.to_square in (ahead, ahead + step) and board.piece_at(ahead) is not None:
            return f"{name} cannot go to {dst}: {_on(board, ahead)} is in the way."
        if move.to_square == ahead + step and board.piece_at(move.to_square) is not None:
            return f"{name} cannot go to {dst}: {_on(board, move.to_square)} is in the way."
        if move.to_square in (ahead - 1, ahead + 1) and chess.square_distance(
                move.from_square, move.to_square) == 1 and board.piece_at(move.to_square) is None:
            return f"{name} takes diagonally only: there is nothing to take on {dst}."
    return f"{name} cannot go to {dst}: {HOW[piece.piece_type]}."


def _castling_reason(board: chess.Board, move: chess.Move, side: str) -> str:
    wing = "kingside" if chess.square_file(move.to_square) > chess.square_file(
        move.from_square) else "queenside"
    color = board.turn
    rights = board.has_kingside_castling_rights(color) if wing == "kingside" else \
        board.has_queenside_castling_rights(color)
    if not rights:
        return f"{side} cannot castle {wing}: the king or that rook has moved."
    rook = chess.square(7 if wing == "kingside" else 0, chess.square_rank(move.from_square))
    between = chess.SquareSet(chess.between(move.from_square, rook) & board.occupied)
    if between:
        return f"{side} cannot castle {wing}: {_on(board, min(between))} is in the way."
    if board.is_check():
        return f"{side} cannot castle out of check."
    path = [move.from_square, (move.from_square + move.to_square) // 2, move.to_square]
    for square in path[1:]:
        if board.is_attacked_by(not color, square):
            return (f"{side} cannot castle {wing}: the king would pass through or land on"
                    f" {chess.square_name(square)}, attacked by"
                    f" {_attackers(board, color, square)}.")
    return f"{side} cannot castle {wing} now."


def text_reason(board: chess.Board, text: str, side: str) -> str | None:
    """Why a move typed in SAN or as castling ("Bc4", "exd5", "O-O") is illegal, or None when
    the text reads as no move at all."""
    if text in ("O-O", "O-O-O"):
        king = board.king(board.turn)
        if king is None:
            return None
        to = king + (2 if text == "O-O" else -2)
        return _castling_reason(board, chess.Move(king, to), side)
    match = SAN.match(text)
    if match is None:
        return None
    letter, file, rank, target, promotion = match.groups()
    kind = LETTERS[letter] if letter else chess.PAWN
    if kind == chess.PAWN and file is None:
        file = target[0]  # "e5": a pawn that does not take stays on its file
    to = chess.parse_square(target)
    mine = [s for s in board.pieces(kind, board.turn)
            if (file is None or chess.square_file(s) == "abcdefgh".index(file))
            and (rank is None or chess.square_rank(s) == int(rank) - 1)]
    if not mine:
        where = f" on the {file}-file" if file and kind == chess.PAWN else ""
        return f"{side} has no {NAMES[kind]}{where} that could go to {target}."
    promote = LETTERS[promotion] if promotion else None
    if kind == chess.PAWN and chess.square_rank(to) in (0, 7):
        promote = promote or chess.QUEEN
    reasons = [move_reason(board, chess.Move(s, to, promote), side) for s in mine]
    # The reason of the piece closest to making the move: one that could, but for its king.
    for reason in reasons:
        if "check" in reason or "pinned" in reason or "in the way" in reason:
            return reason
    if len(reasons) == 1:
        return reasons[0]
    return f"No {NAMES[kind]} of {side}'s can go to {target}: {HOW[kind]}."


def board_text(board: chess.Board) -> str:
    """The board as text: rank 8 at the top, files a to h, White's pieces in capitals."""
    lines = []
    for rank in range(7, -1, -1):
        cells = []
        for file in range(8):
            piece = board.piece_at(chess.square(file, rank))
            cells.append(piece.symbol() if piece else ".")
        lines.append(f"{rank + 1}  " + " ".join(cells))
    lines.append("   a b c d e f g h")
    lines.append("Capitals are White (K king, Q queen, R rook, B bishop, N knight, P pawn).")
    return "\n".join(lines)


def put_back(board: chess.Board, move: chess.Move) -> str:
    """What to do on a real board to undo ``move``, made from ``board``: "Put the knight back
    from f3 to g1, and the black pawn back on e5." """
    piece = board.piece_at(move.from_square)
    if piece is None or not board.is_legal(move):
        return ""
    src, dst = chess.square_name(move.from_square), chess.square_name(move.to_square)
    name = NAMES[piece.piece_type]
    parts = [f"Put the {name} back from {dst} to {src}"]
    if move.promotion:
        parts = [f"Put the pawn back on {src} in place of the {NAMES[move.promotion]} on {dst}"]
    if board.is_castling(move):
        rook_from = chess.square(7 if board.is_kingside_castling(move) else 0,
                                 chess.square_rank(move.from_square))
        rook_to = chess.square(5 if board.is_kingside_castling(move) else 3,
                               chess.square_rank(move.from_square))
        parts.append(f"the rook from {chess.square_name(rook_to)} to"
                     f" {chess.square_name(rook_from)}")
    taken_on = move.to_square
    if board.is_en_passant(move):
        taken_on = chess.square(chess.square_file(move.to_square),
                                chess.square_rank(move.from_square))
    taken = board.piece_at(taken_on)
    if taken is not None and taken.color != piece.color:
        color = "white" if taken.color == chess.WHITE else "black"
        parts.append(f"the {color} {NAMES[taken.piece_type]} back on"
                     f" {chess.square_name(taken_on)}")
    return ", and ".join(parts) + "."
