"""Table Companion: a referee, banker and scorer that sits beside a real tabletop game."""

import sys
from pathlib import Path

__version__ = "0.1.0"

# config/ lives at the top of the checkout; a wheel installs it under the environment's
# share/ (pyproject.toml, [tool.setuptools.data-files]).
_HERE = Path(__file__).resolve().parent
_PLACES = (_HERE.parent / "config", Path(sys.prefix) / "share" / "table-companion" / "config")
CONFIG_DIR = next((p for p in _PLACES if p.is_dir()), _PLACES[0])
