"""A table device on a serial transport chosen by URL, with automatic reconnect.

``/dev/ttyUSB0``, ``COM3``, ``loop://``, ``socket://host:port``, ``rfc2217://host:port``: any
URL pyserial's ``serial_for_url`` takes. The port is opened exclusively, so two companions
cannot read one tray. When the device goes away the source says so, keeps trying, and says
when it is back; the half line it had is dropped, never half-parsed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import serial

from devices.protocol import LineDecoder
from devices.reconnect import RETRY_SECONDS, Emit, ReconnectingSource


def describe_port(url: str) -> str:
    return url if "://" in url else f"the device on {url}"


class SerialSource(ReconnectingSource):
    def __init__(
        self,
        url: str,
        role: str = "dice",
        *,
        baudrate: int = 115200,
        opener: Callable[..., Any] = serial.serial_for_url,
        retry_seconds: float = RETRY_SECONDS,
    ) -> None:
        super().__init__(url, f"serial:{url}", opener, retry_seconds)
        self.role = role
        self.device = f"{role} device"
        self.baudrate = baudrate
        self.decoder = LineDecoder(self.name)

    def write(self, data: bytes) -> None:
        if self.port is not None:
            self.port.write(data)

    def _connect(self) -> Any:
        port = self._open(self.url, baudrate=self.baudrate, timeout=0.2, exclusive=True)
        self.port = port
        self.connected.set()
        return port

    def _read(self, port: Any, emit: Emit) -> None:
        while not self._stop.is_set():
            data = port.read(max(1, port.in_waiting))
            if data:
                for obs in self.decoder.feed(data):
                    emit(obs)

    def _forget(self) -> None:
        self.decoder.reset()

    def _port_name(self) -> str:
        return describe_port(self.url)


def open_source(target: str, role: str) -> SerialSource:
    return SerialSource(target, role)
