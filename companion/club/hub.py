"""The hub: subscribes to a club's tables and applies each journal entry once.

Entries are kept by (table, game, entry number); a second copy of an entry (QoS 1 delivers at
least once, and a table sends again what was not acknowledged) is counted and dropped. Entries
are applied in order: an entry that arrives after a gap waits, and the hub asks the table to
send again from the first missing number (on the table's ``resend`` topic), as it does for every
table it knows each time it (re)connects to the broker.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import paho.mqtt.client as mqtt

from companion.club import topics
from companion.club.netloop import NetworkLoop
from companion.club.public import is_complete
from companion.club.settings import Broker
from companion.engine import State
from companion.journal import Entry

log = logging.getLogger("companion.club.hub")

ASK_AGAIN = 1.0  # seconds between two resend requests for the same gap


@dataclass
class GameRecord:
    """One game of one table, as received."""

    table: str
    game_id: str
    info: dict[str, Any] = field(default_factory=dict)  # the `game` message
    entries: dict[int, dict[str, Any]] = field(default_factory=dict)  # received, by number
    applied: int = 0  # entries 1..applied are applied, in order
    view: dict[str, Any] = field(default_factory=dict)  # the public state after ``applied``
    duplicates: int = 0
    asked: float = 0.0  # when a resend was last asked for
    last_events: list[str] = field(default_factory=list)

    @property
    def over(self) -> bool:
        return bool(self.view.get("over"))

    @property
    def name(self) -> str:
        return str(self.info.get("game", ""))

    def pending_gap(self) -> bool:
        """Entries received after a missing one (1..applied are all there)."""
        return len(self.entries) > self.applied

    def reproduce(self) -> State | None:
        """The game replayed through the rules from the entries received, when none was
        hidden (chess, dice and board games); None for games with hidden cards, whose
        public state after each entry is what the hub has."""
        from companion.session import game_from_meta, replay_entries

        ordered = [self.entries[s] for s in range(1, self.applied + 1)]
        if not self.info or not all(is_complete(m["payload"]) for m in ordered):
            return None
        game = game_from_meta({"game": self.info["game"], "players": self.info["players"],
                               "options": self.info.get("options", {}),
                               "config": self.info.get("config", {})})
        entries = [Entry(m["seq"], m["time"], m["kind"], m["payload"], m["source"], 1.0,
                         m.get("note", "")) for m in ordered]
        state, _, _ = replay_entries(game, entries)
        return state


@dataclass
class TableRecord:
    name: str
    online: bool = False
    game_id: str | None = None  # the game it plays now
    seen: float = 0.0


class Hub:
    """Subscribes to ``CLUB/tables/+/...``; ``wait_for`` lets tests and the page wait on it."""

    def __init__(self, broker: Broker, *, client_id: str | None = None,
                 on_entry: Callable[[GameRecord, dict[str, Any], float], None] | None = None,
                 store: Path | None = None) -> None:
        self.broker = broker
        # The night so far, one JSON line per game and entry applied: a hub started again
        # has the games of tables that have since gone home.
        self.store = store
        self._store: TextIO | None = None
        self._loading = False
        self.tables: dict[str, TableRecord] = {}
        self.games: dict[tuple[str, str], GameRecord] = {}
        self.received = 0
        self.applied = 0
        self.duplicates = 0
        self.rejected = 0
        self.version = 0  # changes with everything the page shows
        self.results = 0  # changes when a game ends (or an undo takes its end back)
        # The standings, by ``results``: built when a game ends, not at every entry.
        self.standings: tuple[int, dict[str, Any]] | None = None
        self.connected = False
        self.on_entry = on_entry  # (record, message, received at): the bench's probe
        self._cond = threading.Condition()
        self._closed = False
        self._requests: list[tuple[str, str]] = []
        self._watchers: list[Callable[[], None]] = []  # told of every change (the page)
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2,
                                  client_id=client_id or f"hub-{uuid.uuid4().hex}",
                                  protocol=mqtt.MQTTv311, clean_session=True)
        broker.configure(self.client)
        self.client.max_inflight_messages_set(200)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        # One thread does the network (netloop.py: paho's external loop, so an entry's
        # acknowledgement goes out at once, without waking a second thread) and asks again
        # for gaps that stay open.
        self._net = NetworkLoop(self.client, "the hub")
        self._thread = threading.Thread(target=self._run, name="hub", daemon=True)

    def start(self) -> Hub:
        if self.store is not None:
            self._load(self.store)
            self.store.parent.mkdir(parents=True, exist_ok=True)
            self._store = self.store.open("a", encoding="utf-8")
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=15)
        self._thread.start()
        return self

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._net.wake()
        self._thread.join(timeout=5)
        with self._cond:
            if self._store is not None:
                self._store.close()
                self._store = None

    def _load(self, path: Path) -> None:
        if not path.exists():
            return
        self._loading = True
        try:
            with self._cond, path.open(encoding="utf-8") as lines:
                for number, line in enumerate(lines, 1):
                    try:
                        kept = json.loads(line)
                        _HANDLERS[kept["kind"]](self, kept["table"], kept["data"], 0.0)
                    except (ValueError, KeyError, TypeError) as err:  # a line cut by a crash
                        log.warning("%s line %d cannot be read (%s); skipped", path, number,
                                    err)
                self._changed()
        finally:
            self._loading = False

    def _keep(self, kind: str, table: str, data: dict[str, Any]) -> None:
        if self._store is not None and not self._loading:
            self._store.write(json.dumps({"kind": kind, "table": table, "data": data},
                                         separators=(",", ":")) + "\n")
            self._store.flush()

    @property
    def lock(self) -> threading.Condition:
        """Held while reading the records from another thread (the page, the exports)."""
        return self._cond

    def wait_for(self, predicate: Callable[[Hub], bool], timeout: float) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: predicate(self), timeout)

    # --- paho's thread ------------------------------------------------------------------

    def _on_connect(self, client: mqtt.Client, _userdata: Any, _flags: Any, reason: Any,
                    _props: Any = None) -> None:
        if reason.is_failure:
            log.warning("the club broker %s refused the hub: %s", self.broker.describe(),
                        reason)
            return
        club = self.broker.club
        client.subscribe([(topics.all_tables(club, leaf), 1) for leaf in topics.PUBLISHED])
        with self._cond:
            self.connected = True
            # Whatever was lost while the hub or the broker was away is asked for again.
            for record in self.games.values():
                record.asked = 0.0
                self._ask(record)
            self._changed()
        self._send_requests()

    def _on_disconnect(self, *_args: Any) -> None:
        with self._cond:
            self.connected = False
            self._changed()

    def _on_message(self, _client: mqtt.Client, _userdata: Any, msg: mqtt.MQTTMessage) -> None:
        now = time.time()
        where = topics.split(self.broker.club, msg.topic)
        try:
            data = json.loads(msg.payload)
            if where is None or not isinstance(data, dict):
                raise ValueError("not a table message")
        except ValueError:
            log.warning("the hub ignored a message on %s that it cannot read", msg.topic)
            self.rejected += 1
            return
        table, leaf = where  # the table is the topic's, whatever the payload says
        handler = _HANDLERS.get(leaf)
        if handler is None:
            return
        with self._cond:
            try:
                handler(self, table, data, now)
            except (KeyError, TypeError, ValueError) as err:
                log.warning("the hub ignored a bad %s message from table %s: %s", leaf, table,
                            err)
                self.rejected += 1
            self._changed()
        self._send_requests()

    # --- handlers (holding _cond) ---------------------------------------------------------

    def _table(self, name: str) -> TableRecord:
        record = self.tables.get(name)
        if record is None:
            record = self.tables[name] = TableRecord(name)
        return record

    def _game(self, table: str, game_id: str) -> GameRecord:
        key = (table, game_id)
        record = self.games.get(key)
        if record is None:
            record = self.games[key] = GameRecord(table, game_id)
        return record

    def _on_status(self, table: str, data: dict[str, Any], now: float) -> None:
        record = self._table(table)
        record.online = bool(data["online"])
        record.seen = now
        # A table that (re)connects says how far its journal goes: if the hub has less (the
        # broker lost what it had acknowledged), it asks for the rest.
        if "game_id" in data and int(data.get("last", 0)) > 0:
            game = self._game(table, str(data["game_id"]))
            if int(data["last"]) > game.applied:
                game.asked = 0.0
                self._ask(game)

    def _on_game(self, table: str, data: dict[str, Any], now: float) -> None:
        game_id = str(data["game_id"])
        record = self._game(table, game_id)
        info = {k: v for k, v in data.items() if k != "table"}
        if info != record.info:
            self._keep(topics.GAME, table, data)
            self.results += record.over  # a finished game's players came late
        record.info = info
        self._table(table).game_id = game_id
        # A hub that joins late asks for what it missed, if nothing comes by itself.
        record.asked = max(record.asked, time.monotonic())

    def _on_entry(self, table: str, data: dict[str, Any], now: float) -> None:
        seq = int(data["seq"])
        record = self._game(table, str(data["game_id"]))
        self.received += 1
        if seq <= record.applied or seq in record.entries:
            record.duplicates += 1
            self.duplicates += 1
            return
        record.entries[seq] = data
        self._keep(topics.ENTRY, table, data)
        self._table(table).seen = now
        was_over = record.over
        while record.applied + 1 in record.entries:
            record.applied += 1
            message = record.entries[record.applied]
            record.view = message["view"]
            record.last_events = ([e["text"] for e in message["events"] if e.get("text")]
                                  or ([message["note"]] if message.get("note") else []))
            self.applied += 1
            if self.on_entry is not None:
                self.on_entry(record, message, now)
        if record.over != was_over:
            self.results += 1
        if record.pending_gap():
            self._ask(record)

    def _on_result(self, table: str, data: dict[str, Any], now: float) -> None:
        self._game(table, str(data["game_id"]))  # the entries themselves carry the result

    def _ask(self, record: GameRecord) -> None:
        """Ask a table to send again from the first entry missing (at most once a second)."""
        now = time.monotonic()
        if now - record.asked < ASK_AGAIN or not self.connected or self._loading:
            return
        record.asked = now
        request = json.dumps({"game_id": record.game_id, "from": record.applied + 1})
        self._requests.append(
            (topics.table_topic(self.broker.club, record.table, topics.RESEND), request))

    def _send_requests(self) -> None:
        """(The network thread.) Publish the queued resend requests (never holding
        ``_cond``: paho calls back into the hub holding its own locks)."""
        with self._cond:
            requests, self._requests = self._requests, []
        for topic, request in requests:
            self.client.publish(topic, request, qos=1)

    def _changed(self) -> None:
        self.version += 1
        self._cond.notify_all()
        for watcher in self._watchers:
            watcher()

    def watch(self, watcher: Callable[[], None]) -> None:
        """Call ``watcher`` (quick, thread-safe) after every change, from the hub's threads."""
        with self._cond:
            self._watchers.append(watcher)

    def unwatch(self, watcher: Callable[[], None]) -> None:
        with self._cond:
            self._watchers.remove(watcher)

    def _run(self) -> None:
        """The network thread: the broker's messages (the handlers run here), the resend
        requests, and every ASK_AGAIN seconds a look for gaps that stay open (a resend
        request can be lost too) and games the hub knows of and has nothing of."""
        looked = time.monotonic()
        while True:
            with self._cond:
                if self._closed:
                    break
            try:
                self._net.step(ASK_AGAIN)
                if time.monotonic() - looked >= ASK_AGAIN:
                    looked = time.monotonic()
                    with self._cond:
                        for record in self.games.values():
                            if record.pending_gap() or (record.info and not record.entries):
                                self._ask(record)
                self._send_requests()
            except Exception:  # the hub carries on whatever one message did
                log.exception("the hub's network loop")
        try:
            self.client.disconnect()
        finally:
            self._net.close()

    # --- views ----------------------------------------------------------------------------

    def snapshot(self, *, brief: bool = False) -> dict[str, Any]:
        """Everything the page shows, as JSON (docs/club.md); ``brief``: without the list
        of every game and without each game's public state (what the page draws)."""
        from companion.club.standings import night

        with self._cond:
            return night(self, brief=brief)


_HANDLERS: dict[str, Callable[[Hub, str, dict[str, Any], float], None]] = {
    topics.STATUS: Hub._on_status,
    topics.GAME: Hub._on_game,
    topics.ENTRY: Hub._on_entry,
    topics.RESULT: Hub._on_result,
}
