"""The club: tables publish to a real mosquitto, the hub applies each entry once
(docs/club.md). Every test starts its own broker on a free port; none sleeps: each waits on a
condition with a timeout."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
import time
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import pytest

from companion.club.hub import Hub
from companion.club.public import public_action, public_state
from companion.club.settings import Broker
from companion.club.standings import results_csv, results_json, results_pgn
from companion.games.chess import Move, Resign
from companion.games.monopoly.actions import TimeUp
from tests.club_tables import WAIT, Cable, Table, open_table, start_broker

# --------------------------------------------------------------------------- addresses


def test_broker_addresses_parse_and_bad_ones_are_refused_with_a_sentence(tmp_path):
    b = Broker.parse("mqtt://table3:s%40cret@club.example:1884/chess-club")
    assert (b.host, b.port, b.club, b.username, b.password, b.tls) == (
        "club.example", 1884, "chess-club", "table3", "s@cret", False)
    assert b.describe() == "mqtt://table3@club.example:1884/chess-club"  # no password
    assert Broker.parse("mqtts://h/c").port == 8883 and Broker.parse("mqtts://h/c").tls
    assert Broker.parse("mqtt://h/c").for_table(None).table  # the host name by default
    assert Broker.parse("mqtt://t7:x@h/c").for_table(None).table == "t7"  # the user name
    for bad in ("http://h/c", "mqtt://h", "mqtt://h/c/d", "mqtt://h:99999/c", "mqtt:///c",
                "mqtt://h/c+", "no-such-file.toml"):
        with pytest.raises(ValueError) as err:
            Broker.parse(bad)
        assert str(err.value).endswith(".")
    (tmp_path / "secret").write_text("pw\n")
    (tmp_path / "club.toml").write_text('url = "mqtts://h/cribbage"\ntable = "t2"\n'
                                        'username = "t2"\npassword_file = "secret"\n'
                                        'ca = "ca.pem"\n')
    b = Broker.parse(str(tmp_path / "club.toml"))
    assert (b.table, b.username, b.password, b.tls, b.ca) == (
        "t2", "t2", "pw", True, str(tmp_path / "ca.pem"))


# --------------------------------------------------------------------------- hidden cards

CARD = re.compile(r'"((?:10|[2-9AJQK])[CDHS])"')


def test_public_state_and_actions_hide_cards_in_hands_and_face_down():
    state = {"phase": "discard", "hands": [["5H", "6H"], ["KC"]], "crib": ["2D"],
             "played": [["7S"]], "decks": {"chance": [3, 1, 2]}}
    shown = public_state(state)
    assert shown == {"phase": "discard", "hands": [2, 1], "crib": 1, "played": [["7S"]],
                     "decks": {"chance": 3}}
    assert public_action("cribbage", {"type": "Draw", "card": "5H"}, {"phase": "deal"}) == {
        "type": "Draw", "hidden": True}
    assert public_action("cribbage", {"type": "Draw", "card": "JS"}, {"phase": "starter"}) == {
        "type": "Draw", "card": "JS"}
    assert public_action("cribbage", {"type": "Discard", "player": 1, "cards": ["KC", "QC"]},
                         {}) == {"type": "Discard", "hidden": True, "player": 1, "count": 2}
    assert public_action("monopoly", {"type": "Shuffle", "order": [1, 2]}, {}) == {
        "type": "Shuffle", "hidden": True}


def test_a_read_cribbage_deal_publishes_no_card_before_it_is_shown(tmp_path):
    broker = start_broker(tmp_path / "broker")
    hub = Hub(Broker.parse(broker.url())).start()
    table = open_table(tmp_path, broker.url(), "t1", "cribbage", ["Ann", "Bob"], seed=5,
                       options={"deal": "read"})
    try:
        table.play_out()
        n = table.entries
        assert hub.wait_for(lambda h: _applied(h, "t1") == n, WAIT)
        record = _record(hub, "t1")
        public: set[str] = set()
        for seq in range(1, n + 1):
            message = record.entries[seq]
            view = message["view"]["state"]
            # What the table has shown by now: the starter, played cards, shown hands.
            public |= {view["starter"]} if view["starter"] else set()
            public |= {c for cards in view["played"] for c in cards}
            public |= {c for shown in view["shown"] for c in shown["cards"]}
            public |= set(view["revealed"])
            leaked = set(CARD.findall(json.dumps(message))) - public
            assert not leaked, f"entry {seq} ({message['payload']}) shows {sorted(leaked)}"
        assert record.view == json.loads(json.dumps(table.public()))
    finally:
        table.close()
        hub.close()
        broker.stop()


# --------------------------------------------------------------------------- one table


def _record(hub: Hub, table: str):
    games = [g for (t, _), g in hub.games.items() if t == table]
    assert len(games) == 1, games
    return games[0]


def _applied(hub: Hub, table: str) -> int:
    return sum(g.applied for (t, _), g in hub.games.items() if t == table)


def test_every_entry_reaches_the_hub_once_and_the_game_is_reproduced_there(tmp_path):
    broker = start_broker(tmp_path / "broker")
    hub = Hub(Broker.parse(broker.url())).start()
    table = open_table(tmp_path, broker.url(), "t1", "chess", ["White", "Black"], seed=1)
    try:
        for text in ("e2e4", "e7e5", "g1f3"):
            assert table.session.command(text).accepted
        assert not table.session.command("e2e9").accepted  # a refusal is an entry too
        assert table.session.command("undo").accepted
        for text in ("f1c4", "b8c6", "d1h5", "g8f6", "h5f7"):
            assert table.session.command(text).accepted
        assert table.session.state.is_terminal()
        n = table.entries
        assert hub.wait_for(lambda h: _applied(h, "t1") == n, WAIT)
        record = _record(hub, "t1")
        assert [record.entries[s]["kind"] for s in range(1, n + 1)].count("refused") == 1
        reproduced = record.reproduce()
        assert reproduced is not None
        assert reproduced.to_json() == table.session.state.to_json()
        assert record.view["winners"] == ["White"] and record.over
        # Asked to resend everything, the table does; the second copies are counted and
        # not applied again.
        applied, duplicates = hub.applied, hub.duplicates
        asker, _ = _raw_client(broker, None)
        asker.publish("club/tables/t1/resend", json.dumps({"game_id": record.game_id,
                                                           "from": 1}), qos=1)
        assert hub.wait_for(lambda h: h.duplicates >= duplicates + n, WAIT)
        assert hub.applied == applied and record.applied == n
        asker.disconnect()
        asker.loop_stop()
    finally:
        table.close()
        hub.close()
        broker.stop()


def test_an_entry_is_published_only_once_it_is_on_the_disk(tmp_path, monkeypatch):
    import os
    import threading

    from companion import journal as journal_module

    broker = start_broker(tmp_path / "broker")
    hub = Hub(Broker.parse(broker.url())).start()
    table = open_table(tmp_path, broker.url(), "t1", "chess", ["White", "Black"], seed=1)
    release, syncing = threading.Event(), threading.Event()
    real_fdatasync = os.fdatasync

    def slow_fdatasync(fd: int) -> None:
        syncing.set()
        release.wait(WAIT)
        real_fdatasync(fd)

    try:
        assert hub.wait_for(lambda h: any(g.info for g in h.games.values()), WAIT)
        assert table.session.journal.wait_durable(WAIT)
        monkeypatch.setattr(journal_module.os, "fdatasync", slow_fdatasync)
        # (The table's reply waits for the disk: the move is made from another thread.)
        moved = threading.Thread(target=table.session.command, args=("e2e4",))
        moved.start()
        assert syncing.wait(WAIT)
        table.publisher.wake()
        assert not hub.wait_for(lambda h: h.received > 0, 0.5)  # held back meanwhile
        release.set()
        moved.join(WAIT)
        assert table.session.command("e7e5").accepted
        assert hub.wait_for(lambda h: _applied(h, "t1") == 2, WAIT)
        assert hub.duplicates == 0
    finally:
        release.set()
        table.close()
        hub.close()
        broker.stop()


def test_a_table_publishes_from_a_process_with_more_than_1024_files_open(tmp_path):
    """The bench runs 50 to 100 tables in one process: their descriptors pass select's 1,024,
    where select fails at once, every time (netloop.py waits with poll)."""
    import os
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1300:
        pytest.skip(f"this system allows {hard} open files, not enough for the test")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1300), hard))
    broker = start_broker(tmp_path / "broker")
    hub = Hub(Broker.parse(broker.url())).start()
    ballast = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
    table = None
    try:
        table = open_table(tmp_path, broker.url(), "t1", "chess", ["White", "Black"], seed=1)
        assert table.publisher._net._wake_r > 1024  # (the test's premise)
        for text in ("f2f3", "e7e5", "g2g4", "d8h4"):
            assert table.session.command(text).accepted
        assert hub.wait_for(lambda h: _applied(h, "t1") == 4, WAIT)
    finally:
        if table is not None:
            table.close()
        for fd in ballast:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        hub.close()
        broker.stop()


# --------------------------------------------------------------------------- ten tables


def _cribbage_points(table: Table) -> dict[str, int]:
    """Game points by the ACC club scoring, from the table's own state."""
    st = table.session.state.to_json()
    names = table.session.game.players
    win = next(i for i, side in enumerate(st["sides"]) if set(side) == set(st["winners"]))
    loser = max(s for i, s in enumerate(st["scores"]) if i != win)
    points = 3 if loser < st["target"] - 30 else 2
    return {names[p]: (points if i == win else 0) for i, side in enumerate(st["sides"])
            for p in side}


CHESS_GAMES = [  # scripted: (white, black, moves, resigning side or None)
    ("Kasparov", "Karpov", ["f2f3", "e7e5", "g2g4", "d8h4"], None),  # fool's mate 0-1
    ("Tal", "Petrosian", ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"], None),
    ("Karpov", "Tal", ["d2d4", "d7d5"], 1),  # Black resigns: 1-0
    ("Petrosian", "Kasparov", ["c2c4", "e7e5"], 0),  # White resigns: 0-1
]


def test_ten_tables_publish_and_the_hub_keeps_the_standings(tmp_path):
    broker = start_broker(tmp_path / "broker")
    hub = Hub(Broker.parse(broker.url())).start()
    tables: list[Table] = []
    try:
        crib = [("c1", ["Ann", "Bob"]), ("c2", ["Cat", "Dan"]), ("c3", ["Ann", "Cat"]),
                ("c4", ["Bob", "Dan"])]
        for i, (name, players) in enumerate(crib):
            tables.append(open_table(tmp_path, broker.url(), name, "cribbage", players,
                                     seed=i, options={"to": 61} if i == 3 else {}))
        for i, (white, black, _, _) in enumerate(CHESS_GAMES):
            tables.append(open_table(tmp_path, broker.url(), f"b{i + 1}", "chess",
                                     [white, black], seed=i))
        for i in range(2):
            tables.append(open_table(tmp_path, broker.url(), f"m{i + 1}", "monopoly",
                                     ["Hat", "Dog", "Car"], seed=i,
                                     options={"variant": "time-limit", "cards": "virtual"}))
        # The tables play interleaved, as on a club night.
        chess_moves = {f"b{i + 1}": list(g[2]) for i, g in enumerate(CHESS_GAMES)}
        steps = {t.name: 0 for t in tables}
        while not all(t.session.state.is_terminal() for t in tables):
            for t in tables:
                if t.session.state.is_terminal():
                    continue
                if t.name in chess_moves:
                    _chess_step(t, chess_moves[t.name], CHESS_GAMES[int(t.name[1]) - 1][3])
                elif t.name.startswith("m") and steps[t.name] >= 150:
                    t.try_apply(TimeUp()) or t.step()  # the agreed hour, when it may be said
                else:
                    t.step()
                steps[t.name] += 1
        counts = {t.name: t.entries for t in tables}
        assert hub.wait_for(lambda h: all(_applied(h, n) == c for n, c in counts.items()), WAIT)
        night = hub.snapshot()

        # Every table live, with the table's own public state.
        assert [t["table"] for t in night["tables"]] == sorted(counts)
        for t in tables:
            assert _record(hub, t.name).view == json.loads(json.dumps(t.public()))

        # The cribbage league: game points, wins and skunks from each table's final state.
        expected: dict[str, int] = {}
        for t in tables[:4]:
            for player, points in _cribbage_points(t).items():
                expected[player] = expected.get(player, 0) + points
        league = {r["player"]: r for r in night["cribbage"]}
        assert {p: r["game_points"] for p, r in league.items()} == expected
        assert all(r["played"] == 2 and r["won"] + r["lost"] == 2 for r in league.values())
        assert sum(r["skunks"] for r in league.values()) == sum(
            r["skunked"] for r in league.values())
        assert [r["game_points"] for r in night["cribbage"]] == sorted(expected.values(),
                                                                       reverse=True)

        # The chess round: results and crosstable.
        results = {(r["white"], r["black"]): r["result"] for r in night["chess"]["results"]}
        assert results == {("Kasparov", "Karpov"): "0-1", ("Tal", "Petrosian"): "1-0",
                           ("Karpov", "Tal"): "1-0", ("Petrosian", "Kasparov"): "0-1"}
        cross = {r["player"]: r for r in night["chess"]["crosstable"]}
        assert {p: r["total"] for p, r in cross.items()} == {
            "Kasparov": 1.0, "Karpov": 2.0, "Tal": 1.0, "Petrosian": 0.0}
        assert night["chess"]["players"][0] == "Karpov"
        assert cross["Karpov"]["against"] == {"Kasparov": 1.0, "Tal": 1.0, "Petrosian": None}

        # Monopoly: each game's final worths, as the engine values them, winner first.
        for t, row in zip(tables[8:], night["monopoly"], strict=True):
            worths = dict(zip(t.session.game.players, t.session.state.scores(), strict=True))
            assert {w["player"]: w["worth"] for w in row["worths"]} == worths
            assert row["worths"][0]["player"] in row["winners"]
        # and each table's whole screen at the hub, with the facts its own screen shows
        # (from the public state: the hidden shuffles leave the hub without the rules state)
        from companion.club.screen import table_document
        from companion.view.families import monopoly as monopoly_facts
        from companion.view.recent import Recent

        for t in tables[8:]:
            with hub.lock:
                record = _record(hub, t.name)
                assert record.reproduce() is None
                doc = table_document(record)
            assert doc is not None and doc["family"] == "monopoly"
            own = monopoly_facts(t.session, t.session.state.to_json(), Recent())
            assert own["deeds"] != [[], [], []]  # property was bought
            for key in ("currency", "groups", "deeds"):
                assert doc["extra"][key] == own[key], key
            assert doc["extra"]["worth"] == [int(w) for w in t.session.state.scores()]
            assert doc["extra"]["payments"]  # rent, purchases, ... in the table's words

        # The exports.
        rows = list(csv.DictReader(io.StringIO(results_csv(hub))))
        assert len(rows) == 4 * 2 + 4 * 2 + 2 * 3
        assert sum(int(r["game_points"]) for r in rows if r["game"] == "cribbage") == sum(
            expected.values())
        exported = json.loads(results_json(hub))
        assert len(exported["games"]) == 10 and exported["cribbage"] == night["cribbage"]
        pgn = io.StringIO(results_pgn(hub))
        games = [chess.pgn.read_game(pgn) for _ in CHESS_GAMES]
        assert [(g.headers["White"], g.headers["Result"]) for g in games if g] == [
            ("Kasparov", "0-1"), ("Tal", "1-0"), ("Karpov", "1-0"), ("Petrosian", "0-1")]
        assert [m.uci() for m in games[1].mainline_moves()] == CHESS_GAMES[1][2]
    finally:
        for t in tables:
            t.close()
        hub.close()
        broker.stop()


def test_each_game_of_a_cribbage_match_counts_in_the_league(tmp_path):
    import random

    from companion.club.hub import GameRecord
    from companion.club.publisher import public_view
    from companion.club.standings import cribbage_league, results_csv
    from companion.engine import CHANCE
    from companion.journal import Journal
    from companion.session import Session, build_game
    from companion.voice import Recorder

    # A best-of-three match played by the rules, and a hub record of its public view.
    game, files = build_game("cribbage", ["Ann", "Bob"], {"match": 3})
    session = Session.start(game, Journal.memory(), Recorder(), seed=3,
                            auto_chance=frozenset({"card", "shuffle"}), config=files)
    rng = random.Random(3)
    while not session.state.is_terminal():
        state = session.state
        session.apply(state.sample_chance(rng) if state.current_player() == CHANCE
                      else rng.choice(state.legal_actions()), source="script")
    final = session.state.to_json()
    played = final["games"]
    assert len(played) >= 2  # a match: best of three
    record = GameRecord("t1", "g1", info={"game": "cribbage", "players": ["Ann", "Bob"]},
                        view=public_view(game, session.state, len(session.applied)))
    league = {row["player"]: row for row in cribbage_league([record])}
    for side, name in enumerate(["Ann", "Bob"]):
        row = league[name]
        assert row["played"] == len(played)
        assert row["won"] == sum(g["winner"] == side for g in played)
        assert row["lost"] == len(played) - row["won"]
        assert row["game_points"] == final["match_points"][side]  # the engine's own count
        assert row["spread"] == sum(g["scores"][side] - g["scores"][1 - side] for g in played)

    class Night:  # what results_csv reads of a hub
        lock = contextlib.nullcontext()
        games = {("t1", "g1"): record}

    rows = list(csv.DictReader(io.StringIO(results_csv(Night))))  # type: ignore[arg-type]
    assert [(r["player"], int(r["game_points"])) for r in rows] == [
        ("Ann", final["match_points"][0]), ("Bob", final["match_points"][1])]


def _chess_step(table: Table, moves: list[str], resigns: int | None) -> None:
    if moves:
        table.session.apply(Move(moves.pop(0)), source="script")
    else:
        assert resigns is not None
        table.session.apply(Resign(resigns), source="script")


# --------------------------------------------------------------------------- faults


def test_broker_killed_and_a_table_cut_off_nothing_is_lost_or_doubled(tmp_path):
    import threading

    broker = start_broker(tmp_path / "broker")
    hub = Hub(Broker.parse(broker.url())).start()
    cable = Cable(broker.port)  # table c2 reaches the broker through a cable we can cut
    tables = [open_table(tmp_path, broker.url(), "c1", "cribbage", ["Ann", "Bob"], seed=1),
              open_table(tmp_path, f"mqtt://127.0.0.1:{cable.port}/club", "c2", "cribbage",
                         ["Cat", "Dan"], seed=2),
              open_table(tmp_path, broker.url(), "b1", "chess", ["W", "B"], seed=3)]
    chess_moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1",
                   "f8e7", "f1e1", "b7b5", "a4b3", "d7d6", "c2c3", "e8g8"]

    def play(rounds: int) -> None:
        for _ in range(rounds):
            for t in tables:
                if t.name == "b1":
                    if chess_moves:
                        t.session.apply(Move(chess_moves.pop(0)), source="script")
                elif not t.session.state.is_terminal():
                    t.step()

    def caught_up() -> bool:
        return all(_applied(hub, t.name) == t.entries for t in tables)

    try:
        play(5)
        assert hub.wait_for(lambda h: caught_up(), WAIT)

        broker.kill()  # a crash: no goodbye, nothing saved
        playing = threading.Thread(target=play, args=(5,), daemon=True)  # on, without it
        playing.start()
        playing.join(WAIT)
        assert not playing.is_alive(), "a table waits for the broker"
        broker.start()
        play(3)
        assert hub.wait_for(lambda h: caught_up(), WAIT)

        cable.cut()  # c2's Wi-Fi goes: it plays on, the others publish
        before = tables[1].entries
        play(6)
        assert tables[1].entries > before
        assert hub.wait_for(lambda h: _applied(h, "c1") == tables[0].entries, WAIT)
        assert _applied(hub, "c2") <= before  # nothing of c2's came through the cut cable
        cable.mend()
        play(2)
        assert hub.wait_for(lambda h: caught_up(), WAIT)

        for t in tables[:2]:
            t.play_out()
        assert hub.wait_for(lambda h: caught_up(), WAIT)
        for t in tables:
            record = _record(hub, t.name)
            assert sorted(record.entries) == list(range(1, t.entries + 1))
            assert record.applied == t.entries
            assert record.view == json.loads(json.dumps(t.public()))
        assert hub.applied == sum(t.entries for t in tables)  # each entry applied once
        chess_record = _record(hub, "b1")
        reproduced = chess_record.reproduce()
        assert reproduced is not None
        assert reproduced.to_json() == tables[2].session.state.to_json()
    finally:
        for t in tables:
            t.close()
        cable.close()
        hub.close()
        broker.stop()


# --------------------------------------------------------------------------- the page


def _get(url: str, timeout: float = WAIT) -> tuple[int, Any, bytes]:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()


def _listening(port: int) -> list[str]:
    """The local addresses listening on ``port`` (from /proc/net/tcp)."""
    found = []
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        address, hexport = local.split(":")
        if int(hexport, 16) == port and state == "0A":
            found.append(".".join(str(int(address[i:i + 2], 16)) for i in (6, 4, 2, 0)))
    return found


def test_the_hub_serves_its_page_on_localhost_only_with_live_updates_and_exports(tmp_path):
    import subprocess
    import sys
    import threading

    from companion.club.broker import free_port

    broker = start_broker(tmp_path / "broker")
    port = free_port()
    hub = subprocess.Popen([sys.executable, "-m", "companion.cli", "hub", broker.url(),
                            "--port", str(port)], stderr=subprocess.PIPE, text=True)
    table = open_table(tmp_path, broker.url(), "b1", "chess", ["Ann", "Bob"], seed=1)
    try:
        assert "http://127.0.0.1:" in hub.stderr.readline()
        base = f"http://127.0.0.1:{port}"

        def night() -> dict:
            status, _, body = _get(base + "/api/night?after=-1")
            assert status == 200
            return json.loads(body)

        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:  # the server is up once it answers
            try:
                first = night()
                break
            except OSError:
                time.sleep(0.05)
        assert _listening(port) == ["127.0.0.1"]
        status, headers, body = _get(base + "/")
        assert status == 200 and b"<title>Club night</title>" in body
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert _get(base + "/../etc/passwd")[0] == 404

        # A long poll answers as soon as a move reaches the hub.
        got: list[dict] = []
        version = first["version"]
        poll = threading.Thread(target=lambda: got.append(json.loads(
            _get(f"{base}/api/night?after={version}")[2])))
        poll.start()
        for move in ("f2f3", "e7e5", "g2g4", "d8h4"):
            table.session.command(move)
        poll.join(WAIT)
        assert got and got[0]["version"] > version
        deadline = time.monotonic() + WAIT
        while not (current := night())["chess"]["results"] and time.monotonic() < deadline:
            _get(f"{base}/api/night?after={current['version']}")  # waits for the next change
        [b1] = current["tables"]
        assert b1["table"] == "b1" and b1["online"] and b1["game"]["winners"] == ["Bob"]
        assert current["chess"]["results"][0]["result"] == "0-1"
        status, headers, body = _get(base + "/export/chess.pgn")
        assert status == 200 and "attachment" in headers["Content-Disposition"]
        assert b'[Result "0-1"]' in body and b"Qh4#" in body
        status, _, body = _get(base + "/export/results.csv")
        assert body.decode().splitlines()[0].startswith("table,game,game_id")
        assert len(body.decode().splitlines()) == 3
        assert json.loads(_get(base + "/export/results.json")[2])["games"][0]["over"]
    finally:
        table.close()
        hub.terminate()
        hub.wait(timeout=WAIT)
        broker.stop()


# --------------------------------------------------------------------------- security


def _raw_client(broker, user: str | None, password: str | None = None):
    """A bare paho client (MQTT 5, to read the broker's reason codes) and its CONNACK."""
    import threading

    import paho.mqtt.client as mqtt

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    if user is not None:
        client.username_pw_set(user, password)
    connected = threading.Event()
    answer: list[Any] = []

    def on_connect(_c, _u, _f, reason, _p=None):
        answer.append(reason)
        connected.set()

    client.on_connect = on_connect
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    assert connected.wait(WAIT)
    return client, answer[0]


def test_a_table_cannot_publish_into_another_tables_topic(tmp_path):
    import threading

    users = {"hub": "hub-secret", "t1": "t1-secret", "t2": "t2-secret"}
    broker = start_broker(tmp_path / "broker", users=users)
    hub = Hub(Broker.parse(broker.url("hub"))).start()
    table = open_table(tmp_path, broker.url("t1"), "t1", "chess", ["Ann", "Bob"], seed=1)
    clients = []
    try:
        # No account, or a wrong password: the broker refuses the connection.
        for user, password in ((None, None), ("t2", "wrong")):
            client, reason = _raw_client(broker, user, password)
            clients.append(client)
            assert reason.is_failure, reason

        table.session.command("e2e4")
        assert hub.wait_for(lambda h: _applied(h, "t1") == table.entries, WAIT)
        record = _record(hub, "t1")
        before = (dict(record.entries), dict(record.info), record.view)

        # Table t2, with its own valid account, tries to write into t1's game.
        intruder, reason = _raw_client(broker, "t2", "t2-secret")
        clients.append(intruder)
        assert not reason.is_failure
        forged = dict(record.entries[table.entries], seq=table.entries + 1,
                      payload={"type": "Resign", "player": 0})
        denied = []
        for leaf, data in (("entry", forged), ("game", {**record.info, "players": ["X", "Y"]}),
                           ("status", {"online": False})):
            info = intruder.publish(f"club/tables/t1/{leaf}", json.dumps(data), qos=1)
            info.wait_for_publish(WAIT)
            denied.append(info)
        # Then something it may publish: once the hub has it, the forged ones (sent before,
        # on the same connection, in order) would have arrived too.
        acks: list[int] = []
        done = threading.Event()
        intruder.on_publish = lambda _c, _u, mid, reason, _p: (acks.append(reason.value),
                                                                done.set())
        intruder.publish("club/tables/t2/status", json.dumps({"online": True}), qos=1)
        assert done.wait(WAIT) and acks == [0]
        assert hub.wait_for(lambda h: "t2" in h.tables and h.tables["t2"].online, WAIT)
        assert (dict(record.entries), dict(record.info), record.view) == before
        assert hub.tables["t1"].online
        assert hub.applied == table.entries
    finally:
        for client in clients:
            client.disconnect()
            client.loop_stop()
        table.close()
        hub.close()
        broker.stop()


# --------------------------------------------------------------------------- the command


def _companion(*args: str, stdin: str = "") -> Any:
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "companion.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_play_and_resume_publish_the_same_game_and_a_bad_address_is_refused(tmp_path):
    broker = start_broker(tmp_path / "broker")
    hub = Hub(Broker.parse(broker.url())).start()
    journal = tmp_path / "board5.sqlite"
    try:
        done = _companion("play", "chess", "--journal", str(journal), "--voice", "silent",
                          "--publish", broker.url(), "--table", "board5",
                          stdin="e2e4\ne7e5\n")
        assert done.returncode == 0, done.stderr
        assert "publishing as table board5" in done.stderr
        assert hub.wait_for(lambda h: _applied(h, "board5") == 2, WAIT)
        record = _record(hub, "board5")
        assert record.info["players"] == ["White", "Black"]
        assert json.loads((tmp_path / "board5.sqlite.club").read_text())["acked"] == 2

        # resume: the same game, and only the new entry is sent.
        done = _companion("resume", "--journal", str(journal), "--voice", "silent",
                          "--publish", broker.url(), "--table", "board5", stdin="g1f3\n")
        assert done.returncode == 0, done.stderr
        assert hub.wait_for(lambda h: _applied(h, "board5") == 3, WAIT)
        assert _record(hub, "board5") is record
        assert hub.received == 3  # entries 1 and 2 were not sent again
        assert record.view["state"]["moves_san"] == ["e4", "e5", "Nf3"]

        for bad in ("mqtt://nowhere", "http://h/c", str(tmp_path / "missing.toml")):
            done = _companion("play", "chess", "--journal", str(tmp_path / "x.sqlite"),
                              "--voice", "silent", "--publish", bad, stdin="e2e4\n")
            assert done.returncode == 2
            assert done.stderr.strip().endswith(".") and "Traceback" not in done.stderr
            assert not (tmp_path / "x.sqlite").exists()
    finally:
        hub.close()
        broker.stop()


def test_a_table_that_says_its_journal_goes_further_is_asked_for_the_rest(tmp_path):
    """What a broker acknowledged and lost in a crash: the table's status on reconnecting
    says how far its journal goes, and the hub asks for what it lacks."""
    import threading

    broker = start_broker(tmp_path / "broker")
    hub = Hub(Broker.parse(broker.url())).start()
    table = open_table(tmp_path, broker.url(), "t1", "chess", ["Ann", "Bob"], seed=1)
    listener, _ = _raw_client(broker, None)
    try:
        for move in ("e2e4", "e7e5"):
            table.session.command(move)
        assert hub.wait_for(lambda h: _applied(h, "t1") == 2, WAIT)
        game_id = _record(hub, "t1").game_id
        asked: list[dict] = []
        subscribed, got = threading.Event(), threading.Event()
        listener.on_subscribe = lambda *_args: subscribed.set()
        listener.on_message = lambda _c, _u, msg: (asked.append(json.loads(msg.payload)),
                                                   got.set())
        listener.subscribe("club/tables/t1/resend", qos=1)
        assert subscribed.wait(WAIT)
        listener.publish("club/tables/t1/status", json.dumps(
            {"online": True, "game_id": game_id, "last": 5}), qos=1)
        assert got.wait(WAIT)
        assert asked[0] == {"game_id": game_id, "from": 3}
    finally:
        listener.disconnect()
        listener.loop_stop()
        table.close()
        hub.close()
        broker.stop()


def test_a_hub_started_again_keeps_the_night_of_tables_that_have_gone(tmp_path):
    broker = start_broker(tmp_path / "broker")
    store = tmp_path / "night.jsonl"
    hub = Hub(Broker.parse(broker.url()), store=store).start()
    table = open_table(tmp_path, broker.url(), "b1", "chess", ["Ann", "Bob"], seed=1)
    try:
        for move in ("f2f3", "e7e5", "g2g4", "d8h4"):
            table.session.command(move)
        assert hub.wait_for(lambda h: _applied(h, "b1") == 4, WAIT)
        before = hub.snapshot()
    finally:
        table.close()
        hub.close()
        broker.stop()
    with store.open("a") as kept:
        kept.write('{"kind": "entry", "table": "b1", "da')  # a line cut by a crash
    again = Hub(Broker.parse(broker.url()), store=store).start()  # no broker, no table
    try:
        night = again.snapshot()
        assert night["chess"] == before["chess"] and night["games"] == before["games"]
        assert night["chess"]["results"][0]["result"] == "0-1"
        assert _record(again, "b1").reproduce().to_json()["fen"] == before["games"][0][
            "state"]["fen"]
    finally:
        again.close()


def test_a_table_publishes_over_tls_with_the_clubs_ca(tmp_path):
    import shutil
    from dataclasses import replace

    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed (it makes the test broker's certificates)")
    users = {"hub": "hub-secret", "t1": "t1-secret"}
    broker = start_broker(tmp_path / "broker", users=users, tls=True)
    ca = str(broker.ca)
    hub = Hub(replace(Broker.parse(broker.url("hub")), ca=ca)).start()
    try:
        assert broker.url("t1").startswith("mqtts://")
        done = _companion("play", "chess", "--journal", str(tmp_path / "t1.sqlite"),
                          "--voice", "silent", "--publish", broker.url("t1"),
                          "--club-ca", ca, stdin="e2e4\n")
        assert done.returncode == 0, done.stderr
        assert "publishing as table t1 to mqtts://t1@localhost" in done.stderr
        assert hub.wait_for(lambda h: _applied(h, "t1") == 1, WAIT)
        # Without the club's CA the broker's certificate is not trusted: nothing is sent,
        # and the game goes on.
        done = _companion("play", "chess", "--journal", str(tmp_path / "t2.sqlite"),
                          "--voice", "silent", "--publish", broker.url("t1"), "--table", "t1",
                          stdin="d2d4\nd7d5\n")
        assert done.returncode == 0, done.stderr
        assert json.loads(_companion("state", "--journal", str(tmp_path / "t2.sqlite"),
                                     "--json").stdout)["actions"] == 2
        assert not (tmp_path / "t2.sqlite.club").exists()  # nothing was acknowledged
    finally:
        hub.close()
        broker.stop()
