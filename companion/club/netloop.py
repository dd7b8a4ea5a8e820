"""One paho client's network, run from its owner's own thread (paho's external-loop API:
``socket``, ``loop_read``, ``loop_write``, ``loop_misc``), instead of a second thread of paho's.

A table's publisher reads its journal, builds its messages and publishes them in the same
thread that talks to the broker: a message goes out from ``publish()`` at once, and no thread
is woken to send it or to hand over its acknowledgement (at 100 tables x 10 inputs a second
each of those wake-ups cost more CPU than the message itself). Another thread wakes the loop
through a pipe. The loop connects, and connects again after a lost connection, as paho's own
loop does (after ``retry`` seconds, then ``retry_max``).
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import threading
import time

import paho.mqtt.client as mqtt

log = logging.getLogger("companion.club")


class NetworkLoop:
    def __init__(self, client: mqtt.Client, name: str, *, retry: float = 1.0,
                 retry_max: float = 2.0) -> None:
        self.client = client
        self.name = name
        self.retry, self.retry_max = retry, retry_max
        self._delay = 0.0  # before the next connection attempt
        self._retry_at = 0.0  # monotonic time of the next attempt while unconnected
        self._had_socket = False
        self._pipe_lock = threading.Lock()  # a wake-up never writes to a closed pipe's number
        self._open = True
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)

    def wake(self) -> None:
        """From any thread: end the current ``step``'s wait."""
        with self._pipe_lock, contextlib.suppress(BlockingIOError, OSError):
            if self._open:  # (a full pipe: it is awake anyway)
                os.write(self._wake_w, b"!")

    def step(self, timeout: float, *, listen: bool = True) -> None:
        """Connect if it is time to, wait up to ``timeout`` for the broker or a wake-up, and
        do what paho has to do (read, write, keep the connection alive). Callbacks run here.
        ``listen=False``: what the broker sent does not end the wait; it is read after it
        anyway (a table's acknowledgements wait for its next entry instead of waking it)."""
        client = self.client
        sock = client.socket()
        if sock is None:
            if self._had_socket:  # lost: wait a little before trying again, as paho does
                self._had_socket = False
                self._retry_at = time.monotonic() + (self._delay or self.retry)
            if time.monotonic() >= self._retry_at:
                self._connect()
                sock = client.socket()
        if sock is None:
            timeout = max(0.0, min(timeout, self._retry_at - time.monotonic()))
        pending = getattr(sock, "pending", None)  # TLS: bytes already decrypted, not in select
        if pending is not None and pending() > 0:
            timeout = 0.0
        # poll, not select: a process with many tables (the bench) has descriptors above
        # select's 1,024, where select fails at once, every time.
        poller = select.poll()
        poller.register(self._wake_r, select.POLLIN)
        if sock is not None:
            poller.register(sock, (select.POLLIN if listen else 0)
                            | (select.POLLOUT if client.want_write() else 0))
        try:
            ready = dict(poller.poll(timeout * 1000))
        except OSError:
            ready = {}
        if self._wake_r in ready:
            with contextlib.suppress(BlockingIOError):
                os.read(self._wake_r, 4096)
        if sock is None:
            return
        events = ready.get(sock.fileno(), 0)
        if not listen or events & ~select.POLLOUT or (pending is not None and pending() > 0):
            client.loop_read()  # (an error or a hang-up too: paho finds out and says so)
        if client.socket() is not None and client.want_write():
            client.loop_write()
        if client.socket() is not None:
            client.loop_misc()

    def _connect(self) -> None:
        try:
            client = self.client
            client.reconnect()
            self._had_socket = True
            self._delay = 0.0
        except (OSError, ValueError) as err:  # refused, unreachable, TLS: try again later
            log.debug("%s cannot reach the broker: %s", self.name, err)
            self._delay = min(self.retry_max, (self._delay or self.retry / 2) * 2)
            self._retry_at = time.monotonic() + self._delay

    def close(self) -> None:
        with self._pipe_lock:
            if not self._open:
                return
            self._open = False
            for fd in (self._wake_r, self._wake_w):
                with contextlib.suppress(OSError):
                    os.close(fd)
