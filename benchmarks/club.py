"""``companion bench club``: simulated tables x inputs per second through a real broker to the
hub.

Each simulated table has its own journal file (WAL, group commit, on disk), its own
Publisher (its own thread, its own copy of the game rebuilding the public state after each
entry) and its own MQTT connection, as a companion at a table has. What a table journals is a
recording of a cribbage game played by the rules beforehand (seeded random play through a
Session), appended at the asked rate: the Session's own cost is left out (``bench latency``
measures it), so the figure is the club's path. A table starts a new game, with a new journal
and a new connection, when its recording ends. The tables are spread over ``--processes``
worker processes, as tables are separate computers; the hub (the real Hub: one connection,
dedupe, in-order apply) runs in this process. Latency is from an entry's journal time (its
``time``, when it was committed) to the moment the hub applied it: the fsync, the publisher's
thread, the broker and the hub. At the end every entry journaled must be at the hub, once:
``lost`` counts those that are not. A mosquitto is started on a free port unless ``--broker``
names one.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import resource
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from companion.club.broker import Mosquitto, mosquitto_binary
from companion.club.hub import GameRecord, Hub
from companion.club.settings import Broker
from companion.engine import CHANCE

RECORDINGS = 8  # different games the tables take turns playing


def cpu_seconds() -> float:
    """This process's CPU time so far (all its threads, user and system)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def process_cpu_seconds(pid: int | str) -> float:
    """Another process's CPU time so far (the broker), from /proc; 0 where there is none."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def thread_cpu_seconds(native_id: int | None) -> float:
    """One of this process's threads' CPU time so far, from /proc; 0 where there is none."""
    return process_cpu_seconds(f"self/task/{native_id}") if native_id is not None else 0.0


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def record_games(count: int) -> list[dict[str, Any]]:
    """Seeded random cribbage games played by the rules: their meta and entries."""
    from companion.journal import Journal
    from companion.session import Session, build_game
    from companion.voice import Recorder

    games = []
    for seed in range(count):
        game, files = build_game("cribbage", ["Ann", "Bob"], {})
        journal = Journal.memory()
        session = Session.start(game, journal, Recorder(), seed=seed,
                                auto_chance=frozenset({"card", "shuffle"}), config=files)
        rng = random.Random(seed)
        while not session.state.is_terminal():
            state = session.state
            session.apply(state.sample_chance(rng) if state.current_player() == CHANCE
                          else rng.choice(state.legal_actions()), source="bench")
        games.append({"meta": journal.meta(),
                      "entries": [(e.kind, e.payload, e.source) for e in journal.entries()]})
    return games


class Page:
    """A page of the hub open during the bench: the real web app (uvicorn in a thread) and a
    client that long-polls /api/night as the page's script does."""

    def __init__(self, hub: Hub) -> None:
        import uvicorn

        from companion.club.broker import free_port
        from companion.club.web import make_app

        self.port = free_port()
        self.server = uvicorn.Server(uvicorn.Config(make_app(hub), host="127.0.0.1",
                                                    port=self.port, log_level="warning"))
        self.updates = 0
        self.stopped = False
        self._threads = [threading.Thread(target=self.server.run, daemon=True),
                         threading.Thread(target=self._follow, daemon=True)]
        for thread in self._threads:
            thread.start()

    def _follow(self) -> None:
        import urllib.request

        version = -1
        while not self.stopped:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/night?brief=1&after="
                                            f"{version}", timeout=30) as answer:
                    version = json.loads(answer.read())["version"]
                self.updates += 1
            except OSError:  # not up yet
                time.sleep(0.1)

    def close(self) -> None:
        self.stopped = True
        self.server.should_exit = True
        for thread in self._threads:
            thread.join(timeout=30)


class SimulatedTable:
    def __init__(self, folder: Path, broker: Broker, name: str, games: list[dict[str, Any]],
                 first: int) -> None:
        self.folder, self.broker, self.name, self.recordings = folder, broker, name, games
        self.played = first  # which recording next
        self.journaled = 0
        self.finished: list[Any] = []
        self._open()

    def _open(self) -> None:
        from companion.club.publisher import Publisher
        from companion.journal import Journal
        from companion.session import game_from_meta

        recording = self.recordings[self.played % len(self.recordings)]
        self.played += 1
        self.script = list(recording["entries"])
        self.journal = Journal(self.folder / f"{self.name}-{self.played}.sqlite")
        self.journal.write_meta(recording["meta"])
        self.publisher = Publisher.for_journal(self.journal, game_from_meta(recording["meta"]),
                                               self.broker.for_table(self.name))

    def step(self) -> None:
        if not self.script:
            self.finished.append((self.publisher, self.journal))
            self._open()
        kind, payload, source = self.script.pop(0)
        self.journal.append(kind, payload, source=source)
        self.journaled += 1  # the journal wakes the publisher once the entry is on the disk

    def threads(self) -> dict[str, list[int | None]]:
        """The native ids of this table's syncer and publisher threads, of every game."""
        games = [*self.finished, (self.publisher, self.journal)]
        return {"syncer": [j._syncer.native_id if j._syncer else None for _, j in games],
                "publisher": [p._thread.native_id for p, _ in games]}

    def close(self) -> None:
        for publisher, journal in [*self.finished, (self.publisher, self.journal)]:
            publisher.close(timeout=30)
            journal.close()


def threads_cpu(tables: list[SimulatedTable]) -> dict[str, dict[int | None, float]]:
    """CPU seconds so far of the tables' threads, by part and thread."""
    parts: dict[str, dict[int | None, float]] = {"writer": {
        threading.get_native_id(): thread_cpu_seconds(threading.get_native_id())}}
    for table in tables:
        for part, ids in table.threads().items():
            for native_id in ids:
                parts.setdefault(part, {})[native_id] = thread_cpu_seconds(native_id)
    return parts


def worker(names: list[str], url: str, folder: str, rate: float, seconds: float,
           seed: int, pipe: Any) -> None:
    """Run some tables: build them, say ready, wait for the start time, play, report."""
    broker = Broker.parse(url)
    recordings = record_games(RECORDINGS)
    tables = [SimulatedTable(Path(folder), broker, name, recordings, seed + i)
              for i, name in enumerate(names)]
    deadline = time.monotonic() + 60
    while not all(t.publisher.connected for t in tables) and time.monotonic() < deadline:
        time.sleep(0.05)
    pipe.send("ready")
    start_wall = pipe.recv()
    period = 1.0 / rate
    # Each table's inputs are spread over the period, as at real tables.
    offsets = [(i + seed / 7) / len(tables) * period % period for i in range(len(tables))]
    late = steps = tick = 0
    time.sleep(max(0.0, start_wall - time.time()))
    started = time.monotonic()
    cpu = cpu_seconds()
    before = threads_cpu(tables)
    while time.monotonic() - started < seconds:
        for table, offset in zip(tables, offsets, strict=True):
            wait = started + tick * period + offset - time.monotonic()
            if wait > 0:
                time.sleep(wait)  # pacing the simulated players
            elif wait < -period:
                late += 1
            table.step()
            steps += 1
        tick += 1
    played = time.monotonic() - started
    cpu = cpu_seconds() - cpu  # the tables' journals, sessions' syncers, publishers, paho
    after = threads_cpu(tables)  # (threads of games begun meanwhile count from 0)
    parts = {part: sum(t - before.get(part, {}).get(i, 0.0) for i, t in ids.items())
             for part, ids in after.items()}
    for table in tables:
        table.close()
    pipe.send({"steps": steps, "late": late, "played": played, "cpu": cpu, "parts": parts,
               "entries": sum(t.journaled for t in tables)})


def run(tables: int, rate: float, seconds: float, processes: int,
        broker_url: str | None, pages: int = 1) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="bench-club-"))
    mosquitto = None
    try:
        if broker_url is None:
            if mosquitto_binary() is None:
                raise SystemExit("bench club needs mosquitto (apt-get install mosquitto) or "
                                 "--broker mqtt://HOST/CLUB")
            mosquitto = Mosquitto(folder / "broker").start()
            broker_url = mosquitto.url()
        broker = Broker.parse(broker_url)
        latencies: list[float] = []
        lock = threading.Lock()

        def probe(_record: GameRecord, message: dict[str, Any], at: float) -> None:
            with lock:
                latencies.append((at - float(message["time"])) * 1000)

        def broker_seconds() -> float:
            running = mosquitto.process if mosquitto is not None else None
            return process_cpu_seconds(running.pid) if running is not None else 0.0

        hub = Hub(broker, on_entry=probe).start()
        if not hub.wait_for(lambda h: h.connected, 10):
            raise SystemExit(f"the hub cannot reach {broker.describe()}")
        open_pages = [Page(hub) for _ in range(pages)]
        names = [f"t{i:03d}" for i in range(tables)]
        context = multiprocessing.get_context("spawn")
        pipes, workers = [], []
        for p in range(processes):
            ours, theirs = context.Pipe()
            proc = context.Process(target=worker, args=(
                names[p::processes], broker_url, str(folder), rate, seconds, p * 1000, theirs))
            proc.start()
            pipes.append(ours)
            workers.append(proc)
        for pipe in pipes:
            if pipe.recv() != "ready":
                raise SystemExit("a worker did not start")
        start_wall = time.time() + 0.5
        for pipe in pipes:
            pipe.send(start_wall)
        time.sleep(max(0.0, start_wall - time.time()))
        hub_cpu, broker_cpu = cpu_seconds(), broker_seconds()
        reports = [pipe.recv() for pipe in pipes]
        hub_cpu, broker_cpu = cpu_seconds() - hub_cpu, broker_seconds() - broker_cpu
        for proc in workers:
            proc.join(timeout=60)
        expected = sum(r["entries"] for r in reports)
        hub.wait_for(lambda h: h.applied >= expected, 30)
        for page in open_pages:
            page.close()
        played = max(r["played"] for r in reports)
        steps = sum(r["steps"] for r in reports)
        result = {
            "tables": tables, "rate_per_table": rate, "processes": processes, "pages": pages,
            "seconds": round(played, 1), "inputs": steps,
            "inputs_per_second": round(steps / played, 1),
            "late_inputs": sum(r["late"] for r in reports),
            "entries": expected, "at_hub": hub.applied, "lost": expected - hub.applied,
            "duplicates_dropped": hub.duplicates, "games": len(hub.games),
            "page_updates": sum(page.updates for page in open_pages),
            "p50_ms": round(percentile(latencies, 0.5), 1),
            "p99_ms": round(percentile(latencies, 0.99), 1),
            "max_ms": round(max(latencies, default=0.0), 1),
            "load_average": round(os.getloadavg()[0], 1),  # the machine's other work
            # CPU milliseconds per input while the tables played, by part: what the figures
            # would be on a quiet machine does not move with the machine's other work.
            "cpu_ms_per_input": {
                "tables": round(sum(r["cpu"] for r in reports) / max(steps, 1) * 1000, 3),
                "hub": round(hub_cpu / max(steps, 1) * 1000, 3),
                "broker": round(broker_cpu / max(steps, 1) * 1000, 3),
                # the tables' part by thread: the writer (the simulated players' thread:
                # the journal's appends), the journals' syncers, the publishers (with paho)
                "tables_by_thread": {
                    part: round(sum(r["parts"].get(part, 0.0) for r in reports)
                                / max(steps, 1) * 1000, 3)
                    for part in ("writer", "syncer", "publisher")},
            },
        }
        hub.close()
        return result
    finally:
        if mosquitto is not None:
            mosquitto.stop()
        shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion bench club")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--rate", type=float, default=10.0, help="inputs per second per table")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--processes", type=int, default=2,
                        help="worker processes the tables are spread over")
    parser.add_argument("--broker", help="an existing broker (default: a mosquitto started "
                        "on a free port)")
    parser.add_argument("--pages", type=int, default=1,
                        help="pages of the hub open (long-polling /api/night) meanwhile")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(args.tables, args.rate, args.seconds, max(1, args.processes), args.broker,
                 max(0, args.pages))
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{result['tables']} tables x {result['rate_per_table']:g} inputs/s in "
              f"{result['processes']} processes for {result['seconds']} s: "
              f"{result['inputs_per_second']} inputs/s ({result['late_inputs']} more than one "
              f"period late), {result['games']} games, {result['page_updates']} page updates "
              f"({result['pages']} pages open)")
        print(f"journal -> hub: p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms, "
              f"max {result['max_ms']} ms")
        print(f"entries: {result['entries']} journaled, {result['at_hub']} at the hub, "
              f"{result['lost']} lost, {result['duplicates_dropped']} second copies dropped "
              f"(load average {result['load_average']} at the end)")
        cpu = result["cpu_ms_per_input"]
        print(f"CPU per input: tables {cpu['tables']} ms, hub {cpu['hub']} ms, broker "
              f"{cpu['broker']} ms")
        by = cpu["tables_by_thread"]
        print(f"the tables' by thread: writer {by['writer']} ms, syncers {by['syncer']} ms, "
              f"publishers {by['publisher']} ms")
    sys.stdout.flush()
    return 0 if result["lost"] == 0 else 1
