"""Crazy Eights (rulebook 000): the deal, matching rank or suit, eights and the called suit,
drawing, the empty stock, going out and the penalty count; deal=hidden and deal=read; refusals
that change nothing; random full games."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from companion.engine import CHANCE, Draw, GameOver, IllegalAction
from companion.games import find
from companion.games.crazy_eights.events import (
    Blocked,
    CardPlayed,
    FalsePass,
    HandScored,
    StockTurned,
    UpCard,
    WentOut,
)
from companion.games.crazy_eights.state import DrawCard, Pass, Play, matches, penalty

CrazyEights = find("crazy-eights")
NAMES = ("Red", "Blue", "Green", "Yellow")


def new(n: int = 3, **options):
    game = CrazyEights(list(NAMES[:n]), options)
    return game, game.new_state()


def do(game, state, *lines: str) -> list:
    events = []
    for line in lines:
        events += state.apply(game.parse_action(state, line))
    return events


def refused(game, state, line: str, fragment: str) -> None:
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as err:
        state.apply(game.parse_action(state, line))
    assert fragment.lower() in err.value.reason.lower(), err.value.reason
    assert json.dumps(state.to_json(), sort_keys=True) == before


def deal(state, hands: dict[int, list[str]], up: str) -> list:
    """deal=read: read the given hands in deal order (singly from the dealer's left), then
    the up card."""
    taken = {p: 0 for p in hands}
    while state.phase == "deal":
        p = state.deal_target()
        state.apply(Draw(hands[p][taken[p]]))
        taken[p] += 1
    return state.apply(Draw(up))


HANDS = {
    1: ["5H", "8C", "KH", "2S", "9D"],
    2: ["5S", "7S", "QD", "AC", "JH"],
    0: ["3C", "10H", "4D", "6S", "KS"],
}


def test_five_cards_each_seven_with_two_players_dealt_singly_from_the_dealers_left():
    game, state = new(3, deal="read")
    assert state.each == 5 and state.deal_target() == 1
    state.apply(Draw("5H"))
    assert state.hands[1] == ["5H"] and state.deal_target() == 2
    game2, state2 = new(2, deal="read")
    assert state2.each == 7
    game, state = new(3, deal="read")
    events = deal(state, HANDS, "6H")
    assert events == [UpCard("6H", False)]
    assert events[0].describe(NAMES) == "The six of hearts starts the discard pile."
    assert state.turn == 1 and state.stock_n == 52 - 15 - 1


def test_play_matches_the_rank_or_suit_of_the_previous_card():
    game, state = new(3, deal="read")
    deal(state, HANDS, "6H")
    refused(game, state, "2S", "matches neither the rank nor the suit of the six of hearts")
    refused(game, state, "QD", "green holds it")
    do(game, state, "KH")  # a heart
    refused(game, state, "5S", "matches neither")
    do(game, state, "JH")
    do(game, state, "10H")
    assert state.top() == "10H" and state.turn == 1
    assert matches("KS", "KH", "") and matches("2H", "KH", "") and not matches("2S", "KH", "")


def test_an_eight_goes_on_anything_and_calls_the_suit_to_follow():
    game, state = new(3, deal="read")
    deal(state, HANDS, "6H")
    refused(game, state, "spades", "a suit is named with an eight")  # no eight is down
    refused(game, state, "5H spades", "only an eight calls a suit")
    events = do(game, state, "8C spades")
    assert events[0] == CardPlayed(1, "8C", "S", 4)
    assert events[0].describe(NAMES) == "Blue plays the eight of clubs and calls spades."
    refused(game, state, "QD", "spades were called")
    do(game, state, "7S")
    assert state.called == ""


def test_on_an_eight_any_card_of_the_called_suit_not_its_own_suit():
    assert matches("5D", "8C", "D")
    assert not matches("5C", "8C", "D")
    assert matches("8H", "8C", "D")  # an eight on an eight


def test_draw_one_card_and_the_turn_ends():
    game, state = new(3, deal="read")
    deal(state, HANDS, "6H")
    do(game, state, "draw")
    assert state.current_player() == CHANCE and state.chance().who == 1
    refused(game, state, "5H", "cannot come now: Blue holds it")
    do(game, state, "2H")
    assert state.turn == 2 and "2H" in state.hands[1] and len(state.hands[1]) == 6


def test_draw_then_play_the_card_drawn():
    game, state = new(3, deal="read", draw="one-then-play")
    deal(state, HANDS, "6H")
    do(game, state, "draw", "6C")
    assert state.turn == 1
    refused(game, state, "draw", "only one card")
    refused(game, state, "KH", "only the card drawn")
    do(game, state, "6C")
    assert state.turn == 2
    do(game, state, "draw", "2D", "pass")  # keeps the card
    assert state.turn == 0


def test_draw_until_you_can_play():
    game, state = new(3, deal="read", draw="until")
    deal(state, HANDS, "3H")
    do(game, state, "5H")
    refused(game, state, "pass", "cards in the stock")
    do(game, state, "draw", "2D")  # Green holds 5S, which matches the five
    refused(game, state, "draw", "can play now")
    do(game, state, "5S")
    assert state.turn == 0


def test_an_eight_turned_up_first_is_buried():
    game, state = new(3, deal="read")
    events = deal(state, HANDS, "8D")
    assert events == [UpCard("8D", True)] and state.phase == "up"
    assert "8D" not in state.chance().cards
    state.apply(Draw("9S"))
    assert state.top() == "9S"
    game, state = new(3, deal="read", first_eight="any")
    deal(state, HANDS, "8D")
    assert state.top() == "8D" and state.called == ""
    do(game, state, "2S")  # any card on the first eight


def test_penalty_points_fifty_for_an_eight_ten_for_a_picture_spot_cards_face_value():
    assert [penalty(c) for c in ("8C", "KD", "QH", "JS", "10H", "AS", "3C")] == [
        50, 10, 10, 10, 10, 1, 3]


def test_a_hand_played_out_is_counted():
    game, state = new(2, deal="read")
    hands = {1: ["5H", "5S", "5D", "5C", "6C", "7C", "9C"],
             0: ["9H", "9S", "9D", "6S", "7S", "2S", "KD"]}
    deal(state, hands, "4H")
    events = do(game, state, "5H", "9H", "9C", "9S", "5S", "6S", "6C", "draw", "AD", "5C",
                "draw", "JS", "5D", "9D", "draw", "QC", "KD", "draw", "KC", "AD", "draw", "AC",
                "draw", "3S", "AC", "draw", "4C", "7C", "4C", "QC", "draw", "QS")
    assert not state.is_terminal()
    events = do(game, state, "KC")
    assert events[:2] == [CardPlayed(1, "KC", "", 0), WentOut(1)]
    scored = next(e for e in events if isinstance(e, HandScored))
    assert scored.winners == (1,) and scored.penalties == (32, 0)  # 7S 2S JS 3S QS
    assert scored.describe(NAMES) == "Blue wins hand 1. Penalty points: Red 32."
    assert state.is_terminal() and state.winners() == (1,)
    over = next(e for e in events if isinstance(e, GameOver))
    assert over.describe(NAMES) == "Blue wins the game!"


def test_hidden_cards_learned_when_played_and_read_for_the_count():
    game, state = new(2)
    assert state.phase == "up" and state.unknown == [7, 7] and state.stock_n == 38
    do(game, state, "6H")
    refused(game, state, "6H", "discard pile")
    refused(game, state, "2S", "matches neither")
    do(game, state, "6S", "draw", "7S", "draw")
    assert state.unknown == [9, 5] and state.stock_n == 38 - 1 - 2
    for c in ["AS", "2S", "3S", "4S", "5S"]:
        do(game, state, c)
        if state.phase == "play" and c != "5S":
            do(game, state, "draw")
    assert state.phase == "show" and state.unknown[1] == 0
    assert state.chance().who == 0
    refused(game, state, "5S", "discard pile")
    assert state.unknown[0] == 13
    for c in ["KH", "KD", "KC", "QS", "QH", "QD", "QC", "JS", "JH", "JD", "JC", "10H", "10D"]:
        events = do(game, state, c)
    scored = next(e for e in events if isinstance(e, HandScored))
    assert scored.penalties[0] == 10 * state.unknown[0]


def test_empty_stock_pass_and_a_blocked_hand():
    game, state = new(2)
    do(game, state, "6H")
    state.stock_n = 0  # the stock has run out
    refused(game, state, "draw", "stock is empty")
    events = do(game, state, "pass")
    assert state.claims[1] and state.turn == 0
    events = do(game, state, "pass")
    assert Blocked() in events and state.phase == "show"
    assert state.show_queue()[0] == 1  # from the dealer's left
    events = do(game, state, "7H")  # cards shown for the count are not plays: no note
    assert not any(isinstance(e, FalsePass) for e in events)
    assert "6H" not in state.chance().cards  # the discard pile cannot be in a hand


def test_hidden_a_pass_proved_false_by_a_later_play():
    game, state = new(3)
    do(game, state, "6H")
    do(game, state, "7H", "7S", "7D")  # Blue, Green, Red
    state.stock_n = 0
    do(game, state, "pass")  # Blue on the seven of diamonds
    do(game, state, "2D", "3D")  # Green, Red
    events = do(game, state, "4D")  # Blue plays a diamond: Blue could have played one
    assert FalsePass(1, "4D", "7D") in events
    assert FalsePass(1, "4D", "7D").describe(NAMES) == (
        "Note: Blue passed on the seven of diamonds while holding the four of diamonds,"
        " which could have been played.")


def test_read_a_pass_is_refused_while_a_card_can_be_played():
    game, state = new(3, deal="read")
    deal(state, HANDS, "6H")
    state.stock_n = 0
    refused(game, state, "pass", "can play, so must")
    refused(game, state, "draw", "stock is empty")


def test_reshuffle_turns_the_discards_over():
    game, state = new(3, deal="read", empty_stock="reshuffle")
    deal(state, HANDS, "6H")
    do(game, state, "KH", "JH", "10H")
    state.stock_n = 0
    events = do(game, state, "draw")
    assert StockTurned(3) in events and state.discard == ["10H"] and state.stock_n == 2
    assert set(state.chance().cards) >= {"6H", "KH", "JH"}


def test_a_game_to_a_penalty_target():
    rng = random.Random(3)
    game, state = new(3, to=60)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    assert max(state.totals) >= 60
    assert all(state.totals[w] == min(state.totals) for w in state.winners())
    assert len(state.history) >= 1


def test_words_and_queries():
    game, state = new(3, deal="read")
    deal(state, HANDS, "6H")
    assert state.choices_text() == "Playable: five of hearts, eight of clubs, king of hearts."
    assert state.choices_after_move() == ""
    assert game.query(state, "held") == "Cards held: Red 5, Blue 5, Green 5."
    assert game.query(state, "value 8C KD 3C") == "63 penalty points."
    refused(game, state, "8C purple", "not a suit")
    assert game.parse_action(state, "8C ♥") == Play(1, "8C", "H")
    assert game.parse_action(state, "play 8c spade") == Play(1, "8C", "S")
    assert game.parse_action(state, "draw") == DrawCard(1)
    assert game.parse_action(state, "pass") == Pass(1)


# --------------------------------------------------------------------------- random games

SPACE: dict[str, list[Any]] = {
    "deal": ["hidden", "read"], "draw": ["one", "one-then-play", "until"],
    "first_eight": ["bury", "any"], "to": [0, 0, 50], "empty_stock": ["pass", "pass", "reshuffle"],
}


def _random_games(seed: int, count: int) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        options = {k: rng.choice(v) for k, v in SPACE.items()}
        game, state = new(rng.randint(2, 4), **options)
        # With reshuffle there is no bound: cap the game (preferring plays, random games end).
        limit = 20_000 if options["empty_stock"] == "reshuffle" else game.max_length()
        steps = 0
        while not state.is_terminal() and steps < limit:
            if state.current_player() == CHANCE:
                action = state.sample_chance(rng)
            else:
                actions = state.legal_actions()
                assert actions, state.expected()
                plays = [a for a in actions if isinstance(a, Play)]
                # Prefer playing, as people do: random drawing alone can go on and on.
                action = rng.choice(plays if plays and rng.random() < 0.8 else actions)
                if state.read and rng.random() < 0.2:
                    for c in state.hands[state.turn]:
                        bad = Play(state.turn, c, "S" if c.startswith("8") else "")
                        if not any(isinstance(a, Play) and a.card == c for a in actions):
                            before = state.to_json()
                            with pytest.raises(IllegalAction):
                                state.apply(bad)
                            assert state.to_json() == before
            state.apply(action)
            steps += 1
            if state.read and state.phase == "play":  # every card is somewhere
                held = sum(len(h) for h in state.hands)
                assert held + len(state.discard) + state.stock_n == 52
        assert state.is_terminal(), "a game with passes must end"
        assert state.winners()
        json.dumps(state.to_json())


@pytest.mark.parametrize("seed", range(3))
def test_random_full_games(seed):
    _random_games(seed, 150)


@pytest.mark.slow
def test_thousands_of_random_games():
    _random_games(99, 2000)


# --------------------------------------------------------------------------- hidden = read


@pytest.mark.parametrize("seed", range(40))
def test_hidden_accepts_every_legal_game_and_scores_it_the_same(seed):
    """A game with every card read, given to a deal=hidden game (the up cards, the plays and
    draws, and at the end the cards left): all accepted, no false pass, the same scores."""
    rng = random.Random(seed)
    options = {k: rng.choice(v) for k, v in SPACE.items() if k not in ("deal", "empty_stock")}
    n = rng.randint(2, 5)
    game, read = new(n, deal="read", **options)
    script: list = []
    while not read.is_terminal():
        hand = read.hand_number
        if read.current_player() == CHANCE:
            phase = read.phase
            action = read.sample_chance(rng)
            if phase == "up":
                script.append(action)
        else:
            actions = read.legal_actions()
            plays = [a for a in actions if isinstance(a, Play)]
            action = rng.choice(plays if plays and rng.random() < 0.8 else actions)
            script.append(action)
        left = [list(h) for h in read.hands]
        read.apply(action)
        if read.hand_number != hand or read.is_terminal():
            script.append(("show", left))  # the hidden game reads the cards left
    game, hidden = new(n, deal="hidden", **options)
    for item in script:
        if isinstance(item, tuple):
            left = item[1]
            while hidden.phase == "show":
                p = hidden.show_queue()[0]
                hidden.apply(Draw(left[p][len(hidden.shown[p])]))
            continue
        events = hidden.apply(item)
        assert not any(isinstance(e, FalsePass) for e in events)
    assert hidden.is_terminal()
    assert hidden.totals == read.totals and hidden.winners() == read.winners()
    assert [h["winners"] for h in hidden.history] == [h["winners"] for h in read.history]


# --------------------------------------------------------------------------- a session


def test_a_session_with_typed_cards_a_reader_undo_and_resume():
    from companion.journal import Journal
    from companion.observations import CardSeen
    from companion.session import Session
    from companion.voice import Recorder

    recorder = Recorder()
    session = Session.start(CrazyEights(["Red", "Blue", "Green"]), Journal.memory(), recorder,
                            seed=1)
    assert session.submit(CardSeen(source="reader", card="6H")).accepted  # the up card
    assert session.command("7H").accepted
    reply = session.command("9D")
    assert not reply.accepted and "matches neither" in reply.text
    assert session.submit(CardSeen(source="reader", card="7S")).accepted  # Green plays
    reply = session.submit(CardSeen(source="reader", card="8C"))  # the suit is asked for
    assert reply.accepted and recorder.texts[-1] == ("Red plays the eight of clubs. Red, name a"
                                                     " suit.")
    session.undo()
    before = json.dumps(session.state.to_json(), sort_keys=True)
    assert session.command("8C hearts").accepted
    assert recorder.texts[-1] == "Red plays the eight of clubs and calls hearts."
    session.undo()
    assert json.dumps(session.state.to_json(), sort_keys=True) == before
    assert session.command("draw").accepted
    resumed = Session.resume(session.journal, Recorder())
    assert resumed.state.to_json() == session.state.to_json()
