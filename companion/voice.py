"""The announcer: a queue and one worker thread in front of a speech backend.

Backends: pyttsx3 (default where its engine loads), espeak-ng called directly, console text,
silent, and a recorder for tests. pyttsx3's say()/runAndWait() is known to drop or delay
utterances on Linux, so here it only synthesises to a WAV file (save_to_file) and the file is
played by a player program; each utterance is one synthesis and one playback, so none is lost.

Priorities: when the queue backs up, stale CHATTER ("Red's turn") is dropped; results and
refusals are always said.
"""

from __future__ import annotations

import contextlib
import io
import logging
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TextIO

from companion.engine import Priority
from companion.printable import printable

log = logging.getLogger("companion.voice")

STALE_SECONDS = 2.0  # chatter older than this when its turn comes is dropped
HISTORY = 200  # spoken and dropped sentences kept (for the demo summary): bounded under a flood


@dataclass(frozen=True)
class Utterance:
    text: str
    priority: int = Priority.INFO
    queued: float = field(default_factory=time.monotonic)
    wait: Callable[[], object] | None = None  # its own barrier, taken when it was said


Barrier = Callable[[], object]
Ticket = Callable[[], Barrier]  # at say time: the barrier for what has been said so far


class Sink(Protocol):
    """Anything the session can announce to.

    ``set_barrier`` gives the sink a function to call before anything it was told reaches a
    person: the journal's ``wait_durable``, so nothing is announced before it is on disk.
    """

    def say(self, text: str, priority: int = Priority.INFO) -> None: ...

    def set_barrier(self, barrier: Barrier, ticket: Ticket | None = None) -> None: ...

    def wait_idle(self, timeout: float | None = None) -> bool: ...

    def behind(self) -> bool:
        """Whether speech is still owed: something given that a voice is yet to say (text
        backends are never behind). A device's refusals wait for this (refusals.py)."""
        ...

    def close(self) -> None: ...


class AudioUnavailable(Exception):
    pass


class Backend(Protocol):
    name: str

    def speak(self, text: str) -> None: ...

    def close(self) -> None: ...


# --------------------------------------------------------------------------- backends


class ConsoleBackend:
    name = "console"

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def speak(self, text: str) -> None:
        out = self.stream or sys.stdout
        out.write(printable(text, lines=True) + "\n")
        out.flush()

    def close(self) -> None:
        pass


class SilentBackend:
    name = "silent"

    def speak(self, text: str) -> None:
        pass

    def close(self) -> None:
        pass


def find_player() -> list[str] | None:
    """A command that plays a WAV file given as its last argument, if any is installed."""
    for cmd in (["aplay", "-q"], ["paplay"], ["pw-play"], ["play", "-q"], ["ffplay", "-nodisp",
                                                                           "-autoexit", "-v", "0"]):
        if shutil.which(cmd[0]):
            return cmd
    return None


class _WavBackend:
    """Synthesise to a temporary WAV, then play it with a player program."""

    name = "wav"

    def __init__(self, rate: int = 170, volume: float = 1.0, player: list[str] | None = None):
        self.rate = rate
        self.volume = volume
        self.player = player if player is not None else find_player()
        self._dir = tempfile.TemporaryDirectory(prefix="companion-voice-")
        self._n = 0

    def synthesise(self, text: str, path: Path) -> None:
        raise NotImplementedError

    def speak(self, text: str) -> None:
        self._n += 1
        path = Path(self._dir.name) / f"u{self._n % 4}.wav"
        self.synthesise(text, path)
        if not self.player:
            raise AudioUnavailable("no audio player (aplay, paplay, pw-play, play) is installed")
        result = subprocess.run(
            [*self.player, str(path)], capture_output=True, text=True, timeout=120, check=False
        )
        if result.returncode != 0:
            detail = (result.stderr or result.stdout).strip().splitlines()
            raise AudioUnavailable(detail[-1] if detail else f"{self.player[0]} failed")

    def close(self) -> None:
        self._dir.cleanup()


class EspeakBackend(_WavBackend):
    name = "espeak-ng"

    def __init__(self, rate: int = 170, volume: float = 1.0, player: list[str] | None = None):
        exe = shutil.which("espeak-ng") or shutil.which("espeak")
        if exe is None:
            raise AudioUnavailable("espeak-ng is not installed")
        self.exe = exe
        super().__init__(rate, volume, player)

    def synthesise(self, text: str, path: Path) -> None:
        amplitude = str(max(0, min(200, round(self.volume * 100))))
        cmd = [self.exe, "-s", str(self.rate), "-a", amplitude, "-w", str(path), "--", text]
        subprocess.run(cmd, check=True, capture_output=True, timeout=60)


class _DropSavedNotice(io.TextIOBase):
    """Wraps stdout to drop pyttsx3's "Audio saved to ..." line. Its espeak driver prints it
    after every save_to_file, from espeak's callback thread, and it would interleave with
    the console text; everything else passes through."""

    NOTICE = "Audio saved to "

    def __init__(self, inner: TextIO) -> None:
        self.inner = inner
        self._drop_newline = False

    def write(self, text: str) -> int:
        if text.startswith(self.NOTICE):
            self._drop_newline = not text.endswith("\n")
            return len(text)
        if self._drop_newline and text == "\n":
            self._drop_newline = False
            return len(text)
        self._drop_newline = False
        return self.inner.write(text)

    def flush(self) -> None:
        self.inner.flush()

    def fileno(self) -> int:
        return self.inner.fileno()

    def isatty(self) -> bool:
        return self.inner.isatty()


class Pyttsx3Backend(_WavBackend):
    """pyttsx3, used for synthesis only (see the module docstring for why)."""

    name = "pyttsx3"

    def __init__(self, rate: int = 170, volume: float = 1.0, player: list[str] | None = None):
        import pyttsx3

        super().__init__(rate, volume, player)
        self.engine = pyttsx3.init()
        self.engine.setProperty("rate", rate)
        self.engine.setProperty("volume", max(0.0, min(1.0, volume)))
        if not isinstance(sys.stdout, _DropSavedNotice):
            sys.stdout = _DropSavedNotice(sys.stdout)

    def synthesise(self, text: str, path: Path) -> None:
        self.engine.save_to_file(text, str(path))
        self.engine.runAndWait()
        if not path.is_file() or path.stat().st_size <= 44:
            raise AudioUnavailable("pyttsx3 produced no audio")

    def close(self) -> None:
        if isinstance(sys.stdout, _DropSavedNotice):
            sys.stdout = sys.stdout.inner
        super().close()


BACKENDS: dict[str, Callable[..., Backend]] = {
    "pyttsx3": Pyttsx3Backend,
    "espeak": EspeakBackend,
    "console": lambda **_: ConsoleBackend(),
    "silent": lambda **_: SilentBackend(),
}


# --------------------------------------------------------------------------- announcer


class Announcer:
    """A queue with a worker thread. ``say`` never blocks the caller on speech."""

    def __init__(
        self,
        backend_factory: Callable[[], Backend],
        *,
        echo: TextIO | None = None,
        stale_seconds: float = STALE_SECONDS,
        warn: Callable[[str], None] | None = None,
    ) -> None:
        self._factory = backend_factory
        self._queue: queue.Queue[Utterance | None] = queue.Queue()
        self._echo = echo
        self._stale = stale_seconds
        self._warn = warn or (lambda msg: print(f"warning: {printable(msg)}", file=sys.stderr))
        self._pending = 0  # said but not yet spoken or dropped
        self._idle = threading.Condition()
        self._barrier: Barrier = lambda: None
        self._ticket: Ticket | None = None
        self.backend_name = "starting"
        self.spoken: list[str] = []  # what the backend actually said (for the demo summary)
        self.dropped: list[str] = []
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="announcer", daemon=True)
        self._thread.start()
        self._ready.wait(timeout=30)

    def say(self, text: str, priority: int = Priority.INFO) -> None:
        with self._idle:
            self._pending += 1
        wait = self._ticket() if self._ticket is not None else None
        # Device text and player names reach the terminal (and the speech engine) from here.
        self._queue.put(Utterance(printable(text, lines=True), priority, wait=wait))

    def set_barrier(self, barrier: Barrier, ticket: Ticket | None = None) -> None:
        """``ticket``: the barrier of each utterance taken when it is said (the journal
        entries before it), so that a disk error later holds back only what came after."""
        self._barrier = barrier
        self._ticket = ticket

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until everything queued has been said (or dropped)."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    def behind(self) -> bool:
        if self.backend_name in {"console", "silent"}:
            return False  # text costs nothing
        with self._idle:
            return self._pending > 0

    def close(self, timeout: float = 60.0) -> None:
        self._queue.put(None)
        self._thread.join(timeout)

    def _run(self) -> None:
        backend = self._start_backend()
        self._ready.set()
        while True:
            item = self._queue.get()
            if item is None:
                with contextlib.suppress(Exception):
                    backend.close()
                return
            try:
                backend = self._handle(backend, item)
            except Exception as err:  # nothing may silence the announcer for good
                log.exception("announcer failed on %r", item.text)
                self._warn(f"announcing failed ({err}); continuing with text only")
                backend = ConsoleBackend()
                self.backend_name = backend.name
                if self._echo is None:
                    with contextlib.suppress(Exception):
                        backend.speak(item.text)
            finally:
                with self._idle:
                    self._pending -= 1
                    self._idle.notify_all()

    def _handle(self, backend: Backend, item: Utterance) -> Backend:
        if self._is_stale(item):
            _keep(self.dropped, item.text)
            log.info("dropped stale chatter: %s", item.text)
            return backend
        if item.priority < Priority.ALERT and (item.wait or self._barrier)() is False:
            # Not on disk: never announced. The session says why (an ALERT) and stops.
            self.dropped.append(item.text)
            log.warning("not announced, its journal entry is not on disk: %s", item.text)
            return backend
        if self._echo is not None and self.backend_name != "console":
            self._echo.write(item.text + "\n")
            self._echo.flush()
        return self._speak(backend, item.text)

    def _is_stale(self, item: Utterance) -> bool:
        # Only speech falls behind; text costs nothing, so console output keeps everything.
        if item.priority > Priority.CHATTER or self.backend_name in {"console", "silent"}:
            return False
        return not self._queue.empty() or time.monotonic() - item.queued > self._stale

    def _start_backend(self) -> Backend:
        try:
            backend = self._factory()
        except Exception as err:  # any engine failure falls back to text, once, loudly
            self._warn(f"no speech engine ({err}); announcements are shown as text only")
            backend = ConsoleBackend()
        self.backend_name = backend.name
        return backend

    def _speak(self, backend: Backend, text: str) -> Backend:
        try:
            backend.speak(text)
            _keep(self.spoken, text)
            return backend
        except (AudioUnavailable, OSError, subprocess.SubprocessError, RuntimeError) as err:
            self._warn(f"speech failed ({err}); announcements are shown as text only from now")
            backend.close()
            console = ConsoleBackend()
            self.backend_name = console.name
            if self._echo is None:
                console.speak(text)
            return console


def _keep(history: list[str], text: str) -> None:
    """Append, keeping only the latest HISTORY entries (trimmed in batches, so cheaply)."""
    history.append(text)
    if len(history) > 2 * HISTORY:
        del history[:-HISTORY]


class Recorder:
    """A synchronous sink for tests: keeps every announcement with its priority."""

    def __init__(self) -> None:
        self.items: list[Utterance] = []
        self._barrier: Barrier = lambda: None

    def say(self, text: str, priority: int = Priority.INFO) -> None:
        self._barrier()
        self.items.append(Utterance(printable(text, lines=True), priority))

    def set_barrier(self, barrier: Barrier, ticket: Ticket | None = None) -> None:
        self._barrier = barrier

    def wait_idle(self, timeout: float | None = None) -> bool:
        return True  # synchronous: everything said is already recorded

    def behind(self) -> bool:
        return False

    @property
    def texts(self) -> list[str]:
        return [u.text for u in self.items]

    def clear(self) -> None:
        self.items.clear()

    def close(self) -> None:
        pass


def make_announcer(
    voice: str = "auto", *, rate: int = 170, volume: float = 1.0, echo: TextIO | None = None
) -> Sink:
    """``auto`` tries pyttsx3, then espeak-ng, then console text with one warning."""
    if voice == "console":
        return Announcer(lambda: ConsoleBackend())
    if voice == "silent":
        return Announcer(lambda: SilentBackend())
    order = ["pyttsx3", "espeak"] if voice == "auto" else [voice]
    for name in order:
        if name not in BACKENDS:
            raise ValueError(
                f"unknown voice {voice!r}; use auto, pyttsx3, espeak, console or silent"
            )

    def factory() -> Backend:
        errors = []
        for name in order:
            try:
                backend = BACKENDS[name](rate=rate, volume=volume)
                if isinstance(backend, _WavBackend) and not backend.player:
                    backend.close()
                    raise AudioUnavailable("no audio player (aplay, paplay, play) is installed")
                return backend
            except Exception as err:
                errors.append(f"{name}: {err}")
        raise AudioUnavailable("; ".join(errors))

    return Announcer(factory, echo=echo if echo is not None else sys.stdout)
