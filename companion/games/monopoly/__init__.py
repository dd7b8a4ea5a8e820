"""Monopoly: the complete electronic banker (rulebooks 000 and 001)."""

from companion.games import register
from companion.games.monopoly.game import Monopoly

register(Monopoly)

__all__ = ["Monopoly"]
