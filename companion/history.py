"""``companion history``: the journal as readable rows (and stable JSON, docs/json.md)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from companion.engine import Game, decode_action
from companion.game_clock import clock_words
from companion.journal import ACTION, CLOCK, CORRECT, REFUSED, UNDO, Entry, Journal
from companion.session import game_from_meta


def history_rows(journal: Journal) -> Iterator[dict[str, Any]]:
    """One row per entry, as they are read (a damaged journal: the rows before the damage,
    then its DamagedJournal)."""
    game = game_from_meta(journal.meta())
    for entry in journal.entries():
        try:
            text = _text(entry, game)
        except (KeyError, ValueError, TypeError, AttributeError) as err:
            text = f"(cannot be read: {err})"  # an unchecked entry from before the checks
        yield {
            "seq": entry.seq,
            "time": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(entry.time)),
            "kind": entry.kind,
            "text": text,
            "source": entry.source,
            "confidence": entry.confidence,
            "payload": entry.payload,
        }


def _text(entry: Entry, game: Game) -> str:
    if entry.kind == ACTION:
        return str(decode_action(entry.payload, game.action_types))
    if entry.kind == UNDO:
        n = entry.payload.get("count", 1)
        return "undo" + (f" ({n} actions)" if n != 1 else "")
    if entry.kind == CORRECT:
        return f"correct to {decode_action(entry.payload['action'], game.action_types)}"
    if entry.kind == REFUSED:
        return f"refused {entry.payload.get('input', '')!r}: {entry.note}"
    if entry.kind == CLOCK:
        times = entry.payload.get("times", [])
        return "clock " + ", ".join(f"{name} {clock_words(float(t))}"
                                    for name, t in zip(game.players, times, strict=False))
    return entry.kind
