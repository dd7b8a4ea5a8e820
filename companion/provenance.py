"""Which code wrote a journal: the companion's version and a digest of a game's rules code.

A journal pins a game's data files (boards, decks) and its options, so resume rebuilds the
same game whatever happens to config/. The rules code it cannot pin: a newer companion replays
the old entries with today's rules. So the journal records a digest of the rules code, and
resume says when it differs (the state was rebuilt by other rules than the ones played by), and
names both versions when an entry no longer replays (session.ReplayError).

The digest covers the game's own module and every rules module (companion.games, the engine
and the card types) that it imports, directly or through others, found in the source so that
imports inside functions count too: a change to another game leaves it alone.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.util
import sys
from collections.abc import Iterator, Mapping
from typing import Any

from companion import __version__

# the rules: the games, and the engine and card types they are built on (not the session, the
# clock's input source or the config loader: the journal pins the data files themselves)
_RULES = ("companion.engine", "companion.cards", "companion.hours")


def _source(name: str) -> str | None:
    """The source file of a rules module, or None (not rules code, or not a module)."""
    if name not in _RULES and name != "companion.games" and not name.startswith(
            "companion.games."):
        return None
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    origin = spec.origin if spec is not None else None
    return origin if origin and origin.endswith(".py") else None


def _import_statements(path: str) -> Iterator[ast.stmt]:
    """The import statements of a source file, at any depth (a function's own imports too).
    Only lines that start an import are parsed: a tenth of the time of walking the whole
    tree. A docstring line that reads like an import may add a module, never lose one."""
    with open(path, encoding="utf-8") as source:
        lines = source.read().splitlines()
    lines = [line.split("#")[0].strip() for line in lines]  # no "#" in an import's names
    i = 0
    while i < len(lines):
        text = lines[i]
        i += 1
        if not text.startswith(("import ", "from ")):
            continue
        # a bracketed list of names, or a line continued with a backslash
        while (text.count("(") > text.count(")") or text.endswith("\\")) and i < len(lines):
            text = text.removesuffix("\\") + " " + lines[i]
            i += 1
        try:
            yield from ast.parse(text.rstrip(" ;")).body
        except SyntaxError:
            continue


def _imports(name: str, path: str) -> set[str]:
    """The modules a source file imports."""
    package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _import_statements(path):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            found.add(base)
            # "from package import module" names a module too
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def rules_modules(game: type) -> dict[str, str]:
    """The rules modules a game class's module imports, directly or through others (imports
    inside functions included): module name -> source file, sorted by name."""
    first = game.__module__
    # a game from outside the companion (a plugin, a test's toy game): its own file at least
    path = _source(first) or getattr(sys.modules.get(first), "__file__", None)
    seen = {first: path} if path else {}
    todo = list(seen)
    while todo:
        name = todo.pop()
        for other in _imports(name, seen[name]):
            if other not in seen and (source := _source(other)) is not None:
                seen[other] = source
                todo.append(other)
    return dict(sorted(seen.items()))


@functools.cache  # the files do not change under a running companion
def rules_digest(game: type) -> str:
    """12 hex digits of SHA-256 over the names and source files of rules_modules(game)."""
    digest = hashlib.sha256()
    for name, path in rules_modules(game).items():
        digest.update(name.encode() + b"\0")
        with open(path, "rb") as source:
            digest.update(source.read() + b"\0")
    return digest.hexdigest()[:12]


def code_meta(game: type) -> dict[str, str]:
    """What a journal records of the code it is written by (meta key "code")."""
    return {"companion": __version__, "rules": rules_digest(game)}


def describe(code: Mapping[str, Any]) -> str:
    return f"Table Companion {code.get('companion', '?')}, rules code {code.get('rules', '?')}"


def code_change(meta: Mapping[str, Any], game: type) -> str | None:
    """A sentence when the game's rules code differs from the one that wrote the journal,
    else None (also for journals written before the code was recorded)."""
    then = meta.get("code")
    if not isinstance(then, Mapping):
        return None
    now = code_meta(game)
    if then.get("rules") == now["rules"]:
        return None
    return (f"This game was saved by {describe(then)}; this is {describe(now)}: it was "
            "rebuilt with today's rules.")
