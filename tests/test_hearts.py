"""Hearts (rulebook 000): every rule of the text and of its optional rules, scoring and the
moon, refusals that change nothing, deal=hidden revoke detection, and random full games."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from companion.engine import CHANCE, Draw, GameOver, IllegalAction
from companion.games import find
from companion.games.hearts import rules
from companion.games.hearts.events import (
    CardPlayed,
    HandScored,
    HeartsBroken,
    MoonChoice,
    RevokeRevealed,
    TrickTaken,
    WidowTaken,
)
from companion.games.hearts.state import HeartsState, Moon, Pass, Play

Hearts = find("hearts")
NAMES = ("Red", "Blue", "Green", "Yellow", "Purple", "Orange")
SUIT_HANDS = {  # player -> a whole suit; Blue (eldest when Red deals) holds the hearts
    0: [f"{r}S" for r in rules.RANKS],
    1: [f"{r}H" for r in rules.RANKS],
    2: [f"{r}D" for r in rules.RANKS],
    3: [f"{r}C" for r in rules.RANKS],
}


def new(n: int = 4, **options):
    game = Hearts(list(NAMES[:n]), options)
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


def deal(state, hands: dict[int, list[str]], widow: tuple[str, ...] | list[str] = (),
         void: dict[int, str] | None = None) -> None:
    """Read a deal in: the given hands, the rest of the pack spread over them (``void``:
    player -> suits that player gets none of)."""
    per = state.tricks_per_hand
    void = void or {}
    given = {c for h in hands.values() for c in h} | set(widow)
    rest = [c for c in state.deck if c not in given]
    full = {}
    for p in sorted(range(state.n), key=lambda q: -len(void.get(q, ""))):
        cards = list(hands.get(p, []))
        for c in [c for c in rest if rules.suit(c) not in void.get(p, "")]:
            if len(cards) == per:
                break
            cards.append(c)
            rest.remove(c)
        assert len(cards) == per, "the test's deal does not fit"
        full[p] = cards
    widow = list(widow) + rest
    taken = [0] * state.n
    while state.phase == "deal":
        assert state.current_player() == CHANCE
        who = state.deal_target()
        if who is None:
            state.apply(Draw(widow.pop(0)))
        else:
            state.apply(Draw(full[who][taken[who]]))
            taken[who] += 1


def play_out(state, rng=None) -> list:
    """Play the current hand to its end with the first legal card (or random ones)."""
    events = []
    hand = state.hand_number
    while state.hand_number == hand and not state.is_terminal() and state.phase != "moon":
        if state.current_player() == CHANCE:
            events += state.apply(state.sample_chance(rng or random.Random(0)))
            continue
        actions = state.legal_actions()
        events += state.apply(rng.choice(actions) if rng else actions[0])
    return events


# --------------------------------------------------------------------------- the pack


def test_the_rulebook_strips_low_cards_for_other_than_four_players():
    assert len(rules.deck(4, widow=False)) == 52
    assert set(rules.FULL_DECK_IDS) - set(rules.deck(3, False)) == {"2D"}
    assert set(rules.FULL_DECK_IDS) - set(rules.deck(5, False)) == {"2D", "2C"}
    assert set(rules.FULL_DECK_IDS) - set(rules.deck(6, False)) == {"2D", "3D", "2C", "2S"}
    for n in range(3, 7):
        assert len(rules.deck(n, False)) % n == 0


def test_a_widow_takes_the_excess_instead_of_stripping():
    assert [rules.widow_size(n, True) for n in (3, 4, 5, 6)] == [1, 0, 2, 4]
    game, state = new(3, deal="hidden")
    refused(game, state, "2D", "taken out of the pack")


def test_cards_rank_ace_high_and_points_are_hearts_and_the_queen():
    assert rules.strength("AS") > rules.strength("KS") > rules.strength("2S")
    assert sum(rules.points(c) for c in rules.deck(4, False)) == 26
    assert rules.points("QS") == 13 and rules.points("7H") == 1 and rules.points("KS") == 0


def test_the_deal_is_one_card_at_a_time_beginning_with_the_eldest_hand():
    game, state = new(4, deal="read", dealer=2)
    assert state.eldest == 3
    assert [state.left(state.eldest, i) for i in range(5)] == [3, 0, 1, 2, 3]
    state.apply(Draw("5H"))
    assert state.hands[3] == ["5H"]
    state.apply(Draw("6H"))
    assert state.hands[0] == ["6H"]
    with pytest.raises(IllegalAction, match="Yellow holds it"):
        state.apply(Draw("5H"))


# --------------------------------------------------------------------------- the play


def test_eldest_leads_must_follow_suit_highest_of_suit_led_wins():
    game, state = new(4, deal="read")
    deal(state, {0: ["AS", "2C", "3H"], 1: ["5C", "AD"], 2: ["KC", "2S"], 3: ["3C", "4D"]})
    assert state.current_player() == 1  # eldest hand: left of the dealer (Red)
    do(game, state, "5C", "KC")
    refused(game, state, "4D", "clubs were led and must be followed")
    refused(game, state, "AD", "cannot play the ace of diamonds")  # not Yellow's card
    do(game, state, "3C")
    events = do(game, state, "2C")
    taken = [e for e in events if isinstance(e, TrickTaken)]
    assert taken == [TrickTaken(2, "KC", 0, 1)]
    assert taken[0].describe(NAMES) == "Green takes the trick with the king of clubs."
    assert state.turn == 2 and state.leader == 2


def test_a_player_void_in_the_suit_led_may_play_any_card():
    game, state = new(4, deal="read")
    deal(state, SUIT_HANDS)  # Blue holds every heart, the others are void in hearts
    events = do(game, state, "2H", "AD", "AC", "QS")  # Green, Yellow, Red are void
    queen = next(e for e in events if isinstance(e, CardPlayed) and e.card == "QS")
    assert queen == CardPlayed(0, "QS")
    assert queen.describe(NAMES) == "Red plays the queen of spades: thirteen points to come."
    assert [e for e in events if isinstance(e, TrickTaken)] == [TrickTaken(1, "2H", 14, 1)]
    assert (TrickTaken(1, "2H", 14, 1).describe(NAMES)
            == "Blue takes the trick with the two of hearts: fourteen points.")


def test_scoring_hearts_one_each_queen_thirteen_added_to_the_total():
    game, state = new(4, deal="read")
    deal(state, SUIT_HANDS)
    events = play_out(state)
    scored = [e for e in events if isinstance(e, HandScored)]
    assert len(scored) == 1
    assert scored[0].taken == (0, 26, 0, 0) and scored[0].totals == (0, 26, 0, 0)
    assert state.scores_ == [0, 26, 0, 0]
    assert state.hand_number == 2 and state.dealer == 1  # the deal passes to the left
    text = scored[0].describe(NAMES)
    assert text == ("End of hand 1. This hand: Red 0, Blue 26, Green 0, Yellow 0."
                    " Scores: Red 0, Blue 26, Green 0, Yellow 0.")


def test_hand_scores_add_up_to_twenty_six_and_sum_to_the_totals():
    rng = random.Random(5)
    game, state = new(5, deal="read")
    for _ in range(3):
        deal(state, {})
        play_out(state, rng)
    assert len(state.history) == 3
    for h in state.history:
        assert sum(h["taken"]) == 26
    assert state.scores_ == [sum(h["added"][p] for h in state.history) for p in range(5)]


# --------------------------------------------------------------------------- the end


def _scored(state, totals):
    state.scores_ = list(totals)


def test_the_game_ends_when_a_score_passes_the_target_lowest_wins():
    game, state = new(4, deal="read")
    _scored(state, [50, 75, 60, 40])  # Blue will pass 100 with 26
    deal(state, SUIT_HANDS)
    events = play_out(state)
    over = [e for e in events if isinstance(e, GameOver)]
    assert state.is_terminal() and state.winners() == (3,)
    assert over[0].describe(NAMES) == "Yellow wins the game! 40 points, the lowest score."


def test_exactly_the_target_does_not_pass_it_but_end_reaches_does():
    game, state = new(4, deal="read")
    _scored(state, [50, 74, 60, 40])  # 74 + 26 = 100: not past 100
    deal(state, SUIT_HANDS)
    play_out(state)
    assert not state.is_terminal() and state.scores_[1] == 100
    game, state = new(4, deal="read", end="reaches")
    _scored(state, [50, 74, 60, 40])
    deal(state, SUIT_HANDS)
    play_out(state)
    assert state.is_terminal() and state.winners() == (3,)


def test_equal_lowest_scores_share_the_win():
    game, state = new(4, deal="read", to=20)
    _scored(state, [10, 0, 10, 5])
    deal(state, SUIT_HANDS)
    play_out(state)
    assert state.is_terminal() and state.winners() == (3,)
    game, state = new(4, deal="read", to=20)
    _scored(state, [5, 0, 10, 5])
    deal(state, SUIT_HANDS)
    play_out(state)
    assert state.winners() == (0, 3)


# --------------------------------------------------------------------------- passing


def test_pass_cycles_follow_the_rulebook():
    assert rules.pass_cycle("cycle-left", 4) == [1, 3, 2, 0]  # left, right, across, hold
    assert rules.pass_cycle("cycle-right", 4) == [3, 1, 2, 0]
    # six players: left, right, two left, two right, across, hold
    assert rules.pass_cycle("cycle-left", 6) == [1, 5, 2, 4, 3, 0]
    assert rules.pass_cycle("cycle-left", 3) == [1, 2, 0]
    assert rules.pass_cycle("cycle-left", 5) == [1, 4, 2, 3, 0]
    assert rules.pass_cycle("right", 4) == [3]  # the basic rule: to the right
    assert rules.pass_cycle("alternate-left", 4) == [1, 3]
    assert [rules.pass_words(s, 6) for s in rules.pass_cycle("cycle-left", 6)] == [
        "pass left", "pass right", "pass 2 seats to the left", "pass 2 seats to the right",
        "pass across", "hold: no passing this hand"]
    assert rules.pass_count(4) == 3 and rules.pass_count(5) == 2 and rules.pass_count(6) == 2


def test_passing_to_the_right_cards_arrive_after_everybody_passed():
    game, state = new(4, deal="read", **{"pass": "right"})
    deal(state, SUIT_HANDS)
    assert state.phase == "pass"
    refused(game, state, "pass 2S 3S", "three different cards")
    refused(game, state, "pass 2S 3S 2H", "does not hold the two of hearts")
    do(game, state, "pass 2S 3S 4S")  # Red's cards: the companion sees whose they are
    assert state.passes[0] == ("2S", "3S", "4S") and "2S" not in state.hands[3]
    refused(game, state, "pass 5S 6S 7S", "passed already")
    do(game, state, "pass 2H 3H 4H", "pass 2D 3D 4D", "pass 2C 3C 4C")
    assert state.phase == "play"
    assert {"2S", "3S", "4S"} <= set(state.hands[3])  # Red passed right, to Yellow
    assert {"2H", "3H", "4H"} <= set(state.hands[0])  # Blue to Red
    assert {"2C", "3C", "4C"} <= set(state.hands[2])  # Yellow to Green
    assert all(len(h) == 13 for h in state.hands)


def test_the_hold_hand_has_no_pass_and_the_cycle_moves_on():
    game, state = new(4, deal="read", **{"pass": "cycle-left"})
    shifts = []
    for _ in range(5):
        shifts.append(state.shift())
        deal(state, SUIT_HANDS)
        if state.phase == "pass":
            for p in range(4):
                state.apply(Pass(p, tuple(state.hands[p][:3])))
        play_out(state)
    assert shifts == [1, 3, 2, 0, 1]


def test_five_players_pass_two_cards():
    game, state = new(5, deal="read", **{"pass": "left"})
    deal(state, {})
    refused(game, state, f"pass {' '.join(state.hands[1][:3])}", "two different cards")


# --------------------------------------------------------------------------- optional rules


def test_two_clubs_leads_the_hand():
    game, state = new(4, deal="read", two_clubs=True)
    deal(state, {2: ["2C", "AC", "3H"]})
    assert state.current_player() == 2
    refused(game, state, "AC", "opens with the two of clubs")
    do(game, state, "2C")


def test_the_three_of_clubs_leads_when_the_two_is_stripped_or_in_the_widow():
    game, state = new(5, deal="read", two_clubs=True)  # five players: 2C taken out
    deal(state, {3: ["3C"]})
    assert state.current_player() == 3 and state.legal_actions() == [Play(3, "3C")]
    game, state = new(3, deal="read", two_clubs=True, widow="first-trick")
    deal(state, {1: ["3C"]}, widow=["2C"])
    assert state.current_player() == 1 and state.legal_actions() == [Play(1, "3C")]


def test_only_the_lowest_club_on_the_first_trick():
    game, state = new(4, deal="read", two_clubs=True, lowest_club=True)
    deal(state, {1: ["2C"], 2: ["5C", "9C", "KC"]})
    do(game, state, "2C")
    refused(game, state, "9C", "only the lowest club")
    do(game, state, "5C")


def test_no_point_cards_out_of_suit_on_the_first_trick_unless_nothing_else():
    game, state = new(4, deal="read", two_clubs=True, first_trick="no-discard")
    deal(state, {0: ["2C"], 1: ["QS", "2H", "3S"]}, void={1: "C"})
    do(game, state, "2C")
    assert state.current_player() == 1
    refused(game, state, "QS", "no points may be played on the first trick")
    refused(game, state, "2H", "no points")
    do(game, state, "3S")


def test_no_points_on_the_first_trick_a_hand_of_only_points_may_play_them():
    game, state = new(4, deal="read", two_clubs=True, first_trick="no-discard")
    deal(state, {0: ["2C"], 2: [f"{r}H" for r in rules.RANKS]})
    do(game, state, "2C")
    do(game, state, state.legal_actions()[0].card)
    assert all(rules.suit(a.card) == "H" for a in state.legal_actions())
    do(game, state, "AH")  # nothing else: allowed


def test_hearts_cannot_be_led_until_broken():
    game, state = new(4, deal="read", hearts_broken=True)
    deal(state, {1: ["2H", "3S", "4S"], 2: ["5S"], 3: ["6S"], 0: ["QS", "7S"]})
    refused(game, state, "2H", "hearts cannot be led until hearts are broken")
    do(game, state, "4S")
    assert not state.broken


def test_a_heart_led_breaks_hearts_with_option_lead_breaks():
    game, state = new(4, deal="read", hearts_broken=True, lead_breaks=True)
    deal(state, SUIT_HANDS)  # Blue holds only hearts: may lead one
    events = do(game, state, "2H")
    assert HeartsBroken(False) in events and state.broken


def test_only_a_heart_played_out_of_suit_breaks_hearts():
    # Rulebook 000, Hearts: "Hearts are broken when at least one heart has been played out
    # of suit on a trick." A heart led, or hearts following a heart lead, do not break them.
    game, state = new(4, deal="read", hearts_broken=True)
    deal(state, SUIT_HANDS)  # Blue holds only hearts: may lead one
    events = do(game, state, "2H")
    assert not any(isinstance(e, HeartsBroken) for e in events) and not state.broken
    game, state = new(4, deal="read", hearts_broken=True)
    deal(state, {1: ["2D", "3D"], 2: ["5H", "4S"], 3: ["5D"], 0: ["6D"]}, void={2: "D"})
    do(game, state, "2D")
    events = do(game, state, "5H")  # Green is void in diamonds: a heart out of suit
    assert HeartsBroken(False) in events and state.broken


def test_queen_breaks_hearts_and_queen_waits():
    game, state = new(4, deal="read", hearts_broken=True, queen_breaks=True)
    deal(state, {1: ["2D", "3D"], 2: ["QS", "4S"], 3: ["5D"], 0: ["6D"]}, void={2: "D"})
    do(game, state, "2D")
    events = do(game, state, "QS")  # Green is void in diamonds
    assert HeartsBroken(True) in events
    assert HeartsBroken(True).describe(NAMES) == "The queen breaks hearts."
    game, state = new(4, deal="read", hearts_broken=True, queen_waits=True)
    deal(state, {1: ["2D", "3D"], 2: ["QS", "4S"], 3: ["5D"], 0: ["6D"]}, void={2: "D"})
    do(game, state, "2D")
    refused(game, state, "QS", "the queen of spades waits until hearts are broken")


def test_queen_waits_but_following_suit_comes_first():
    game, state = new(4, deal="read", queen_waits=True, hearts_broken=True)
    deal(state, {1: ["2S"], 2: ["QS", "2D", "3D"]}, void={2: "S"})
    assert not any(rules.suit(c) == "S" for c in state.hands[2] if c != "QS")
    do(game, state, "2S", "QS")  # her only spade: she must follow


# --------------------------------------------------------------------------- the moon


def test_shooting_the_moon_subtract():
    game, state = new(4, deal="read", moon="subtract")
    _scored(state, [10, 30, 0, 0])
    deal(state, SUIT_HANDS)
    events = play_out(state)
    scored = next(e for e in events if isinstance(e, HandScored))
    assert scored.shooter == 1 and scored.added == (0, -26, 0, 0)
    assert state.scores_ == [10, 4, 0, 0]
    assert scored.describe(NAMES).startswith("End of hand 1. Blue shoots the moon: 26 off")


def test_shooting_the_moon_add():
    game, state = new(4, deal="read", moon="add")
    deal(state, SUIT_HANDS)
    play_out(state)
    assert state.scores_ == [26, 0, 26, 26]


def test_shooting_the_moon_at_the_shooters_choice():
    game, state = new(4, deal="read", moon="choose")
    deal(state, SUIT_HANDS)
    events = play_out(state)
    assert MoonChoice(1) in events and state.phase == "moon" and state.current_player() == 1
    refused(game, state, "moon sideways", "moon subtract or moon add")
    with pytest.raises(IllegalAction):
        state.apply(Moon(0, "add"))
    do(game, state, "moon add")
    assert state.scores_ == [26, 0, 26, 26] and state.hand_number == 2


def test_without_the_moon_rule_all_points_count_against_the_taker():
    game, state = new(4, deal="read")
    deal(state, SUIT_HANDS)
    play_out(state)
    assert state.scores_ == [0, 26, 0, 0]


def test_a_moon_without_the_queen_when_she_is_not_needed():
    taken = [[f"{r}H" for r in rules.RANKS], ["QS"], [], []]
    assert rules.hand_result(taken, "add", needs_queen=True).shooter is None
    result = rules.hand_result(taken, "add", needs_queen=False)
    assert result.shooter == 0 and result.added == (0, 39, 26, 26)


# --------------------------------------------------------------------------- the widow


def test_widow_goes_to_the_first_trick_and_its_points_count():
    game, state = new(3, deal="read", widow="first-trick")
    deal(state, {1: ["AC"], 2: ["2C"], 0: ["3C"]}, widow=["QS"])
    events = do(game, state, "AC", "2C", "3C")
    widow = next(e for e in events if isinstance(e, WidowTaken))
    assert widow == WidowTaken(1, ("QS",))
    assert widow.describe(NAMES) == "Blue takes the widow, queen of spades: thirteen points."
    assert "QS" in state.taken[1]


def test_widow_goes_to_the_first_trick_with_points():
    game, state = new(5, deal="read", widow="first-points")
    deal(state, {1: ["AC", "KD"], 2: ["2C", "2D"], 3: ["3C", "5H"], 4: ["4C", "AD"],
                 0: ["5C", "3D"]}, widow=["AH", "KH"], void={3: "D"})
    do(game, state, "AC", "2C", "3C", "4C", "5C")
    assert state.widow_taker is None
    do(game, state, "KD", "2D", "5H", "AD")
    events = do(game, state, "3D")
    assert WidowTaken(4, ("AH", "KH")) in events
    assert sum(rules.points(c) for c in state.taken[4]) == 3


def test_hidden_widow_is_read_when_taken():
    game, state = new(3, deal="hidden", widow="first-trick")
    do(game, state, "AC", "2C", "3C")
    assert state.current_player() == CHANCE and state.chance().who == 1
    refused(game, state, "AC", "played this hand")
    do(game, state, "QS")
    assert "QS" in state.taken[1] and state.phase == "play"


# --------------------------------------------------------------------------- deal=hidden


def test_hidden_a_card_already_played_is_refused():
    game, state = new(4)
    do(game, state, "5C", "KC")
    refused(game, state, "5C", "played this hand")


def test_hidden_a_player_who_showed_void_revealing_the_suit_is_a_revoke():
    game, state = new(4)
    do(game, state, "5C", "KC", "9H")  # Yellow did not follow clubs
    do(game, state, "2C")  # Green takes the trick and leads
    events = do(game, state, "3D", "7C")  # Yellow plays a club: Yellow held one in trick 1
    revoke = [e for e in events if isinstance(e, RevokeRevealed)]
    assert revoke == [RevokeRevealed(3, "7C", 1, "clubs were led and must be followed")]
    assert revoke[0].describe(NAMES) == (
        "Revoke! Yellow holds the seven of clubs, so the play in trick 1 broke the rule:"
        " clubs were led and must be followed.")


def test_hidden_a_heart_led_before_broken_is_a_revoke_once_another_suit_shows():
    game, state = new(4, hearts_broken=True)
    do(game, state, "5H", "6H", "7H", "8H")  # Blue led hearts: Blue must hold only hearts
    events = do(game, state, "2S")  # Red took the trick and leads
    assert not any(isinstance(e, RevokeRevealed) for e in events)
    events = do(game, state, "3S")  # Blue had a spade
    assert [e.rule for e in events if isinstance(e, RevokeRevealed)] == [
        "hearts cannot be led until hearts are broken"]


def test_hidden_two_clubs_opening_names_its_player():
    game, state = new(4, two_clubs=True)
    assert state.hidden_opening_due()
    refused(game, state, "2C", "who leads the two of clubs")
    refused(game, state, "AC Blue", "opens with the two of clubs")
    do(game, state, "2C Green")
    assert state.leader == 2 and state.turn == 3


def test_hidden_widow_the_three_of_clubs_may_open_and_a_two_shown_later_is_a_revoke():
    game, state = new(3, widow="first-points", two_clubs=True)
    assert state.expected() == "Whoever holds the two of clubs leads it (say: 2C NAME)"
    refused(game, state, "4C Blue", "opens with the two of clubs")
    do(game, state, "3C Blue", "5C", "6C")  # the two may lie in the widow
    do(game, state, "7C", "8C", "9C")  # Red leads; Green takes the trick
    events = do(game, state, "2C")  # Green held the two after all
    assert [e.rule for e in events if isinstance(e, RevokeRevealed)] == [
        "the holder of the lowest club out of the widow opens the hand with it"]


def test_hidden_choices_tell_the_rule_not_the_cards():
    game, state = new(4, hearts_broken=True)
    assert state.choices_text() == "Lead anything but a heart, unless you hold only hearts."
    do(game, state, "5C")
    assert state.choices_text() == "Follow clubs if you can."
    assert state.choices_after_move() == ""


# --------------------------------------------------------------------------- deal=tally


def test_tally_only_the_points_of_each_hand():
    game, state = new(4, deal="tally", **{"pass": "cycle-left"})
    assert state.expected() == ("Pass left. After the hand, say the points taken by Red, Blue,"
                                " Green, Yellow, like: points 0 0 0 26")
    events = do(game, state, "points 5 8 13 0")
    scored = next(e for e in events if isinstance(e, HandScored))
    assert scored.totals == (5, 8, 13, 0) and state.hand_number == 2 and state.shift() == 3
    refused(game, state, "points 1 2 3", "say 4 numbers")
    refused(game, state, "4 4 4 4", "add up to 26")
    refused(game, state, "points 6 6 7 7", "at least one player has 13")
    refused(game, state, "5H", "say the points")
    do(game, state, "0 0 26 0")
    assert state.scores_ == [5, 8, 39, 0]


def test_tally_moon_from_twenty_six_points():
    game, state = new(4, deal="tally", moon="add")
    do(game, state, "points 0 26 0 0")
    assert state.scores_ == [26, 0, 26, 26]
    game, state = new(4, deal="tally", moon="choose")
    do(game, state, "0 26 0 0")
    assert state.phase == "moon" and state.current_player() == 1
    do(game, state, "moon subtract")
    assert state.scores_ == [0, -26, 0, 0] and state.phase == "tally"


def test_tally_game_end():
    game, state = new(3, deal="tally")
    for _ in range(3):
        do(game, state, "points 26 0 0")
    assert not state.is_terminal() and state.scores_ == [78, 0, 0]
    events = do(game, state, "points 23 1 2")  # 101 passes 100
    assert state.is_terminal() and state.winners() == (1,)
    assert any(isinstance(e, GameOver) for e in events)


# --------------------------------------------------------------------------- input words


def test_queries_change_nothing():
    game, state = new(4)
    do(game, state, "QS")
    assert game.query(state, "scores") == "Scores: Red 0, Blue 0, Green 0, Yellow 0."
    assert game.query(state, "trick") == "This trick: Blue the queen of spades."
    assert game.query(state, "points").startswith("Points taken this hand: Red 0")
    assert game.query(state, "play 5H") is None


def test_bad_words_are_refused_with_state_unchanged():
    game, state = new(4, deal="read")
    refused(game, state, "card ZZ", "not a card")
    deal(state, SUIT_HANDS)
    refused(game, state, "moon add", "nobody shot the moon")
    refused(game, state, "pass 2H 3H 4H", "no passing now")
    refused(game, state, "2S", "red holds it")
    with pytest.raises(IllegalAction):
        state.apply(Draw("2S"))


# --------------------------------------------------------------------------- random games


OPTION_SPACE: dict[str, list[Any]] = {
    "deal": ["hidden", "read", "tally"], "pass": list(rules.PASS_CHOICES),
    "widow": ["no", "first-trick", "first-points"], "two_clubs": [False, True],
    "lowest_club": [False, True], "first_trick": ["allowed", "no-discard", "none"],
    "hearts_broken": [False, True], "queen_breaks": [False, True], "queen_waits": [False, True],
    "moon": ["none", "subtract", "add", "choose"], "moon_needs_queen": [True, False],
}


def _random_game(rng, n_games):
    for _ in range(n_games):
        options = {k: rng.choice(v) for k, v in OPTION_SPACE.items()}
        game, state = new(rng.randint(3, 6), to=rng.choice([26, 50, 100]), **options)
        yield game, state


def _play_random_games(seed: int, count: int) -> None:
    rng = random.Random(seed)
    for game, state in _random_game(rng, count):
        steps = 0
        hand = state.hand_number
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                action = state.sample_chance(rng)
            else:
                actions = state.legal_actions()
                assert actions, state.expected()
                action = rng.choice(actions)
                if state.read and state.phase == "play" and rng.random() < 0.2:
                    # Every card the player holds that is not listed is refused, unchanged.
                    for c in state.hands[action.player]:
                        if Play(action.player, c) not in actions:
                            before = state.to_json()
                            with pytest.raises(IllegalAction):
                                state.apply(Play(action.player, c))
                            assert state.to_json() == before
            state.apply(action)
            steps += 1
            assert steps <= game.max_length()
            if state.hand_number != hand:
                hand = state.hand_number
                last = state.history[-1]
                assert sum(last["taken"]) == 26
                assert len(state.played) == 0
        assert state.winners()
        low = min(state.scores_)
        assert all(state.scores_[w] == low for w in state.winners())
        past = (max(state.scores_) >= state.target if game.options["end"] == "reaches"
                else max(state.scores_) > state.target)
        assert past
        json.dumps(state.to_json())


@pytest.mark.parametrize("seed", range(4))
def test_random_full_games_keep_the_rules(seed):
    _play_random_games(seed, 40)


@pytest.mark.slow
def test_hundreds_more_random_full_games():
    # 400 games of up to a few dozen hands each: thousands of hands.
    _play_random_games(100, 400)


# --------------------------------------------------------------------------- hidden = read


def _read_then_hidden(seed: int) -> None:
    """Play a game with every card read (so every play is legal), then give the same plays
    to a deal=hidden game: it must accept them all, see no revoke, and score the same."""
    rng = random.Random(seed)
    options = {k: rng.choice(v) for k, v in OPTION_SPACE.items() if k != "deal"}
    n = rng.randint(3, 6)
    game, read = new(n, deal="read", to=60, **options)
    script: list = []  # plays and moon choices, and each widow as it is taken
    while not read.is_terminal():
        if read.current_player() == CHANCE:
            read.apply(read.sample_chance(rng))
            continue
        action = rng.choice(read.legal_actions())
        taker_before = read.widow_taker
        read.apply(action)
        if isinstance(action, Play | Moon):
            script.append(action)
        if read.widow_n and taker_before is None and read.widow_taker is not None:
            script += [Draw(c) for c in read.widow]
    game, hidden = new(n, deal="hidden", to=60, **options)
    for action in script:
        events = hidden.apply(action)
        assert not any(isinstance(e, RevokeRevealed) for e in events), (action, events)
    assert hidden.is_terminal()
    assert hidden.history == read.history and hidden.winners() == read.winners()


@pytest.mark.parametrize("seed", range(40))
def test_hidden_accepts_every_legal_game_and_scores_it_the_same(seed):
    _read_then_hidden(seed)


# --------------------------------------------------------------------------- a session


def live(session) -> HeartsState:
    state = session.state
    assert isinstance(state, HeartsState)
    return state


def test_a_session_with_a_virtual_deal_typed_plays_undo_and_resume():
    from companion.journal import Journal
    from companion.session import Session
    from companion.voice import Recorder

    recorder = Recorder()
    game = Hearts(["Red", "Blue", "Green", "Yellow"],
                  {"deal": "read", "pass": "left", "two_clubs": True, "hearts_broken": True})
    session = Session.start(game, Journal.memory(), recorder, seed=7,
                            auto_chance=frozenset({"card"}))
    assert live(session).phase == "pass"
    for p in range(4):
        hand = live(session).hands[p]
        assert session.command(f"{NAMES[p]} pass {' '.join(hand[:3])}").accepted
    assert live(session).phase == "play"
    assert recorder.texts[-1].endswith("leads the two of clubs.")
    leader = live(session).turn
    wrong = next(c for c in live(session).hands[leader] if c != "2C")
    reply = session.command(wrong)
    assert not reply.accepted and "opens with the two of clubs" in reply.text
    while live(session).hand_number == 1:
        play = live(session).legal_actions()[0]
        assert isinstance(play, Play)
        card = play.card
        assert session.command(card).accepted
    assert any(t.startswith("End of hand 1.") for t in recorder.texts)
    before = json.dumps(live(session).to_json(), sort_keys=True)
    session.command(f"pass {' '.join(live(session).hands[0][:3])}")
    session.undo()
    assert json.dumps(live(session).to_json(), sort_keys=True) == before
    resumed = Session.resume(session.journal, Recorder())
    assert json.dumps(resumed.state.to_json(), sort_keys=True) == before
