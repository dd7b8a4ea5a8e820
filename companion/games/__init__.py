"""Every game module in this package registers itself with ``REGISTRY`` via ``@register``.

Modules (or subpackages) are discovered, so adding a game touches no other file.
"""

from __future__ import annotations

import importlib
import pkgutil

from companion.engine import Game, Registry

REGISTRY = Registry()
_loaded = False


def register(cls: type[Game]) -> type[Game]:
    return REGISTRY.register(cls)


def load_all() -> Registry:
    global _loaded
    if not _loaded:
        for info in pkgutil.iter_modules(__path__):
            if not info.name.startswith("_"):
                importlib.import_module(f"{__name__}.{info.name}")
        _loaded = True
    return REGISTRY


def find(name: str) -> type[Game]:
    return load_all().find(name)
