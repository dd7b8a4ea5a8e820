"""The announcer: priorities, fallback, and real speech synthesised to a WAV file."""

from __future__ import annotations

import io
import os
import shutil
import threading
import wave
from pathlib import Path

import pytest

from companion.engine import Priority
from companion.voice import Announcer, EspeakBackend, Pyttsx3Backend, make_announcer

SENTENCE = "Red throws four and climbs the ladder from four to fourteen."
WAIT = 30.0


class GatedBackend:
    """Holds the first utterance until released, so the queue can back up deterministically."""

    name = "gated"

    def __init__(self) -> None:
        self.said: list[str] = []
        self.started = threading.Event()
        self.release = threading.Event()

    def speak(self, text: str) -> None:
        self.started.set()
        self.release.wait(WAIT)
        self.said.append(text)

    def close(self) -> None:
        pass


def test_stale_chatter_is_dropped_but_results_and_refusals_never():
    backend = GatedBackend()
    announcer = Announcer(lambda: backend, echo=None)
    announcer.say("first", Priority.INFO)
    assert backend.started.wait(WAIT)
    announcer.say("Red's turn.", Priority.CHATTER)
    announcer.say("Red wins!", Priority.RESULT)
    announcer.say("Blue's turn.", Priority.CHATTER)
    announcer.say("That card would pass 31.", Priority.REFUSAL)
    announcer.say("Blue's turn.", Priority.CHATTER)
    backend.release.set()
    assert announcer.wait_idle(WAIT)
    announcer.close()
    assert backend.said == ["first", "Red wins!", "That card would pass 31.", "Blue's turn."]
    assert announcer.dropped == ["Red's turn.", "Blue's turn."]


def test_every_utterance_is_said_in_order_when_nothing_is_stale():
    backend = GatedBackend()
    backend.release.set()
    announcer = Announcer(lambda: backend, echo=None, stale_seconds=1e9)
    lines = [f"line {i}" for i in range(200)]
    for line in lines:
        announcer.say(line, Priority.INFO)
    assert announcer.wait_idle(WAIT)
    announcer.close()
    assert backend.said == lines


def test_no_engine_falls_back_to_text_with_one_warning(capsys):
    warnings: list[str] = []

    def broken():
        raise RuntimeError("no voices")

    announcer = Announcer(broken, echo=None, warn=warnings.append)
    announcer.say("Blue wins!", Priority.RESULT)
    announcer.say("Game saved.", Priority.RESULT)
    assert announcer.wait_idle(WAIT)
    announcer.close()
    assert len(warnings) == 1 and "text only" in warnings[0]
    assert capsys.readouterr().out.splitlines() == ["Blue wins!", "Game saved."]


def test_failed_playback_falls_back_once():
    class NoDevice:
        name = "nodevice"

        def speak(self, text: str) -> None:
            from companion.voice import AudioUnavailable

            raise AudioUnavailable("no soundcards found")

        def close(self) -> None:
            pass

    warnings: list[str] = []
    echo = io.StringIO()
    announcer = Announcer(NoDevice, echo=echo, warn=warnings.append)
    for i in range(3):
        announcer.say(f"line {i}", Priority.RESULT)
    assert announcer.wait_idle(WAIT)
    announcer.close()
    assert len(warnings) == 1
    assert echo.getvalue().count("line 0") == 1  # echoed once, not printed again


def _wav_seconds(path: Path) -> float:
    with wave.open(str(path)) as wav:
        return wav.getnframes() / wav.getframerate()


def _need(tool: str) -> None:
    if shutil.which(tool) is None:
        if os.environ.get("CI"):
            pytest.fail(f"{tool} must be installed in CI (.ci/run installs it)")
        pytest.skip(f"{tool} is not installed")


def _expected_seconds(rate: int) -> float:
    return len(SENTENCE.split()) * 60.0 / rate


@pytest.mark.parametrize("rate", [140, 220])
def test_espeak_synthesises_a_wav_as_long_as_the_sentence(tmp_path, rate):
    _need("espeak-ng")
    backend = EspeakBackend(rate=rate, player=[])
    path = tmp_path / "espeak.wav"
    backend.synthesise(SENTENCE, path)
    seconds = _wav_seconds(path)
    expected = _expected_seconds(rate)
    assert path.stat().st_size > 10_000
    assert 0.5 * expected < seconds < 2.0 * expected, (seconds, expected)


def test_pyttsx3_synthesises_a_wav_as_long_as_the_sentence(tmp_path):
    _need("espeak-ng")
    backend = Pyttsx3Backend(rate=170, player=[])
    path = tmp_path / "pyttsx3.wav"
    backend.synthesise(SENTENCE, path)
    backend.close()
    seconds = _wav_seconds(path)
    expected = _expected_seconds(170)
    assert 0.5 * expected < seconds < 2.0 * expected, (seconds, expected)


def test_make_announcer_rejects_unknown_voice():
    with pytest.raises(ValueError):
        make_announcer("klingon")


def test_a_failing_backend_or_echo_never_silences_the_announcer():
    class Exploding:
        name = "exploding"

        def speak(self, text: str) -> None:
            raise ValueError("driver bug")

        def close(self) -> None:
            pass

    warnings: list[str] = []
    announcer = Announcer(Exploding, echo=None, warn=warnings.append)
    for i in range(3):
        announcer.say(f"line {i}", Priority.RESULT)
    assert announcer.wait_idle(WAIT)
    assert announcer._thread.is_alive()
    announcer.close()
    assert len(warnings) == 1
