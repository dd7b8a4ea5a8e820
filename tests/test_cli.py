"""The companion command as a user runs it: games, play from a script, state, history, demo."""

from __future__ import annotations

import json

import pytest

from companion.cli import main


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_games_lists_every_registered_game(capsys):
    code, out, _ = run(capsys, "games", "--json")
    assert code == 0
    rows = {row["name"]: row for row in json.loads(out)}
    snakes = rows["snakes-ladders"]
    assert snakes["inputs"] == ["dice"] and "snakes" in snakes["aliases"]
    assert {"name", "title", "aliases", "players", "min_players", "max_players", "inputs",
            "rulebook", "options", "tools"} <= set(snakes)
    code, out, _ = run(capsys, "games")
    assert "Snakes and Ladders" in out


def play(monkeypatch, capsys, tmp_path, lines, *extra):
    import io

    journal = tmp_path / "g.sqlite"
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    code, out, err = run(capsys, "play", "snakes-ladders", "--players", "Red,Blue",
                         "--voice", "console", "--journal", str(journal), *extra)
    return code, out, journal


def test_play_from_a_script_then_state_and_history(monkeypatch, capsys, tmp_path):
    code, out, journal = play(monkeypatch, capsys, tmp_path,
                              ["roll 3", "roll 9", "Red roll 2", "roll 4", "undo", "roll 5"])
    assert code == 0
    assert "Red throws three" in out
    assert "9 is not a value a die can show" in out
    assert "Red, it is Blue's turn" in out
    code, out, _ = run(capsys, "state", "--json", "--journal", str(journal))
    view = json.loads(out)
    assert view["game"] == "snakes-ladders" and view["players"] == ["Red", "Blue"]
    assert view["turn"] == "Red" and view["over"] is False and view["actions"] == 2
    assert view["expected"] == "Red to throw one die"
    assert view["state"]["positions"] == [3, 5]
    code, out, _ = run(capsys, "history", "--json", "--journal", str(journal))
    kinds = [row["kind"] for row in json.loads(out)]
    assert kinds == ["action", "refused", "refused", "action", "undo", "action"]


def test_play_refuses_an_existing_journal(monkeypatch, capsys, tmp_path):
    play(monkeypatch, capsys, tmp_path, ["roll 3"])
    code, _, journal = play(monkeypatch, capsys, tmp_path, ["roll 3"])
    assert code == 2


def test_a_bad_input_source_is_refused_before_a_journal_is_made(capsys, tmp_path):
    journal = tmp_path / "g.sqlite"
    for spec, says in (("camera:0?zoom", "unknown camera option 'zoom'"),
                       ("telepathy:1", "unknown input source")):
        code, _, err = run(capsys, "play", "snakes", "--dice", spec, "--journal",
                           str(journal))
        assert code == 2 and says in err and not journal.exists()


def test_unknown_game_and_option_are_clear_errors(capsys):
    code, _, err = run(capsys, "play", "tiddlywinks")
    assert code == 2 and "no game called 'tiddlywinks'" in err
    code, _, err = run(capsys, "play", "snakes", "--colour", "red")
    assert code == 2 and "has no option --colour" in err


def test_game_tool_dispatch_and_missing_tool(capsys):
    code, _, err = run(capsys, "perft", "snakes")
    assert code == 2 and "has no perft tool" in err


def test_resume_without_any_game_says_how_to_start(capsys):
    code, _, err = run(capsys, "resume")
    assert code == 2 and "companion play" in err


@pytest.mark.slow
def test_demo_plays_a_whole_game_through_the_emulated_tray(capsys, tmp_path):
    code, out, err = run(capsys, "demo", "--fast", "--voice", "console",
                         "--journal", str(tmp_path / "demo.sqlite"))
    assert code == 0
    assert "Virtual dice tray is connected." in out
    assert "Device input ignored: die value 9 is out of range." in out
    assert "wins the game!" in out
    assert "Undone:" in out
    code, out, _ = run(capsys, "state", "--json", "--journal", str(tmp_path / "demo.sqlite"))
    assert json.loads(out)["over"] is True


def test_resume_without_a_path_continues_the_game_played_last(monkeypatch, capsys):
    import io
    import os
    import time

    from companion.journal import Journal, journal_dir

    for name in ("Ann,Bob", "Cat,Dan"):
        monkeypatch.setattr("sys.stdin", io.StringIO("roll 2\n"))
        assert run(capsys, "play", "snakes", "--players", name, "--voice", "silent")[0] == 0
    def players(path):
        journal = Journal(path, readonly=True)
        try:
            return journal.meta()["players"]
        finally:
            journal.close()

    games = list(journal_dir().glob("*.sqlite"))
    first = next(p for p in games if players(p) == ["Ann", "Bob"])
    an_hour_ago = time.time() - 3600  # file times are coarse: make the order unmistakable
    for path in games:
        os.utime(path, (an_hour_ago, an_hour_ago))
    monkeypatch.setattr("sys.stdin", io.StringIO("roll 3\n"))
    assert run(capsys, "resume", "--voice", "silent", "--journal", str(first))[0] == 0
    code, out, _ = run(capsys, "state", "--json")  # the latest is the one played last
    view = json.loads(out)
    assert view["players"] == ["Ann", "Bob"] and view["state"]["positions"] == [2, 3]


def test_the_usage_names_every_benchmark():
    import re

    from companion.bench import BENCHES
    from companion.cli import USAGE

    listed = USAGE.split("bench NAME", 1)[1].split("count|advise", 1)[0]
    names = set(re.findall(r"[a-z][a-z-]*", listed.split("benchmarks:", 1)[1]))
    assert set(BENCHES) <= names, sorted(set(BENCHES) - names)
