"""A table's publisher: the journal is the outbox.

The journal tells the publisher's thread each time more of it is on the disk; that thread
takes the new entries (from the journal's memory, or from the file through its own read-only
connection after a restart), so every kind of entry is published: actions, undos,
corrections, refusals. It rebuilds the public state after each with its own copy of the
game, and publishes only entries on the disk, with QoS 1: it never waits on the disk
itself. The broker's acknowledgements advance ``acked`` (the highest entry number below
which everything was acknowledged), kept in a small file beside the journal. When the broker
goes away the table plays on; when it is back, publishing resumes at ``acked + 1``. A hub
that finds a gap asks for a resend. Nothing here ever blocks or ends the table's loop.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import logging
import os
import threading
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from companion.club import topics
from companion.club.netloop import NetworkLoop
from companion.club.public import is_complete, public_entry_payload, public_state
from companion.club.settings import Broker
from companion.engine import Event, Game, State, decode_action
from companion.journal import ACTION, CORRECT, REFUSED, UNDO, Entry, Journal
from companion.phrases import Phrasebook
from companion.session import ReplayError, Session, replay_entries

log = logging.getLogger("companion.club.publisher")

PROTOCOL = 1  # the payloads' version (docs/club.md)
INFLIGHT = 200  # entries sent and not yet acknowledged, at most
RECHECK = 1.0  # seconds: the thread also looks at the journal this often (a missed wake-up)
# seconds between two writes of ``acked`` beside the journal: a file written and renamed each
# second was 0.04 ms of CPU an input at 10 inputs/s (bench club)
ACK_SAVE = 5.0


def public_view(game: Game, state: State, actions: int) -> dict[str, Any]:
    """The public state after an entry (``companion state --json``'s fields, hidden cards
    replaced by their counts)."""
    actor = state.actor()
    names = game.players
    return {
        "turn": names[actor] if actor is not None else None,
        "expected": state.expected(),
        "over": state.is_terminal(),
        "winners": [names[w] for w in state.winners()],
        "scores": state.scores(),
        "actions": actions,
        "state": public_state(state.to_json()),
    }


class Publisher:
    """Publishes one session's journal to the club. ``start`` attaches it; ``close`` stops."""

    def __init__(self, journal: Journal, game: Game, broker: Broker, *,
                 client_id: str | None = None) -> None:
        if journal.path == ":memory:":
            raise ValueError("Publishing to a club needs a journal file.")
        assert broker.table is not None
        self.broker = broker
        self.table = broker.table
        self.game = game
        self.meta = journal.meta()
        self.game_id = str(self.meta["club_game"])
        self._journal = journal  # the writer's: what is on the disk, its last entries
        self._reader = Journal(journal.path, readonly=True)  # this thread's own connection
        first = next(self._reader.entries(follow=True), None)
        self._first_time = first.time if first else time.time()
        self._ack_file = Path(journal.path + ".club")
        self._phrases = Phrasebook.load()
        # Built by this thread from the journal: one message per entry, by entry number.
        self._messages: dict[int, bytes] = {}
        self._over_at: dict[int, bool] = {}  # whether the game was over after each entry
        self._entries: list[Entry] = []
        self._state = self.game.new_state()
        self._actions = 0
        self._view: dict[str, Any] = public_view(self.game, self._state, 0)
        self._over = False
        self._read = 0  # the last entry read from the journal
        self.acked = self._load_acked()
        self._next = self.acked + 1  # the next entry to send
        self._inflight: dict[int, int] = {}  # paho message id -> entry number
        self._done: set[int] = set()  # acknowledged above ``acked``
        self._generation = 0  # connections lost so far
        self._connected = False
        self._closed = False
        self._dirty = True
        self._flushing = 0  # threads waiting in flush()
        lock = threading.RLock()
        self._cond = threading.Condition(lock)  # the publisher's thread waits on this one
        self._acks = threading.Condition(lock)  # flush() on this one: an ack wakes no thread
        self._saved_ack = self.acked
        self._saved_at = 0.0
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2,
                                  client_id=client_id or f"table-{self.table}-{uuid.uuid4().hex}",
                                  protocol=mqtt.MQTTv311, clean_session=True)
        broker.configure(self.client)
        self.client.max_inflight_messages_set(INFLIGHT)
        self.client.max_queued_messages_set(0)
        self.client.will_set(self._topic(topics.STATUS), self._status(False), qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.client.on_message = self._on_message
        # paho's network runs in the publisher's own thread (netloop.py): no second thread.
        self._net = NetworkLoop(self.client, f"table {self.table}")
        self._looked = 0.0  # when the journal was last read
        self._thread = threading.Thread(target=self._run, name=f"club-{self.table}", daemon=True)

    @classmethod
    def start(cls, session: Session, broker: Broker, **kwargs: Any) -> Publisher:
        """Attach to a session (from the table's thread, before its loop runs)."""
        return cls.for_journal(session.journal, session.game, broker, **kwargs)

    @classmethod
    def for_journal(cls, journal: Journal, game: Game, broker: Broker,
                    **kwargs: Any) -> Publisher:
        """Publish a journal's entries as its syncer puts them on the disk."""
        if "club_game" not in journal.meta():
            journal.write_meta({"club_game": uuid.uuid4().hex})
        publisher = cls(journal, game, broker, **kwargs)
        # Woken once an entry is on the disk, not when it is written: one wake-up an entry,
        # and the publisher's thread never waits on the disk.
        journal.on_durable.append(publisher.wake)
        publisher.client.connect_async(broker.host, broker.port, keepalive=15)
        publisher._thread.start()
        return publisher

    @property
    def connected(self) -> bool:
        return self._connected

    # --- the journal syncer's side: never blocks -----------------------------------------

    def wake(self) -> None:
        with self._cond:
            asleep = not self._dirty
            self._dirty = True
        if asleep:  # one byte through the pipe, only when the thread has not been told yet
            self._net.wake()

    def _poke(self) -> None:
        """(Holding ``_cond``, in the publisher's thread.) Something more to do."""
        self._dirty = True

    # --- paho's callbacks (in the publisher's thread) -----------------------------------

    def _on_connect(self, client: mqtt.Client, _userdata: Any, _flags: Any, reason: Any,
                    _props: Any = None) -> None:
        if reason.is_failure:
            log.warning("club broker %s refused table %s: %s", self.broker.describe(),
                        self.table, reason)
            return
        log.info("table %s connected to %s", self.table, self.broker.describe())
        client.subscribe(self._topic(topics.RESEND), qos=1)
        client.publish(self._topic(topics.STATUS), self._status(True), qos=1, retain=True)
        client.publish(self._topic(topics.GAME), self._game_message(), qos=1, retain=True)
        with self._cond:
            self._connected = True
            self._poke()

    def _on_disconnect(self, _client: mqtt.Client, _userdata: Any, _flags: Any, reason: Any,
                       _props: Any = None) -> None:
        with self._cond:
            if self._connected and not self._closed:
                log.warning("table %s lost the club broker (%s); playing on", self.table,
                            reason)
            self._connected = False
            self._generation += 1
            # What was not acknowledged is sent again once the broker is back.
            self._inflight.clear()
            self._next = self.acked + 1

    def _on_publish(self, _client: mqtt.Client, _userdata: Any, mid: int, _reason: Any,
                    _props: Any = None) -> None:
        with self._cond:
            seq = self._inflight.pop(mid, None)
            if seq is not None:  # (else a status, game or result message)
                self._acknowledged(seq)

    def _acknowledged(self, seq: int) -> None:
        if seq <= self.acked:
            return
        self._done.add(seq)
        while self.acked + 1 in self._done:
            self.acked += 1
            self._done.discard(self.acked)
        self._acks.notify_all()  # for flush()
        if len(self._inflight) == INFLIGHT - 1:
            self._poke()  # the window was full: more can be sent now

    def _on_message(self, _client: mqtt.Client, _userdata: Any, msg: mqtt.MQTTMessage) -> None:
        try:
            request = json.loads(msg.payload)
            start = int(request["from"])
            game_id = str(request["game_id"])
        except (ValueError, KeyError, TypeError):
            log.warning("table %s: a resend request that cannot be read", self.table)
            return
        if game_id != self.game_id:
            return
        with self._cond:
            # Above ``acked`` everything is on its way or still to send (a lost connection
            # sends it again anyway): going back for it would only double it.
            if start <= self.acked:
                self._next = max(1, min(self._next, start))
                self._poke()

    # --- the publisher's thread -----------------------------------------------------------

    def _run(self) -> None:
        while True:
            with self._cond:
                if self._closed:
                    break
                timeout = 0.0 if self._dirty else RECHECK
                # The broker's acknowledgements are read when the thread wakes for the next
                # entry (or after RECHECK), not as they come: one wake-up less per entry. It
                # listens while connecting, when the window is half full, and for flush().
                listen = (not self._connected or self._flushing > 0
                          or len(self._inflight) >= INFLIGHT // 2)
            try:
                self._net.step(timeout, listen=listen)  # the broker's packets, callbacks
                with self._cond:
                    dirty, self._dirty = self._dirty, False
                if dirty or time.monotonic() - self._looked >= RECHECK:
                    self._looked = time.monotonic()
                    self._read_journal()
                self._send()
                self._save_acked()
            except Exception:  # the table plays on whatever happens here
                log.exception("table %s: publishing failed", self.table)
        self._goodbye()

    def _goodbye(self) -> None:
        """Say offline (waiting a second at most for the broker to take it), disconnect."""
        try:
            if self._connected:
                info = self.client.publish(self._topic(topics.STATUS), self._status(False),
                                           qos=1, retain=True)
                until = time.monotonic() + 1.0
                while (self._connected and not info.is_published()
                       and time.monotonic() < until):
                    self._net.step(0.05)
            self.client.disconnect()
        except Exception:  # the table is stopping anyway
            log.exception("table %s: could not say goodbye to the club", self.table)
        finally:
            self._net.close()

    def _read_journal(self) -> None:
        # Only what is on the disk: nothing is published that a power cut could take back.
        durable = self._journal.durable_seq()
        if durable <= self._read:
            return
        fresh = self._journal.recent(self._read)  # the writer's memory: no read, no check
        if fresh is None:
            # After a restart, or a publisher far behind: from the file. (The whole-file
            # damage scan is for a game read after the fact: here it would read and checksum
            # the whole WAL at every entry, 41 ms a read at 100 tables.)
            with contextlib.closing(self._reader.entries(after=self._read, follow=True)) as rows:
                fresh = list(itertools.takewhile(lambda e: e.seq <= durable, rows))
        for entry in fresh:
            if entry.seq > durable:
                break
            self._messages[entry.seq] = self._message(entry)
            self._over_at[entry.seq] = bool(self._view["over"])
            self._read = entry.seq

    def _message(self, entry: Entry) -> bytes:
        before = self._view["state"]
        events: Sequence[Event] = ()
        self._entries.append(entry)
        try:
            if entry.kind == ACTION:
                events = self._state.apply(decode_action(entry.payload, self.game.action_types))
                self._actions += 1
            elif entry.kind in (UNDO, CORRECT):
                self._state, applied, events = replay_entries(self.game, self._entries)
                self._actions = len(applied)
                if entry.kind == UNDO:
                    events = ()
            self._view = public_view(self.game, self._state, self._actions)
        except (ReplayError, Exception):  # a rules bug: the entry is still published
            log.exception("table %s: entry %d does not replay", self.table, entry.seq)
        payload = public_entry_payload(self.game.spec.name, entry.kind, entry.payload, before)
        shown = is_complete(payload)  # what a hidden card caused is not worded either
        message = {
            "v": PROTOCOL,
            "table": self.table,
            "game_id": self.game_id,
            "seq": entry.seq,
            "time": entry.time,
            "kind": entry.kind,
            "payload": payload,
            "source": entry.source,
            "note": entry.note if entry.kind == REFUSED else "",
            "events": [{"key": e.key, "priority": int(e.priority),
                        "text": self._phrases.render(e, self.game.players) if shown else ""}
                       for e in events],
            "view": self._view,
        }
        return json.dumps(message, separators=(",", ":")).encode()

    def _send(self) -> None:
        # publish() writes at once, and its acknowledgement is read later in this same
        # thread (NetworkLoop.step): a message id is registered before any ack can come.
        while True:
            with self._cond:
                if (not self._connected or self._next > self._read
                        or len(self._inflight) >= INFLIGHT or self._closed):
                    return
                seq = self._next
                self._next += 1
                generation = self._generation
            payload = self._messages[seq]
            info = self.client.publish(self._topic(topics.ENTRY), payload, qos=1)
            with self._cond:
                if info.rc != mqtt.MQTT_ERR_SUCCESS or generation != self._generation:
                    self._next = min(self._next, seq)
                    return
                self._inflight[info.mid] = seq
            if seq == self._read:
                over = self._over_at[seq]
                if over != self._over:
                    self._over = over
                    self.client.publish(self._topic(topics.RESULT), self._result_message(seq),
                                        qos=1, retain=True)

    # --- messages -------------------------------------------------------------------------

    def _topic(self, leaf: str) -> str:
        return topics.table_topic(self.broker.club, self.table, leaf)

    def _status(self, online: bool) -> bytes:
        return json.dumps({"v": PROTOCOL, "table": self.table, "online": online,
                           "time": time.time(), "game_id": self.game_id,
                           "last": self._read}).encode()

    def _game_message(self) -> bytes:
        spec = self.game.spec
        return json.dumps({
            "v": PROTOCOL, "table": self.table, "game_id": self.game_id,
            "game": spec.name, "title": spec.title, "players": list(self.game.players),
            "options": dict(self.game.options), "config": self.meta.get("config", {}),
            "started": self._first_time,
        }).encode()

    def _result_message(self, seq: int) -> bytes:
        return json.dumps({"v": PROTOCOL, "table": self.table, "game_id": self.game_id,
                           "seq": seq, "over": self._view["over"],
                           "winners": self._view["winners"], "scores": self._view["scores"]}
                          ).encode()

    # --- acknowledged, kept beside the journal -------------------------------------------------

    def _load_acked(self) -> int:
        with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
            saved = json.loads(self._ack_file.read_text(encoding="utf-8"))
            if saved["game_id"] == self.game_id:
                return int(saved["acked"])
        return 0

    def _save_acked(self, *, now: bool = False) -> None:
        """At most every ACK_SAVE seconds (a crash then costs those seconds' entries sent
        again, which the hub drops), and at the end."""
        acked = self.acked
        if acked == self._saved_ack or (not now and time.monotonic() - self._saved_at < ACK_SAVE):
            return
        self._saved_at = time.monotonic()
        tmp = self._ack_file.with_suffix(".club.tmp")
        try:
            tmp.write_text(json.dumps({"game_id": self.game_id, "acked": acked}),
                           encoding="utf-8")
            os.replace(tmp, self._ack_file)
            self._saved_ack = acked
        except OSError as err:
            log.warning("table %s: cannot keep the acknowledged entry: %s", self.table, err)

    # --- the end --------------------------------------------------------------------------

    def journal_last(self) -> int:
        """The last entry in the journal (read on a connection of the caller's own)."""
        reader = Journal(self._reader.path, readonly=True)
        try:
            return reader.count()  # entries are numbered 1, 2, ... and never deleted
        finally:
            reader.close()

    def flush(self, timeout: float) -> bool:
        """Wait until every entry so far is acknowledged by the broker (or ``timeout``)."""
        target = self.journal_last()
        with self._acks:
            self._flushing += 1
        try:
            self.wake()
            with self._acks:
                return self._acks.wait_for(lambda: self.acked >= target, timeout)
        finally:
            with self._acks:
                self._flushing -= 1

    def close(self, timeout: float = 2.0) -> None:
        """Send what can be sent within ``timeout``, say offline, and stop."""
        if self._closed:
            return
        self.flush(timeout)
        with self._cond:
            self._closed = True
        self._net.wake()
        self._thread.join(timeout=5)  # it says offline and disconnects on its way out
        self._save_acked(now=True)
        self._reader.close()
