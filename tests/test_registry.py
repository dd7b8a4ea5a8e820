"""The games are found by name without importing them (issue 21): the catalog is the light
table, and a command imports only the game it uses. Each check runs in a fresh interpreter
and reads its sys.modules."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games import catalog
from companion.games.write_catalog import rows, text

# libraries only some commands need: the chess engine, the page, the club, the cameras
HEAVY = ("chess", "starlette", "uvicorn", "paho", "numpy", "cv2", "serial", "pyttsx3")


def _modules_after(code: str) -> set[str]:
    """The modules loaded by a fresh interpreter running ``code`` (which prints nothing)."""
    script = f"{code}\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout
    return set(json.loads(out.splitlines()[-1]))


def _games_and_heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules
                  if (m.startswith("companion.games.") and m != "companion.games.write_catalog")
                  or m.split(".")[0] in HEAVY)


def test_the_catalog_matches_the_games() -> None:
    assert text(list(catalog())) == text(rows()), (
        "companion/games/catalog.json is out of date: python -m companion.games.write_catalog")


def test_listing_the_games_imports_no_game_and_no_heavy_library() -> None:
    modules = _modules_after(
        "import contextlib, io\nfrom companion.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['games', '--json'])\n    main(['--help'])")
    assert _games_and_heavy(modules) == []
    # nor the rules engine, the journal or the session: the catalog is data
    assert not {"companion.engine", "companion.journal", "companion.session"} & modules


def test_a_game_tool_imports_that_game_alone() -> None:
    modules = _modules_after(
        "import contextlib, io\nfrom companion.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['count', 'cribbage', '5H', '5D', '5S', 'JC', '--starter', '5C'])")
    assert [m for m in _games_and_heavy(modules)
            if not m.startswith("companion.games.cribbage")] == []
    assert "companion.games.cribbage.tools" in modules
    assert not {"companion.journal", "companion.session"} & modules


def test_finding_a_game_by_alias_imports_its_module_only() -> None:
    modules = _modules_after("from companion.games import find\n"
                             "assert find('Snakes and Ladders').spec.name == 'snakes-ladders'")
    snakes = next(row["module"] for row in catalog() if row["name"] == "snakes-ladders")
    assert snakes in modules
    others = {row["module"] for row in catalog()} - {snakes}
    assert not others & modules


def test_a_game_that_fails_to_load_is_refused_in_a_sentence(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    import companion.games as games

    monkeypatch.setattr(games, "LOAD_ERRORS", {})
    monkeypatch.setattr(games, "_modules",
                        lambda: {"broken": ("broken", "companion.games.no_such_module")})
    with pytest.raises(KeyError, match=r"the game broken cannot be loaded \(ModuleNotFound"):
        games.find("broken")
    assert list(games.LOAD_ERRORS) == ["no_such_module"]


@pytest.mark.parametrize("name", ["snakes-ladders", "sorry", "checkers", "dice", "chess"])
def test_a_journal_names_no_module_so_moving_one_keeps_saved_games(tmp_path: Path,
                                                                    name: str) -> None:
    """Journals store the game's name and its actions' class names: a saved game resumes
    whatever folder its game's modules are moved to (issue 21 moved these five)."""
    from companion.games import find
    from companion.journal import Journal
    from companion.session import Session
    from companion.voice import Recorder

    cls = find(name)
    path = tmp_path / "game.sqlite"
    session = Session.start(cls(list(cls.spec.default_players)[:2] or ["Red", "Blue"]),
                            Journal(path), Recorder(), seed=1,
                            auto_chance=frozenset({"dice", "card", "shuffle"}))
    for _ in range(6):  # a few moves: the first legal one, or a virtual throw
        actions = session.state.legal_actions()
        if actions:
            session.apply(actions[0])
        else:
            session.command("roll")
    assert len(session.applied) >= 1
    session.journal.close()
    saved = path.read_bytes()
    action = type(session.applied[-1]).__name__.encode()
    assert name.encode() in saved and action in saved  # the entries are in the file
    assert b"companion.games" not in saved
    resumed = Session.resume(Journal(path), Recorder())
    assert resumed.applied == session.applied
    resumed.journal.close()
