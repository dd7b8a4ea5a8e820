"""What the session answers to one input."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reply:
    accepted: bool  # the input changed the game, or was a question answered
    text: str = ""  # the last thing announced for it (the reason, when refused)
    quit: bool = False  # the player asked to stop
