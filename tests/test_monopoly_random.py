"""Random Monopoly games with random legal decisions (including "any time" actions by any
player), checking the Bank's invariants after every action."""

from __future__ import annotations

import random

import pytest

from companion.engine import CHANCE, IllegalAction
from companion.games.monopoly import actions as A
from companion.games.monopoly.choices import anytime_actions
from companion.games.monopoly.edition import LOT
from companion.games.monopoly.game import Monopoly
from companion.games.monopoly.rent import HOTEL
from companion.games.monopoly.state import MonopolyState


def check_invariants(st: MonopolyState) -> None:
    ed = st.ed
    n = st.n
    owner, bld, mort = st.owner, st.bld, st.mort
    # money: players' cash is what they started with, plus what the Bank issued, less what
    # it collected (rent and trades move money between players only)
    assert sum(st.cash) == n * ed.start_cash + st.issued - st.collected
    assert min(st.cash) >= 0, st.cash
    # each deed has one owner at most, never a bankrupt player; non-properties are never owned
    for s in range(ed.size):
        o = owner[s]
        if o == -1:
            assert bld[s] == 0 and not mort[s], s
        else:
            assert ed.is_property[s] and 0 <= o < n and not st.out[o], (s, o)
    # buildings within the supply
    hotels = bld.count(HOTEL)
    houses = sum(bld) - HOTEL * hotels
    assert houses + st.bank_houses == ed.houses and st.bank_houses >= 0
    assert hotels + st.bank_hotels == ed.hotels and st.bank_hotels >= 0
    # buildings only on lots of complete, unmortgaged groups, built evenly
    if houses or hotels:
        for members in ed.members:
            if any(bld[m] for m in members):
                first = owner[members[0]]
                assert all(owner[m] == first for m in members)
                assert not any(mort[m] for m in members)
                levels = [st.level(m) for m in members]
                assert max(levels) - min(levels) <= 1, levels
        assert all(ed.kind[s] == LOT for s in range(ed.size) if bld[s])
    # Get Out of Jail Free cards: held once, and out of a virtual deck while held
    held = [k for h in st.held for k in h]
    assert len(held) == len(set(held))
    if st.virtual and st.decks:
        for deck, order in st.decks.items():
            mine = [k.split(":", 1)[1] for k in held if k.startswith(deck + ":")]
            unseen = st.unseen(deck)
            assert len(order) + len(mine) + len(unseen) == len(ed.decks[deck])
            assert set(order) | set(mine) | set(unseen) == set(ed.card_by_id[deck])
    # a decision point always offers something
    if st.current_player() >= 0:
        assert st.legal_actions(), st.expected()


OPTIONS = [
    {},
    {"cards": "virtual"},
    {"variant": "short", "cards": "virtual"},
    {"variant": "time-limit"},
    {"rent": "claim", "cards": "virtual", "end_turn": "manual"},
    {"edition": "times-square", "ferris_wheel": True, "cards": "virtual"},
]


def play(rng: random.Random, steps: int, options: dict | None = None,
         n: int = 0) -> MonopolyState:
    n = n or rng.randint(2, 6)
    options = rng.choice(OPTIONS) if options is None else options
    game = Monopoly([f"P{i}" for i in range(n)], options)
    st = game.new_state()
    check_invariants(st)
    for _ in range(steps):
        if st.is_terminal():
            break
        cp = st.current_player()
        action = None
        if rng.random() < 0.35:
            p = rng.choice(st.active())
            extra = anytime_actions(st, p)
            if extra:
                action = rng.choice(extra)
        if action is None:
            if cp == CHANCE:
                action = st.sample_chance(rng)
            else:
                legal = st.legal_actions()
                # answer offers both ways; otherwise any legal decision
                action = rng.choice(legal)
        if rng.random() < 0.05:
            probe = rng.choice([A.Buy(rng.randrange(n)), A.Build(0, rng.randrange(40)),
                                A.SellBuilding(1, rng.randrange(40)), A.PayFine(0),
                                A.Bid(rng.randrange(n), rng.randrange(3000)),
                                A.DeclareBankruptcy(rng.randrange(n))])
            before = st.to_json()
            try:
                st.clone().apply(probe)
            except IllegalAction:
                assert st.to_json() == before
        st.apply(action)
        check_invariants(st)
    return st


def test_random_games_keep_the_banks_invariants():
    rng = random.Random(20261121)
    for _ in range(300):
        play(rng, 400)
    # Some games reach the end. Bankruptcy waits until everything is mortgaged and sold
    # (issue 22), so the end is checked on longer two-player Short Games (the first
    # bankruptcy ends them).
    # (3,000 steps: at 1,500 none of the ten ended once virtual decks came to draw each card
    # as it comes, which changed the random stream; at 3,000 six of ten did.)
    ended = sum(play(rng, 3000, {"variant": "short", "cards": "virtual", "rent": "auto"}, 2)
                .is_terminal()
                for _ in range(10))
    assert ended > 0


@pytest.mark.slow
def test_many_more_random_games():
    rng = random.Random(7)
    for _ in range(1200):
        play(rng, 200)


def test_engine_contract_on_truncated_random_games():
    """The generic contract (tests/test_all_games.py) on games cut at 300 actions: Monopoly
    has no rule that ends a game in which nobody builds, so random play may never end."""
    import json

    from companion.engine import decode_action, encode_action

    rng = random.Random(11)
    for _ in range(30):
        n = rng.randint(2, 8)
        options = rng.choice(OPTIONS)
        if options.get("edition") == "times-square":
            n = min(n, 6)  # 001: "For 2 to 6 Players"
        game = Monopoly([f"P{i}" for i in range(n)], options)
        st = game.new_state()
        played = []
        for _ in range(300):
            if st.is_terminal():
                break
            if st.current_player() == CHANCE:
                action = st.sample_chance(rng)
            else:
                legal = st.legal_actions()
                extra = anytime_actions(st, rng.choice(st.active()))
                action = rng.choice(legal + extra[:3])
            assert decode_action(encode_action(action), game.action_types) == action
            before = json.dumps(st.to_json(), sort_keys=True)
            copy = st.clone()
            st.apply(action)
            assert json.dumps(copy.to_json(), sort_keys=True) == before
            played.append(action)
        replayed = game.new_state()
        for action in played:
            replayed.apply(action)
        assert replayed.to_json() == st.to_json()
