"""The page's JSON document (docs/json.md, "The table view's document").

Built on the table loop's thread from the Session, the only source of truth: the public part
for every page (never a hidden card: hands, decks, stock and the like become counts), and
per player the private part their phone alone receives (their hand, their choices).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.engine import sentence
from companion.session import Session
from companion.view.choices import choices
from companion.view.families import family_extra, family_of
from companion.view.recent import Recent

VERSION = 1  # the document's format; fields are only ever added

# State fields that may hold cards or tiles a player must not see on the big screen.
HIDDEN = frozenset({"hands", "decks", "boneyard", "stock", "draw_pile", "widow", "held",
                    "unknown", "stock_known", "passed", "crib", "trade_piles"})
# The crib is shown once it is counted (cribbage's "shown" items carry its cards then).


def hidden_count(value: Any) -> Any:
    """A hidden field as counts: a list of lists becomes each list's length, a list its
    length, a mapping its keys with their counts."""
    if isinstance(value, list):
        if not value:
            return 0
        if all(isinstance(v, list) for v in value):
            return [len(v) for v in value]
        if all(isinstance(v, int | float) or v is None for v in value):
            return value  # counts already (cards held per player)
        return len(value)
    if isinstance(value, Mapping):
        return {k: hidden_count(v) for k, v in value.items()}
    return None


def public_state(state_json: Mapping[str, Any]) -> dict[str, Any]:
    out = {}
    for key, value in state_json.items():
        if key in HIDDEN:
            out[key] = hidden_count(value)
        else:
            out[key] = value
    return out


def screen_document(session: Session, recent: Recent, seq: int,
                    raw: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The public document: what the big screen (and every phone) shows. ``raw``: the
    state's to_json(), when the caller has it already."""
    state = session.state
    game = session.game
    actor = state.actor()
    raw = dict(raw) if raw is not None else state.to_json()
    request = state.chance()
    doc: dict[str, Any] = {
        "v": VERSION,
        "seq": seq,
        "game": game.spec.name,
        "title": game.spec.title,
        "family": family_of(game.spec.name),
        "players": list(game.players),
        "turn": game.players[actor] if actor is not None else None,
        "turn_index": actor,
        "expected": sentence(state.expected()),
        "waiting": _waiting(state.expected(), game.players) if not state.is_terminal()
        else None,
        "chance": request.describe() if request is not None else None,
        "over": state.is_terminal(),
        "winners": [game.players[w] for w in state.winners()],
        "scores": state.scores(),
        "actions": len(session.applied),
        "said": list(recent.said),
        "refusals": list(recent.refusals),
        "events": list(recent.events),
        "state": public_state(raw),
    }
    doc["extra"] = family_extra(session, raw, recent)
    return doc


def _waiting(expected: str, players: Sequence[str]) -> str:
    """ "Waiting for Red to throw the dice.", "Waiting for the crib to be counted." """
    text = expected.strip().rstrip(".")
    if not text:
        return ""
    first = text.split()[0].rstrip(",:'s")
    if first not in players:  # a name keeps its capital; "The dealer" does not
        text = text[:1].lower() + text[1:]
    return f"Waiting for {text}."


def player_part(session: Session, player: int, raw: Mapping[str, Any]) -> dict[str, Any]:
    """What only ``player``'s phone receives: their hand (where the companion knows it) and
    the legal choices as the commands they would type. ``raw``: the state's to_json()."""
    state = session.state
    raw_hands = raw.get("hands")
    hand = None
    if isinstance(raw_hands, list) and player < len(raw_hands) \
            and isinstance(raw_hands[player], list):
        hand = [str(c) for c in raw_hands[player]]
    return {
        "player": session.game.players[player],
        "index": player,
        "hand": hand,
        "may_act": not state.is_terminal() and state.may_act(player),
        "choices": choices(state, player, virtual_dice="dice" in session.auto_chance),
    }
