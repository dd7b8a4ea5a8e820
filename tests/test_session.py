"""The session: journal before announce, refusals change nothing, undo, correct, resume."""

import pytest

from companion.engine import CHANCE, Throw
from companion.journal import REFUSED, Journal
from companion.observations import DeviceError, DiceSeen, TagSeen
from companion.session import Session
from companion.tags import TagMap
from companion.voice import Recorder
from tests.toy_game import ToyGame


def start(players=("Red", "Blue"), **options):
    recorder = Recorder()
    session = Session.start(ToyGame(list(players), options), Journal.memory(), recorder, seed=7)
    return session, recorder


def test_throw_is_applied_journaled_and_announced():
    session, rec = start()
    assert session.command("go").accepted
    reply = session.command("roll 4")
    assert reply.accepted
    assert session.state.pot == 4
    assert "Red throws 4: pot 4." in rec.texts
    kinds = [e.kind for e in session.journal.entries()]
    assert kinds == ["action", "action"]


def test_refusal_changes_nothing_and_says_why():
    session, rec = start()
    before = session.state.to_json()
    reply = session.command("roll 4")  # Red must decide to throw first
    assert not reply.accepted
    assert "No throw is expected now" in reply.text
    assert session.state.to_json() == before
    assert rec.texts[-1] == reply.text
    entries = list(session.journal.entries())
    assert [e.kind for e in entries] == [REFUSED]


def test_out_of_range_and_wrong_count_refused():
    session, _ = start()
    session.command("go")
    assert "not a value a die can show" in session.command("roll 7").text
    assert "I need one die, not 2 values" in session.command("roll 3 4").text
    assert "not a throw" in session.command("roll x").text
    assert session.state.pot == 0 and session.state.throwing


def test_wrong_player_is_refused_by_name():
    session, rec = start()
    reply = session.command("Blue bank")
    assert not reply.accepted
    assert reply.text == "Blue, it is Red's turn."
    assert session.state.banks == [0, 0]
    assert session.command("Red bank").accepted


def test_device_dice_from_the_wrong_seat_are_refused():
    session, _ = start()
    session.command("go")
    reply = session.submit(DiceSeen(source="serial:x", values=(5,), player="Blue"))
    assert reply.text == "Blue, it is Red's turn."
    assert session.submit(DiceSeen(source="serial:x", values=(5,), player="Red")).accepted


def test_device_errors_are_announced_and_change_nothing():
    session, rec = start()
    before = session.state.to_json()
    reply = session.submit(DeviceError(source="serial:x", reason="Device input ignored: junk."))
    assert not reply.accepted
    assert rec.texts[-1] == "Device input ignored: junk."
    assert session.state.to_json() == before


def test_undo_restores_previous_state_and_is_journaled():
    session, _ = start()
    session.command("go")
    session.command("roll 5")
    after_five = session.state.to_json()
    session.command("go")
    session.command("roll 3")
    assert session.command("undo").accepted
    assert session.command("undo").accepted
    assert session.state.to_json() == after_five
    kinds = [e.kind for e in session.journal.entries()]
    assert kinds.count("undo") == 2 and kinds.count("action") == 4  # nothing deleted


def test_correct_replaces_the_last_throw():
    session, rec = start()
    session.command("go")
    session.command("roll 1")  # misread: pot lost, turn passed
    assert session.state.turn == 1
    assert session.command("correct 5").accepted
    assert session.state.turn == 0 and session.state.pot == 5
    assert "Corrected to a throw of five." in rec.texts
    assert session.command("correct 9").accepted is False
    assert session.state.pot == 5


def test_resume_equals_live():
    session, _ = start()
    for line in ["go", "roll 4", "go", "roll 6", "bank", "go", "roll 1", "undo",
                 "correct 3", "bank", "go", "roll 2"]:
        session.command(line)
    resumed = Session.resume(session.journal, Recorder())
    assert resumed.state.to_json() == session.state.to_json()
    assert resumed.applied == session.applied


def test_low_confidence_reading_is_confirmed_first():
    session, rec = start()
    session.command("go")
    reply = session.submit(DiceSeen(source="camera:0", values=(4,), confidence=0.6))
    assert not reply.accepted and "say yes" in reply.text
    assert session.state.pot == 0
    assert session.command("yes").accepted
    assert session.state.pot == 4


def test_the_values_a_camera_doubted_are_named_when_asked():
    session, _ = start()
    session.command("go")
    reply = session.submit(DiceSeen(source="camera:0", values=(5,), confidence=0.6,
                                    unsure=(5,)))
    assert not reply.accepted
    assert "but I am not sure of a five: say yes, or type the values" in reply.text
    session.command("no")
    reply = session.submit(DiceSeen(source="camera:0", values=(3,), confidence=0.6))
    assert "but I am not sure: say yes" in reply.text  # a source that does not say which
    session.command("no")
    reply = session.submit(DiceSeen(source="camera:0", values=(6,), confidence=0.5,
                                    unsure=(6, 6)))
    assert "not sure of two sixes:" in reply.text
    session.command("no")
    reply = session.submit(DiceSeen(source="camera:0", values=(6,), confidence=0.5,
                                    unsure=(3, 1, 3)))
    assert "not sure of two threes and a one:" in reply.text


def test_tags_map_to_commands_and_unknown_tags_are_refused():
    session, _ = start()
    session.tags = TagMap({"04AA": "go"}, "test tags")
    assert session.submit(TagSeen(source="serial:x", tag="04aa")).accepted
    reply = session.submit(TagSeen(source="serial:x", tag="0BAD"))
    assert "Unknown tag 0BAD" in reply.text


def test_virtual_dice_are_seeded_journaled_and_replayed(tmp_path):
    script = ["go", "roll", "go", "roll", "bank", "go", "roll", "go", "roll", "bank"]

    def new(path):
        return Session.start(ToyGame(["Red", "Blue"]), Journal(path), Recorder(), seed=3,
                             auto_chance=frozenset({"dice"}))

    whole = new(tmp_path / "whole.sqlite")
    for line in script:
        whole.command(line)
        if line == "go":
            assert whole.state.current_player() == CHANCE  # nothing is thrown by itself
    assert "virtual" in [e.source for e in whole.journal.entries()]
    # Stopped halfway and resumed, the seeded sequence carries on exactly.
    first = new(tmp_path / "split.sqlite")
    for line in script[:5]:
        first.command(line)
    first.journal.close()
    resumed = Session.resume(Journal(tmp_path / "split.sqlite"), Recorder())
    for line in script[5:]:
        resumed.command(line)
    assert resumed.state.to_json() == whole.state.to_json()
    # A virtual throw a player asked for is one input: undo takes back just the throw.
    before = whole.state.to_json()
    whole.command("go")
    whole.command("roll")
    whole.command("undo")
    assert whole.state.current_player() == CHANCE
    whole.command("undo")
    assert whole.state.to_json() == before


def test_roll_without_values_needs_virtual_dice():
    session, _ = start()
    session.command("go")
    reply = session.command("roll")
    assert not reply.accepted and "--dice virtual" in reply.text


def test_unknown_command_refused():
    session, _ = start()
    reply = session.command("fly away")
    assert not reply.accepted and "fly" in reply.text


@pytest.mark.parametrize("line", ["status", "options", "again", "help"])
def test_informational_commands_change_nothing(line):
    session, _ = start()
    before = session.state.to_json()
    assert session.command(line).accepted
    assert session.state.to_json() == before
    assert not list(session.journal.entries())


def test_a_named_speaker_is_the_actor_of_the_command():
    from companion.engine import Throw, as_player
    from tests.toy_game import Bank

    assert as_player(Bank(0), 1) == Bank(1)
    assert as_player(Throw((3,)), 1) == Throw((3,))
    session, _ = start()
    assert session.command("Red bank").accepted  # Red banks, then it is Blue's turn
    assert session.state.turn == 1


def test_a_throw_named_for_another_player_is_refused_even_where_anyone_may_speak():
    session, _ = start()
    session.command("go")
    session.state.may_act = lambda player: True  # as in Monopoly, where anyone may bid
    reply = session.command("Blue roll 4")
    assert reply.text == "Blue, it is Red's turn." and session.state.pot == 0
    assert session.command("Red roll 4").accepted


def test_non_ascii_digits_are_refused_not_crashing():
    session, _ = start()
    session.command("go")
    session.command("roll 3")
    for line in ["correct ²", "roll ٣", "correct ³ ⁴"]:
        reply = session.command(line)
        assert not reply.accepted
    assert session.state.pot == 3


def test_a_bug_in_an_engine_is_refused_and_changes_nothing(monkeypatch):
    session, rec = start()
    session.command("go")
    before = session.state.to_json()

    original = type(session.state).apply

    def broken(self, action):
        if action == Throw((4,)):
            self.pot = 99  # half-applied, then a crash
            raise RuntimeError("engine bug")
        return original(self, action)

    monkeypatch.setattr(type(session.state), "apply", broken)
    reply = session.command("roll 4")
    assert not reply.accepted and "nothing has changed" in reply.text
    monkeypatch.undo()
    assert session.state.to_json() == before
    assert session.command("roll 4").accepted


def test_keyboard_source_ends_cleanly_on_undecodable_input():
    import io

    from companion.loop import EndOfInput, KeyboardSource

    raw = io.TextIOWrapper(io.BytesIO(b"roll 4\n\xff\xfe\nroll 5\n"), encoding="utf-8",
                           errors="strict")
    got: list = []
    source = KeyboardSource(raw)
    source.start(got.append)
    source._thread.join(10)
    assert isinstance(got[-1], EndOfInput)


def test_correct_replays_what_still_fits_and_says_what_was_taken_back():
    session, rec = start()
    for line in ["go", "roll 4", "bank"]:
        session.command(line)
    assert session.command("correct 2").accepted  # the bank still fits: Red banks 2
    assert session.state.banks == [2, 0] and session.state.turn == 1
    session2, rec2 = start()
    for line in ["go", "roll 4", "go"]:
        session2.command(line)
    assert session2.command("correct 1").accepted  # a 1 passes the turn: Red's "go" is void
    assert session2.state.turn == 1 and session2.state.pot == 0
    assert "No longer possible, so taken back: throw." in rec2.texts
    resumed = Session.resume(session2.journal, Recorder())
    assert resumed.state.to_json() == session2.state.to_json()


def test_undo_never_takes_back_a_virtual_deal():
    from companion.games import find

    game = find("crazy-eights")(["Red", "Blue"])
    session = Session.start(game, Journal.memory(), Recorder(), seed=5,
                            auto_chance=frozenset({"card", "shuffle"}))
    dealt = session.state.to_json()
    reply = session.command("undo")
    assert not reply.accepted and reply.text == "There is nothing to undo."
    assert session.state.to_json() == dealt
    action = session.state.legal_actions()[0]
    session.apply(action, source="test")
    session.undo()
    assert session.state.to_json() == dealt
    assert Session.resume(session.journal, Recorder()).state.to_json() == dealt


def test_resume_rebuilds_the_game_from_the_board_it_started_with(tmp_path):
    import json as jsonlib

    from companion.config import load_json
    from companion.session import build_game

    board = load_json("boards/snakes-ladders.json")
    mine = tmp_path / "my-board.json"
    mine.write_text(jsonlib.dumps(board))
    game, files = build_game("snakes-ladders", ["Red", "Blue"], {"board": str(mine)})
    assert str(mine) in files
    journal = Journal(tmp_path / "g.sqlite")
    session = Session.start(game, journal, Recorder(), seed=1, config=files)
    session.command("roll 4")  # the classic ladder from 4 to 14
    assert session.state.to_json()["positions"][0] == 14
    journal.close()
    # The user edits the file (the ladder at 4 goes), then resumes: the game is unchanged.
    edited = dict(board)
    for key in ("ladders", "snakes"):
        if isinstance(edited.get(key), dict):
            edited[key] = {k: v for k, v in edited[key].items() if k != "4"}
        elif isinstance(edited.get(key), list):
            edited[key] = [x for x in edited[key] if 4 not in (x if isinstance(x, list) else [])]
    mine.write_text(jsonlib.dumps(edited))
    mine.unlink()  # or even deletes it
    resumed = Session.resume(Journal(tmp_path / "g.sqlite"), Recorder())
    assert resumed.state.to_json()["positions"][0] == 14
    resumed.command("roll 1")  # Blue: the classic ladder from 1 to 38 still stands
    assert resumed.state.to_json()["positions"][1] == 38
    resumed.journal.close()
