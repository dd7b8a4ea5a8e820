"""A table device on a serial transport chosen by URL, with automatic reconnect.

``/dev/ttyUSB0``, ``COM3``, ``loop://``, ``socket://host:port``, ``rfc2217://host:port``: any
URL pyserial's ``serial_for_url`` takes. The port is opened exclusively, so two companions
cannot read one tray. When the device goes away the source says so, keeps trying, and says
when it is back; the half line it had is dropped, never half-parsed.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from typing import Any

import serial

from companion.observations import DeviceStatus, Observation
from devices.protocol import LineDecoder

log = logging.getLogger("companion.devices")

Emit = Callable[[Observation], None]
RETRY_SECONDS = 0.5


def describe_port(url: str) -> str:
    return url if "://" in url else f"the device on {url}"


class SerialSource:
    def __init__(
        self,
        url: str,
        role: str = "dice",
        *,
        baudrate: int = 115200,
        opener: Callable[..., Any] = serial.serial_for_url,
        retry_seconds: float = RETRY_SECONDS,
    ) -> None:
        self.url = url
        self.role = role
        self.name = f"serial:{url}"
        self.baudrate = baudrate
        self._open = opener
        self._retry = retry_seconds
        self._stop = threading.Event()
        self.connected = threading.Event()  # set while the port is open (tests, benchmarks)
        self._thread: threading.Thread | None = None
        self.port: Any = None
        self.decoder = LineDecoder(self.name)

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

    def write(self, data: bytes) -> None:
        if self.port is not None:
            self.port.write(data)

    def _connect(self) -> Any:
        port = self._open(self.url, baudrate=self.baudrate, timeout=0.2, exclusive=True)
        self.port = port
        self.connected.set()
        return port

    def _run(self, emit: Emit) -> None:
        lost = False
        warned = False
        while not self._stop.is_set():
            try:
                port = self._connect()
            except (serial.SerialException, OSError, ValueError) as err:
                if not warned:
                    emit(DeviceStatus(source=self.name, state="disconnected",
                                      detail=f"Cannot open {describe_port(self.url)}: {err}. "
                                      "I will keep trying."))
                    warned = True
                self._stop.wait(self._retry)
                continue
            if lost or warned:
                emit(DeviceStatus(source=self.name, state="reconnected",
                                  detail=f"The {self.role} device is back."))
            lost = warned = False
            try:
                self._read(port, emit)
            except Exception as err:
                # Unplugged (SerialException, OSError; pyserial's posix read can also fail
                # with TypeError when the fd vanishes), or a bug: either way the reader must
                # not die silently. Say so and reconnect.
                if self._stop.is_set():
                    break
                log.warning("%s lost: %r", self.name, err)
                emit(DeviceStatus(source=self.name, state="disconnected",
                                  detail=f"The {self.role} device is unplugged. "
                                  "Plug it back in; I am waiting."))
                lost = warned = True
            finally:
                self.connected.clear()
                self.decoder.reset()
                with contextlib.suppress(Exception):
                    port.close()
                self.port = None
            self._stop.wait(self._retry if lost else 0)

    def _read(self, port: Any, emit: Emit) -> None:
        while not self._stop.is_set():
            data = port.read(max(1, port.in_waiting))
            if data:
                for obs in self.decoder.feed(data):
                    emit(obs)


def open_source(target: str, role: str) -> SerialSource:
    return SerialSource(target, role)
