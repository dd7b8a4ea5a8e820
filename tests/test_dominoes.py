"""Dominoes, the draw games of rulebooks 000 and 004: rules, worked examples, refusals."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from companion.engine import CHANCE, Draw, GameOver, IllegalAction
from companion.games import find
from companion.games.dominoes import Bergen, Dominoes, DoubleSix
from companion.games.dominoes.actions import Pass, Play, Redeal, ShowHand
from companion.games.dominoes.rules import score_round
from companion.games.dominoes.state import DominoState
from companion.games.dominoes.tiles import ALL_TILES, parse_tile, tile_name

NAMES = ["Red", "Blue", "Green", "Yellow"]


def make(name: str = "dominoes", players: int = 2, **options: Any) -> DominoState:
    state = find(name)(NAMES[:players], options).new_state()
    assert isinstance(state, DominoState)
    return state


def said(state: DominoState, action: Any) -> list[str]:
    return [e.describe(state.game.players) for e in state.apply(action)]


def typed(state: DominoState, text: str) -> list[str]:
    return said(state, state.game.parse_action(state, text))


def refused(state: DominoState, action: Any) -> str:
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    assert state.to_json() == before
    return err.value.reason


def refused_text(state: DominoState, text: str) -> str:
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        state.apply(state.game.parse_action(state, text))
    assert state.to_json() == before
    return err.value.reason


def read_deal(state: DominoState, hands: list[list[str]]) -> list[str]:
    out: list[str] = []
    for hand in hands:
        for tile in hand:
            assert state.current_player() == CHANCE
            out += said(state, Draw(tile))
    return out


# --------------------------------------------------------------------------- tiles


def test_tiles_parse_and_name() -> None:
    assert len(ALL_TILES) == 28 and len(set(ALL_TILES)) == 28
    assert sum(int(t[0]) + int(t[2]) for t in ALL_TILES) == 168  # a double-six set
    assert parse_tile("4-6") == "6-4" == parse_tile("64") == parse_tile("6:4")
    assert tile_name("6-4") == "six-four" and tile_name("5-5") == "double five"
    assert tile_name("3-0") == "three-blank"
    for bad in ("7-1", "6", "x-y", "6-4-2"):
        with pytest.raises(IllegalAction):
            parse_tile(bad)


def test_registered_names_and_aliases() -> None:
    assert find("dominoes").spec.rulebook.startswith("000")
    assert find("Double-Six Dominoes").spec.name == "double-six"
    assert find("double-six").spec.rulebook.startswith("004")


# --------------------------------------------------------------------------- scoring


def test_rulebook_000_worked_example_blocked() -> None:
    # "Player A, the winner, has 3 remaining dots. Player B has 9 and Player C has 21:
    #  B (9) + C (21) - A (3) = 27 points."
    variant = Dominoes.variant
    result = score_round(variant, None, [3, 9, 21], [None] * 3, "difference", ["A", "B", "C"])
    assert (result.winner, result.points) == (0, 27)
    assert "B 9 plus C 21, minus A's own 3, makes 27" in result.detail


def test_going_out_scores_all_opponents_pips() -> None:
    variant = DoubleSix.variant
    result = score_round(variant, 1, [9, 0, 21], [None] * 3, "difference", ["A", "B", "C"])
    assert (result.winner, result.points) == (1, 30)


def test_blocked_tie_scores_nothing() -> None:
    variant = Dominoes.variant
    result = score_round(variant, None, [5, 5, 21], [None] * 3, "difference", ["A", "B", "C"])
    assert (result.winner, result.points) == (-1, 0)


# --------------------------------------------------------------------------- a hidden round


def test_hidden_round_to_domino_with_sentences() -> None:
    s = make()
    assert "play 6-6" in s.expected()
    # Hidden hands: the first tile needs who sets it.
    with pytest.raises(IllegalAction, match="Who sets it"):
        s.game.parse_action(s, "play 6-6")
    assert "must" not in refused_text(s, "play 6-4 Red")  # not a double
    texts = typed(s, "play 6-6 Red")
    assert texts[0] == "Red sets the double six; the open ends are six and six."
    assert s.turn == 1
    # Both ends alike: no question (issue 17), though a side may still be named.
    assert refused(s, Play(0, "6-4", "left")) == "It is Blue's turn, not Red's"
    texts = typed(s, "play 6-4 left")
    assert texts[0] == "Blue plays six-four on the left; the ends are four and six."
    assert typed(s, "6-5")[0] == "Red plays six-five on the right; the ends are four and five."
    assert "already on the table" in refused_text(s, "play 6-6")
    assert refused_text(s, "play 3-3") == (
        "The double three fits neither end: the open ends are four and five")
    assert "does not fit on the right" in refused_text(s, "play 4-3 right")
    assert "boneyard still has" in refused_text(s, "pass")
    typed(s, "play 4-3")
    typed(s, "play 5-5")  # Red
    typed(s, "play 3-2")  # Blue: ends 2, 5
    typed(s, "play 5-1")  # Red: ends 2, 1
    typed(s, "play 2-2")  # Blue
    texts = typed(s, "play 1-0")  # Red's fifth tile
    assert "Red plays the last tile: Domino!" in texts
    assert texts[-1] == "Blue: show your tiles (hand 6-4 3-3) or say their pips (pips 13)."
    assert s.phase == "reveal" and s.current_player() == 1
    assert "has one tile left, not 2" in refused_text(s, "hand 6-3 6-2")
    assert "already on the table" in refused_text(s, "hand 6-5")
    assert "cannot make 13 pips" in refused_text(s, "pips 13")
    texts = typed(s, "hand 6-3")
    assert texts[0] == "Blue holds six-three: 9 pips."
    assert "Red wins the round and scores 9: Blue 9 pips." in texts
    assert s.points == [9, 0] and s.round_number == 2 and s.phase == "opening"


def test_hidden_draws_passes_block_and_false_pass() -> None:
    s = make(players=3)
    typed(s, "play 6-6 Red")
    assert s.boneyard() == 13
    for _ in range(13):
        typed(s, "draw")  # Blue draws the whole boneyard
    assert s.boneyard() == 0 and s.remaining(1) == 18
    assert "boneyard is empty" in refused_text(s, "draw")
    assert typed(s, "pass")[0] == "Blue cannot play on six and six and passes."
    typed(s, "pass")  # Green
    texts = typed(s, "pass")  # Red: three passes in a row, the game is blocked
    assert texts[-1] == ("Nobody can play on six and six: the game is blocked. Show the tiles"
                         " left in each hand.")
    assert s.phase == "reveal"
    assert [p for p in s.reveal_order()] == [1, 2, 0]
    assert "between 76 and 133" in refused_text(s, "pips 60")
    typed(s, "pips 122")  # the 27 tiles off the table hold 156 pips: 156 - 27 - 7
    texts = typed(s, "hand 6-5 4-4 3-0 2-1 1-1")  # Green held a six when passing
    assert texts[1] == ("Note: Green passed on six and six while holding the six-five,"
                        " which fits.")
    assert "cannot make 2 pips" in refused_text(s, "pips 2")  # four tiles make at least 5
    texts = typed(s, "hand 0-0 1-0 2-0 3-1")  # Red: 7 pips, the lowest
    assert ("Red wins the round and scores 142: the lowest hand, 7 pips. Blue 122 plus"
            " Green 27, minus Red's own 7, makes 142.") in texts
    assert s.points == [142, 0, 0] and s.is_terminal() and s.winners() == (0,)


def test_blocked_score_option_opponents() -> None:
    s = make(players=2, blocked_score="opponents")
    typed(s, "play 6-6 Red")
    for _ in range(18):
        typed(s, "draw")
    typed(s, "pass")
    typed(s, "pass")
    typed(s, "pips 149")
    texts = typed(s, "hand 0-0 1-0 2-0 3-1")
    assert "Red wins the round and scores 149: the lowest hand, 7 pips. Blue 149 pips." in texts


def test_redeal_when_nobody_drew_a_double() -> None:
    s = make()
    texts = typed(s, "redeal")
    assert texts[0] == "Nobody drew a double: return the tiles, mix them and draw again."
    assert s.round_number == 1 and s.phase == "opening"
    typed(s, "play 5-5 Blue")
    assert refused(s, Redeal()).startswith("No redeal now")


def test_drawn_tile_shown_is_kept_and_checked() -> None:
    s = make()
    typed(s, "play 6-6 Red")
    typed(s, "draw 6-1")  # Blue shows the tile drawn: it fits, so Blue cannot draw again
    assert "cannot draw: the six-one fits" in refused_text(s, "draw")
    typed(s, "play 6-1 left")
    assert s.hands[1] == []


def test_game_ends_at_target_score() -> None:
    s = make(to=50)
    s.points = [45, 0]
    typed(s, "play 6-6 Red")
    s.unknown[0] = 1  # Red plays out on the next turn (a short hand, for the test)
    typed(s, "play 6-5 left")
    typed(s, "play 6-4")
    events = s.apply(ShowHand(1, ("5-5", "0-0", "1-0", "2-0")))
    assert isinstance(events[-1], GameOver) and events[-1].winners == (0,)
    assert s.is_terminal() and s.winners() == (0,) and s.points == [58, 0]


# --------------------------------------------------------------------------- tiles=read


def test_read_deal_highest_double_sets() -> None:
    s = make(tiles="read")
    texts = read_deal(s, [["6-5", "4-4", "3-1", "2-0", "1-1"], ["5-5", "6-2", "6-3", "5-0", "4-1"]])
    assert texts == ["Blue holds the highest double, the double five, and sets it."]
    assert s.legal_actions() == [Play(1, "5-5")]
    assert "Blue sets it" in refused(s, Play(0, "4-4"))
    typed(s, "play 5-5")
    # Red holds the six-five, which fits: a pass is refused.
    assert "cannot pass: the six-five fits" in refused(s, Pass(0))
    assert refused(s, Play(0, "5-0", "left")) == (
        "Red cannot play the five-blank: Blue holds it")
    assert refused(s, Play(0, "6-2", "left")) == "Red cannot play the six-two: Blue holds it"
    assert refused(s, Play(0, "5-1", "left")) == (
        "Red does not hold the five-one; Red holds six-five, double four, three-one, two-blank"
        " and double one")


def test_read_no_double_redeals() -> None:
    s = make(tiles="read")
    texts = read_deal(s, [["6-5", "4-3", "3-1", "2-0", "1-0"], ["5-4", "6-2", "6-3", "5-0", "4-1"]])
    assert texts[0] == "Nobody drew a double: return the tiles, mix them and draw again."
    assert s.phase == "deal" and s.dealt == 0


def test_read_player_who_cannot_play_draws_the_tile_read() -> None:
    s = make(tiles="read")
    read_deal(s, [["6-6", "4-3", "3-1", "2-0", "1-0"], ["5-4", "5-2", "5-3", "5-0", "4-1"]])
    typed(s, "play 6-6")
    assert s.current_player() == CHANCE and s.chance().who == 1  # type: ignore[union-attr]
    assert "Blue cannot play on six and six" in s.expected()
    assert "cannot be drawn: it is already on the table" in refused(s, Draw("6-6"))
    assert "Red holds it" in refused(s, Draw("4-3"))
    texts = typed(s, "card 6-1")
    assert texts == ["Blue draws the six-one from the boneyard; 17 left."]
    assert s.current_player() == 1
    assert s.legal_actions() == [Play(1, "6-1", "")]  # both ends six: one way to play it


# --------------------------------------------------------------------------- 004: spinners


def test_double_six_first_double_is_open_four_ways() -> None:
    # 004: "if the first domino played is a double four, the second player may add one domino
    # containing four spots on one end or side."
    s = make("double-six", players=3)
    texts = typed(s, "play 4-4 Green")
    assert texts[0] == "Green sets the double four; the open ends are four, four, four and four."
    assert s.turn == 0
    texts = typed(s, "play 6-4")
    assert texts[0] == "Red plays six-four on a four; the ends are six, four, four and four."
    typed(s, "play 6-6")  # a later double opens its far side and both ends
    assert s.end_values() == (6, 6, 6, 4, 4, 4)
    assert refused(s, Play(2, "6-4")) == (
        "Green cannot play the six-four: it is already on the table")
    assert refused(s, Play(2, "4-1", "on 6")) == (
        "The four-one does not fit on 6: the open ends are six, six, six, four, four and four")
    typed(s, "play 4-1")
    assert s.end_values() == (6, 6, 6, 4, 4, 1)
    assert refused(s, Play(0, "6-1")) == (
        "The six-one fits on six and on one: say play 6-1 on 6 or on 1")
    typed(s, "play 6-1 on 1")
    assert s.end_values() == (6, 6, 6, 6, 4, 4)
    assert "fits no open end: the open ends are six, six, six, six, four and four" in (
        refused_text(s, "play 5-3"))


def test_spinner_options() -> None:
    s = make("double-six", spinners="first")
    typed(s, "play 3-3 Red")
    typed(s, "play 3-1")
    typed(s, "play 1-1")
    assert s.end_values() == (3, 3, 3, 1)
    line = make("double-six", spinners="none")
    typed(line, "play 3-3 Red")
    assert line.end_values() == (3, 3)


# --------------------------------------------------------------------------- random games


@pytest.mark.parametrize("name", ["dominoes", "double-six", "block-dominoes", "bergen"])
@pytest.mark.parametrize("tiles", ["read", "count"])
def test_random_games(name: str, tiles: str) -> None:
    rng = random.Random(f"dominoes:{name}:{tiles}")
    for _ in range(80):
        players = rng.randint(2, 4)
        s = make(name, players, tiles=tiles)
        steps, limit = 0, s.game.max_length()
        while not s.is_terminal():
            if s.current_player() == CHANCE:
                action = s.sample_chance(rng)
            else:
                actions = s.legal_actions()
                assert actions, s.expected()
                action = rng.choice(actions)
            s.apply(action)
            steps += 1
            assert steps < limit
            assert len(s.layout) + sum(s.remaining(p) for p in range(players)) + (
                s.boneyard() if s.phase != "deal" else 0) <= 28
        assert max(s.points) >= s.target and s.winners() == (s.points.index(max(s.points)),)


# --------------------------------------------------------------------------- Block (000)


def test_block_no_drawing_passes_and_sleeping_tiles() -> None:
    s = make("block", players=2)
    assert s.variant.hand_size == 7 and s.boneyard() == 14
    typed(s, "play 6-6 Red")
    assert refused_text(s, "draw") == "There is no drawing in this game: pass if you cannot play"
    assert s.expected() == "Blue to play on six and six, or pass"
    assert typed(s, "pass")[0] == "Blue cannot play on six and six and passes."


def test_block_blocked_earns_all_opponents_pips_but_004_subtracts() -> None:
    # The same blocked hands: Block (000) earns the opponents' pips; 004 subtracts its own.
    def blocked(name: str) -> tuple[list[int], list[str]]:
        s = make(name, players=2)
        typed(s, "play 6-6 Red")
        if s.variant.draws:
            for _ in range(18):
                typed(s, "draw")
        typed(s, "pass")
        typed(s, "pass")
        if s.variant.draws:
            typed(s, "pips 149")
            return s.points, typed(s, "hand 0-0 1-0 2-0 3-1")
        typed(s, "pips 40")  # Blue first: the reveal goes round from the player to move
        return s.points, typed(s, "hand 0-0 1-0 2-0 3-1 6-5 6-4")  # Red's six tiles: 28
    points, texts = blocked("block")
    assert points == [40, 0]
    assert "Red wins the round and scores 40: the lowest hand, 28 pips. Blue 40 pips." in texts
    points, texts = blocked("double-six")
    assert points == [142, 0]
    assert ("Red wins the round and scores 142: the lowest hand, 7 pips. Blue 149, minus"
            " Red's own 7, makes 142.") in texts


def test_block_read_four_players_all_tiles_dealt() -> None:
    s = make("block", players=4, tiles="read")
    rng = random.Random(3)
    while s.phase == "deal":
        s.apply(s.sample_chance(rng))
    assert s.boneyard() == 0 and sum(len(h) for h in s.hands) == 28
    holder = next(p for p in range(4) if "6-6" in s.hands[p])
    assert s.legal_actions() == [Play(holder, "6-6")]


# --------------------------------------------------------------------------- Bergen (000)


def test_bergen_double_and_triple_headers() -> None:
    s = make("bergen")
    assert s.variant.hand_size == 6 and s.boneyard() == 16
    texts = typed(s, "play 6-6 Red")
    assert texts[1] == "Red scores 2 for setting the first double: 2 in all."
    texts = typed(s, "play 6-4 left")  # ends 4 and 6: nothing
    assert texts == ["Blue plays six-four on the left; the ends are four and six.", "Red's turn."]
    typed(s, "play 6-3")  # Red: ends 4 and 3
    texts = typed(s, "play 4-3 right")  # Blue: ends 4 and 4, no double at an end
    assert texts[1:3] == ["Both ends match: a double-header, two points.",
                          "Blue scores 2 for a double-header: 2 in all."]
    texts = typed(s, "play 4-4 left")  # Red: a double at one end, both ends four
    assert texts[1:3] == [
        "Both ends match with a double at an end: a triple-header, three points.",
        "Red scores 3 for a triple-header: 5 in all."]
    assert s.points == [5, 2]


def test_bergen_going_out_scores_one_and_needs_no_hands() -> None:
    s = make("bergen")
    typed(s, "play 6-6 Red")
    moves = ["6-5 left", "6-4", "5-3", "4-2", "3-1", "2-0", "1-1", "3-0", "3-3"]
    for move in moves:
        typed(s, f"play {move}")
    assert s.end_values() == (1, 3)
    texts = typed(s, "play 2-1")  # Red's sixth tile
    assert texts[:4] == [
        "Red plays two-one on the left; the ends are two and three.",
        "Red plays the last tile: Bergen!",
        "Red wins the round and scores 1: one point for going out.",
        "Scores: Red 3, Blue 0; 15 to win.",
    ]
    assert s.phase == "opening" and s.round_number == 2 and s.points == [3, 0]


def test_bergen_blocked_scoring_rules() -> None:
    variant = Bergen.variant
    names = ["A", "B", "C"]
    # The lowest hand holds a double: the lowest hand without one wins the point.
    r = score_round(variant, None, [2, 9, 12], [("1-1",), ("6-3",), ("6-6",)], "", names)
    assert (r.winner, r.points) == (1, 1)
    # Every hand holds a double: count all but the doubles.
    r = score_round(variant, None, [14, 9, 13], [("1-1", "6-6"), ("2-2", "3-2"), ("0-0", "6-5",
                                                                              "1-1")], "", names)
    assert (r.winner, r.points) == (0, 1)
    assert "every hand holds a double" in r.detail
    r = score_round(variant, None, [3, 3, 9], [("2-1",), ("3-0",), ("6-3",)], "", names)
    assert (r.winner, r.points) == (-1, 0)


def test_bergen_hand_needed_not_pips_and_game_ends_at_15() -> None:
    s = make("bergen")
    s.points = [13, 0]
    texts = typed(s, "play 5-5 Red")
    assert texts[-1] == "Red wins the game! 15 points."
    assert s.is_terminal() and s.winners() == (0,)
    b = make("bergen")
    typed(b, "play 6-6 Red")
    for _ in range(16):
        typed(b, "draw")
    typed(b, "pass")
    typed(b, "pass")
    assert "Bergen needs the tiles" in refused_text(b, "pips 20")


def test_a_higher_double_held_from_the_start_is_pointed_out() -> None:
    s = make(players=3)
    typed(s, "play 5-5 Red")
    texts = typed(s, "play 5-6 left")
    assert texts == ["Blue plays six-five on the left; the ends are six and five.", "Green's turn."]
    typed(s, "draw")  # Green drew: a double Green plays now may have come from the boneyard
    assert not any("Note" in t for t in typed(s, "play 6-6"))
    texts = typed(s, "play 5-4")  # Red
    texts = typed(s, "play 6-3")  # Blue has drawn nothing
    assert not any("Note" in t for t in texts)
    s2 = make(players=2)
    typed(s2, "play 4-4 Red")
    texts = typed(s2, "play 6-4 left")
    texts = typed(s2, "play 6-6")  # Red drew nothing: held the double six all along
    assert texts[1] == ("Note: Red held the double six from the start, higher than the double"
                        " four set first.")


# --------------------------------------------------------------------------- session


def test_session_typed_reader_undo_and_resume() -> None:
    from companion.journal import Journal
    from companion.observations import CardSeen
    from companion.session import Session
    from companion.voice import Recorder

    recorder = Recorder()
    game = find("dominoes")(["Red", "Blue"])
    session = Session.start(game, Journal.memory(), announcer=recorder)
    reply = session.command("play 6-6")
    assert not reply.accepted and "Who sets it" in reply.text
    assert session.command("play 6-6 Red").accepted
    assert "Red sets the double six; the open ends are six and six." in recorder.texts
    assert session.command("Blue play 6-4 left").accepted
    reply = session.submit(CardSeen(source="reader", card="5-6"))  # Red's tile, one end fits
    assert reply.accepted
    assert recorder.texts[-2] == "Red plays six-five on the right; the ends are four and five."
    assert session.command("ends").text == "The open ends are four and five."
    assert not session.command("Red pass").accepted  # Blue's turn
    session.undo()
    assert session.state.end_values() == (4, 6)  # type: ignore[attr-defined]
    assert session.command("card 6-5").accepted
    resumed = Session.resume(session.journal, Recorder())
    assert resumed.state.to_json() == session.state.to_json()


# --------------------------------------------------------------------------- invariants


@pytest.mark.slow
def test_1000_random_games_keep_the_tiles_and_ends_consistent() -> None:
    rng = random.Random("dominoes:invariants")
    games = 0
    for name in ("dominoes", "double-six", "block-dominoes", "bergen"):
        for tiles in ("read", "count"):
            for _ in range(125):
                players = rng.randint(2, 4)
                options: dict[str, Any] = {"tiles": tiles}
                if name == "double-six":
                    options["spinners"] = rng.choice(["all", "first", "none"])
                s = make(name, players, **options)
                _play_checked(s, rng)
                games += 1
    assert games == 1000


def _play_checked(s: DominoState, rng: random.Random) -> None:
    points = list(s.points)
    while not s.is_terminal():
        if s.current_player() == CHANCE:
            s.apply(s.sample_chance(rng))
        else:
            s.apply(rng.choice(s.legal_actions()))
        assert all(a >= b for a, b in zip(s.points, points, strict=True))
        points = list(s.points)
        if s.phase not in ("play", "reveal"):
            continue
        held = sum(s.remaining(p) for p in range(s.n))
        assert len(s.layout) + held + s.boneyard() == 28
        assert len(set(s.layout)) == len(s.layout)
        doubles_after = sum(t[0] == t[2] for t in s.layout[1:])
        expected_ends = {"none": 2, "first": 4, "all": 4 + 2 * doubles_after}[s.spinners]
        assert len(s.ends) == expected_ends
        if s.line:  # every join pairs two equal halves: the rest show at the ends
            halves = Counter(t[0] for t in s.layout) + Counter(t[2] for t in s.layout)
            for v in range(7):
                assert (halves[str(v)] - s.end_values().count(v)) % 2 == 0


def test_bergen_any_double_reading_as_an_option() -> None:
    s = make("bergen", triple_header="any-double")
    typed(s, "play 6-6 Red")
    texts = typed(s, "play 6-4 left")  # ends 4 and 6, the double six at the right end
    assert texts[1:3] == ["A double lies at an end: three points.",
                          "Blue scores 3 for a double at an end: 3 in all."]
    plain = make("bergen")
    typed(plain, "play 6-6 Red")
    assert len(typed(plain, "play 6-4 left")) == 2  # the play and the turn: no points


def test_malformed_actions_are_refused_without_change_in_all_seven_games() -> None:
    from companion.engine import Shuffle
    from companion.games.dominoes.actions import Pick, Pips
    from companion.games.dominoes.bingo import Take
    from companion.games.dominoes.poker import Fold
    from companion.games.dominoes.texas import Bid, NameTrump

    rng = random.Random("dominoes:junk")
    tiles = ["6-4", "4-6", "0-0", "9-9", "x", "", "6-6"]

    def junk() -> Any:
        p = rng.choice([-1, 0, 1, 2, 3, 5, 9])
        t = rng.choice(tiles)
        return rng.choice([
            Play(p, t, rng.choice(["", "left", "right", "on 6", "up", "7"])), Pick(p, t),
            Pass(p), Redeal(), ShowHand(p, (t,)), Pips(p, rng.choice([-3, 0, 500])), Fold(p),
            Bid(p, rng.choice([-1, 29, 43, 84])), NameTrump(p, rng.choice(["9", "x"])),
            Take(p, rng.random() < 0.5), Draw(t), Shuffle("dominoes", (t,)),
        ])

    for name in ("dominoes", "double-six", "block-dominoes", "bergen", "domino-poker",
                 "domino-bingo", "texas-42"):
        cls = find(name)
        for _ in range(8):
            n = rng.randint(cls.spec.min_players, cls.spec.max_players)
            options = {} if name == "domino-bingo" else {"tiles": rng.choice(["read", "count"])}
            s = cls([f"P{i}" for i in range(n)], options).new_state()
            for _ in range(150):
                if s.is_terminal():
                    break
                before = s.to_json()
                try:
                    s.clone().apply(junk())
                except IllegalAction:
                    assert s.to_json() == before
                s.apply(s.sample_chance(rng) if s.current_player() == CHANCE
                        else rng.choice(s.legal_actions()))


def test_simulate_tool(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from companion.games.dominoes.tools import simulate_double_six

    assert simulate_double_six(["--games", "5", "--players", "2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == 5 and result["rounds"] == result["went_out"] + result["blocked"]
    assert result["rounds_per_game"] >= 1


def test_one_pip_is_singular_in_every_sentence() -> None:
    # issue 22: "the lowest hand, 1 pips"
    from companion.engine import counted
    from companion.games.dominoes.events import HandCounted
    from companion.games.dominoes.rules import BERGEN, DRAW, Variant, score_round

    draw = Variant("draw", 7, True, DRAW, "none", "opponents", 100)
    names = ("Red", "Blue")
    blocked = score_round(draw, None, [1, 9], [None, None], "opponents", names)
    assert blocked.detail == "the lowest hand, 1 pip. Blue 9 pips."
    out = score_round(draw, 1, [1, 0], [None, None], "opponents", names)
    assert out.detail == "Red 1 pip."
    tie = score_round(draw, None, [1, 1], [None, None], "opponents", names)
    assert tie.detail == "Red and Blue tie with 1 pip, so no one scores."
    bergen = Variant("bergen", 6, True, BERGEN, "none", "opponents", 15)
    low = score_round(bergen, None, [1, 9], [["1-0"], ["5-4"]], "opponents", names)
    assert low.detail.endswith(", 1 pip.")
    assert HandCounted(0, 1, ()).describe(names) == "Red holds 1 pip."
    assert counted(1, "tile") == "1 tile" and counted(0, "tile") == "0 tiles"


def test_bergen_blocked_the_other_reading_as_an_option() -> None:
    # Bergen: "The lowest hand wins one point, provided that it does not contain a double.
    # Any hand containing a double receives zero points. If all hands contain doubles, count
    # all the points except for the doubles."
    variant = Bergen.variant
    names = ["A", "B", "C"]
    hands = [("1-1",), ("6-3",), ("6-6",)]
    clean = score_round(variant, None, [2, 9, 12], hands, "", names)
    assert (clean.winner, clean.points) == (1, 1)  # default: the lowest hand without a double
    lowest = score_round(variant, None, [2, 9, 12], hands, "", names, "lowest")
    assert (lowest.winner, lowest.points) == (-1, 0)
    assert lowest.detail == "the lowest hand, A's 2 pips, holds a double, so no one scores."
    won = score_round(variant, None, [3, 9, 12], [("2-1",), ("6-3",), ("6-6",)], "", names,
                      "lowest")
    assert (won.winner, won.points) == (0, 1)
    both = score_round(variant, None, [14, 9, 13], [("1-1", "6-6"), ("2-2", "3-2"),
                                                    ("0-0", "6-5", "1-1")], "", names, "lowest")
    assert (both.winner, both.points) == (0, 1)  # every hand holds a double: as printed
    assert make("bergen", blocked_lowest="lowest").game.options["blocked_lowest"] == "lowest"
