"""The table view's guards: who may connect, what every page says to the browser, where the
links point, and that no token reaches a log. Kept apart from the server so that they can be
read (and reused by a club hub's page) at a glance."""

from __future__ import annotations

import ipaddress
import logging
import socket
from typing import Any

HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
    "Cross-Origin-Opener-Policy": "same-origin",
}


# uvicorn's loggers and ours: a path (with its token) in any of their records is hidden.
SERVER_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.asgi", "uvicorn.access",
                  "companion.view")


class HideTokens(logging.Filter):
    def __init__(self, tokens: set[str]) -> None:
        super().__init__()
        self.tokens = tokens

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if any(token in text for token in self.tokens):
            for token in self.tokens:
                text = text.replace(token, "<token>")
            record.msg, record.args = text, ()
        return True


def lan_address() -> str:
    """This computer's address on the LAN, for the printed links. A UDP socket's connect()
    only picks the route (no packet is sent); /etc/hosts often maps the host name to
    127.0.1.1, so that is the fallback, not the first choice."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 9))
        address = str(probe.getsockname()[0])
    except OSError:
        address = ""
    finally:
        probe.close()
    if not address or address.startswith(("0.", "127.")):
        try:
            address = socket.gethostbyname(socket.gethostname())
        except OSError:
            address = "127.0.0.1"
    return address


def not_found() -> Any:
    from starlette.responses import PlainTextResponse

    return PlainTextResponse("Not found.", status_code=404, headers=HEADERS)


def same_origin(headers: Any) -> bool:
    """A websocket from a page this server gave (or from no browser at all): a page from
    another site may not open one here with a token it somehow learned."""
    origin = headers.get("origin")
    if origin is None:
        return True
    host = headers.get("host", "")
    return origin in (f"http://{host}", f"https://{host}")


class Guard:
    """Answers only loopback (and, with ``lan``, private network) clients."""

    def __init__(self, app: Any, *, lan: bool) -> None:
        self.app = app
        self.lan = lan

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket") and not self._allowed(scope.get("client")):
            if scope["type"] == "http":
                await not_found()(scope, receive, send)
            else:
                await send({"type": "websocket.close", "code": 1008})
            return
        await self.app(scope, receive, send)

    def _allowed(self, client: Any) -> bool:
        if not client:
            return False
        try:
            address = ipaddress.ip_address(client[0])
        except ValueError:
            return False
        if address.is_loopback:
            return True
        return self.lan and (address.is_private or address.is_link_local)
