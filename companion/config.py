"""Loading data files from config/, with a user's copy taking precedence.

A user copies e.g. config/boards/snakes-ladders.json to
``~/.config/table-companion/boards/snakes-ladders.json`` and edits it; or passes a path.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from companion import CONFIG_DIR

# A game's data files are part of the game: the session records what a game loaded when it
# was set up and keeps it in the journal, so that resume rebuilds the very same game even if
# a board or edition file was edited since. See ``recording`` and ``pinned``.
_recording: ContextVar[dict[str, Any] | None] = ContextVar("recording", default=None)
_pinned: ContextVar[Mapping[str, Any] | None] = ContextVar("pinned", default=None)


@contextmanager
def recording() -> Iterator[dict[str, Any]]:
    """Collect every data file loaded inside the block: {name as asked: contents}."""
    files: dict[str, Any] = {}
    token = _recording.set(files)
    try:
        yield files
    finally:
        _recording.reset(token)


@contextmanager
def pinned(files: Mapping[str, Any]) -> Iterator[None]:
    """Inside the block, ``load_json`` returns these recorded contents instead of the files."""
    token = _pinned.set(files)
    try:
        yield
    finally:
        _pinned.reset(token)


def setting_up() -> bool:
    """Inside ``recording`` or ``pinned``: data files must be loaded through ``load_json``
    (to be recorded, or replaced by the journal's copy), not taken from a loader's cache."""
    return _recording.get() is not None or _pinned.get() is not None


def user_config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "table-companion"


def user_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "table-companion"


def find_config(relative: str) -> Path:
    """A path given as-is if it exists, else the user's copy, else the shipped one."""
    direct = Path(relative).expanduser()
    if direct.suffix and direct.is_file():
        return direct
    for base in (user_config_dir(), CONFIG_DIR):
        candidate = base / relative
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(f"no config file {relative!r} in {user_config_dir()} or {CONFIG_DIR}")


def load_json(relative: str) -> Any:
    pinned_files = _pinned.get() or {}
    if relative in pinned_files:
        data = copy.deepcopy(pinned_files[relative])
    else:
        path = find_config(relative)
        with path.open(encoding="utf-8") as handle:
            try:
                data = json.load(handle)
            except json.JSONDecodeError as err:
                raise ValueError(f"{path}: not valid JSON: {err}") from err
    files = _recording.get()
    if files is not None:
        files[relative] = copy.deepcopy(data)
    return data
