"""The DGT board source: the settle logic (injected clock, no sleeping) and reconnecting."""

from __future__ import annotations

import queue
import threading

import pytest
import serial

from companion.observations import BoardSeen, DeviceHello, DeviceStatus, Observation
from devices.dgt import START_PIECES, START_PIECES_ROTATED, Command, Message
from devices.dgt_source import STARTUP, DgtSource, Settler, open_source

A = tuple(START_PIECES)
B = tuple(0 if i == 52 else p for i, p in enumerate(A))  # e2 lifted
C = tuple(1 if i == 36 else p for i, p in enumerate(B))  # ... and put on e4


def test_a_board_is_released_once_still_for_the_settle_time() -> None:
    s = Settler(0.3)
    assert s.poll(0.0) is None and s.deadline() is None
    s.update(A, 0.0)
    assert s.deadline() == pytest.approx(0.3)
    assert s.poll(0.29) is None
    assert s.poll(0.30) == A
    assert s.poll(0.31) is None  # released once only
    assert s.deadline() is None


def test_lifting_and_placing_quickly_releases_only_the_end_result() -> None:
    s = Settler(0.3)
    s.update(A, 0.0)
    assert s.poll(0.5) == A
    s.update(B, 1.0)  # lifted
    assert s.poll(1.2) is None
    s.update(C, 1.25)  # placed within the settle time: the timer starts again
    assert s.poll(1.5) is None
    assert s.poll(1.55) == C


def test_duplicate_updates_do_not_restart_the_timer() -> None:
    s = Settler(0.3)
    s.update(B, 0.0)
    s.update(B, 0.2)  # the same board reported again
    assert s.poll(0.3) == B


def test_a_piece_lifted_and_put_back_is_not_news() -> None:
    s = Settler(0.3)
    s.update(A, 0.0)
    assert s.poll(0.3) == A
    s.update(B, 1.0)
    s.update(A, 1.1)
    assert s.poll(5.0) is None
    s.forget()  # after a reconnection the same board is reported again
    assert s.poll(5.0) == A


class FakePort:
    """A serial port whose bytes come from a queue; raises when told it was unplugged."""

    def __init__(self, chunks: queue.Queue[bytes | Exception]) -> None:
        self.chunks = chunks
        self.written = bytearray()
        self.in_waiting = 0

    def write(self, data: bytes) -> None:
        self.written += data

    def read(self, n: int) -> bytes:
        try:
            item = self.chunks.get(timeout=0.01)
        except queue.Empty:
            return b""
        if isinstance(item, Exception):
            raise item
        return item

    def cancel_read(self) -> None:
        pass

    def close(self) -> None:
        pass


class Clock:
    """Time that moves a tenth of a second each time the source looks at it."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.1
        return self.now


def wait_for(inbox: queue.Queue[Observation], kind: type) -> Observation:
    while True:
        obs = inbox.get(timeout=5)
        if isinstance(obs, kind):
            return obs


def test_source_starts_the_board_and_reconnects_when_unplugged() -> None:
    chunks: queue.Queue[bytes | Exception] = queue.Queue()
    opened: list[dict] = []
    attempts = iter([None, serial.SerialException("gone"), None])
    ports: list[FakePort] = []

    def opener(url: str, **kwargs: object) -> FakePort:
        opened.append({"url": url, **kwargs})
        failure = next(attempts, None)
        if failure is not None:
            raise failure
        ports.append(FakePort(chunks))
        return ports[-1]

    clock = Clock()
    source = DgtSource("loop://", settle=0.3, opener=opener, retry_seconds=0.0, clock=clock)
    inbox: queue.Queue[Observation] = queue.Queue()
    source.start(inbox.put)
    try:
        chunks.put(Message.version(1, 7).encode() + Message.board_dump(A).encode())
        hello = wait_for(inbox, DeviceHello)
        assert hello.version == "1.07"  # type: ignore[attr-defined]
        assert opened[0]["baudrate"] == 9600 and opened[0]["bytesize"] == 8
        assert opened[0]["parity"] == "N" and opened[0]["stopbits"] == 1
        assert bytes(ports[0].written) == bytes(int(c) for c in STARTUP)
        assert STARTUP[0] is Command.SEND_RESET and STARTUP[-1] is Command.SEND_UPDATE_NICE
        seen = wait_for(inbox, BoardSeen)
        assert dict(seen.squares)["e2"] == "P"  # type: ignore[attr-defined]
        chunks.put(serial.SerialException("unplugged"))
        lost = wait_for(inbox, DeviceStatus)
        assert lost.state == "disconnected"  # type: ignore[attr-defined]
        back = wait_for(inbox, DeviceStatus)
        assert back.state == "reconnected"  # type: ignore[attr-defined]
        assert len(ports) == 2 and bytes(ports[1].written) == bytes(int(c) for c in STARTUP)
        chunks.put(Message.board_dump(A).encode())  # the answer to the new SEND_BRD
        seen = wait_for(inbox, BoardSeen)  # reported again after reconnecting
        assert dict(seen.squares)["e1"] == "K"  # type: ignore[attr-defined]
    finally:
        source.close()


def test_rotated_board_is_read_from_blacks_side() -> None:
    chunks: queue.Queue[bytes | Exception] = queue.Queue()
    clock = Clock()
    source = DgtSource(
        "x", opener=lambda url, **kw: FakePort(chunks), clock=clock, retry_seconds=0.0
    )
    inbox: queue.Queue[Observation] = queue.Queue()
    chunks.put(Message.board_dump(START_PIECES_ROTATED).encode())
    source.start(inbox.put)
    try:
        seen = wait_for(inbox, BoardSeen)
        squares = dict(seen.squares)  # type: ignore[attr-defined]
        assert squares["e1"] == "K" and squares["d8"] == "q" and source.rotated
    finally:
        source.close()


def test_open_source_options() -> None:
    source = open_source("/dev/ttyUSB0#rotated,settle=0.5", "board")
    assert (source.url, source.rotated, source.settler.settle) == ("/dev/ttyUSB0", True, 0.5)
    assert source.name == "dgt:/dev/ttyUSB0"
    assert open_source("COM3", "board").rotated is None
    with pytest.raises(ValueError):
        open_source("/dev/ttyUSB0#upside-down", "board")
    with pytest.raises(ValueError):
        open_source("", "board")


def test_close_ends_the_reader_thread() -> None:
    source = DgtSource("x", opener=lambda url, **kw: FakePort(queue.Queue()))
    source.start(lambda obs: None)
    assert source.connected.wait(5)
    source.close()
    assert not any(t.name == "dgt:x" and t.is_alive() for t in threading.enumerate())


def test_a_reader_bug_is_said_and_the_board_read_again() -> None:
    """Not only an unplugged port: any failure in reading says so and reconnects, so the
    reader thread never dies silently (the loop in devices/reconnect.py)."""
    chunks: queue.Queue[bytes | Exception] = queue.Queue()
    chunks.put(RuntimeError("a decoder bug"))
    source = DgtSource("x", opener=lambda url, **kw: FakePort(chunks), retry_seconds=0.0,
                       clock=Clock())
    inbox: queue.Queue[Observation] = queue.Queue()
    source.start(inbox.put)
    try:
        lost = wait_for(inbox, DeviceStatus)
        assert lost.state == "disconnected"  # type: ignore[attr-defined]
        back = wait_for(inbox, DeviceStatus)
        assert back.state == "reconnected"  # type: ignore[attr-defined]
        chunks.put(Message.board_dump(A).encode())
        seen = wait_for(inbox, BoardSeen)
        assert dict(seen.squares)["e1"] == "K"  # type: ignore[attr-defined]
    finally:
        source.close()
