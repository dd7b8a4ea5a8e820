"""The hub's page in a real browser (Debian's chromium through chromium-driver, as
tests/test_view.py), with a real mosquitto: tables appear as they publish, the standings
follow the games, and the export links download the night's CSV, JSON and PGN.

Skipped with the reason when chromium or mosquitto is missing, except under CI."""

from __future__ import annotations

import csv
import io
import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.browser import Browser, missing
from companion.club.hub import Hub
from companion.club.settings import Broker
from tests.club_tables import WAIT, open_table, start_broker

ROOT = Path(__file__).resolve().parents[1]

_why = missing()
if _why:
    if os.environ.get("CI"):
        raise RuntimeError(f"the hub page's test needs a browser under CI: {_why}")
    pytestmark = pytest.mark.skip(reason=_why)


class HubPage:
    """The hub and its web app (uvicorn in a thread, on a free port of 127.0.0.1)."""

    def __init__(self, url: str) -> None:
        import uvicorn

        from companion.club.broker import free_port
        from companion.club.web import make_app

        self.hub = Hub(Broker.parse(url)).start()
        self.port = free_port()
        self.server = uvicorn.Server(uvicorn.Config(make_app(self.hub), host="127.0.0.1",
                                                    port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + WAIT
        while not self.server.started:  # a condition, waited for with a deadline
            assert time.monotonic() < deadline, "the hub's page did not start"
            time.sleep(0.02)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def close(self) -> None:
        self.server.should_exit = True
        self.thread.join(WAIT)
        self.hub.close()


@pytest.fixture()
def browser() -> Iterator[Browser]:
    b = Browser(1600, 1000)
    try:
        yield b
    finally:
        b.close()


def card(table: str) -> str:
    return f"document.querySelector('article[data-table=\"{table}\"]')"


def downloaded(folder: Path, name: str) -> str:
    """The file once chromium has finished writing it (no .crdownload left)."""
    path = folder / name
    deadline = time.monotonic() + WAIT
    while not path.exists() or any(folder.glob("*.crdownload")):
        assert time.monotonic() < deadline, f"{name} was not downloaded"
        time.sleep(0.02)
    return path.read_text(encoding="utf-8")


def test_the_hub_page_shows_tables_live_standings_and_downloads_the_exports(tmp_path,
                                                                            browser):
    broker = start_broker(tmp_path / "broker")
    page = HubPage(broker.url())
    tables = []
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    try:
        browser.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {
            "behavior": "allow", "downloadPath": str(downloads)})
        browser.open(page.base + "/")
        browser.wait_for("document.body.dataset.version !== undefined", WAIT)
        assert "No table has published yet." in browser.text()
        # The page is drawn with the table view's own components, not a copy of them.
        loaded = browser.driver.execute_script(
            "return performance.getEntriesByType('resource').map(r => new URL(r.name).pathname)")
        assert {"/assets/view.js", "/assets/components.js", "/assets/view.css"} <= set(loaded)

        # A table appears as soon as it publishes, and follows its game.
        chess = open_table(tmp_path, broker.url(), "b1", "chess", ["Ann", "Bob"], seed=1)
        tables.append(chess)
        browser.wait_for(f"{card('b1')} !== null", WAIT)
        for move in ("f2f3", "e7e5", "g2g4"):
            chess.session.command(move)
        browser.wait_for(f"Number({card('b1')}.dataset.entries) >= 3", WAIT)
        text = browser.driver.execute_script(f"return {card('b1')}.innerText")
        assert "Waiting for Bob to move." in text  # the view's header component
        assert browser.driver.execute_script(  # the view's scores, Bob's turn marked
            f"return {card('b1')}.querySelector('table.scores tr.turn th').textContent") == "Bob"
        assert browser.driver.execute_script("return document.getElementById('chess').hidden")

        # Standings as games end: the chess round, then a cribbage league table.
        chess.session.command("d8h4")
        browser.wait_for("!document.getElementById('chess').hidden", WAIT)
        round_text = browser.driver.execute_script(
            "return document.getElementById('chess').textContent")
        assert "0-1" in round_text and "Crosstable" in round_text
        assert "Bob won." in browser.driver.execute_script(f"return {card('b1')}.innerText")

        crib = open_table(tmp_path, broker.url(), "c1", "cribbage", ["Cat", "Dan"], seed=3)
        tables.append(crib)
        browser.wait_for(f"{card('c1')} !== null", WAIT)
        crib.play_out()
        [winner] = [crib.session.game.players[w] for w in crib.session.state.winners()]
        browser.wait_for("!document.getElementById('cribbage').hidden", WAIT)
        league = browser.driver.execute_script(
            "return [...document.querySelectorAll('#cribbage tr')].slice(1)"
            ".map(r => [...r.cells].map(c => c.textContent))")
        assert [row[0] for row in league] == [winner, "Dan" if winner == "Cat" else "Cat"]
        assert league[0][2] == "1" and int(league[0][6]) in (2, 3)  # won; 2 or 3 game points
        browser.screenshot(str(ROOT / "docs" / "view" / "hub.png"))

        # A table's whole screen, drawn by the table view's own renderers: the chess board,
        # the cribbage pegboard; then back to every table.
        browser.driver.find_element(
            "css selector", 'article[data-table="b1"] a.whole').click()
        browser.wait_for("document.querySelector('#screen .page.family-chess svg') !== null",
                         WAIT)
        assert browser.driver.execute_script(
            "return getComputedStyle(document.querySelector('main')).display") == "none"
        screen = browser.driver.execute_script(
            "return document.getElementById('screen').textContent")
        assert "Bob won." in screen and "Qh4#" in screen  # the header and the moves
        browser.driver.execute_script("location.hash = '#table=c1'")
        browser.wait_for("document.querySelector('#screen .page.family-cribbage "
                         "svg.pegboard') !== null", WAIT)
        pegs = browser.driver.execute_script(
            "return document.querySelector('#screen svg.pegboard').textContent")
        scores = crib.session.state.scores()
        assert f"{crib.session.game.players[0]}: {int(scores[0])} (was " in pegs  # back pegs
        browser.screenshot(str(ROOT / "docs" / "view" / "hub-table.png"))
        browser.driver.find_element("link text", "All tables").click()
        browser.wait_for("document.getElementById('screen').hidden", WAIT)

        # The export links download the night's results.
        for link in ("csv", "json", "pgn"):
            browser.driver.find_element("id", link).click()
        rows = list(csv.DictReader(io.StringIO(downloaded(downloads, "club-results.csv"))))
        assert {(r["table"], r["player"]) for r in rows} == {
            ("b1", "Ann"), ("b1", "Bob"), ("c1", "Cat"), ("c1", "Dan")}
        assert {r["player"] for r in rows if r["won"] == "True"} == {"Bob", winner}
        night = json.loads(downloaded(downloads, "club-results.json"))
        assert [g["table"] for g in night["games"]] == ["b1", "c1"]
        assert night["cribbage"][0]["player"] == winner
        pgn = downloaded(downloads, "club-chess.pgn")
        assert '[White "Ann"]' in pgn and '[Result "0-1"]' in pgn and "Qh4#" in pgn
    finally:
        for table in tables:
            table.close()
        page.close()
        broker.stop()


def test_the_hub_draws_a_monopoly_tables_whole_screen(tmp_path, browser):
    # The hub has no rules state for Monopoly (its shuffles are hidden): the screen is drawn
    # from the public state and the entries' events (companion/club/screen.py).
    broker = start_broker(tmp_path / "broker")
    page = HubPage(broker.url())
    table = open_table(tmp_path, broker.url(), "m1", "monopoly", ["Eve", "Fay"], seed=5)
    try:
        for _ in range(40):
            table.step()
        entries = len(list(table.session.journal.entries()))
        browser.open(page.base + "/#table=m1")
        browser.wait_for(f"Number({card('m1')}?.dataset.entries) >= {entries}", WAIT)
        browser.wait_for("document.querySelector('#screen .page.family-monopoly') !== null",
                         WAIT)
        screen = browser.driver.execute_script(
            "return document.getElementById('screen').textContent")
        assert "Eve" in screen and "Fay" in screen
        # The centre's last payments come from the entries' events (seed 5's 40 inputs).
        paid = browser.driver.execute_script(
            "return [...document.querySelectorAll('#screen ol.payments li')]"
            ".map((li) => li.textContent)")
        assert "Eve wins Kentucky Avenue at auction for 21." in paid
        browser.screenshot(str(ROOT / "docs" / "view" / "hub-monopoly.png"))
    finally:
        table.close()
        page.close()
        broker.stop()
