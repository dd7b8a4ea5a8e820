"""Data files: what a wheel carries (config/ is at the top of the checkout), and what a game
records of them when it is set up."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_config_file_is_installed_by_a_wheel() -> None:
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    shipped = {path.relative_to(ROOT) for patterns in setup["data-files"].values()
               for pattern in patterns for path in ROOT.glob(pattern)}
    present = {path.relative_to(ROOT) for path in (ROOT / "config").rglob("*")
               if path.is_file()}
    assert present and present == shipped
    for target, patterns in setup["data-files"].items():
        folder = target.removeprefix("share/table-companion/")
        assert all(pattern.startswith(folder + "/") for pattern in patterns), target


def test_config_dir_falls_back_to_the_installed_share_folder() -> None:
    import companion

    assert companion.CONFIG_DIR == ROOT / "config"  # a checkout uses its own config/
    assert any(place.parts[-3:] == ("share", "table-companion", "config")
               for place in companion._PLACES)


def test_a_second_game_in_one_process_records_its_data_files_too() -> None:
    """The edition and deck loaders cache; setting a game up must still read (and so
    record) the file each time, and a resumed game must use the journal's copy."""
    from companion.session import build_game

    for name in ("monopoly", "monopoly-card-game"):
        first = build_game(name, ["Red", "Blue"])[1]
        again = build_game(name, ["Red", "Blue"])[1]
        assert first and again == first, name
    recorded = build_game("monopoly", ["Red", "Blue"])[1]
    (relative, edition), = recorded.items()
    changed = {relative: {**edition, "salary": 123}}
    game, _ = build_game("monopoly", ["Red", "Blue"], files=changed)
    assert game.edition.salary == 123  # type: ignore[attr-defined]
