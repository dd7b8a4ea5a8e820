"""``companion history``: the journal as readable rows (and stable JSON, docs/json.md)."""

from __future__ import annotations

import time
from typing import Any

from companion.engine import decode_action
from companion.game_clock import clock_words
from companion.journal import ACTION, CLOCK, CORRECT, REFUSED, UNDO, Journal
from companion.session import game_from_meta


def history_rows(journal: Journal) -> list[dict[str, Any]]:
    game = game_from_meta(journal.meta())
    rows = []
    for entry in journal.entries():
        if entry.kind == ACTION:
            text = str(decode_action(entry.payload, game.action_types))
        elif entry.kind == UNDO:
            n = entry.payload.get("count", 1)
            text = "undo" + (f" ({n} actions)" if n != 1 else "")
        elif entry.kind == CORRECT:
            text = f"correct to {decode_action(entry.payload['action'], game.action_types)}"
        elif entry.kind == REFUSED:
            text = f"refused {entry.payload.get('input', '')!r}: {entry.note}"
        elif entry.kind == CLOCK:
            times = entry.payload.get("times", [])
            text = "clock " + ", ".join(f"{name} {clock_words(float(t))}"
                                        for name, t in zip(game.players, times, strict=False))
        else:
            text = entry.kind
        rows.append({
            "seq": entry.seq,
            "time": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(entry.time)),
            "kind": entry.kind,
            "text": text,
            "source": entry.source,
            "confidence": entry.confidence,
            "payload": entry.payload,
        })
    return rows
