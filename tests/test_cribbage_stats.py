"""The enumeration of all 12,994,800 hand+starter combinations, checked against the published
distribution, and the discard advice checked against the itemised scorer."""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations_with_replacement

import pytest

from companion.cards import FULL_DECK, Card
from companion.games.cribbage import scoring
from companion.games.cribbage.advise import advise, score_rows
from companion.games.cribbage.stats import enumerate_all, rank_score
from companion.games.cribbage.tools import advise_main, stats_main

# Steven S. Lumetta, "Amusing Cribbage Facts" (lumetta.web.engr.illinois.edu/humor/cribbage.html),
# the same table as github.com/Benaou/CribbageHands: score -> hands out of 12,994,800.
PUBLISHED_HAND = {
    0: 1009008, 1: 99792, 2: 2813796, 3: 505008, 4: 2855676, 5: 697508, 6: 1800268,
    7: 751324, 8: 1137236, 9: 361224, 10: 388740, 11: 51680, 12: 317340, 13: 19656,
    14: 90100, 15: 9168, 16: 58248, 17: 11196, 18: 2708, 19: 0, 20: 8068, 21: 2496,
    22: 444, 23: 356, 24: 3680, 25: 0, 26: 0, 27: 0, 28: 76, 29: 4,
}
# Wikipedia, "Cribbage statistics": 1,022,208 zero-point combinations when scored as a crib.
PUBLISHED_CRIB_ZERO = 1_022_208


@pytest.fixture(scope="module")
def stats():
    return enumerate_all()


def test_hand_distribution_matches_the_published_table(stats):
    assert stats["combinations"] == 12_994_800
    assert {int(k): v for k, v in stats["hand"].items()} == PUBLISHED_HAND
    assert stats["mean_hand"] == pytest.approx(4.7692, abs=5e-5)


def test_crib_distribution_flush_only_with_five(stats):
    crib = {int(k): v for k, v in stats["crib"].items()}
    assert crib[0] == PUBLISHED_CRIB_ZERO
    assert sum(crib.values()) == 12_994_800
    assert crib[19] == crib[25] == crib[26] == crib[27] == 0 and crib[29] == 4
    # Only the four-card flush differs: 4 suits * C(13,4) hands * 39 other-suit starters,
    # each worth 4 more as a hand.
    difference = (stats["mean_hand"] - stats["mean_crib"]) * 12_994_800
    assert difference == pytest.approx(4 * (4 * 715 * 39))


def test_rank_part_agrees_with_the_itemised_scorer_for_every_rank_multiset():
    kinds = {scoring.FIFTEEN, scoring.PAIR, scoring.RUN}
    for ranks in combinations_with_replacement(range(1, 14), 5):
        if max(Counter(ranks).values()) > 4:
            continue
        used: Counter[int] = Counter()
        cards = []
        for r in ranks:
            cards.append(Card(r, "SHDC"[used[r]]))
            used[r] += 1
        count = scoring.show(cards[:4], cards[4])
        assert rank_score(ranks) == sum(i.points for i in count.items if i.kind in kinds)


def test_vectorised_scores_agree_with_the_itemised_scorer():
    import random

    import numpy as np

    rng = random.Random(11)
    rows, expect = [], {False: [], True: []}
    for _ in range(4000):
        five = rng.sample(FULL_DECK, 5)
        rows.append([FULL_DECK.index(c) for c in five])
        for crib in (False, True):
            expect[crib].append(scoring.show(five[:4], five[4], crib=crib).total)
    array = np.array(rows)
    for crib in (False, True):
        assert score_rows(array, crib).tolist() == expect[crib]


def test_advise_hand_average_is_the_mean_over_every_starter():
    cards = [Card.parse(c) for c in ("5H", "5D", "JC", "QS", "2C", "9H")]
    choices = advise(cards, "dealer")
    assert len(choices) == 15
    nets = [c.hand + c.crib for c in choices]
    assert nets == sorted(nets, reverse=True)
    for choice in choices[:3]:
        starters = [c for c in FULL_DECK if c not in cards]
        mean = sum(scoring.show(list(choice.keep), s).total for s in starters) / len(starters)
        assert choice.hand == pytest.approx(mean)
    assert [str(c) for c in choices[0].discard] == ["2C", "9H"]


def test_advise_three_or_four_players_discard_one():
    cards = [Card.parse(c) for c in ("5H", "5D", "JC", "QS", "2C")]
    choices = advise(cards, "pone")
    assert len(choices) == 5 and all(len(c.discard) == 1 for c in choices)
    assert [c.hand - c.crib for c in choices] == sorted((c.hand - c.crib for c in choices),
                                                        reverse=True)


def test_advise_and_stats_tools(capsys):
    assert advise_main(["5H", "5D", "JC", "QS", "2C", "9H", "--pone", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["role"] == "pone" and len(data["choices"]) == 15
    assert advise_main(["5H", "5H", "JC", "QS", "2C", "9H"]) == 2
    assert "twice" in capsys.readouterr().err
    assert advise_main(["5H", "JC"]) == 2
    assert stats_main(["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {"combinations", "hand", "crib", "mean_hand", "mean_crib", "seconds"}
    assert data["hand"]["29"] == 4 and data["hand"]["19"] == 0
