"""The journal: locking, read-only views, which game is the latest, and the durability
barrier that keeps announcements back until their entry is on disk."""

from __future__ import annotations

import io
import os
import threading

import pytest

from companion import journal as journal_module
from companion.engine import Priority
from companion.journal import Journal, JournalError, latest_journal, new_journal_path
from companion.voice import Announcer, ConsoleBackend

WAIT = 30.0


def test_only_one_writer_per_game(tmp_path):
    path = tmp_path / "g.sqlite"
    first = Journal(path)
    with pytest.raises(JournalError, match="in use by another companion"):
        Journal(path)
    first.close()
    Journal(path).close()  # free again once the first is closed


def test_readonly_view_neither_creates_nor_locks(tmp_path):
    with pytest.raises(JournalError, match="no journal"):
        Journal(tmp_path / "typo.sqlite", readonly=True)
    assert not (tmp_path / "typo.sqlite").exists()
    path = tmp_path / "g.sqlite"
    writer = Journal(path)
    writer.write_meta({"game": "toy"})
    writer.append("action", {"type": "Throw", "values": [3]})
    view = Journal(path, readonly=True)  # while the game is being played
    assert view.meta()["game"] == "toy" and view.count() == 1
    view.close()
    writer.close()


def test_latest_is_the_game_played_last_not_the_one_created_last(tmp_path, monkeypatch):
    older = new_journal_path("toy")
    a = Journal(older)
    a.write_meta({"game": "toy"})
    newer = older.with_name("zz-newer-toy.sqlite")
    b = Journal(newer)
    b.write_meta({"game": "toy"})
    b.close()
    (older.parent / "empty.sqlite").write_bytes(b"")  # no game in it: never "latest"
    os.utime(newer, (1, 1))  # created long ago...
    a.append("action", {"type": "Throw", "values": [3]})  # ...and the older game is played now
    a.wait_durable()
    assert latest_journal() == older
    a.close()


def test_announcements_wait_until_their_entry_is_on_disk(tmp_path, monkeypatch):
    release = threading.Event()
    syncing = threading.Event()
    real_fdatasync = os.fdatasync

    def slow_fdatasync(fd):
        syncing.set()
        release.wait(WAIT)
        real_fdatasync(fd)

    journal = Journal(tmp_path / "g.sqlite")
    monkeypatch.setattr(journal_module.os, "fdatasync", slow_fdatasync)
    out = io.StringIO()
    announcer = Announcer(lambda: ConsoleBackend(out), echo=None)
    announcer.set_barrier(journal.wait_durable)
    journal.append("action", {"type": "Throw", "values": [4]})
    announcer.say("Red throws four.", Priority.INFO)
    assert syncing.wait(WAIT)
    assert not announcer.wait_idle(0.2)  # held back while the disk has not confirmed
    assert out.getvalue() == ""
    release.set()
    assert announcer.wait_idle(WAIT)
    assert out.getvalue() == "Red throws four.\n"
    announcer.close()
    journal.close()


def test_a_disk_that_refuses_to_sync_is_reported_not_waited_on(tmp_path, monkeypatch):
    def broken(fd):
        raise OSError(5, "Input/output error")

    journal = Journal(tmp_path / "g.sqlite")
    monkeypatch.setattr(journal_module.os, "fdatasync", broken)
    journal.append("action", {"type": "Throw", "values": [4]})
    assert journal.wait_durable(WAIT) is False
    assert "Input/output error" in (journal.error or "")
    journal.close()


def test_a_follower_is_told_what_is_on_disk_and_gets_the_entries_from_memory(tmp_path,
                                                                              monkeypatch):
    release = threading.Event()
    syncing = threading.Event()
    real_fdatasync = os.fdatasync

    def slow_fdatasync(fd):
        syncing.set()
        release.wait(WAIT)
        real_fdatasync(fd)

    journal = Journal(tmp_path / "g.sqlite")
    journal.write_meta({"game": "dice", "players": ["Red"]})
    assert journal.wait_durable(WAIT)
    told = threading.Event()
    journal.on_durable.append(told.set)
    monkeypatch.setattr(journal_module.os, "fdatasync", slow_fdatasync)
    journal.append("action", {"type": "Throw", "values": [4]}, source="camera:0")
    journal.append("undo", {"count": 1}, note="n")
    assert syncing.wait(WAIT)
    assert journal.durable_seq() == 0  # committed, not yet on the disk
    # The writer's own entries, exactly as read back from the file.
    assert journal.recent(0) == list(journal.entries())
    assert journal.recent(1) == list(journal.entries(after=1))
    assert journal.recent(2) == []
    release.set()
    assert told.wait(WAIT)
    assert journal.wait_durable(WAIT)
    assert journal.durable_seq() == 2
    for n in range(journal_module.RECENT):
        journal.append("action", {"type": "Throw", "values": [n % 6 + 1]})
    last = 2 + journal_module.RECENT
    assert journal.recent(1) is None  # no longer held: read from the file
    assert [e.seq for e in journal.recent(last - 1) or []] == [last]
    journal.close()
    # A writer opening a journal knows what the file holds is on the disk, and holds none
    # of it in memory.
    again = Journal(tmp_path / "g.sqlite")
    assert again.durable_seq() == last and again.recent(0) is None and again.recent(last) == []
    again.close()
