"""A real mosquitto on a free local port, for the tests and ``companion bench club``.

It writes its own configuration (and, with users, a password file made by mosquitto_passwd and
an ACL file: each table writes only under its own topic) into a folder, and can be killed and
started again on the same port, as a crashed broker would be.
"""

from __future__ import annotations

import getpass
import shutil
import socket
import subprocess
import time
from pathlib import Path

HUB_USER = "hub"

ACL = """\
# The hub reads every table of the club and may ask any table to send again.
user {hub}
topic read {club}/tables/#
topic write {club}/tables/+/resend

# Each table (its user name is its table name) writes only under its own topic and reads
# only the hub's resend requests to it.
pattern write {club}/tables/%u/status
pattern write {club}/tables/%u/game
pattern write {club}/tables/%u/entry
pattern write {club}/tables/%u/result
pattern read {club}/tables/%u/resend
"""


def mosquitto_binary() -> str | None:
    found = shutil.which("mosquitto")
    if found:
        return found
    return next((p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto")
                 if Path(p).is_file()), None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Mosquitto:
    """``users``: name -> password; with users, anonymous clients are refused and the ACL
    above applies to ``club``."""

    def __init__(self, folder: Path, *, club: str = "club",
                 users: dict[str, str] | None = None, tls: bool = False) -> None:
        binary = mosquitto_binary()
        if binary is None:
            raise FileNotFoundError("mosquitto is not installed (apt-get install mosquitto)")
        self.binary = binary
        self.folder = folder
        self.port = free_port()
        self.club = club
        self.users = users or {}
        self.process: subprocess.Popen[bytes] | None = None
        self.conf = folder / "mosquitto.conf"
        self.log = folder / "mosquitto.log"
        folder.mkdir(parents=True, exist_ok=True)
        # As root, mosquitto would become the user mosquitto, who cannot read this folder.
        lines = [f"user {getpass.getuser()}", f"listener {self.port} 127.0.0.1"]
        self.ca: Path | None = None
        if tls:
            self.ca = make_certificates(folder)
            lines += [f"cafile {self.ca}", f"certfile {folder / 'server.pem'}",
                      f"keyfile {folder / 'server.key'}"]
        lines += ["persistence false",
                 "max_queued_messages 100000", "max_inflight_messages 0",
                 f"log_dest file {self.log}", "log_type error", "log_type warning"]
        if self.users:
            passwords = folder / "passwd"
            passwords.write_text("")
            tool = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
            for user, password in self.users.items():
                subprocess.run([tool, "-b", str(passwords), user, password], check=True,
                               capture_output=True)
            acl = folder / "acl"
            acl.write_text(ACL.format(club=club, hub=HUB_USER))
            lines += ["allow_anonymous false", f"password_file {passwords}",
                      f"acl_file {acl}"]
        else:
            lines.append("allow_anonymous true")
        self.conf.write_text("\n".join(lines) + "\n")

    def start(self, timeout: float = 10.0) -> Mosquitto:
        self.process = subprocess.Popen([self.binary, "-c", str(self.conf)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:  # until it accepts a connection
            if self.process.poll() is not None:
                err = self.process.stderr.read().decode() if self.process.stderr else ""
                raise RuntimeError(f"mosquitto stopped at once: {err.strip()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.02)  # the broker's own start, not a test's wait
        raise RuntimeError(f"mosquitto did not listen on port {self.port}")

    def kill(self) -> None:
        """As a crash: SIGKILL, nothing saved."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None

    def url(self, user: str | None = None) -> str:
        who = f"{user}:{self.users[user]}@" if user else ""
        if self.ca is not None:  # the certificate names localhost
            return f"mqtts://{who}localhost:{self.port}/{self.club}"
        return f"mqtt://{who}127.0.0.1:{self.port}/{self.club}"


def make_certificates(folder: Path) -> Path:
    """A throwaway CA and a server certificate for localhost, made with openssl; returns
    the CA's file."""
    openssl = shutil.which("openssl")
    if openssl is None:
        raise FileNotFoundError("openssl is not installed")
    (folder / "server.ext").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    steps = [
        ["req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
         "-subj", "/CN=Table Companion test CA"],
        ["req", *ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"],
        ["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
         "-CAcreateserial", "-out", "server.pem", "-days", "2", "-extfile", "server.ext"],
    ]
    for step in steps:
        subprocess.run([openssl, *step], cwd=folder, check=True, capture_output=True)
    return folder / "ca.pem"
