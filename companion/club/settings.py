"""Where a table publishes and a hub listens: ``mqtt://[USER:PASS@]HOST[:PORT]/CLUB`` (or
``mqtts://``), or a TOML file with the same and the TLS files (docs/club.md)."""

from __future__ import annotations

import re
import socket
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # no MQTT wildcards, no slashes
DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}


def check_name(what: str, name: str) -> str:
    if not NAME.match(name):
        raise ValueError(f"A {what} name is 1 to 64 letters, digits, '-' or '_', not {name!r}.")
    return name


def default_table() -> str:
    host = re.sub(r"[^A-Za-z0-9_-]", "-", socket.gethostname())[:64].strip("-")
    return host or "table"


@dataclass(frozen=True)
class Broker:
    """A club's broker and this client's credentials."""

    host: str
    club: str
    port: int = 1883
    tls: bool = False
    username: str | None = None
    password: str | None = None
    ca: str | None = None  # a CA file (else the system's)
    cert: str | None = None  # a client certificate and its key, when the broker asks for one
    key: str | None = None
    table: str | None = None  # set for a publishing table

    @classmethod
    def parse(cls, text: str) -> Broker:
        """``mqtt://[USER:PASS@]HOST[:PORT]/CLUB`` or the path of a TOML file."""
        if "://" not in text:
            return cls.load(Path(text))
        parts = urlsplit(text)
        if parts.scheme not in DEFAULT_PORTS:
            raise ValueError(f"A broker address starts with mqtt:// or mqtts://, not {text!r}.")
        if not parts.hostname:
            raise ValueError(f"The broker address {text!r} has no host.")
        club = parts.path.strip("/")
        if not club:
            raise ValueError(f"The broker address {text!r} has no club: "
                             "mqtt://HOST/CLUB, for example mqtt://localhost/chess-club.")
        try:
            port = parts.port or DEFAULT_PORTS[parts.scheme]
        except ValueError:
            raise ValueError(f"The broker address {text!r} has a bad port.") from None
        return cls(host=parts.hostname, club=check_name("club", club), port=port,
                   tls=parts.scheme == "mqtts",
                   username=unquote(parts.username) if parts.username else None,
                   password=unquote(parts.password) if parts.password else None)

    @classmethod
    def load(cls, path: Path) -> Broker:
        """A TOML file: ``url`` and optionally ``table``, ``username``, ``password`` (or
        ``password_file``), ``ca``, ``cert``, ``key``; paths relative to the file."""
        try:
            data: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ValueError(f"There is no broker address or file {str(path)!r}.") from None
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
            raise ValueError(f"The club file {path} cannot be read: {err}.") from None
        if not isinstance(data.get("url"), str):
            raise ValueError(f"The club file {path} needs url = \"mqtt://HOST/CLUB\".")
        broker = cls.parse(data["url"])
        here = path.parent

        def file(key: str) -> str | None:
            value = data.get(key)
            return str(here / value) if isinstance(value, str) else None

        password = data.get("password")
        if isinstance(data.get("password_file"), str):
            password = (here / data["password_file"]).read_text(encoding="utf-8").strip()
        return replace(
            broker,
            username=data.get("username", broker.username),
            password=password if isinstance(password, str) else broker.password,
            ca=file("ca"), cert=file("cert"), key=file("key"),
            tls=broker.tls or any(data.get(k) for k in ("ca", "cert")),
            table=check_name("table", str(data["table"])) if "table" in data else None,
        )

    def for_table(self, table: str | None) -> Broker:
        chosen = table or self.table or self.username or default_table()
        return replace(self, table=check_name("table", chosen))

    def describe(self) -> str:
        """The address without the password (for logs and the terminal)."""
        who = f"{self.username}@" if self.username else ""
        scheme = "mqtts" if self.tls else "mqtt"
        return f"{scheme}://{who}{self.host}:{self.port}/{self.club}"

    def configure(self, client: Any) -> None:
        """Credentials and TLS on a paho client."""
        if self.username is not None:
            client.username_pw_set(self.username, self.password)
        if self.tls:
            client.tls_set(ca_certs=self.ca, certfile=self.cert, keyfile=self.key)
