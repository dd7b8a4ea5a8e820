"""The verbosity (brief, normal, full) and the rule "each fact once" (companion/narrator.py)."""

from __future__ import annotations

import pytest

from companion.games import find
from companion.journal import Journal
from companion.narrator import NORMAL, Verbosity
from companion.session import Session, build_game
from companion.voice import Recorder
from tests import toy_game  # noqa: F401  (registers the toy game)


def start(name, players, options=None, **kwargs):
    game, files = build_game(find(name), players, options or {})
    recorder = Recorder()
    session = Session.start(game, Journal.memory(), recorder, config=files, **kwargs)
    return session, recorder


def said_for(session, recorder, line):
    before = len(recorder.texts)
    session.command(line)
    return recorder.texts[before:]


def test_verbosity_parse_format_and_steps():
    assert str(Verbosity.parse(" Brief ")) == "brief"
    assert Verbosity.parse("full").louder() == Verbosity.parse("full")
    assert Verbosity.parse("brief").quieter() == Verbosity.parse("brief")
    assert NORMAL.quieter() == Verbosity.parse("brief")
    assert NORMAL.louder() == Verbosity.parse("full")
    assert [Verbosity.parse(n).choice_limit for n in Verbosity.NAMES] == [0, 3, 8]
    with pytest.raises(ValueError, match=r'^The verbosity is brief, normal or full, not "loud"\.$'):
        Verbosity.parse("loud")


def test_a_purchase_is_asked_once_not_twice():
    # "Unowned, 100 dollars: buy or auction?" used to be followed by "Choose: Car buys ...;
    # auction it."
    session, recorder = start("monopoly", ["Car", "Hat"])
    said = said_for(session, recorder, "roll 1 2")
    assert said == ["Car throws one and two, three, to Baltic Avenue.",
                    "Unowned, 60 dollars: buy or auction?"]
    assert said_for(session, recorder, "options") == [
        "Car: buy Baltic Avenue for 60, or auction it."]


def test_an_auction_says_the_high_bid_and_who_is_still_in():
    session, recorder = start("monopoly", ["Car", "Hat", "Dog"])
    session.command("roll 1 2")
    assert said_for(session, recorder, "auction") == [
        "The Bank auctions Baltic Avenue to Car, Hat and Dog; bids may start at any price."
        " Hat first: bid or pass."]
    assert said_for(session, recorder, "bid Hat 131") == [
        "Hat bids 131. Still in: Car, Hat and Dog; Dog to beat it or pass."]
    assert said_for(session, recorder, "pass Dog") == [
        "Dog passes. High bid 131, Hat's. Still in: Car and Hat; Car to beat it or pass."]
    assert said_for(session, recorder, "options") == [
        "High bid 131, Hat's; still in: Car and Hat. Car: bid more than 131, or pass."]
    assert said_for(session, recorder, "pass Car") == [
        "Car passes.", "Hat wins Baltic Avenue at auction for 131.", "Hat's turn."]


def test_the_turn_is_not_said_while_the_previous_player_still_owes():
    session, recorder = start("monopoly", ["Car", "Hat"], {"rent": "auto"})
    for line in ("roll 1 2", "buy", "roll 2 4", "buy"):  # Car: Baltic; Hat: Oriental
        session.command(line)
    session.state.cash[0] = 2  # Car cannot pay Oriental Avenue's 6 rent
    said = said_for(session, recorder, "roll 1 2")
    assert said == [
        "Car throws one and two, three, to Oriental Avenue.",
        "Car owes Hat 6 but has 2: sell buildings, mortgage or trade to raise it (selling"
        " and mortgaging everything would raise 30)."]
    assert said_for(session, recorder, "mortgage Baltic") == [
        "Car mortgages Baltic Avenue for 30.", "Car pays Hat 6 rent: Oriental Avenue.",
        "Hat's turn."]


def test_brief_normal_and_full_at_the_table():
    session, recorder = start("toy", ["Red", "Blue"], {"target": 50})
    assert said_for(session, recorder, "go") == []  # Red now throws
    assert said_for(session, recorder, "roll 3") == ["Red throws 3: pot 3.",
                                                      "Choose: throw; bank."]
    assert said_for(session, recorder, "quieter") == [
        "Verbosity brief: results and refusals only; the choices on 'options'."]
    assert said_for(session, recorder, "go") == []
    assert said_for(session, recorder, "roll 4") == ["Red throws 4: pot 7."]
    assert said_for(session, recorder, "quieter") == [
        "Already brief: results and refusals only; the choices on 'options'."]
    assert said_for(session, recorder, "options") == ["Choose: throw; bank."]
    assert said_for(session, recorder, "louder")[0].startswith("Verbosity normal: each fact")
    assert said_for(session, recorder, "verbosity full")[0].startswith("Verbosity full")
    assert said_for(session, recorder, "verbosity loud") == [
        'The verbosity is brief, normal or full, not "loud".']


def test_more_than_three_choices_wait_for_options_unless_full():
    session, recorder = start("checkers", ["Black", "White"])
    said = said_for(session, recorder, "11-15")
    assert not any(t.startswith("Choose") for t in said)  # seven answers: on 'options' only
    session.command("louder")
    said = said_for(session, recorder, "undo")
    said = said_for(session, recorder, "11-15")
    assert said[-1].startswith("Choose: ") and said[-1].count(";") == 6


def test_brief_drops_the_chatter_but_keeps_results():
    session, recorder = start("monopoly", ["Car", "Hat"], verbosity=Verbosity.parse("brief"))
    assert said_for(session, recorder, "roll 1 2") == [
        "Car throws one and two, three, to Baltic Avenue.",
        "Unowned, 60 dollars: buy or auction?"]
    assert said_for(session, recorder, "buy") == ["Car buys Baltic Avenue for 60."]  # no turn


def test_resume_keeps_the_verbosity_the_table_chose(tmp_path):
    game, files = build_game(find("toy"), ["Red", "Blue"], {})
    path = tmp_path / "g.sqlite"
    session = Session.start(game, Journal(path), Recorder(), config=files)
    session.command("quieter")
    session.journal.close()
    again = Session.resume(Journal(path), Recorder())
    assert str(again.verbosity) == "brief"
    again.journal.close()
    louder = Session.resume(Journal(path), Recorder(), verbosity=Verbosity.parse("full"))
    assert str(louder.verbosity) == "full"
    louder.journal.close()


def test_play_and_resume_take_verbosity_on_the_command_line(monkeypatch, capsys, tmp_path):
    from tests.test_cli import play, run

    code, out, journal = play(monkeypatch, capsys, tmp_path, ["roll 3"], "--verbosity",
                              "brief")
    assert code == 0 and "Red throws three" in out and "Blue's turn" not in out
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("roll 4\n"))
    code, out, _ = run(capsys, "resume", "--journal", str(journal), "--voice", "console")
    assert code == 0 and "Blue throws four" in out and "Red's turn" not in out  # kept
    monkeypatch.setattr("sys.stdin", io.StringIO("roll 2\n"))
    code, out, _ = run(capsys, "resume", "--journal", str(journal), "--voice", "console",
                       "--verbosity", "normal")
    assert code == 0 and "Blue's turn" in out
    code, _, err = run(capsys, "play", "snakes", "--verbosity", "loud", "--journal",
                       str(tmp_path / "other.sqlite"))
    assert code == 2 and 'The verbosity is brief, normal or full, not "loud".' in err
    assert not (tmp_path / "other.sqlite").exists()
