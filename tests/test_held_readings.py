"""A device's readings that come while a question about an unsure reading is open are held,
then read in order once it is answered (issue 15): never taken as the questioned player's
input, never dropped without a word."""

from __future__ import annotations

from companion.held import HOLD_AT_MOST
from companion.observations import CardSeen, DiceSeen
from companion.session import Session
from companion.voice import Recorder
from tests.test_session import start
from tests.test_table_input import table


def crazy_eights() -> tuple[Session, Recorder]:
    session, recorder = table("crazy-eights")  # seed 5: the two of spades starts the pile
    assert session.state.expected() == "Blue to play on the two of spades"
    return session, recorder


def unsure_king_then_sure_four(session: Session) -> None:
    asked = session.submit(CardSeen(source="camera:0", card="KS", confidence=0.5))
    assert asked.text == ("I read Blue plays the king of spades, but I am not sure: say yes, "
                          "or type the values.")
    held = session.submit(CardSeen(source="camera:0", card="4S", confidence=0.97))
    assert not held.accepted
    assert held.text == ("I am still waiting for an answer: I read Blue plays the king of "
                         "spades, but I am not sure: say yes, or type the values. Then I will "
                         "read the reading that came after it.")


def plays(session: Session) -> list[tuple[str, str]]:
    return [(type(a).__name__, str(a)) for a in session.applied]


def test_the_next_card_waits_for_the_answer_then_is_the_next_players():
    session, said = crazy_eights()
    before = session.state.to_json()
    unsure_king_then_sure_four(session)
    assert session.state.to_json() == before  # nothing taken while the question is open
    assert session.command("yes").accepted
    assert said.texts[-2:] == ["Blue plays the king of spades.", "Red plays the four of spades."]
    assert session.state.expected() == "Blue to play on the four of spades"


def test_typed_values_answer_the_question_then_the_held_card_is_read():
    session, said = crazy_eights()
    unsure_king_then_sure_four(session)
    assert session.command("card KH").accepted is False  # the king of hearts is not on 2S
    assert session.command("card QS").accepted  # the card really played, typed
    assert said.texts[-2:] == ["Blue plays the queen of spades.", "Red plays the four of spades."]


def test_no_reads_the_held_reading_as_the_input_given_again():
    session, said = crazy_eights()
    unsure_king_then_sure_four(session)
    session.command("no")
    assert said.texts[-2:] == ["Ignored. Please give the input again.",
                         "Blue plays the four of spades."]


def test_a_held_reading_unsure_in_turn_asks_and_holds_the_rest():
    session, said = crazy_eights()
    session.submit(CardSeen(source="camera:0", card="KS", confidence=0.5))
    session.submit(CardSeen(source="camera:0", card="KH", confidence=0.4))  # Red, unsure
    session.submit(CardSeen(source="camera:0", card="3H", confidence=0.99))  # Blue
    assert said.texts[-1].endswith("Then I will read the 2 readings that came after it.")
    session.command("yes")
    assert said.texts[-2:] == ["Blue plays the king of spades.",
                         "I read Red plays the king of hearts, but I am not sure: say yes, or "
                         "type the values."]
    session.command("yes")
    assert said.texts[-2:] == ["Red plays the king of hearts.", "Blue plays the three of hearts."]
    assert len(session.held) == 0


def test_a_held_reading_no_longer_legal_is_refused_aloud_after_the_answer():
    session, said = crazy_eights()
    session.submit(CardSeen(source="camera:0", card="KS", confidence=0.5))
    session.submit(CardSeen(source="camera:0", card="4D", confidence=0.99))
    session.command("yes")
    assert said.texts[-2] == "Blue plays the king of spades."
    assert "four of diamonds cannot go on the pile" in said.texts[-1]
    assert session.state.expected() == "Red to play on the king of spades"


def test_undo_sets_the_held_readings_aside_and_says_so():
    session, said = crazy_eights()
    session.submit(CardSeen(source="camera:0", card="7S", confidence=1.0))  # Blue
    session.submit(CardSeen(source="camera:0", card="KS", confidence=0.5))  # Red, asked
    session.submit(CardSeen(source="camera:0", card="4S", confidence=0.97))
    session.submit(CardSeen(source="camera:0", card="5S", confidence=0.97))
    assert session.undo().accepted
    assert said.texts[-1] == ("The 2 readings held while I waited for an answer were set "
                        "aside: give them again if they still count.")
    assert len(session.held) == 0 and session.pending is None
    assert session.state.expected() == "Blue to play on the two of spades"


def test_a_full_hold_refuses_the_reading_with_its_reason():
    session, recorder = start()
    session.command("go")
    session.submit(DiceSeen(source="camera:0", values=(4,), confidence=0.6))
    for _ in range(HOLD_AT_MOST):
        assert not session.submit(DiceSeen(source="camera:0", values=(5,))).accepted
    reply = session.submit(DiceSeen(source="camera:0", values=(6,)))
    assert reply.text == ("I am still waiting for an answer (I read roll 4, but I am not sure), "
                          f"and I already hold {HOLD_AT_MOST} later readings: "
                          "this one is set aside. Answer, then give it again.")
    assert len(session.held) == HOLD_AT_MOST and session.state.pot == 0


def test_resume_after_held_readings_equals_live():
    session, _ = crazy_eights()
    unsure_king_then_sure_four(session)
    session.command("yes")
    resumed = Session.resume(session.journal, Recorder())
    assert resumed.state.to_json() == session.state.to_json()
    assert plays(resumed) == plays(session)
