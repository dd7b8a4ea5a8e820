"""The Time Limit Game's agreed hour, kept by the companion (companion/clock.py)."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta

import pytest

from companion.clock import ClockSource, deadline, parse_hour, start_clock
from companion.games.monopoly.game import Monopoly
from companion.journal import Journal
from companion.observations import Observation, TextCommand
from companion.session import Session
from companion.voice import Recorder

EVENING = datetime(2026, 11, 21, 19, 40)


def test_the_hour_is_the_first_one_after_the_start() -> None:
    assert deadline("21:30", EVENING) == datetime(2026, 11, 21, 21, 30)
    assert deadline("1:15", EVENING) == datetime(2026, 11, 22, 1, 15)  # after midnight
    assert deadline("19.40", EVENING) == EVENING
    assert parse_hour("21h05") == (21, 5)
    for wrong in ("25:00", "9pm", "21:7", ""):
        with pytest.raises(ValueError, match="HH:MM"):
            parse_hour(wrong)


def test_an_end_time_needs_the_time_limit_game_and_an_hour() -> None:
    with pytest.raises(ValueError, match="--variant time-limit"):
        Monopoly(["Car", "Hat"], {"end_time": "21:30"})
    with pytest.raises(ValueError, match="HH:MM"):
        Monopoly(["Car", "Hat"], {"variant": "time-limit", "end_time": "late"})


class Collect:
    def __init__(self) -> None:
        self.items: list[Observation] = []
        self.done = threading.Event()

    def __call__(self, observation: Observation) -> None:
        self.items.append(observation)
        self.done.set()


def test_the_clock_says_time_up_once_the_hour_has_come() -> None:
    times = iter([EVENING, EVENING + timedelta(hours=2)])  # the second look is past 21:30
    clock = ClockSource(datetime(2026, 11, 21, 21, 30), now=lambda: next(times))
    clock._stop.wait = lambda timeout=None: False  # type: ignore[method-assign]
    collect = Collect()
    clock.start(collect)
    assert collect.done.wait(timeout=10)
    clock.close()
    assert [(o.source, o.text) for o in collect.items
            if isinstance(o, TextCommand)] == [("clock", "time up")]


def test_a_closed_clock_says_nothing() -> None:
    clock = ClockSource(EVENING + timedelta(hours=3), now=lambda: EVENING)
    collect = Collect()
    clock.start(collect)
    clock.close()
    assert clock._thread is not None and not clock._thread.is_alive()
    assert collect.items == []


def _game(end_time: str) -> tuple[Session, Recorder]:
    recorder = Recorder()
    game = Monopoly(["Car", "Hat"], {"variant": "time-limit", "end_time": end_time,
                                     "cards": "physical"})
    return Session.start(game, Journal.memory(), announcer=recorder), recorder


def test_a_game_is_told_its_hour_and_one_resumed_after_it_ends() -> None:
    session, recorder = _game("21:30")
    clock = start_clock(session, now=EVENING)
    assert isinstance(clock, ClockSource) and clock.end == datetime(2026, 11, 21, 21, 30)
    assert "The game ends at 21:30." in recorder.texts
    assert start_clock(*_game("")[:1]) is None  # no agreed hour, no clock
    # resumed the next morning: the hour has passed, the game ends at once, journaled
    session.command("roll 3 4")
    first = next(iter(session.journal.entries())).time
    later = datetime.fromtimestamp(first) + timedelta(days=1)
    assert start_clock(session, now=later) is None
    assert session.state.is_terminal()
    assert [e.source for e in session.journal.entries()][-1] == "clock"
    assert any("Time is up" in t for t in recorder.texts)
