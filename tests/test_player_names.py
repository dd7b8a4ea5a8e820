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


@pytest.mark.parametrize(("line", "speaker", "rest"), [
    ("Blue, roll 2", "Blue", "roll 2"),
    ("roll 2 Blue", "Blue", "roll 2"),
    ("roll 2 for blue", "Blue", "roll 2"),
    ("roll 2 by Blue.", "Blue", "roll 2"),
    ("buy, Hat", "Hat", "buy"),
    ("bank Horse and Rider", "Horse and Rider", "bank"),  # the longest name at the end too
    ("claim Hat", None, "claim Hat"),  # the command takes a player: the name is its own
    ("trade Hat Blue give 100 take Boardwalk", None, "trade Hat Blue give 100 take Boardwalk"),
    ("roll 2", None, "roll 2"),
])
def test_a_name_anywhere_in_a_line_is_who_speaks(line, speaker, rest):
    from companion.console import find_speaker
    from companion.games import find

    names = ["Blue", "Hat", "Horse and Rider", "Horse"]
    monopoly_help = find("monopoly")(["Car", "Hat"]).command_help()
    assert find_speaker(names, line, monopoly_help) == (speaker, rest)


def test_a_name_at_the_end_speaks_for_that_player_and_is_refused_out_of_turn():
    session, recorder = start(["Red", "Blue"])
    assert not session.command("go Blue").accepted
    assert recorder.texts[-1] == "Blue, it is Red's turn."
    assert session.command("go, Red").accepted
    assert session.command("roll 4 for Red").accepted and session.state.pot == 4


def test_an_unknown_name_before_a_command_is_no_player_not_an_unknown_command():
    session, recorder = start(["Red", "Blue"])
    reply = session.command("Green roll 2")
    assert not reply.accepted
    assert reply.text == "There is no player called Green; the players are Red and Blue."
    assert not session.command("Green: undo").accepted
    assert recorder.texts[-1] == "There is no player called Green; the players are Red and Blue."
    assert session.command("Red go").accepted  # nothing changed before it


def test_a_name_at_the_end_in_monopoly_and_no_name_made_of_a_chess_word():
    from companion.games import find

    recorder = Recorder()
    session = Session.start(find("monopoly")(["Car", "Hat"]), Journal.memory(), recorder)
    assert session.command("roll 1 2 Car").accepted  # the game would read "roll 1 2" too
    assert session.command("buy, Car").accepted
    assert not session.command("roll 3 4 Car").accepted
    assert recorder.texts[-1] == "Car, it is Hat's turn."
    chess = Session.start(find("chess")(["White", "Black"]), Journal.memory(), Recorder())
    reply = chess.command("knight f3")
    assert "no player" not in reply.text
