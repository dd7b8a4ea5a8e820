"""What Monopoly says at the table: one sentence per decision, the facts a player needs when
they matter (doubles, debts, Just Visiting, why), physical cards by their words, and the
questions about the board. Golden conversations read as a play script."""

from __future__ import annotations

from companion.games import find
from companion.journal import Journal
from companion.session import Session, build_game
from companion.voice import Recorder


def start(players=("Car", "Hat"), **options):
    game, files = build_game(find("monopoly"), list(players), options)
    recorder = Recorder()
    session = Session.start(game, Journal.memory(), recorder, config=files)
    return session, recorder


def said_for(session, recorder, line):
    before = len(recorder.texts)
    session.command(line)
    return recorder.texts[before:]


def test_doubles_say_the_player_throws_again_once_the_throw_is_resolved():
    session, recorder = start()
    assert said_for(session, recorder, "roll 3 3") == [
        "Car throws three and three, six, doubles, to Oriental Avenue.",
        "Unowned, 100 dollars: buy or auction?"]
    assert said_for(session, recorder, "buy") == ["Car buys Oriental Avenue for 100.",
                                                  "Car throws again."]
    assert said_for(session, recorder, "roll 1 2") == [
        "Car throws one and two, three, to Connecticut Avenue.",
        "Unowned, 120 dollars: buy or auction?"]


def test_a_throw_that_stops_on_the_jail_square_is_just_visiting():
    session, recorder = start()
    assert said_for(session, recorder, "roll 6 4")[0] == (
        "Car throws six and four, ten, to Just Visiting.")
    assert not session.state.jail[0]


def test_why_after_a_purchase_explains_the_purchase():
    session, recorder = start()
    session.command("roll 1 2")
    session.command("buy")
    assert said_for(session, recorder, "why") == [
        "Car paid the Bank 60 for Baltic Avenue, its printed price."]
    session.command("roll 1 2")  # Hat: Baltic Avenue, Car's rent to claim
    session.command("roll 1 3")  # Car: Chance
    session.command("card dividend")
    session.command("roll 2 4")  # Hat to Connecticut Avenue: auctioned
    session.command("auction")
    session.command("bid Car 90")
    session.command("pass Hat")
    assert said_for(session, recorder, "why") == [
        "Car paid the Bank 90 for Connecticut Avenue: the winning bid at auction."]


def test_a_debt_that_cannot_be_raised_says_how_much_could_be():
    session, recorder = start()
    session.command("roll 1 2")  # Car: Baltic Avenue, mortgage 30
    session.command("buy")
    session.command("roll 2 4")  # Hat: Oriental Avenue
    session.command("auction")
    session.command("pass Hat")
    session.command("pass Car")
    session.state.cash[0] = 2
    session.command("roll 1 3")  # Car: Chance
    session.command("card GO-BACK-3")  # to Income Tax
    assert said_for(session, recorder, "tax 200") == [
        "Car owes the Bank 200 but has 2; selling buildings and mortgaging everything would"
        " raise only 30: trade, or declare bankruptcy."]
    assert said_for(session, recorder, "mortgage Baltic") == [
        "Car mortgages Baltic Avenue for 30."]
    assert said_for(session, recorder, "why") == ["Income Tax: the flat 200, chosen before"
                                                  " adding up the worth."]
    said = said_for(session, recorder, "bankrupt")
    assert said[0] == "Car is bankrupt to the Bank and retires from the game."


def at_chance():
    session, recorder = start()
    session.command("roll 3 4")  # Car: Chance
    return session, recorder


def test_a_physical_chance_card_by_its_words_or_a_keyword():
    # These were refused as "TAKE A WALK ON BOARDWALK cannot be drawn now: it is not in the
    # deck": only the hidden ids (WALK-BOARDWALK) were taken.
    for typed in ("card take a walk on boardwalk", "card Boardwalk", "card boardwak",
                  "card WALK-BOARDWALK", "draw walk boardwalk"):
        session, recorder = at_chance()
        said = said_for(session, recorder, typed)
        assert said[:2] == ["Car draws Chance: Take a walk on Boardwalk. Advance token to"
                            " Boardwalk.", "Car advances to Boardwalk."], typed
    session, recorder = at_chance()
    assert said_for(session, recorder, "card advance to go")[0] == (
        "Car draws Chance: Advance to GO (collect $200).")
    assert said_for(session, recorder, "undo") == [
        "Undone: the Chance card Advance to GO. Car to draw a Chance card."]
    assert said_for(session, recorder, "card nearest railroad")[0].startswith(
        "Car draws Chance: Advance token to the nearest Railroad")


def test_an_ambiguous_or_unknown_card_gets_did_you_mean_and_changes_nothing():
    session, recorder = at_chance()
    assert said_for(session, recorder, "card jail") == [
        '"jail" could be more than one Chance card: did you mean Get out of Jail Free or Go'
        ' to Jail?']
    assert said_for(session, recorder, "card advance") == [
        '"advance" could be more than one Chance card: did you mean Advance to GO, Advance'
        ' to Illinois Avenue or Advance to St. Charles Place, or another?']
    assert said_for(session, recorder, "card bank error") == [
        'No Chance card reads "bank error". Say cards for the list.']
    assert session.state.chance().kind == "card"  # still waiting for the card


def test_cards_and_options_list_what_may_be_drawn():
    session, recorder = at_chance()
    listed = said_for(session, recorder, "cards")
    assert listed == said_for(session, recorder, "options")
    text = listed[0]
    assert text.startswith("The Chance cards that may be drawn: Advance to GO; ")
    assert "Take a walk on Boardwalk; " in text and "ADVANCE-GO" not in text
    assert text.count("nearest Railroad") == 1  # the two alike are one to a player
    assert text.endswith("Type card and a few of its words, like: card advance to go.")
    assert said_for(session, recorder, "card get out of jail free")[0] == (
        "Car draws Chance: Get out of Jail Free. This card may be kept until needed, or sold.")
    session, recorder = at_chance()
    session.state.held[1] = ["chance:GET-OUT-OF-JAIL-FREE"]  # Hat holds it
    assert "Get out of Jail Free" not in said_for(session, recorder, "cards")[0]
    assert said_for(session, recorder, "card get out of jail") == [
        "The Chance card Get out of Jail Free is held by Hat, so it cannot be drawn now."]


def test_board_who_owns_where_and_standings():
    session, recorder = start()
    for line in ("roll 1 2", "buy", "roll 6 4", "roll 2 4", "buy"):
        session.command(line)
    session.state.mort[3] = True  # Baltic Avenue, mortgaged
    board = said_for(session, recorder, "board")[0]
    assert board == said_for(session, recorder, "deeds")[0]
    assert board.startswith("Brown: Mediterranean Avenue (unowned); Baltic Avenue (Car,"
                            " mortgaged). Railroads: Reading Railroad (unowned); ")
    assert "Light Blue: Oriental Avenue (unowned); Vermont Avenue (unowned); Connecticut" \
           " Avenue (Car)." in board
    assert board.endswith("Dark Blue: Park Place (unowned); Boardwalk (unowned).")
    assert said_for(session, recorder, "who owns baltic") == [
        "Car owns Baltic Avenue (mortgaged)."]
    assert said_for(session, recorder, "who owns boardwalk") == [
        "Boardwalk is unowned: the price is 400."]
    assert said_for(session, recorder, "where is Hat") == ["Hat is just visiting Jail."]
    assert said_for(session, recorder, "where car") == ["Car is on Connecticut Avenue."]
    assert said_for(session, recorder, "standings") == [
        "Standings by net worth: 1. Hat, worth 1,500 (1,500 cash, just visiting Jail);"
        " 2. Car, worth 1,470 (1,320 cash, on Connecticut Avenue)."]


def test_golden_conversation_a_monopoly_game_as_a_play_script():
    """tests/data/monopoly-conversation.txt: typed lines ('> ...') and, after each, exactly
    what is said. A change of wording shows here as a change of the script."""
    from pathlib import Path

    script = Path(__file__).parent / "data" / "monopoly-conversation.txt"
    lines = [line for line in script.read_text(encoding="utf-8").splitlines()
             if line and not line.startswith("#")]
    session, recorder = start(("Car", "Hat", "Dog"))
    expected: list[str] = []
    heard = list(recorder.texts)
    for line in lines:
        if line.startswith("> "):
            expected.append(line)
            heard.append(line)
            heard += said_for(session, recorder, line[2:])
        else:
            expected.append(line)
    assert heard == expected


def test_manual_end_of_turn_is_asked_in_one_sentence():
    session, recorder = start(end_turn="manual")
    session.command("roll 1 2")
    assert said_for(session, recorder, "buy") == [
        "Car buys Baltic Avenue for 60.", "Car: build, sell, mortgage or trade, or say end."]
    assert said_for(session, recorder, "end") == ["Hat's turn."]


def test_a_card_named_when_none_is_drawn_says_so_first():
    session, recorder = start()
    # was: '"jail" could be more than one Chance or Community Chest card: did you mean ...'
    assert said_for(session, recorder, "card jail") == [
        "No card is expected now. Car to throw the dice."]
    assert said_for(session, recorder, "card advance to go") == [
        "No card is expected now. Car to throw the dice."]
