"""No import circles in companion/, devices/ and vision/ (docs/ARCHITECTURE.md, "Import
circles").

What counts: every import at a module's top level, including those under ``if
TYPE_CHECKING:``, which run only for the type checker but are a dependency all the same (a
module that names another's types cannot be read or changed without it). An import inside a
function does not count: it runs once both modules are loaded, and is the way a dispatch
table or a heavy library (python-chess, numpy) is reached only when used. ``from package
import name`` counts as importing ``package.name`` when that is a module, else ``package``.

There are none (issue 21 broke the last, Monopoly's table and rule modules): the test fails
on any. In the games' folder the imports inside functions count as well: a rules engine
reaches a module lazily only to spare the time of loading it, never to call back up (Sorry!'s
words and game module did, until issue 21).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("companion", "devices", "vision")


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _top_level_imports(body: Iterable[ast.stmt]) -> Iterable[ast.Import | ast.ImportFrom]:
    """The import statements run when the module is loaded (or type-checked): at the top,
    and inside top-level if/try blocks (``if TYPE_CHECKING:`` among them)."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If):
            yield from _top_level_imports([*node.body, *node.orelse])
        elif isinstance(node, ast.Try):
            handlers = [s for h in node.handlers for s in h.body]
            yield from _top_level_imports([*node.body, *handlers, *node.orelse,
                                           *node.finalbody])


def _every_import(body: Iterable[ast.stmt]) -> Iterable[ast.Import | ast.ImportFrom]:
    """Every import statement, inside functions too."""
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Import | ast.ImportFrom):
                yield node


def imports(path: Path, modules: set[str], root: Path = ROOT, deep: bool = False) -> set[str]:
    """The modules of ``modules`` that the file at ``path`` imports at its top level (``deep``:
    anywhere, inside functions too)."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    statements = _every_import if deep else _top_level_imports
    for node in statements(ast.parse(path.read_text(encoding="utf-8")).body):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in modules)
            continue
        base = node.module or ""
        if node.level:
            parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            base = f"{parent}.{base}" if base else parent
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            if sub in modules:
                found.add(sub)
            elif base in modules:
                found.add(base)
    found.discard(name)
    return found


def graph(root: Path = ROOT, folders: Iterable[str] = FOLDERS,
          deep: bool = False) -> dict[str, set[str]]:
    paths = {module_name(p, root): p for folder in folders for p in (root / folder).rglob("*.py")}
    names = set(paths)
    return {name: imports(path, names, root, deep) for name, path in paths.items()}


def circles(edges: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.add(frozenset(group))
    return found


def test_no_import_circle() -> None:
    found = circles(graph())
    assert not found, "import circles: " + "; ".join(" <-> ".join(sorted(c)) for c in found)


def test_no_circle_in_the_games_even_through_a_function() -> None:
    found = circles(graph(folders=["companion/games"], deep=True))
    assert not found, "import circles: " + "; ".join(" <-> ".join(sorted(c)) for c in found)


@pytest.mark.parametrize("guarded", [False, True])
def test_a_circle_is_found(tmp_path: Path, guarded: bool) -> None:
    """The finder itself: a circle through three modules, one edge under TYPE_CHECKING, and
    a function's import that does not count."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg import b\n")
    (package / "b.py").write_text("from pkg.c import thing\n")
    back = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.a\n"
            if guarded else "import pkg.a\n")
    (package / "c.py").write_text(back + "thing = 1\ndef later():\n    import pkg.d\n")
    (package / "d.py").write_text("import pkg.c\n")
    assert circles(graph(tmp_path, ["pkg"])) == {frozenset({"pkg.a", "pkg.b", "pkg.c"})}
    assert circles(graph(tmp_path, ["pkg"], deep=True)) == {
        frozenset({"pkg.a", "pkg.b", "pkg.c", "pkg.d"})}
