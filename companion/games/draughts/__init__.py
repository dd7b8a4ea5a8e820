"""Checkers and draughts: ``core`` generates the moves (8x8 and 10x10), ``common`` is what the
two games share above it (the move action and its notation, events, the game's end, the JSON
view, perft), ``search`` the computer's alpha-beta search; ``checkers`` (English, 8x8) and
``international`` (international draughts, 10x10) are the games.
"""
