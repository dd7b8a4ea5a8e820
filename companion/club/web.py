"""The hub's page: Starlette (a small ASGI toolkit) served by uvicorn, one page of plain
HTML/CSS/JS that long-polls ``/api/night``, and the night's exports."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from companion.club.hub import Hub
from companion.club.standings import results_csv, results_json, results_pgn

PAGE = Path(__file__).with_name("static") / "hub.html"
LONG_POLL = 20.0  # seconds a page's request waits for a change before answering anyway

HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "script-src 'self' 'unsafe-inline'",
    "Cache-Control": "no-store",
}


def make_app(hub: Hub) -> Starlette:
    # Long polls wait on an asyncio event that the hub's threads set through the loop, so a
    # waiting page costs no thread. The event is replaced at each change.
    changed: dict[str, asyncio.Event] = {}

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        changed["event"] = asyncio.Event()

        def poke() -> None:
            event, changed["event"] = changed["event"], asyncio.Event()
            event.set()

        def watcher() -> None:
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

    async def night(request: Request) -> Response:
        try:
            after = int(request.query_params.get("after", "-1"))
        except ValueError:
            return PlainTextResponse("after must be a number.", status_code=400,
                                     headers=HEADERS)
        await wait_past(after)
        return JSONResponse(hub.snapshot(), headers=HEADERS)

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
        Route("/api/night", night),
        Route("/export/results.csv", csv),
        Route("/export/results.json", json_),
        Route("/export/chess.pgn", pgn),
    ])
