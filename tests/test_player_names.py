"""Any name a person types is usable (with spaces, quoted or not, in any case), and names
that would read as commands are refused when the game starts, with the reason."""

from __future__ import annotations

import pytest

from companion.cli import main
from companion.console import split_speaker
from companion.journal import Journal
from companion.observations import DiceSeen
from companion.session import Session
from companion.voice import Recorder
from tests.toy_game import ToyGame

PLAYERS = ["Horse and Rider", "Ann", "Ann Lee", "Zoë"]


def start(players=PLAYERS) -> tuple[Session, Recorder]:
    recorder = Recorder()
    return Session.start(ToyGame(list(players)), Journal.memory(), recorder), recorder


@pytest.mark.parametrize(("line", "speaker", "rest"), [
    ("Horse and Rider roll 4", "Horse and Rider", "roll 4"),
    ("horse and rider: roll 4", "Horse and Rider", "roll 4"),
    ('"Horse and Rider" roll 4', "Horse and Rider", "roll 4"),
    ("\u201cHorse and Rider\u201d: bank", "Horse and Rider", "bank"),
    ("Ann Lee bank", "Ann Lee", "bank"),  # the longest name wins
    ("Ann bank", "Ann", "bank"),
    ("ZOË: bank", "Zoë", "bank"),
    ("Horse roll 4", None, "Horse roll 4"),
    ("Ann", None, "Ann"),  # a name alone is no input from anyone
])
def test_a_line_starts_with_a_name_as_people_type_it(line, speaker, rest):
    assert split_speaker(PLAYERS, line) == (speaker, rest)


def test_a_name_with_spaces_speaks_and_is_refused_by_name():
    session, recorder = start()
    assert session.command("Horse and Rider: go").accepted  # before: "Horse" was no one
    assert not session.command("Ann Lee bank").accepted
    assert recorder.texts[-1] == "Ann Lee, it is Horse and Rider's turn."
    assert session.command('"horse and rider" roll 4').accepted
    assert session.state.pot == 4


def test_a_device_seat_names_a_player_with_spaces():
    session, _ = start()
    session.command("go")
    reply = session.submit(DiceSeen(source="serial:x", values=(3,), player="Ann_Lee"))
    assert reply.text == "Ann Lee, it is Horse and Rider's turn."
    assert session.submit(DiceSeen(source="serial:x", values=(3,),
                                   player="Horse_and_Rider")).accepted


@pytest.mark.parametrize(("players", "reason"), [
    (["Roll", "Blue"], 'A player cannot be called "Roll": roll is a command'),
    (["Red", "undo"], 'A player cannot be called "undo": undo is a command'),
    (["Red", " "], "A player's name cannot be empty."),
    (["Red", "Bl\x1b[2Jue"], 'The name "Blue" holds control characters'),
])
def test_names_that_clash_are_refused_at_the_start(players, reason):
    with pytest.raises(ValueError, match=reason.replace("(", r"\(")):
        Session.start(ToyGame(players), Journal.memory(), Recorder())


def test_play_refuses_a_game_command_as_a_name_before_anything_starts(capsys, tmp_path):
    journal = tmp_path / "g.sqlite"
    code = main(["play", "monopoly", "--players", "Buy,Car", "--voice", "silent",
                 "--journal", str(journal)])
    err = capsys.readouterr().err
    assert code == 2 and not journal.exists()
    assert 'A player cannot be called "Buy": buy is a command' in err
