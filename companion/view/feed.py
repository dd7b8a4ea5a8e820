"""The Session listener behind the page.

On each batch of events and each sentence said (undo and corrections replay without events,
but always say so), a new snapshot is built here, on the table loop's thread, the only thread
that reads the state; it is handed to ``publish``, which must be thread-safe and quick (the
server serialises and sends it on its own thread). The parts that depend only on the state
(its JSON, the players' choices) are kept while the state is unchanged: several sentences of
one action cost one build.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.engine import Event
from companion.session import Session
from companion.view.document import player_part, screen_document
from companion.view.recent import Recent

log = logging.getLogger("companion.view")


@dataclass
class Snapshot:
    """One version of the page: the public document, and each player's private part.
    Serialised once per viewer kind, on the server's thread."""

    seq: int
    screen: dict[str, Any]
    players: dict[int, dict[str, Any]]  # the parts of the players whose phones are open
    _texts: dict[int, str] = field(default_factory=dict)

    def text(self, viewer: int | None) -> str:
        """The JSON for the big screen (None) or for one player's phone (their index). A
        phone that has just joined gets its part with the next version (``me.pending``)."""
        key = -1 if viewer is None else viewer
        text = self._texts.get(key)
        if text is None:
            doc = self.screen
            if viewer is not None:
                me = self.players.get(viewer) or {
                    "player": self.screen["players"][viewer], "index": viewer, "hand": None,
                    "may_act": False, "choices": [], "pending": True}
                doc = {**self.screen, "me": me}
            text = self._texts[key] = json.dumps(doc, separators=(",", ":"))
        return text


class Feed:
    def __init__(self, session: Session, publish: Callable[[Snapshot], None],
                 watched: Callable[[], frozenset[int]] | None = None) -> None:
        self.session = session
        self.publish = publish
        # Whose phones are open: only their private parts are built (a player's choices
        # are tried on copies of the state, the costliest part). Default: every player.
        everyone = frozenset(range(len(session.game.players)))
        self.watched = watched or (lambda: everyone)
        self.recent = Recent()
        self.seq = 0
        self._failing = False
        self._cached_for: tuple[object, int] | None = None
        self._players: dict[int, dict[str, Any]] = {}
        self._events_seen = 0  # batches of events: a new batch rebuilds the page's facts
        self._screen_for: tuple[object, int, int] | None = None
        self._screen: dict[str, Any] = {}
        if session.last_announcement:
            self.recent.heard(session.last_announcement, 0)
        session.listeners.append(self._on_events)
        session.speech_listeners.append(self._on_said)

    def detach(self) -> None:
        if self._on_events in self.session.listeners:
            self.session.listeners.remove(self._on_events)
        if self._on_said in self.session.speech_listeners:
            self.session.speech_listeners.remove(self._on_said)

    def _on_events(self, session: Session, events: Sequence[Event]) -> None:
        names = session.game.players
        for event in events:
            self.recent.events.append({"key": event.key,
                                       "text": session.phrases.render(event, names),
                                       "priority": event.priority})
        self._events_seen += 1
        self.push()

    def _on_said(self, text: str, priority: int) -> None:
        self.recent.heard(text, priority)
        self.push()

    def push(self) -> None:
        # The page is beside the game: a fault in drawing it must never reach the Session
        # (its listeners run inside an input's handling). Logged once per run of faults.
        try:
            self.publish(self.snapshot())
            self._failing = False
        except Exception:
            if not self._failing:
                log.exception("the table view could not build its page; the game goes on")
            self._failing = True

    def snapshot(self) -> Snapshot:
        session = self.session
        self.seq += 1
        # The state object itself (kept alive here, so its id cannot be reused) and the
        # number of actions applied: a new action, an undo or a correction changes one.
        key = (session.state, len(session.applied))
        raw = None
        if self._cached_for is None or key[0] is not self._cached_for[0] \
                or key[1] != self._cached_for[1]:
            raw = session.state.to_json()
            self._players = {}
            self._cached_for = key
        missing = self.watched() - self._players.keys()
        if missing:
            raw = raw if raw is not None else session.state.to_json()
            self._players = {**self._players,
                             **{p: player_part(session, p, raw) for p in sorted(missing)}}
        # A sentence alone (several are said per action) changes only what was said.
        screen_key = (session.state, len(session.applied), self._events_seen)
        if self._screen_for is None or screen_key[0] is not self._screen_for[0] \
                or screen_key[1:] != self._screen_for[1:]:
            self._screen = screen_document(session, self.recent, self.seq, raw)
            self._screen_for = screen_key
        screen = {**self._screen, "seq": self.seq, "said": list(self.recent.said),
                  "refusals": list(self.recent.refusals)}
        return Snapshot(self.seq, screen, self._players)
