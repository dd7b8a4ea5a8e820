"""Table Companion: a referee, banker and scorer that sits beside a real tabletop game."""

from pathlib import Path

__version__ = "0.1.0"

# config/ lives at the top of the checkout; an installed copy ships it inside the package.
_HERE = Path(__file__).resolve().parent
CONFIG_DIR = next(
    (p for p in (_HERE.parent / "config", _HERE / "config") if p.is_dir()), _HERE.parent / "config"
)
