"""Loading data files from config/, with a user's copy taking precedence.

A user copies e.g. config/boards/snakes-ladders.json to
``~/.config/table-companion/boards/snakes-ladders.json`` and edits it; or passes a path.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from companion import CONFIG_DIR


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
    path = find_config(relative)
    with path.open(encoding="utf-8") as handle:
        try:
            return json.load(handle)
        except json.JSONDecodeError as err:
            raise ValueError(f"{path}: not valid JSON: {err}") from err
