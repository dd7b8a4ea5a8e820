"""A table's whole screen at the hub: the table view's document (docs/json.md, "The table
view's document") built from what the hub received, so that the hub's page draws a table with
the view's own renderers (its board, pegboard, track), as the table's big screen does.

A family's facts are built by the view's own code (``companion.view.families``) from the
public state, with the game replayed through the rules where no entry of it was hidden
(chess, checkers, race and dice games). A Monopoly game's hidden shuffles leave the hub
without its rules state: its facts come from the public state, which holds them all. Where
a family needs more than the hub has, there is no whole screen and the page keeps the
table's card.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.club.public import is_complete
from companion.engine import Game, State
from companion.journal import Entry

if TYPE_CHECKING:
    from companion.club.hub import GameRecord

log = logging.getLogger("companion.club.screen")


@dataclass
class Replayed:
    """What a family's builder reads of a Session: the game, its state, its actions."""

    game: Game
    state: State | None = None
    applied: list[Any] = field(default_factory=list)


def _replayed(record: GameRecord) -> Replayed:
    from companion.session import game_from_meta, replay_entries

    info = record.info
    game = game_from_meta({"game": info["game"], "players": info["players"],
                           "options": info.get("options", {}),
                           "config": info.get("config", {})})
    ordered = [record.entries[s] for s in range(1, record.applied + 1)]
    if not all(is_complete(m["payload"]) for m in ordered):
        return Replayed(game)  # hidden cards: the public state only
    entries = [Entry(m["seq"], m["time"], m["kind"], m["payload"], m["source"], 1.0,
                     m.get("note", "")) for m in ordered]
    state, applied, _ = replay_entries(game, entries)
    return Replayed(game, state, list(applied))


def table_document(record: GameRecord) -> dict[str, Any] | None:
    """The table's screen document, or None where the hub cannot build its family's facts.
    (The caller holds the hub's lock.)"""
    from companion.engine import sentence
    from companion.view.document import VERSION, Recent, _waiting
    from companion.view.families import family_extra, family_of

    if not record.info or not record.view:
        return None
    view = record.view
    players = list(record.info.get("players", []))
    recent = Recent()
    for text in record.last_events:
        recent.heard(text, 0)
    # The events a table's page remembers (its payments, the last throw), from the entries.
    for seq in range(max(1, record.applied - 23), record.applied + 1):
        for event in record.entries[seq]["events"]:
            if event.get("text"):
                recent.events.append({"key": event["key"], "text": event["text"],
                                      "priority": event.get("priority", 0)})
    if record.name == "cribbage":
        recent.memo["pegs"] = _pegs(record)
    try:
        replayed = _replayed(record)
        if replayed.state is None and record.name == "monopoly":
            extra = _monopoly(record, replayed.game, view)
        else:
            extra = family_extra(replayed, view["state"], recent)  # type: ignore[arg-type]
    except Exception as err:  # noqa: BLE001 - what the hub lacks: the card stays
        log.debug("no whole screen for table %s: %s", record.table, err)
        return None
    turn = view.get("turn")
    expected = str(view.get("expected", ""))
    return {
        "v": VERSION, "seq": record.applied, "game": record.name,
        "title": record.info.get("title", record.name), "family": family_of(record.name),
        "players": players, "turn": turn,
        "turn_index": players.index(turn) if turn in players else None,
        "expected": sentence(expected),
        "waiting": None if view.get("over") else _waiting(expected, players),
        "chance": None, "over": bool(view.get("over")), "winners": view.get("winners", []),
        "scores": view.get("scores", []), "actions": view.get("actions", 0),
        "said": list(recent.said), "refusals": [], "events": [],
        "state": view["state"], "extra": extra,
    }


def _monopoly(record: GameRecord, game: Game, view: dict[str, Any]) -> dict[str, Any]:
    """The Monopoly family's facts (``companion.view.families.monopoly``) from the public
    state, which has them all: the hidden shuffles leave the hub without the rules state."""
    from companion.view.families import PAYMENT_KEYS

    ed = game.edition  # type: ignore[attr-defined]
    raw = view["state"]
    owners = {space["index"]: space.get("owner") for space in raw["spaces"]}
    payments = [event["text"] for seq in range(1, record.applied + 1)
                for event in record.entries[seq]["events"]
                if event.get("key") in PAYMENT_KEYS and event.get("text")]
    return {
        "currency": "$" if ed.currency == "dollars" else f"{ed.currency} ",
        "groups": [ed.group_keys[ed.group[s]] if ed.group[s] >= 0 else None
                   for s in range(ed.size)],
        "worth": [int(w) for w in view.get("scores", [])],  # the engine's valuation
        "deeds": [[s for s in ed.properties if owners.get(s) == p]
                  for p in range(len(game.players))],
        "payments": payments[-6:],
    }


def _pegs(record: GameRecord) -> list[list[int]]:
    """Each side's front and back peg (the score before its last peg), from the public
    state after each entry received, as a table's screen remembers them."""
    def scores(seq: int) -> list[int]:
        return list(record.entries[seq]["view"]["state"].get("scores", []))

    now = scores(record.applied)
    pegs = [[score, 0] for score in now]
    for side, score in enumerate(now):
        for seq in range(record.applied - 1, 0, -1):
            before = scores(seq)
            if side < len(before) and before[side] != score:
                if before[side] < score:  # (else an undo: no back peg)
                    pegs[side][1] = before[side]
                break
    return pegs
