"""Saved games by name: ``companion list``, ``resume NAME``, ``rematch``, ``delete NAME``.

A game started with ``--name`` keeps its name in the journal's meta (``name``; not part of
the setup's checksum, so the hash chain and older journals are unchanged). A game without
one, and every journal from before names, is called by its file name without ``.sqlite``
(``20261125-021000-snakes-ladders``). A name is found whole (capitals aside), never as a
piece of another: anything else is "no saved game called X", with the near names offered.
"""

from __future__ import annotations

import difflib
import fcntl
import os
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.journal import (
    Journal,
    JournalError,
    journal_dir,
    last_written,
    latest_journal,
    never_started,
    unused_path,
)
from companion.printable import printable

NAME_LIMIT = 60  # characters: a name is said aloud and shown in one column


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a saved game, or None."""
    if not name.strip():
        return "A saved game's name cannot be empty."
    if printable(name) != name:
        return (f"The name \"{printable(name)}\" holds control characters; give it as plain "
                "text.")
    if len(name) > NAME_LIMIT:
        return f"A saved game's name may have at most {NAME_LIMIT} characters."
    if name.strip().startswith("-"):
        return f"A saved game's name cannot start with a dash (\"{name}\" reads as an option)."
    return None


def new_path(game: str, name: str | None) -> Path:
    """A new journal's file: the time, the game and (when named) the name's letters."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    slug = "-".join(re.findall(r"[a-z0-9]+", (name or "").casefold()))[:40]
    stem = "-".join(p for p in (stamp, game, slug) if p)
    return unused_path(journal_dir() / f"{stem}.sqlite")


@dataclass(frozen=True)
class Saved:
    """One saved game as listed. ``problem``: why it cannot be opened (then the game's
    details that could not be read are empty)."""

    path: Path
    name: str
    named: bool  # given with --name (else the file name)
    last_played: float
    game: str = ""
    title: str = ""
    players: tuple[str, ...] = ()
    turn: str | None = None
    actions: int = 0
    over: bool = False
    winners: tuple[str, ...] = ()
    problem: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "named": self.named,
            "game": self.game,
            "title": self.title,
            "players": list(self.players),
            "turn": self.turn,
            "actions": self.actions,
            "over": self.over,
            "winners": list(self.winners),
            "last_played": time.strftime("%Y-%m-%d %H:%M:%S",
                                         time.localtime(self.last_played)),
            "journal": str(self.path),
            "problem": self.problem,
        }

    def where(self) -> str:
        """Where the game stands, in words: "Hat's turn" or "over: Car won"."""
        if self.problem:
            return "cannot be opened"
        if self.over:
            if not self.winners:
                return "over: a draw"
            return "over: " + _and(list(self.winners)) + " won"
        return f"{self.turn}'s turn" if self.turn else "under way"


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _journals() -> Iterator[Path]:
    folder = journal_dir()
    if not folder.is_dir():
        return
    for path in sorted(folder.glob("*.sqlite")):
        try:
            if never_started(path):
                continue
        except (JournalError, OSError):
            pass  # a damaged game is listed, with its problem
        yield path


def _name_of(path: Path) -> tuple[str, bool]:
    """A journal's name (from its meta; else its file name) and whether it was given."""
    try:
        journal = Journal(path, readonly=True)
    except (JournalError, OSError):
        return path.stem, False
    try:
        name = journal.meta().get("name")
    except (JournalError, OSError):
        name = None
    finally:
        journal.close()
    return (name, True) if isinstance(name, str) and name else (path.stem, False)


def describe(path: Path) -> Saved:
    """A saved game rebuilt by replay for listing; one that cannot be read says why."""
    from companion.session import Session

    name, named = _name_of(path)
    when = last_written(path)
    try:
        journal = Journal(path, readonly=True)
        try:
            session = Session.view(journal)
        finally:
            journal.close()
    except (JournalError, OSError) as err:
        return Saved(path, name, named, when, problem=str(err))
    game, state = session.game, session.state
    actor = state.actor()
    return Saved(path, name, named, when, game=game.spec.name, title=game.spec.title,
                 players=tuple(game.players),
                 turn=game.players[actor] if actor is not None else None,
                 actions=len(session.applied), over=state.is_terminal(),
                 winners=tuple(game.players[w] for w in state.winners()))


def saved_games() -> list[Saved]:
    """Every saved game, the one played last first."""
    return sorted((describe(p) for p in _journals()), key=lambda s: s.last_played,
                  reverse=True)


def _key(name: str) -> str:
    return " ".join(name.casefold().split())


def find(name: str) -> Path:
    """The saved game called ``name`` (capitals and extra spaces aside; an unnamed game by
    its file name, with or without ``.sqlite``). Never a game whose name merely contains it:
    "no saved game called X", with the names it may mean."""
    wanted = _key(name.removesuffix(".sqlite"))
    names = {path: _name_of(path) for path in _journals()}
    found = [path for path, (called, _) in names.items()
             if wanted in {_key(called), _key(path.stem)}]
    if len(found) == 1:
        return found[0]
    if found:
        paths = "; ".join(f"companion resume --journal {p}" for p in found)
        raise JournalError(f"{len(found)} saved games are called \"{name}\": give the one "
                           f"you mean by its file ({paths}).")
    every = [called for called, _ in names.values()]
    near = [n for n in every if wanted and wanted in _key(n)]
    near += [n for n in difflib.get_close_matches(name, every, n=3, cutoff=0.6)
             if n not in near]
    if near:
        said = " or ".join(f"\"{n}\"" for n in near[:3])
        raise JournalError(f"There is no saved game called \"{name}\". Did you mean {said}?")
    if not every:
        raise JournalError(f"There is no saved game called \"{name}\"; there are no saved "
                           "games yet. Start one with 'companion play GAME --name NAME'.")
    raise JournalError(f"There is no saved game called \"{name}\"; 'companion list' shows "
                       "the saved games.")


def chosen(name: str | None, journal: str | None) -> Path:
    """The game a command is about: ``--journal PATH``, a name, or the game played last."""
    if journal:
        return Path(journal)
    return find(name) if name else latest_journal()


def taken(name: str) -> Path | None:
    """The saved game already called ``name``, if any."""
    wanted = _key(name)
    for path in _journals():
        called, _ = _name_of(path)
        if wanted in {_key(called), _key(path.stem)}:
            return path
    return None


def next_name(name: str) -> str:
    """A rematch's name: "Friday" -> "Friday 2", "Friday 2" -> "Friday 3", the first free."""
    match = re.fullmatch(r"(.*\S) (\d+)", name.strip())
    base, n = (match.group(1), int(match.group(2))) if match else (name.strip(), 1)
    while True:
        n += 1
        candidate = f"{base} {n}"
        if taken(candidate) is None:
            return candidate


def delete(path: Path) -> None:
    """Remove a saved game's files, holding its lock: never one a companion is playing."""
    fd = os.open(os.path.realpath(path), os.O_RDWR)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise JournalError(f"{path} is in use by a companion playing it: quit that game "
                               "first.") from None
        for extra in ("-wal", "-shm"):
            Path(f"{path}{extra}").unlink(missing_ok=True)
        path.unlink()
    finally:
        os.close(fd)
