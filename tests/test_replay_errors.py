"""A saved game that no longer replays (a journal from another version of the rules code, or
a damaged one): resume says which entry and which code, changes nothing, and --salvage goes on
in a copy. And the rules-code digest that the journal records."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path

import pytest

from companion.cli import main
from companion.games import find
from companion.journal import Journal, entry_hash
from companion.provenance import code_meta, rules_digest, rules_modules
from companion.session import ReplayError, Session, salvage
from companion.voice import Recorder


def _play(path: Path, throws: list[int]) -> None:
    journal = Journal(path)
    session = Session.start(find("snakes")(["Red", "Blue"], {}), journal, Recorder(), seed=1)
    for value in throws:
        assert session.command(f"roll {value}").accepted
    journal.close()


def _rewrite(path: Path, sql: str, *args: object) -> None:
    """Change a journal as another version of the companion would have written it: the
    entries' checksum chain made again (a plain edit is damage, tests/test_damage.py)."""
    db = sqlite3.connect(path)
    with db:
        db.execute(sql, args)
        prev = json.loads(db.execute("SELECT value FROM meta WHERE key = 'checksum'"
                                     ).fetchone()[0])
        rows = db.execute("SELECT seq, time, kind, payload, source, confidence, note"
                          " FROM entries ORDER BY seq").fetchall()
        for row in rows:
            prev = entry_hash(prev, *row)
            db.execute("UPDATE entries SET hash = ? WHERE seq = ?", (prev, row[0]))
    db.close()


def _entries(path: Path) -> list[tuple]:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT * FROM entries ORDER BY seq").fetchall()
    finally:
        db.close()


def test_an_entry_the_rules_refuse_is_named_with_the_code_and_nothing_changes(tmp_path):
    path = tmp_path / "g.sqlite"
    _play(path, [3, 5, 2, 4])
    _rewrite(path, "UPDATE entries SET payload = ? WHERE seq = 3",
             json.dumps({"type": "Throw", "values": [9]}))
    before = _entries(path)
    journal = Journal(path)
    with pytest.raises(ReplayError) as caught:
        Session.resume(journal, Recorder())
    journal.close()
    assert caught.value.seq == 3
    digest = rules_digest(find("snakes"))
    assert str(caught.value) == (
        "Entry 3 (roll 9) is refused by the rules: 9 is not a value a die can show. It was "
        f"saved by this same code (Table Companion 0.1.0, rules code {digest}).")
    assert _entries(path) == before


def test_an_unreadable_entry_names_the_code_that_saved_it(tmp_path):
    path = tmp_path / "g.sqlite"
    _play(path, [3, 5])
    _rewrite(path, "UPDATE entries SET payload = ? WHERE seq = 2",
             json.dumps({"type": "Leap", "squares": 4}))
    _rewrite(path, "UPDATE meta SET value = ? WHERE key = 'code'",
             json.dumps({"companion": "0.0.9", "rules": "000000000000"}))
    with pytest.raises(ReplayError, match=r"^Entry 2 \(action\) cannot be read: unknown action "
                       r"type 'Leap'\. It was saved by Table Companion 0\.0\.9, rules code "
                       r"000000000000; this is Table Companion 0\.1\.0, rules code "):
        Session.view(Journal(path, readonly=True))


def test_salvage_keeps_the_entries_before_the_first_that_fails_and_leaves_the_original(
        tmp_path):
    path = tmp_path / "g.sqlite"
    _play(path, [3, 5, 2, 4, 1])
    _rewrite(path, "UPDATE entries SET payload = ? WHERE seq = 4",
             json.dumps({"type": "Throw", "values": [0]}))
    before = _entries(path)
    copy_path = tmp_path / "copy.sqlite"
    copy = Journal(copy_path)
    assert salvage(path, copy).kept == 3
    copy.close()
    assert _entries(path) == before
    assert _entries(copy_path) == before[:3]  # times, sources and notes kept
    copy = Journal(copy_path)
    meta = copy.meta()
    assert meta["salvaged_from"] == {"journal": str(path), "entries": 5, "kept": 3}
    session = Session.resume(copy, Recorder())
    # Red's 3 + 2 lands on Blue's 5, so Red moves on to 6
    assert session.state.status() == "Red on 6, Blue on 5. Blue to throw one die."
    copy.close()
    reference = tmp_path / "reference.sqlite"
    _play(reference, [3, 5, 2])
    assert Session.view(Journal(reference, readonly=True)).state.to_json() == \
        session.state.to_json()


def test_resume_after_the_rules_code_changed_says_so_once(tmp_path):
    path = tmp_path / "g.sqlite"
    _play(path, [3, 5])
    old = {"companion": "0.0.9", "rules": "000000000000"}
    _rewrite(path, "UPDATE meta SET value = ? WHERE key = 'code'", json.dumps(old))
    journal = Journal(path)
    session = Session.resume(journal, Recorder())
    assert session.code_note == (
        "This game was saved by Table Companion 0.0.9, rules code 000000000000; this is Table "
        f"Companion 0.1.0, rules code {rules_digest(find('snakes'))}: it was rebuilt with "
        "today's rules.")
    assert journal.meta()["code"] == code_meta(find("snakes"))
    assert journal.meta()["code_before"] == [old]
    journal.close()
    journal = Journal(path)
    assert Session.resume(journal, Recorder()).code_note is None
    journal.close()


def test_a_journal_from_before_the_code_was_recorded_resumes_without_a_note(tmp_path):
    path = tmp_path / "g.sqlite"
    _play(path, [3, 5])
    _rewrite(path, "DELETE FROM meta WHERE key = 'code'")
    journal = Journal(path)
    assert Session.resume(journal, Recorder()).code_note is None
    journal.close()


def test_the_cli_says_how_to_salvage_and_salvage_goes_on_in_a_copy(tmp_path, monkeypatch,
                                                                    capsys):
    path = tmp_path / "g.sqlite"
    _play(path, [3, 5, 2])
    _rewrite(path, "UPDATE entries SET payload = ? WHERE seq = 2",
             json.dumps({"type": "Throw", "values": [7]}))
    before = _entries(path)
    monkeypatch.setattr("sys.stdin", io.StringIO("roll 6\n"))
    assert main(["resume", "--voice", "console", "--journal", str(path)]) == 2
    out, err = capsys.readouterr()
    assert "companion resume: Entry 2 (roll 7) is refused by the rules" in err
    # said aloud (the console voice prints what it says) and logged
    assert "I cannot resume this game. Entry 2 (roll 7) is refused by the rules" in out
    log = (tmp_path / "data" / "table-companion" / "companion.log").read_text()
    assert "companion resume refused: Entry 2 (roll 7) is refused by the rules" in log
    assert f"Nothing was changed. To go on from the entry before it, in a copy: companion " \
           f"resume --journal {path} --salvage" in err
    assert main(["state", "--journal", str(path)]) == 2
    assert "--salvage" in capsys.readouterr().err
    assert _entries(path) == before
    assert main(["resume", "--voice", "silent", "--journal", str(path), "--salvage"]) == 0
    copy_path = tmp_path / "g-salvaged.sqlite"
    assert f"kept the first 1 of 3 readable entries in {copy_path}" in capsys.readouterr().err
    assert _entries(path) == before
    assert main(["state", "--json", "--journal", str(copy_path)]) == 0
    assert json.loads(capsys.readouterr().out)["state"]["positions"] == [3, 6]


def test_the_rules_digest_covers_what_a_game_imports_and_only_that():
    monopoly = rules_modules(find("monopoly"))
    # imported inside functions, or only for constants: still the rules
    assert {"companion.games.monopoly.handlers", "companion.games.monopoly.phases",
            "companion.engine", "companion.cards"} <= set(monopoly)
    assert not any(name.startswith(("companion.session", "companion.clock", "companion.voice"))
                   for name in monopoly)
    snakes = rules_modules(find("snakes"))
    assert "companion.games.race.common" in snakes
    assert not any("monopoly" in name for name in snakes)
    assert rules_digest(find("snakes")) == rules_digest(find("snakes"))
    assert rules_digest(find("snakes")) != rules_digest(find("ludo"))


def test_the_import_scan_finds_every_import_a_full_parse_finds():
    import ast

    from companion.games import load_all
    from companion.provenance import _import_statements

    statements = 0
    for cls in load_all().all():
        for path in rules_modules(cls).values():
            with open(path, encoding="utf-8") as source:
                tree = ast.parse(source.read())
            full = {ast.dump(node) for node in ast.walk(tree)
                    if isinstance(node, ast.Import | ast.ImportFrom)}
            scanned = {ast.dump(node) for node in _import_statements(path)}
            assert full <= scanned, path  # (dumps without line numbers)
            statements += len(full)
    assert statements > 100


def test_the_import_scan_reads_bracketed_continued_and_nested_imports(tmp_path):
    import ast

    from companion.provenance import _import_statements

    path = tmp_path / "m.py"
    path.write_text('"""A docstring.\n\nfrom docs import nothing\n"""\n'
                    "from a.b import c, \\\n    d\nimport x  # note (\n"
                    "def f():\n    from .y import (\n        z,  # why\n        w)\n")
    assert [ast.unparse(node) for node in _import_statements(str(path))] == [
        "from docs import nothing",  # a docstring line may add a module, never lose one
        "from a.b import c, d", "import x", "from .y import z, w"]
