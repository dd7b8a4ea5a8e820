"""Reading typed dominoes commands: who a line is for, and the seat that acts."""

from __future__ import annotations

from companion.engine import IllegalAction


def named_player(players: tuple[str, ...], words: list[str]) -> tuple[int | None, list[str]]:
    for i, word in enumerate(words):
        who = player_index(players, word)
        if who is not None and i > 0:
            return who, words[:i] + words[i + 1:]
    return None, words


def player_index(players: tuple[str, ...], name: str | None) -> int | None:
    if name is None:
        return None
    for i, player in enumerate(players):
        if player.lower() == name.lower():
            return i
    return None


def seat(player: int | None) -> int:
    if player is None:
        raise IllegalAction("The game is over")
    return player
