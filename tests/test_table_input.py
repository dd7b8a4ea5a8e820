"""Input a person at the table would type, at the wrong moment or in their own words (issue 17):
each is refused with the reason it must wait (never "I don't know the command"), then accepted
when its moment comes."""

from __future__ import annotations

from companion.journal import Journal
from companion.session import Session, build_game
from companion.voice import Recorder


def table(name: str, players: tuple[str, ...] = ("Red", "Blue"), seed: int = 5,
          auto: tuple[str, ...] = ("card",), **options: object) -> tuple[Session, Recorder]:
    game, files = build_game(name, players, options)
    recorder = Recorder()
    session = Session.start(game, Journal.memory(), recorder, seed=seed,
                            auto_chance=frozenset(auto), config=files)
    return session, recorder


def refused(session: Session, line: str, text: str) -> None:
    reply = session.command(line)
    assert not reply.accepted, line
    assert reply.text == text, reply.text


def accepted(session: Session, line: str) -> None:
    reply = session.command(line)
    assert reply.accepted, reply.text


# --------------------------------------------------------------------------- Rummy

def test_rummy_a_card_before_drawing_is_told_to_draw_first_then_discarded():
    session, recorder = table("rummy", deal="read")
    card = session.state.hands[1][0]  # type: ignore[attr-defined]
    refused(session, card, "Blue, first draw: from the stock or the discard pile.")
    accepted(session, "draw")
    accepted(session, card)
    assert recorder.texts[-1].startswith("Blue discards the ")


def test_rummy_a_word_that_is_no_card_is_still_unknown():
    session, _ = table("rummy", deal="read")
    reply = session.command("shuffle")
    assert not reply.accepted and reply.text.startswith("I don't know the command 'shuffle'.")


def play_to_the_end(session: Session, seed: int) -> None:
    """Random legal play through the session until the game is over."""
    import random

    from companion.engine import CHANCE

    rng = random.Random(seed)
    while not session.state.is_terminal():
        state = session.state
        if state.current_player() == CHANCE:
            action = state.sample_chance(rng)
        else:
            action = rng.choice(state.legal_actions())
        assert session.apply(action).accepted


# --------------------------------------------------------------------------- Crazy Eights

def test_crazy_eights_an_eight_alone_then_the_suit_named():
    session, recorder = table("crazy-eights")
    waiting = session.state.expected()
    refused(session, "hearts", f"A suit is named with an eight, like: 8H hearts. {waiting}.")
    accepted(session, "8H")
    assert recorder.texts[-1] == "Blue plays the eight of hearts. Blue, name a suit."
    refused(session, "draw", "No play now. Blue, name a suit for the eight.")
    refused(session, "Red spades", "Red, it is Blue's turn")
    accepted(session, "spades")
    assert recorder.texts[-1] == "Blue calls spades."
    assert session.state.called == "S"  # type: ignore[attr-defined]
    refused(session, "3H", "The three of hearts cannot go on the pile: spades were called. An"
                           " eight goes on anything")


def test_crazy_eights_a_card_reader_eight_asks_for_the_suit():
    from companion.observations import CardSeen

    session, recorder = table("crazy-eights")
    assert session.submit(CardSeen(source="reader", card="8D")).accepted
    assert recorder.texts[-1] == "Blue plays the eight of diamonds. Blue, name a suit."
    accepted(session, "call clubs")
    assert session.state.called == "C"  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- Hearts

def test_hearts_points_said_after_the_game_are_told_it_is_over():
    session, _ = table("hearts", ("Red", "Blue", "Green", "White"), deal="tally")
    for _ in range(4):
        accepted(session, "26 0 0 0")
    assert session.state.is_terminal()
    final = "The game is over: no more points are said. Final scores: Red 104, Blue 0, Green" \
            " 0, White 0."
    refused(session, "13 13 0 0", final)
    refused(session, "points 13 0 13 0", final)


# --------------------------------------------------------------------------- Cribbage

def test_cribbage_show_after_the_game_is_told_it_is_over():
    session, _ = table("cribbage", deal="read", to=61)
    play_to_the_end(session, 3)
    reply = session.command("show 5H 5D 5C JS 5S")
    assert not reply.accepted
    assert reply.text.startswith("The game is over: the hands are not counted once a side has"
                                 " won. ")
