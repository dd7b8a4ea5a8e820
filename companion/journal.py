"""The journal: every accepted input, committed to SQLite before it is announced.

One database per game. Entries are never deleted: undo and corrections are entries too, so
history stays auditable and ``replay`` (used by resume and by undo) rebuilds the exact state.

Durability is a group commit. Each entry is committed at once in WAL mode with
synchronous=NORMAL: atomic, and safe against a crash or ``kill -9`` of the companion. A syncer
thread then fdatasyncs the WAL file, batching entries that arrive together, and
``wait_durable`` blocks until everything appended so far would survive a power cut too. The
announcer waits on that barrier before it speaks or prints, so nothing is announced that a
power cut could take back, while the session itself never waits on the disk (an fsync costs
4 ms at the median and 12 ms at p99 on the test machine's disk). Once the journal has been
idle for a moment (a turn has ended), the syncer thread checkpoints the WAL into the database
file, so that the ``.sqlite`` file alone holds the whole game at rest.

Every read is checked. Each entry carries a hash covering its own fields and the hash of the
entry before it; the first entry's "before" is the checksum of the game's setup (players,
options, seed, data files) kept in the meta table. A changed, missing or garbled entry is
named (DamagedJournal), with how many entries before it are intact. Journals written before
the checks (schema 1) still read: their entries are "unchecked", and entries added to them
from then on are chained.

Any disk error (a failed write or fdatasync, a full or read-only disk, a WAL file deleted
under a running game) becomes a DiskError with a plain sentence, ``error`` is set for good,
``on_error`` is told, and the journal refuses every later write: nothing is announced that is
not on disk.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import logging
import os
import shutil
import sqlite3
import stat
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from companion.recover import Rows, file_damage, read_rows

log = logging.getLogger("companion.journal")

SCHEMA_VERSION = 2  # 2: entries carry a hash chain; 1: unchecked entries
FIRST_SCHEMA = 1

# Entry kinds. "refused" entries are for the audit trail only; replay skips them.
ACTION = "action"
UNDO = "undo"
CORRECT = "correct"
REFUSED = "refused"
CLOCK = "clock"  # the clock's times after a move, for the record; replay skips them
KINDS = frozenset({ACTION, UNDO, CORRECT, REFUSED, CLOCK})

# The meta keys that make the game: their checksum starts the entries' hash chain.
SETUP_KEYS = ("game", "players", "options", "seed", "auto_chance", "config")

_SEAL_KEYS = frozenset({"schema", "checksum", "checked_from"})  # set by the journal itself

# seconds without a new entry before the WAL is checkpointed: a pause between turns, longer
# than the gap between a burst's entries (at 10 inputs/s, 50 ms checkpointed after every
# entry: two more fsyncs each, about 0.25 ms of CPU an input in bench club)
CHECKPOINT_IDLE = 0.5
CHECKPOINT_EVERY = 1000  # entries: checkpoint even without a pause (a flood of input)
# The writer's last entries kept in memory for a follower in the same process (the club's
# publisher): it takes them from here instead of reading them back from the file.
RECENT = 256
DURABLE_TIMEOUT = 30.0  # a disk that has not confirmed a save by then is failing
MODE = 0o600  # journals and logs: the owner's alone


@dataclass(frozen=True)
class Entry:
    seq: int
    time: float  # wall clock, seconds since the epoch
    kind: str
    payload: dict[str, Any]
    source: str
    confidence: float
    note: str
    checked: bool = True  # False: written before journals had checksums


class JournalError(Exception):
    pass


class DiskError(JournalError):
    """The disk refused a write or a sync. ``reason``: what happened, as said."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class DamagedJournal(JournalError):
    """A journal whose file or entries do not read back as written. ``seq``: the first
    damaged entry (None when the file or the game's setup is damaged); ``intact``: how many
    entries before it read and check."""

    def __init__(self, path: str, detail: str, seq: int | None = None, intact: int = 0) -> None:
        where = f"at entry {seq}" if seq is not None else ""
        if seq is None:
            text = f"{path} is damaged: {detail}."
        else:
            before = ("no entry before it is" if intact == 0 else
                      f"the {intact} entries before it are" if intact > 1 else
                      "the one entry before it is")
            text = f"{path} is damaged {where}: {detail}; {before} intact."
        super().__init__(text)
        self.path = path
        self.detail = detail
        self.seq = seq
        self.intact = intact


class UnknownFormat(JournalError):
    """A journal of a newer schema, or with entry kinds this version does not know."""


class NewestUnreadable(JournalError):
    """The newest saved game is damaged or unknown: resume names it and never goes on with
    an older one in silence. ``path``: that game."""

    def __init__(self, message: str, path: Path) -> None:
        super().__init__(message)
        self.path = path


def disk_reason(err: BaseException) -> str:
    """What a disk error means, as a sentence part: "the disk is full (...)"."""
    code = getattr(err, "errno", None)
    name = str(getattr(err, "sqlite_errorname", ""))
    detail = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
    if code in (errno.ENOSPC, errno.EDQUOT) or name == "SQLITE_FULL":
        what = "the disk is full"
    elif code == errno.EROFS or name.startswith("SQLITE_READONLY"):
        what = "the disk is read-only"
    elif code == errno.EFBIG:
        what = "the file size limit was reached"
    elif code in (errno.EACCES, errno.EPERM) or name == "SQLITE_PERM":
        what = "permission was denied"
    elif code == errno.EIO or name.startswith("SQLITE_IOERR"):
        what = "the disk reported an input/output error"
    elif name == "SQLITE_CANTOPEN":
        what = "the file cannot be opened"
    else:
        what = "the disk refused"
    return f"{what} ({detail})"


def _damage(err: sqlite3.Error) -> bool:
    """A SQLite error that means the file is not what was written (not a disk failure)."""
    name = str(getattr(err, "sqlite_errorname", ""))
    return name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB", "SQLITE_ERROR",
                            "SQLITE_FORMAT", "SQLITE_SCHEMA", "SQLITE_RANGE",
                            "SQLITE_MISMATCH"))


def entry_hash(prev: str, seq: int, at: float, kind: str, payload: str, source: str,
               confidence: float, note: str) -> str:
    """The chain link of one entry: its stored fields and the hash before it."""
    text = "\x1f".join((prev, str(seq), repr(float(at)), kind, payload, source,
                        repr(float(confidence)), note))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def setup_checksum(stored: Mapping[str, str]) -> str:
    """The checksum of the game's setup: the meta rows of SETUP_KEYS, as stored (JSON)."""
    text = "\x1e".join(f"{key}\x1f{stored.get(key, '')}" for key in SETUP_KEYS)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


class Journal:
    """One game's journal. ``readonly`` opens an existing one for looking (state, history)
    without writing, locking or creating anything (on read-only storage too); otherwise the
    database file itself is locked for this process, so two companions can never both append
    to one game, whatever path (a symlink, a hard link) each was given."""

    def __init__(self, path: str | Path, *, readonly: bool = False) -> None:
        self.path = str(path)
        self.readonly = readonly
        self.error: str | None = None  # set, for good, when the disk refused a write or sync
        self.on_error: Callable[[str], None] | None = None  # told once, from any thread
        self._lock_fd: int | None = None
        self._copy_dir: str | None = None  # a read-only view's copy of a WAL it cannot share
        self._tail: tuple[int, str] | None = None  # the last entry's seq and hash (writer)
        self._columns: tuple[str, ...] | None = None
        self._followed: dict[str, Any] | None = None  # the meta, for entries(follow=True)
        memory = self.path == ":memory:"
        if readonly:
            if memory or not Path(self.path).is_file():
                raise JournalError(f"no journal at {self.path}")
            self._db = self._open_readonly()
        else:
            try:
                if not memory:
                    folder = Path(self.path).parent
                    if not folder.is_dir():
                        folder.mkdir(parents=True, mode=0o700)
                    self._lock()
                # check_same_thread=False: the CLI builds the session on the main thread and
                # the loop drives it from another; the session serialises all access itself.
                self._db = sqlite3.connect(self.path, isolation_level=None,
                                           check_same_thread=False)
                mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                if not memory and str(mode).lower() != "wal":
                    raise JournalError(f"{self.path}: SQLite refused WAL mode ({mode})")
                # No sync of SQLite's own on this connection: the syncer thread fdatasyncs the
                # WAL (what makes an entry durable), and only its checkpointer connection
                # checkpoints, syncing the WAL before and the database file after. (With
                # NORMAL, the first commit after each checkpoint synced the restarted WAL's
                # header in the session's thread: 6 ms at the median in bench latency.)
                self._db.execute("PRAGMA synchronous=OFF")
                self._db.execute("PRAGMA wal_autocheckpoint=0")
                self._db.executescript(_SCHEMA)
            except (OSError, sqlite3.Error, JournalError) as err:
                if hasattr(self, "_db"):
                    self._db.close()
                self._release()
                if isinstance(err, JournalError):
                    raise
                if isinstance(err, sqlite3.Error) and _damage(err):
                    raise DamagedJournal(self.path, f"it cannot be read as a database ({err})"
                                         ) from None
                raise DiskError(f"cannot write {self.path}: {disk_reason(err)}") from None
        self._cond = threading.Condition()
        self._appended = 0  # entries (and meta writes) committed
        self._last_seq = 0  # the last entry committed by this writer
        self._durable_seq = 0  # entries up to this number are on the disk
        self._recent: deque[Entry] = deque(maxlen=RECENT)
        # Told (from the syncer's thread; quick, never raising) each time more is on the disk.
        self.on_durable: list[Callable[[], None]] = []
        self._synced = 0  # of those, how many are known to be on the disk
        self._checkpointed = 0  # of those, how many are in the database file itself
        self._sync_failed = False  # the syncer has stopped on a disk error
        self._closed = False
        self._syncer: threading.Thread | None = None
        if not memory and not readonly:
            try:
                self._initial_sync()
                self._last_seq = self._durable_seq = self._max_seq()
            except OSError as err:
                self._db.close()
                self._release()
                raise DiskError(f"cannot write {self.path}: {disk_reason(err)}") from None
            self._syncer = threading.Thread(target=self._sync_loop, name="journal-sync",
                                            daemon=True)
            self._syncer.start()

    # --- opening ----------------------------------------------------------------------

    def _lock(self) -> None:
        # The database file itself, by its resolved path: a symlink or another name for the
        # same file finds the same lock, and there is no lock file to lose. flock, not
        # fcntl: SQLite's own POSIX locks on the file are independent of it.
        fd = os.open(os.path.realpath(self.path), os.O_RDWR | os.O_CREAT, MODE)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise JournalError(
                f"{self.path} is in use by another companion (only one may play a game)"
            ) from None
        self._lock_fd = fd
        if stat.S_IMODE(os.fstat(fd).st_mode) & 0o077:
            os.fchmod(fd, MODE)  # a journal from before: the owner's alone from now

    def _release(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # releases the flock
            self._lock_fd = None

    def _open_readonly(self) -> sqlite3.Connection:
        """Read without writing anything. On read-only storage SQLite cannot make the WAL
        index it needs: a journal without a WAL is opened as immutable, one with a WAL is
        read from a private copy of both files."""
        try:
            return self._connect_ro(self.path, "mode=ro")
        except sqlite3.Error as err:
            if _damage(err):
                raise DamagedJournal(self.path, f"it cannot be read as a database ({err})"
                                     ) from None
            first = err
        wal = Path(self.path + "-wal")
        try:
            if not wal.exists() or wal.stat().st_size == 0:
                return self._connect_ro(self.path, "immutable=1")
            self._copy_dir = tempfile.mkdtemp(prefix="companion-view-")
            copy = os.path.join(self._copy_dir, "journal.sqlite")
            shutil.copyfile(self.path, copy)
            shutil.copyfile(wal, copy + "-wal")
            return self._connect_ro(copy, "mode=ro")
        except (OSError, sqlite3.Error) as err:
            if isinstance(err, sqlite3.Error) and _damage(err):
                raise DamagedJournal(self.path, f"it cannot be read as a database ({err})"
                                     ) from None
            raise DiskError(f"cannot read {self.path}: {disk_reason(first)}") from None

    @staticmethod
    def _connect_ro(path: str, flags: str) -> sqlite3.Connection:
        db = sqlite3.connect(f"file:{quote(os.path.abspath(path))}?{flags}", uri=True,
                             check_same_thread=False)
        try:
            db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()  # opens it now
        except sqlite3.Error:
            db.close()
            raise
        return db

    def _initial_sync(self) -> None:
        # What a killed companion committed may still be only in the page cache: make it
        # durable before anything is announced from it. And the directory entries of a new
        # database and WAL must reach the disk once (synchronous=NORMAL never does it).
        with contextlib.suppress(FileNotFoundError):
            fd = os.open(self.path + "-wal", os.O_RDONLY)
            try:
                os.fdatasync(fd)
            finally:
                os.close(fd)
        folder = os.open(str(Path(self.path).parent), os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)

    def _max_seq(self) -> int:
        try:
            (n,) = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM entries").fetchone()
        except sqlite3.Error:  # a damaged file: its reader says so
            return 0
        return int(n)

    @classmethod
    def memory(cls) -> Journal:
        return cls(":memory:")

    # --- meta ---------------------------------------------------------------------

    def write_meta(self, meta: Mapping[str, Any]) -> None:
        """Set meta keys. The game's setup (SETUP_KEYS) gets a new checksum, which the
        entries' chain starts from: set it before the first entry."""
        with self._writing():
            legacy = self._legacy()
            for key, value in meta.items():
                if key in _SEAL_KEYS:  # the journal's own, never copied from another
                    continue
                self._db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
                                 (key, json.dumps(value)))
            if legacy or any(key in SETUP_KEYS for key in meta):
                self._seal(legacy)
        self._committed()

    def _legacy(self) -> bool:
        """A journal from before the checks: no hash column yet (add it now)."""
        if "hash" in self._entry_columns():
            return False
        self._db.execute("ALTER TABLE entries ADD COLUMN hash TEXT")
        self._columns = None
        return True

    def _seal(self, legacy: bool) -> None:
        stored = dict(self._db.execute("SELECT key, value FROM meta").fetchall())
        rows = {"schema": SCHEMA_VERSION, "checksum": setup_checksum(stored)}
        if legacy:  # its entries so far stay unchecked; the chain starts after them
            (last,) = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM entries").fetchone()
            rows["checked_from"] = int(last) + 1
        for key, value in rows.items():
            self._db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
                             (key, json.dumps(value)))
        self._tail = None

    def meta(self) -> dict[str, Any]:
        """The game's meta, checked: its schema known, its setup matching its checksum."""
        try:
            rows = self._db.execute("SELECT key, value FROM meta").fetchall()
        except sqlite3.Error as err:
            raise self._read_error(err, "the game's setup cannot be read") from None
        if not rows:
            raise JournalError(f"{self.path} is not a Table Companion journal (no game in it)")
        meta: dict[str, Any] = {}
        for key, value in rows:
            try:
                if not isinstance(key, str) or not isinstance(value, str):
                    raise ValueError("not text")
                meta[key] = json.loads(value)
            except ValueError as err:
                raise DamagedJournal(self.path, f"the game's setup ({key!r}) cannot be read "
                                     f"({err})") from None
        schema = meta.get("schema", FIRST_SCHEMA)
        if not isinstance(schema, int) or isinstance(schema, bool) or schema < FIRST_SCHEMA:
            raise DamagedJournal(self.path, f"its schema number ({schema!r}) is not one")
        if schema > SCHEMA_VERSION:
            raise UnknownFormat(
                f"{self.path} was written with journal schema {schema} by "
                f"{_describe(meta.get('code'))}; this is {_describe(None)}, which reads "
                f"journal schemas {FIRST_SCHEMA} to {SCHEMA_VERSION}: open it with a newer "
                "Table Companion.")
        if schema >= 2:
            stored = {key: value for key, value in rows if key in SETUP_KEYS}
            if meta.get("checksum") != setup_checksum(stored):
                raise DamagedJournal(self.path, "the game's setup (players, options, seed or "
                                     "data files) does not match its checksum")
        return meta

    def unchecked(self) -> int:
        """How many entries were written before journals had checksums."""
        meta = self.meta()
        if meta.get("schema", FIRST_SCHEMA) < 2:
            return self.count()
        first = int(meta.get("checked_from", 1))
        (n,) = self._db.execute("SELECT COUNT(*) FROM entries WHERE seq < ?",
                                (first,)).fetchone()
        return int(n)

    # --- entries --------------------------------------------------------------------

    def append(
        self,
        kind: str,
        payload: Mapping[str, Any],
        *,
        source: str = "",
        confidence: float = 1.0,
        note: str = "",
        at: float | None = None,
    ) -> int:
        """Commit one entry; ``at``: its time if not now (an entry copied from another
        journal keeps its own)."""
        when = time.time() if at is None else float(at)
        text = json.dumps(payload)
        # A journal already checked (all but the first append to an old one) needs no
        # transaction around its one INSERT, which SQLite commits by itself: one statement
        # an entry instead of three (each also lets the interpreter's other threads in).
        try:
            sealed = "hash" in self._entry_columns()
        except sqlite3.Error:  # the transaction's way finds it again and says what it is
            sealed = False
        with self._writing(single=sealed):
            if not sealed and self._legacy():
                self._seal(legacy=True)
            seq, prev = self._chain_tail()
            seq += 1
            link = entry_hash(prev, seq, when, kind, text, source, float(confidence), note)
            self._db.execute(
                "INSERT INTO entries(seq, time, kind, payload, source, confidence, note, hash)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (seq, when, kind, text, source, float(confidence), note, link),
            )
        self._tail = (seq, link)
        self._committed(Entry(seq, when, kind, json.loads(text), source, float(confidence),
                              note))
        return seq

    def _chain_tail(self) -> tuple[int, str]:
        """The last entry's seq and the hash the next entry chains from."""
        if self._tail is None:
            meta = {key: json.loads(value) for key, value in
                    self._db.execute("SELECT key, value FROM meta").fetchall()}
            row = self._db.execute("SELECT seq, hash FROM entries ORDER BY seq DESC LIMIT 1"
                                   ).fetchone()
            first = int(meta.get("checked_from", 1))
            if row is None or row[0] < first:
                self._tail = (row[0] if row else 0, str(meta.get("checksum", "")))
            else:
                self._tail = (int(row[0]), str(row[1]))
        return self._tail

    def _entry_columns(self) -> tuple[str, ...]:
        if self._columns is None:
            self._columns = tuple(row[1] for row in
                                  self._db.execute("PRAGMA table_info(entries)").fetchall())
        return self._columns

    def entries(self, after: int = 0, *, follow: bool = False) -> Generator[Entry, None, None]:
        """Every entry in order (``after``: only those numbered above it), each checked
        against the chain; DamagedJournal at the first that does not check, UnknownFormat at
        one of a kind this version does not know. A read-only journal then reads its whole
        file for damage SQLite reads past in silence. ``follow``: for a reader that follows
        a journal its writer is still appending to (the club's publisher, many times a
        second): the setup is read and checked once, and the whole-file scan (a read and
        checksum of the whole WAL, 40 ms at 100 tables) is left to readers of a game after
        the fact."""
        if not follow or self._followed is None:
            self._followed = self.meta()
        meta = self._followed
        schema = meta.get("schema", FIRST_SCHEMA)
        first = int(meta.get("checked_from", 1)) if schema >= 2 else None
        prev = str(meta.get("checksum", ""))
        try:
            columns = self._entry_columns()
            if not columns:
                raise DamagedJournal(self.path, "its table of entries is missing")
            hashed = "hash" in columns
            if after > 0 and hashed and first is not None and after >= first:
                # the chain goes on from the stored link of the entry before (itself
                # checked when it was read before)
                row = self._db.execute("SELECT hash FROM entries WHERE seq = ?",
                                       (after,)).fetchone()
                if row is not None and isinstance(row[0], str):
                    prev = row[0]
            cursor = self._db.execute(
                "SELECT seq, time, kind, payload, source, confidence, note"
                + (", hash" if hashed else ", NULL") + " FROM entries WHERE seq > ? ORDER BY seq",
                (max(after, 0),))
        except sqlite3.Error as err:
            raise self._read_error(err, "its entries cannot be read") from None
        intact = max(after, 0)
        expected = intact + 1
        while True:
            try:
                row = cursor.fetchone()
            except sqlite3.Error as err:
                raise self._read_error(err, "the file cannot be read past this point",
                                       expected, intact) from None
            if row is None:
                break
            seq = row[0]
            checked = first is not None and isinstance(seq, int) and seq >= first
            entry, prev = check_row(self.path, row, expected, prev, checked, intact)
            if entry.kind not in KINDS:
                raise UnknownFormat(
                    f"{self.path}: entry {entry.seq} is of a kind this version does not know "
                    f"({entry.kind!r}); the journal was written by "
                    f"{_describe(meta.get('code'))} (journal schema {schema}); this is "
                    f"{_describe(None)} (journal schema {SCHEMA_VERSION}).")
            intact += 1
            expected = entry.seq + 1
            yield entry
        if self.readonly and not follow:  # what SQLite reads past in silence (a cut game)
            found = file_damage(self.path)
            if found is not None:
                raise DamagedJournal(self.path, found, expected, intact)

    def _read_error(self, err: sqlite3.Error, detail: str, seq: int | None = None,
                    intact: int = 0) -> JournalError:
        if _damage(err) or "no such" in str(err):
            return DamagedJournal(self.path, f"{detail} ({err})", seq, intact)
        return DiskError(f"cannot read {self.path}: {disk_reason(err)}")

    def count(self) -> int:
        (n,) = self._db.execute("SELECT COUNT(*) FROM entries").fetchone()
        return int(n)

    # --- writing and its errors -----------------------------------------------------

    @contextlib.contextmanager
    def _writing(self, *, single: bool = False) -> Iterator[None]:
        """One transaction (``single``: the body writes with one statement, its own
        transaction). A disk error becomes a DiskError, said once (``on_error``), and
        every later write is refused with it: the journal keeps what is on disk."""
        if self.error is not None:
            raise DiskError(self.error)
        try:
            if single:
                yield
                return
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except (OSError, sqlite3.Error) as err:
            with contextlib.suppress(sqlite3.Error):
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
            raise DiskError(self._fail(disk_reason(err))) from None

    def _fail(self, reason: str) -> str:
        """Record a disk error (the first one wins), wake every waiter, tell ``on_error``."""
        with self._cond:
            first = self.error is None
            if first:
                self.error = reason
        if first:
            log.error("journal %s: %s", self.path, reason)
            if self.on_error is not None:
                self.on_error(reason)  # before waking the announcer: it says this first
        with self._cond:
            self._cond.notify_all()
        return self.error or reason

    # --- durability ---------------------------------------------------------------------

    def _committed(self, entry: Entry | None = None) -> None:
        with self._cond:
            self._appended += 1
            if entry is not None:
                self._last_seq = entry.seq
                self._recent.append(entry)
            if self._syncer is None:
                self._synced = self._checkpointed = self._appended
                self._durable_seq = self._last_seq
            self._cond.notify_all()

    def durable_seq(self) -> int:
        """The number of the last entry known to be on the disk (a look, never a wait): what
        a follower may pass on. Entries a writer finds in its file when it opens it count."""
        with self._cond:
            return self._durable_seq

    def recent(self, after: int) -> list[Entry] | None:
        """This writer's entries numbered above ``after``, from memory, exactly as
        ``entries`` would read them back; None when they are no longer (or never were) held
        here: read them from the file."""
        with self._cond:
            if after >= self._last_seq:
                return []
            if not self._recent or self._recent[0].seq > after + 1:
                return None
            return [entry for entry in self._recent if entry.seq > after]

    def wait_durable(self, timeout: float | None = DURABLE_TIMEOUT, *,
                     upto: int | None = None) -> bool:
        """Block until every entry appended so far (or the first ``upto``) is on the disk
        (power-cut safe). False if the disk refused or did not confirm in time (``error``
        says why, from then on)."""
        with self._cond:
            target = self._appended if upto is None else upto
            # A failed append leaves the syncer making what was committed before it durable;
            # only the syncer's own failure ends the wait.
            done = self._cond.wait_for(
                lambda: self._synced >= target or self._closed or self._sync_failed,
                timeout,
            )
            ok = self._synced >= target
        if not done:
            self._fail(f"the disk did not confirm the save within {timeout:g} seconds")
        return ok

    def is_durable(self) -> bool:
        """Whether every entry appended so far is on the disk now (a look, never a wait: a
        look is no disk failure)."""
        with self._cond:
            return self._synced >= self._appended

    def durable_ticket(self) -> Callable[[], bool]:
        """A barrier for what has been appended so far: an announcement made now waits for
        its own entries only (a later disk error does not hold it back)."""
        with self._cond:
            upto = self._appended
        return lambda: self.wait_durable(upto=upto)

    def wait_checkpointed(self, timeout: float | None = DURABLE_TIMEOUT) -> bool:
        """Block until the database file itself holds every entry appended so far (the
        syncer checkpoints once the journal is idle). False on a disk error or timeout."""
        with self._cond:
            target = self._appended
            return self._cond.wait_for(
                lambda: self._checkpointed >= target or self._sync_failed, timeout
            ) and self._checkpointed >= target

    def _sync_loop(self) -> None:
        wal_fd: int | None = None
        checkpointer: sqlite3.Connection | None = None
        dirty = False  # synced entries not yet checkpointed into the database file
        try:
            # Opened at once, so that it shares the WAL the writer uses even if someone
            # deletes the -wal file later (see _check_wal).
            checkpointer = sqlite3.connect(self.path)
            checkpointer.execute("PRAGMA synchronous=FULL")  # sync around each checkpoint
            checkpointer.execute("SELECT COUNT(*) FROM meta").fetchall()
        except sqlite3.Error as err:
            with self._cond:
                self._sync_failed = True
            self._fail(disk_reason(err))
        while checkpointer is not None:
            with self._cond:
                due = self._cond.wait_for(
                    lambda: self._appended > self._synced or self._closed,
                    CHECKPOINT_IDLE if dirty else None)
                if self._closed and self._appended <= self._synced:
                    break
                target = self._appended
                target_seq = self._last_seq
            try:
                if wal_fd is None:
                    wal_fd = os.open(self.path + "-wal", os.O_RDONLY)
                if not due or target - self._checkpointed > CHECKPOINT_EVERY:
                    # idle (a turn has ended), or long busy: the database file gets all that
                    # is synced (a checkpoint copies only committed frames; it syncs the WAL
                    # first)
                    self._check_wal(wal_fd)
                    busy, _, _ = checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)"
                                                      ).fetchall()[0]
                    dirty = bool(busy)
                    with self._cond:
                        self._checkpointed = max(self._checkpointed, self._synced)
                        self._cond.notify_all()
                    if not due:
                        continue
                os.fdatasync(wal_fd)  # flushes the file's pages, whichever fd wrote them
                self._check_wal(wal_fd)
            except (OSError, sqlite3.Error, DiskError) as err:
                # After a failed fsync the kernel may have dropped the pages: never retry and
                # claim success. Waiters are woken and told (wait_durable returns False).
                with self._cond:
                    self._sync_failed = True
                self._fail(err.reason if isinstance(err, DiskError) else disk_reason(err))
                break
            with self._cond:
                self._synced = target
                self._durable_seq = max(self._durable_seq, target_seq)
                dirty = True
                self._cond.notify_all()
            for told in self.on_durable:
                told()
        if wal_fd is not None:
            os.close(wal_fd)
        if checkpointer is not None:
            checkpointer.close()

    def _check_wal(self, wal_fd: int) -> None:
        """The WAL being written must still be the file next to the journal: deleted, its
        entries would be lost when the companion stops (SQLite writes on into the unlinked
        file; closing the journal checkpoints them into the database file, see close)."""
        held = os.fstat(wal_fd)
        try:
            now = os.stat(self.path + "-wal")
            replaced = (now.st_ino, now.st_dev) != (held.st_ino, held.st_dev)
        except FileNotFoundError:
            replaced = True
        if held.st_nlink == 0 or replaced:
            raise DiskError(f"its file {Path(self.path).name}-wal was deleted while the game "
                            "was being played (what was played is copied into the journal "
                            "when the companion stops)")

    def close(self) -> None:
        if self._closed:
            return
        if self.error is None:
            self.wait_durable()
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        if self._syncer is not None:
            self._syncer.join(timeout=30)
        # The last connection to close checkpoints the WAL into the database file (also a
        # WAL deleted under it: SQLite still holds it open) and removes the WAL: with syncs.
        with contextlib.suppress(sqlite3.Error):
            if not self.readonly and self.path != ":memory:":
                self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.close()
        self._release()
        if self._copy_dir is not None:
            shutil.rmtree(self._copy_dir, ignore_errors=True)
            self._copy_dir = None


def check_row(path: str, row: tuple[Any, ...], expected: int, prev: str, checked: bool,
              intact: int) -> tuple[Entry, str]:
    """One stored entry row checked: its number, its types, its link in the chain (when
    ``checked``) and its payload. Returns the entry and the hash the next one chains from."""
    seq, at, kind, payload, source, confidence, note, link = row

    def damaged(detail: str) -> DamagedJournal:
        return DamagedJournal(path, detail, expected, intact)

    if seq != expected:
        if isinstance(seq, int) and seq > expected:
            raise damaged(f"entry {expected} is missing")
        raise damaged(f"an entry is numbered {seq!r} where {expected} should be")
    if not (isinstance(at, float | int) and isinstance(confidence, float | int)
            and all(isinstance(v, str) for v in (kind, payload, source, note))):
        raise damaged("its fields are not of their types")
    if checked:
        if not isinstance(link, str):
            raise damaged("its checksum is missing")
        prev = entry_hash(prev, seq, at, kind, payload, source, confidence, note)
        if link != prev:
            raise damaged("its checksum does not match (the entry, or one before it, was "
                          "changed)")
    elif link is not None:
        raise damaged("it has a checksum where none is expected")
    try:
        data = json.loads(payload)
    except ValueError as err:
        raise damaged(f"its payload cannot be read ({err})") from None
    if not isinstance(data, dict):
        raise damaged("its payload is not an object")
    return Entry(seq, float(at), kind, data, source, float(confidence), note, checked), prev


def readable_part(path: str | Path) -> tuple[dict[str, Any] | None, list[Entry], str | None]:
    """For salvage: the game's meta and the longest run of entries from the first that read
    and check, through SQLite or, when that fails, from the file's pages (recover.py); and
    why it stops (None: the whole journal reads). Meta None: the setup cannot be read."""
    path = str(path)
    meta: dict[str, Any] | None = None
    entries: list[Entry] = []
    why: str | None = None
    try:
        journal = Journal(path, readonly=True)
        try:
            meta = journal.meta()
            entries.extend(journal.entries())
        except JournalError as err:
            why = str(err)
        finally:
            journal.close()
    except JournalError as err:
        why = str(err)
    if why is not None:
        found_meta, found = _from_pages(path)
        if found_meta is not None and (meta is None or len(found) > len(entries)):
            meta, entries = found_meta, found
    return meta, entries, why


def _from_pages(path: str) -> tuple[dict[str, Any] | None, list[Entry]]:

    rows = read_rows(path)
    meta = _pages_meta(rows.meta)
    if meta is None or len(_chained(path, meta, rows)) < len(rows.entries):
        rows = read_rows(path, carve=True)  # a damaged cell pointer hides rows: look harder
        meta = _pages_meta(rows.meta)
    if meta is None:
        return None, []
    return meta, _chained(path, meta, rows)


def _chained(path: str, meta: Mapping[str, Any], rows: Rows) -> list[Entry]:
    """The entries of ``rows`` that chain from the first, in order."""
    schema = meta.get("schema", FIRST_SCHEMA)
    first = int(meta.get("checked_from", 1)) if schema >= 2 else None
    prev = str(meta.get("checksum", ""))
    entries: list[Entry] = []
    while True:
        expected = len(entries) + 1
        checked = first is not None and expected >= first
        for row in reversed(rows.entries.get(expected, [])):  # the newest version first
            try:
                entry, link = check_row(path, row, expected, prev, checked, len(entries))
            except DamagedJournal:
                continue
            if entry.kind in KINDS:
                break
        else:
            return entries
        entries.append(entry)
        prev = link


def _pages_meta(found: Mapping[str, list[str]]) -> dict[str, Any] | None:
    """The meta from the pages' rows: for each setup key, the version (of those found) whose
    checksum matches; None if none does or the schema is not one this version reads."""
    stored = {key: versions[-1] for key, versions in found.items()}
    try:
        meta = {key: json.loads(value) for key, value in stored.items()}
    except ValueError:
        return None
    schema = meta.get("schema", FIRST_SCHEMA)
    if not isinstance(schema, int) or not FIRST_SCHEMA <= schema <= SCHEMA_VERSION:
        return None
    if "game" not in meta:
        return None
    if schema < 2:
        return meta
    want = meta.get("checksum")
    setups: list[dict[str, str]] = [{}]
    for key in SETUP_KEYS:  # every combination of the versions found (there are few)
        setups = [{**s, key: v} for s in setups for v in found.get(key, [])] or setups
        if len(setups) > 256:
            return None
    for setup in setups:
        if setup_checksum(setup) == want:
            return {**meta, **{key: json.loads(value) for key, value in setup.items()}}
    return None


def _describe(code: object) -> str:
    from companion import __version__

    if code is None:
        return f"Table Companion {__version__}"
    if isinstance(code, Mapping):
        return f"Table Companion {code.get('companion', '?')}"
    return "an unknown version of Table Companion"


_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    seq INTEGER PRIMARY KEY,
    time REAL NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    source TEXT NOT NULL DEFAULT '',
    confidence REAL NOT NULL DEFAULT 1.0,
    note TEXT NOT NULL DEFAULT '',
    hash TEXT
);
"""


def journal_dir() -> Path:
    from companion.config import user_data_dir

    return user_data_dir() / "games"


def new_journal_path(game: str) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return unused_path(journal_dir() / f"{stamp}-{game}.sqlite")


def unused_path(path: Path) -> Path:
    """``path``, or the first of NAME-2.sqlite, NAME-3.sqlite, ... that does not exist."""
    n, found = 1, path
    while found.exists():
        n += 1
        found = path.with_name(f"{path.stem}-{n}{path.suffix}")
    return found


def last_written(path: Path) -> float:
    """When a game was last played: in WAL mode the database file itself changes only at a
    checkpoint, so its -wal file tells."""
    times = [path.stat().st_mtime]
    wal = Path(str(path) + "-wal")
    # An empty WAL says nothing: SQLite creates one whenever the game is merely opened.
    if wal.exists() and wal.stat().st_size > 0:
        times.append(wal.stat().st_mtime)
    return max(times)


def never_started(path: Path) -> bool:
    """A file that holds no game and no damage: empty, or a journal whose game was never set
    up (no meta). A damaged or unreadable file raises its JournalError."""
    if path.stat().st_size == 0:
        return True
    journal = Journal(path, readonly=True)
    try:
        try:
            tables = {row[0] for row in journal._db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            if "meta" not in tables:
                return True
            (rows,) = journal._db.execute("SELECT COUNT(*) FROM meta").fetchone()
        except sqlite3.Error as err:
            raise journal._read_error(err, "it cannot be read as a journal") from None
        if rows == 0:
            return True
        journal.meta()
        return False
    finally:
        journal.close()


def holds_a_game(path: Path) -> bool:
    try:
        return not never_started(path)
    except (JournalError, OSError):
        return False


def latest_journal() -> Path:
    """The most recently played journal (a game by name: companion/saved.py). Never an
    older one in silence: a damaged newest game is named (DamagedJournal)."""
    folder = journal_dir()
    # Times first: looking inside a journal may itself touch its files.
    played = {p: last_written(p) for p in folder.glob("*.sqlite")}
    newest_first = sorted(played, key=played.__getitem__, reverse=True)
    for i, path in enumerate(newest_first):
        try:
            if never_started(path):
                continue
            view = Journal(path, readonly=True)
            try:
                for _ in view.entries():  # every entry checks
                    pass
            finally:
                view.close()
        except JournalError as err:
            older = next((p for p in newest_first[i + 1:] if holds_a_game(p)), None)
            salvage = (" To go on from the entries that are intact, in a copy: companion "
                       "resume --salvage." if isinstance(err, DamagedJournal) else "")
            also = (f" The next newest game is {older.name}: companion resume "
                    f"--journal {older}." if older else "")
            raise NewestUnreadable(f"The newest saved game cannot be opened: {err}{salvage}"
                                   f"{also}", path) from None
        return path
    raise JournalError(f"There is no saved game in {folder}; start one with 'companion play'.")
