"""Every game module in this package registers itself with ``REGISTRY`` via ``@register``.

Modules (or subpackages) are discovered, so adding a game touches no other file.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil

from companion.engine import Game, Registry

REGISTRY = Registry()
LOAD_ERRORS: dict[str, str] = {}  # module -> error; a broken game must not break the others
_loaded = False
log = logging.getLogger("companion.games")


def register(cls: type[Game]) -> type[Game]:
    return REGISTRY.register(cls)


def load_all() -> Registry:
    global _loaded
    if not _loaded:
        for info in pkgutil.iter_modules(__path__):
            if info.name.startswith("_"):
                continue
            try:
                importlib.import_module(f"{__name__}.{info.name}")
            except Exception as err:  # reported by 'companion games' and failed by the tests
                LOAD_ERRORS[info.name] = f"{type(err).__name__}: {err}"
                log.error("game module %s failed to load: %s", info.name, err)
        _loaded = True
    return REGISTRY


def find(name: str) -> type[Game]:
    return load_all().find(name)
