"""``companion bench view``: an input handled by the Session -> the page redrawn in a browser.

A Monopoly game (virtual dice, the journal a file on disk) with its table view, the big
screen open in Debian's headless chromium, and with ``--phones N`` each player's phone page
open in N more tabs of the same browser (seats taken in turn). Each step is one input through
the Session (a throw, a purchase, a bid: the first legal move); time runs from just before the
Session takes it (so the journal's write and sync, the document's build, the websocket and the
page's drawing are all in it) to the moment the page, having drawn the last version of that
step, says so over its socket. Steps go one at a time: the figure is latency, not backlog.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.browser import Browser, missing
from companion.journal import Journal
from companion.loop import Inbox, LoopTask
from companion.session import Session, build_game
from companion.voice import make_announcer


class Acks:
    """The last version each page has drawn, and when."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.drawn: dict[int, tuple[int, float]] = {}  # page -> (seq, time)

        self.screen: int | None = None  # the big screen's connection

    def wait(self, pages: int, seq: int, timeout: float = 10.0) -> tuple[float, float]:
        """When the big screen and when the last of ``pages`` pages drew version ``seq``."""
        with self.cond:
            done = self.cond.wait_for(
                lambda: len(self.drawn) >= pages
                and all(s >= seq for s, _ in self.drawn.values()), timeout)
            if not done:
                raise TimeoutError(f"a page did not draw version {seq} in {timeout} s")
            assert self.screen is not None
            return self.drawn[self.screen][1], max(t for _, t in self.drawn.values())


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def step(session: Session, rng: random.Random) -> None:
    state = session.state
    if state.chance() is not None:
        session.roll_virtual()
        return
    actions = state.legal_actions()
    session.apply(actions[rng.randrange(len(actions))], source="keyboard")


def run(steps: int, phones: int, seed: int) -> dict[str, object]:
    players = ["Red", "Blue", "Green", "Yellow"]
    game, files = build_game("monopoly", players)
    folder = Path(tempfile.mkdtemp(prefix="bench-view-"))
    journal = Journal(folder / "game.sqlite")
    announcer = make_announcer("silent")  # the real announcer, its worker thread, no sound
    session = Session.start(game, journal, announcer, seed=seed, config=files,
                            auto_chance=frozenset({"dice", "card", "shuffle"}))
    from companion.view.server import ViewServer

    view = ViewServer(session)
    acks = Acks()

    def on_ack(seq: int, player: int | None, connection: int, now: float) -> None:
        with acks.cond:
            if player is None:
                acks.screen = connection
            acks.drawn[connection] = (seq, now)
            acks.cond.notify_all()

    view.ack_listeners.append(on_ack)
    released: dict[int, float] = {}
    view.release_listeners.append(lambda seq, now: released.__setitem__(seq, now))
    inbox = Inbox()
    view.start(inbox)

    def run_tasks() -> None:  # what the table loop does between inputs: phones joining
        while not inbox.items.empty():
            task = inbox.items.get_nowait()
            if isinstance(task, LoopTask):
                task.run()

    browser = Browser()
    try:
        links = view.links()
        browser.open(links["screen"])
        urls = list(links["players"].values())
        for k in range(phones):  # one tab per phone, the seats' links in turn
            browser.driver.switch_to.new_window("tab")
            browser.open(urls[k % len(urls)])
        pages = 1 + phones
        acks.wait(pages, 1)
        run_tasks()
        acks.wait(pages, view.feed.seq)
        rng = random.Random(seed)
        screen: list[float] = []
        every: list[float] = []
        ready: list[float] = []
        for _ in range(steps):
            if session.state.is_terminal():
                break
            start = time.perf_counter()
            step(session, rng)
            on_screen, on_all = acks.wait(pages, view.feed.seq)
            screen.append((on_screen - start) * 1000)
            ready.append((released[view.feed.seq] - start) * 1000)
            every.append((on_all - start) * 1000)
        return {
            "bench": "view", "game": "monopoly", "steps": len(screen), "phones": phones,
            "pages": pages, "screen_p50_ms": round(statistics.median(screen), 2),
            "screen_p99_ms": round(percentile(screen, 0.99), 2),
            "all_pages_p50_ms": round(statistics.median(every), 2),
            "all_pages_p99_ms": round(percentile(every, 0.99), 2),
            "max_ms": round(max(every), 2), "goal_p99_ms": 50,
            # the companion's own part: input -> its last version ready to send (journal
            # on disk, document built); the rest is the socket and the browser
            "ready_p50_ms": round(statistics.median(ready), 2),
            "ready_p99_ms": round(percentile(ready, 0.99), 2),
        }
    finally:
        browser.close()
        view.close()
        announcer.close()
        journal.close()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion bench view")
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--phones", type=int, default=0,
                        help="phone pages open beside the big screen (tabs of one browser)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    why = missing()
    if why:
        print(f"companion bench view: {why}")
        return 2
    result = run(args.steps, args.phones, args.seed)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"view: {result['steps']} inputs, {result['pages']} pages "
              f"({result['phones']} phone tabs): input -> big screen drawn p50 "
              f"{result['screen_p50_ms']} ms, p99 {result['screen_p99_ms']} ms; every page "
              f"p50 {result['all_pages_p50_ms']} ms, p99 {result['all_pages_p99_ms']} ms "
              f"(goal p99 < 50 ms); ready to send p50 {result['ready_p50_ms']} ms, p99 "
              f"{result['ready_p99_ms']} ms")
    return 0
