"""The table view (--view) in a real browser: Debian's chromium through chromium-driver.

Skipped with the reason when chromium is missing, except under CI, where it must be there
(.ci/run installs it through ./run). Screenshots of each family's page go to docs/view/.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.browser import Browser, missing
from companion.journal import ACTION, Journal
from companion.loop import Inbox, LoopTask
from companion.session import Session, build_game
from companion.voice import Recorder

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "docs" / "view"

_why = missing()
if _why:
    if os.environ.get("CI"):
        raise RuntimeError(f"the table view's tests need a browser under CI: {_why}")
    pytestmark = pytest.mark.skip(reason=_why)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    b = Browser()
    try:
        yield b
    finally:
        b.close()


class Table:
    """A session with its view, driven as the table loop drives it: the inbox's items (page
    taps) are handed to the session on this thread by ``drain``."""

    def __init__(self, game: str, players: list[str], *,
                 auto_chance: frozenset[str] = frozenset(), **options: str) -> None:
        from companion.view.server import ViewServer

        g, files = build_game(game, players, options)
        self.recorder = Recorder()
        self.journal = Journal.memory()
        self.session = Session.start(g, self.journal, self.recorder, seed=7, config=files,
                                     auto_chance=auto_chance)
        self.view = ViewServer(self.session)
        self.inbox = Inbox()
        self.view.start(self.inbox)
        self.links = self.view.links()

    def type(self, *lines: str) -> None:
        for line in lines:
            self.session.command(line)

    def drain(self, timeout: float = 10.0) -> None:
        """Hand one tap from the page to the session, as the table loop does (running the
        view's own tasks, a joining phone's page, on the way)."""
        while True:
            item = self.inbox.items.get(timeout=timeout)
            if isinstance(item, LoopTask):
                item.run()
                continue
            self.session.submit(item)  # type: ignore[arg-type]
            return

    def drain_tasks_soon(self) -> None:
        """Run the first of the view's tasks as soon as it is queued."""
        item = self.inbox.items.get(timeout=10)
        assert isinstance(item, LoopTask), item
        item.run()

    def run_tasks(self) -> None:
        """Run the view's tasks waiting for the table loop (a joining phone's page)."""
        while not self.inbox.items.empty():
            item = self.inbox.items.get_nowait()
            assert isinstance(item, LoopTask), item
            item.run()

    def close(self) -> None:
        self.view.close()


def wait_seq(browser: Browser, table: Table) -> None:
    """Wait until the page shows the latest version the feed has built (a phone's page:
    once its part has been built on the table loop's thread, as the loop would)."""
    browser.wait_for("document.body.dataset.seq")
    table.run_tasks()
    seq = table.view.feed.seq
    browser.wait_for(f"Number(document.body.dataset.seq || 0) >= {seq}")


def shot(browser: Browser, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.screenshot(str(SHOTS / f"{name}.png"))


# --------------------------------------------------------------------------- Monopoly


def test_monopoly_typed_game_shows_owner_houses_and_cash(browser: Browser) -> None:
    table = Table("monopoly", ["Red", "Blue"], variant="short")
    try:
        table.type("deal Red Boardwalk, Park Place, Baltic Avenue",
                   "deal Blue Short Line, Reading Railroad, Water Works",
                   "roll 1 2", "build Boardwalk", "build Park Place", "build Boardwalk",
                   "roll 3 5", "buy", "roll 2 4")
        browser.open(table.links["screen"])
        wait_seq(browser, table)
        boardwalk = browser.driver.find_element("css selector", '[data-space="39"]')
        assert "Red" in boardwalk.text  # the owner
        assert len(boardwalk.find_elements("css selector", ".house")) == 2
        park = browser.driver.find_element("css selector", '[data-space="37"]')
        assert len(park.find_elements("css selector", ".house")) == 1
        cash = table.session.state.to_json()["players"]
        page = browser.text()
        assert f"${cash[0]['cash']}" in page and f"${cash[1]['cash']}" in page
        assert "Blue buys Vermont Avenue for 100." in page  # the last payments
        assert "Waiting for" in page
        # The game goes on by typing; the page follows without a reload.
        shot(browser, "monopoly")
        # An auction in progress is on the board's centre.
        table.type("auction", "bid Red 80")
        wait_seq(browser, table)
        deal = browser.driver.find_element("css selector", ".deal").text
        assert "Auction: Connecticut Avenue" in deal and "High bid $80 by Red" in deal, deal
    finally:
        table.close()


def test_buying_by_a_tap_on_the_phone_is_journaled(browser: Browser) -> None:
    table = Table("monopoly", ["Red", "Blue"])
    try:
        table.type("roll 1 2")  # Red to Baltic Avenue: buy or auction
        browser.open(table.links["players"]["Red"])
        wait_seq(browser, table)
        buttons = browser.driver.find_elements("css selector", "button.choice")
        commands = [b.get_attribute("data-command") for b in buttons]
        assert commands == ["buy", "auction"], commands
        browser.size(430, 900)  # a phone's screen, for the picture
        try:
            shot(browser, "phone-monopoly")
        finally:
            browser.size(1920, 1080)
        buttons[0].click()
        table.drain()
        entries = [e for e in table.journal.entries() if e.kind == ACTION]
        assert entries[-1].payload == {"type": "Buy", "player": 0}
        assert entries[-1].source == "view:Red"
        assert "Red buys Baltic Avenue for 60." in table.recorder.texts
        wait_seq(browser, table)
        # Blue to throw: Red's phone now offers what Red may do at any time with the deed.
        commands = [b.get_attribute("data-command")
                    for b in browser.driver.find_elements("css selector", "button.choice")]
        assert commands == ["mortgage Baltic Avenue"], commands
    finally:
        table.close()


def test_a_player_link_cannot_act_for_another_player(browser: Browser) -> None:
    table = Table("monopoly", ["Red", "Blue"])
    try:
        table.type("roll 1 2")  # Red must choose
        browser.open(table.links["players"]["Blue"])
        wait_seq(browser, table)
        assert browser.driver.find_elements("css selector", "button.choice") == []
        count = table.journal.count()
        # Blue's phone types Red's command, then a line in Red's name: both refused.
        for line in ("buy", "Red buy"):
            table.view.tap(1, line)
            table.drain()
            assert table.session.state.to_json()["pending"]["type"] == "buy"
        said = table.recorder.texts
        assert ("Nothing is for sale to Blue now. Red to buy Baltic Avenue or auction it."
                in said)
        assert "I don't know the command 'Red'" in said[-1]
        assert all(e.source == "view:Blue" for e in list(table.journal.entries())[count:])
        assert [e.kind for e in list(table.journal.entries())[count:]] == ["refused"] * 2
        # A table-only command from a phone is refused aloud and changes nothing.
        table.view.tap(1, "quit")
        table.drain()
        assert table.recorder.texts[-1] == ("Blue, quit is typed at the table, not given from "
                                            "a phone.")
        # The big screen's socket only looks: a command sent from it is ignored.
        browser.open(table.links["screen"])
        wait_seq(browser, table)
        browser.driver.execute_script(
            "const ws = new WebSocket(`ws://${location.host}/ws/${location.pathname.split('/')"
            ".pop()}`); ws.onopen = () => { ws.send(JSON.stringify({command: 'buy'})); "
            "document.body.dataset.sent = '1'; };")
        browser.wait_for("document.body.dataset.sent")
        # The server drops it on receipt; a tap from Red's phone after it is the next item.
        table.view.tap(0, "status")
        item = table.inbox.items.get(timeout=10)
        assert item.source == "view:Red"  # type: ignore[union-attr]
        assert table.session.state.to_json()["pending"]["type"] == "buy"
    finally:
        table.close()


def test_unknown_paths_and_tokens_are_not_found_and_headers_are_set() -> None:
    table = Table("monopoly", ["Red", "Blue"])
    try:
        base = f"http://127.0.0.1:{table.view.port}"
        for path in ("/", "/t/guess", "/p/guess", "/assets/../server.py", "/assets/server.py",
                     f"/p/{table.view.screen_token}"):
            with pytest.raises(urllib.error.HTTPError) as err:
                urllib.request.urlopen(base + path, timeout=5)
            assert err.value.code == 404, path
        with urllib.request.urlopen(table.links["screen"], timeout=5) as reply:
            headers = reply.headers
            assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
            assert headers["Referrer-Policy"] == "no-referrer"
            assert headers["X-Content-Type-Options"] == "nosniff"
    finally:
        table.close()


# --------------------------------------------------------------------------- the CLI


def _play(args: list[str], lines: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    code = ("import sys; from companion.cli import main; rc = main(sys.argv[1:]); "
            "print('MODULES', json.dumps(sorted(m for m in sys.modules if m.startswith("
            "('companion.view', 'uvicorn', 'starlette')))), file=sys.stderr); sys.exit(rc)")
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    return subprocess.run([sys.executable, "-c", "import json; " + code, *args], input=lines,
                          capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)


def test_no_listener_without_view(tmp_path: Path) -> None:
    run = _play(["play", "monopoly", "--voice", "silent", "--journal",
                 str(tmp_path / "g.sqlite")], "roll 1 2\nbuy\n", tmp_path)
    assert run.returncode == 0, run.stderr
    modules = json.loads(run.stderr.split("MODULES", 1)[1])
    assert modules == []  # no server code loaded, so no socket and no listener
    assert "table view" not in run.stderr


def test_play_with_view_serves_the_same_session(tmp_path: Path, browser: Browser) -> None:
    journal = tmp_path / "g.sqlite"
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "play", "monopoly", "--players", "Red,Blue",
         "--voice", "silent", "--journal", str(journal), "--view"],
        stdin=subprocess.PIPE, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
        cwd=ROOT, env={**os.environ, "XDG_DATA_HOME": str(tmp_path)})
    assert proc.stdin is not None and proc.stderr is not None
    try:
        links: dict[str, str] = {}
        while "Blue" not in links:
            line = proc.stderr.readline()
            assert line, "the companion ended before printing its links"
            m = re.match(r"\((?:table view: |(\w+)'s phone: )(\S+) \)", line)
            if m:
                links[m.group(1) or "screen"] = m.group(2)
        assert links["screen"].startswith("http://127.0.0.1:")
        proc.stdin.write("roll 1 2\n")
        proc.stdin.flush()
        browser.open(links["Red"])
        browser.wait_for("document.querySelector('button[data-command=buy]')")
        browser.driver.find_element("css selector", "button[data-command=buy]").click()
        browser.wait_for("document.body.innerText.includes('Red buys Baltic Avenue')")
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    saved = Journal(journal, readonly=True)
    actions = [e for e in saved.entries() if e.kind == ACTION]
    assert actions[-1].payload == {"type": "Buy", "player": 0}
    assert actions[-1].source == "view:Red"
    # resume --view: the same game, served again with new tokens.
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "resume", "--journal", str(journal),
         "--voice", "silent", "--view"],
        stdin=subprocess.PIPE, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
        cwd=ROOT, env={**os.environ, "XDG_DATA_HOME": str(tmp_path)})
    assert proc.stdin is not None and proc.stderr is not None
    try:
        screen = ""
        while not screen:
            line = proc.stderr.readline()
            assert line, "resume ended before printing its links"
            m = re.match(r"\(table view: (\S+) \)", line)
            screen = m.group(1) if m else ""
        assert screen != links["screen"]
        browser.open(screen)
        browser.wait_for("document.querySelector('[data-space=\"3\"] .owner')")
        owner = browser.driver.find_element("css selector", '[data-space="3"] .owner')
        assert owner.text == "Red"
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    log_file = tmp_path / "table-companion" / "companion.log"
    log = log_file.read_text() if log_file.exists() else ""
    assert "table view on port" in log
    for url in links.values():
        assert url.rsplit("/", 1)[1] not in log  # no token in the log


# --------------------------------------------------------------------------- every family

FAMILY_GAMES = [
    # game, players, steps of play, what the family's page draws
    ("cribbage", ["Red", "Blue"], 22, ".pegboard, .show .phrases"),
    ("chess", ["Red", "Blue"], 9, "svg.chessboard"),
    ("checkers", ["Red", "Blue"], 6, ".grid.draughts .man"),
    ("draughts", ["Red", "Blue"], 6, ".grid.draughts .man"),
    ("four-in-a-row", ["Red", "Blue"], 7, ".grid.discs .disc"),
    ("solitaire", ["Red"], 4, ".grid.pegs .peg"),
    ("snakes-ladders", ["Red", "Blue", "Green"], 12, ".race .square .dot"),
    ("ludo", ["Red", "Blue"], 16, ".track .tsq .pawn"),
    ("dice", ["Red", "Blue"], 9, "table.forms"),
    ("poker-dice", ["Red", "Blue"], 4, ".throw .pokerdie"),
    ("hearts", ["Red", "Blue", "Green", "Yellow"], 30, "table.facts"),
    ("dominoes", ["Red", "Blue"], 8, "table.facts"),
    ("goose", ["Red", "Blue"], 10, ".race .square .dot"),
    ("racing", ["Red", "Blue"], 10, ".race .square"),
    ("sorry", ["Red", "Blue"], 10, ".track .nest .pawn"),
    ("crazy-eights", ["Red", "Blue"], 12, "table.facts"),
    ("rummy", ["Red", "Blue"], 12, "table.facts"),
]


def _play_some(session: Session, steps: int) -> None:
    """Seeded play through the Session: virtual dice and cards, the first legal move."""
    for _ in range(steps):
        state = session.state
        if state.is_terminal():
            return
        request = state.chance()
        if request is not None:
            if request.kind == "dice":
                session.roll_virtual()
            else:
                session.apply(state.sample_chance(__import__("random").Random(len(
                    session.applied))), source="virtual")
            continue
        actions = state.legal_actions()
        session.apply(actions[len(session.applied) % len(actions)], source="keyboard")


@pytest.mark.parametrize(("game", "players", "steps", "drawn"), FAMILY_GAMES,
                         ids=[g[0] for g in FAMILY_GAMES])
def test_each_family_page_draws_its_game(browser: Browser, game: str, players: list[str],
                                         steps: int, drawn: str) -> None:
    from companion.view.server import ViewServer

    g, files = build_game(game, players)
    recorder = Recorder()
    session = Session.start(g, Journal.memory(), recorder, seed=3, config=files,
                            auto_chance=frozenset({"dice", "card", "shuffle"}))
    view = ViewServer(session)
    view.start(Inbox())
    try:
        _play_some(session, steps)
        browser.open(view.links()["screen"])
        browser.wait_for(f"Number(document.body.dataset.seq || 0) >= {view.feed.seq}")
        assert browser.driver.find_elements("css selector", drawn), drawn
        page = browser.text()
        for name in players:
            assert name in page
        assert recorder.texts[-1] in page  # the last sentence said
        for hidden in _hidden_cards(session):
            assert hidden not in page, hidden
        shot(browser, game)
    finally:
        view.close()


def _hidden_cards(session: Session) -> list[str]:
    """Cards in a player's hand: never on the big screen."""
    hands = session.state.to_json().get("hands")
    if not isinstance(hands, list):
        return []
    return [str(c) for hand in hands if isinstance(hand, list) for c in hand
            if len(str(c)) >= 2]


def test_lan_mode_answers_loopback_and_private_addresses_only() -> None:
    from companion.view.security import Guard

    lan, local = Guard(None, lan=True), Guard(None, lan=False)
    assert lan._allowed(("127.0.0.1", 5)) and lan._allowed(("192.168.1.20", 5))
    assert lan._allowed(("10.0.0.7", 5)) and lan._allowed(("fe80::1", 5))
    assert not lan._allowed(("8.8.8.8", 5)) and not lan._allowed(None)
    assert local._allowed(("127.0.0.1", 5)) and not local._allowed(("192.168.1.20", 5))
    g, files = build_game("monopoly", ["Red", "Blue"])
    session = Session.start(g, Journal.memory(), Recorder(), seed=1, config=files)
    from companion.view.server import ViewServer

    view = ViewServer(session, lan=True)
    try:
        assert view.sock.getsockname()[0] == "0.0.0.0"
        tokens = {view.screen_token, view.join_token, *view.player_tokens}
        assert len(tokens) == 4 and all(len(t) >= 24 for t in tokens)
        view.start(Inbox())
        with urllib.request.urlopen(f"http://127.0.0.1:{view.port}/t/{view.screen_token}",
                                    timeout=5) as reply:
            assert reply.status == 200
    finally:
        view.close()


def test_join_codes_only_on_the_join_link(browser: Browser) -> None:
    table = Table("cribbage", ["Red", "Blue", "Green"])
    try:
        browser.open(table.links["screen"])
        wait_seq(browser, table)
        source = browser.driver.page_source
        assert browser.driver.find_elements("css selector", ".join img") == []
        assert not any(t in source for t in table.view.player_tokens)
        browser.open(table.links["join"])
        wait_seq(browser, table)
        browser.wait_for("document.querySelectorAll('.join img').length === 3")
        captions = [e.text for e in browser.driver.find_elements("css selector",
                                                                  ".join figcaption")]
        assert captions == ["Red", "Blue", "Green"]
        shot(browser, "join-codes")
    finally:
        table.close()


def test_a_socket_from_another_site_is_refused() -> None:
    from websockets.exceptions import InvalidStatus, WebSocketException
    from websockets.sync.client import connect

    table = Table("monopoly", ["Red", "Blue"])
    try:
        url = f"ws://127.0.0.1:{table.view.port}/ws/{table.view.player_tokens[0]}"
        refused = (InvalidStatus, WebSocketException, OSError)
        for bad, origin in ((url, "http://evil.example"),
                            (f"ws://127.0.0.1:{table.view.port}/ws/guess", None)):
            with pytest.raises(refused), connect(bad, origin=origin,  # type: ignore[arg-type]
                                                 open_timeout=5) as ws:
                ws.recv(timeout=5)
        with connect(url, open_timeout=5) as ws:  # no browser, no Origin: the token works
            doc = json.loads(ws.recv(timeout=5))
            assert doc["me"]["player"] == "Red"
    finally:
        table.close()


def test_a_fault_in_the_page_never_reaches_the_game(monkeypatch: pytest.MonkeyPatch,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    from companion.view import families
    from companion.view.feed import Feed

    def broken(*args: object) -> dict[str, object]:
        raise ZeroDivisionError("a bug in a family's page")

    monkeypatch.setitem(families.EXTRAS, "monopoly", broken)
    g, files = build_game("monopoly", ["Red", "Blue"])
    recorder = Recorder()
    session = Session.start(g, Journal.memory(), recorder, seed=1, config=files)
    published: list[object] = []
    Feed(session, published.append)
    assert session.command("roll 1 2").accepted
    assert session.command("buy").accepted
    assert "Red buys Baltic Avenue for 60." in recorder.texts
    assert not any("could not handle" in t for t in recorder.texts)
    assert published == []
    assert sum("could not build its page" in r.message for r in caplog.records) == 1


def test_a_hand_reaches_its_own_phone_only(browser: Browser) -> None:
    from websockets.sync.client import connect

    table = Table("cribbage", ["Red", "Blue"], deal="read",
                  auto_chance=frozenset({"card", "shuffle"}))  # --cards virtual: dealt
    try:
        hands = table.session.state.to_json()["hands"]
        assert [len(h) for h in hands] == [6, 6]
        port = table.view.port

        def first(token: str) -> str:
            """The first full version a socket gets (a phone's, once its part is built)."""
            with connect(f"ws://127.0.0.1:{port}/ws/{token}", open_timeout=5) as ws:
                while True:
                    text = str(ws.recv(timeout=5))
                    if '"pending":true' not in text:
                        return text
                    table.drain_tasks_soon()

        screen, red, blue = (first(t) for t in (table.view.screen_token,
                                                *table.view.player_tokens))
        assert not any(f'"{c}"' in screen for hand in hands for c in hand)
        assert all(f'"{c}"' in red for c in hands[0])
        assert not any(f'"{c}"' in red for c in hands[1])
        assert json.loads(blue)["me"]["hand"] == hands[1]
        browser.open(table.links["players"]["Blue"])
        wait_seq(browser, table)
        assert len(browser.driver.find_elements("css selector", ".hand .card")) == 6
        assert browser.driver.find_elements("css selector", "button.choice")  # discard two
    finally:
        table.close()


def test_server_log_records_never_hold_a_token(caplog: pytest.LogCaptureFixture) -> None:
    import logging

    table = Table("monopoly", ["Red", "Blue"])
    try:
        token = table.view.player_tokens[1]
        with caplog.at_level(logging.INFO):
            logging.getLogger("uvicorn.error").warning('"WebSocket /ws/%s" 403', token)
        assert token not in caplog.text and "/ws/<token>" in caplog.text
    finally:
        table.close()


def test_a_player_may_mortgage_from_the_phone_on_another_players_turn() -> None:
    table = Table("monopoly", ["Red", "Blue"], variant="short")
    try:
        table.type("deal Red Boardwalk, Park Place, Baltic Avenue",
                   "deal Blue Short Line, Reading Railroad, Water Works")
        from companion.view.choices import choices

        assert table.session.state.actor() == 0  # Red's throw
        blue = {c["command"]: c["label"]
                for c in choices(table.session.state, 1, virtual_dice=False)}
        assert blue == {"mortgage Reading Railroad": "Blue mortgages Reading Railroad",
                        "mortgage Water Works": "Blue mortgages Water Works",
                        "mortgage Short Line": "Blue mortgages Short Line"}
        table.view.tap(1, "mortgage Water Works")
        table.drain()
        assert table.session.state.to_json()["spaces"][28]["mortgaged"] is True
        last = [e for e in table.journal.entries() if e.kind == ACTION][-1]
        assert last.payload == {"type": "Mortgage", "player": 1, "space": 28}
        assert last.source == "view:Blue"
    finally:
        table.close()


def test_hidden_fields_become_counts() -> None:
    from companion.view.document import public_state

    state = {"hands": [["5H", "6H"], []], "crib": [], "stock": ["AS", "2S", "3S"],
             "decks": {"chance": ["c1", "c2"], "chest": []}, "held": [3, 4], "count": 12}
    assert public_state(state) == {"hands": [2, 0], "crib": 0, "stock": 3,
                                   "decks": {"chance": 2, "chest": 0}, "held": [3, 4],
                                   "count": 12}
