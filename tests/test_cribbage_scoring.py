"""Cribbage scoring: rulebook 000 worked examples, the known scorer bugs, the count tool."""

from __future__ import annotations

import io
import json
import random
from itertools import permutations

import pytest

from companion.cards import FULL_DECK, Card
from companion.games.cribbage.scoring import (
    FIFTEEN,
    FLUSH,
    NOBS,
    PAIR,
    RUN,
    THIRTY_ONE,
    number_words,
    peg,
    show,
    value,
)
from companion.games.cribbage.tools import count_main


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def hand_count(text: str, starter: str, **kw: bool) -> int:
    return show(cards(text), Card.parse(starter), **kw).total


def points_of(count, *kinds: str) -> int:
    return sum(i.points for i in count.items if i.kind in kinds)


# ----------------------------------------------------------------- rulebook worked examples


def test_card_values_faces_ten_ace_one():
    assert [value(c) for c in cards("AS 2S 9S 10S JS QS KS")] == [1, 2, 9, 10, 10, 10, 10]


@pytest.mark.parametrize("face", ["10D", "JD", "QD", "KD"])
def test_any_face_card_plus_five_is_fifteen(face):
    count = show(cards(f"5S {face} 2C 3H"), Card.parse("9C"))
    assert any(i.kind == FIFTEEN and set(map(str, i.cards)) == {"5S", face} for i in count.items)


def _runs_and_pairs_everywhere(ranks_text: str) -> set[tuple[int, int]]:
    """(runs+pairs points, total) for every choice of suits-free arrangement: each card of
    the rulebook's five may be the starter; suits mixed so no flush or nob."""
    five = cards(ranks_text)
    out = set()
    for i in range(5):
        hand = five[:i] + five[i + 1 :]
        count = show(hand, five[i])
        assert points_of(count, FLUSH, NOBS) == 0
        out.add((points_of(count, RUN, PAIR), count.total))
    return out


def test_rulebook_double_run_of_four_5_6_7_8_8_scores_10():
    # "a double run of four (5,6,7,8,8) scores 10: 8 for the double run ... plus 2 for the
    # pair of 8's". The fifteens (7+8 twice) come on top: the whole hand is 14.
    assert _runs_and_pairs_everywhere("5H 6D 7S 8C 8D") == {(10, 14)}
    count = show(cards("5H 6D 7S 8C"), Card.parse("8D"))
    assert [i.points for i in count.items if i.kind == RUN] == [4, 4]
    assert count.spoken() == "fifteen two, fifteen four, and a double run of four is fourteen"


def test_rulebook_triple_run_4_4_4_5_6_scores_15():
    # "3 runs of three and 3 pairs, for a total score of 15"; 4+5+6 three times adds 6.
    assert _runs_and_pairs_everywhere("4H 4D 4S 5C 6D") == {(15, 21)}
    count = show(cards("4H 4D 4S 5C"), Card.parse("6D"))
    assert [i.points for i in count.items if i.kind == RUN] == [3, 3, 3]
    assert [i.points for i in count.items if i.kind == PAIR] == [2, 2, 2]
    assert "a triple run of three is twenty-one" in count.spoken()


def test_rulebook_quadruple_run_6_6_7_7_8_scores_16():
    # "4 runs of three plus 2 pairs, for a total score of 16"; 7+8 twice adds 4.
    assert _runs_and_pairs_everywhere("6H 6D 7S 7C 8D") == {(16, 20)}
    count = show(cards("6H 6D 7S 7C"), Card.parse("8D"))
    assert "a quadruple run of three is twenty" in count.spoken()


def test_pairs_three_and_four_of_a_kind():
    assert points_of(show(cards("9H 9D 2S KC"), Card.parse("AC")), PAIR) == 2
    assert points_of(show(cards("9H 9D 9S KC"), Card.parse("AC")), PAIR) == 6
    assert points_of(show(cards("9H 9D 9S 9C"), Card.parse("AC")), PAIR) == 12


def test_run_in_any_order_and_ace_low():
    assert points_of(show(cards("8H 7D 9S KC"), Card.parse("2C")), RUN) == 3
    assert points_of(show(cards("AH 2D 3S 8C"), Card.parse("KC")), RUN) == 3
    assert points_of(show(cards("QH KD AS 8C"), Card.parse("4C")), RUN) == 0  # no wrap


def test_flush_of_four_and_five_in_hand():
    assert points_of(show(cards("2H 4H 6H 8H"), Card.parse("KS")), FLUSH) == 4
    assert points_of(show(cards("2H 4H 6H 8H"), Card.parse("KH")), FLUSH) == 5


def test_three_of_suit_plus_starter_is_not_a_flush():
    assert points_of(show(cards("2H 4H 6H 8S"), Card.parse("KH")), FLUSH) == 0


def test_jack_of_starter_suit_in_hand_scores_one():
    count = show(cards("JD 2C 4S 8H"), Card.parse("KD"))
    assert [(i.kind, i.points) for i in count.items if i.kind == NOBS] == [(NOBS, 1)]


def test_the_29_hand():
    count = show(cards("5H 5D 5S JC"), Card.parse("5C"))
    assert count.total == 29
    assert count.spoken().endswith("and one for his nob is twenty-nine")


# ----------------------------------------------------------------- known scorer mistakes


def test_nobs_never_from_the_starter():
    assert hand_count("5H 5D 5S 5C", "JH") == 28
    count = show(cards("2C 4S 8H 9D"), Card.parse("JD"))
    assert points_of(count, NOBS) == 0


def test_four_card_crib_flush_not_counted():
    hand, starter = "2H 4H 6H 8H", "KS"
    assert hand_count(hand, starter) - hand_count(hand, starter, crib=True) == 4
    assert points_of(show(cards(hand), Card.parse(starter), crib=True), FLUSH) == 0
    assert points_of(show(cards(hand), Card.parse("KH"), crib=True), FLUSH) == 5
    # the other reading of "scored in the same manner", as an option
    assert points_of(show(cards(hand), Card.parse(starter), crib=True, crib_four_flush=True),
                     FLUSH) == 4


def test_runs_of_two_not_counted():
    assert points_of(show(cards("QH KD 2S 4C"), Card.parse("8C")), RUN) == 0
    assert hand_count("QH KD 2S 4C", "8C") == 0


def test_longest_run_only_no_extra_runs_of_three_inside():
    assert points_of(show(cards("3H 4D 5S 6C"), Card.parse("7C")), RUN) == 5


def test_no_hand_scores_19_and_total_is_sum_of_items_on_random_hands():
    rng = random.Random(3)
    for _ in range(3000):
        five = rng.sample(FULL_DECK, 5)
        for crib in (False, True):
            count = show(five[:4], five[4], crib=crib)
            assert count.total == sum(i.points for i in count.items)
            assert count.total == sum(p.points for p in count.phrases)
            assert count.total not in (19, 25, 26, 27) and 0 <= count.total <= 29
            words = number_words(count.total)
            assert count.spoken().endswith(words) or count.total == 0


def test_spoken_count_example_from_issue():
    # 5 5 J + 9 + 2: fifteens 5+J twice, and the pair of fives
    count = show(cards("5H 5D JC 9S"), Card.parse("2D"))
    assert count.spoken() == "fifteen two, fifteen four, and a pair of fives is six"
    assert count.total == 6


# ----------------------------------------------------------------- pegging


def peg_points(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in peg(cards(text)).items:
        out[item.kind] = out.get(item.kind, 0) + item.points
    return out


def test_peg_fifteen_and_thirty_one():
    assert peg_points("7H 8D") == {FIFTEEN: 2}
    assert peg_points("KH QD AS KC") == {THIRTY_ONE: 2}
    assert peg_points("KH QD") == {}


def test_peg_pairs_consecutive_only():
    assert peg_points("9H 9D") == {PAIR: 2}
    assert peg_points("9H 9D 9S") == {PAIR: 6}
    assert peg_points("AH AD AS AC") == {PAIR: 12}
    assert peg_points("9H 2D 9S") == {}


def test_peg_runs_any_order_among_latest_cards():
    assert peg_points("7H 9D 8S") == {RUN: 3}
    assert peg_points("3H 7H 9D 8S") == {RUN: 3}
    assert peg_points("3H 5H 4D 6S 2C") == {RUN: 5}
    assert peg_points("4H 4D 5S 6C") == {RUN: 3}  # 4 5 6 among the latest three
    assert peg_points("4H 5D 6S 5C") == {}  # 5 6 5: a repeated rank breaks the run


def test_peg_runs_of_two_not_counted():
    assert peg_points("2H 3D") == {}
    assert peg_points("QH KD") == {}


def test_peg_thirty_one_completing_a_run_scores_both():
    assert peg_points("9H KD 3S 5C 4D") == {THIRTY_ONE: 2, RUN: 3}


def test_peg_fifteen_with_run_and_fifteen_with_pair_royal():
    assert peg_points("4H 6D 5S") == {FIFTEEN: 2, RUN: 3}
    assert peg_points("5H 5D 5S") == {FIFTEEN: 2, PAIR: 6}
    assert peg_points("KH KD 3S 4C 4D") == {THIRTY_ONE: 2, PAIR: 2}
    count = peg(cards("4H 6D 5S"))
    assert count.spoken() == "fifteen two, and a run of three is five"


def test_peg_one_card_never_scores_a_pair_and_a_run():
    # The issue asks for a card scoring fifteen, a pair and a run at once. That cannot
    # happen: a run needs the latest three or more cards to have different ranks, a pair
    # needs the latest two equal. Checked here over many random legal series.
    rng = random.Random(5)
    for _ in range(20000):
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        series: list[Card] = []
        for card in deck:
            if sum(value(c) for c in series) + value(card) > 31:
                break
            series.append(card)
            kinds = {i.kind for i in peg(series).items}
            assert not {PAIR, RUN} <= kinds


# ----------------------------------------------------------------- the count tool


def test_count_tool_text(capsys):
    assert count_main(["5H", "5D", "5S", "JC", "--starter", "5C"]) == 0
    out = capsys.readouterr().out
    assert "total 29" in out and out.strip().endswith("twenty-nine")


def test_count_tool_json_and_crib(capsys):
    assert count_main(["2H", "3H", "4H", "8H", "--starter", "KS", "--crib", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["crib"] is True and data["total"] == sum(i["points"] for i in data["items"])
    assert data["total"] == hand_count("2H 3H 4H 8H", "KS", crib=True)
    assert data["phrases"][-1]["running"] == data["total"]


def test_count_tool_refuses_duplicates_and_bad_cards(capsys):
    assert count_main(["5H", "5H", "5S", "JC", "--starter", "5C"]) == 2
    assert "appears twice" in capsys.readouterr().err
    assert count_main(["5X", "5D", "5S", "JC", "--starter", "5C"]) == 2
    assert "not a card" in capsys.readouterr().err


def test_count_tool_stdin_one_line_per_hand(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("5H 5D 5S JC 5C\n10d td 2♠ 3♣ 4♥\nbad\n"))
    assert count_main([]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "29" and lines[1].startswith("error: line 2")
    assert lines[2].startswith("error: line 3")
    monkeypatch.setattr("sys.stdin", io.StringIO("5H 5D 5S JC 5C\nAH 2H 3H 4H 9C\n"))
    assert count_main(["--json"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["total"] for r in rows] == [29, 12]


def test_permuting_hand_order_never_changes_the_total():
    five = cards("4H 4D 5S 6C JS")
    totals = {show(list(p), five[4]).total for p in permutations(five[:4])}
    assert len(totals) == 1


# ------------------------------------------------ issue 22: counting aloud, names, blank lines

def test_count_tool_speaks_the_count(capsys):
    said: list[str] = []
    assert count_main(["5H", "5D", "5S", "JC", "--starter", "5C"], say=said.append) == 0
    assert said == ["Hand, the five of hearts, the five of diamonds, the five of spades and the"
                    " jack of clubs,"
                    " with the five of clubs: fifteen two, fifteen four, fifteen six, fifteen"
                    " eight, fifteen ten, fifteen twelve, fifteen fourteen, fifteen sixteen, a"
                    " double pair royal of fives is twenty-eight, and one for his nob is"
                    " twenty-nine."]


def test_count_command_line_takes_voice(capsys):
    from companion.cli import main

    code = main(["count", "cribbage", "2H", "3H", "4H", "8H", "--starter", "KS", "--crib",
                 "--voice", "console"])
    captured = capsys.readouterr()
    assert code == 0 and captured.out.splitlines()[-2] == "total 7"
    assert captured.err.strip() == ("Crib, the two of hearts, the three of hearts, the four of"
                                    " hearts and the eight of hearts, with the king of spades:"
                                    " fifteen two,"
                                    " fifteen four, and a run of three is seven.")
    assert main(["count", "dice", "2", "3", "3", "3", "4", "--voice", "console"]) == 2
    assert "does not speak" in capsys.readouterr().err


def test_count_tool_takes_cards_by_name(capsys):
    assert count_main(["five", "of", "hearts,", "five of diamonds", "the", "five", "of",
                       "spades", "jack of clubs", "--starter", "five of clubs", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hand"] == ["5H", "5D", "5S", "JC"] and data["total"] == 29
    assert count_main(["five", "of", "horses", "5D", "5S", "JC", "--starter", "5C"]) == 2
    assert "not a card" in capsys.readouterr().err


def test_a_zero_hand_is_not_said_as_nineteen(capsys):
    # 19 cannot be scored, so players say "nineteen" for nothing; beside "Red has 19" on a
    # screen that reads as a score, so the companion says zero.
    said: list[str] = []
    assert count_main(["2H", "4D", "6S", "8C", "--starter", "KD"], say=said.append) == 0
    assert "nineteen" not in said[0] and said[0].endswith(": zero, no points.")
    assert capsys.readouterr().out.strip().endswith("zero, no points")


def test_count_tool_stdin_blank_lines_keep_lines_aligned(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("5H 5D 5S JC 5C\n\n   \nfive of hearts,"
                                                 " 5D, 5S, JC, 5C\n"))
    assert count_main([]) == 0
    assert capsys.readouterr().out.split("\n") == ["29", "", "", "29", ""]
    monkeypatch.setattr("sys.stdin", io.StringIO("\nAH 2H 3H 4H 9C\n"))
    assert count_main(["--json"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert rows[0] == {"line": 1, "blank": True} and rows[1]["total"] == 12
