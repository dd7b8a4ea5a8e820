"""Input sources chosen by a spec string: ``keyboard``, ``serial:URL``, ``camera:0``, ``dgt:URL``.

A source runs its own reader (usually a thread) and hands every Observation to ``emit``,
which is thread-safe (it puts on the session's inbound queue). Factories are imported lazily
so that, say, OpenCV loads only when a camera is asked for.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Protocol

from companion.observations import Observation

Emit = Callable[[Observation], None]


class Source(Protocol):
    name: str

    def start(self, emit: Emit) -> None: ...

    def close(self) -> None: ...


# scheme -> "module:function"; function(target: str, role: str) -> Source
# role is "dice", "cards" or "board" (which option named the source).
SOURCES: dict[str, str] = {
    "serial": "devices.serial_source:open_source",
    "camera": "vision.source:open_source",
    "dgt": "devices.dgt_source:open_source",
}


def open_source(spec: str, role: str) -> Source:
    scheme, _, target = spec.partition(":")
    entry = SOURCES.get(scheme)
    if entry is None:
        known = ", ".join(["keyboard", "virtual", *SOURCES])
        raise ValueError(f"unknown input source {spec!r}; use one of: {known}.")
    module_name, _, func_name = entry.partition(":")
    factory = getattr(importlib.import_module(module_name), func_name)
    source: Source = factory(target, role)
    return source
