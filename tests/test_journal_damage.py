"""Damaged journals, as a disk or a person damages them: bytes flipped over the whole file at
every offset class (the SQLite header, every page, the WAL's header, frame headers and
pages), the file and its WAL cut short, one entry's JSON cut, an entry edited. Every read
either gives the game exactly as saved, or names the file (and the entry) and what is intact;
never a traceback, never another game in silence. ``--salvage`` then goes on with the entries
that check, whatever the damage; a flip that makes SQLite drop a WAL frame shortens the game
to an earlier commit, as a crash would (counted below as "shortened")."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from companion import journal as journal_module
from companion.cli import main
from companion.games import find
from companion.journal import Journal, JournalError
from companion.session import Session, game_from_meta, replay_entries, salvage
from companion.voice import Recorder

pytestmark = pytest.mark.faults

PAGE = 4096


def _play(path: Path, lines: list[str]) -> None:
    journal = Journal(path)
    session = Session.start(find("snakes")(["Red", "Blue"], {}), journal, Recorder(), seed=1)
    for line in lines:
        session.command(line)
    journal.close()


def _lines(n: int, seed: int = 5) -> list[str]:
    rng = random.Random(seed)
    lines = []
    for i in range(n):
        lines.append("roll 9" if i % 11 == 5 else "undo" if i % 13 == 7
                     else f"roll {rng.randint(1, 6)}")
    return lines


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> dict[str, object]:
    """A game at rest (the database file alone) and one with its latest entries only in the
    WAL (as a killed companion leaves it), with the state after every prefix of entries."""
    folder = tmp_path_factory.mktemp("saved")
    rest = folder / "rest.sqlite"
    _play(rest, _lines(60))
    live = folder / "live.sqlite"
    shutil.copyfile(rest, live)
    patch = pytest.MonkeyPatch()
    patch.setattr(journal_module, "CHECKPOINT_IDLE", 3600.0)  # no checkpoint: a live WAL
    journal = Journal(live)
    session = Session.resume(journal, Recorder())
    for line in _lines(25, seed=9):
        session.command(line)
    assert journal.wait_durable()
    files = {"live.sqlite": live.read_bytes(),
             "live.sqlite-wal": Path(f"{live}-wal").read_bytes()}
    journal.close()
    patch.undo()
    view = Journal(rest, readonly=True)
    meta = view.meta()
    entries = list(view.entries())
    view.close()
    game = game_from_meta(meta)
    prefix_states = [replay_entries(game, entries[:k])[0].to_json()
                     for k in range(len(entries) + 1)]
    (folder / "live.sqlite").write_bytes(files["live.sqlite"])
    Path(f"{live}-wal").write_bytes(files["live.sqlite-wal"])
    view = Journal(live, readonly=True)
    live_entries = list(view.entries())
    view.close()
    live_states = [replay_entries(game, live_entries[:k])[0].to_json()
                   for k in range(len(live_entries) + 1)]
    return {"rest": ({"rest.sqlite": rest.read_bytes()}, prefix_states),
            "live": (files, live_states)}


def _offsets(name: str, data: bytes, rng: random.Random) -> list[tuple[str, int]]:
    """Offsets to flip, by class: every WAL header byte and every other byte of the database
    header, and a sample of every page (its b-tree header and first cell pointers, and its
    content) and of every WAL frame (its header and its page)."""
    if name.endswith("-wal"):
        found = [("wal header", i) for i in range(32)]
        for start in range(32, len(data), 24 + PAGE):
            found += [("wal frame header", start + i) for i in rng.sample(range(24), 3)]
            found += [("wal page", start + 24 + i) for i in rng.sample(range(PAGE), 3)]
        return found
    found = [("db header", i) for i in range(0, 100, 2)]
    for start in range(0, len(data), PAGE):
        head = 100 if start == 0 else 0
        found += [("db page header", start + head + i) for i in rng.sample(range(12), 6)]
        found += [("db page", start + i) for i in rng.sample(range(head + 12, PAGE), 6)]
    return found


def _write(folder: Path, files: dict[str, bytes]) -> Path:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return folder / next(name for name in files if name.endswith(".sqlite"))


def _read(path: Path) -> tuple[str, object]:
    """What reading the journal gives: ("ok", state) or ("damaged", message)."""
    try:
        view = Journal(path, readonly=True)
        try:
            return "ok", Session.view(view).state.to_json()
        finally:
            view.close()
    except JournalError as err:
        return "damaged", str(err)


def _salvaged_state(path: Path) -> tuple[int, object]:
    copy = Journal.memory()
    kept = salvage(path, copy).kept
    return kept, Session.view(copy).state.to_json()


def _trial(folder: Path, files: dict[str, bytes], states: list, name: str, offset: int,
           mask: int) -> tuple[str, int]:
    """What one flip gives, and how many saved entries it loses (after salvage)."""
    damaged = dict(files)
    data = bytearray(damaged[name])
    data[offset] ^= mask
    damaged[name] = bytes(data)
    path = _write(folder, damaged)
    outcome, what = _read(path)
    whole = len(states) - 1
    if outcome == "damaged":
        assert str(path) in str(what) or path.name in str(what), what
        try:
            kept, state = _salvaged_state(path)
        except JournalError as err:  # nothing readable: said, with the file named
            assert str(path) in str(err)
            return "detected, nothing salvaged", whole
        assert state == states[kept], (name, offset)
        return "detected, salvaged", whole - kept
    if what == states[whole]:
        return "unchanged", 0
    # A WAL frame SQLite no longer trusts: the game as it was at an earlier commit.
    assert what in states, (name, offset, "a different game read in silence")
    return "shortened", whole - max(i for i, state in enumerate(states) if state == what)


@pytest.mark.parametrize("kind", ["rest", "live"])
def test_flipped_bytes_anywhere_are_named_or_harmless_and_salvage_goes_on(saved, tmp_path,
                                                                          kind):
    files, states = saved[kind]
    rng = random.Random(16)
    outcomes: Counter[tuple[str, str]] = Counter()
    lost: Counter[str] = Counter()
    for name, data in files.items():
        for where, offset in _offsets(name, data, rng):
            result, lost_here = _trial(tmp_path / "t", files, states, name, offset,
                                       rng.choice([0x01, 0x80, 0xFF, rng.randrange(1, 256)]))
            outcomes[(where, result)] += 1
            lost[where] += lost_here
    total = sum(outcomes.values())
    print(f"\n{kind} ({len(states) - 1} entries): {total} flips")  # the README's figures
    for where in dict.fromkeys(w for w, _ in sorted(outcomes)):
        counts = {r: n for (w, r), n in outcomes.items() if w == where}
        print(f"  {where}: {sum(counts.values())} flips, {counts}, entries lost {lost[where]}")
    assert total > 100
    assert any(result.startswith("detected") for _, result in outcomes)


def test_truncations_are_named_and_salvaged(saved, tmp_path):
    outcomes: Counter[str] = Counter()
    for kind in ("rest", "live"):
        files, states = saved[kind]
        for name, data in files.items():
            cuts = sorted({*range(0, len(data), PAGE), PAGE + 100, 1, 99, 100, len(data) - 1})
            for cut in cuts:
                short = {**files, name: data[:cut]}
                path = _write(tmp_path / "t", short)
                outcome, what = _read(path)
                if outcome == "damaged":
                    assert path.name in str(what)
                    try:
                        kept, state = _salvaged_state(path)
                        assert state == states[kept]
                        outcomes["detected, salvaged"] += 1
                    except JournalError as err:
                        assert path.name in str(err)
                        outcomes["detected, nothing salvaged"] += 1
                elif what == states[-1]:
                    outcomes["unchanged"] += 1
                else:
                    assert what in states
                    outcomes["shortened"] += 1
    print("\ntruncations:", dict(outcomes))
    assert outcomes["detected, salvaged"] > 0


def _damage_entry(path: Path, seq: int, payload: str) -> None:
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE entries SET payload = ? WHERE seq = ?", (payload, seq))
    db.close()


def test_an_entry_cut_short_is_named_with_its_file_and_salvage_keeps_those_before(
        tmp_path, capsys):
    path = tmp_path / "g.sqlite"
    _play(path, ["roll 3", "roll 5", "roll 2", "roll 4"])
    _damage_entry(path, 3, '{"type": "Throw", "values": [2')
    for command in (["state"], ["history"], ["resume", "--voice", "silent"]):
        assert main([*command, "--journal", str(path)]) == 2
        err = capsys.readouterr().err
        assert f"{path} is damaged at entry 3: its checksum does not match" in err, err
        assert "the 2 entries before it are intact" in err
        assert f"companion resume --journal {path} --salvage" in err
    assert main(["resume", "--voice", "silent", "--journal", str(path), "--salvage"],) == 0
    assert "kept the first 2 of 2 readable entries" in capsys.readouterr().err
    copy = tmp_path / "g-salvaged.sqlite"
    assert main(["state", "--json", "--journal", str(copy)]) == 0
    assert json.loads(capsys.readouterr().out)["state"]["positions"] == [3, 5]


def test_an_edited_entry_is_not_replayed_into_another_game(tmp_path, capsys):
    path = tmp_path / "g.sqlite"
    _play(path, ["roll 3", "roll 5", "roll 2"])
    _damage_entry(path, 2, json.dumps({"type": "Throw", "values": [6]}))
    assert main(["state", "--journal", str(path)]) == 2
    assert "damaged at entry 2" in capsys.readouterr().err
    # the game's setup edited: the seed, the players
    path2 = tmp_path / "h.sqlite"
    _play(path2, ["roll 3"])
    db = sqlite3.connect(path2)
    with db:
        db.execute("UPDATE meta SET value = ? WHERE key = 'players'", ('["Red", "Green"]',))
    db.close()
    assert main(["history", "--journal", str(path2)]) == 2
    assert "the game's setup (players, options, seed or data files) does not match" in \
        capsys.readouterr().err


def test_salvage_reads_a_journal_sqlite_cannot_open(tmp_path, capsys):
    path = tmp_path / "g.sqlite"
    _play(path, ["roll 3", "roll 5", "roll 2"])
    data = bytearray(path.read_bytes())
    data[0:16] = b"not a database!!"  # the header's magic string
    path.write_bytes(bytes(data))
    assert main(["state", "--journal", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path} is damaged: it cannot be read as a database (file is not a database)" in err
    assert main(["resume", "--voice", "silent", "--journal", str(path), "--salvage"]) == 0
    assert "kept the first 3 of 3 readable entries" in capsys.readouterr().err
