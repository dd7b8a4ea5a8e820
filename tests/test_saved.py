"""Saved games by name: play --name, list, resume NAME, rematch, delete; journals from before
names list and resume by their file names; a piece of a name is never taken for the game."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path

import pytest

from companion.cli import main
from companion.games import find
from companion.journal import Journal, journal_dir
from companion.session import Session
from companion.voice import Recorder


def run(capsys, monkeypatch, *args: str, stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def play(capsys, monkeypatch, name: str | None, players: str, lines: str, *extra: str):
    named = ["--name", name] if name is not None else []
    return run(capsys, monkeypatch, "play", "snakes", "--players", players, "--voice",
               "silent", *named, *extra, stdin=lines)


def listed(capsys, monkeypatch) -> dict[str, dict]:
    code, out, _ = run(capsys, monkeypatch, "list", "--json")
    assert code == 0
    return {row["name"]: row for row in json.loads(out)}


def entries(path: str | Path) -> int:
    journal = Journal(path, readonly=True)
    try:
        return journal.count()
    finally:
        journal.close()


def test_a_named_game_is_listed_and_resumed_by_its_name(capsys, monkeypatch):
    assert play(capsys, monkeypatch, "Friday night", "Ann,Bob", "roll 3\nroll 4\n")[0] == 0
    assert play(capsys, monkeypatch, None, "Cy,Di", "roll 2\n")[0] == 0
    games = listed(capsys, monkeypatch)
    friday = games["Friday night"]
    assert friday["named"] is True and friday["game"] == "snakes-ladders"
    assert friday["title"] == "Snakes and Ladders" and friday["players"] == ["Ann", "Bob"]
    assert friday["turn"] == "Ann" and friday["actions"] == 2 and friday["over"] is False
    assert friday["problem"] is None and friday["last_played"][:2] == "20"
    unnamed = next(row for row in games.values() if not row["named"])
    assert unnamed["name"] == Path(unnamed["journal"]).stem  # the file name, as before names
    code, out, _ = run(capsys, monkeypatch, "list")
    assert code == 0 and "Friday night" in out and "Ann's turn, 2 moves" in out
    code, out, _ = run(capsys, monkeypatch, "resume", "friday  NIGHT", "--voice", "console",
                       stdin="roll 5\n")
    assert code == 0 and "Resuming Snakes and Ladders. Ann on 3, Bob on 14." in out
    assert entries(friday["journal"]) == 3


def test_a_piece_of_a_name_is_not_a_game(capsys, monkeypatch):
    play(capsys, monkeypatch, "Friday night", "Ann,Bob", "roll 3\n")
    play(capsys, monkeypatch, None, "Cy,Di", "roll 2\n")
    games = listed(capsys, monkeypatch)
    before = {row["journal"]: entries(row["journal"]) for row in games.values()}
    code, _, err = run(capsys, monkeypatch, "resume", "friday", "--voice", "silent",
                       stdin="roll 5\n")
    assert code == 2
    assert 'There is no saved game called "friday". Did you mean "Friday night"?' in err
    stamp = next(name for name in games if name != "Friday night")[:8]  # 20261125
    code, _, err = run(capsys, monkeypatch, "resume", stamp, "--voice", "silent",
                       stdin="roll 5\n")
    assert code == 2 and f'There is no saved game called "{stamp}"' in err
    code, _, err = run(capsys, monkeypatch, "history", "Saturday")
    assert code == 2 and "'companion list' shows the saved games." in err
    assert {p: entries(p) for p in before} == before  # nothing was resumed


def test_a_journal_from_before_names_lists_and_resumes_by_its_file_name(capsys, monkeypatch):
    folder = journal_dir()
    folder.mkdir(parents=True)
    path = folder / "20250101-120000-snakes-ladders.sqlite"
    journal = Journal(path)
    session = Session.start(find("snakes")(["Red", "Blue"], {}), journal, Recorder())
    assert session.command("roll 3").accepted
    journal.close()
    db = sqlite3.connect(path)  # and from before the checksums: schema 1
    with db:
        db.execute("ALTER TABLE entries DROP COLUMN hash")
        db.execute("DELETE FROM meta WHERE key IN ('checksum', 'checked_from')")
        db.execute("UPDATE meta SET value = '1' WHERE key = 'schema'")
    db.close()
    row = listed(capsys, monkeypatch)["20250101-120000-snakes-ladders"]
    assert row["named"] is False and row["turn"] == "Blue" and row["actions"] == 1
    code, out, _ = run(capsys, monkeypatch, "resume", "20250101-120000-snakes-ladders.sqlite",
                       "--voice", "console", stdin="roll 4\n")
    assert code == 0 and "Blue throws four" in out
    assert entries(path) == 2
    code, out, _ = run(capsys, monkeypatch, "history", "20250101-120000-snakes-ladders")
    assert code == 0 and "Turn 2, Blue:" in out and "Blue throws four" in out


def test_a_name_is_checked_before_any_journal_is_made(capsys, monkeypatch):
    play(capsys, monkeypatch, "Club", "Ann,Bob", "roll 3\n")
    for name, says in (("club", 'There is already a saved game called "club"'),
                       ("  ", "A saved game's name cannot be empty."),
                       ("Bad\x1b[2J", "holds control characters"),
                       ("x" * 61, "at most 60 characters")):
        code, _, err = play(capsys, monkeypatch, name, "Cy,Di", "roll 3\n")
        assert code == 2 and says in err, err
    assert len(list(journal_dir().glob("*.sqlite"))) == 1


def test_a_rematch_is_a_new_game_of_the_same_game_players_and_options(capsys, monkeypatch):
    play(capsys, monkeypatch, "Cup", "Ann,Bob,Cy", "roll\nroll\n", "--dice", "virtual",
         "--option", "overshoot=bounce", "--dice_count", "2")
    code, out, err = run(capsys, monkeypatch, "rematch", "cup", "--voice", "console",
                         stdin="roll\n")
    assert code == 0 and "Snakes and Ladders: Ann, Bob, Cy." in out
    games = listed(capsys, monkeypatch)
    assert games["Cup"]["actions"] == 2 and games["Cup 2"]["actions"] == 1  # virtual dice
    for name in ("Cup", "Cup 2"):
        journal = Journal(games[name]["journal"], readonly=True)
        meta = journal.meta()
        journal.close()
        assert meta["players"] == ["Ann", "Bob", "Cy"] and meta["auto_chance"] == ["dice"]
        assert meta["options"]["overshoot"] == "bounce" and meta["options"]["dice_count"] == 2
    assert run(capsys, monkeypatch, "rematch", "Cup 2", "--voice", "silent")[0] == 0
    assert "Cup 3" in listed(capsys, monkeypatch)


def test_delete_asks_or_needs_yes_and_removes_only_that_game(capsys, monkeypatch):
    play(capsys, monkeypatch, "Keep me", "Ann,Bob", "roll 3\n")
    play(capsys, monkeypatch, "Old", "Cy,Di", "roll 3\n")
    games = listed(capsys, monkeypatch)
    old, keep = Path(games["Old"]["journal"]), Path(games["Keep me"]["journal"])
    code, _, err = run(capsys, monkeypatch, "delete", "Old")  # not a terminal: --yes needed
    assert code == 2 and "needs --yes" in err and old.exists()
    code, _, err = run(capsys, monkeypatch, "delete", "Ol", "--yes")
    assert code == 2 and 'Did you mean "Old"?' in err and old.exists()

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdin", Terminal("no\n"))
    assert main(["delete", "Old"]) == 1 and old.exists()
    assert "Nothing was deleted." in capsys.readouterr().out
    playing = Journal(old)  # a companion playing it
    code, _, err = run(capsys, monkeypatch, "delete", "Old", "--yes")
    assert code == 2 and "in use by a companion playing it" in err and old.exists()
    playing.close()
    monkeypatch.setattr("sys.stdin", Terminal("yes\n"))
    assert main(["delete", "Old"]) == 0
    assert 'Deleted the saved game "Old" (Snakes and Ladders: Cy, Di' in capsys.readouterr().out
    assert not old.exists() and not Path(f"{old}-wal").exists() and keep.exists()
    assert list(listed(capsys, monkeypatch)) == ["Keep me"]


def test_a_salvaged_copy_is_not_a_second_game_of_the_same_name(capsys, monkeypatch):
    play(capsys, monkeypatch, "Cup", "Ann,Bob", "roll 3\nroll 4\n")
    path = Path(listed(capsys, monkeypatch)["Cup"]["journal"])
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE entries SET note = 'edited' WHERE seq = 2")
    db.close()
    assert run(capsys, monkeypatch, "resume", "Cup", "--salvage", "--voice", "silent")[0] == 0
    games = listed(capsys, monkeypatch)
    assert games["Cup (salvaged)"]["actions"] == 1 and games["Cup"]["problem"]


@pytest.mark.parametrize("command", ["resume", "history", "state", "export", "rematch"])
def test_every_command_finds_a_game_by_its_whole_name_only(capsys, monkeypatch, command):
    play(capsys, monkeypatch, "Cup final", "Ann,Bob", "roll 3\n")
    extra = ["--db", "copy.sqlite"] if command == "export" else []
    code, _, err = run(capsys, monkeypatch, command, "Cup", *extra)
    assert code == 2 and 'Did you mean "Cup final"?' in err
