"""Peg solitaire: rulebook 002 wording, refusals, the hint solver, random-game invariants."""

from __future__ import annotations

import random

import pytest

from companion.engine import IllegalAction, decode_action, encode_action
from companion.games.solitaire import (
    CENTRE,
    FULL,
    JUMPS,
    NAMES,
    SYMMETRIES,
    Solitaire,
    SolitaireState,
    Solver,
)


def game(**options: object) -> tuple[Solitaire, SolitaireState]:
    g = Solitaire(["Player"], dict(options))
    return g, g.new_state()


def pegs_at(*names: str) -> int:
    m = 0
    for n in names:
        m |= 1 << NAMES[n]
    return m


def refused(g: Solitaire, s: SolitaireState, text: str) -> str:
    before = s.to_json()
    with pytest.raises(IllegalAction) as info:
        s.apply(g.parse_action(s, text))
    assert s.to_json() == before
    return info.value.reason


def brute_force(pegs: int, goal: int) -> bool:
    """Reference: plain exhaustive search, no memo, no symmetry (small positions only)."""
    if pegs.bit_count() == 1:
        return pegs == 1 << goal
    for f, o, t in JUMPS:
        movable = pegs >> f & 1 and pegs >> o & 1 and not pegs >> t & 1
        if movable and brute_force(pegs ^ (1 << f) ^ (1 << o) ^ (1 << t), goal):
            return True
    return False


def test_start_has_32_pegs_and_four_jumps_into_the_centre() -> None:
    g, s = game()
    assert s.peg_count() == 32 and not s.pegs >> CENTRE & 1
    assert g.query(s, "jumps") == "4 jumps: d6-d4, b4-d4, f4-d4, d2-d4."
    texts = [e.describe(g.players) for e in s.apply(g.parse_action(s, "d6-d4"))]
    assert texts == ["d6 jumps over d5 to d4; 31 pegs left."]


def test_jumps_are_along_rows_and_columns_only() -> None:
    g, s = game()
    assert "not empty" in refused(g, s, "d5-d3")
    assert "not a hole" in refused(g, s, "a1-a3")
    assert "two holes" in refused(g, s, "d7-d4")
    s.apply(g.parse_action(s, "d6 d4"))
    assert "never diagonally" in refused(g, s, "b3-d5")
    assert "no peg in d6" in refused(g, s, "d6-d4")
    assert "nothing" in refused(g, s, "d7-d5").replace("there is no peg in d6 to jump over",
                                                         "nothing")
    with pytest.raises(IllegalAction):
        g.parse_action(s, "jump")


def test_holes_by_number_too() -> None:
    g, s = game()
    # 1-33 row by row from the top: d6 is hole 5, d4 is hole 17.
    assert g.parse_action(s, "5-17") == g.parse_action(s, "d6-d4")


def test_following_hints_from_the_start_reaches_the_centre() -> None:
    g, s = game()
    events = []
    while not s.is_terminal():
        hint = g.query(s, "hint")
        assert hint is not None and hint.startswith("Jump ")
        words = hint.split()
        events = s.apply(g.parse_action(s, f"{words[1]}-{words[5].rstrip(':')}"))
    assert s.peg_count() == 1 and s.pegs == 1 << CENTRE
    assert s.winners() == (0,) and s.to_json()["result"] == {"goal_met": True, "pegs": 1}
    assert events[-1].describe(g.players) == (
        "No jump is left. One peg remains, in d4: the goal is met!"
    )


def test_variation_with_another_starting_hole() -> None:
    g, s = game(start="d1")
    assert not s.pegs >> NAMES["d1"] & 1 and s.pegs >> CENTRE & 1
    assert s.goal == NAMES["d1"]
    hint = g.query(s, "hint")
    assert hint is not None and hint.startswith("Jump ") and "to d1" in hint


def test_hint_when_the_goal_is_lost_and_the_end_message() -> None:
    g, s = game()
    s.pegs = pegs_at("d6", "d5", "g3")  # d6-d4 leaves d4 and g3: no jump, two pegs
    assert g.query(s, "hint") == "The goal (one peg in d4) can no longer be reached."
    texts = [e.describe(g.players) for e in s.apply(g.parse_action(s, "d6-d4"))]
    assert texts[-1] == (
        "No jump is left: 2 pegs remain. The goal, one peg in d4, was not met."
    )
    assert s.is_terminal() and s.winners() == ()
    assert g.query(s, "hint") == "No jump is left."


def test_one_peg_in_the_wrong_hole_is_not_the_goal() -> None:
    g, s = game()
    s.pegs = pegs_at("d6", "d5")
    texts = [e.describe(g.players) for e in s.apply(g.parse_action(s, "d6-d4"))]
    assert "goal is met" in texts[-1]
    g, s = game()
    s.pegs = pegs_at("c4", "b4")
    texts = [e.describe(g.players) for e in s.apply(g.parse_action(s, "c4-a4"))]
    assert texts[-1] == "No jump is left. One peg remains, in a4, not in d4: the goal was not met."
    g, s = game(goal="any")
    s.pegs = pegs_at("c4", "b4")
    s.apply(g.parse_action(s, "c4-a4"))
    assert s.winners() == (0,)


def test_solver_agrees_with_brute_force_on_small_positions() -> None:
    rng = random.Random(8)
    checked = 0
    for i in range(300):
        if i % 2:
            holes = rng.sample(range(33), rng.randrange(2, 8))
            pegs = sum(1 << h for h in holes)
        else:  # played backwards from the goal: winnable by construction
            pegs = 1 << CENTRE
            for _ in range(rng.randrange(1, 7)):
                back = [(f, o, t) for f, o, t in JUMPS
                        if pegs >> t & 1 and not pegs >> f & 1 and not pegs >> o & 1]
                f, o, t = rng.choice(back)
                pegs ^= (1 << f) | (1 << o) | (1 << t)
        solver = Solver(CENTRE)
        jump = solver.winning_jump(pegs, budget=10**6)
        assert (jump is not None) == brute_force(pegs, CENTRE)
        if jump is not None:
            f, o, t = jump
            after = pegs ^ (1 << f) ^ (1 << o) ^ (1 << t)
            assert after.bit_count() == 1 and after == 1 << CENTRE or brute_force(after, CENTRE)
        checked += jump is not None
    assert checked >= 150  # the backwards-played ones at least


def test_symmetric_positions_share_one_canonical_form() -> None:
    solver = Solver(CENTRE)
    m = pegs_at("d6", "d5", "c3", "e2", "g4")
    for perm in SYMMETRIES:
        image = sum(1 << perm[i] for i in range(33) if m >> i & 1)
        assert solver.canon(image) == solver.canon(m)


def test_bad_start_option() -> None:
    with pytest.raises(ValueError):
        Solitaire(["P"], {"start": "a1"})


def test_random_games_keep_invariants() -> None:
    rng = random.Random(3)
    for _ in range(200):
        g, s = game(start=rng.choice(sorted(NAMES)))
        assert s.peg_count() == 32
        steps = 0
        while not s.is_terminal():
            actions = s.legal_actions()
            assert actions
            before = s.to_json()
            copy = s.clone()
            action = rng.choice(actions)
            assert decode_action(encode_action(action), g.action_types) == action
            n = s.peg_count()
            s.apply(action)
            assert s.peg_count() == n - 1
            assert copy.to_json() == before
            steps += 1
        assert steps <= g.max_length()
        assert s.legal_actions() == []
        assert s.pegs & ~FULL == 0
        assert (s.winners() == (0,)) == (s.peg_count() == 1 and s.pegs == 1 << s.goal)


def test_session_hint_and_jumps() -> None:
    from companion.journal import Journal
    from companion.session import Session
    from companion.voice import Recorder

    rec = Recorder()
    session = Session.start(Solitaire(["Player"]), Journal.memory(), rec)
    assert session.command("jumps").text == "4 jumps: d6-d4, b4-d4, f4-d4, d2-d4."
    assert session.command("hint").text.startswith("Jump ")
    assert session.command("d6-d4").accepted
    assert "d6 jumps over d5 to d4; 31 pegs left." in rec.texts
    reply = session.command("d6-d4")
    assert not reply.accepted and "no peg in d6" in reply.text
    resumed = Session.resume(session.journal, Recorder())
    assert resumed.state.to_json() == session.state.to_json()
