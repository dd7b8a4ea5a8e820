"""The one-way data flow: devices/ and vision/ turn bytes and frames into observations and
never reach a rules engine (docs/ARCHITECTURE.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ALLOWED = {
    "devices": {"companion.observations"},
    "vision": {"companion.observations", "companion.cards", "companion.config",
               "companion.sources"},
}


def _companion_imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] == "companion":
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "companion")
    return found


@pytest.mark.parametrize("folder", sorted(ALLOWED))
def test_input_layers_import_no_game(folder: str) -> None:
    wrong = {f"{path.relative_to(ROOT)}: {name}"
             for path in (ROOT / folder).rglob("*.py")
             for name in _companion_imports(path) if name not in ALLOWED[folder]}
    assert not wrong, sorted(wrong)


# The rules engines depend on the rules API and values only: never an input source (the
# Time Limit clock), the session, the journal or an output.
GAMES_MAY_IMPORT = {"companion.engine", "companion.observations", "companion.cards",
                    "companion.config", "companion.datafile", "companion.hours"}


def _any_depth_imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return {name for name in found if name.split(".")[0] == "companion"}


def test_rules_engines_import_only_the_rules_api_and_values() -> None:
    wrong = {f"{path.relative_to(ROOT)}: {name}"
             for path in (ROOT / "companion" / "games").rglob("*.py")
             for name in _any_depth_imports(path)
             if name not in GAMES_MAY_IMPORT and name != "companion.games"
             and not name.startswith("companion.games.")}
    assert not wrong, sorted(wrong)
