"""The cribbage engine: a scripted hand, refusals, 3 and 4 players, game end, muggins, and
invariants over thousands of random games."""

from __future__ import annotations

import json
import random

import pytest

from companion.engine import CHANCE, Draw, GameOver, IllegalAction, decode_action, encode_action
from companion.games import find
from companion.games.cribbage.engine import Go, Play, Show, ShowCrib
from companion.games.cribbage.events import (
    CardPlayed,
    CountReset,
    FalseGo,
    HandCounted,
    PeggingTotals,
    Scored,
)

Cribbage = find("cribbage")
NAMES = ("Red", "Blue", "Green", "Yellow")


def new(n: int = 2, **options):
    game = Cribbage(list(NAMES[:n]), options)
    return game, game.new_state()


def do(game, state, *lines: str) -> list:
    events = []
    for line in lines:
        events += state.apply(game.parse_action(state, line))
    return events


def refused(game, state, line: str, fragment: str) -> None:
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        state.apply(game.parse_action(state, line))
    assert fragment.lower() in err.value.reason.lower(), err.value.reason
    assert state.to_json() == before


def deal_read(game, state, hands: list[str], crib_card: str = "") -> None:
    """Feed the deal card by card in deal order (one at a time from the dealer's left)."""
    per = [h.split() for h in hands]
    order = state.deal_order()
    taken = [0] * len(per)
    for who in order:
        if who is None:
            card = crib_card
        else:
            card = per[who][taken[who]]
            taken[who] += 1
        assert state.current_player() == CHANCE and state.chance().who in (who, state.dealer)
        state.apply(Draw(card))


# ----------------------------------------------------------------- a whole hand, two players


def scripted_two_player_hand(**options):
    game, state = new(2, deal="read", **options)  # Red deals, Blue leads
    deal_read(game, state, ["8S 7D 4H 3D JH 10H", "7H 8D 9S 2C KC QC"])
    assert state.phase == "discard" and state.current_player() == 1
    do(game, state, "discard KC QC", "discard JH 10H")
    events = do(game, state, "starter JS")
    return game, state, events


def test_his_heels_scores_two_for_the_dealer_at_once():
    game, state, events = scripted_two_player_hand()
    heels = [e for e in events if isinstance(e, Scored)]
    assert heels and heels[0].player == 0 and heels[0].count.total == 2
    assert state.side_scores == [2, 0]
    assert "his heels" in heels[0].describe(NAMES)


def test_the_play_fifteen_run_thirty_one_reset_last_card_and_the_show():
    game, state, _ = scripted_two_player_hand()
    e = do(game, state, "play 7H", "8S")
    assert e[-1].count.total == 2 and "fifteen two" in e[-1].describe(NAMES).lower()  # Red 15
    e = do(game, state, "9S")  # Blue: 7 8 9 in the play, count 24
    played = [x for x in e if isinstance(x, CardPlayed)][0]
    assert played.count.total == 3 and state.side_scores == [4, 3]
    e = do(game, state, "7D")  # Red: 31 and the run 8 9 7 among the latest three
    played = [x for x in e if isinstance(x, CardPlayed)][0]
    assert {i.kind: i.points for i in played.count.items} == {"thirty-one": 2, "run": 3}
    assert any(isinstance(x, CountReset) and x.leader == 1 for x in e)
    assert state.count == 0 and state.side_scores == [9, 3]
    e = do(game, state, "8D", "4H", "2C", "3D")  # Red: run 4 2 3, and last card
    played = [x for x in e if isinstance(x, CardPlayed)][-1]
    assert {i.kind: i.points for i in played.count.items} == {"run": 3, "last card": 1}
    totals = [x for x in e if isinstance(x, PeggingTotals)][0]
    assert totals.points == (11, 3)  # his heels is not pegging
    assert state.phase == "show" and state.current_player() == 1  # left of dealer first
    refused(game, state, "show 7H 9S 8D 5C", "the five of clubs was not among them")
    e = do(game, state, "show 7H 9S 8D 2C")
    counted = [x for x in e if isinstance(x, HandCounted)][0]
    assert counted.player == 1 and counted.count.total == 5
    assert state.current_player() == 0
    refused(game, state, "crib", "not yet")
    e = do(game, state, "show")
    assert [x for x in e if isinstance(x, HandCounted)][0].count.total == 4
    assert state.phase == "crib" and state.current_player() == 0
    e = do(game, state, "crib")
    crib = [x for x in e if isinstance(x, HandCounted)][0]
    # K Q J J 10: a double run of four and a pair of jacks; JH is not the starter's suit
    assert crib.crib and crib.count.total == 10
    assert "a double run of four" in crib.describe(NAMES)
    # cards are spoken by name, not by their codes
    assert "king of " in crib.describe(NAMES) and "KH" not in crib.describe(NAMES)
    assert state.side_scores == [13 + 4 + 10, 3 + 5]
    assert state.dealer == 1 and state.phase == "deal" and state.hand_number == 2


def test_refusals_change_nothing_and_say_why():
    game, state, _ = scripted_two_player_hand()
    refused(game, state, "play 8S", "dealt to another player")  # Red's card, Blue's turn
    before = state.to_json()
    with pytest.raises(IllegalAction, match="turn"):
        state.apply(Play(0, "8S"))
    assert state.to_json() == before
    refused(game, state, "play KC", "in the crib")
    refused(game, state, "play JS", "starter")
    refused(game, state, "play 5C", "does not hold")
    refused(game, state, "play 5X", "not a card")
    refused(game, state, "go", "can play")


def test_go_is_automatic_when_every_card_is_known_and_go_point_scored():
    game, state = new(2, deal="read")
    deal_read(game, state, ["KS QS JS 10S 9D 8D", "KH QH JH 10H 9C 8C"])
    do(game, state, "discard 9C 8C", "discard 9D 8D", "starter 2D")
    e = do(game, state, "KH", "KS", "QH")  # 30: Red cannot play, says go; Blue cannot
    go_point = [x for x in e if isinstance(x, Scored) and x.reason == "go"]
    assert go_point and go_point[0].player == 1 and state.count == 0
    assert state.current_player() == 0  # left of the player who played last leads


# ----------------------------------------------------------------- hidden deal


def test_hidden_deal_unknown_or_seen_card_refused_and_false_go_pointed_out():
    game, state = new(2)
    assert state.current_player() == CHANCE and state.phase == "starter"
    do(game, state, "starter 5C")
    refused(game, state, "play 5C", "starter")
    refused(game, state, "go", "every card fits")
    do(game, state, "KH", "KD")  # 20
    refused(game, state, "KH", "played it this hand")
    do(game, state, "9S")  # Blue 29
    refused(game, state, "play 5D", "would take the count past 31, to 34")
    do(game, state, "go")  # Red: believable, many unseen cards are above 2
    e = do(game, state, "AS")  # Blue plays on: 30
    e = do(game, state, "go")  # Blue cannot either: the go point is Blue's
    assert any(isinstance(x, Scored) and x.reason == "go" and x.player == 1 for x in e)
    e = do(game, state, "2H")  # Red now plays a 2, which would have fitted at 29
    assert any(isinstance(x, FalseGo) for x in e)


def test_hidden_deal_crib_must_be_named_and_unseen():
    game, state = new(2)
    do(game, state, "starter 5C", "KH", "KD", "5H", "AS", "go", "AD", "go", "2H", "2D", "3H")
    assert state.phase == "show"
    do(game, state, "show", "show")
    refused(game, state, "crib", "name the four cards")
    refused(game, state, "crib 5H 6C 7C 8C", "played it")
    refused(game, state, "crib 5D 6C 7C", "four cards")
    e = do(game, state, "crib 5D 5S 10C JC")
    crib = [x for x in e if isinstance(x, HandCounted)][0]
    assert crib.count.total == sum(i.points for i in crib.count.items)


# ----------------------------------------------------------------- three and four players


def test_three_player_deal_one_card_to_the_crib_and_show_order():
    game, state = new(3, deal="read")
    assert len(state.deal_order()) == 16 and state.deal_order()[-1] is None
    deal_read(game, state, ["AH 2H 3H 4H 5H", "AS 2S 3S 4S 5S", "AD 2D 3D 4D 5D"], "KC")
    assert state.crib == ["KC"]
    do(game, state, "discard 5S", "discard 5D", "discard 5H")  # Blue, Green, Red
    assert sorted(state.crib) == sorted(["KC", "5S", "5D", "5H"])
    assert [len(h) for h in state.hands] == [4, 4, 4]
    do(game, state, "starter 6C")
    assert state.show_order() == [1, 2, 0]


def test_four_players_partners_share_a_track():
    game, state = new(4, deal="read")
    assert len(state.deal_order()) == 20
    deal_read(game, state, ["AH 2H 3H 4H 5H", "AS 2S 3S 4S 5S", "AD 2D 3D 4D 5D",
                            "AC 2C 3C 4C 5C"])
    do(game, state, "discard 5S", "discard 5D", "discard 5C", "discard 5H", "starter KH")
    do(game, state, "AS", "4D")  # Blue, Green
    e = do(game, state, "AC")  # Yellow (Blue's partner)
    assert state.sides == ((0, 2), (1, 3))
    e = do(game, state, "AH")  # Red: pair of aces after 4D? no - latest AC AH: a pair
    assert [x for x in e if isinstance(x, CardPlayed)][0].count.total == 2
    assert state.scores()[0] == state.scores()[2] == 2


# ----------------------------------------------------------------- the end of the game


def test_game_ends_at_once_in_the_middle_of_play():
    game, state = new(2, deal="read")
    deal_read(game, state, ["8S 7D 4H 3D JH 10H", "7H 8D 9S 2C KC QC"])
    do(game, state, "discard KC QC", "discard JH 10H", "starter 2S")
    state.side_scores = [119, 0]
    e = do(game, state, "7H", "8S")  # Red: fifteen two: 121
    assert isinstance(e[-1], GameOver) and e[-1].winners == (0,)
    assert state.is_terminal() and state.legal_actions() == []
    with pytest.raises(IllegalAction):
        state.apply(Play(1, "9S"))


def test_his_heels_can_win_and_short_game_to_61():
    game, state = new(2, to=61)
    state.side_scores = [59, 60]
    e = do(game, state, "starter JD")
    assert isinstance(e[-1], GameOver) and e[-1].winners == (0,)


def test_pone_counts_first_and_wins_before_the_dealer():
    game, state, _ = scripted_two_player_hand()
    do(game, state, "7H", "8S", "9S", "7D", "8D", "4H", "2C", "3D")
    state.side_scores = [120, 116]
    e = do(game, state, "show")  # Blue (pone) counts 5 first: 121
    assert isinstance(e[-1], GameOver) and e[-1].winners == (1,)


def test_muggins_missed_points_go_to_the_opponent():
    game, state, _ = scripted_two_player_hand(muggins=True)
    do(game, state, "7H", "8S", "9S", "7D", "8D", "4H", "2C", "3D")
    refused(game, state, "show", "say your count")
    before = list(state.side_scores)
    e = do(game, state, "show 3")  # worth 5
    assert state.side_scores == [before[0] + 2, before[1] + 3]
    assert any("Muggins" in x.describe(NAMES) for x in e)


# ----------------------------------------------------------------- random games


def certainly_illegal(state, rng: random.Random) -> list:
    """Inputs that no rule allows now."""
    cp = state.current_player()
    seen = sorted(state.seen())
    out = [Draw("??"), Play((max(cp, 0) + 1) % state.n, "AS")]
    if seen:
        out.append(Draw(rng.choice(seen)))
    if state.phase == "play":
        played = [c for cards in state.played for c in cards]
        if played or state.starter:
            out.append(Play(cp, rng.choice(played or [state.starter])))
        if state.count >= 22:
            out.append(Play(cp, "KS"))
        if state.count == 0:
            out.append(Go(cp))
        out.append(Show(cp))
    if state.phase == "show":
        out.append(ShowCrib(cp, ("AS", "2S", "3S", "4S")))
        out.append(Go(cp))
    if state.phase == "crib":
        out.append(Show(cp))
    return out


def random_game(rng: random.Random, n: int, deal: str) -> int:
    to = 121 if rng.random() < 0.25 else 61
    game, state = new(n, deal=deal, muggins=rng.random() < 0.3, to=to,
                      muggins_call=rng.random() < 0.2)
    steps = 0
    last_scores = state.scores()
    while not state.is_terminal():
        steps += 1
        assert steps <= game.max_length()
        if rng.random() < 0.1:  # illegal inputs are refused and change nothing
            before = state.to_json()
            for bad in certainly_illegal(state, rng):
                with pytest.raises(IllegalAction):
                    state.apply(bad)
                assert state.to_json() == before, bad
        if state.current_player() == CHANCE:
            action = state.sample_chance(rng)
        else:
            actions = state.legal_actions()
            assert actions, state.to_json()
            action = rng.choice(actions)
        phase_before = state.phase
        assert decode_action(json.loads(json.dumps(encode_action(action))),
                             game.action_types) == action
        if rng.random() < 0.02:  # a clone is independent
            before = state.to_json()
            state.clone().apply(action)
            assert state.to_json() == before
        events = state.apply(action)
        json.dumps(state.to_json())
        scores = state.scores()
        assert all(b >= a for a, b in zip(last_scores, scores, strict=True))
        last_scores = scores
        if phase_before == "play" and state.phase == "show":
            assert all(len(p) == 4 for p in state.played)  # every card is played
            assert len(state.seen()) == 4 * n + 1 + len(state.crib)
        for event in events:
            assert event.describe(NAMES[:n])
    winners = state.winners()
    target = game.options["to"]
    assert winners and all(state.scores()[w] >= target for w in winners)
    assert sum(1 for s in state.side_scores if s >= target) == 1
    return steps


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("deal", ["hidden", "read"])
def test_random_games_keep_the_invariants(n, deal):
    rng = random.Random(f"{n}{deal}")
    for _ in range(170):  # 1,020 games in all
        random_game(rng, n, deal)


# ----------------------------------------------------------------- cards read one at a time


def test_show_read_card_by_card_points_out_a_mismatch():
    from companion.observations import CardSeen

    game, state, _ = scripted_two_player_hand()
    do(game, state, "7H", "8S", "9S", "7D", "8D", "4H", "2C", "3D")
    refused(game, state, "card 5C", "did not play the five of clubs")
    e = state.apply(game.interpret(state, CardSeen(source="reader", card="7h")))
    assert "seven of hearts, one of four" in e[0].describe(NAMES)
    refused(game, state, "7H", "shown already")
    e = do(game, state, "9S", "card 8D", "2C")
    counted = [x for x in e if isinstance(x, HandCounted)]
    assert counted and counted[0].count.total == 5 and state.current_player() == 0


def test_all_cards_must_be_played_the_last_player_plays_on_alone():
    game, state = new(2, deal="read")
    deal_read(game, state, ["KS QS JS 10S 9D 8D", "AH AD 2C 3C 9C 8C"])
    do(game, state, "discard 9C 8C", "discard 9D 8D", "starter 7H")
    do(game, state, "AH", "KS", "AD", "QS")  # 22: Blue plays on after Red
    e = do(game, state, "2C")  # 24; Red holds JS 10S: both too big, Red says go
    assert state.current_player() == 1
    e = do(game, state, "3C")  # 27, then Blue is out and Red cannot play: go, Blue 1
    assert any(isinstance(x, Scored) and x.reason == "go" and x.player == 1 for x in e)
    e = do(game, state, "JS", "10S")  # Red alone: 10, 20 and last card
    played = [x for x in e if isinstance(x, CardPlayed)][-1]
    assert {i.kind for i in played.count.items} == {"last card"}
    assert state.phase == "show"


def test_session_replay_equals_live_and_undo():
    from companion.journal import Journal
    from companion.session import Session
    from companion.voice import Recorder

    recorder = Recorder()
    journal = Journal.memory()
    session = Session.start(Cribbage(["Red", "Blue"]), journal, announcer=recorder)
    for line in ["starter JS", "play 5H", "card 10D", "KH", "Blue go", "Red go", "AS"]:
        session.command(line)
    assert any("his heels" in t for t in recorder.texts)
    assert any("Fifteen two" in t for t in recorder.texts)
    live = session.state.to_json()
    assert any("it is Red's turn" in t for t in recorder.texts)
    assert live["count"] == 26
    assert Session.resume(journal, announcer=Recorder()).state.to_json() == live
    session.undo()
    assert session.state.count == 25


def test_four_players_hidden_full_hand_show_order_and_partners():
    game, state = new(4)  # Red deals; Blue, Green, Yellow, Red play in turn
    do(game, state, "starter 2C")
    do(game, state, "5H", "KH", "5D", "KD",  # Blue 5, Green 15, Yellow 20, Red 30
       "go", "go", "go", "AS")  # Blue, Green, Yellow go; Red 31 with the ace
    assert state.count == 0 and state.current_player() == 1
    e = do(game, state, "4H", "4D", "4S", "4C")  # double pair royal for Red
    assert [x for x in e if isinstance(x, CardPlayed)][-1].count.total == 12
    e = do(game, state, "3H", "3D", "3S", "3C", "2H", "go", "go")  # Blue 30; the go point
    assert any(isinstance(x, Scored) and x.reason == "go" and x.player == 1 for x in e)
    e = do(game, state, "2D", "2S")  # Green leads; Yellow pairs and plays the last card
    last = [x for x in e if isinstance(x, CardPlayed)][-1]
    assert {i.kind: i.points for i in last.count.items} == {"pair": 2, "last card": 1}
    assert state.phase == "show" and state.show_order() == [1, 2, 3, 0]
    before = list(state.side_scores)
    e = do(game, state, "show", "show", "show", "show")
    hands = [x for x in e if isinstance(x, HandCounted)]
    assert [h.player for h in hands] == [1, 2, 3, 0]
    gained = [state.side_scores[i] - before[i] for i in range(2)]
    assert gained == [hands[1].count.total + hands[3].count.total,
                      hands[0].count.total + hands[2].count.total]
    e = do(game, state, "crib 6C 7C 8C 9C")
    crib = [x for x in e if isinstance(x, HandCounted)][0]
    assert crib.crib and crib.player == 0 and crib.count.total > 0
    assert state.dealer == 1 and state.phase == "starter"


# ----------------------------------------------------- issue 22: muggins as a call (option)
# Muggins is not in rulebook 000 (an option here). Clubs play it as a call: the opponent must
# say "muggins" to take the points a player missed; uncalled, they are lost.


def test_muggins_by_call_the_opponent_takes_the_missed_points_only_when_called():
    game, state, _ = scripted_two_player_hand(muggins_call=True)
    do(game, state, "7H", "8S", "9S", "7D", "8D", "4H", "2C", "3D")
    refused(game, state, "show", "say your count")
    refused(game, state, "muggins", "no count to call muggins on")
    before = list(state.side_scores)
    e = do(game, state, "show 3")  # Blue's hand is worth 5
    said = [x.describe(NAMES) for x in e]
    assert said == [f"Blue pegs 3 for the hand. Blue has {before[1] + 3}."]  # count kept back
    assert state.side_scores == [before[0], before[1] + 3]
    refused(game, state, "muggins Blue", "only an opponent of blue")
    e = do(game, state, "muggins")  # Red, the opponent, calls
    said = [x.describe(NAMES) for x in e]
    assert "Muggins! Blue missed 2 points: Red takes them." in said
    assert said[0].startswith("Blue's hand,")  # the count is said at the call
    assert state.side_scores == [before[0] + 2, before[1] + 3]
    refused(game, state, "muggins", "no count to call muggins on")


def test_muggins_by_call_uncalled_points_are_lost_at_the_next_play():
    game, state, _ = scripted_two_player_hand(muggins_call=True)
    do(game, state, "7H", "8S", "9S", "7D", "8D", "4H", "2C", "3D")
    before = list(state.side_scores)
    do(game, state, "show 3")
    refused(game, state, "crib 5", "not yet")  # a refused input does not close the call
    assert state.muggins_open is not None
    e = do(game, state, "show " + str(state._worth(0, False, ())))  # Red counts: closes it
    said = [x.describe(NAMES) for x in e]
    assert said[0].startswith("Blue's hand,") and said[1] == (
        "Blue claims 3, but it is worth 5: 2 missed.")
    assert state.side_scores[1] == before[1] + 3  # the 2 are lost, nobody took them
    refused(game, state, "muggins Blue", "misses nothing")  # Red's count was right


def test_muggins_call_is_refused_in_the_automatic_form():
    game, state, _ = scripted_two_player_hand(muggins=True)
    refused(game, state, "muggins Red", "missed points are taken at once")
