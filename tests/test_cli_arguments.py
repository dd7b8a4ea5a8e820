"""Every subcommand given bad arguments answers with a sentence: no traceback, no Python
error text (`invalid literal for int()`), no argparse usage dump; and `calibrate` without a
terminal says what it needs instead of ending in an EOFError."""

from __future__ import annotations

import io
import re

import pytest

from companion.cli import main

BAD = [
    ["games", "--bad"],
    ["play"],
    ["play", "tiddlywinks"],
    ["play", "snakes", "--dice_count", "x"],
    ["play", "snakes", "--overshoot", "zzz"],
    ["play", "snakes", "--rate", "abc"],
    ["play", "snakes", "--rate", "-100"],
    ["play", "snakes", "--volume", "7"],
    ["play", "snakes", "--voice", "x"],
    ["play", "snakes", "--seed", "q"],
    ["play", "snakes", "--view-port", "99999"],
    ["play", "snakes", "--view", "wan"],
    ["play", "snakes", "--players", ",,"],
    ["play", "snakes", "--players"],
    ["play", "snakes", "--option", "x"],
    ["play", "snakes", "--name", " "],
    ["play", "snakes", "--dice", "telepathy:1"],
    ["play", "snakes", "--table", "t"],
    ["play", "snakes", "--tags", "/nonexistent/tags.json"],
    ["play", "racing", "--six_again", "perhaps"],
    ["play", "chess", "--time", "abc"],
    ["play", "chess", "--level", "x"],
    ["play", "chess", "--pgn", "/nonexistent/game.pgn"],
    ["resume", "--rate", "x"],
    ["resume", "nosuch"],
    ["resume", "--journal", "/nonexistent/g.sqlite", "--voice", "silent"],
    ["list", "--bad"],
    ["rematch", "nosuch"],
    ["delete"],
    ["delete", "nosuch", "--yes"],
    ["state", "--journal", "/nonexistent/g.sqlite"],
    ["history", "nosuch"],
    ["history", "--journal", "/nonexistent/g.sqlite", "--raw"],
    ["export"],
    ["export", "--db"],
    ["export", "--db", "x", "--pgn"],
    ["emulate", "bogus"],
    ["emulate", "camera", "--throws", "x"],
    ["demo", "--rate", "x"],
    ["bench"],
    ["bench", "nosuch"],
    ["bench", "latency", "--lines", "x"],
    ["hub"],
    ["hub", "mqtt://localhost/club", "--port", "x"],
    ["read", "dice"],
    ["read", "sideways", "x.png"],
    ["calibrate"],
    ["calibrate", "dice"],
    ["calibrate", "cards"],
    ["calibrate", "dice", "--area", "a,b"],
    ["perft", "chess", "x"],
    ["perft", "chess", "2", "--position", "nonsense"],
    ["perft", "snakes"],
    ["count"],
    ["simulate", "monopoly", "--games", "x"],
    ["nosuchcommand"],
]

PYTHON = re.compile(r"Traceback|File \"|\b[A-Z]\w*(Error|Exception)\b|invalid literal|"
                    r"invalid (int|float|choice)|error: (argument|unrecognized|the following)"
                    r"|^usage: companion \w+ \[-h\]", re.MULTILINE)


@pytest.mark.parametrize("argv", BAD, ids=" ".join)
def test_bad_arguments_are_refused_with_a_sentence(argv, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # not a terminal, and at its end
    code = main(argv)
    out, err = capsys.readouterr()
    assert code != 0
    said = out + err
    assert not PYTHON.search(said), said
    last = (err or out).strip().splitlines()[0 if argv == ["nosuchcommand"] else -1]
    assert last.rstrip(")").endswith((".", "?")), last


def test_calibrate_in_a_terminal_whose_input_ends_stops_with_a_sentence(capsys, monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdin", Terminal(""))
    assert main(["calibrate", "dice", "--camera", "/nonexistent/video.avi"]) == 2
    err = capsys.readouterr().err
    assert "The set-up stopped: its input ended before the steps were done." in err
    assert "EOFError" not in err


def test_a_bad_argument_says_what_the_option_takes(capsys):
    assert main(["play", "snakes", "--dice_count", "abc"]) == 2
    assert "The option dice_count takes a whole number, not \"abc\"." in capsys.readouterr().err
    assert main(["play", "snakes", "--rate", "-100"]) == 2
    err = capsys.readouterr().err
    assert ('--rate takes a whole number from 50 to 500, not "-100". (\'companion play --help\''
            " shows what it takes.)") in err
    assert "takes.)." not in err  # one full stop, inside the bracket
