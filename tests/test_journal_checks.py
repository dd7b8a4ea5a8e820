"""What a journal promises at rest and to its readers: the newest game is never passed over in
silence, unknown formats are refused with the versions named, journals from before the
checksums still resume, journals and logs are the owner's alone, one writer per game by any
path, and the database file alone holds the whole game once a turn has ended."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
from pathlib import Path

import pytest

from companion.cli import main
from companion.games import find
from companion.journal import (
    Journal,
    JournalError,
    UnknownFormat,
    entry_hash,
    journal_dir,
)
from companion.saved import find as find_saved
from companion.session import Session
from companion.voice import Recorder


def _play(path: Path, throws: list[int]) -> None:
    journal = Journal(path)
    session = Session.start(find("snakes")(["Red", "Blue"], {}), journal, Recorder(), seed=1)
    for value in throws:
        assert session.command(f"roll {value}").accepted
    journal.close()


def _sql(path: Path, sql: str, *args: object) -> None:
    db = sqlite3.connect(path)
    with db:
        db.execute(sql, args)
    db.close()


def test_resume_never_goes_on_with_an_older_game_when_the_newest_is_damaged(capsys):
    folder = journal_dir()
    older, newer = folder / "1-older-snakes.sqlite", folder / "2-newer-snakes.sqlite"
    _play(older, [3, 5])
    _play(newer, [2, 4, 6])
    os.utime(older, (1, 1))
    _sql(newer, "UPDATE entries SET note = 'edited' WHERE seq = 2")
    assert main(["resume", "--voice", "silent"]) == 2
    err = capsys.readouterr().err
    assert "The newest saved game cannot be opened" in err
    assert f"{newer} is damaged at entry 2" in err
    assert f"The next newest game is {older.name}: companion resume --journal {older}" in err
    assert main(["state"]) == 2  # the same for the read-only commands
    assert "The newest saved game cannot be opened" in capsys.readouterr().err
    assert find_saved("1-older-snakes") == older  # asked for by name, it is found
    # --salvage goes on with the newest, in a copy
    assert main(["resume", "--voice", "silent", "--salvage"]) == 0
    assert "kept the first 1 of 1 readable entries" in capsys.readouterr().err


def test_a_newer_schema_or_an_unknown_entry_kind_is_refused_with_the_versions(tmp_path,
                                                                              capsys):
    path = tmp_path / "g.sqlite"
    _play(path, [3])
    _sql(path, "UPDATE meta SET value = '3' WHERE key = 'schema'")
    with pytest.raises(UnknownFormat, match=r"was written with journal schema 3 by Table "
                       r"Companion 0\.1\.0; this is Table Companion 0\.1\.0, which reads "
                       r"journal schemas 1 to 2"):
        Journal(path, readonly=True).meta()
    path = tmp_path / "h.sqlite"
    _play(path, [3, 5])
    db = sqlite3.connect(path)  # an entry of a kind from a later version, chained as it would be
    with db:
        db.execute("UPDATE entries SET kind = 'wager' WHERE seq = 2")
        prev = db.execute("SELECT hash FROM entries WHERE seq = 1").fetchone()[0]
        row = db.execute("SELECT seq, time, kind, payload, source, confidence, note FROM entries"
                         " WHERE seq = 2").fetchone()
        db.execute("UPDATE entries SET hash = ? WHERE seq = 2", (entry_hash(prev, *row),))
    db.close()
    for command in (["state"], ["history"], ["resume", "--voice", "silent"]):
        assert main([*command, "--journal", str(path)]) == 2
        err = capsys.readouterr().err
        assert "entry 2 is of a kind this version does not know ('wager')" in err, err
        assert "journal schema 2" in err


def _legacy(path: Path, throws: list[int]) -> None:
    """A journal as schema 1 wrote it: no hash column, no checksum."""
    _play(path, throws)
    db = sqlite3.connect(path)
    with db:
        db.execute("ALTER TABLE entries DROP COLUMN hash")
        db.execute("DELETE FROM meta WHERE key IN ('checksum', 'checked_from')")
        db.execute("UPDATE meta SET value = '1' WHERE key = 'schema'")
    db.close()


def test_a_journal_from_before_the_checksums_resumes_and_says_it_is_unchecked(tmp_path,
                                                                              capsys):
    path = tmp_path / "old.sqlite"
    _legacy(path, [3, 5])
    assert main(["resume", "--voice", "silent", "--journal", str(path)],) == 0
    assert "This game's first 2 entries were saved before journals had checksums: they are " \
           "unchecked." in capsys.readouterr().err
    journal = Journal(path)
    session = Session.resume(journal, Recorder())
    assert session.command("roll 2").accepted  # chained from here on
    journal.close()
    view = Journal(path, readonly=True)
    assert [e.checked for e in view.entries()] == [False, False, True]
    assert view.meta()["checked_from"] == 3
    view.close()
    _sql(path, "UPDATE entries SET note = 'x' WHERE seq = 3")
    assert main(["state", "--journal", str(path)]) == 2
    assert "damaged at entry 3" in capsys.readouterr().err


def test_journals_and_the_log_are_the_owners_alone(tmp_path, monkeypatch):
    os.umask(0o022)
    path = tmp_path / "g.sqlite"
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("roll 3\n"))
    assert main(["play", "snakes", "--voice", "silent", "--journal", str(path)]) == 0
    log = tmp_path / "data" / "table-companion" / "companion.log"
    journal = Journal(path)  # while a game is open: its -wal and -shm too
    journal.append("refused", {"input": "x"})
    for file in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), log):
        assert stat.S_IMODE(file.stat().st_mode) == 0o600, file
    journal.close()


def test_one_writer_per_game_through_a_symlink_or_another_name(tmp_path):
    path = tmp_path / "g.sqlite"
    _play(path, [3])
    link = tmp_path / "link.sqlite"
    link.symlink_to(path)
    hard = tmp_path / "hard.sqlite"
    os.link(path, hard)
    first = Journal(path)
    for other in (link, hard):
        with pytest.raises(JournalError, match="in use by another companion"):
            Journal(other)
    assert not list(tmp_path.glob("*.lock"))  # no lock file to lose
    first.close()
    Journal(link).close()


def test_the_database_file_alone_holds_the_game_once_a_turn_has_ended(tmp_path):
    path = tmp_path / "g.sqlite"
    journal = Journal(path)
    session = Session.start(find("snakes")(["Red", "Blue"], {}), journal, Recorder(), seed=1)
    for value in (3, 5, 2, 4):
        session.command(f"roll {value}")
    assert journal.wait_checkpointed(30)
    alone = tmp_path / "copy" / "g.sqlite"
    alone.parent.mkdir()
    shutil.copyfile(path, alone)  # a backup of "one file per game", the game still open
    view = Journal(alone, readonly=True)
    assert [e.payload["values"] for e in view.entries()] == [[3], [5], [2], [4]]
    view.close()
    journal.close()


def test_export_db_copies_a_running_game_safely(tmp_path, capsys):
    path = tmp_path / "g.sqlite"
    journal = Journal(path)
    session = Session.start(find("snakes")(["Red", "Blue"], {}), journal, Recorder(), seed=1)
    for value in (3, 5, 2):
        session.command(f"roll {value}")
    journal.wait_durable()
    dest = tmp_path / "backup" / "copy.sqlite"
    assert main(["export", "--journal", str(path), "--db", str(dest)]) == 0
    assert f"copied 3 entries of {path} to {dest}" in capsys.readouterr().out
    journal.close()
    assert not Path(f"{dest}-wal").exists()  # the copy is one file
    assert stat.S_IMODE(dest.stat().st_mode) == 0o600
    assert main(["state", "--json", "--journal", str(dest)]) == 0
    assert json.loads(capsys.readouterr().out)["state"]["positions"] == [6, 5]
    assert main(["export", "--journal", str(path), "--db", str(dest)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(["export", "--journal", str(path), "--db", f"{tmp_path}/more/"]) == 0
    assert (tmp_path / "more" / "g.sqlite").is_file()  # DEST/: a folder
