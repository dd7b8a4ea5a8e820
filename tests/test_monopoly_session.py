"""Monopoly at the table: typed commands through a real Session, queries and variants."""

from __future__ import annotations

import pytest

from companion.engine import CHANCE, IllegalAction, Shuffle, Throw
from companion.games.monopoly import actions as A
from companion.games.monopoly.edition import load_edition
from companion.games.monopoly.game import Monopoly
from companion.journal import Journal
from companion.session import Session
from companion.voice import Recorder
from tests.test_monopoly import CAR, DOG, HAT, SHIP, S, at, give, new, said


def session(players=("Car", "Hat", "Dog", "Ship"), **opts):
    recorder = Recorder()
    game = Monopoly(list(players), {"cards": "physical", "rent": "auto", **opts})
    return Session.start(game, Journal.memory(), announcer=recorder), recorder


def test_a_turn_typed_at_the_console():
    s, rec = session()
    assert s.command("roll 6 2").accepted
    assert "Car throws six and two, eight, to Vermont Avenue." in rec.texts
    assert "Unowned, 100 dollars: buy or auction?" in rec.texts
    assert s.command("buy").accepted
    assert "Car buys Vermont Avenue for 100." in rec.texts
    assert s.command("balance").text.startswith("Car has 1,400; Hat has 1,500")
    assert s.command("owns Car").text == "Car owns Vermont Avenue."
    assert s.command("rent vermont").text == "Vermont Avenue: rent 6 to Car."
    reply = s.command("buy")
    assert not reply.accepted and "Nothing is for sale" in reply.text


def test_auction_and_refusals_spoken():
    s, rec = session(("Car", "Hat"))
    s.command("roll 6 2")
    s.command("auction")
    assert s.command("bid Hat 50").accepted
    reply = s.command("bid Car 40")
    assert not reply.accepted and "must beat 50" in reply.text
    s.command("pass Car")
    assert "Hat wins Vermont Avenue at auction for 50." in rec.texts
    reply = s.command("build Vermont Avenue")
    assert not reply.accepted and "needs the whole Light Blue group" in reply.text


def test_undo_and_resume_replay_the_game():
    s, rec = session(("Car", "Hat"))
    s.command("roll 6 2")
    s.command("buy")
    s.command("roll 1 2")
    s.undo()
    assert s.state.to_json()["players"][1]["position"] == 0
    resumed = Session.resume(s.journal, Recorder())
    assert resumed.state.to_json() == s.state.to_json()


def test_why_explains_the_last_amount():
    game, st = new()
    give(st, CAR, "Park Place", "Boardwalk")
    st.bld[S["Park Place"]] = 3
    at(st, DOG, 31)
    st.apply(Throw((3, 3)))
    assert game.query(st, "why") == "Rent 1,100: Park Place with three houses."
    assert game.query(st, "worth Car").startswith(
        "Car: total worth 3,950: cash 2,600, properties 750, buildings 600")
    assert game.query(st, "rent Boardwalk") == (
        "Boardwalk: rent 100 to Car (Boardwalk, unimproved in the complete Dark Blue group,"
        " 50 doubled).")
    assert game.query(st, "nonsense") is None


@pytest.mark.parametrize("text,action", [
    ("buy", A.Buy(CAR)),
    ("auction", A.Auction(CAR)),
    ("bid Hat 150", A.Bid(HAT, 150)),
    ("pass Dog", A.Pass(DOG)),
    ("build Park Place", A.Build(SHIP, 37)),
    ("build hotel park place", A.Build(SHIP, 37, True)),
    ("sell Park Place", A.SellBuilding(SHIP, 37)),
    ("sell Park Place to 0", A.SellGroup(SHIP, 37, 0)),
    ("mortgage Baltic Avenue", A.Mortgage(DOG, 3)),
    ("lift baltic", A.Unmortgage(DOG, 3)),
    ("trade Car Hat give Boardwalk take 300", A.Trade(CAR, HAT, (39,), (), 0, 300)),
    ("trade Dog Car give Baltic, 50 take card", A.Trade(DOG, CAR, (3,), (), 50, 0, (),
                                                        ("chance:GET-OUT-OF-JAIL-FREE",))),
    ("accept", A.Accept(CAR)),
    ("pay fine", A.PayFine(CAR)),
    ("use card", A.UseCard(CAR)),
    ("tax 10%", A.ChooseTax(CAR, True)),
    ("tax 200", A.ChooseTax(CAR, False)),
    ("auction house", A.AuctionBuilding(CAR, False)),
    ("bankrupt", A.DeclareBankruptcy(CAR)),
])
def test_parse_commands(text, action):
    game, st = new()
    give(st, SHIP, "Park Place")
    give(st, CAR, "Boardwalk")
    give(st, DOG, "Baltic Avenue")
    st.held[CAR].append("chance:GET-OUT-OF-JAIL-FREE")
    assert game.parse_action(st, text) == action


def test_parse_refuses_with_reasons():
    game, st = new()
    with pytest.raises(IllegalAction, match="no space called 'Atlantis'"):
        game.parse_action(st, "build Atlantis")
    with pytest.raises(IllegalAction, match="belongs to the Bank"):
        game.parse_action(st, "mortgage Boardwalk")
    with pytest.raises(IllegalAction, match="don't know the command"):
        game.parse_action(st, "fly")


# ---------------------------------------------------------------- variants


def test_short_game_deals_three_free_deeds_and_builds_hotels_on_three_houses():
    game, st = new(("Car", "Hat"), variant="short")
    request = st.chance()
    assert request.kind == "shuffle" and request.deck == "deeds"
    ed = game.edition
    order = tuple(ed.names[s] for s in ed.properties)
    ev = st.apply(Shuffle("deeds", order))
    assert said(game, ev)[0] == (
        "Car is dealt Mediterranean Avenue, Reading Railroad and Vermont Avenue free.")
    assert st.cash == [1500, 1500] and st.current_player() == CHANCE
    give(st, CAR, "Park Place", "Boardwalk")
    st.bld[S["Park Place"]] = 3
    st.bld[S["Boardwalk"]] = 3
    st.bank_houses -= 6
    st.apply(A.Build(CAR, S["Boardwalk"], hotel=True))
    assert st.bld[S["Boardwalk"]] == 5 and st.bank_houses == 29
    # valuation: hotel counts the three houses turned in
    from companion.games.monopoly.rent import valuation

    assert valuation(st, CAR) == 1500 - 200 + 60 + 200 + 100 + 350 + 400 + 3 * 200 + 4 * 200


def test_short_game_jail_exit_on_the_next_turn_and_flat_tax():
    game, st = new(("Car", "Hat"), variant="short")
    st.apply(Shuffle("deeds", tuple(game.edition.names[s] for s in game.edition.properties)))
    st.pos[CAR] = 10
    st.jail[CAR] = True
    st.apply(Throw((1, 2)))  # first failure: pay and move at once
    assert not st.jail[CAR] and st.pos[CAR] == 13 and st.cash[CAR] == 1450
    st.apply(A.Buy(CAR))
    st.apply(Throw((1, 3)))  # Hat to Income Tax
    assert st.cash[HAT] == 1300  # Income Tax is a flat 200


def test_short_game_ends_at_the_first_bankruptcy_richest_wins():
    game, st = new(("Car", "Hat", "Dog"), variant="short")
    st.apply(Shuffle("deeds", tuple(game.edition.names[s] for s in game.edition.properties)))
    st.owner[S["Boardwalk"]] = CAR
    st.bld[S["Boardwalk"]] = 5
    st.cash[DOG] = 10
    at(st, DOG, 33)
    st.apply(Throw((3, 3)))
    ev = st.apply(A.DeclareBankruptcy(DOG))
    assert st.is_terminal() and st.winners() == (CAR,)
    assert "Valuation: Car" in said(game, ev)[-1]


def test_time_limit_game_deals_two_paid_deeds_and_ends_when_time_is_up():
    game, st = new(("Car", "Hat"), variant="time-limit")
    ed = game.edition
    st.apply(Shuffle("deeds", tuple(reversed([ed.names[s] for s in ed.properties]))))
    assert st.owner[39] == CAR and st.owner[37] == HAT
    assert st.cash == [1500 - 400 - 200, 1500 - 350 - 320]  # Short Line, Pennsylvania Ave
    assert game.parse_action(st, "time up") == A.TimeUp()
    st.cash[HAT] -= 1  # otherwise both are worth 1,500 and share the win
    st.apply(A.TimeUp())
    assert st.is_terminal() and st.winners() == (CAR,)


def test_time_up_only_in_the_time_limit_game():
    game, st = new()
    with pytest.raises(IllegalAction, match="Time Limit"):
        st.apply(A.TimeUp())


def test_rent_claim_rule_lapses_when_the_second_player_following_throws():
    game, st = new(("Car", "Hat", "Dog"), rent="claim")
    give(st, CAR, "Baltic Avenue")
    at(st, HAT, 0)
    ev = st.apply(Throw((1, 2)))
    assert any("Car may claim 4 rent from Hat" in t for t in said(game, ev))
    assert st.cash[HAT] == 1500
    st.apply(Throw((2, 3)))  # Dog, the first player following, throws: still claimable
    st.apply(A.Auction(DOG))
    for p in (CAR, HAT, DOG):
        st.apply(A.Pass(p))
    st2 = st.clone()
    st2.apply(A.Claim(CAR))
    assert st2.cash[HAT] == 1496 and st2.cash[CAR] == 1504
    ev = st.apply(Throw((1, 3)))  # Car, the second player following, throws
    assert any("Too late" in t for t in said(game, ev))
    with pytest.raises(IllegalAction, match="no rent to claim"):
        st.apply(A.Claim(CAR))


def test_rent_is_claimed_by_default_as_the_rulebook_prints():
    """000: "The owner may not collect the rent if he/she fails to ask for it before the
    second player following throws the dice." The text is not silent, so the printed rule is
    the default; the Bank collecting by itself is the option rent=auto."""
    game = Monopoly(["Car", "Hat", "Dog"], {"cards": "physical"})
    assert game.options["rent"] == "claim"
    st = game.new_state()
    give(st, CAR, "Baltic Avenue")
    at(st, HAT, 0)
    ev = st.apply(Throw((1, 2)))
    assert any("Car may claim 4 rent from Hat" in t for t in said(game, ev))
    assert st.cash[HAT] == 1500 and st.cash[CAR] == 1500  # nothing moves unasked
    st.apply(A.Claim(CAR))
    assert st.cash[HAT] == 1496 and st.cash[CAR] == 1504


# ---------------------------------------------------------------- Times Square


def test_times_square_edition_is_data():
    ed = load_edition("times-square")
    assert ed.houses == 33 and ed.hotels == 12
    assert ed.words["houses"] == "high rises" and ed.words["railroads"] == "Street Signs"
    assert ed.deck_names == {"chance": 'TOYS"R"US', "chest": "MANHATTAN"}
    assert "Geoffrey Giraffe" in ed.tokens
    assert ed.names[25] == "Broadway" and ed.names[26].startswith("Teens World")


def test_ferris_wheel_rides_to_the_next_unowned_property():
    # the rulebook's example: Action Adventure and Broadway owned, Teens World, Sports not
    game = Monopoly(["Alice", "Bob"], {"edition": "times-square", "ferris_wheel": True,
                                       "cards": "physical"})
    st = game.new_state()
    for s in (21, 23, 24, 25):
        st.owner[s] = 1
    at(st, 0, 16)
    ev = st.apply(Throw((1, 3)))
    texts = said(game, ev)
    assert "Alice rides the Ferris Wheel to Teens World, Sports." in texts
    assert st.pos[0] == 26 and texts[-1] == "Unowned, 260 dollars: buy or auction?"


def test_times_square_buildings_words():
    game = Monopoly(["Alice", "Bob"], {"edition": "times-square", "cards": "physical"})
    st = game.new_state()
    for s in (37, 39):
        st.owner[s] = 0
    ev = st.apply(A.Build(0, 39))
    assert said(game, ev) == ["Alice pays 200: Times Square Flagship Entrance now has one"
                              " high rise."]


def test_unknown_edition_file_is_a_clear_error():
    with pytest.raises(FileNotFoundError):
        Monopoly(["A", "B"], {"edition": "atlantis"})


def test_deeds_dealt_by_hand_in_the_short_game():
    s, rec = session(("Car", "Hat"), variant="short")
    reply = s.command("deal Car Boardwalk, Park Place")
    assert not reply.accepted and "3 different title deeds" in reply.text
    assert s.command("deal Car Boardwalk, Park Place, Baltic Avenue").accepted
    reply = s.command("deal Hat Boardwalk, Reading Railroad, Water Works")
    assert not reply.accepted and "was dealt to Car already" in reply.text
    assert s.command("deal Hat Short Line, Reading Railroad, Water Works").accepted
    assert "Hat is dealt Short Line, Reading Railroad and Water Works free." in rec.texts
    assert s.state.current_player() == CHANCE and s.state.chance().kind == "dice"
    assert s.state.cash == [1500, 1500]


def test_simulate_json_and_the_shape_of_the_landing_fractions(capsys):
    import json

    from companion.games.monopoly.simulate import main, simulate

    assert main(["--rolls", "3000", "--seed", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rolls"] == 3000 and data["games"] >= 1 and len(data["landing"]) == 41
    assert abs(sum(data["landing"]) - 1) < 1e-9 and data["landing"][30] == 0
    leave = simulate(40_000, 5, "leave")["landing"]
    stay = simulate(40_000, 5, "stay")["landing"]
    assert stay[40] > 2 * leave[40]  # staying in Jail: about 9.5% against 4%
    chance = min(leave[7], leave[22], leave[36])
    assert max(leave[7], leave[22], leave[36]) < 0.0125
    assert all(leave[s] > chance for s in range(40) if s not in (7, 22, 30, 36))


def test_manual_end_of_turn_option():
    game, st = new(("Car", "Hat"), end_turn="manual")
    give(st, CAR, "Oriental Avenue", "Vermont Avenue", "Connecticut Avenue")
    st.apply(Throw((1, 2)))  # Car to Baltic Avenue
    st.apply(A.Auction(CAR))
    st.apply(A.Pass(HAT))
    st.apply(A.Pass(CAR))
    assert st.current_player() == CAR and st.turn == CAR
    legal = st.legal_actions()
    assert legal[0] == A.EndTurn(CAR) and A.Build(CAR, S["Oriental Avenue"]) in legal
    assert st.choices_text() == "Car: build, sell, mortgage or trade, or say end."
    with pytest.raises(IllegalAction, match="No throw is expected"):
        st.apply(Throw((1, 2)))
    st.apply(A.Build(CAR, S["Oriental Avenue"]))
    assert game.parse_action(st, "end") == A.EndTurn(CAR)
    st.apply(A.EndTurn(CAR))
    assert st.turn == HAT and st.current_player() == CHANCE
    with pytest.raises(IllegalAction, match="no turn to end"):
        st.apply(A.EndTurn(HAT))


def test_virtual_cards_are_drawn_when_they_come_journaled_and_resume_exactly():
    recorder = Recorder()
    game = Monopoly(["Car", "Hat"], {"cards": "virtual"})
    s = Session.start(game, Journal.memory(), announcer=recorder,
                      auto_chance=frozenset({"card", "shuffle"}))
    assert s.state.chance().kind == "dice"
    assert list(s.journal.entries()) == []  # no deck order exists before a card is drawn
    s.command("roll 3 4")  # Chance
    draw = list(s.journal.entries())[-1]
    assert draw.source == "virtual" and draw.payload["type"] == "Draw"  # the outcome, kept
    card = draw.payload["card"]
    assert s.state.decks["chance"] == ([] if card == "GET-OUT-OF-JAIL-FREE" else [card])
    assert len(s.state.unseen("chance")) == 15 and card not in s.state.unseen("chance")
    view = s.state.to_json()["decks"]
    assert view == {"chance": {"cards": 16 - (card == "GET-OUT-OF-JAIL-FREE"), "unseen": 15},
                    "chest": {"cards": 16, "unseen": 16}}  # counts, never an order
    resumed = Session.resume(s.journal, Recorder())
    assert resumed.state.to_json() == s.state.to_json()  # replay uses the journaled card
    s.undo()  # the card goes with the throw that drew it
    assert s.state.decks["chance"] == [] and len(s.state.unseen("chance")) == 16


def test_a_journal_with_virtual_decks_shuffled_at_the_start_still_replays():
    ed = load_edition()
    order = tuple(reversed([c.id for c in ed.decks["chance"]]))
    st = Monopoly(["Car", "Hat"], {"cards": "virtual"}).new_state()
    st.apply(Shuffle("chance", order))  # as journals written before drawing per card hold
    st.apply(Shuffle("chest", tuple(c.id for c in ed.decks["chest"])))
    st.apply(Throw((3, 4)))  # Chance: the top card of that order, no draw asked for
    assert st.chance() is None or st.chance().kind == "dice"
    assert order[0] in st.decks["chance"][-1:] or st.held[0]
    with pytest.raises(IllegalAction, match="in play already"):
        st.apply(Shuffle("chance", order))
