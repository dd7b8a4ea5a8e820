"""``companion export``: a saved game written out of its journal.

``--db DEST`` copies the journal with SQLite's backup API: a consistent copy even of a game
being played (its WAL included), checked entry by entry, as one file (no WAL beside it),
readable and resumable on its own, and the owner's alone (0600). Other formats (a game's own
notation) are further options of this command, one per format in FORMATS.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path

from companion.journal import (
    MODE,
    DamagedJournal,
    DiskError,
    Journal,
    JournalError,
    disk_reason,
)
from companion.saved import chosen


def export_db(path: Path, dest: Path) -> str:
    """Copy the saved game at ``path`` to ``dest`` (a file, or a folder to put it in)."""
    if dest.is_dir():
        dest = dest / path.name
    if dest.exists():
        raise JournalError(f"{dest} already exists; export writes only a new file.")
    view = Journal(path, readonly=True)
    try:
        try:
            entries = sum(1 for _ in view.entries())  # a damaged journal is not copied on
        except DamagedJournal as err:
            raise JournalError(f"{err} To copy what is intact: companion resume --journal "
                               f"{path} --salvage, then export the copy.") from None
        try:
            dest.parent.mkdir(parents=True, exist_ok=True)
            os.close(os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL, MODE))
            copy = sqlite3.connect(dest)
            try:
                view._db.backup(copy)
                copy.execute("PRAGMA journal_mode=DELETE")  # one file, no WAL beside it
            finally:
                copy.close()
            _sync(dest)
        except (OSError, sqlite3.Error) as err:
            with contextlib.suppress(OSError):
                dest.unlink()
            raise DiskError(f"cannot write {dest}: {disk_reason(err)}") from None
    finally:
        view.close()
    check = Journal(dest, readonly=True)
    try:
        copied = sum(1 for _ in check.entries())
    finally:
        check.close()
    if copied != entries:
        raise JournalError(f"the copy {dest} has {copied} entries where {path} has "
                           f"{entries}.")
    return f"copied {copied} entries of {path} to {dest} (checked)"


def _sync(path: Path) -> None:
    for target, flags in ((path, os.O_RDONLY), (path.parent, os.O_RDONLY)):
        fd = os.open(target, flags)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# one option per format: its help, and the function that writes it
FORMATS: dict[str, tuple[str, Callable[[Path, Path], str]]] = {
    "db": ("a safe copy of the journal itself, one file (SQLite backup), checked", export_db),
}


def export_record(path: Path, fmt: str, out: str | None) -> str | None:
    """The game at ``path`` in a game's own notation (``fmt``: pgn, pdn; see
    companion.records.FORMATS), to ``out`` or standard output."""
    from companion.records import FORMATS as RECORDS
    from companion.session import Session

    view = Journal(path, readonly=True)
    try:
        text = RECORDS[fmt](Session.view(view))
    finally:
        view.close()
    if out is None:
        sys.stdout.write(text)
        return None
    Path(out).write_text(text, encoding="utf-8")
    return f"written: {out}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion export", allow_abbrev=False)
    parser.add_argument("name", nargs="?", help="a saved game's name (companion list; "
                        "default: the game played last)")
    parser.add_argument("--journal", help="the game's journal file")
    parser.add_argument("--out", metavar="FILE", help="with --pgn or --pdn: write to this file "
                        "(default: standard output)")
    formats = parser.add_mutually_exclusive_group(required=True)
    for name, (help_text, _) in FORMATS.items():
        formats.add_argument(f"--{name}", metavar="DEST", help=help_text)
    formats.add_argument("--pgn", action="store_const", const="pgn", dest="record",
                         help="chess: the game as PGN (Seven Tag Roster, clock comments)")
    formats.add_argument("--pdn", action="store_const", const="pdn", dest="record",
                         help="checkers, draughts: the game as PDN (with its GameType)")
    args = parser.parse_args(argv)
    path = chosen(args.name, args.journal)
    if args.record:
        said = export_record(path, args.record, args.out)
        if said:
            print(f"({said})", file=sys.stderr)
        return 0
    for name, (_, write) in FORMATS.items():
        dest = getattr(args, name)
        if dest is not None:
            folder = dest.endswith(("/", os.sep))  # DEST/: a folder, made if need be
            if folder:
                Path(dest).mkdir(parents=True, exist_ok=True)
            print(write(path, Path(dest) / path.name if folder else Path(dest)))
    return 0
