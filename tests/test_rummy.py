"""Rummy (rulebook 000, Basic Rummy): the deal, the draw, melds (groups and sequences), laying
off without rearranging, the discard, the turned-over stock, going out, the count, the game's
end; deal=hidden and deal=read; refusals that change nothing; random games."""

from __future__ import annotations

import json
import random

import pytest

from companion.engine import CHANCE, Draw, GameOver, IllegalAction
from companion.games import find
from companion.games.rummy import melds as M
from companion.games.rummy.events import (
    Discarded,
    HandScored,
    LaidOff,
    Melded,
    StockTurned,
    WentOut,
)
from companion.games.rummy.state import (
    Discard,
    LayOff,
    Meld,
    RummyState,
    TakeDiscard,
    TakeStock,
)

Rummy = find("rummy")
NAMES = ("Red", "Blue", "Green", "Yellow", "Purple", "Orange")


def new(n: int = 2, **options):
    game = Rummy(list(NAMES[:n]), options)
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


def deal(state, hands: dict[int, list[str]], up: str) -> None:
    taken = {p: 0 for p in hands}
    while state.phase == "deal":
        p = state.deal_target()
        state.apply(Draw(hands[p][taken[p]]))
        taken[p] += 1
    state.apply(Draw(up))


HANDS = {  # two players: Blue (non-dealer) first
    1: ["4C", "5C", "6C", "7D", "7H", "7S", "KH", "QS", "2D", "9H"],
    0: ["AS", "2S", "3S", "8H", "8D", "JC", "10C", "5H", "6D", "3H"],
}


# --------------------------------------------------------------------------- melds


def test_sequences_and_groups_from_the_rulebook():
    assert M.is_meld(["4C", "5C", "6C"])
    assert M.is_meld(["8H", "9H", "10H", "JH"])
    assert M.is_meld(["7D", "7H", "7S"])
    assert M.is_meld(["7D", "7H", "7S", "7C"])
    assert not M.is_meld(["4C", "5C"])  # three or more
    assert not M.is_meld(["4C", "5C", "6D"])  # same suit
    assert not M.is_meld(["4C", "5C", "7C"])  # consecutive
    assert not M.is_meld(["7D", "7H", "8S"])


def test_ace_is_low_q_k_a_only_with_ace_high_never_round_the_corner():
    assert M.is_meld(["AS", "2S", "3S"])
    assert not M.is_meld(["QS", "KS", "AS"])
    assert M.is_meld(["QS", "KS", "AS"], ace_high=True)
    assert not M.is_meld(["KS", "AS", "2S"], ace_high=True)
    assert M.arranged(["AS", "KS", "QS"], ace_high=True) == ["QS", "KS", "AS"]


def test_laying_off_makes_another_valid_meld():
    assert M.fits(["4C", "5C", "6C"], "3C") and M.fits(["4C", "5C", "6C"], "7C")
    assert not M.fits(["4C", "5C", "6C"], "8C") and not M.fits(["4C", "5C", "6C"], "7D")
    assert M.fits(["7D", "7H", "7S"], "7C")
    # The rulebook's example: the 2♣ in a group cannot be moved to the sequence for the A♣.
    assert not M.fits(["3C", "4C", "5C"], "AC")


def test_card_values_face_ten_ace_one_numbers_spot():
    assert [M.value(c) for c in ("KH", "QS", "JD", "AC", "10H", "7S")] == [10, 10, 10, 1, 10, 7]


# --------------------------------------------------------------------------- the deal


def test_deal_sizes_two_ten_three_or_four_seven_five_or_six_six():
    for n, each in ((2, 10), (3, 7), (4, 7), (5, 6), (6, 6)):
        game, state = new(n)
        assert state.each == each and state.unknown == [each] * n
        assert state.stock_size() == 52 - n * each


def test_the_deal_is_read_one_at_a_time_and_the_next_card_starts_the_pile():
    game, state = new(2, deal="read")
    assert state.deal_target() == 1  # the non-dealer
    deal(state, HANDS, "KD")
    assert state.discard == ["KD"] and state.stock_size() == 31
    assert state.turn == 1 and state.stage == "draw"
    game, state = new(3, deal="read", dealer=1)
    assert state.deal_target() == 2 and state.turn == 2


# --------------------------------------------------------------------------- a turn


def test_draw_first_then_meld_lay_off_and_discard():
    game, state = new(2, deal="read")
    deal(state, HANDS, "KD")
    refused(game, state, "meld 4C 5C 6C", "first draw")
    refused(game, state, "discard 2D", "first draw")
    do(game, state, "draw")
    assert state.current_player() == CHANCE
    refused(game, state, "KD", "discard pile")
    do(game, state, "3C")
    refused(game, state, "draw", "drawn already")
    events = do(game, state, "meld 4C 5C 6C")
    assert events[0] == Melded(1, ("4C", "5C", "6C"), 1, "sequence")
    assert events[0].describe(NAMES) == (
        "Blue melds a sequence: four of clubs, five of clubs and six of clubs (meld 1).")
    refused(game, state, "meld 7D 7H 7S", "only one meld a turn")
    events = do(game, state, "lay 3C")
    assert events == [LaidOff(1, "3C", 1)]
    assert state.melds[0]["cards"] == ["3C", "4C", "5C", "6C"]
    refused(game, state, "lay 9H 1", "does not fit meld 1")
    refused(game, state, "lay 2D 2", "no meld 2")
    events = do(game, state, "discard 2D")
    assert events == [Discarded(1, "2D", 6)]
    assert state.turn == 0 and state.stage == "draw" and not state.melded


def test_the_discard_taken_cannot_be_discarded_the_same_turn():
    game, state = new(2, deal="read")
    deal(state, HANDS, "KD")
    do(game, state, "take")
    assert "KD" in state.hands[1] and state.discard == []
    refused(game, state, "discard KD", "discard a different card")
    do(game, state, "discard KH")
    do(game, state, "take")  # Red takes the king of hearts
    do(game, state, "discard 3H")
    do(game, state, "draw", "9C", "discard KD")  # a later turn: allowed


def test_a_card_drawn_from_the_stock_may_be_discarded_at_once():
    game, state = new(2, deal="read")
    deal(state, HANDS, "KD")
    do(game, state, "draw", "9C", "discard 9C")
    assert state.discard == ["KD", "9C"]


def test_melds_not_in_hand_or_invalid_are_refused_unchanged():
    game, state = new(2, deal="read")
    deal(state, HANDS, "KD")
    do(game, state, "draw", "9C")
    refused(game, state, "meld 4C 5C 7D", "is not a meld")
    refused(game, state, "meld 8H 8D 8C", "blue cannot use the eight of hearts: red holds it")
    refused(game, state, "meld 2C 3C 4C", "does not hold the two of clubs")


def test_lay_off_on_another_players_meld():
    game, state = new(2, deal="read")
    hands = {1: ["4C", "5C", "6C", "7D", "7H", "7S", "KH", "QS", "2D", "9H"],
             0: ["3C", "2S", "3S", "8H", "8D", "JC", "10C", "5H", "6D", "3H"]}
    deal(state, hands, "KD")
    do(game, state, "draw", "9C", "meld 4C 5C 6C", "discard 2D")
    events = do(game, state, "draw", "9S", "lay 3C")  # Red on Blue's meld
    assert events[-1] == LaidOff(0, "3C", 1)
    assert state.melds[0] == {"owner": 1, "cards": ["3C", "4C", "5C", "6C"]}


def test_the_stock_run_out_turns_the_discard_pile_over_without_shuffling():
    game, state = new(2, deal="read")
    deal(state, HANDS, "KD")
    do(game, state, "draw", "9C", "discard 9C", "draw", "10S", "discard 10S")
    state.stock_n = 0  # the stock has run out
    events = do(game, state, "draw")
    assert StockTurned(3) in events
    # KD, 9C, 10S turned face down: the bottom card, the king, is now on top.
    assert state.discard == [] and state.stock_known == ["9C", "10S"]
    assert state.hands[1][-1] == "KD"


# --------------------------------------------------------------------------- going out


def _out_game():
    game, state = new(2, deal="read")
    hands = {1: ["4C", "5C", "6C", "7D", "7H", "7S", "8S", "9S", "10S", "2D"],
             0: ["AS", "2S", "3S", "8H", "8D", "JC", "10C", "5H", "6D", "3H"]}
    deal(state, hands, "KD")
    return game, state


def test_going_out_by_discarding_and_the_count():
    game, state = _out_game()
    do(game, state, "draw", "QC", "meld 4C 5C 6C", "discard QC")
    do(game, state, "draw", "9D", "meld AS 2S 3S", "discard 9D")
    do(game, state, "draw", "KC", "meld 7D 7H 7S", "discard KC")
    do(game, state, "draw", "4H", "discard 4H")
    events = do(game, state, "draw", "JS", "meld 8S 9S 10S", "lay JS 4")
    assert events[-1] == LaidOff(1, "JS", 4) and state.held(1) == 1
    events = do(game, state, "discard 2D")
    assert events[:2] == [Discarded(1, "2D", 0), WentOut(1)]
    scored = next(e for e in events if isinstance(e, HandScored))
    # Red holds 8H 8D JC 10C 5H 6D 3H: 8 + 8 + 10 + 10 + 5 + 6 + 3 = 50
    assert scored.left == (50, 0) and scored.gained == 50 and state.totals == [0, 50]
    assert scored.describe(NAMES) == (
        "Hand 1: left in hand, Red 50. Blue scores 50. Scores: Red 0, Blue 50.")
    assert state.hand_number == 2 and state.dealer == 1  # the deal alternates


def test_going_out_by_melding_the_last_cards():
    game, state = _out_game()
    do(game, state, "draw", "QC", "meld 4C 5C 6C", "discard QC")
    do(game, state, "draw", "9D", "discard 9D")
    do(game, state, "draw", "KC", "meld 7D 7H 7S", "discard KC")
    do(game, state, "draw", "4H", "discard 4H")
    do(game, state, "draw", "QS", "discard 2D")  # Blue: 8S 9S 10S QS
    do(game, state, "draw", "AD", "discard AD")
    refused(game, state, "discard 8S", "first draw")
    do(game, state, "draw", "JS")
    events = do(game, state, "meld 8S 9S 10S JS QS")  # out with no discard
    assert WentOut(1) in events and state.totals[1] > 0


def test_a_meld_that_would_strand_the_taken_discard_is_refused():
    game, state = _out_game()
    do(game, state, "draw", "QC", "meld 4C 5C 6C", "discard QC")
    do(game, state, "draw", "9D", "discard 9D")
    do(game, state, "draw", "KC", "meld 7D 7H 7S", "discard KC")
    do(game, state, "draw", "4H", "discard 4H")
    do(game, state, "draw", "QH", "discard 2D")
    do(game, state, "take")  # Red takes the 2D; Blue holds 8S 9S 10S QH after...
    do(game, state, "discard 3H")
    do(game, state, "take")  # Blue takes the 3H: holds 8S 9S 10S QH 3H
    do(game, state, "meld 8S 9S 10S")
    refused(game, state, "discard 3H", "discard a different card")
    do(game, state, "discard QH")
    assert state.held(1) == 1


def test_the_game_ends_at_the_target_highest_total_wins():
    _, fresh = _out_game()
    game, state = new(2, deal="read", to=40)
    deal(state, {p: list(fresh.hands[p]) for p in (0, 1)}, "KD")
    do(game, state, "draw", "QC", "meld 4C 5C 6C", "discard QC")
    do(game, state, "draw", "9D", "meld AS 2S 3S", "discard 9D")
    do(game, state, "draw", "KC", "meld 7D 7H 7S", "discard KC")
    do(game, state, "draw", "4H", "discard 4H")
    events = do(game, state, "draw", "JS", "meld 8S 9S 10S", "lay JS 4", "discard 2D")
    over = next(e for e in events if isinstance(e, GameOver))
    assert state.is_terminal() and state.winners() == (1,)
    assert over.describe(NAMES) == "Blue wins the game! 50 points, the highest total."


def test_a_fixed_number_of_deals():
    game, state = new(2, to=0, deals=1)
    rng = random.Random(2)
    _finish(state, rng)
    assert state.is_terminal() and state.hand_number == 1 and state.winners()
    with pytest.raises(ValueError, match="target"):
        Rummy(["A", "B"], {"to": 0, "deals": 0})


# --------------------------------------------------------------------------- deal=hidden


def test_hidden_counts_cards_and_knows_the_taken_discard():
    game, state = new(2)
    do(game, state, "KD")
    assert state.phase == "play" and state.unknown == [10, 10]
    do(game, state, "take")
    assert state.hands[1] == ["KD"] and state.held(1) == 11
    refused(game, state, "discard KD", "different card")
    do(game, state, "meld 4C 5C 6C", "discard 2D")
    assert state.unknown[1] == 6 and state.held(1) == 7
    do(game, state, "draw")
    refused(game, state, "discard 5C", "it is in meld 1")
    refused(game, state, "discard KD", "blue holds it")
    do(game, state, "lay 7C", "discard 2S")
    assert state.melds[0]["cards"] == ["4C", "5C", "6C", "7C"]


def test_hidden_more_cards_than_held_are_refused():
    game, state = new(2)
    do(game, state, "KD", "draw", "meld 4C 5C 6C", "discard 8H")  # Blue: 7 unknown
    do(game, state, "draw", "meld AS 2S 3S", "discard 9H")  # Red
    do(game, state, "draw", "meld 8S 9S 10S JS QS KS", "discard 2H")  # Blue: 1 left
    assert state.held(1) == 1
    do(game, state, "draw", "discard 3H")
    do(game, state, "draw")  # Blue holds 2
    refused(game, state, "meld 5D 6D 7D", "does not hold that many cards")


def test_hidden_going_out_the_others_read_their_cards():
    game, state = new(3)  # Red deals: Blue, Green, Red play in turn, seven cards each
    do(game, state, "KD")
    do(game, state, "draw", "meld 4C 5C 6C", "discard 2D")  # Blue: 4 left
    do(game, state, "draw", "discard 2H")  # Green: 7
    do(game, state, "draw", "meld 7H 8H 9H", "discard 3D")  # Red: 4
    do(game, state, "draw", "meld 10D JD QD", "discard AS")  # Blue: 1
    assert state.held(1) == 1
    do(game, state, "draw", "discard 4S", "draw", "discard 5S")
    events = do(game, state, "draw", "lay 7C", "discard 6S")
    assert WentOut(1) in events and state.phase == "show"
    assert state.chance().who == 2  # from the winner's left
    refused(game, state, "5S", "discard pile")
    for c in ["KS", "QS", "JS", "10S", "9S", "8S", "7S"]:  # Green's seven cards
        do(game, state, c)
    assert state.chance().who == 0
    for c in ["2C", "3C", "4D", "5D"]:  # Red's four
        events = do(game, state, c)
    scored = next(e for e in events if isinstance(e, HandScored))
    assert scored.left == (14, 0, 64)
    assert state.totals == [0, 78, 0]


# --------------------------------------------------------------------------- words


def test_words_and_queries():
    game, state = new(2, deal="read")
    deal(state, HANDS, "KD")
    assert state.choices_text() == "Draw from the stock, or take the top discard."
    do(game, state, "draw", "9C")
    assert state.choices_text().startswith("You may meld 7D 7H 7S or 4C 5C 6C")
    assert state.choices_after_move() == ""
    do(game, state, "meld 7D 7H 7S")
    assert game.query(state, "melds") == "Melds: 1: 7S 7H 7D (Blue)."
    assert game.query(state, "held") == "Cards held: Red 10, Blue 8."
    assert game.parse_action(state, "lay off 7C on 1") == LayOff(1, "7C", 1)
    assert game.parse_action(state, "QS") == Discard(1, "QS")
    assert game.parse_action(state, "meld 4c 5c 6c") == Meld(1, ("4C", "5C", "6C"))
    refused(game, state, "lay 5H", "fits none of the melds")


def test_lay_asks_which_meld_when_the_card_fits_two():
    game, state = new(2)
    do(game, state, "KD", "draw", "meld 4C 5C 6C", "discard 2D")
    do(game, state, "draw", "meld 7D 7H 7S", "discard 2H")
    do(game, state, "draw")
    refused(game, state, "lay 7C", "fits melds 1 and 2")
    do(game, state, "lay 7C 2")
    assert "7C" in state.melds[1]["cards"] and "7C" not in state.melds[0]["cards"]


# --------------------------------------------------------------------------- random games


def _finish(state, rng, limit: int = 5000) -> int:
    steps = 0
    while not state.is_terminal() and steps < limit:
        if state.current_player() == CHANCE:
            action = state.sample_chance(rng)
        else:
            actions = state.legal_actions()
            assert actions, state.expected()
            good = [a for a in actions if isinstance(a, Meld | LayOff)]
            action = rng.choice(good) if good and rng.random() < 0.9 else rng.choice(actions)
            if state.read and rng.random() < 0.1:
                _check_refusals(state, actions)
        state.apply(action)
        steps += 1
        if state.read and state.phase == "play":
            cards = [c for h in state.hands for c in h] + state.discard + state.stock_known
            cards += [c for m in state.melds for c in m["cards"]]
            assert len(cards) == len(set(cards))
            assert len(cards) + state.stock_n == 52
    return steps


def _check_refusals(state, actions):
    p = state.turn
    if state.stage != "play":
        return
    for c in state.hands[p]:
        if Discard(p, c) not in actions:
            before = state.to_json()
            with pytest.raises(IllegalAction):
                state.apply(Discard(p, c))
            assert state.to_json() == before


@pytest.mark.parametrize("seed", range(3))
def test_random_games(seed):
    rng = random.Random(seed)
    finished = 0
    for _ in range(60):
        options = {"deal": rng.choice(["hidden", "read"]), "ace_high": rng.choice([False, True]),
                   "to": 0, "deals": rng.choice([1, 2])}
        game, state = new(rng.randint(2, 6), **options)
        _finish(state, rng)
        finished += state.is_terminal()
        for h in state.history:
            assert h["gained"] == sum(h["left"]) and h["left"][h["winner"]] == 0
        json.dumps(state.to_json())
    # Random play need not end (melding is optional); with melds preferred nearly all do.
    assert finished >= 55


def test_actions_are_typed_and_take_stock_take_discard_named():
    game, state = new(2)
    do(game, state, "KD")
    assert game.parse_action(state, "draw") == TakeStock(1)
    assert game.parse_action(state, "take") == TakeDiscard(1)


# --------------------------------------------------------------------------- hidden = read


def _read_game(rng, n, options):
    """A finished deal=read game and its script for a hidden game (retried in the rare case
    that random play does not end)."""
    while True:
        game, read = new(n, deal="read", **options)
        script: list = []
        steps = 0
        while not read.is_terminal() and steps < 4000:
            hand = read.hand_number
            if read.current_player() == CHANCE:
                phase = read.phase
                action = read.sample_chance(rng)
                if phase == "up":
                    script.append(action)
            else:
                actions = read.legal_actions()
                good = [a for a in actions if isinstance(a, Meld | LayOff)]
                action = rng.choice(good) if good and rng.random() < 0.9 else rng.choice(actions)
                script.append(action)
            left = [list(h) for h in read.hands]
            read.apply(action)
            steps += 1
            if read.hand_number != hand or read.is_terminal():
                script.append(("show", left))
        if read.is_terminal():
            return read, script


@pytest.mark.parametrize("seed", range(30))
def test_hidden_accepts_every_legal_game_and_scores_it_the_same(seed):
    """A game with every card read, given to a deal=hidden game (the up cards, the turns, and
    at the end the cards left that it did not know): all accepted, the same scores."""
    rng = random.Random(seed)
    n = rng.randint(2, 6)
    options = {"ace_high": rng.choice([False, True]), "to": 0, "deals": 2}
    read, script = _read_game(rng, n, options)
    game, hidden = new(n, deal="hidden", **options)
    for item in script:
        if isinstance(item, tuple):
            left = item[1]
            while hidden.phase == "show":
                p = hidden.show_queue()[0]
                unknown = [c for c in left[p] if c not in hidden.hands[p]]
                hidden.apply(Draw(unknown[len(hidden.shown[p])]))
            continue
        hidden.apply(item)
    assert hidden.is_terminal()
    assert hidden.totals == read.totals and hidden.history == read.history


# --------------------------------------------------------------------------- a session


def live(session) -> RummyState:
    state = session.state
    assert isinstance(state, RummyState)
    return state


def test_a_session_virtual_deal_typed_turns_undo_and_resume():
    from companion.journal import Journal
    from companion.session import Session
    from companion.voice import Recorder

    recorder = Recorder()
    session = Session.start(Rummy(["Red", "Blue"], {"deal": "read"}), Journal.memory(),
                            recorder, seed=5, auto_chance=frozenset({"card"}))
    state = live(session)
    assert state.phase == "play" and state.stage == "draw"
    reply = session.command("discard " + state.hands[1][0])
    assert not reply.accepted and "first draw" in reply.text
    assert session.command("draw").accepted  # the virtual stock supplies the card
    assert live(session).stage == "play" and len(live(session).hands[1]) == 11
    before = json.dumps(session.state.to_json(), sort_keys=True)
    card = live(session).hands[1][0]
    assert session.command(f"discard {card}").accepted
    assert recorder.texts[-1] == f"Blue discards the {M.card_name(card)}."
    session.undo()
    assert json.dumps(session.state.to_json(), sort_keys=True) == before
    resumed = Session.resume(session.journal, Recorder())
    assert resumed.state.to_json() == session.state.to_json()


# ----------------------------------------------------------- issue 22: the taken discard played
# Rulebook 000, BASIC RUMMY, The Discard: "If you began your turn by picking up the top card of
# the discard pile you are not allowed to end that turn by discarding the same card, leaving
# the pile unchanged — you must discard a different card." Once the taken card is melded or
# laid off, the card left to discard is a different card, and going out is legal.

def test_going_out_after_melding_the_taken_discard_six_players_hidden():
    game, state = new(6)
    do(game, state, "7D", "take", "meld 6D 7D 8D", "lay 5D 1", "lay 4D 1", "lay 9D 1")
    assert state.held(1) == 1 and state.taken == "7D"
    do(game, state, "discard 2C")
    assert state.held(1) == 0 and state.out == 1


def test_going_out_after_laying_off_the_taken_discard_six_players_hidden():
    game, state = new(6)
    do(game, state, "9D", "take", "meld 6D 7D 8D", "lay 9D 1", "lay 5D 1", "lay 4D 1")
    assert state.held(1) == 1
    do(game, state, "discard 2C")
    assert state.out == 1


def test_going_out_after_melding_the_taken_discard_every_card_read():
    game, state = new(6, deal="read")
    hands = {1: ["6D", "8D", "5D", "4D", "9D", "2C"],
             2: ["AS", "2S", "3S", "4S", "5S", "6S"], 3: ["AH", "2H", "3H", "4H", "5H", "6H"],
             4: ["AC", "3C", "4C", "5C", "6C", "7C"], 5: ["8C", "9C", "10C", "JC", "QC", "KC"],
             0: ["7S", "8S", "9S", "10S", "JS", "QS"]}
    deal(state, hands, "7D")
    do(game, state, "take", "meld 6D 7D 8D", "lay 5D 1", "lay 4D 1", "lay 9D 1")
    assert state.hands[1] == ["2C"]
    do(game, state, "discard 2C")
    assert state.out == 1


def test_the_taken_discard_still_in_hand_cannot_be_the_last_card():
    game, state = new(6)
    do(game, state, "7D", "take", "meld 4C 5C 6C", "lay 3C 1", "lay 7C 1")
    refused(game, state, "lay 8C 1", "only the card taken from the discard pile")
