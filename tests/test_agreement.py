"""Draw by agreement (offer, accept, decline; a move declines) and resignation in every
two-player board game, through the session (journaled, replayed by resume)."""

from __future__ import annotations

import pytest

from companion.games import find
from companion.journal import Journal
from companion.session import Session, build_game
from companion.voice import Recorder

# each game with two opening moves (one by each player) and a third move by the first player
GAMES = {
    "chess": ("e4", "e5", "Nf3"),
    "checkers": ("11-15", "23-19", "8-11"),
    "draughts": ("32-28", "19-23", "28x19"),
    "four-in-a-row": ("4", "4", "3"),
}


def _session(name: str) -> tuple[Session, Recorder]:
    cls = find(name)
    game, files = build_game(cls, ["Ann", "Bob"], {})
    recorder = Recorder()
    return Session.start(game, Journal.memory(), recorder, config=files), recorder


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_draw_offered_after_a_move_and_accepted_ends_the_game_drawn(name: str) -> None:
    session, recorder = _session(name)
    first, second, _ = GAMES[name]
    assert session.command(first).accepted
    reply = session.command("offer draw")  # by Ann, who just moved
    assert reply.accepted
    assert ("Ann offers a draw. Bob, say accept draw or decline draw"
                                  " (a move declines it).") in recorder.texts[-2:]
    assert not session.command("Ann accept draw").accepted  # not her own offer
    assert "Ann made the offer: Bob answers it." in recorder.texts[-2:]
    assert session.command("accept draw").accepted
    assert session.state.is_terminal() and session.state.winners() == ()
    assert session.state.scores() == [0.5, 0.5]
    assert any("Draw by agreement." in t for t in recorder.texts[-2:])
    assert not session.command(second).accepted  # the game is over
    resumed = Session.resume(session.journal, Recorder())
    assert resumed.state.to_json() == session.state.to_json()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_draw_offer_is_declined_by_words_or_by_a_move(name: str) -> None:
    session, recorder = _session(name)
    first, second, third = GAMES[name]
    session.command(first)
    session.command("offer draw")
    assert session.command("decline draw").accepted
    assert "Bob declines the draw." in recorder.texts[-2:]
    assert not session.command("accept draw").accepted
    assert "There is no draw offer to answer." in recorder.texts[-2:]
    session.command("offer draw")
    assert session.command(second).accepted  # Bob plays on
    assert "Bob declines the draw by playing on." in recorder.texts
    assert session.state.to_json()["draw_offer"] is None
    assert not session.command("accept").accepted
    assert session.command(third).accepted
    assert not session.state.is_terminal()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_resignation(name: str) -> None:
    session, recorder = _session(name)
    first = GAMES[name][0]
    session.command(first)
    assert session.command("resign").accepted  # Bob, to move, resigns
    assert session.state.winners() == (0,)
    assert "Ann wins the game! Bob resigns." in recorder.texts[-2:]
    undone = session.undo()
    assert undone.accepted and not session.state.is_terminal()
    assert session.command("Ann resign").accepted  # a named player resigns out of turn
    assert session.state.winners() == (1,)


def test_offers_and_answers_go_by_the_named_player() -> None:
    session, _ = _session("chess")
    session.command("e4")
    assert session.command("Bob offer draw").accepted  # Bob offers before he moves
    assert session.command("e5").accepted  # his own move keeps his offer
    assert session.state.to_json()["draw_offer"] == "Bob"
    assert not session.command("offer draw").accepted  # one offer at a time
    assert session.command("Ann decline").accepted
    assert session.state.to_json()["draw_offer"] is None
