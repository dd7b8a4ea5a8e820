"""The race games: a track, counters moved by a die, and who gets home first.

``common`` is what they share (the board files and their reader, the race state, the turn and
the stats tool); ``snakes_ladders``, ``racing``, ``goose`` and ``ludo`` are the games. Sorry!
(``companion.games.sorry``) reads its board with ``common`` too.
"""
