"""Hand-edited data files (editions, boards, decks, tag maps, phrases) are checked when a game
starts: a fault is one sentence naming the file and the field, and no game or journal begins."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.config import CONFIG_DIR

CLASSIC = json.loads((CONFIG_DIR / "editions" / "monopoly-classic.json").read_text())


def edition(**changes: Any) -> dict[str, Any]:
    data = json.loads(json.dumps(CLASSIC))
    for key, value in changes.items():
        data[key] = value
    return data


def with_space(index: int, **fields: Any) -> dict[str, Any]:
    data = edition()
    data["spaces"][index].update(fields)
    return data


def user_file(relative: str, content: Any) -> Path:
    """A user's copy in ~/.config/table-companion (the test's home), which takes precedence."""
    path = Path(os.environ["XDG_CONFIG_HOME"]) / "table-companion" / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(content), encoding="utf-8")
    return path


def refused(capsys, tmp_path: Path, *args: str) -> str:
    journal = tmp_path / "game.sqlite"
    code = main(["play", *args, "--voice", "silent", "--journal", str(journal)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert not journal.exists()  # nothing began
    assert "Traceback" not in err and err.strip().endswith(".")
    return err


NO_SPACES = {k: v for k, v in CLASSIC.items() if k != "spaces"}
EDITIONS = [
    ([1, 2], "an edition file holds one JSON object ({...}), not a list."),
    (edition(start_cash=-500), "start_cash must be a whole number of 1 or more, not -500."),
    (with_space(1, price=-1_000_000),
     "spaces[1].price must be a whole number of 0 or more, not -1000000."),
    (with_space(3, price="60"), 'spaces[3].price must be a whole number, not the text "60".'),
    (with_space(1, rent=[2, 10, -30, 90, 160, 250]),
     "spaces[1].rent[2] must be a whole number of 0 or more, not -30."),
    (with_space(1, rent=[2, 10]), "spaces[1].rent of a lot must list 6 rents"),
    (with_space(5, kind="station"), "spaces[5].kind must be one of go, lot, railroad"),
    (with_space(1, group="mauve"), 'spaces[1].group must name one of the groups'),
    (with_space(4, percent=150), "spaces[4].percent must be a whole number from 0 to 100"),
    (NO_SPACES, "spaces is missing."),  # before: "companion play: spaces"
    (edition(spaces=CLASSIC["spaces"][:39]), "spaces must list the board's 40 spaces, not 39."),
    (edition(salary="lots"), 'salary must be a whole number, not the text "lots".'),
    (edition(railroad_rent=[25, 50]), "railroad_rent must list 4 whole numbers, not 2."),
    (edition(groups=[]), "groups must be an object ({...}), not a list."),
    (edition(tokens="Car"), 'tokens must be a list ([...]), not the text "Car".'),
]


@pytest.mark.parametrize(("content", "message"), EDITIONS)
def test_a_bad_edition_is_named_by_file_and_field(capsys, tmp_path, content, message):
    path = tmp_path / "monopoly-mine.json"
    path.write_text(json.dumps(content), encoding="utf-8")
    err = refused(capsys, tmp_path, "monopoly", "--edition", str(path))
    assert f"{path}: {message}" in err


def test_an_edition_card_with_a_bad_effect_is_named(capsys, tmp_path):
    data = edition()
    data["decks"]["chance"]["cards"][0]["effect"] = {"advance": "Atlantis"}
    data["decks"]["chest"]["cards"][2]["effect"] = {"pay": -50}
    path = tmp_path / "monopoly-mine.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    err = refused(capsys, tmp_path, "monopoly", "--edition", str(path))
    assert "decks.chance.cards[0].effect.advance must name a space of the board" in err
    data["decks"]["chance"]["cards"][0]["effect"] = {"advance": "GO"}
    path.write_text(json.dumps(data), encoding="utf-8")
    err = refused(capsys, tmp_path, "monopoly", "--edition", str(path))
    assert "decks.chest.cards[2].effect.pay must be a whole number of 0 or more, not -50." in err


def test_a_board_whose_top_level_is_a_list_is_a_sentence(capsys, tmp_path):
    path = tmp_path / "board.json"
    path.write_text("[1, 2]", encoding="utf-8")
    err = refused(capsys, tmp_path, "snakes", "--option", f"board={path}")
    assert f"{path}: a board file holds one JSON object ({{...}})." in err


def test_a_bad_tag_map_is_named(capsys, tmp_path):
    path = tmp_path / "tags.json"
    for content, message in [
        (["04A1 card AS"], "a tag map file holds one JSON object ({...}), not a list."),
        ({"tags": {"04A1": 5}}, "tags.04A1 must be some text, not the number 5."),
        ({"tags": {"hello": "undo"}}, "tags.hello is not a tag id"),
        ({"tags": []}, "tags must be an object ({...}), not a list."),
    ]:
        path.write_text(json.dumps(content), encoding="utf-8")
        err = refused(capsys, tmp_path, "snakes", "--tags", str(path))
        assert f"{path}: {message}" in err


def test_a_bad_phrases_file_is_named_and_starts_no_game(capsys, tmp_path):
    for content, message in [
        (["turn"], "a phrases file holds one JSON object ({...}), not a list."),
        ({"turn": 5}, "turn must be a sentence (text), not the number 5."),
        ({"turn": "{name's turn."}, "turn is not a template"),
    ]:
        path = user_file("phrases/en.json", content)
        err = refused(capsys, tmp_path, "snakes")
        assert f"{path}: {message}" in err


def test_bad_decks_are_named(capsys, tmp_path):
    shipped = json.loads((CONFIG_DIR / "decks" / "sorry.json").read_text())
    shipped["cards"]["7"] = -4
    path = user_file("decks/sorry.json", shipped)
    err = refused(capsys, tmp_path, "sorry")
    assert f"{path}: cards.7 must be a whole number of 1 or more, not -4." in err
    deck = json.loads((CONFIG_DIR / "decks" / "monopoly-card-game.json").read_text())
    deck["cards"][0]["count"] = "two"
    path = user_file("decks/monopoly-card-game.json", deck)
    err = refused(capsys, tmp_path, "monopoly-card-game")
    assert f'{path}: cards[0].count must be a whole number, not the text "two".' in err
    path = user_file("decks/monopoly-card-game.json", {"cards": {}})
    err = refused(capsys, tmp_path, "monopoly-card-game")
    assert f"{path}: groups is missing." in err
