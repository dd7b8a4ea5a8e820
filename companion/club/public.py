"""What may leave the table: the public part of a state and of a journal entry.

Cards in hands, in the crib, in a stock, a boneyard or an undealt deck are never published:
their keys in a state's ``to_json()`` are replaced by how many there are. A dealt card or a
shuffle is published as ``{"type": "Draw", "hidden": true}``, except where the game shows it to
everyone (Monopoly's Chance and Community Chest cards, Sorry!'s cards, cribbage's starter).
Actions that place cards face down (a cribbage discard to the crib, the cards passed in Hearts,
Monopoly The Card Game's passed card) keep only the player and how many cards.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

# State keys that hold hidden cards, in any game's to_json().
HIDDEN_KEYS = frozenset({"hands", "crib", "boneyard", "stock", "draw_pile", "decks",
                         "widow", "passed"})

# Draws everyone sees, by game: a predicate on the public state before the draw.
PUBLIC_DRAWS: dict[str, Callable[[Mapping[str, Any]], bool]] = {
    "monopoly": lambda state: True,
    "sorry": lambda state: True,
    "cribbage": lambda state: state.get("phase") == "starter",
}

# Actions whose cards go face down: game -> action types.
FACE_DOWN: dict[str, frozenset[str]] = {
    "cribbage": frozenset({"Discard"}),
    "hearts": frozenset({"Pass"}),
    "monopoly-card-game": frozenset({"PassCard", "Exchange"}),
}


def public_state(state_json: Mapping[str, Any]) -> dict[str, Any]:
    return {key: _count(value) if key in HIDDEN_KEYS else value
            for key, value in state_json.items()}


def _count(value: Any) -> Any:
    """How many cards, in the shape of the hidden value."""
    if isinstance(value, list):
        if all(isinstance(v, list) for v in value):
            return [len(v) for v in value]
        return len(value)
    if isinstance(value, dict):
        return {k: _count(v) for k, v in value.items()}
    return None if value is None else "hidden"


def public_action(game: str, payload: Mapping[str, Any],
                  before: Mapping[str, Any]) -> dict[str, Any]:
    """An action as published; ``before``: the game's public state before it."""
    kind = payload.get("type")
    if kind == "Shuffle":
        return {"type": "Shuffle", "hidden": True}
    if kind == "Draw":
        shown = PUBLIC_DRAWS.get(game)
        return dict(payload) if shown and shown(before) else {"type": "Draw", "hidden": True}
    if kind in FACE_DOWN.get(game, ()):
        hidden: dict[str, Any] = {"type": kind, "hidden": True}
        if "player" in payload:
            hidden["player"] = payload["player"]
        for key in ("cards", "card"):
            if key in payload:
                cards = payload[key]
                hidden["count"] = len(cards) if isinstance(cards, list) else 1
        return hidden
    return dict(payload)


def public_entry_payload(game: str, kind: str, payload: Mapping[str, Any],
                         before: Mapping[str, Any]) -> dict[str, Any]:
    """A journal entry's payload as published (undo counts are public; a correction's actions
    are filtered like any action; a refused input keeps only that it was refused)."""
    if kind == "action":
        return public_action(game, payload, before)
    if kind == "correct":
        return {"count": payload.get("count", 1),
                "action": public_action(game, payload.get("action", {}), before),
                "then": [public_action(game, a, before) for a in payload.get("then", [])]}
    if kind == "undo":
        return {"count": payload.get("count", 1)}
    return {}


def is_complete(payload: Mapping[str, Any]) -> bool:
    """True when nothing of the entry was hidden (the hub can replay it)."""
    if payload.get("hidden"):
        return False
    action = payload.get("action")
    if isinstance(action, Mapping) and action.get("hidden"):
        return False
    return not any(isinstance(a, Mapping) and a.get("hidden") for a in payload.get("then", []))
