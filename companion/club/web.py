"""The hub's page: Starlette (a small ASGI toolkit) served by uvicorn, one page of plain
HTML/CSS/JS that long-polls ``/api/night``, and the night's exports."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import Route

from companion.club.hub import GameRecord, Hub
from companion.club.standings import results_csv, results_json, results_pgn

STATIC = Path(__file__).with_name("static")
PAGE = STATIC / "hub.html"
# The hub's page is built from the table view's own components (the DOM builder, the
# header, the scores, the sentences said, and their stylesheet): served from the view's
# folder as they are, at the same paths as on a table's page.
SHARED = ("view.js", "components.js", "view.css")
TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
LONG_POLL = 20.0  # seconds a page's request waits for a change before answering anyway
# Seconds between two snapshots of the night: however busy the club (100 tables give the hub
# 1,000 entries a second), the night is built and encoded at most this often, once for
# every page waiting, and never per entry.
PACE = 0.25

HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "script-src 'self'",
    "Cache-Control": "no-store",
}


@dataclass
class Built:
    """The night's JSON as last built: its version and when."""

    version: int | None = None
    body: bytes = b""
    at: float = float("-inf")


def load_files() -> dict[str, tuple[bytes, str]]:
    """The page's scripts and styles by path, read once: nothing else is served."""
    shared = resources.files("companion.view") / "assets"
    files = {f"/assets/{name}": ((shared / name).read_bytes(), TYPES[Path(name).suffix])
             for name in SHARED}
    for name in ("hub.js", "hub.css"):
        files[f"/static/{name}"] = ((STATIC / name).read_bytes(), TYPES[Path(name).suffix])
    return files


def make_app(hub: Hub) -> Starlette:
    files = load_files()

    # Long polls wait on an asyncio event that the hub's threads set through the loop, so a
    # waiting page costs no thread. The event is replaced at each change.
    changed: dict[str, asyncio.Event] = {}

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        changed["event"] = asyncio.Event()

        poked = threading.Event()  # a poke is on its way: the hub's changes since ride on it

        def poke() -> None:
            poked.clear()
            event, changed["event"] = changed["event"], asyncio.Event()
            event.set()

        def watcher() -> None:
            # Called at every entry (1,000 a second at a busy club): the loop is woken once
            # for all the changes that came while it was busy.
            if poked.is_set():
                return
            poked.set()
            with contextlib.suppress(RuntimeError):  # the loop has just closed
                loop.call_soon_threadsafe(poke)

        hub.watch(watcher)
        try:
            yield
        finally:
            hub.unwatch(watcher)

    async def wait_past(version: int) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + LONG_POLL
        while hub.version <= version:
            event = changed["event"]  # the pokes run on this loop: none is missed
            remaining = deadline - loop.time()
            if hub.version > version or remaining <= 0:
                return
            try:
                await asyncio.wait_for(event.wait(), remaining)
            except TimeoutError:
                return

    async def page(_request: Request) -> Response:
        return FileResponse(PAGE, media_type="text/html", headers=HEADERS)

    async def asset(request: Request) -> Response:
        found = files.get(request.url.path)
        if found is None:
            return PlainTextResponse("Not found.", status_code=404, headers=HEADERS)
        return Response(found[0], media_type=found[1], headers=HEADERS)

    # By brief (the page's own requests) or whole: the last one built, its version, when.
    latest = {brief: Built() for brief in (False, True)}
    building = asyncio.Lock()

    async def snapshot(brief: bool) -> bytes:
        """The night as JSON, built again only if something changed, and at most once per
        PACE seconds (a page that asks sooner waits for the rest of it)."""
        kept = latest[brief]
        async with building:
            if kept.version != hub.version:
                loop = asyncio.get_running_loop()
                await asyncio.sleep(max(0.0, kept.at + PACE - loop.time()))
                data = hub.snapshot(brief=brief)
                kept.version, kept.at = data["version"], loop.time()
                kept.body = json.dumps(data, separators=(",", ":")).encode()
            return kept.body

    async def night(request: Request) -> Response:
        try:
            after = int(request.query_params.get("after", "-1"))
        except ValueError:
            return PlainTextResponse("after must be a number.", status_code=400,
                                     headers=HEADERS)
        await wait_past(after)
        brief = request.query_params.get("brief") == "1"
        return Response(await snapshot(brief), media_type="application/json",
                        headers=HEADERS)

    async def table(request: Request) -> Response:
        """One table's whole screen (the table view's document, companion/club/screen.py),
        long-polled like the night, at most every PACE seconds."""
        from companion.club.screen import table_document

        name = request.path_params["name"]
        try:
            after = int(request.query_params.get("after", "-1"))
        except ValueError:
            return PlainTextResponse("after must be a number.", status_code=400,
                                     headers=HEADERS)
        if after >= 0:
            await asyncio.sleep(PACE)
            await wait_past(after)
        with hub.lock:
            record = hub.tables.get(name)
            if record is None:
                return PlainTextResponse("Not found.", status_code=404, headers=HEADERS)
            game = hub.games.get((name, record.game_id or ""))
            # A copy of what was received (the entries by reference: never changed once
            # received), replayed outside the lock: the hub's network thread never waits.
            game = game and GameRecord(game.table, game.game_id, info=dict(game.info),
                                       entries=dict(game.entries), applied=game.applied,
                                       view=game.view, last_events=list(game.last_events))
            data = {"version": hub.version, "table": name, "online": record.online}
        data["doc"] = table_document(game) if game is not None else None
        return Response(json.dumps(data, separators=(",", ":")), media_type="application/json",
                        headers=HEADERS)

    def export(body: str, media: str, name: str) -> Response:
        headers = {**HEADERS, "Content-Disposition": f'attachment; filename="{name}"'}
        return Response(body, media_type=media, headers=headers)

    async def csv(_request: Request) -> Response:
        return export(results_csv(hub), "text/csv", f"{hub.broker.club}-results.csv")

    async def json_(_request: Request) -> Response:
        return export(results_json(hub), "application/json",
                      f"{hub.broker.club}-results.json")

    async def pgn(_request: Request) -> Response:
        return export(results_pgn(hub), "application/x-chess-pgn",
                      f"{hub.broker.club}-chess.pgn")

    return Starlette(lifespan=lifespan, routes=[
        Route("/", page),
        Route("/assets/{name}", asset),
        Route("/static/{name}", asset),
        Route("/api/night", night),
        Route("/api/table/{name}", table),
        Route("/export/results.csv", csv),
        Route("/export/results.json", json_),
        Route("/export/chess.pgn", pgn),
    ])
