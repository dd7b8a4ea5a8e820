"""The catalog of games (``catalog.json``): written from the games themselves.

    python -m companion.games.write_catalog          # rewrite catalog.json after changing a spec
    python -m companion.games.write_catalog --check  # exit 1 if it no longer matches the games

Each row is what ``companion games --json`` prints for the game, plus its ``module``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.engine import Game
from companion.games import CATALOG_PATH, LOAD_ERRORS, REGISTRY

GAMES_DIR = Path(__file__).resolve().parent
_REGISTERS = re.compile(r"^(@register\b|register\()", re.MULTILINE)


def game_info(cls: type[Game]) -> dict[str, Any]:
    """A game's row as ``companion games --json`` prints it."""
    spec = cls.spec
    players = (f"{spec.min_players}" if spec.min_players == spec.max_players
               else f"{spec.min_players}-{spec.max_players}")
    return {
        "name": spec.name,
        "title": spec.title,
        "aliases": list(spec.aliases),
        "players": players,
        "min_players": spec.min_players,
        "max_players": spec.max_players,
        "inputs": list(spec.inputs),
        "rulebook": spec.rulebook,
        "options": {o.name: {"default": o.default, "help": o.help, "choices": list(o.choices)}
                    for o in spec.options},
        "tools": sorted(cls.tools),
    }


def registering_modules() -> list[str]:
    """Every module under companion/games/ whose source registers a game (``@register``, or
    ``register(cls)`` at the start of a line)."""
    found = []
    for path in sorted(GAMES_DIR.rglob("*.py")):
        if _REGISTERS.search(path.read_text(encoding="utf-8")):
            parts = path.relative_to(GAMES_DIR.parent.parent).with_suffix("").parts
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def rows() -> list[dict[str, Any]]:
    """The catalog as it should be: every registering module imported, its games' rows."""
    import importlib

    for module in registering_modules():
        importlib.import_module(module)
    if LOAD_ERRORS:
        raise RuntimeError(f"game modules failed to load: {LOAD_ERRORS}")
    return [{**game_info(cls), "module": cls.__module__} for cls in REGISTRY.all()
            if cls.__module__.startswith("companion.games.")]


def text(table: list[dict[str, Any]]) -> str:
    return json.dumps(table, indent=1, ensure_ascii=False) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.games.write_catalog")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if catalog.json does not match the games")
    args = parser.parse_args(argv)
    wanted = text(rows())
    if args.check:
        same = CATALOG_PATH.is_file() and CATALOG_PATH.read_text(encoding="utf-8") == wanted
        print(f"{CATALOG_PATH.name} is {'up to date' if same else 'out of date'}.")
        return 0 if same else 1
    CATALOG_PATH.write_text(wanted, encoding="utf-8")
    print(f"wrote {CATALOG_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
