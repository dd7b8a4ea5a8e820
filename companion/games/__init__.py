"""The games, found by name without importing them.

``catalog.json`` (beside this file) is the light table of every game: its name, module,
title, players, aliases, inputs, options and tools. ``companion games`` reads only that;
``find(name)`` imports the one game's module, which registers its class with ``REGISTRY``
via ``@register``. The table is written from the games themselves (``python -m
companion.games.write_catalog``) and tests/test_registry.py fails when it no longer matches them.

A game module the table does not know yet is still found: ``find`` then discovers every
module (``load_all``), as before the table, so adding a game touches no other file to play it.
"""

from __future__ import annotations

import importlib
import json
import logging
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the engine is imported by the games themselves, not by the catalog
    from companion.engine import Game


class Registry:
    """Finds the game classes imported so far by name or alias. (A plain class: listing the
    games imports no more than it needs, not even dataclasses.)"""

    def __init__(self) -> None:
        self.games: dict[str, type[Game]] = {}
        self.aliases: dict[str, str] = {}

    def register(self, cls: type[Game]) -> type[Game]:
        name = cls.spec.name
        self.games[name] = cls
        for alias in (name, *cls.spec.aliases):
            self.aliases[_norm(alias)] = name
        return cls

    def find(self, name: str) -> type[Game]:
        key = self.aliases.get(_norm(name))
        if key is None:
            known = ", ".join(sorted(self.games))
            raise KeyError(f"no game called {name!r}; known games: {known}")
        return self.games[key]

    def all(self) -> list[type[Game]]:
        return [self.games[k] for k in sorted(self.games)]


def _norm(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


REGISTRY = Registry()
LOAD_ERRORS: dict[str, str] = {}  # module -> error; a broken game must not break the others
CATALOG_PATH = Path(__file__).with_name("catalog.json")
_loaded = False
log = logging.getLogger("companion.games")


def register(cls: type[Game]) -> type[Game]:
    return REGISTRY.register(cls)


@cache
def catalog() -> tuple[dict[str, Any], ...]:
    """Every game's row (``companion games --json`` plus its ``module``), sorted by name."""
    rows: list[dict[str, Any]] = json.loads(CATALOG_PATH.read_text(encoding="utf-8"))
    return tuple(sorted(rows, key=lambda row: str(row["name"])))


@cache
def _modules() -> dict[str, tuple[str, str]]:
    """Alias (normalised) -> (game name, module)."""
    found: dict[str, tuple[str, str]] = {}
    for row in catalog():
        for alias in (row["name"], *row["aliases"]):
            found[_norm(alias)] = (row["name"], row["module"])
    return found


def load_all() -> Registry:
    """Every game module imported (the tests, and a name the catalog does not know)."""
    global _loaded
    if not _loaded:
        for module in _game_modules():
            _import(module)
        _loaded = True
    return REGISTRY


def _import(module: str) -> str | None:
    """Import a game module; a broken one is logged and kept in LOAD_ERRORS (the tests fail
    on it) and its error returned: a broken game must not break the others."""
    try:
        importlib.import_module(module)
    except Exception as err:
        error = LOAD_ERRORS[module.rpartition(".")[2]] = f"{type(err).__name__}: {err}"
        log.error("game module %s failed to load: %s", module, err)
        return error
    return None


def _game_modules() -> list[str]:
    """The game modules: those the catalog names, and any other public module or package here
    (a game added since the catalog was written)."""
    import pkgutil

    named = sorted({module for _, module in _modules().values()})
    others = [f"{__name__}.{info.name}" for info in pkgutil.iter_modules(__path__)
              if not info.name.startswith("_") and info.name != "write_catalog"]
    return named + [m for m in others if m not in named
                    and not any(n.startswith(m + ".") for n in named)]


def find(name: str) -> type[Game]:
    """The game class called ``name`` (or one of its aliases), its module imported now."""
    key = _norm(name)
    if key in REGISTRY.aliases:
        return REGISTRY.find(name)
    known = _modules().get(key)
    if known is not None:
        game, module = known
        error = _import(module)
        if error is not None:
            raise KeyError(f"the game {game} cannot be loaded ({error}); the log has the details")
        if game in REGISTRY.games:
            return REGISTRY.games[game]
    return load_all().find(name)
