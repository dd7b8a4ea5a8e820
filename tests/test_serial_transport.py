"""Transports by URL: loop://, a real pty, and reconnect over socket:// on loopback."""

import queue
import socket

from companion.observations import DeviceStatus, DiceSeen
from devices.emulator import PtyDevice
from devices.protocol import encode
from devices.serial_source import SerialSource

WAIT = 10.0  # generous upper bound; tests wait on queues, never sleep


def collect(source):
    q: queue.Queue = queue.Queue()
    source.start(q.put)
    return q


def next_of(q, kind):
    while True:
        obs = q.get(timeout=WAIT)
        if isinstance(obs, kind):
            return obs


def test_pty_device_lines_arrive_as_observations():
    device = PtyDevice()
    source = SerialSource(device.path)
    q = collect(source)
    try:
        assert source.connected.wait(WAIT)  # opening flushes input, as pyserial does
        device.send_line("DICE 3 4")
        device.send_bytes(b"garbage\n")
        device.send_line("DICE 6")
        assert next_of(q, DiceSeen).values == (3, 4)
        assert next_of(q, DiceSeen).values == (6,)
    finally:
        source.close()
        device.close()


def test_pty_is_opened_exclusively():
    device = PtyDevice()
    first = SerialSource(device.path)
    q1 = collect(first)
    assert first.connected.wait(WAIT)
    device.send_line("DICE 1")
    next_of(q1, DiceSeen)
    second = SerialSource(device.path)
    q2 = collect(second)
    try:
        status = next_of(q2, DeviceStatus)
        assert status.state == "disconnected" and "Cannot open" in status.detail
    finally:
        second.close()
        first.close()
        device.close()


def test_loop_url_round_trip():
    source = SerialSource("loop://")
    q = collect(source)
    try:
        assert source.connected.wait(WAIT)
        source.write(encode("DICE 5 5"))
        assert next_of(q, DiceSeen).values == (5, 5)
    finally:
        source.close()


def test_reconnect_after_unplug_over_socket():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(2)
    port = server.getsockname()[1]
    source = SerialSource(f"socket://127.0.0.1:{port}", retry_seconds=0.05)
    q = collect(source)
    try:
        conn, _ = server.accept()
        assert source.connected.wait(WAIT)  # pyserial flushes input while it opens
        conn.sendall(b"DICE 2\n")
        assert next_of(q, DiceSeen).values == (2,)
        conn.sendall(b"DICE 3")  # half a line, then the plug is pulled
        conn.close()
        lost = next_of(q, DeviceStatus)
        assert lost.state == "disconnected" and "unplugged" in lost.detail
        conn2, _ = server.accept()
        back = next_of(q, DeviceStatus)
        assert back.state == "reconnected"
        conn2.sendall(b"4\nDICE 5\n")  # the old half line must not join the new one
        first = q.get(timeout=WAIT)
        assert not isinstance(first, DiceSeen)  # "4" alone is an unknown message
        assert next_of(q, DiceSeen).values == (5,)
        conn2.close()
    finally:
        source.close()
        server.close()


def test_pty_unplug_is_noticed_and_leaves_no_thread():
    device = PtyDevice()
    source = SerialSource(device.path, retry_seconds=0.05)
    q = collect(source)
    try:
        assert source.connected.wait(WAIT)
        device.send_line("DICE 2")
        assert next_of(q, DiceSeen).values == (2,)
        device.close()
        assert not device._drain.is_alive()
        status = next_of(q, DeviceStatus)
        assert status.state == "disconnected" and "unplugged" in status.detail
    finally:
        source.close()
