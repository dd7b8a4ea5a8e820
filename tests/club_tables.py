"""Helpers for the club tests: a real mosquitto (started by the test, on a free port) and
tables playing scripted games in this process, each with its own journal file and publisher."""

from __future__ import annotations

import contextlib
import os
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.club.broker import Mosquitto, mosquitto_binary
from companion.club.publisher import Publisher, public_view
from companion.club.settings import Broker
from companion.engine import CHANCE, Action, IllegalAction
from companion.journal import Journal
from companion.session import Session, build_game
from companion.voice import Recorder

WAIT = 30.0  # seconds any condition may take before a test fails


def need_mosquitto() -> None:
    if mosquitto_binary() is None:
        message = "mosquitto is not installed (./run setup installs it as root)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def start_broker(folder: Path, **kwargs: Any) -> Mosquitto:
    need_mosquitto()
    return Mosquitto(folder, **kwargs).start()


@dataclass
class Table:
    name: str
    session: Session
    publisher: Publisher
    rng: random.Random

    def step(self) -> None:
        """One scripted input: the seeded chance outcome, or a seeded legal choice."""
        state = self.session.state
        action: Action = (state.sample_chance(self.rng) if state.current_player() == CHANCE
                          else self.rng.choice(state.legal_actions()))
        reply = self.session.apply(action, source="script")
        assert reply.accepted

    def try_apply(self, action: Action) -> bool:
        try:
            self.session.apply(action, source="script")
        except IllegalAction:
            return False
        return True

    def play_out(self, limit: int = 5000) -> None:
        for _ in range(limit):
            if self.session.state.is_terminal():
                return
            self.step()
        raise AssertionError(f"table {self.name} did not finish in {limit} inputs")

    @property
    def entries(self) -> int:
        return self.session.journal.count()

    def public(self) -> dict[str, Any]:
        return public_view(self.session.game, self.session.state, len(self.session.applied))

    def close(self) -> None:
        self.publisher.close(timeout=WAIT)
        self.session.journal.close()


def open_table(folder: Path, url: str, name: str, game: str, players: list[str], *,
               seed: int, options: dict[str, Any] | None = None,
               auto: frozenset[str] = frozenset({"card", "shuffle", "dice"})) -> Table:
    built, files = build_game(game, players, options or {})
    journal = Journal(folder / f"{name}.sqlite")
    session = Session.start(built, journal, Recorder(), seed=seed, auto_chance=auto,
                            config=files)
    publisher = Publisher.start(session, Broker.parse(url).for_table(name))
    return Table(name, session, publisher, random.Random(f"{name}:{seed}"))


class Cable:
    """A TCP relay between one table and the broker that the test can cut and mend: the
    table's Wi-Fi going away (its connections drop, new ones are refused) and coming back."""

    def __init__(self, port: int) -> None:
        import socket
        import threading

        self._socket = socket
        self.target = port
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.up = True
        self._open: list[Any] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        import threading

        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with self._lock:
                if not self.up:
                    client.close()
                    continue
                try:
                    server = self._socket.create_connection(("127.0.0.1", self.target))
                except OSError:
                    client.close()
                    continue
                self._open += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: Any, sink: Any) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                with contextlib.suppress(OSError):
                    s.shutdown(self._socket.SHUT_RDWR)

    def cut(self) -> None:
        with self._lock:
            self.up = False
            for s in self._open:
                with contextlib.suppress(OSError):
                    s.shutdown(self._socket.SHUT_RDWR)
                s.close()
            self._open = []

    def mend(self) -> None:
        with self._lock:
            self.up = True

    def close(self) -> None:
        self.cut()
        self.listener.close()
