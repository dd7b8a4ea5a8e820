"""The reader thread every serial source shares: open, read until the port fails, say so
once, keep trying, and say when the device is back.

A subclass opens its port (``_connect``), reads it (``_read``), drops any half-read input
when the port goes (``_forget``) and words the three announcements. The loop itself never
dies: an unplugged device (SerialException, OSError; pyserial's posix read can also fail with
TypeError when the fd vanishes) and a bug in a decoder alike are said aloud and followed by
a reconnect.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from typing import Any

import serial

from companion.observations import DeviceStatus, Observation

log = logging.getLogger("companion.devices")

Emit = Callable[[Observation], None]
RETRY_SECONDS = 0.5


class ReconnectingSource:
    def __init__(self, url: str, name: str, opener: Callable[..., Any],
                 retry_seconds: float) -> None:
        self.url = url
        self.name = name
        self._open = opener
        self._retry = retry_seconds
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.connected = threading.Event()  # set while the port is open (tests, benchmarks)
        self.port: Any = None

    # --- what a device says and does ----------------------------------------------------

    def _connect(self) -> Any:
        raise NotImplementedError

    def _read(self, port: Any, emit: Emit) -> None:
        raise NotImplementedError

    def _forget(self) -> None:
        """Drop input half read when the port went away (never half-parse it)."""

    device = "device"  # what the player calls it: "the dice device is back"

    def _port_name(self) -> str:
        """The port as said in "Cannot open ...": the URL unless a subclass words it."""
        return self.url

    def _cannot_open(self, err: Exception) -> str:
        return f"Cannot open {self._port_name()}: {err}. I will keep trying."

    def _back(self) -> str:
        return f"The {self.device} is back."

    def _unplugged(self) -> str:
        return f"The {self.device} is unplugged. Plug it back in; I am waiting."

    # --- the Source API and the loop ----------------------------------------------------

    def start(self, emit: Emit) -> None:
        self._thread = threading.Thread(target=self._run, args=(emit,), name=self.name,
                                        daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        port = self.port
        if port is not None:
            # Not every transport can cancel a read; the short read timeout ends it anyway.
            with contextlib.suppress(Exception):
                port.cancel_read()
        if self._thread is not None:
            self._thread.join(timeout=2)

    def _status(self, emit: Emit, state: str, detail: str) -> None:
        emit(DeviceStatus(source=self.name, state=state, detail=detail))

    def _run(self, emit: Emit) -> None:
        lost = warned = False
        while not self._stop.is_set():
            try:
                port = self._connect()
            except (serial.SerialException, OSError, ValueError) as err:
                if not warned and not lost:  # said once; "unplugged" was already said
                    self._status(emit, "disconnected", self._cannot_open(err))
                    warned = True
                self._stop.wait(self._retry)
                continue
            if lost or warned:
                self._status(emit, "reconnected", self._back())
            lost = warned = False
            try:
                self._read(port, emit)
            except Exception as err:
                if self._stop.is_set():
                    break
                log.warning("%s lost: %r", self.name, err)
                self._status(emit, "disconnected", self._unplugged())
                lost = True
            finally:
                self.connected.clear()
                self._forget()
                with contextlib.suppress(Exception):
                    port.close()
                self.port = None
            self._stop.wait(self._retry if lost else 0)
