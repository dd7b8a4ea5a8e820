"""The table view's server: a Starlette app run by uvicorn in a thread beside the table loop.

It is an input source like the keyboard: a tap on a phone becomes the line the player would
type, from that player, put on the table loop's inbox, so the Session handles it (journal
first) and nothing else touches the state. Pages get the Feed's snapshots over a websocket,
each only after the journal is on disk, as the voice does.

Security: every page and socket is behind an unguessable token (``secrets.token_urlsafe``):
one for the big screen (looks only), one for the screen with the players' join codes, one per
player (acts only as that player). Anything else is "Not found." Tokens never reach the log
(uvicorn's access log is off). By default it binds to 127.0.0.1; ``lan`` binds to every
interface and answers only loopback and private (LAN) addresses.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from companion.loop import LoopTask
from companion.observations import DeviceError, TextCommand
from companion.session import Session
from companion.sources import Emit
from companion.view.feed import Feed, Snapshot
from companion.view.security import (
    HEADERS,
    SERVER_LOGGERS,
    Guard,
    HideTokens,
    lan_address,
    not_found,
    same_origin,
)

log = logging.getLogger("companion.view")

# The page's own files, read once: nothing else is ever served, whatever the path says.
ASSET_TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
               ".js": "text/javascript; charset=utf-8"}
# Console commands a phone may not give: they act for the whole table (quit, undo, correct,
# confirming a reading) or print at the terminal (help, state). Typed at the table instead.
TABLE_ONLY = frozenset({"quit", "exit", "undo", "correct", "yes", "no", "help", "state"})
MAX_COMMAND = 200


def load_assets() -> dict[str, tuple[bytes, str]]:
    folder = resources.files("companion.view") / "assets"
    out = {}
    for item in folder.iterdir():
        suffix = "." + item.name.rpartition(".")[2]
        if item.is_file() and suffix in ASSET_TYPES:
            out[item.name] = (item.read_bytes(), ASSET_TYPES[suffix])
    return out


@dataclass(frozen=True)
class Viewer:
    """Who a token lets in: the screen (player None), with or without the join codes."""

    player: int | None
    join: bool = False


class Hub:
    """The latest snapshot, on the server's event loop, and a way to wait for the next."""

    def __init__(self) -> None:
        self.latest: Snapshot | None = None
        self.changed = asyncio.Event()

    def set(self, snap: Snapshot) -> None:
        if self.latest is not None and snap.seq <= self.latest.seq:
            return
        self.latest = snap
        done, self.changed = self.changed, asyncio.Event()
        done.set()


class ViewServer:
    name = "view"

    def __init__(self, session: Session, *, lan: bool = False, port: int = 0,
                 host: str | None = None) -> None:
        self.session = session
        self.lan = lan
        self.bind = host or ("0.0.0.0" if lan else "127.0.0.1")
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # No Nagle: a small frame goes at once (with delayed ACKs it could wait 40 ms).
        # Linux passes the option on to the accepted connections.
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.bind((self.bind, port))
        self.sock.listen(128)  # the links work at once: early connections wait in the backlog
        self.port = self.sock.getsockname()[1]
        self.screen_token = secrets.token_urlsafe(18)
        self.join_token = secrets.token_urlsafe(18)
        players = session.game.players
        self.player_tokens = [secrets.token_urlsafe(18) for _ in players]
        self.viewers: dict[str, Viewer] = {self.screen_token: Viewer(None),
                                           self.join_token: Viewer(None, join=True)}
        self.viewers.update({t: Viewer(i) for i, t in enumerate(self.player_tokens)})
        self.assets = load_assets()
        self.emit: Emit | None = None
        # (version drawn, the page's player or None, the connection's id, when): bench view
        self.ack_listeners: list[Callable[[int, int | None, int, float], None]] = []
        # (version, when) as a version is handed to the sockets (journal on disk): bench view
        self.release_listeners: list[Callable[[int, float], None]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._hub: Hub | None = None
        self._queue: asyncio.Queue[Snapshot] | None = None
        self._pending: Snapshot | None = None  # published before the server's loop ran
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._server: Any = None
        self._qr: dict[int, str] = {}
        self._hide: HideTokens | None = None
        self._watching: dict[int, int] = {}  # player -> phones open (the server's thread)
        self.feed = Feed(session, self.publish, self.watched)
        self.feed.push()

    # --- links ------------------------------------------------------------------------

    def host_name(self) -> str:
        if not self.lan:
            return self.bind
        return lan_address()

    def url(self, path: str) -> str:
        return f"http://{self.host_name()}:{self.port}{path}"

    def links(self) -> dict[str, Any]:
        players = self.session.game.players
        return {"screen": self.url(f"/t/{self.screen_token}"),
                "join": self.url(f"/t/{self.join_token}"),
                "players": {players[i]: self.url(f"/p/{t}")
                            for i, t in enumerate(self.player_tokens)}}

    def qr_codes(self) -> list[dict[str, str]]:
        import segno

        players = self.session.game.players
        out = []
        for i, token in enumerate(self.player_tokens):
            if i not in self._qr:
                self._qr[i] = segno.make(self.url(f"/p/{token}"), error="m").svg_data_uri(
                    scale=4, border=2)
            out.append({"player": players[i], "qr": self._qr[i]})
        return out

    # --- the Source protocol ------------------------------------------------------------

    def start(self, emit: Emit) -> None:
        import uvicorn

        self.emit = emit
        self._hide = HideTokens(set(self.viewers))
        for name in SERVER_LOGGERS:
            logging.getLogger(name).addFilter(self._hide)
        config = uvicorn.Config(self.app(), log_config=None, access_log=False,
                                lifespan="on", ws="websockets-sansio", log_level="warning",
                                ws_ping_interval=20.0,
                                ws_max_size=4096)  # a tap is a line, not a file
        self._server = uvicorn.Server(config)
        started = threading.Event()
        self._started = started
        self._thread = threading.Thread(target=self._serve, name="view", daemon=True)
        self._thread.start()
        started.wait(10.0)

    def _serve(self) -> None:
        try:
            self._server.run(sockets=[self.sock])
        except Exception:  # the page is beside the game: its failure must not end it
            log.exception("the table view stopped")
        finally:
            self._started.set()

    def close(self) -> None:
        self.feed.detach()
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(5.0)
        if self._hide is not None:
            for name in SERVER_LOGGERS:
                logging.getLogger(name).removeFilter(self._hide)
        with contextlib.suppress(OSError):
            self.sock.close()

    def watched(self) -> frozenset[int]:
        """The players with a phone open (read on the table loop's thread)."""
        with self._lock:
            return frozenset(p for p, n in self._watching.items() if n > 0)

    def _watch(self, player: int, delta: int) -> None:
        with self._lock:
            now = self._watching.get(player, 0) + delta
            self._watching[player] = now
        if delta > 0 and now == 1 and self.emit is not None:
            # Their part is built on the table loop's thread, between inputs.
            self.emit(LoopTask(self.feed.push))  # type: ignore[arg-type]

    # --- from the table loop's thread ---------------------------------------------------

    def publish(self, snap: Snapshot) -> None:
        with self._lock:
            loop, queue = self._loop, self._queue
            if loop is None or queue is None:
                self._pending = snap
                return
        loop.call_soon_threadsafe(queue.put_nowait, snap)

    # --- on the server's thread ---------------------------------------------------------

    async def _startup(self) -> None:
        self._hub = Hub()
        queue: asyncio.Queue[Snapshot] = asyncio.Queue()
        with self._lock:
            self._loop = asyncio.get_running_loop()
            self._queue = queue
            if self._pending is not None:
                queue.put_nowait(self._pending)
                self._pending = None
        self._releaser = asyncio.create_task(self._release(queue))
        self._started.set()

    async def _shutdown(self) -> None:
        self._releaser.cancel()

    async def _release(self, queue: asyncio.Queue[Snapshot]) -> None:
        """Show nothing before it is on disk: wait for the journal, then the latest wins."""
        loop = asyncio.get_running_loop()
        journal = self.session.journal
        while True:
            snap = await queue.get()
            while not queue.empty():
                snap = queue.get_nowait()
            if not journal.is_durable():  # most often on disk already: no thread hop
                # (a disk that does not confirm in time is the journal's error to report)
                await loop.run_in_executor(None, journal.wait_durable)
            assert self._hub is not None
            self._hub.set(snap)
            for listener in self.release_listeners:
                listener(snap.seq, time.perf_counter())

    def app(self) -> Any:
        from starlette.applications import Starlette
        from starlette.middleware import Middleware
        from starlette.routing import Route, WebSocketRoute

        routes = [
            Route("/t/{token}", self._screen_page),
            Route("/p/{token}", self._phone_page),
            Route("/assets/{name}", self._asset),
            WebSocketRoute("/ws/{token}", self._socket),
        ]

        @contextlib.asynccontextmanager
        async def lifespan(app: Any) -> Any:
            await self._startup()
            yield
            await self._shutdown()

        return Starlette(routes=routes, middleware=[Middleware(Guard, lan=self.lan)],
                         lifespan=lifespan)

    def _viewer(self, token: str) -> Viewer | None:
        # compare_digest over every token: no timing hint of a near miss
        found = None
        for known, viewer in self.viewers.items():
            if secrets.compare_digest(known.encode(), token.encode()):
                found = viewer
        return found

    async def _screen_page(self, request: Any) -> Any:
        viewer = self._viewer(request.path_params["token"])
        if viewer is None or viewer.player is not None:
            return not_found()
        return self._file("screen.html")

    async def _phone_page(self, request: Any) -> Any:
        viewer = self._viewer(request.path_params["token"])
        if viewer is None or viewer.player is None:
            return not_found()
        return self._file("phone.html")

    async def _asset(self, request: Any) -> Any:
        return self._file(request.path_params["name"])

    def _file(self, name: str) -> Any:
        from starlette.responses import Response

        found = self.assets.get(name)
        if found is None:
            return not_found()
        body, media = found
        return Response(body, media_type=media, headers=HEADERS)

    async def _socket(self, ws: Any) -> None:
        viewer = self._viewer(ws.path_params["token"])
        if viewer is None or not same_origin(ws.headers):
            await ws.close(code=1008)
            return
        await ws.accept()
        if viewer.join:
            await ws.send_text(json.dumps({"join": self.qr_codes(),
                                           "links": self.links()["players"]}))
        sender = asyncio.create_task(self._send_loop(ws, viewer))
        if viewer.player is not None:
            self._watch(viewer.player, +1)
        try:
            while True:
                message = await ws.receive_text()
                self._on_message(viewer, message, ws)
        except Exception:  # the page closed or sent something unreadable: drop it quietly
            pass
        finally:
            sender.cancel()
            if viewer.player is not None:
                self._watch(viewer.player, -1)

    async def _send_loop(self, ws: Any, viewer: Viewer) -> None:
        hub = self._hub
        assert hub is not None
        sent = 0
        while True:
            changed = hub.changed
            snap = hub.latest
            if snap is None or snap.seq == sent:
                await changed.wait()
                continue
            await ws.send_text(snap.text(viewer.player))
            sent = snap.seq

    def _on_message(self, viewer: Viewer, message: str, ws: Any) -> None:
        try:
            data = json.loads(message)
        except ValueError:
            return
        if not isinstance(data, dict):
            return
        if isinstance(data.get("ack"), int):  # a page drew this version (bench view)
            now = time.perf_counter()
            for listener in self.ack_listeners:
                listener(data["ack"], viewer.player, id(ws), now)
            return
        command = data.get("command")
        if viewer.player is None or not isinstance(command, str):
            return  # the screen only looks
        self.tap(viewer.player, command)

    def tap(self, player: int, command: str) -> None:
        """A phone's tap or typed line, as that player's typed line on the table's inbox."""
        name = self.session.game.players[player]
        source = f"view:{name}"
        text = " ".join(command.split())[:MAX_COMMAND]
        if not text or self.emit is None:
            return
        if text.split()[0].lower() in TABLE_ONLY:
            word = text.split()[0].lower()
            self.emit(DeviceError(source=source, reason=(
                f"{name}, {word} is typed at the table, not given from a phone.")))
            return
        log.info("view: %s taps %r", name, text)
        # The player's own name first: the console then takes the line as theirs, and a line
        # naming another player ("Blue buy") is read as Blue's words spoken by this player.
        self.emit(TextCommand(source=source, text=f"{name} {text}", player=name))


